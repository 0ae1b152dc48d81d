"""Statistical tests of the privacy filters: PrivacyFilterComp (RRUV16 Algorithm 3) with
randomized-response rounds and adaptive adversaries, simulated with numpy over runs.
RSWR23's filters (Theorem 2, Lemma 5.2, Theorem 3) are in ``test_rswr23.py``.

Guarantee checked for each filter: at the halt, ``|Loss| > eps_g`` with frequency at most
``delta_g`` (under ``V^0`` and ``V^1``).  Every check rejects a true guarantee with
probability at most ``ALPHA = 1e-6`` (one-sided Clopper–Pearson); beside each, a power
check runs the same harness on a deliberately wrong variant whose true rate is computed
exactly (binomial tails, or the exact law of the stopped walk) and asserts the exact
probability that the harness rejects it.
"""

from __future__ import annotations

import math
import types
from fractions import Fraction

import numpy as np
import pytest

from reference.results import covers
from reference.results.filters.objects import AdvancedFilter, stopped
from reference.results.filters.rruv16 import filter_statistic, lifted_failure
from reference.sim.adversaries import (
    NP,
    binomial_tail_violation,
    bold_policy,
    constant_policy,
    simulate_filter,
    steps,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

EPS_G = 1.0
RRUV16 = "reference.results.filters.rruv16"


def advanced(dg: float, factor: float = 1.0,  # type: ignore[no-untyped-def]
             module: types.ModuleType | None = None):
    """Theorem 5.1's statistic in float64 (the library formula through NP); ``factor``
    scales the square-root term (0.5: the wrong filter with its constant halved);
    ``module`` replaces ``reference.results.filters.rruv16`` (a mutant of it)."""
    formula = filter_statistic if module is None else module.filter_statistic

    def stat(drift: np.ndarray, S: np.ndarray, total: np.ndarray) -> np.ndarray:
        K = formula(NP, drift, S, EPS_G, dg)
        return np.asarray(drift + factor * (K - drift))
    return stat


@covers("RRUV16:Thm5.1")
@pytest.mark.parametrize("b", [0, 1])
def test_advanced_filter_constant_adversary(b: int) -> None:
    """Constant eps = 1/32, delta_g = 0.05, 2e5 runs: the halted |Loss| > 1 with frequency
    <= delta_g (false-failure probability <= 1e-6); the halt round matches the object's."""
    dg, levels = 0.05, [Fraction(1, 32)]
    run = simulate_filter(levels, constant_policy(0), advanced(dg), EPS_G, 400, 200_000,
                          rng(f"thm5.1-constant-{b}"), b)
    k = stopped(AdvancedFilter(eps_g=1, delta_g="0.05"), [levels[0]] * 400)
    assert set(np.unique(run.rounds)) == {k}
    assert not check_rate(np.abs(run.loss) > EPS_G, None, dg).rejected


@covers("RRUV16:Thm5.1")
def test_power_filter_with_constant_halved() -> None:
    """Power check: the filter with its square-root term halved, delta_g = 1e-3, eps = 1/32.

    It halts after a deterministic k* rounds; its exact failure rate is the binomial tail
    P[|eps(2U - k*)| > 1] = 1.515e-3 > delta_g, so 1e6 runs reject with probability
    computed exactly below (> 0.9999).
    """
    dg, eps = 1e-3, Fraction(1, 32)
    run = simulate_filter([eps], constant_policy(0), advanced(dg, 0.5), EPS_G, 400, 10**6,
                          rng("thm5.1-halved"))
    k = int(run.rounds[0])
    p_true = binomial_tail_violation(eps, k, Fraction(1))
    assert p_true > dg and rejection_probability(p_true, 10**6, dg, ALPHA) > 0.9999
    assert check_rate(np.abs(run.loss) > EPS_G, None, dg).rejected


@covers("RRUV16:Thm5.1")
def test_power_mutant_filter_root_term_subtracted() -> None:
    """Power check on a mutant of ``filter_statistic`` planted by the mutation tool:
    ``drift + self_normalized(...)`` turned into ``drift - self_normalized(...)``, run with
    the constant-adversary test's harness (eps = 1/32, delta_g = 0.05, T = 400) on 1e4 runs.

    K then stays below eps_g, so the filter never halts and every run plays T = 400 rounds
    (asserted); the exact failure rate is the binomial tail P[|eps(2U - 400)| > 1] = 0.1152
    (the real filter halts after 69 rounds, rate 1.0e-4), so the harness rejects with
    probability 1.0 (exact, computed below: > 1 - 1e-9); false failure <= 1e-6."""
    wrong = mutant(RRUV16, "drift + self_normalized(ctx, 4 * S, x, log_term)",
                   "drift - self_normalized(ctx, 4 * S, x, log_term)")
    dg, eps, n = 0.05, Fraction(1, 32), 10_000
    run = simulate_filter([eps], constant_policy(0), advanced(dg, module=wrong), EPS_G, 400,
                          n, rng("thm5.1-mutant"))
    assert set(np.unique(run.rounds)) == {400}
    p_true = binomial_tail_violation(eps, 400, Fraction(1))
    assert p_true == pytest.approx(0.1152, abs=1e-4)
    assert rejection_probability(p_true, n, dg, ALPHA) > 1 - 1e-9
    assert check_rate(np.abs(run.loss) > EPS_G, None, dg).rejected


@covers("RRUV16:Thm5.1", "RRUV16:Thm3.4")
@pytest.mark.parametrize("b", [0, 1])
def test_bold_adversary(b: int) -> None:
    """Bold adversary: eps = 1/8 when the running loss exceeds 1/4, else 1/64 (an adaptive
    adversary against the filters of RRUV16 §5), 2e5 runs, delta_g = 0.05: the advanced
    filter's frequency is <= delta_g (false-failure probability <= 1e-6); the basic filter
    never exceeds eps_g."""
    dg, levels = 0.05, [Fraction(1, 64), Fraction(1, 8)]
    policy = bold_policy(0, 1, 0.25)
    run = simulate_filter(levels, policy, advanced(dg), EPS_G, 2000, 200_000,
                          rng(f"thm5.1-bold-{b}"), b)
    assert run.counts[:, 1].sum() > 0  # the adversary did turn bold
    assert not check_rate(np.abs(run.loss) > EPS_G, None, dg).rejected
    basic = simulate_filter(levels, policy, lambda d, S, total: total, EPS_G, 500, 50_000,
                            rng(f"thm3.4-bold-{b}"), b)
    assert np.abs(basic.loss).max() <= EPS_G  # deterministic guarantee: exactly 0 hits


@covers("RRUV16:Lem3.3")
def test_lemma33_lift_and_printed_power() -> None:
    """Corrected Lemma 3.3 around the basic filter (eps_g = 4): rounds RR_{2, delta}, whose
    loss is infinite with probability delta = 0.05.  The corrected lift HALTs the first
    round (its term 0.0589 > delta_g' = delta/e^2), so nothing is ever lost.  Power check:
    the printed lift accepts (2 delta/(2 e^2) = delta_g') and the round runs; its true
    failure rate is delta = 0.05 > delta_g + delta_g' = 0.0068, rejected with the exact
    probability below."""
    from reference.results.filters.objects import Action, ApproxFilter, BasicFilter

    delta = Fraction(1, 20)
    dgp = float(delta) / math.e**2
    f = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime=dgp)
    assert f.propose(2, delta) is Action.HALT
    n = 100_000
    g = rng("lem3.3-printed")
    infinite = g.random(n) < float(delta)  # outcome "0" of RR_{2,delta}(0): |Loss| = inf
    assert rejection_probability(float(delta), n, dgp, ALPHA) > 0.9999
    assert check_rate(infinite, None, dgp).rejected


def lifted_round_failures(halt: bool, delta: Fraction, n: int, label: str) -> np.ndarray:
    """Lemma 3.3's harness for one round RR_{2, delta} behind the lifted basic filter: if
    the lift HALTs nothing runs; otherwise per run, is the round's loss infinite?"""
    if halt:
        return np.zeros(n, dtype=bool)
    return np.asarray(rng(label).random(n) < float(delta))


@covers("RRUV16:Lem3.3")
def test_power_mutant_lift_skips_nonzero_deltas() -> None:
    """Power check on a mutant of ``lifted_failure`` planted by the mutation tool: the
    per-round terms kept ``if not _is_zero(d)`` turned into ``if _is_zero(d)`` (the rounds
    with delta > 0 dropped from the sum).  On the round RR_{2, 1/20} with
    delta_g' = delta/e^2 the real lift HALTs (failure 0.0589 > 0.0068: nothing runs, 0
    failures in 1e5 runs, asserted), the mutant's sum is 0 so it CONTinues, and the round's
    loss is infinite with probability delta = 0.05 > delta_g + delta_g' = 0.0068: with 1e5
    runs the harness rejects with probability 1.0 (exact, > 1 - 1e-9); false failure
    <= 1e-6."""
    delta, n = Fraction(1, 20), 100_000
    dgp = float(delta) / math.e**2
    real = lifted_failure(eps=[2], delta=[delta], delta_g_prime=dgp)
    assert real.halt and float(real.failure) == pytest.approx(
        0.05 * (1 + math.exp(-4)) / (1 - math.exp(-2)), rel=1e-12)
    assert not check_rate(lifted_round_failures(True, delta, n, "lem3.3-real"), None,
                          dgp).rejected
    wrong = mutant(RRUV16, "not (_is_zero(d))", "_is_zero(d)")
    lifted = wrong.lifted_failure(eps=[2], delta=[delta], delta_g_prime=dgp)
    assert not lifted.halt and float(lifted.failure) == 0
    assert rejection_probability(float(delta), n, dgp, ALPHA) > 1 - 1e-9
    failures = lifted_round_failures(bool(lifted.halt), delta, n, "lem3.3-mutant")
    assert check_rate(failures, None, dgp).rejected


@pytest.mark.slow
@covers("RRUV16:Thm5.1")
def test_advanced_filter_bold_thorough() -> None:
    """Thorough size: the bold adversary with 2e6 runs at delta_g = 0.01."""
    dg = 0.01
    run = simulate_filter([Fraction(1, 64), Fraction(1, 8)], bold_policy(0, 1, 0.25),
                          advanced(dg), EPS_G, 3000, 2_000_000, rng("thm5.1-bold-thorough"))
    assert not check_rate(np.abs(run.loss) > EPS_G, None, dg).rejected


def test_steps_probability() -> None:
    """The raw-word sampler has the requested step probability (sanity, 1e6 draws)."""
    s = steps(rng("steps"), np.uint64(int(0.3 * 2.0**64)), 10**6)
    assert abs(s.mean() - 0.3) < 5 * math.sqrt(0.21 / 10**6)
