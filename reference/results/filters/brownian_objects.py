"""Brownian filters a user drives round by round (RSWR23 Lemma 6.2 and Theorem 6).

Before each round the analyst proposes it: a Brownian mechanism by the smallest time of
its grid ``t_min`` (its most expensive possible release), a zCDP mechanism by
``(rho_n, delta_n)``.  A proposal that could overrun the remaining budget violates
condition (3)/(4) and raises ``DomainError``; once the budget is spent exactly, or the
deltas would exceed ``delta``, every proposal is answered HALT.  After a Brownian round
runs, ``record_brownian(t_stop)`` charges ``1/(2 t_stop)`` for the time it stopped at.
Arithmetic is exact (``Fraction``).

>>> f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6")
>>> str(f.propose_zcdp("0.5")), str(f.propose_brownian(1))
('CONT', 'CONT')
>>> f.record_brownian(2)          # stopped at t = 2: charged 1/4
>>> f.propose_brownian(1)
Traceback (most recent call last):
...
reference.core.errors.DomainError: t_min must have 1/(2 t_min) = 1/2 within the remaining ...
>>> f.remaining, str(f.propose_brownian(2))
(Fraction(1, 4), 'CONT')
>>> f.record_brownian(2); f.halted, str(f.propose_zcdp("0.1"))
(True, 'HALT')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal, NamedTuple

from reference.core.errors import DomainError
from reference.core.numeric import MPF
from reference.core.params import as_fraction
from reference.results.conversions.rswr23 import zcdp_budget
from reference.results.filters.objects import Action
from reference.results.filters.rswr23_brownian import (
    brownian_cost,
    brownian_filter,
    unified_filter,
    unified_filter_printed,
)


class Round(NamedTuple):
    """One round run under a filter: its kind and its realised cost."""

    kind: Literal["zcdp", "brownian"]
    cost: Fraction
    delta: Fraction


class UnifiedBrownianFilter:
    """RSWR23 Theorem 6: zCDP and Brownian rounds under one budget ``rho``.

    The stopped interaction is ``(eps, delta + delta'')``-DP with ``eps`` from
    :attr:`guarantee`: ``rho + 2 sqrt(rho log(1/delta''))`` (``constant="proof"``) or the
    printed ``rho + 2 sqrt(2 rho log(1/delta''))`` (``constant="printed"``).
    """

    where = "UnifiedBrownianFilter (RSWR23:Thm6)"

    def __init__(self, rho: object, delta_pp: object, delta: object = 0,
                 constant: Literal["proof", "printed"] = "proof") -> None:
        values = unified_filter.bind((), {"rho": rho, "delta_pp": delta_pp, "delta": delta})
        self.rho: Fraction = values["rho"]
        self.delta: Fraction = values["delta"]
        self.delta_pp: Fraction = values["delta_pp"]
        if constant not in ("proof", "printed"):
            raise DomainError("constant", constant, "must be 'proof' or 'printed'", self.where)
        self.constant = constant
        self.rounds: list[Round] = []
        self.halted = False
        self._pending: Fraction | None = None

    @classmethod
    def from_dp(cls, eps: object, delta_pp: object, delta: object = 0) -> UnifiedBrownianFilter:
        """The filter whose guarantee is at most ``(eps, delta + delta'')``: ``rho`` is the
        certified budget of RSWR23:Lem2.3-inverse)."""
        cert = zcdp_budget(eps=eps, delta=delta_pp)
        return cls(rho=cert.value, delta_pp=delta_pp, delta=delta)

    @property
    def spent(self) -> Fraction:
        return sum((r.cost for r in self.rounds), Fraction(0))

    @property
    def remaining(self) -> Fraction:
        return self.rho - self.spent

    @property
    def delta_spent(self) -> Fraction:
        return sum((r.delta for r in self.rounds), Fraction(0))

    @property
    def guarantee(self) -> tuple[MPF, MPF]:
        """``(eps, delta + delta'')`` of the stopped interaction (the registered formula)."""
        result = unified_filter if self.constant == "proof" else unified_filter_printed
        d = result(rho=self.rho, delta=self.delta, delta_pp=self.delta_pp)
        return d.eps, d.delta

    def _open(self) -> None:
        if self._pending is not None:
            raise DomainError("record_brownian", None, "must be called for the previous "
                              "Brownian round first", self.where)

    def _fits(self, name: str, cost: Fraction, shown: object, what: str) -> None:
        if cost > self.remaining:
            raise DomainError(name, shown, f"must have {what} = {cost} within the remaining "
                              f"budget {self.remaining} (condition (4))", self.where)

    def _exhausted(self) -> None:
        if self.spent == self.rho:
            self.halted = True

    def propose_zcdp(self, rho_n: object, delta_n: object = 0) -> Action:
        """CONT (charging ``rho_n``) or HALT for a ``delta_n``-approximate ``rho_n``-zCDP round."""
        self._open()
        r = as_fraction(rho_n, "rho_n", self.where)
        d = as_fraction(delta_n, "delta_n", self.where, hi=Fraction(1), hi_open=True)
        if self.halted:
            return Action.HALT
        if self.delta < self.delta_spent + d:
            self.halted = True
            return Action.HALT
        self._fits("rho_n", r, rho_n, "rho_n")
        self.rounds.append(Round("zcdp", r, d))
        self._exhausted()
        return Action.CONT

    def propose_brownian(self, t_min: object) -> Action:
        """CONT or HALT for a sensitivity-1 Brownian round whose grid ends at ``t_min``."""
        self._open()
        t = as_fraction(t_min, "t_min", self.where)
        if t <= 0:
            raise DomainError("t_min", t_min, "must be > 0", self.where)
        if self.halted:
            return Action.HALT
        self._fits("t_min", brownian_cost(t), t_min, "1/(2 t_min)")
        self._pending = t
        return Action.CONT

    def record_brownian(self, t_stop: object) -> None:
        """Charge ``1/(2 t_stop)`` for the Brownian round just run (``t_stop >= t_min``)."""
        if self._pending is None:
            raise DomainError("record_brownian", t_stop, "must follow a CONTinued Brownian "
                              "proposal", self.where)
        t = as_fraction(t_stop, "t_stop", self.where)
        if t < self._pending:
            raise DomainError("t_stop", t_stop, f"must be >= the proposed t_min {self._pending}",
                              self.where)
        self._pending = None
        self.rounds.append(Round("brownian", brownian_cost(t), Fraction(0)))
        self._exhausted()

    def decision(self) -> bool:
        """The registered rule's HALT on the rounds run so far (a cross-check)."""
        zc = [r for r in self.rounds if r.kind == "zcdp"]
        times = [1 / (2 * r.cost) for r in self.rounds if r.kind == "brownian"]
        d = unified_filter(rho_z=[r.cost for r in zc], deltas=[r.delta for r in zc], t=times,
                           rho=self.rho, delta=self.delta, delta_pp=self.delta_pp)
        return bool(d.halt)


class BrownianFilter(UnifiedBrownianFilter):
    """RSWR23 Lemma 6.2: Brownian rounds only; ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP.

    >>> f = BrownianFilter(rho=1, delta="1e-6")
    >>> str(f.propose_brownian(1)); f.record_brownian(1)
    'CONT'
    >>> str(f.propose_brownian(1)); f.record_brownian(1); f.halted
    'CONT'
    True
    """

    where = "BrownianFilter (RSWR23:Lem6.2)"

    def __init__(self, rho: object, delta: object) -> None:
        values = brownian_filter.bind((), {"rho": rho, "delta": delta})
        super().__init__(rho=values["rho"], delta_pp=values["delta"])

    def propose_zcdp(self, rho_n: object, delta_n: object = 0) -> Action:
        raise DomainError("propose_zcdp", rho_n, "is not available: Lemma 6.2 admits only "
                          "Brownian rounds (use UnifiedBrownianFilter)", self.where)

    @property
    def guarantee(self) -> tuple[MPF, MPF]:
        d = brownian_filter(rho=self.rho, delta=self.delta_pp)
        return d.eps, self.delta_pp
