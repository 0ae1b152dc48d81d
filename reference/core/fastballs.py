"""A fast certified evaluator: python-flint's arb balls as a formula context.

The result formulas are written once, generic over a context (:mod:`reference.core.numeric`);
``mpmath.iv`` is the reference enclosing evaluator.  :data:`FAST` runs the same formula on
Arb's midpoint-radius balls (C, rigorous error bounds): about 25 times faster than ``iv``
per operation at 200 bits, which is what makes long sums cheap (the exact composition of
KOV15 Theorem 3.3 sums ``sqrt(k bits)`` terms).  A result opts in with ``balls=True``
(:func:`reference.core.model.result`); its certified enclosure then comes from the balls,
and its plain value too where the ball pins it (:func:`point`; else from ``mpmath.mp``), and
the tests check the two evaluators against each other and against exact values.

A ball is an enclosure like an ``iv`` interval, so the context reads as an interval context
(:func:`reference.core.numeric.is_interval`) and :func:`reference.core.numeric.endpoints` gives
its ends as exact ``mp`` numbers.  Comparisons of balls are true only when certain (``a < b``
holds for every pair of points), as the decisions of an interval context must be.

Unlike :class:`reference.core.balls.Balls`, the checker's end-by-end intervals, these are
Arb's own balls: faster, but an interval spanning orders of magnitude is widened to a ball
around its midpoint (harmless for the sums evaluated here, whose terms are narrow).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import mpmath
from flint import arb, ctx, fmpq, fmpz, fmpz_poly
from mpmath import mp

from reference.core import numeric

Arb = Any   # flint.arb (python-flint ships no type information)


def _exact_raw(x: Arb) -> Any:
    """The midpoint of a ball, an exact binary number, as a raw mpmath tuple."""
    man, exp = x.mid().man_exp()
    return mpmath.libmp.from_man_exp(int(man), int(exp))


#: Leading bits of ``mid`` and ``rad`` further apart than this: the ends are rounded outward
#: to this many bits (exactly they would need as many bits as the gap: ``1 +- 2^-(10^18)``).
MAX_EXACT_SPAN = 2**16


def ends(x: Arb) -> numeric.Interval:
    """The ends ``mid -+ rad`` of a ball, exactly, as ``mp`` numbers (``[-inf, inf]`` for a
    non-finite ball).  Not ``lower()``/``upper()``: those round to flint's current precision,
    which cut an enclosure of ``1 - 2^-200 c`` to the nearest ``2^-203``.  Where the exact
    ends would need more than :data:`MAX_EXACT_SPAN` bits they are rounded outward to that
    many (still an enclosure; ``2^-65536`` relative is below any precision used here)."""
    if not x.is_finite():
        return numeric.Interval(mp.ninf, mp.inf)
    if x.is_exact():                    # a point: both ends are its midpoint
        point = mp.make_mpf(_exact_raw(x))
        return numeric.Interval(point, point)
    mid, rad = _exact_raw(x), _exact_raw(x.rad())
    lib = mpmath.libmp
    gap = abs((mid[2] + mid[3]) - (rad[2] + rad[3])) if mid[1] and rad[1] else 0
    bits = 0 if gap <= MAX_EXACT_SPAN else MAX_EXACT_SPAN  # 0: exact
    return numeric.Interval(mp.make_mpf(lib.mpf_sub(mid, rad, bits, lib.round_floor)),
                            mp.make_mpf(lib.mpf_add(mid, rad, bits, lib.round_ceiling)))


def _raw(x: Any) -> Any:
    """The raw mpmath tuple of an int or an ``mp`` number, exactly (``mp.mpf(x)`` would
    round ``x`` to the current precision)."""
    if isinstance(x, int):
        return mpmath.libmp.from_int(x)
    if isinstance(x, float):
        return mpmath.libmp.from_float(x, 53)       # exact: a double has 53 bits
    if isinstance(x, mpmath.mpf):
        return x._mpf_
    raise TypeError(f"no ball for {type(x).__name__}")


def _exact(raw: Any) -> Arb:
    """A raw mpmath tuple (finite) as an exact ball."""
    sign, man, exp, _ = raw
    if not man and exp:
        raise ValueError(f"no ball for {mpmath.libmp.to_str(raw, 5)}")
    return arb((-int(man) if sign else int(man), int(exp)))


def point(x: Any, bits: int) -> Any:
    """The plain value a ball pins: its midpoint rounded to the working precision of ``mp``,
    when the ball is finite and its radius is below ``2^-bits`` of its midpoint (then the
    exact value, inside the ball, rounds to within one unit in the last place of it: a
    faithful rounding); else None, and None for a number of another context (an ``mp`` or
    ``iv`` number a formula made on the side: no radius vouches for it)."""
    if not isinstance(x, arb):
        return None
    if not x.is_finite() or not (x.is_exact() or x.rel_accuracy_bits() >= bits):
        return None
    man, exp = x.mid().man_exp()     # rounded once, as ``+`` of the exact midpoint would
    lib = mpmath.libmp
    return mp.make_mpf(lib.from_man_exp(int(man), int(exp), mp.prec, lib.round_nearest))


def rough_ends(x: Any) -> tuple[float, float] | None:
    """A ball's ends roughly, as floats (midpoint -+ radius in double precision: for
    estimates, never for an enclosure); None for a number of another context."""
    if not isinstance(x, arb):
        return None
    mid, rad = float(x.mid()), float(x.rad())
    return mid - rad, mid + rad


class FastBalls:
    """The context of arb balls; the precision is flint's global one (``ctx.prec``)."""

    interval = True   # an enclosing context (numeric.is_interval)
    integer = fmpz    # flint's integers (a sum's exact coefficients: int_poly_evals)

    @property
    def prec(self) -> int:
        return int(ctx.prec)

    @prec.setter
    def prec(self, bits: int) -> None:
        ctx.prec = bits

    def mpf(self, x: object) -> Arb:
        """A ball containing ``x``: an int, float, Fraction, finite ``mp`` number, ball, or a
        pair ``(lo, hi)`` of ints, floats or ``mp`` numbers (the ball around its midpoint)."""
        if isinstance(x, arb):
            return x
        if type(x) is int:      # exact at any precision (python-flint converts via fmpz)
            return arb(x)
        if isinstance(x, tuple):
            lo, hi = (_raw(e) for e in x)
            lib = mpmath.libmp
            if lib.mpf_lt(hi, lo):
                raise ValueError(f"a ball needs lo <= hi, got ({x[0]}, {x[1]})")
            # exact (precision 0): half the sum and half the difference of the ends
            mid = lib.mpf_shift(lib.mpf_add(lo, hi, 0), -1)
            rad = lib.mpf_shift(lib.mpf_sub(hi, lo, 0), -1)
            return arb(_exact(mid), _exact(rad))
        if isinstance(x, bool):
            raise TypeError("a bool is not a number")
        if isinstance(x, Fraction):
            return arb(fmpq(x.numerator, x.denominator))
        if isinstance(x, int | float | mpmath.mpf):
            return _exact(_raw(x))
        raise TypeError(f"no ball for {type(x).__name__}")

    point = staticmethod(point)

    @property
    def zero(self) -> Arb:
        return arb(0)

    @property
    def one(self) -> Arb:
        return arb(1)

    @property
    def pi(self) -> Arb:
        return arb.pi()

    @property
    def e(self) -> Arb:
        return arb.const_e()

    def fsum(self, terms: Iterable[Any]) -> Arb:
        total = arb(0)
        for t in terms:
            total += self.mpf(t)
        return total

    def int_poly_evals(self, coeffs: list[Any], points: Iterable[Any]) -> list[Arb]:
        """``sum coeffs[i] x^i`` (the constant first; integers: ``int`` or ``fmpz``) at each
        point, by flint's integer polynomial evaluated on the ball, in C."""
        poly = fmpz_poly(coeffs)
        return [poly(self.mpf(x)) for x in points]

    def exp(self, x: Arb) -> Arb:
        return self.mpf(x).exp()

    def expm1(self, x: Arb) -> Arb:
        return self.mpf(x).expm1()

    def log(self, x: Arb) -> Arb:
        return self._defined(self.mpf(x).log(), "log", x)

    def log1p(self, x: Arb) -> Arb:
        return self._defined(self.mpf(x).log1p(), "log1p", x)

    def sqrt(self, x: Arb) -> Arb:
        return self._defined(self.mpf(x).sqrt(), "sqrt", x)

    def factorial(self, n: int) -> Arb:
        """``n!`` for an int ``n >= 0`` (Arb's ``fac_ui``: exact while it fits the precision)."""
        if type(n) is not int or n < 0:
            raise ValueError(f"factorial needs an int n >= 0, got {n!r}")
        return arb.fac_ui(n)

    def loggamma(self, x: Arb) -> Arb:
        return self._defined(self.mpf(x).lgamma(), "loggamma", x)

    @staticmethod
    def _defined(y: Arb, name: str, x: Arb) -> Arb:
        """Arb answers a function undefined somewhere on the ball with a non-finite ball
        (``log`` of a ball reaching 0); here that is an error, as in ``iv``."""
        if not y.is_finite():
            raise ValueError(f"{name} is not defined on all of {x}")
        return y

    def pos_part(self, x: Arb) -> Arb:
        """``max(x, 0)``: the ball itself where it is positive, 0 where negative, else the
        ball around ``[0, upper]`` (its radius, rounded up to Arb's 30 bits, may reach a
        ``2^-30`` part of ``upper`` below 0)."""
        if x > 0:
            return x
        if x <= 0:
            return arb(0)
        return self.mpf((0, ends(x).hi))

    def normal_sf(self, x: Arb) -> Arb | None:
        """``Q(x) = erfc(x / sqrt 2) / 2`` on a ball, rigorously (:func:`.special.normal_sf`
        passes the call on).  Arb's ``erfc`` of the ball itself, with ``2 log2|x| + 10`` guard
        bits (``Q``'s relative condition number is about ``x^2 + 1``), where that ball is
        positive and as accurate as the argument allows (relative accuracy at least
        ``min(prec - 8, acc(x) - 2 size - 2)`` bits, ``2^(size-1) <= |x| < 2^size`` (``size =
        0`` below 1), ``acc(x)`` the accuracy of ``x`` relative to ``max(1, |x|)``: at 0 the
        radius counts, not the centre; at most 16 times the exact range ``[Q(hi), Q(lo)]``,
        whose relative width is about ``2 rad (|x| + 1)``; Arb's image of a ball argument
        measured up to 6 times it); else None, and :func:`.special.normal_sf` encloses ``Q``
        at the two exact ends by its rigorous point route (``Q`` decreases: ``[Q(hi),
        Q(lo)]``): for an argument that allows fewer than 16 bits, over which ``Q`` varies so
        much that Arb's image reaches below 0 or is wider still (5x at ``17125 +- 8e-6``).
        Beyond ``|x| =`` :data:`FAR`, where Arb's ``erfc`` loses more bits, from the Mills
        ratio's series (:func:`_far_tail`, with ``2 log2|x| + 10`` guard bits: ``x^2/2`` in
        the exponent), or None where that ball is not positive (an argument too wide for it)."""
        x = self.mpf(x)
        if x.is_finite() and (x > FAR or x < -FAR):
            old = ctx.prec
            ctx.prec = old + 10 + 2 * math.frexp(float(abs(x).upper()))[1]
            try:
                q = _far_tail(x) if x > 0 else 1 - _far_tail(-x)
            finally:
                ctx.prec = old
            return q if q.is_finite() and q > 0 else None
        top = float(abs(x).upper()) if x.is_finite() else math.inf
        size = math.frexp(top)[1] if 1 <= top <= 65536 else 0
        allowed = x.rel_one_accuracy_bits() - 2 * size - 2     # what the argument allows
        if top <= 65536 and allowed >= 16:
            old = ctx.prec
            ctx.prec = old + 10 + 2 * size
            try:
                q = (x / arb(2).sqrt()).erfc() / 2
            finally:
                ctx.prec = old
            if q.is_finite() and q > 0 and q.rel_accuracy_bits() >= min(old - 8, allowed):
                return q
        return None


#: Beyond this ``|x|`` Arb's ``erfc`` loses bits: :func:`_far_tail` instead.
FAR = 65536


def _far_tail(x: Arb) -> Arb:
    """``Q(x)`` on a ball ``x > 65536``: ``phi(x) R(x)``, the Mills ratio ``R(x)`` enclosed by
    two consecutive partial sums of ``(1/x) sum_n (-1)^n (2n-1)!!/x^(2n)`` (for real ``x > 0``
    the remainder has the sign of the first term left out and is smaller: DLMF 7.12(i), as
    :func:`reference.core.special.mills_bracket`), so at each point of the ball ``R`` lies in
    the union of the two sums' balls; each term is below ``2^-32`` of the one before."""
    inv2 = 1 / (x * x)
    term = partial = arb(1)
    small = arb(2) ** -(ctx.prec + 8)
    n = 0
    while True:
        term = -term * (2 * n + 1) * inv2
        n += 1
        following = partial + term
        if abs(term) < small:
            break
        partial = following
    return (-(x * x) / 2).exp() / (2 * arb.pi()).sqrt() * partial.union(following) / x


def normal_tail(t: Any, bits: int) -> numeric.Interval | None:
    """``Q(t) = erfc(t / sqrt 2) / 2`` at an exact ``mp`` point ``t``, from Arb's ``erfc``, or
    None when Arb's ball is not accurate to ``bits - 8`` bits relative (its ``erfc(7e5)`` at
    230 bits has a radius above its value): the caller then uses its own series.  Arb runs
    with ``2 log2|t|`` more bits, the condition number ``t^2`` of ``Q`` (the ball of ``t /
    sqrt 2`` is ``2^-prec`` wide).  15 to 100 times faster than :mod:`.special`'s series."""
    size = int(mpmath.mag(t)) if t else 0
    if size > 16:       # |t| > 65536: Arb's erfc loses more bits than these (all at 1e6)
        return None
    old = ctx.prec
    ctx.prec = bits + 8 + 2 * max(0, size)
    try:
        q = (_exact(t._mpf_) / arb(2).sqrt()).erfc() / 2
    finally:
        ctx.prec = old
    if not q.is_finite() or q.rel_accuracy_bits() < bits - 8:
        return None
    return ends(q)


#: The arb-ball context.
FAST = FastBalls()
numeric.READERS[arb] = ends


class at_bits:  # a class, as numeric.working
    """A context (the balls, ``iv`` or ``mp``) and ``mp`` at ``bits`` bits inside the block
    (restored after): an enclosure computed at a caller's precision on either evaluator."""

    def __init__(self, context: Any, bits: int) -> None:
        self.context, self.bits = context, bits

    def __enter__(self) -> None:
        self.saved = self.context.prec, mp.prec
        self.context.prec = mp.prec = self.bits

    def __exit__(self, *exc: object) -> None:
        self.context.prec, mp.prec = self.saved


def ends_on_balls(enclose: Callable[[Any], numeric.Interval]) -> numeric.Interval:
    """``enclose(FAST)``: an enclosure's ends from Arb's balls (as rigorous as ``iv``, several
    times faster), or ``enclose(mpmath.iv)`` where Arb raises or the upper end is infinite (a
    ball past Arb's exponent range, ``exp`` of an exact ``10^300`` say, is ``[+/- inf]``;
    mpmath's exponents are unbounded).  ``enclose`` sets each context's precision itself;
    a lower end of ``-inf`` is kept (an honest bound, e.g. a proof that found nothing)."""
    try:
        out = enclose(FAST)
    except Exception:   # beyond Arb's range, say
        return enclose(mpmath.iv)
    return enclose(mpmath.iv) if mpmath.isinf(out.hi) else out
