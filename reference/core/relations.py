"""Relations between results, stated on whole domains (the prover's input).

A :class:`Relation` claims that its *margin*, a formula written over the context
interface like every result (usually a difference of two results' formulas), is positive
(``> 0``, or ``>= 0`` when not ``strict``) at every point of a box: a bounded range for each
variable, with tight points, limits and singularities cut out and the cut explained in
``cuts``.  Integer parameters (``k``) range over reals where the formula extends to real
values (a relation proved for every real ``k`` in the range holds for the integers in it);
a formula that needs an integer (a sum of ``k`` terms) names it in ``integers``, and the
prover and checker evaluate it at each integer of the range (:func:`integer_point`).

:func:`relation` builds one from its margin function; the modules of
``reference.results`` define them next to the results they relate and
``reference.results.relations()`` collects them.  :mod:`reference.core.prover` proves a
relation by branch and bound in mpmath's interval arithmetic and writes a certificate;
:mod:`reference.core.proofcheck` re-verifies the certificate with python-flint's balls.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from reference.core.dual import DualContext

Kind = Literal["ordering", "monotonicity", "inverse", "erratum", "threshold", "validity"]
#: A box: each variable's closed range, exact.
Box = Mapping[str, tuple[Fraction, Fraction]]


@dataclass(frozen=True)
class Relation:
    """A claim ``margin(x) > 0`` (or ``>= 0``) for every ``x`` in ``domain``."""

    id: str
    statement: str
    kind: Kind
    uses: tuple[str, ...]
    source: str
    domain: tuple[tuple[str, Fraction, Fraction], ...]
    margin: Callable[..., Any]
    strict: bool = True
    cuts: str = ""
    log_scale: frozenset[str] = frozenset()
    dps: int = 30
    integers: frozenset[str] = frozenset()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _, _ in self.domain)

    @property
    def reals(self) -> tuple[str, ...]:
        """The variables that enter the formula as numbers (intervals on a box)."""
        return tuple(name for name in self.names if name not in self.integers)

    def box(self) -> dict[str, tuple[Fraction, Fraction]]:
        return {name: (lo, hi) for name, lo, hi in self.domain}


def fraction(x: object) -> Fraction:
    """An exact rational from a decimal or ``p/q`` string, an int or a Fraction."""
    if isinstance(x, bool) or not isinstance(x, str | int | Fraction):
        raise TypeError(f"a range end must be a decimal string, an int or a Fraction: {x!r}")
    return Fraction(x)


def relation(rid: str, *, statement: str, kind: Kind, uses: tuple[str, ...] | list[str],
             source: str, domain: Mapping[str, tuple[object, object]],
             strict: bool = True, cuts: str = "", log_scale: tuple[str, ...] = (),
             dps: int = 30, integers: tuple[str, ...] = (),
             ) -> Callable[[Callable[..., Any]], Relation]:
    """Make ``margin(ctx, **variables)`` the relation ``rid`` (see the module doc); the
    ``integers`` are passed to ``margin`` as Python ints."""
    dom = tuple((name, fraction(lo), fraction(hi)) for name, (lo, hi) in domain.items())
    for name in integers:
        if name not in domain:
            raise ValueError(f"{rid}: the integer {name} is not a variable of the domain")
    for name, lo, hi in dom:
        if not lo < hi:
            raise ValueError(f"{rid}: empty range for {name}: [{lo}, {hi}]")
        if name in integers and not (lo.denominator == hi.denominator == 1):
            raise ValueError(f"{rid}: the integer {name} needs integer ends, not [{lo}, {hi}]")
        if name in log_scale and lo <= 0:
            raise ValueError(f"{rid}: {name} is split geometrically but its range starts at {lo}")

    def wrap(margin: Callable[..., Any]) -> Relation:
        return Relation(rid, statement, kind, tuple(uses), source, dom, margin, strict, cuts,
                        frozenset(log_scale), dps, frozenset(integers))

    return wrap


def integer_point(rel: Relation, box: Box) -> dict[str, int] | None:
    """The integer variables' values on ``box``, or ``None`` when a range of one of them
    holds other than exactly one integer (the formula is undefined there: split it)."""
    out = {}
    for name in rel.integers:
        lo, hi = box[name]
        if math.ceil(lo) != math.floor(hi):
            return None
        out[name] = math.floor(hi)
    return out


def integer_cut(lo: Fraction, hi: Fraction, geometric: bool) -> Fraction:
    """A half-integer strictly inside ``(lo, hi)`` that parts the integers of the range in
    two near the middle (the geometric middle for ``geometric``): ``m + 1/2`` with ``a <= m
    <= b - 1`` for the range's least and greatest integers ``a < b`` (it holds at least
    two), since ``(a + b) // 2 <= (2b - 1) // 2`` and ``a^2 <= ab <= (b - 1) b < b^2``."""
    a, b = math.ceil(lo), math.floor(hi)
    m = math.isqrt(a * b) if geometric and a > 0 else (a + b) // 2
    return Fraction(2 * m + 1, 2)


def text(q: Fraction) -> str:
    """``q`` as ``"p/q"`` (or ``"p"``): the exact form certificates store."""
    return str(q)


def partial(ctx: Any, fn: Callable[..., Any], name: str, **at: Any) -> Any:
    """The partial derivative of the formula ``fn(ctx, **at)`` in ``name`` at ``at``.

    Forward differentiation (:class:`~reference.core.dual.DualContext`) over ``ctx``: over
    the prover's tracer it is the derivative's formula, so a monotonicity claim is a
    relation whose margin is a derivative of the result's own formula.
    """
    dc = DualContext(ctx, (name,))
    (x,) = dc.variables([at[name]])
    return fn(dc, **{**at, name: x}).d[0]
