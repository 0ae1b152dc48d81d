"""Exact decisions against a budget: a filter's CONT/HALT, an odometer's branch, 1/e.

A filter halts when a statistic *exceeds* its budget (strictly), so equality matters.
The statistic is evaluated in interval arithmetic on the exact inputs and its enclosure
compared with the exact budget; if the enclosure straddles the budget the precision is
doubled.  A result whose output carries such a decision computes it in its ``prepare``
hook (:class:`reference.core.model.Result`) from the exact parameter values *before* the
formula runs, so the point value and the certified enclosure carry the same decision.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import mpmath
from mpmath import iv

from reference.core.numeric import MPF, Ctx, endpoints, exact, get_dps, precision, to_ctx, working

R = TypeVar("R")
#: Highest precision (decimal digits) tried before a comparison is declared undecidable.
MAX_DPS = 3200


def exceeds(stat: Callable[[Ctx], MPF], budget: Fraction, where: str) -> bool:
    """Whether the exact value of ``stat`` is strictly greater than ``budget``.

    ``stat(iv)`` must return an enclosure of the exact value (it is called inside the
    interval context at the trial precision).  Raises ``RuntimeError`` if the enclosure
    still straddles ``budget`` at :data:`MAX_DPS` digits (an exact tie of a
    transcendental statistic with a rational budget, which does not happen in practice).
    """
    dps = get_dps()
    while dps <= MAX_DPS:
        with precision(dps), working(iv):
            enc = endpoints(stat(iv))
        if mpmath.isinf(enc.lo) and enc.lo > 0:
            return True
        if mpmath.isinf(enc.hi) and enc.hi < 0:
            return False
        if not mpmath.isinf(enc.lo) and exact(enc.lo, "statistic", where) > budget:
            return True
        if not mpmath.isinf(enc.hi) and exact(enc.hi, "statistic", where) <= budget:
            return False
        dps *= 2
    raise RuntimeError(f"{where}: cannot decide whether the statistic exceeds "
                       f"{budget} at {MAX_DPS} digits")


def below_inv_e(q: Fraction) -> bool:
    """``q < 1/e`` exactly (``e`` is irrational, so ``q e = 1`` never happens)."""
    return not exceeds(lambda ctx: ctx.e * to_ctx(ctx, q), Fraction(1), "1/e comparison")


