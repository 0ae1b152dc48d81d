"""Independent evaluations of the catalogue's closed forms with python-flint arb balls.

One function per result id (registered in :data:`ROUTES`), written from the paper's
statement, not from our code: each takes the exact bound inputs (``Fraction``, ``int``, or
tuples of them) and returns an ``arb`` ball, ``math.inf`` for an exactly infinite value, an
exact ``Fraction``/``int``, a list of those, or a dict ``{output field: value}``.

Precision: :data:`PREC` bits (about 200 decimal digits, 4x our 50).  Where a route needs a
sign decision (a positive part, a floor) it is taken exactly on rationals when it reduces to
a rational comparison, else from the balls; a decision that the balls cannot take raises
:class:`Undecided` (the test skips that draw).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from flint import arb, ctx, fmpq

#: Working precision of the routes in bits (200 decimal digits is 665 bits).
PREC = 680

ROUTES: dict[str, Callable[..., Any]] = {}


class Undecided(Exception):
    """A sign or floor that the balls cannot decide at :data:`PREC`."""


def route(*rids: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        for rid in rids:
            assert rid not in ROUTES, rid
            ROUTES[rid] = fn
        return fn
    return wrap


def evaluate(rid: str, values: dict[str, Any]) -> Any:
    """The route of ``rid`` at the exact inputs ``values``, at :data:`PREC` bits."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        return ROUTES[rid](**values)
    finally:
        ctx.prec = old


# ---- helpers ---------------------------------------------------------------------------

def A(q: Fraction | int) -> arb:
    """The rational ``q`` as a ball (exact when dyadic, else one ulp at PREC)."""
    q = Fraction(q)
    return arb(fmpq(q.numerator, q.denominator))


def ex(q: Fraction | int) -> arb:
    return A(q).exp()


def pos(x: arb) -> arb:
    """``max(x, 0)``; a ball straddling 0 is cut to its nonnegative part."""
    if x > 0:
        return x
    if x <= 0:
        return arb(0)
    return x.nonnegative_part()


def amin(*xs: arb) -> arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.min(x)
    return out


def amax(*xs: arb) -> arb:
    out = xs[0]
    for x in xs[1:]:
        out = out.max(x)
    return out


def floor_ball(x: arb) -> int:
    f = x.floor()
    if not f.is_exact():
        raise Undecided(f"floor of {x}")
    return int(f.unique_fmpz())


def ceil_ball(x: arb) -> int:
    c = x.ceil()
    if not c.is_exact():
        raise Undecided(f"ceil of {x}")
    return int(c.unique_fmpz())


def Phi(x: arb) -> arb:
    """Standard normal cdf, ``erfc(-x/sqrt 2)/2``."""
    return (-x / arb(2).sqrt()).erfc() / 2


def exceeds_exp(a: Fraction, b: Fraction, eps: Fraction) -> bool:
    """Exactly decide ``a > e^eps b`` for rationals ``a, b >= 0``."""
    if b == 0:
        return a > 0
    if a == 0:
        return False
    if eps == 0:
        return a > b
    # a/b = e^eps is impossible for rational eps != 0 (Lindemann), so the balls decide.
    d = A(a / b).log() - A(eps)
    if d > 0:
        return True
    if d < 0:
        return False
    raise Undecided("log(a/b) vs eps")


def sqrt(x: arb) -> arb:
    return x.sqrt()


def log(x: arb | Fraction | int) -> arb:
    return (x if isinstance(x, arb) else A(x)).log()


Seq = Sequence[Fraction]


# The routes are split by area; importing the modules fills ROUTES.
from proofs_tests.second_routes import (  # noqa: E402,F401
    routes_conversions,
    routes_mechanisms,
    routes_tct,
)

__all__ = ["PREC", "ROUTES", "Undecided", "evaluate", "math"]
