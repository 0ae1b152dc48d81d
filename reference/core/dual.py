"""Derivative enclosures: forward-mode dual numbers over an enclosing context.

:class:`DualContext` wraps a context whose numbers enclose exact values (mpmath's ``iv``,
or the python-flint balls of :mod:`reference.core.balls`) and gives it the interface the
result formulas use (``mpf``, ``sqrt``, ``fsum``, ``zero``, ``one``, ``e``, and ``exp``,
``log``, ``expm1``, ``log1p``, ``pos_part`` through :mod:`reference.core.numeric`, and the
normal tail ``normal_sf`` of :mod:`reference.core.special`).  A formula evaluated on
:meth:`DualContext.variables` returns a :class:`Dual`: an enclosure of its value and of
each partial derivative over the whole box, so that a sign of a partial derivative proven
on a box shows the formula monotone there (the prover of :mod:`reference.core.prover` uses
this to replace a variable by one end of its range).

The derivative rules are the textbook ones; every operation on the base numbers is the
base context's own enclosing arithmetic, so the enclosures are rigorous whenever the base
is.  A comparison of dual numbers raises ``TypeError``: a formula that branches on its
inputs cannot be analysed on a box.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from reference.core import numeric, special
from reference.core.numeric import MPF, Ctx, to_ctx

Number = Any   # a number of the base context


class Dual:
    """A value and its gradient, each an enclosure in the base context."""

    __slots__ = ("ctx", "d", "v")

    def __init__(self, ctx: DualContext, v: Number, d: tuple[Number, ...]) -> None:
        self.ctx, self.v, self.d = ctx, v, d

    def _lift(self, other: object) -> Dual:
        if isinstance(other, Dual):
            return other
        if isinstance(other, int | Fraction):
            return self.ctx.const(to_ctx(self.ctx.base, other))
        return self.ctx.const(other)

    def __add__(self, other: object) -> Dual:
        o = self._lift(other)
        return Dual(self.ctx, self.v + o.v, tuple(a + b for a, b in zip(self.d, o.d, strict=True)))

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(self.ctx, -self.v, tuple(-a for a in self.d))

    def __pos__(self) -> Dual:
        return self

    def __sub__(self, other: object) -> Dual:
        return self + -self._lift(other)

    def __rsub__(self, other: object) -> Dual:
        return self._lift(other) + -self

    def __mul__(self, other: object) -> Dual:
        o = self._lift(other)
        return Dual(self.ctx, self.v * o.v,
                    tuple(a * o.v + self.v * b for a, b in zip(self.d, o.d, strict=True)))

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Dual:
        o = self._lift(other)
        q = self.v / o.v
        return Dual(self.ctx, q, tuple((a - q * b) / o.v for a, b in zip(self.d, o.d, strict=True)))

    def __rtruediv__(self, other: object) -> Dual:
        return self._lift(other) / self

    def __pow__(self, n: object) -> Dual:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"dual numbers take integer powers only, got {n!r}")
        if n == 0:
            return self.ctx.one
        if n < 0:
            return self.ctx.one / self ** (-n)
        out = self
        for _ in range(n - 1):
            out = out * self
        return out

    def _chain(self, value: Number, slope: Number) -> Dual:
        return Dual(self.ctx, value, tuple(slope * a for a in self.d))

    def _refuse(self, other: object) -> bool:
        raise TypeError("a formula compared dual numbers: it branches on its inputs and "
                        "cannot be analysed on a box")

    __lt__ = __le__ = __gt__ = __ge__ = _refuse

    def __bool__(self) -> bool:
        raise TypeError("the truth value of a dual number is not defined")


class DualContext:
    """The context of :class:`Dual` numbers over ``base`` with variables ``names``."""

    def __init__(self, base: Ctx, names: Sequence[str]) -> None:
        self.base = base
        self.names = tuple(names)

    def const(self, v: Number) -> Dual:
        zero = self.base.mpf(0)
        return Dual(self, v, tuple(zero for _ in self.names))

    def variables(self, values: Sequence[Number]) -> list[Dual]:
        """The variables of the box, each with a unit gradient."""
        zero, one = self.base.mpf(0), self.base.mpf(1)
        return [Dual(self, v, tuple(one if j == i else zero for j in range(len(self.names))))
                for i, v in enumerate(values)]

    def mpf(self, x: object) -> Dual:
        if isinstance(x, Dual):
            return x
        return self.const(self.base.mpf(x))

    @property
    def zero(self) -> Dual:
        return self.const(self.base.mpf(0))

    @property
    def one(self) -> Dual:
        return self.const(self.base.mpf(1))

    @property
    def e(self) -> Dual:
        return self.exp(self.one)

    @property
    def pi(self) -> Dual:
        return self.const(self.base.pi)

    @property
    def prec(self) -> int:
        return int(self.base.prec)

    @prec.setter
    def prec(self, bits: int) -> None:
        self.base.prec = bits

    def fsum(self, terms: Iterable[object]) -> Dual:
        total = self.zero
        for t in terms:
            total = total + t
        return total

    def sqrt(self, x: object) -> Dual:
        x = self.mpf(x)
        root = self.base.sqrt(x.v)
        return x._chain(root, 1 / (2 * root))

    def exp(self, x: object) -> Dual:
        x = self.mpf(x)
        value = numeric.exp(self.base, x.v)
        return x._chain(value, value)

    def expm1(self, x: object) -> Dual:
        x = self.mpf(x)
        # the slope is e^x itself: value + 1 would cancel to a sign-less enclosure for x << 0
        return x._chain(numeric.expm1(self.base, x.v), numeric.exp(self.base, x.v))

    def log(self, x: object) -> Dual:
        x = self.mpf(x)
        return x._chain(numeric.log(self.base, x.v), 1 / x.v)

    def log1p(self, x: object) -> Dual:
        x = self.mpf(x)
        return x._chain(numeric.log1p(self.base, x.v), 1 / (1 + x.v))

    def normal_sf(self, x: object) -> Dual:
        """``Q(x)``; its derivative is minus the normal density ``exp(-x^2/2)/sqrt(2 pi)``."""
        x = self.mpf(x)
        density = numeric.exp(self.base, -(x.v ** 2) / 2) / self.base.sqrt(2 * self.base.pi)
        return x._chain(special.normal_sf(self.base, x.v), -density)

    def pos_part(self, x: object) -> Dual:
        """``max(x, 0)``, with the slope ``[0, 1]`` where ``x`` may be 0 (see :func:`step`)."""
        x = self.mpf(x)
        return x._chain(numeric.pos_part(self.base, x.v), step(self.base, x.v))

    def unit_step(self, x: object) -> Dual:
        """The slope of ``max(x, 0)`` (a margin that is itself a derivative): constant, so
        of derivative 0, where ``x`` has a sign; ``ValueError`` where it may be 0, since the
        slope jumps there and no derivative bounds it."""
        x = self.mpf(x)
        if sign(self.base, x.v) is None:
            raise ValueError("the slope of max(x, 0) jumps on the box: it has no derivative")
        return self.const(step(self.base, x.v))


def sign(base: Ctx, v: Number) -> int | None:
    """1 if ``v > 0`` throughout, -1 if ``v < 0`` throughout, else ``None`` (it may be 0)."""
    own = getattr(type(base), "definite_sign", None)
    if own is not None:
        return own(base, v)  # type: ignore[no-any-return]
    e = numeric.endpoints(v)
    return 1 if e.lo > 0 else -1 if e.hi < 0 else None


def step(base: Ctx, v: Number) -> Number:
    """The slopes of ``max(x, 0)`` on ``v``: 1 where ``v > 0``, 0 where ``v < 0``, else the
    interval ``[0, 1]``.  At the kink that is Clarke's generalized gradient, and forward
    differentiation carrying such sets encloses the generalized gradient of the whole
    (Lipschitz) formula; Lebourg's mean value theorem (``f(x) - f(c)`` is ``g . (x - c)``
    for some ``g`` of that gradient on the segment) then keeps the prover's centred forms
    and its monotone-variable rule sound across kinks.  A point context has no slope at 0.
    Dual numbers pass the call on (:meth:`DualContext.unit_step`).
    """
    own = getattr(type(base), "unit_step", None)
    if own is not None:
        return own(base, v)
    s = sign(base, v)
    if s is not None:
        return base.mpf(1 if s > 0 else 0)
    if numeric.is_interval(base) or hasattr(type(base), "definite_sign"):
        return base.mpf((0, 1))
    raise ValueError("max(x, 0) has no derivative at x = 0")


def value_of(x: Dual | MPF) -> MPF:
    """The value part of a dual number (a base number is returned unchanged)."""
    return x.v if isinstance(x, Dual) else x
