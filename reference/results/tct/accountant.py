"""A round-by-round target-charging accountant (CL23 Algorithm 1 / 6, Theorem B.4).

The analyst declares a hit budget ``tau``, an upper bound ``eps`` on every call's privacy
parameter, a lower bound ``q`` on every target's q, and optionally a budget ``Delta`` for
the summed deltas.  Each round records ``(eps_i, delta_i, q_i, hit)``; the accountant
counts hits, halts at the ``tau``-th, refuses a call whose delta would exceed ``Delta``,
and reports Theorem B.4's ``(eps', delta')``.  The bound holds for the whole interaction,
however the analyst adapts and whenever it stops, because it uses the *declared* bounds
(Remark B.6's coarse mix-and-match); bounds taken from the realised rounds would not be
valid under adaptive choices.  Reported numbers are upper ends of certified enclosures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any, Literal

import mpmath  # noqa: F401  (used by the doctests)
from mpmath import iv

from reference.core.decide import exceeds
from reference.core.errors import DomainError
from reference.core.numeric import MPF, endpoints, exact, to_ctx, working
from reference.results.tct.charging import (
    MAX_HITS,
    advanced_eps,
    binomial_lower_tail,
    calls,
    raw_tail,
    simplified_tail,
)

Tail = Literal["simplified", "raw", "exact"]
WHERE = "TCTAccountant (CL23 Algorithm 6)"


@dataclass(frozen=True)
class Round:
    """One recorded call: its privacy parameters, its target's q, and whether it hit."""

    index: int
    eps: Fraction
    delta: Fraction
    q: Fraction
    hit: bool


@dataclass(frozen=True)
class Guarantee:
    """An ``(eps, delta)``-DP guarantee of the interaction, and how it was obtained."""

    eps: MPF
    delta: MPF
    m: int
    tail: Tail
    composition: Literal["basic", "advanced"]


def _real(x: object, name: str, lo: Fraction, hi: Fraction | None, lo_open: bool = False,
          hi_open: bool = False) -> Fraction:
    v = exact(x, name, WHERE)
    if v < lo or (lo_open and v == lo) or (hi is not None and (v > hi or (hi_open and v == hi))):
        left, right = "(" if lo_open else "[", ")" if hi_open else "]"
        bound = "inf" if hi is None else f"{float(hi):g}"
        raise DomainError(name, x, f"must lie in {left}{float(lo):g}, {bound}{right}", WHERE)
    return v


def exact_tail(m: int, q: Fraction, tau: int) -> Fraction:
    """``P[Bin(m, q) <= tau - 1]`` in exact rational arithmetic (for ties; cost grows with m):
    the failure probability of CL23 Theorem B.4 (Cohen, Lyu 2023, arXiv:2302.11044), the
    rational form of :func:`reference.results.tct.charging.binomial_lower_tail`.

    >>> exact_tail(3, Fraction(1, 2), 2)          # (1 + 3) / 8
    Fraction(1, 2)
    """
    return sum((comb(m, j) * q**j * (1 - q) ** (m - j) for j in range(min(tau, m + 1))),
               Fraction(0))


@dataclass
class TCTAccountant:
    """Target charging, round by round.

    >>> acc = TCTAccountant(tau=3, eps="0.1", q="0.475")
    >>> for hit in [False] * 40 + [True, False, True]:
    ...     _ = acc.record(eps="0.1", q="0.475", hit=hit)
    >>> acc.hits, acc.rounds, acc.halted
    (2, 43, False)
    >>> g = acc.guarantee(alpha=1)                      # m = floor(2 * 3 / 0.475) = 12
    >>> print(g.m, mpmath.nstr(g.eps, 6), mpmath.nstr(g.delta, 6))
    12 1.2 0.472367
    >>> print(mpmath.nstr(acc.guarantee(alpha=1, tail="exact").delta, 6))  # binom.cdf(2, 12, .475)
    0.0288864
    """

    tau: int
    eps: Fraction
    q: Fraction
    delta_budget: Fraction = Fraction(0)
    history: list[Round] = field(default_factory=list)

    def __init__(self, tau: int, eps: Any, q: Any, delta_budget: Any = 0) -> None:
        if isinstance(tau, bool) or not isinstance(tau, int) or not 1 <= tau <= MAX_HITS:
            raise DomainError("tau", tau, f"must be an integer in [1, {MAX_HITS}]", WHERE)
        self.tau = tau
        self.eps = _real(eps, "eps", Fraction(0), None)
        self.q = _real(q, "q", Fraction(0), Fraction(1), lo_open=True)
        self.delta_budget = _real(delta_budget, "delta_budget", Fraction(0), Fraction(1),
                                  hi_open=True)
        self.history = []

    # ---- state ---------------------------------------------------------------------
    @property
    def hits(self) -> int:
        """Target hits so far."""
        return sum(r.hit for r in self.history)

    @property
    def rounds(self) -> int:
        """Calls recorded so far."""
        return len(self.history)

    @property
    def delta_spent(self) -> Fraction:
        """Sum of the recorded calls' deltas (never above ``delta_budget``)."""
        return sum((r.delta for r in self.history), Fraction(0))

    @property
    def halted(self) -> bool:
        """True once the ``tau``-th hit is recorded: no further call may be made."""
        return self.hits >= self.tau

    def record(self, eps: Any, q: Any, hit: bool, delta: Any = 0) -> Round:
        """Record one call: ``eps <= self.eps``, ``q >= self.q``, ``delta`` within budget."""
        if self.halted:
            raise DomainError("hit", hit, f"cannot be recorded: halted after {self.tau} hits",
                              WHERE)
        if not isinstance(hit, bool):
            raise DomainError("hit", hit, "must be a bool (did the output hit the target?)",
                              WHERE)
        e = _real(eps, "eps", Fraction(0), self.eps)
        qq = _real(q, "q", self.q, Fraction(1))
        d = _real(delta, "delta", Fraction(0), Fraction(1), hi_open=True)
        if self.delta_spent + d > self.delta_budget:
            raise DomainError("delta", delta, "would take the summed deltas over delta_budget "
                              f"({float(self.delta_budget):g}); the call must not be made",
                              WHERE)
        rnd = Round(self.rounds + 1, e, d, qq, hit)
        self.history.append(rnd)
        return rnd

    # ---- guarantees ----------------------------------------------------------------
    def guarantee(self, alpha: Any = 1, *, tail: Tail = "simplified",
                  delta_star: Any = None) -> Guarantee:
        """Theorem B.4 at ``m = floor((1 + alpha) tau / q)``.

        ``tail`` chooses the failure probability: the paper's ``simplified`` Chernoff bound,
        the ``raw`` Chernoff bound or the ``exact`` binomial tail.  With ``delta_star`` the
        composition is advanced (CL23:ThmB.4-advanced), else basic (CL23:ThmB.4).
        """
        a = _real(alpha, "alpha", Fraction(0), None, lo_open=True)
        if tail not in ("simplified", "raw", "exact"):
            raise DomainError("tail", tail, "must be 'simplified', 'raw' or 'exact'", WHERE)
        m = calls(self.q, self.tau, a)
        with working(iv):
            if tail == "simplified":
                fail = simplified_tail(iv, self.tau, to_ctx(iv, a))
            elif tail == "raw":
                fail = raw_tail(iv, self.tau, to_ctx(iv, a))
            else:
                fail = binomial_lower_tail(iv, m, to_ctx(iv, self.q), self.tau)
        return self._compose(m, fail, tail, delta_star)

    def guarantee_at(self, m: int, *, delta_star: Any = None) -> Guarantee:
        """Theorem B.4 with the exact tail ``P[Bin(m, q) <= tau - 1]`` at a chosen ``m``."""
        if isinstance(m, bool) or not isinstance(m, int) or m < self.tau:
            raise DomainError("m", m, f"must be an integer >= tau ({self.tau})", WHERE)
        with working(iv):
            fail = binomial_lower_tail(iv, m, to_ctx(iv, self.q), self.tau)
        return self._compose(m, fail, "exact", delta_star)

    def _compose(self, m: int, fail: MPF, tail: Tail, delta_star: Any) -> Guarantee:
        with working(iv):
            e = to_ctx(iv, self.eps)
            delta = fail + to_ctx(iv, self.delta_budget)
            if delta_star is None:
                eps, kind = e * m, "basic"
            else:
                ds = to_ctx(iv, _real(delta_star, "delta_star", Fraction(0), Fraction(1),
                                      lo_open=True, hi_open=True))
                eps, kind = advanced_eps(iv, e, m, ds), "advanced"
                delta = delta + ds
            return Guarantee(endpoints(eps).hi, endpoints(delta).hi, m, tail,
                             kind)  # type: ignore[arg-type]

    def calls_for(self, tail_delta: Any) -> int:
        """Smallest ``m >= tau`` whose exact tail ``P[Bin(m, q) <= tau - 1]`` is ``<= tail_delta``.

        The exact tail decreases in ``m``; a doubling then bisection search, each step
        decided on certified enclosures (:func:`reference.core.decide.exceeds`), and a tie
        (the tail is rational: ``tail_delta`` may be its exact value) in exact arithmetic,
        so the answer is the smallest such ``m``, whatever path the search takes.

        >>> acc = TCTAccountant(tau=1, eps=1, q=Fraction(1, 2))
        >>> acc.calls_for(Fraction(1, 8)), acc.calls_for(Fraction(1, 9))   # tail (1/2)^m
        (3, 4)
        """
        target = _real(tail_delta, "tail_delta", Fraction(0), Fraction(1), lo_open=True)

        def ok(m: int) -> bool:
            return not exceeds(lambda ctx: binomial_lower_tail(ctx, m, to_ctx(ctx, self.q),
                                                               self.tau),
                               target, WHERE, exact_value=lambda: exact_tail(m, self.q, self.tau))

        lo, hi = self.tau, self.tau
        while not ok(hi):
            lo, hi = hi + 1, 2 * hi
        while lo < hi:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid + 1
        return hi
