"""Exact decisions against a budget: a filter's CONT/HALT, an odometer's branch, 1/e.

A filter halts when a statistic *exceeds* its budget (strictly), so equality matters.
The statistic is evaluated in interval arithmetic on the exact inputs and its enclosure
compared with the exact budget; if the enclosure straddles the budget the precision is
doubled.  Results whose output carries such a decision are registered with
:func:`decided_result`: the decision is computed from the exact parameter values *before*
the formula runs and handed to it as an extra keyword, so the point value and the
certified enclosure carry the same, rigorous decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import mpmath
from mpmath import iv

from .errors import DomainError
from .numeric import MPF, Ctx, endpoints, exact, get_dps, precision, to_ctx, working
from .params import Param
from .registry import Result, ResultKind, Status, register

R = TypeVar("R")
#: Highest precision (decimal digits) tried before a comparison is declared undecidable.
MAX_DPS = 3200


def lift(ctx: Ctx, values: Mapping[str, Any]) -> dict[str, Any]:
    """Exact parameter values as numbers of ``ctx`` (sequences as lists)."""
    out: dict[str, Any] = {}
    for key, v in values.items():
        if isinstance(v, Fraction):
            out[key] = to_ctx(ctx, v)
        elif isinstance(v, tuple):
            out[key] = [to_ctx(ctx, q) if isinstance(q, Fraction) else q for q in v]
        else:
            out[key] = v
    return out


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


def inv_e_precondition(name: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: parameter ``name`` must be < 1/e (decided exactly)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if not below_inv_e(values[name]):
            raise DomainError(name, float(values[name]), "must be < 1/e = 0.36788", where)
    return check


def all_of(*checks: Callable[[Mapping[str, Any], str], None] | None,
           ) -> Callable[[Mapping[str, Any], str], None]:
    """Several preconditions, checked in order."""
    def check(values: Mapping[str, Any], where: str) -> None:
        for c in checks:
            if c is not None:
                c(values, where)
    return check


def max_length(name: str, limit: int) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition bounding the length of sequence ``name`` (evaluation is linear in it)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if len(values[name]) > limit:
            raise DomainError(name, f"<{len(values[name])} entries>",
                              f"must have at most {limit} entries", where)
    return check


@dataclass
class DecidedResult(Result[R]):
    """A result whose formula receives exact decisions (``halt``, ``branch``) as keywords."""

    decide: Callable[[Mapping[str, Any], str], Mapping[str, Any]] | None = None

    def evaluate(self, ctx: Ctx, values: Mapping[str, Any]) -> R:
        extra = dict(self.decide(values, self.where)) if self.decide is not None else {}
        return super().evaluate(ctx, {**values, **extra})


def decided_result(rid: str, *, title: str, kind: ResultKind, statement: str,
                   params: list[Param],
                   decide: Callable[[Mapping[str, Any], str], Mapping[str, Any]],
                   status: Status = "stated", probabilistic: bool = False,
                   precondition: Callable[[Mapping[str, Any], str], None] | None = None,
                   notes: str = "", output: str = "value",
                   ) -> Callable[[Callable[..., R]], DecidedResult[R]]:
    """Like :func:`reference.registry.result`, with exact decisions from ``decide``."""

    def wrap(core: Callable[..., R]) -> DecidedResult[R]:
        obj: DecidedResult[R] = DecidedResult(rid, title, kind, statement, tuple(params), core,
                                              status, probabilistic, precondition, notes,
                                              output, decide)
        register(obj)
        return obj

    return wrap


def as_fraction(x: object, name: str, where: str, *, lo: Fraction | None = Fraction(0),
                hi: Fraction | None = None, hi_open: bool = False) -> Fraction:
    """Exact, range-checked conversion for the round-by-round objects."""
    q = exact(x, name, where)
    if lo is not None and q < lo:
        raise DomainError(name, x, f"must be >= {lo}", where)
    if hi is not None and (q > hi or (hi_open and q == hi)):
        raise DomainError(name, x, f"must be {'<' if hi_open else '<='} {hi}", where)
    return q
