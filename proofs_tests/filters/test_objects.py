"""The round-by-round filters (``reference/results/filters/objects.py``).

Expected values by hand: exact rational sums for the basic, zCDP-delta and ex-post
rules; RRUV16 (6) ``K = sum eps(e^eps - 1)/2 + sqrt((S + x)(2 + log(S/x + 1)) log(1/delta_g))``
with ``S = sum eps^2``, ``x = eps_g^2/(28.04 log(1/delta_g))``; Lemma 3.3's corrected
failure term ``delta (1 + e^-2eps)/(1 - e^-eps)`` (python-flint arb where the decision
is within the enclosure's width); Theorem 2's ``eps(rho) = rho + 2 sqrt(rho log(1/delta''))``.
The agreement with the registered results is in ``test_rruv16.py`` and ``test_rswr23.py``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import mpmath
import pytest

from proofs_tests.arb_support import arb_ends
from reference.core.errors import DomainError
from reference.results import covers
from reference.results.filters.objects import (
    Action,
    AdvancedFilter,
    ApproxFilter,
    BasicFilter,
    ExPostFilter,
    ZCDPFilter,
    stopped,
)

CONT, HALT = Action.CONT, Action.HALT


def _close(x: object, y: object) -> bool:
    return bool(mpmath.almosteq(x, y, 1e-13))


@covers("RRUV16:Thm3.4")
def test_basic_protocol() -> None:
    """eps_g = 1, rounds of 1/4: four CONT (the total reaches 1, not > 1), the fifth HALT
    (5/4) and every later proposal HALT; rounds numbered 1..5, spend only on CONT."""
    f = BasicFilter(eps_g=1)
    assert [f.propose("0.25") for _ in range(5)] == [CONT] * 4 + [HALT]
    assert [(p.round, p.statistic, p.action) for p in f.history] == [
        (k, mpmath.mpf(k) / 4, CONT if k < 5 else HALT) for k in range(1, 6)]
    assert f.halted and f.total == 1 and f.eps_spent == [Fraction(1, 4)] * 4
    assert f.spent == [(Fraction(1, 4), 0)] * 4
    assert f.propose(0) is HALT and len(f.history) == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.history[0].action = HALT  # type: ignore[misc]
    g = BasicFilter(eps_g=1)
    assert g.propose("0.75") is CONT and g.propose("0.5") is HALT and g.total == Fraction(3, 4)
    assert not BasicFilter(eps_g=1).halted


@covers("RRUV16:Thm3.4")
def test_pure_filters_refuse_deltas() -> None:
    f = BasicFilter(eps_g=1)
    for d in ("0.5", "1e-30"):
        with pytest.raises(DomainError, match="pure-DP"):
            f.propose("0.1", d)
    with pytest.raises(DomainError, match="delta"):
        f.propose("0.1", 1)
    with pytest.raises(DomainError, match="pure-DP"):
        AdvancedFilter(eps_g=1, delta_g="1e-3").propose("0.1", "1e-9")
    assert f.history == [] and f.propose("0.1", 0) is CONT


@covers("RRUV16:Thm3.4")
def test_stopped_counts_rounds_before_halt() -> None:
    assert stopped(BasicFilter(eps_g=1), ["0.5", ("0.25", 0), "0.25", "0.125"]) == 3
    assert stopped(BasicFilter(eps_g=1), [("0.5", 0), "0.5"]) == 2


def _K(eps: list[Fraction], eps_g: Fraction, delta_g: Fraction) -> mpmath.mpf:
    """RRUV16 (6), written out from the paper."""
    e = [mpmath.mpf(x.numerator) / x.denominator for x in eps]
    L = mpmath.log(mpmath.mpf(delta_g.denominator) / delta_g.numerator)
    x = (mpmath.mpf(eps_g.numerator) / eps_g.denominator) ** 2 / (mpmath.mpf("28.04") * L)
    S = mpmath.fsum(v * v for v in e)
    return mpmath.fsum(v * mpmath.expm1(v) / 2 for v in e) + mpmath.sqrt(
        (S + x) * (2 + mpmath.log(S / x + 1)) * L)


@covers("RRUV16:Thm5.1")
def test_advanced_statistic_is_formula_6() -> None:
    """The statistic of each proposal is K of the prefix including it; HALT iff K > eps_g.
    eps_g = 1, delta_g = 1/1000: rounds of 1/10 give K = 0.573, 0.800, 0.991, 1.161 (HALT)."""
    f = AdvancedFilter(eps_g=1, delta_g="0.001")
    q = Fraction(1, 10)
    for _ in range(4):
        f.propose(q)
    ks = [_K([q] * k, Fraction(1), Fraction(1, 1000)) for k in (1, 2, 3, 4)]
    assert ks[2] < 1 < ks[3]
    assert [p.action for p in f.history] == [CONT, CONT, CONT, HALT]
    assert all(_close(p.statistic, k) for p, k in zip(f.history, ks, strict=True))
    assert f.S == Fraction(3, 100) and f.halted


@covers("RRUV16:Lem3.3")
def test_approx_failure_statistic_and_inner_on_doubled_eps() -> None:
    """Inner basic filter with eps_g = 1 sees 2 eps: rounds (1/4, d), (1/4, d) reach 1
    (CONT), a third (1/8, 0) HALTs; the statistic is the summed corrected failure term."""
    inner = BasicFilter(eps_g=1)
    f = ApproxFilter(inner, delta_g_prime="0.01")
    d = Fraction(1, 10**4)
    term = d * (1 + mpmath.exp(-mpmath.mpf(1) / 2)) / (-mpmath.expm1(-mpmath.mpf(1) / 4))
    assert f.propose("0.25", d) is CONT and _close(f.history[-1].statistic, term)
    assert f.propose("0.25", d) is CONT and _close(f.history[-1].statistic, 2 * term)
    assert inner.total == 1 and inner.eps_spent == [Fraction(1, 2)] * 2
    assert f.propose("0.125", 0) is HALT and f.halted and _close(f.history[-1].statistic,
                                                                  2 * term)
    assert f.spent == [(Fraction(1, 4), d)] * 2


@covers("RRUV16:Lem3.3")
def test_approx_zero_rounds() -> None:
    """eps = delta = 0 costs nothing (CONT, statistic 0, even with delta_g' = 0); eps = 0 <
    delta has an infinite term: HALT with statistic +inf; delta_i lies in [0, 1)."""
    f = ApproxFilter(BasicFilter(eps_g=1), delta_g_prime=0)
    assert f.propose(0, 0) is CONT and f.history[-1].statistic == 0
    assert f.propose("0.5", 0) is CONT and f.history[-1].statistic == 0
    assert f.propose(0, "1e-9") is HALT and f.history[-1].statistic == mpmath.inf
    g = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime="0.5")
    with pytest.raises(DomainError, match="delta"):
        g.propose(1, 1)
    assert g.propose(1, "0.5") is HALT   # 0.5 (1 + e^-2)/(1 - e^-1) = 0.898 > 0.5
    h = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime=1)
    assert h.propose(1, "0.5") is CONT and _close(
        h.history[-1].statistic, (1 + mpmath.exp(-2)) / (2 * -mpmath.expm1(-1)))


@covers("RRUV16:Lem3.3")
def test_approx_decision_within_the_enclosure_width() -> None:
    """Budgets 10^-75 either side of the failure term f = (1/2)(1 + e^-2)/(1 - e^-1) of the
    round (1, 1/2), inside the width of the running enclosure at the default working
    precision (about 10^-61), so the exact fallback decides: HALT iff f > delta_g'."""
    prec, flint.ctx.prec = flint.ctx.prec, 500
    try:
        one = flint.arb(1)
        lo, hi = arb_ends((1 + (-2 * one).exp()) / (2 * (1 - (-one).exp())))
    finally:
        flint.ctx.prec = prec
    assert hi - lo < Fraction(1, 10**120)
    for budget, action in ((lo - Fraction(1, 10**75), HALT), (hi + Fraction(1, 10**75), CONT)):
        assert ApproxFilter(BasicFilter(eps_g=4), delta_g_prime=budget).propose(
            1, "0.5") is action


@covers("RSWR23:Thm2")
def test_zcdp_filter_statistic_and_rules() -> None:
    """delta'' = 1/2, eps = 3: eps(rho) = rho + 2 sqrt(rho log 2); rho = 1/2 + 1/4 gives
    2.192 <= 3 (CONT); adding 1/2 gives 1.25 + 2 sqrt(1.25 log 2) = 3.11 > 3 (HALT)."""
    log2 = mpmath.log(2)
    f = ZCDPFilter(eps=3, delta_pp="0.5", delta="0.5")
    assert f.propose("0.5", "0.25") is CONT and f.propose("0.25", "0.25") is CONT
    assert (f.rho_total, f.delta_total) == (Fraction(3, 4), Fraction(1, 2))
    assert _close(f.history[1].statistic, mpmath.mpf("0.75") + 2 * mpmath.sqrt(0.75 * log2))
    assert f.propose("0.5") is HALT
    assert _close(f.history[2].statistic, mpmath.mpf("1.25") + 2 * mpmath.sqrt(1.25 * log2))
    g = ZCDPFilter(eps=3, delta_pp="0.5", delta="0.5")
    assert g.propose(0, "0.25") is CONT and g.propose(0, "0.25") is CONT
    assert g.propose(0, "1e-30") is HALT and g.halted     # 1/2 < 1/2 + 1e-30 (strict rule)
    assert _close(g.history[-1].statistic, 0)
    h = ZCDPFilter(eps=3, delta_pp="0.5")
    assert h.delta == 0 and h.propose("0.1", "1e-30") is HALT


@covers("RSWR23:Lem5.2")
def test_expost_protocol() -> None:
    """eps = 1, delta = 1/2: the proposal's max bound must fit the remaining budget (equality
    allowed); the statistic is the summed delta including the proposal; HALT once the
    realised bounds sum to eps exactly, or when the deltas exceed delta (strict)."""
    f = ExPostFilter(eps=1, delta="0.5")
    assert f.delta_total == 0 and f.remaining == 1
    with pytest.raises(DomainError, match="remaining budget"):
        f.propose(0, "1.0001")
    with pytest.raises(DomainError, match="record"):
        f.record("0.1")
    assert f.propose("0.25", 1) is CONT and f.history[-1].statistic == mpmath.mpf("0.25")
    with pytest.raises(DomainError, match="record"):
        f.propose(0, "0.1")
    with pytest.raises(DomainError, match="bound"):
        f.record("1.0001")
    f.record("0.5")
    assert f.remaining == Fraction(1, 2) and f.realised == [Fraction(1, 2)] and not f.halted
    with pytest.raises(DomainError, match="remaining budget"):
        f.propose(0, "0.5001")
    assert f.propose("0.25", "0.5") is CONT        # deltas 1/2 = delta: not exceeded
    assert f.history[-1].statistic == mpmath.mpf("0.5") and f.delta_total == Fraction(1, 2)
    f.record("0.25")
    assert f.remaining == Fraction(1, 4) and not f.halted
    assert f.propose(0, "0.25") is CONT
    f.record("0.25")
    assert f.halted and f.remaining == 0
    assert f.propose(0, 0) is HALT and f.propose(0, 5) is HALT   # halted: no budget check


@covers("RSWR23:Lem5.2")
def test_expost_delta_halt_and_defaults() -> None:
    f = ExPostFilter(eps=1, delta="0.5")
    assert f.propose("0.25") is CONT    # max_bound defaults to 0: only a bound of 0 fits
    with pytest.raises(DomainError, match="bound"):
        f.record("0.1")
    f.record(0)
    assert f.propose("0.25", "0.5") is CONT
    f.record("0.5")
    assert f.propose("0.125", "0.5") is HALT and f.halted
    assert f.history[-1].statistic == mpmath.mpf("0.625")
    with pytest.raises(DomainError, match="record"):
        f.record("0.1")                 # a HALTed proposal runs no round
    g = ExPostFilter(eps="0.5")
    assert g.delta == 0 and g.propose("1e-30", "0.5") is HALT
    assert ExPostFilter(eps="0.5").propose() is CONT
