"""The numeric contract: exact input conversion, working precision, intervals.

Every formula in the library is written once as a function whose first argument is
an mpmath *context*: ``mpmath.mp`` (point arithmetic at the working precision) or
``mpmath.iv`` (outward-rounded interval arithmetic; Arb's balls, :mod:`.fastballs`, are a
faster one).  Evaluating the same code with ``iv`` gives an enclosure that provably
contains the exact real value.

Inputs (``int | float | str | Fraction | Decimal | mpf``) are first converted
*exactly* to :class:`fractions.Fraction`: a float is the binary number it holds,
``"0.1"`` is one tenth.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeAlias

import mpmath
from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.mp_exp import exp_or_expm1
from reference.core.series import series

#: An mpmath number of either context (mpmath ships no type information).
MPF: TypeAlias = Any
#: An mpmath context, ``mp`` or ``iv``.
Ctx: TypeAlias = Any
#: What users may pass where a real number is expected.
Real: TypeAlias = int | float | str | Fraction | Decimal | Any

DEFAULT_DPS = 50
_DPS: ContextVar[int] = ContextVar("reference_dps", default=DEFAULT_DPS)


def get_dps() -> int:
    """The working precision in decimal digits (default 50)."""
    return _DPS.get()


@contextlib.contextmanager
def precision(dps: int) -> Iterator[None]:
    """Evaluate results inside the block at ``dps`` decimal digits.

    >>> from reference import precision, get_dps
    >>> with precision(80):
    ...     get_dps()
    80
    >>> get_dps()
    50
    """
    if isinstance(dps, bool) or not isinstance(dps, int) or not 5 <= dps <= 10_000:
        raise DomainError("dps", dps, "must be an integer in [5, 10000]", "precision()")
    token = _DPS.set(dps)
    try:
        yield
    finally:
        _DPS.reset(token)


def exact(x: object, name: str, where: str) -> Fraction:
    """Convert ``x`` exactly to a Fraction, or raise :class:`DomainError`.

    >>> exact(0.1, "eps", "demo") == Fraction(3602879701896397, 36028797018963968)
    True
    >>> exact("0.1", "eps", "demo")
    Fraction(1, 10)
    """
    if type(x) is Fraction:     # the common exact types first, without the ABC checks below
        return x
    if type(x) is int:
        return Fraction(x)
    if isinstance(x, bool) or x is None:
        raise DomainError(name, x, "must be a real number", where)
    if isinstance(x, str):
        try:
            return _decimal(x)
        except (ValueError, ZeroDivisionError):
            raise DomainError(name, x, "must be a finite decimal or fraction", where) from None
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Integral):
        return Fraction(int(x))
    if isinstance(x, float | numbers.Real) and not isinstance(x, Decimal | Fraction):
        if isinstance(x, mpmath.mpf):
            if not mpmath.isfinite(x):
                raise DomainError(name, x, "must be finite", where)
            # the raw triple: ``man_exp`` drops the sign in mpmath 1.3 (-0.5 gave +1/2)
            sign, man, exp, _ = x._mpf_
            man, exp = (-int(man) if sign else int(man)), int(exp)
            return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
        f = float(x)
        if not math.isfinite(f):
            raise DomainError(name, x, "must be finite", where)
        return Fraction(f)
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise DomainError(name, x, "must be finite", where)
        return Fraction(x)
    raise DomainError(name, x, "must be a real number", where)


@functools.lru_cache(maxsize=4096)   # parsing costs microseconds, on every call
def _decimal(text: str) -> Fraction:
    return Fraction(text.strip().replace("_", ""))


def to_ctx(ctx: Ctx, q: Fraction | int) -> MPF:
    """The rational ``q`` in context ``ctx`` (an enclosure when ``ctx`` is ``iv``)."""
    if isinstance(q, int):
        return ctx.mpf(q)
    if q.denominator == 1:
        return ctx.mpf(q.numerator)
    return ctx.mpf(q.numerator) / ctx.mpf(q.denominator)


def is_interval(ctx: Ctx) -> bool:
    """True for an enclosing context: ``iv``, or one that says so (the arb balls)."""
    return ctx is iv or getattr(ctx, "interval", False) is True


def pos_part(ctx: Ctx, x: MPF) -> MPF:
    """``max(x, 0)``, rigorous in both contexts (a context with its own ``pos_part``, the
    prover's tracer, dual numbers and balls, gets the call passed on)."""
    own = getattr(type(ctx), "pos_part", None)
    if own is not None:
        return own(ctx, x)
    if is_interval(ctx):
        lo, hi = x._mpi_
        zero = mpmath.libmp.fzero
        lo = lo if mpmath.libmp.mpf_gt(lo, zero) else zero
        hi = hi if mpmath.libmp.mpf_gt(hi, zero) else zero
        return ctx.mpf((mp.make_mpf(lo), mp.make_mpf(hi)))
    return x if x > 0 else ctx.zero


def ctx_min(ctx: Ctx, x: MPF, y: MPF) -> MPF:
    """``min(x, y)``, rigorous in both contexts."""
    if is_interval(ctx):
        a, b = endpoints(x), endpoints(y)
        return ctx.mpf((min(a.lo, b.lo), min(a.hi, b.hi)))
    return x if x <= y else y


def ball(ctx: Ctx, r: MPF) -> MPF:
    """``[-r, r]`` (``r >= 0``): a remainder known only by a bound on its size."""
    return ctx.mpf((-r, r))


def abs_gap(ctx: Ctx, u: MPF, d: MPF) -> MPF:
    """``|u - d| - |u|`` without cancellation: ``s (d - 2u)`` clipped to ``[-|d|, |d|]``.

    Piecewise, with ``s = sign(d)``: ``|d|`` for ``s u <= 0``, ``|d| - 2 s u`` between,
    ``-|d|`` for ``s u >= |d|``.  The difference of absolute values loses every digit when
    ``|d|`` is below the working precision relative to ``|u|`` (``u = -3.3e-236``,
    ``d = 3.9e-286`` gave 0.943 d instead of d in the Laplace loss of RSWR23 Lemma A.1).

    >>> print(abs_gap(mpmath.mp, mpmath.mpf("-3.3e-236"), mpmath.mpf("3.9e-286")))
    3.9e-286
    """
    m = abs(d)
    if is_interval(ctx):
        e = endpoints(d)
        if e.lo < 0 < e.hi:             # sign undecided at this precision: |gap| <= |d|
            return ball(ctx, endpoints(m).hi)
        s = 1 if e.lo >= 0 else -1
    else:
        s = 1 if d >= 0 else -1
    return -ctx_min(ctx, -ctx_min(ctx, m, m - 2 * s * u), m)


def binary_order(q: Fraction | int) -> int:
    """An integer ``n`` with ``2^(n-2) < |q| < 2^n`` for a non-zero rational (0 for ``q = 0``).

    Read off the bit lengths, so it works for any rational without building an mpmath number
    (mpmath 1.3 cannot convert a ``Fraction``).

    >>> binary_order(Fraction(1, 10**12)), binary_order(Fraction(3, 2)), binary_order(8)
    (-38, 1, 4)
    """
    q = Fraction(q)
    if q == 0:
        return 0
    return abs(q.numerator).bit_length() - q.denominator.bit_length() + 1


def compare(x: MPF, q: Fraction) -> int:
    """The sign of ``x - q`` for a finite ``mp`` number ``x``, decided exactly.

    When the magnitudes differ by more than a few binary orders the answer is read off
    the exponents, so ``x = e^(10^10)`` is never expanded into an integer of 10^10 bits.

    >>> compare(mp.mpf(3), Fraction(5, 2)), compare(mp.exp(10**10), Fraction(10**100))
    (1, 1)
    """
    sx = int(x > 0) - int(x < 0)
    sq = int(q > 0) - int(q < 0)
    if sx != sq:
        return 1 if sx > sq else -1
    if sx == 0:
        return 0
    mag_q = binary_order(q) - 1
    mag_x = int(mp.mag(x))
    if mag_x > mag_q + 4:
        return sx
    if mag_x < mag_q - 4:
        return -sx
    d = exact(x, "x", "compare") - q
    return int(d > 0) - int(d < 0)


@dataclass(frozen=True)
class Interval:
    """A closed interval ``[lo, hi]`` of mpmath numbers that contains an exact value."""

    lo: MPF
    hi: MPF

    def __contains__(self, x: object) -> bool:
        return bool(self.lo <= x <= self.hi)

    @property
    def mid(self) -> MPF:
        return (self.lo + self.hi) / 2

    @property
    def width(self) -> MPF:
        return self.hi - self.lo

    def __str__(self) -> str:
        return f"[{mpmath.nstr(self.lo, 17)}, {mpmath.nstr(self.hi, 17)}]"


#: The ends of the numbers of other enclosing contexts, by type (the arb balls add theirs).
READERS: dict[type, Callable[[Any], Interval]] = {}


def endpoints(x: MPF) -> Interval:
    """The ends of an ``iv`` number, a ball or a point as an :class:`Interval` of ``mp`` numbers."""
    if isinstance(x, iv.mpf):
        lo, hi = x._mpi_
        return Interval(mp.make_mpf(lo), mp.make_mpf(hi))
    reader = READERS.get(type(x))
    if reader is not None:
        return reader(x)
    return Interval(mp.mpf(x), mp.mpf(x))


class working:  # a class, not a generator: several run in every evaluation
    """``with working(ctx, dps):`` sets ``ctx`` to ``dps`` digits (default :func:`get_dps`;
    intervals get 10 guard digits, and ``mp`` as many); restored on exit."""

    def __init__(self, ctx: Ctx, dps: int | None = None) -> None:
        self.ctx, self.digits = ctx, get_dps() if dps is None else dps

    def __enter__(self) -> None:
        self.saved = (self.ctx.prec if is_interval(self.ctx) else None), mp.prec
        if self.saved[0] is not None:
            self.ctx.prec = mpmath.libmp.dps_to_prec(self.digits + 10)  # as iv.dps = digits + 10
        mp.dps = self.digits + (10 if self.saved[0] is not None else 0)

    def __exit__(self, *exc: object) -> None:
        old, mp.prec = self.saved
        if old is not None:
            self.ctx.prec = old


class extra_bits:  # a class, as working
    """Raise ``ctx.prec`` by ``bits`` guard bits inside the block (restored after); for an
    interval context ``mp`` alike, as :func:`working` sets both: helper arithmetic on ends in
    ``mp`` (``-t``, ``abs``) must not round them below the interval's precision
    (``normal_sf`` once lost rigour that way)."""

    def __init__(self, ctx: Ctx, bits: int) -> None:
        self.ctx, self.bits = ctx, bits

    def __enter__(self) -> None:
        self.saved = old, old_mp = self.ctx.prec, mp.prec
        self.ctx.prec = old + self.bits
        if is_interval(self.ctx):
            mp.prec = max(old_mp, self.ctx.prec)

    def __exit__(self, *exc: object) -> None:
        self.ctx.prec, mp.prec = self.saved


# ---- expm1 / log1p with rigorous enclosures ---------------------------------------------
# mpmath's interval expm1/log1p return x +- x**2/2 without a remainder when |x| < 2**-prec,
# which can exclude the exact value; every module uses these instead of ctx.expm1/log1p.


def _at_point(v: MPF, log: bool) -> MPF:
    if not v:
        return iv.zero
    if abs(v) < mp.mpf(2) ** -8:
        return series(v, log)
    return _fine(mp.log1p if log else mp.expm1, v)


# ---- exp / log with rigorous enclosures ---------------------------------------------------
# mpmath's interval exp and log (directed rounding in libmpf) were measured to exclude the
# exact value by an ulp: iv.exp(-1.175494351e-38) at 203 bits gave a point interval (1 - x
# rounded), random arguments now and then (exp(0.79855) at 100 bits).  Here mpmath only
# supplies a value FINE_BITS finer than needed, trusted to 2**20 of its own ulps, and the
# ends are widened by that; near 1 (exp) or 0 (log) the series of :mod:`.series`.

#: Extra bits of the mpmath value behind an enclosure end of :func:`exp` and :func:`log`.
FINE_BITS = 40


def _exact_sum(a: MPF, b: MPF) -> MPF:
    return mp.make_mpf(mpmath.libmp.mpf_add(a._mpf_, b._mpf_, 0))   # prec 0: exact


def _fine(fn: Any, v: MPF) -> MPF:
    """An ``iv`` enclosure of ``fn(v)`` (``mp.exp`` or ``mp.log``) at the exact point ``v``."""
    wp = iv.prec + FINE_BITS
    with mp.workprec(wp):
        y = exp_or_expm1(v, fn == mp.expm1) if fn in (mp.exp, mp.expm1) else fn(v)  # (a method)
    slack = mp.ldexp(abs(y), 20 - wp)                 # 2**20 ulps at wp (exact scaling)
    lo = mpmath.libmp.mpf_sub(y._mpf_, slack._mpf_, iv.prec, mpmath.libmp.round_floor)
    hi = mpmath.libmp.mpf_add(y._mpf_, slack._mpf_, iv.prec, mpmath.libmp.round_ceiling)
    return iv.mpf((mp.make_mpf(lo), mp.make_mpf(hi)))


def _exp_point(v: MPF) -> MPF:
    if mpmath.isinf(v) or not v:
        return iv.exp(iv.mpf(v))                       # 0, 1 or inf: exact
    if abs(v) < mp.mpf(2) ** -8:
        return 1 + series(v, False)
    return _fine(mp.exp, v)


def _log_point(v: MPF) -> MPF:
    if mpmath.isinf(v) or v <= 0 or v == 1:
        return iv.log(iv.mpf(v))                       # inf, -inf, 0: exact (or an error)
    if mp.mpf(0.99) < v < mp.mpf(1.01):   # exponents close: the exact difference is short
        d = _exact_sum(v, -mp.one)
        if abs(d) < mp.mpf(2) ** -8:
            return series(d, True)
    return _fine(mp.log, v)


def exp(ctx: Ctx, x: MPF) -> MPF:
    """``exp`` whose ``iv`` enclosure is rigorous (see the comment above); increasing, so
    the ends of an interval argument are enclosed separately.

    >>> e = endpoints(exp(iv, iv.mpf("-1.175494351e-38")))
    >>> with mp.workdps(100):
    ...     bool(e.lo <= mp.exp(mp.mpf("-1.175494351e-38")) <= e.hi), e.lo < e.hi
    (True, True)
    """
    if ctx is not iv:
        return ctx.exp(x)
    ends = endpoints(x)
    return iv.mpf((endpoints(_exp_point(ends.lo)).lo, endpoints(_exp_point(ends.hi)).hi))


def log(ctx: Ctx, x: MPF) -> MPF:
    """``log`` with a rigorous ``iv`` enclosure; see :func:`exp`."""
    if ctx is not iv:
        return ctx.log(x)
    ends = endpoints(x)
    if ends.lo < 0:
        return iv.log(x)                               # an error: log of a negative number
    # a lower end 0 gives -inf (_log_point); the upper end needs the rigorous route too:
    # iv.log([0, v]) was 1 ulp below log(v) for v just above 1 (e.g. 1 + 123227 * 2^-68)
    return iv.mpf((endpoints(_log_point(ends.lo)).lo, endpoints(_log_point(ends.hi)).hi))


def expm1(ctx: Ctx, x: MPF) -> MPF:
    """``expm1`` whose ``iv`` enclosure is rigorous also for tiny arguments.

    mpmath's ``expm1``/``log1p`` return ``x +- x**2/2`` when ``|x| < 2**-prec`` with no
    remainder, which in ``iv`` can exclude the exact value; both are increasing, so the
    endpoints are enclosed separately here.
    """
    if ctx is not iv:
        return ctx.expm1(x)
    ends = endpoints(x)
    return iv.mpf((endpoints(_at_point(ends.lo, False)).lo,
                   endpoints(_at_point(ends.hi, False)).hi))


def log1p(ctx: Ctx, x: MPF) -> MPF:
    """``log1p`` (``x > -1``) with a rigorous ``iv`` enclosure; see :func:`expm1`."""
    if ctx is not iv:
        return ctx.log1p(x)
    ends = endpoints(x)
    return iv.mpf((endpoints(_at_point(ends.lo, True)).lo,
                   endpoints(_at_point(ends.hi, True)).hi))
