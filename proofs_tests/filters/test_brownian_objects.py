"""The round-by-round Brownian filters (``brownian_objects``: RSWR23 Lemma 6.2, Theorem 6).

Every expected value is worked out by hand in exact rationals: a zCDP round charges its
``rho_n``, a Brownian round stopped at ``t`` charges ``1/(2 t)``; the filter continues
while a proposal fits the remaining budget (condition (4): equality allowed), answers HALT
once the budget is spent exactly or when ``delta < sum delta_i`` (strict), and the
guarantee is ``rho + 2 sqrt(rho log(1/delta''))`` (``2 sqrt(2 rho ...)`` printed).
The analyst-driven property test is in ``test_rswr23_brownian.py``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.filters.brownian_objects import BrownianFilter, UnifiedBrownianFilter
from reference.results.filters.objects import Action

CONT, HALT = Action.CONT, Action.HALT


@covers("RSWR23:Thm6")
def test_mixed_rounds_charge_exactly_and_halt_at_exhaustion() -> None:
    """rho = 1: zCDP 1/2, a Brownian round stopped at t = 2 (1/4), then 1/8 is left; a
    Brownian round stopped at t = 4 (1/8) spends the rest exactly, and only then HALT."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6", delta="0.5")
    assert f.propose_zcdp("0.5", "0.25") is CONT
    assert f.propose_brownian(2) is CONT
    f.record_brownian(2)
    assert (f.spent, f.remaining, f.delta_spent) == (Fraction(3, 4), Fraction(1, 4),
                                                     Fraction(1, 4))
    assert f.propose_zcdp("0.125") is CONT
    assert (f.spent, f.remaining, f.halted) == (Fraction(7, 8), Fraction(1, 8), False)
    assert f.decision() is False
    assert f.propose_brownian(4) is CONT   # 1/(2*4) = 1/8: fits with equality
    assert f.halted is False               # not charged before the round is recorded
    f.record_brownian(4)
    assert (f.spent, f.remaining, f.halted, f.delta_spent) == (1, 0, True, Fraction(1, 4))
    assert f.decision() is True
    assert f.propose_zcdp(0) is HALT and f.propose_brownian(100) is HALT
    assert [r.kind for r in f.rounds] == ["zcdp", "brownian", "zcdp", "brownian"]


@covers("RSWR23:Thm6")
def test_decision_recomputes_brownian_times() -> None:
    """decision() passes t = 1/(2 cost) per Brownian round to the registered rule: with
    rounds zCDP 1/4 and Brownian at t = 2 (1/4), t = 8 (1/16) under rho = 1, 7/16 is
    left (no HALT); a Brownian round of cost 7/16 (t = 8/7) then exhausts it."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="0.5")
    assert f.propose_zcdp("0.25") is CONT
    for t in (2, 8):
        assert f.propose_brownian(t) is CONT
        f.record_brownian(t)
    assert f.remaining == Fraction(7, 16) and f.decision() is False
    assert f.propose_brownian(Fraction(8, 7)) is CONT
    f.record_brownian(Fraction(8, 7))
    assert f.remaining == 0 and f.decision() is True


@covers("RSWR23:Thm6")
def test_budget_condition_boundaries() -> None:
    """A proposal costing exactly the remainder is allowed, one costing more raises."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6")
    with pytest.raises(DomainError, match="condition"):
        f.propose_zcdp("1.0000001")
    with pytest.raises(DomainError, match="condition"):
        f.propose_brownian("0.4999")   # 1/(2 t) > 1
    assert f.propose_brownian("0.5") is CONT   # 1/(2 * 1/2) = 1: the whole budget
    f.record_brownian(1)                        # stopped later, at t = 1: charged 1/2
    assert f.remaining == Fraction(1, 2) and not f.halted
    assert f.propose_brownian(1) is CONT        # costs exactly the remaining 1/2
    f.record_brownian(1)
    assert f.halted and f.spent == 1


@covers("RSWR23:Thm6")
def test_brownian_protocol_errors() -> None:
    """t_min must be > 0; t_stop >= t_min (equality allowed); a Brownian round must be
    recorded before the next proposal, and only after a CONTinued proposal."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6")
    for bad in (0, -1):
        with pytest.raises(DomainError, match="t_min"):
            f.propose_brownian(bad)
    with pytest.raises(DomainError, match="record_brownian"):
        f.record_brownian(1)
    assert f.propose_brownian(4) is CONT
    with pytest.raises(DomainError, match="record_brownian"):
        f.propose_zcdp("0.1")
    with pytest.raises(DomainError, match="record_brownian"):
        f.propose_brownian(4)
    with pytest.raises(DomainError, match="t_stop"):
        f.record_brownian("3.99")
    f.record_brownian(4)                        # t_stop = t_min
    assert f.spent == Fraction(1, 8)
    with pytest.raises(DomainError, match="record_brownian"):
        f.record_brownian(4)
    assert f.propose_brownian("0.75") is CONT   # t_min below 1 is fine: cost 2/3 <= 7/8


@covers("RSWR23:Thm6")
def test_delta_rule_is_strict_and_halts_for_good() -> None:
    """HALT iff delta < sum delta_i including the proposal; a HALT is final.  The default
    delta budget is 0, so any positive delta_n stops; delta_n must lie in [0, 1)."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6", delta="0.5")
    with pytest.raises(DomainError, match="delta_n"):
        f.propose_zcdp(0, 1)
    assert f.propose_zcdp("0.125", "0.25") is CONT
    assert f.propose_brownian(4) is CONT
    f.record_brownian(4)                        # a Brownian round adds no delta
    assert f.delta_spent == Fraction(1, 4)
    assert f.propose_zcdp("0.125", "0.25") is CONT   # 1/2 = delta: not exceeded
    assert f.delta_spent == Fraction(1, 2)
    assert f.propose_zcdp(0, "1e-30") is HALT
    assert f.halted and f.propose_zcdp(0, 0) is HALT and f.propose_brownian(4) is HALT
    assert f.spent == Fraction(3, 8)            # the refused proposal charged nothing
    g = UnifiedBrownianFilter(rho=1, delta_pp="1e-6", delta="0.5")
    assert g.propose_zcdp(0, "0.25") is CONT
    assert g.propose_zcdp(0, "0.5") is HALT     # 1/4 + 1/2 > 1/2
    h = UnifiedBrownianFilter(rho=1, delta_pp="1e-6")
    assert h.delta == 0 and h.propose_zcdp("0.1") is CONT
    assert h.propose_zcdp("0.1", "1e-30") is HALT
    k = UnifiedBrownianFilter(rho=1, delta_pp="1e-6", delta=1)
    assert k.propose_zcdp(0, "0.5") is CONT


@covers("RSWR23:Thm6", "RSWR23:Thm6-printed", "RSWR23:Lem6.2")
def test_guarantees() -> None:
    """rho = 1/2, delta'' = 1/4: eps = 1/2 + 2 sqrt(log 4 / 2) (proof), 1/2 + 2 sqrt(log 4)
    (printed); delta + delta'' = 1/8 + 1/4.  Lemma 6.2 with rho = 1, delta = 1/4:
    eps = 1 + 2 sqrt(log 4), delta = 1/4."""
    log4 = mpmath.log(4)
    half = mpmath.mpf(1) / 2
    proof = UnifiedBrownianFilter(rho="0.5", delta_pp="0.25", delta="0.125")
    printed = UnifiedBrownianFilter(rho="0.5", delta_pp="0.25", delta="0.125",
                                    constant="printed")
    assert proof.constant == "proof" and printed.constant == "printed"
    for f, eps in ((proof, half + 2 * mpmath.sqrt(half * log4)),
                   (printed, half + 2 * mpmath.sqrt(log4))):
        e, d = f.guarantee
        assert mpmath.almosteq(e, eps, 1e-12) and mpmath.almosteq(d, mpmath.mpf("0.375"))
    with pytest.raises(DomainError, match="constant"):
        UnifiedBrownianFilter(rho=1, delta_pp="0.25", constant="other")  # type: ignore[arg-type]
    b = BrownianFilter(rho=1, delta="0.25")
    e, d = b.guarantee
    assert mpmath.almosteq(e, 1 + 2 * mpmath.sqrt(log4), 1e-12) and d == Fraction(1, 4)
    assert b.propose_brownian(1) is CONT and not b.halted


@covers("RSWR23:Thm6")
def test_from_dp_has_no_delta_budget_by_default() -> None:
    """from_dp's delta defaults to 0, as the constructor's: a positive delta_n stops."""
    f = UnifiedBrownianFilter.from_dp(eps=10, delta_pp="1e-6")
    assert f.delta == 0 and f.delta_pp == Fraction(1, 10**6)
    assert f.propose_zcdp("0.1", "1e-30") is HALT
    g = UnifiedBrownianFilter.from_dp(eps=10, delta_pp="1e-6", delta="0.5")
    assert g.delta == Fraction(1, 2) and g.propose_zcdp("0.1", "0.5") is CONT
