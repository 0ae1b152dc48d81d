"""The exact q-target oracle of a finite pair of output distributions (CL23 Def 2.1, B.1).

CL23 is Cohen and Lyu (2023), *The target-charging technique for privacy analysis across
interactive computations*, arXiv:2302.11044.  ``T`` is a q-target of ``(P0, P1)`` with
``(eps, delta)`` when (CL23 Definition B.1, its display reconstructed by this project)

    P_b = (1 - delta) [p C + (1 - p) B^b] + delta E^b,   B^0 ~_eps B^1,   min_b B^b(T) >= q.

With unnormalised parts ``c = (1-delta) p C`` and ``e_b = delta E^b`` and ``beta_b =
P_b - e_b - c`` the best ``q`` is ``max min_b beta_b(T) / (1 - delta - sum c)`` over the
polytope ``c, e_b, beta_b >= 0``, ``sum e_b = delta``, ``beta_0 <= w beta_1 <=
w^2 beta_0`` pointwise (``w = e^eps``).  Two exact routes:

* ``delta = 0``: the constraints separate by outcome.  Mass of ``c`` on ``T`` never helps
  (moving it into both ``beta_b`` keeps the ratios and raises a ratio ``<= 1``), and off
  ``T`` the common part should be as large as the ratio constraints allow,
  ``u_y = (w min(P0_y, P1_y) - max(P0_y, P1_y)) / (w - 1)``.  So
  ``q* = min_b P_b(T) / (1 - sum_{y not in T} u_y)``.
* ``delta > 0``: the Charnes–Cooper linear program, solved exactly by :mod:`.lp`.

Both are exact for a rational ``w``.  For a rational ``eps`` (``e^eps`` is irrational) the
best q is non-decreasing in ``w`` (a larger ``w`` only relaxes the constraints), so the
values at the rational bracket ``w_lo <= e^eps <= w_hi`` enclose it; the witness
decomposition is built at ``w_lo`` and so is valid at ``e^eps``.

Degenerate cases, from the definition: ``p = 1`` (possible iff the total variation is at
most ``delta``) leaves ``B^b`` free, so every non-empty ``T`` is a 1-target; an empty
``T`` or a pair that is not ``(eps, delta)``-indistinguishable has no ``q > 0`` (reported
as ``q = 0``, no witness).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from mpmath import iv

from reference.core.errors import DomainError
from reference.core.numeric import endpoints, exact, exp, to_ctx, working
from reference.results.tct.base import ratio_bracket
from reference.results.tct.lp import maximise

Dist = tuple[Fraction, ...]
ZERO, ONE = Fraction(0), Fraction(1)


def _point(n: int, at: int) -> Dist:
    return tuple(ONE if y == at else ZERO for y in range(n))


def _normalise(v: Sequence[Fraction], fallback: int) -> Dist:
    total = sum(v, ZERO)
    return tuple(x / total for x in v) if total > 0 else _point(len(v), fallback)


@dataclass(frozen=True)
class Decomposition:
    """A witness of Definition B.1: ``P_b = (1-delta)(p C + (1-p) B^b) + delta E^b``.

    ``w`` is the ratio bound the parts were built for (``B^0 <= w B^1 <= w^2 B^0``
    pointwise); ``q = min_b B^b(T)`` is what the witness proves.  ``check`` re-verifies
    every identity in exact arithmetic.
    """

    p: Fraction
    C: Dist
    B0: Dist
    B1: Dist
    E0: Dist
    E1: Dist
    delta: Fraction
    w: Fraction
    target: frozenset[int]

    @property
    def q(self) -> Fraction:
        """``min_b B^b(T)``: the q this witness proves."""
        return min(sum((self.B0[y] for y in self.target), ZERO),
                   sum((self.B1[y] for y in self.target), ZERO))

    def mixture(self, b: int) -> Dist:
        """``(1-delta)(p C + (1-p) B^b) + delta E^b``, exactly."""
        B, E = (self.B0, self.E0) if b == 0 else (self.B1, self.E1)
        keep = 1 - self.delta
        return tuple(keep * (self.p * c + (1 - self.p) * x) + self.delta * e
                     for c, x, e in zip(self.C, B, E, strict=True))

    def check(self, P0: Sequence[Fraction], P1: Sequence[Fraction],
              eps: Fraction | None = None) -> bool:
        """True iff this is a valid decomposition of ``(P0, P1)`` (exact rationals).

        With ``eps`` given, also proves ``w <= e^eps`` (interval arithmetic), so the
        witness shows that ``T`` is a ``q``-target with ``(eps, delta)``.
        """
        parts = (self.C, self.B0, self.B1, self.E0, self.E1)
        if any(len(d) != len(P0) for d in (*parts, P1)):
            return False
        if not (0 <= self.p <= 1 and 0 <= self.delta < 1 and self.w >= 1):
            return False
        if any(x < 0 for d in parts for x in d) or any(sum(d, ZERO) != 1 for d in parts):
            return False
        if self.mixture(0) != tuple(P0) or self.mixture(1) != tuple(P1):
            return False
        if any(a > self.w * b or b > self.w * a for a, b in zip(self.B0, self.B1, strict=True)):
            return False
        # w = 1 too: for eps < 0 no w >= 1 is <= e^eps
        return eps is None or at_most_exp(self.w, eps)


#: Digits of the first enclosure of ``e^eps`` in :func:`at_most_exp`, and the most it uses.
CHECK_DIGITS, CHECK_MAX_DIGITS = 60, 20000


def at_most_exp(w: Fraction, eps: Fraction) -> bool:
    """Proves ``w <= e^eps`` (True) or ``w > e^eps`` (False) in interval arithmetic.

    The digits double from ``CHECK_DIGITS`` until the enclosure of ``e^eps`` leaves ``w`` on
    one side: ``q_target`` builds ``w`` within ``10**-(precision + guard)`` of ``e^eps``, so a
    fixed 60 digits refused its own witnesses from 60 digits of precision on.  ``e^eps`` is
    irrational for a rational ``eps != 0`` (Lindemann), and ``e^0 = 1`` is exact, so only
    ``w`` within ``10**-CHECK_MAX_DIGITS`` of ``e^eps`` is left unproven (False).

    >>> at_most_exp(Fraction(271828, 10**5), Fraction(1)), at_most_exp(Fraction(2719, 1000), 1)
    (True, False)
    """
    digits = CHECK_DIGITS
    while digits <= CHECK_MAX_DIGITS:
        with working(iv, digits):
            enc = endpoints(exp(iv, to_ctx(iv, Fraction(eps))))
        if exact(enc.lo, "e^eps", "check") >= w:
            return True
        if exact(enc.hi, "e^eps", "check") < w:
            return False
        digits *= 2
    return False


@dataclass(frozen=True)
class Optimum:
    """The exact best q at a rational ratio bound ``w``, and a witness attaining it."""

    q: Fraction
    witness: Decomposition | None


def _validate(P0: Sequence[Fraction], P1: Sequence[Fraction], target: frozenset[int],
              w: Fraction, delta: Fraction) -> None:
    where = "CL23 q-target oracle"
    if len(P0) != len(P1):
        raise DomainError("P1", list(P1), f"must have as many entries as P0 ({len(P0)})", where)
    for name, d in (("P0", P0), ("P1", P1)):
        if any(x < 0 for x in d) or sum(d, ZERO) != 1:
            raise DomainError(name, list(d), "must be a probability vector (exact)", where)
    if w < 1:
        raise DomainError("w", w, "must be >= 1 (w = e^eps)", where)
    if not 0 <= delta < 1:
        raise DomainError("delta", delta, "must lie in [0, 1)", where)
    if any(not 0 <= t < len(P0) for t in target):
        raise DomainError("target", sorted(target), f"must hold indices in [0, {len(P0)})",
                          where)


def common_cap(a: Fraction, b: Fraction, w: Fraction) -> Fraction | None:
    """Largest common mass ``c`` with ``a - c <= w (b - c)`` and ``b - c <= w (a - c)``.

    ``None`` when even ``c = 0`` violates a ratio (the pair is not ``w``-bounded here).
    """
    lo, hi = min(a, b), max(a, b)
    if hi > w * lo:
        return None
    if w == 1:
        return lo
    return (w * lo - hi) / (w - 1)


def _degenerate(P0: Dist, P1: Dist, target: frozenset[int], w: Fraction,
                delta: Fraction) -> Optimum | None:
    """``p = 1`` is possible iff ``sum min(P0, P1) >= 1 - delta``: then q = 1."""
    n = len(P0)
    common = [min(a, b) for a, b in zip(P0, P1, strict=True)]
    mass = sum(common, ZERO)
    if mass < 1 - delta or not target:
        return None
    c = [x * (1 - delta) / mass for x in common]
    at = min(target)
    e = [[pb - cy for pb, cy in zip(P, c, strict=True)] for P in (P0, P1)]
    E0, E1 = (_normalise(e[b], at) for b in (0, 1))
    wit = Decomposition(ONE, _normalise(c, at), _point(n, at), _point(n, at), E0, E1, delta,
                        w, target)
    return Optimum(ONE, wit)


def _pure(P0: Dist, P1: Dist, target: frozenset[int], w: Fraction) -> Optimum:
    n = len(P0)
    caps = [common_cap(a, b, w) for a, b in zip(P0, P1, strict=True)]
    if any(u is None for u in caps) or not target:
        return Optimum(ZERO, None)
    c = [ZERO if y in target else caps[y] or ZERO for y in range(n)]
    mass = 1 - sum(c, ZERO)
    beta = [[pb - cy for pb, cy in zip(P, c, strict=True)] for P in (P0, P1)]
    at = min(target)
    B0, B1 = (_normalise(beta[b], at) for b in (0, 1))
    wit = Decomposition(1 - mass, _normalise(c, at), B0, B1, _point(n, at), _point(n, at),
                        ZERO, w, target)
    return Optimum(wit.q, wit)


def _with_failure(P0: Dist, P1: Dist, target: frozenset[int], w: Fraction,
                  delta: Fraction) -> Optimum:
    """Charnes–Cooper LP in ``(z, t, c^, f0, f1)`` with ``z = 1/(1 - delta - sum c)``.

    The optimum ``t = z min_b beta_b(T)`` is the best q itself; the witness built from the
    optimal point attains it (``witness.q == q``, checked by the tests).
    """
    n = len(P0)
    if not target:
        return Optimum(ZERO, None)
    N = [y for y in range(n) if y not in target]
    nv = 2 + len(N) + 2 * n
    Z, T = 0, 1

    def C(y: int) -> int:
        return 2 + N.index(y)

    def Fb(b: int, y: int) -> int:
        return 2 + len(N) + b * n + y

    A_ub: list[list[Fraction]] = []

    def row() -> list[Fraction]:
        return [ZERO] * nv

    P = (P0, P1)
    for b in (0, 1):
        for y in range(n):  # beta_b(y) >= 0:  c^_y + f_b,y - P_b,y z <= 0
            r = row()
            r[Z] = -P[b][y]
            r[Fb(b, y)] = ONE
            if y not in target:
                r[C(y)] = ONE
            A_ub.append(r)
    for b in (0, 1):
        o = 1 - b
        for y in range(n):  # beta_b(y) - w beta_o(y) <= 0
            r = row()
            r[Z] = P[b][y] - w * P[o][y]
            r[Fb(b, y)] = -ONE
            r[Fb(o, y)] = w
            if y not in target:
                r[C(y)] = w - 1
            A_ub.append(r)
    for b in (0, 1):  # t <= beta_b(T)
        r = row()
        r[T] = ONE
        r[Z] = -sum((P[b][y] for y in target), ZERO)
        for y in target:
            r[Fb(b, y)] = ONE
        A_ub.append(r)
    A_eq: list[list[Fraction]] = []
    r = row()
    r[Z] = 1 - delta
    for y in N:
        r[C(y)] = -ONE
    A_eq.append(r)
    for b in (0, 1):
        r = row()
        r[Z] = -delta
        for y in range(n):
            r[Fb(b, y)] = ONE
        A_eq.append(r)
    cost = row()
    cost[T] = ONE
    sol = maximise(cost, A_ub, [ZERO] * len(A_ub), A_eq, [ONE, ZERO, ZERO])
    if sol.status != "optimal":
        return Optimum(ZERO, None)
    x = sol.x
    z = x[Z]
    c = [ZERO if y in target else x[C(y)] / z for y in range(n)]
    e = [[x[Fb(b, y)] / z for y in range(n)] for b in (0, 1)]
    beta = [[P[b][y] - e[b][y] - c[y] for y in range(n)] for b in (0, 1)]
    at = min(target)
    keep = 1 - delta
    wit = Decomposition(sum(c, ZERO) / keep, _normalise(c, at), _normalise(beta[0], at),
                        _normalise(beta[1], at), _normalise(e[0], at), _normalise(e[1], at),
                        delta, w, target)
    return Optimum(x[T], wit)


def best_q(P0: Sequence[Fraction], P1: Sequence[Fraction], target: Sequence[int] | frozenset[int],
           *, w: Fraction, delta: Fraction = ZERO) -> Optimum:
    """Exact best ``q`` with which ``target`` is a q-target of ``(P0, P1)``; a witness.

    ``w`` is the ratio bound ``e^eps`` as an exact rational (``w >= 1``).  Returns
    ``q = 0`` and no witness when no ``q > 0`` works (empty target, or the pair is not
    ``(ln w, delta)``-indistinguishable).

    >>> F = Fraction
    >>> opt = best_q([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], [1], w=F(3))  # RR_{ln 3}
    >>> opt.q, opt.witness.check([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
    (Fraction(1, 4), True)
    """
    P0, P1 = tuple(Fraction(x) for x in P0), tuple(Fraction(x) for x in P1)
    T = frozenset(target)
    w, delta = Fraction(w), Fraction(delta)
    _validate(P0, P1, T, w, delta)
    degenerate = _degenerate(P0, P1, T, w, delta)
    if degenerate is not None:
        return degenerate
    return _pure(P0, P1, T, w) if delta == 0 else _with_failure(P0, P1, T, w, delta)


@dataclass(frozen=True)
class TargetEnclosure:
    """The best q at ``e^eps`` lies in ``[lo, hi]``; ``witness`` (built at a rational
    ``w <= e^eps``) proves that ``lo`` is attained."""

    lo: Fraction
    hi: Fraction
    witness: Decomposition | None


def q_target(P0: Sequence[Fraction], P1: Sequence[Fraction],
             target: Sequence[int] | frozenset[int], eps: Fraction | int | str,
             delta: Fraction | int | str = 0, digits: int | None = None) -> TargetEnclosure:
    """Enclosure of the best q of ``target`` with ``(eps, delta)``, and a witness.

    The best q is non-decreasing in ``w = e^eps``, so it lies between the exact optima
    at a rational bracket ``w_lo <= e^eps <= w_hi`` (``digits`` wide, default the working
    precision plus guard digits).

    >>> F = Fraction
    >>> enc = q_target([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], [0], eps=1)
    >>> float(enc.lo), enc.hi - enc.lo < F(1, 10**40), enc.witness.check(
    ...     [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], eps=F(1))
    (0.38730016321971794, True, True)
    """
    e = exact(eps, "eps", "q_target")
    lo, hi = ratio_bracket(e, digits)
    low = best_q(P0, P1, target, w=lo, delta=Fraction(delta))
    high = low if hi == lo else best_q(P0, P1, target, w=hi, delta=Fraction(delta))
    return TargetEnclosure(low.q, high.q, low.witness)
