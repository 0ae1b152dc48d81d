"""Filters a user drives round by round (RRUV16 Algorithm 3; RSWR23 Theorem 2, Lemma 5.2).

Before round ``i`` runs, the analyst calls ``propose(...)`` with the round's parameters;
the filter answers :data:`Action.CONT` or :data:`Action.HALT` for the prefix
*including* the proposal.  Only CONT records the spend; the first HALT ends the game
(Algorithm 3 BREAKs), after which every proposal is answered HALT.  Each object keeps
its history (:class:`Proposal`), takes exact inputs, and raises ``DomainError`` on
invalid ones.  Decisions are exact: a running interval enclosure of the statistic is
compared with the budget, and if it cannot decide, the registered result recomputes the
whole prefix at rising precision.

>>> f = AdvancedFilter(eps_g=1, delta_g="1e-3")
>>> [str(f.propose("0.1")) for _ in range(4)]   # RRUV16 Thm 5.1: at most 3 rounds
['CONT', 'CONT', 'CONT', 'HALT']
>>> len(f.spent), f.halted
(3, True)
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mpmath import iv, mp

from reference.core.decide import exceeds
from reference.core.errors import DomainError
from reference.core.numeric import MPF, Ctx, endpoints, exact, to_ctx, working
from reference.core.params import as_fraction
from reference.results.concentration.rruv16 import half_drift
from reference.results.conversions.rswr23 import zcdp_to_dp
from reference.results.filters.rruv16 import (
    advanced_filter,
    basic_filter,
    failure_term,
    filter_statistic,
    lifted_failure,
)
from reference.results.filters.rswr23 import expost_filter, zcdp_filter


class Action(enum.Enum):
    """A filter's answer for a proposed round."""

    CONT = "CONT"
    HALT = "HALT"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Proposal:
    """One proposal: round number, parameters, the statistic of the prefix including it."""

    round: int
    eps: Fraction
    delta: Fraction
    statistic: MPF
    action: Action


class RunningSum:
    """An interval enclosure of a growing sum, kept at the precision of its creation."""

    def __init__(self) -> None:
        with working(iv):
            self.enclosure: MPF = iv.mpf(0)

    def plus(self, term: Callable[[Ctx], MPF]) -> MPF:
        """The enclosure with one more term (not stored)."""
        with working(iv):
            return self.enclosure + term(iv)


def midpoint(enc: MPF) -> MPF:
    """The midpoint of an interval enclosure, as an ``mpf`` at the working precision."""
    e = endpoints(enc)
    with working(mp):
        return (e.lo + e.hi) / 2


def _decide(enc: MPF, budget: Fraction, fallback: Callable[[], bool]) -> bool:
    """``enc > budget`` from an enclosure, or by ``fallback`` when it straddles."""
    e = endpoints(enc)
    if exact(e.lo, "statistic", "filter") > budget:
        return True
    if exact(e.hi, "statistic", "filter") <= budget:
        return False
    return fallback()


class PrivacyFilter:
    """Base class: history, the CONT/HALT protocol, exact inputs."""

    where = "privacy filter"

    def __init__(self) -> None:
        self.history: list[Proposal] = []
        self.spent: list[tuple[Fraction, Fraction]] = []
        self.halted = False

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        raise NotImplementedError

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        """Record a CONTinued round's spend (subclasses update running sums)."""

    def propose(self, eps: object, delta: object = 0) -> Action:
        """CONT or HALT for the prefix including a round of ``(eps, delta)``."""
        e = as_fraction(eps, "eps", self.where)
        d = as_fraction(delta, "delta", self.where, hi=Fraction(1), hi_open=True)
        if self.halted:
            return Action.HALT
        statistic, halt = self._check(e, d)
        action = Action.HALT if halt else Action.CONT
        self.history.append(Proposal(len(self.spent) + 1, e, d, statistic, action))
        if halt:
            self.halted = True
        else:
            self.spent.append((e, d))
            self._accept(e, d)
        return action

    @property
    def eps_spent(self) -> list[Fraction]:
        return [e for e, _ in self.spent]

    def _pure(self, delta: Fraction) -> None:
        if delta != 0:
            raise DomainError("delta", delta, "must be 0 for a pure-DP filter (wrap it in "
                              "ApproxFilter, Lemma 3.3)", self.where)


class BasicFilter(PrivacyFilter):
    """RRUV16 Theorem 3.4: HALT iff ``sum eps_i > eps_g`` (exact rational arithmetic).

    >>> f = BasicFilter(eps_g=1)
    >>> [str(f.propose("0.25")) for _ in range(5)]
    ['CONT', 'CONT', 'CONT', 'CONT', 'HALT']
    """

    where = "BasicFilter (RRUV16:Thm3.4)"

    def __init__(self, eps_g: object) -> None:
        super().__init__()
        self.eps_g: Fraction = basic_filter.bind((), {"eps_g": eps_g})["eps_g"]
        self.total = Fraction(0)

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        self._pure(delta)
        total = self.total + eps
        return to_ctx(mp, total), total > self.eps_g

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        self.total += eps


class AdvancedFilter(PrivacyFilter):
    """RRUV16 Theorem 5.1: HALT iff ``K > eps_g`` with ``K`` of (6)."""

    where = "AdvancedFilter (RRUV16:Thm5.1)"

    def __init__(self, eps_g: object, delta_g: object) -> None:
        super().__init__()
        values = advanced_filter.bind((), {"eps_g": eps_g, "delta_g": delta_g})
        self.eps_g: Fraction = values["eps_g"]
        self.delta_g: Fraction = values["delta_g"]
        self.S = Fraction(0)
        self.drift = RunningSum()

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        self._pure(delta)
        drift = self.drift.plus(lambda ctx: half_drift(ctx, to_ctx(ctx, eps)))
        S = self.S + eps * eps
        with working(iv):
            K = filter_statistic(iv, drift, to_ctx(iv, S), to_ctx(iv, self.eps_g),
                                 to_ctx(iv, self.delta_g))
        halt = _decide(K, self.eps_g, lambda: advanced_filter(
            eps=[*self.eps_spent, eps], eps_g=self.eps_g, delta_g=self.delta_g).halt)
        return midpoint(K), halt

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        self.drift.enclosure = self.drift.plus(lambda ctx: half_drift(ctx, to_ctx(ctx, eps)))
        self.S += eps * eps


class ApproxFilter(PrivacyFilter):
    """RRUV16 Lemma 3.3 (corrected): approximate-DP rounds through a pure-DP filter.

    HALT if the summed failure ``sum delta_i (1+e^-2eps_i)/(1-e^-eps_i)`` exceeds
    ``delta_g'``; otherwise the inner filter decides on ``2 eps_i``.  Valid with failure
    probability ``delta_g + delta_g'`` (``delta_g`` the inner filter's).

    >>> f = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime="1e-3")
    >>> str(f.propose(1, "1e-4")), str(f.propose(1, "1e-4")), str(f.propose(1, 0))
    ('CONT', 'CONT', 'HALT')
    """

    where = "ApproxFilter (RRUV16:Lem3.3)"

    def __init__(self, inner: PrivacyFilter, delta_g_prime: object) -> None:
        super().__init__()
        values = lifted_failure.bind((), {"delta_g_prime": delta_g_prime})
        self.delta_g_prime: Fraction = values["delta_g_prime"]
        self.inner = inner
        self.failure = RunningSum()

    def _term(self, eps: Fraction, delta: Fraction) -> Callable[[Ctx], MPF]:
        if delta == 0:
            return lambda ctx: ctx.zero
        return lambda ctx: failure_term(ctx, to_ctx(ctx, eps), to_ctx(ctx, delta))

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        if eps == 0 and delta > 0:
            return mp.inf, True
        enc = self.failure.plus(self._term(eps, delta))
        rounds = [*self.spent, (eps, delta)]
        halt = _decide(enc, self.delta_g_prime, lambda: lifted_failure(
            eps=[e for e, _ in rounds], delta=[d for _, d in rounds],
            delta_g_prime=self.delta_g_prime).halt)
        if not halt:
            halt = self.inner.propose(2 * eps, 0) is Action.HALT
        return midpoint(enc), halt

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        self.failure.enclosure = self.failure.plus(self._term(eps, delta))


class ZCDPFilter(PrivacyFilter):
    """RSWR23 Theorem 2: HALT before the round that would make ``eps(sum rho) > eps`` or
    ``sum delta > delta``; the stopped transcript is ``(eps, delta + delta'')``-DP.

    ``propose(rho, delta)`` takes a zCDP level (the ``eps`` field of each
    :class:`Proposal` holds ``rho``).  RSWR23 §7.2: at ``(10, 1e-6)`` the budget is
    ``sum rho <= 1.353015``:

    >>> f = ZCDPFilter(eps=10, delta_pp="1e-6")
    >>> str(f.propose("1.35")), str(f.propose("0.003")), str(f.propose("0.0031"))
    ('CONT', 'CONT', 'HALT')
    """

    where = "ZCDPFilter (RSWR23:Thm2)"

    def __init__(self, eps: object, delta_pp: object, delta: object = 0) -> None:
        super().__init__()
        v = zcdp_filter.bind((), {"eps": eps, "delta": delta, "delta_pp": delta_pp})
        self.eps: Fraction = v["eps"]
        self.delta: Fraction = v["delta"]
        self.delta_pp: Fraction = v["delta_pp"]
        self.rho_total = Fraction(0)
        self.delta_total = Fraction(0)

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        rho = self.rho_total + eps
        with working(mp):
            stat = zcdp_to_dp.core(mp, to_ctx(mp, rho), to_ctx(mp, self.delta_pp))
        if self.delta < self.delta_total + delta:
            return +stat, True
        dpp = self.delta_pp
        halt = exceeds(lambda ctx: zcdp_to_dp.core(ctx, to_ctx(ctx, rho), to_ctx(ctx, dpp)),
                       self.eps, self.where, balls=True)
        return +stat, halt

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        self.rho_total += eps
        self.delta_total += delta


class ExPostFilter(PrivacyFilter):
    """RSWR23 Lemma 5.2: ex-post private rounds whose bounds fit the remaining budget.

    ``propose(delta, max_bound)`` before a round: ``DomainError`` if the mechanism's
    largest ex-post bound exceeds the remaining budget (the lemma's hypothesis), HALT if
    the deltas would exceed ``delta``.  After a CONTinued round, ``record(bound)`` takes
    its realised ex-post bound ``E_n(y_n)``; the filter stops once they sum to ``eps``.

    >>> f = ExPostFilter(eps=1)
    >>> str(f.propose(0, "0.5")); f.record("0.5"); str(f.propose(0, "0.5")); f.record("0.5")
    'CONT'
    'CONT'
    >>> f.halted, str(f.propose(0, "0.1"))
    (True, 'HALT')
    """

    where = "ExPostFilter (RSWR23:Lem5.2)"

    def __init__(self, eps: object, delta: object = 0) -> None:
        super().__init__()
        v = expost_filter.bind((), {"eps": eps, "delta": delta})
        self.eps: Fraction = v["eps"]
        self.delta: Fraction = v["delta"]
        self.realised: list[Fraction] = []
        self.delta_total = Fraction(0)
        self._pending: Fraction | None = None

    @property
    def remaining(self) -> Fraction:
        return self.eps - sum(self.realised, Fraction(0))

    def propose(self, delta: object = 0, max_bound: object = 0) -> Action:  # type: ignore[override]
        """CONT or HALT for a round of the given delta whose ex-post bound is <= max_bound."""
        if self._pending is not None:
            raise DomainError("record", None, "must be called for the previous round first",
                              self.where)
        m = as_fraction(max_bound, "max_bound", self.where)
        if not self.halted and m > self.remaining:
            raise DomainError("max_bound", max_bound, f"must not exceed the remaining budget "
                              f"{self.remaining} (Lemma 5.2's hypothesis)", self.where)
        action = super().propose(m, delta)
        if action is Action.CONT:
            self._pending = m
        return action

    def _check(self, eps: Fraction, delta: Fraction) -> tuple[MPF, bool]:
        return to_ctx(mp, self.delta_total + delta), self.delta < self.delta_total + delta

    def _accept(self, eps: Fraction, delta: Fraction) -> None:
        self.delta_total += delta

    def record(self, bound: object) -> None:
        """The realised ex-post bound ``E_n(y_n)`` of the round just run."""
        if self._pending is None:
            raise DomainError("record", bound, "must follow a CONTinued proposal", self.where)
        b = as_fraction(bound, "bound", self.where, hi=self._pending)
        self.realised.append(b)
        self._pending = None
        if sum(self.realised, Fraction(0)) == self.eps:
            self.halted = True


def stopped(f: PrivacyFilter, rounds: list[Any]) -> int:
    """How many of ``rounds`` (each ``eps`` or ``(eps, delta)``) run before the first HALT."""
    for i, r in enumerate(rounds):
        args = r if isinstance(r, tuple) else (r,)
        if f.propose(*args) is Action.HALT:
            return i
    return len(rounds)
