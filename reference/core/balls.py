"""A second enclosing evaluator: python-flint's arb balls behind the context interface.

:class:`Balls` gives intervals with Arb-computed ends (C, rigorous error bounds) the interface
the result formulas use (``mpf``, ``sqrt``, ``exp``, ``log``, ``expm1``, ``log1p``,
``normal_sf``, ``pos_part``, ``fsum``, ``zero``, ``one``, ``e``, ``pi``, ``prec``), so that the same
formula runs in a library that shares no code with mpmath.  The proof checker
(:mod:`reference.core.proofcheck`) re-verifies the prover's certificates with it, so that a
bug of one library cannot both make and check a proof.

python-flint is optional (the ``prove`` and ``test`` extras): :func:`balls` raises
``ImportError`` with the command that installs it.  An operation undefined somewhere on an
interval (``log`` of an interval reaching 0, a divisor containing 0) raises ``ValueError``,
which the checker reads as "not proved".
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from typing import Any

import mpmath

Arb = Any   # flint.arb (python-flint ships no type information)


class ArbInterval:
    """A closed interval whose ends are exact arb numbers (zero radius), ``lo <= hi``.

    Arithmetic and the increasing functions work end by end, each end computed by Arb as
    a ball and rounded outward (``lower()`` / ``upper()``): an interval spanning many orders
    of magnitude keeps both ends, which Arb's own midpoint-radius balls do not
    (``1/delta`` for ``delta`` in [1e-15, 1/2] has a midpoint-radius enclosure reaching
    below 0).  An operation undefined somewhere on the interval (a divisor containing 0, the
    logarithm of an interval reaching 0) raises ``ValueError``.
    """

    __slots__ = ("hi", "lo")

    def __init__(self, lo: Arb, hi: Arb) -> None:
        if not (lo.is_finite() and hi.is_finite()):
            raise ValueError("an interval end is not finite")
        self.lo, self.hi = lo, hi

    @staticmethod
    def of(x: object) -> ArbInterval:
        return x if isinstance(x, ArbInterval) else balls().mpf(x)

    def __add__(self, other: object) -> Any:
        if not isinstance(other, ArbInterval | int | Fraction | mpmath.mpf):
            return NotImplemented   # e.g. a dual number over these intervals
        o = ArbInterval.of(other)
        return ArbInterval((self.lo + o.lo).lower(), (self.hi + o.hi).upper())

    __radd__ = __add__

    def __neg__(self) -> ArbInterval:
        return ArbInterval(-self.hi, -self.lo)

    def __pos__(self) -> ArbInterval:
        return self

    def __sub__(self, other: object) -> Any:
        if not isinstance(other, ArbInterval | int | Fraction | mpmath.mpf):
            return NotImplemented
        return self + -ArbInterval.of(other)

    def __rsub__(self, other: object) -> Any:
        return ArbInterval.of(other) + -self

    def __mul__(self, other: object) -> Any:
        if not isinstance(other, ArbInterval | int | Fraction | mpmath.mpf):
            return NotImplemented
        return self._mul(ArbInterval.of(other))

    def _mul(self, o: ArbInterval) -> ArbInterval:
        prods = [a * b for a in (self.lo, self.hi) for b in (o.lo, o.hi)]
        return ArbInterval(_least([p.lower() for p in prods]), _most([p.upper() for p in prods]))

    __rmul__ = __mul__

    def _inverse(self) -> ArbInterval:
        if not (self.lo > 0 or self.hi < 0):
            raise ValueError("division by an interval containing 0")
        return ArbInterval((1 / self.hi).lower(), (1 / self.lo).upper())

    def __truediv__(self, other: object) -> Any:
        if not isinstance(other, ArbInterval | int | Fraction | mpmath.mpf):
            return NotImplemented
        return self * ArbInterval.of(other)._inverse()

    def __rtruediv__(self, other: object) -> ArbInterval:
        return ArbInterval.of(other)._mul(self._inverse())

    def __pow__(self, n: object) -> ArbInterval:
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise TypeError(f"intervals take non-negative integer powers only, got {n!r}")
        out = ArbInterval.of(1)
        for _ in range(n):
            out = out._mul(self)
        return out

    def increasing(self, name: str, above: int | None = None) -> ArbInterval:
        """An increasing function, end by end (``above``: its domain is ``x > above``,
        or ``x >= 0`` for ``sqrt``)."""
        if above is not None and not self.lo > above:
            raise ValueError(f"{name} of an interval reaching {above}")
        if name == "sqrt" and self.lo < 0:
            raise ValueError("sqrt of an interval reaching below 0")
        return ArbInterval(getattr(self.lo, name)().lower(), getattr(self.hi, name)().upper())

    def __repr__(self) -> str:
        return f"[{self.lo}, {self.hi}]"


def _least(xs: list[Arb]) -> Arb:
    out = xs[0]
    for x in xs[1:]:
        out = x if x < out else out
    return out


def _most(xs: list[Arb]) -> Arb:
    out = xs[0]
    for x in xs[1:]:
        out = x if x > out else out
    return out


class Balls:
    """The context of :class:`ArbInterval` numbers (the precision is flint's global one)."""

    def __init__(self) -> None:
        import flint

        self.flint = flint

    @property
    def prec(self) -> int:
        return int(self.flint.ctx.prec)

    @prec.setter
    def prec(self, bits: int) -> None:
        self.flint.ctx.prec = bits

    def mpf(self, x: object) -> ArbInterval:
        """An interval containing ``x``: an int, Fraction, finite mpmath number, interval,
        or a pair ``(lo, hi)`` of them."""
        arb, fmpq = self.flint.arb, self.flint.fmpq
        if isinstance(x, ArbInterval):
            return x
        if isinstance(x, tuple):
            lo, hi = (self.mpf(e) for e in x)
            if hi.hi < lo.lo:
                raise ValueError(f"an interval needs lo <= hi, got ({x[0]}, {x[1]})")
            return ArbInterval(lo.lo, hi.hi)
        if isinstance(x, bool):
            raise TypeError("a bool is not a number")
        if isinstance(x, mpmath.mpf):
            sign, man, exp, _ = x._mpf_
            if not man and exp:   # inf or nan
                raise ValueError(f"no interval for {x}")
            q = Fraction(int(man)) * Fraction(2) ** int(exp) if man else Fraction(0)
            x = -q if sign else q
        if isinstance(x, int):
            x = Fraction(x)
        if isinstance(x, Fraction):
            ball = arb(fmpq(x.numerator, x.denominator))
            return ArbInterval(ball.lower(), ball.upper())
        raise TypeError(f"no interval for {type(x).__name__}")

    @property
    def zero(self) -> ArbInterval:
        return self.mpf(0)

    @property
    def one(self) -> ArbInterval:
        return self.mpf(1)

    @property
    def e(self) -> ArbInterval:
        return self.one.increasing("exp")

    def fsum(self, terms: Iterable[object]) -> ArbInterval:
        total = self.zero
        for t in terms:
            total = total + t
        return total

    def sqrt(self, x: object) -> ArbInterval:
        return self.mpf(x).increasing("sqrt")

    def exp(self, x: object) -> ArbInterval:
        return self.mpf(x).increasing("exp")

    def expm1(self, x: object) -> ArbInterval:
        return self.mpf(x).increasing("expm1")

    def log(self, x: object) -> ArbInterval:
        return self.mpf(x).increasing("log", above=0)

    def log1p(self, x: object) -> ArbInterval:
        return self.mpf(x).increasing("log1p", above=-1)

    @property
    def pi(self) -> ArbInterval:
        ball = self.flint.arb.pi()
        return ArbInterval(ball.lower(), ball.upper())

    def normal_sf(self, x: object) -> ArbInterval:
        """``Q(x) = erfc(x / sqrt 2) / 2``, decreasing: ``[Q(hi), Q(lo)]`` by Arb's erfc.

        ``Q``'s relative condition number is about ``x^2 + 1``, so ``x / sqrt 2`` is formed
        with ``2 log2 |x|`` guard bits (the ends keep them: they are exact numbers), and
        ``erfc`` is taken at the exact outer end of that ball (``erfc`` is decreasing): Arb's
        ``erfc`` of a ball that is not a point gives only ``[+/- bound]`` far out (from
        about ``x = 10^15`` on), a lower end below 0."""
        x = self.mpf(x)
        top = max(abs(e) for e in ends(x))
        old = self.prec
        self.prec = old + 10 + 2 * int(top).bit_length()
        try:
            root2 = self.flint.arb(2).sqrt()
            return ArbInterval(((x.hi / root2).upper().erfc() / 2).lower(),
                               ((x.lo / root2).lower().erfc() / 2).upper())
        finally:
            self.prec = old

    def pos_part(self, x: object) -> ArbInterval:
        """``max(x, 0)``, end by end (the ends are exact)."""
        lo, hi = ends(self.mpf(x))
        return self.mpf((max(lo, Fraction(0)), max(hi, Fraction(0))))

    def definite_sign(self, x: object) -> int | None:
        """1 if ``x > 0`` throughout, -1 if ``x < 0`` throughout, else ``None`` (the slope of
        ``max(x, 0)``, :func:`reference.core.dual.step`, is decided by it)."""
        x = self.mpf(x)
        return 1 if _sign(x.lo) > 0 else -1 if _sign(x.hi) < 0 else None


@cache
def balls() -> Balls:
    """The arb-ball context; ``ImportError`` naming the extra if python-flint is missing."""
    try:
        return Balls()
    except ImportError as err:
        raise ImportError("the arb-ball evaluator needs python-flint: "
                          "python -m pip install 'dp-reference[prove]'") from err


def ends(x: ArbInterval) -> tuple[Fraction, Fraction]:
    """The exact ends of an interval as Fractions."""
    out = []
    for end in (x.lo, x.hi):
        man, exp = end.mid().man_exp()
        out.append(Fraction(int(man)) * Fraction(2) ** int(exp))
    return out[0], out[1]


def _sign(end: Any) -> int:
    """The sign of an exact end (from its mantissa: an end like e^(-10^40) is never made a
    Fraction of 10^40 bits)."""
    man = int(end.mid().man_exp()[0])
    return (man > 0) - (man < 0)


def positive(x: ArbInterval, strict: bool) -> bool:
    """Whether every point of the interval is ``> 0`` (``strict``) or ``>= 0``."""
    s = _sign(x.lo)
    return s > 0 if strict else s >= 0
