"""Statistical tests of the privacy filters: PrivacyFilterComp (RRUV16 Algorithm 3) with
randomized-response rounds and adaptive adversaries, simulated with numpy over runs.

Guarantee checked for each filter: at the halt, ``|Loss| > eps_g`` with frequency at most
``delta_g`` (under ``V^0`` and ``V^1``).  Every check rejects a true guarantee with
probability at most ``ALPHA = 1e-6`` (one-sided Clopper–Pearson); beside each, a power
check runs the same harness on a deliberately wrong variant whose true rate is computed
exactly (binomial tails, or the exact law of the stopped walk) and asserts the exact
probability that the harness rejects it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.conversions.rswr23 import zcdp_budget
from reference.results.filters.objects import AdvancedFilter, stopped
from reference.results.filters.rruv16 import filter_statistic
from reference.sim.adversaries import (
    NP,
    binomial_tail_violation,
    bold_policy,
    constant_policy,
    simulate_filter,
    steps,
    up_probability,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng

EPS_G = 1.0


def advanced(dg: float, factor: float = 1.0):  # type: ignore[no-untyped-def]
    """Theorem 5.1's statistic in float64 (the library formula through NP); ``factor``
    scales the square-root term (0.5: the wrong filter with its constant halved)."""
    def stat(drift: np.ndarray, S: np.ndarray, total: np.ndarray) -> np.ndarray:
        K = filter_statistic(NP, drift, S, EPS_G, dg)
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


@covers("RRUV16:Thm5.1", "RRUV16:Thm3.4")
@pytest.mark.parametrize("b", [0, 1])
def test_bold_adversary(b: int) -> None:
    """Bold adversary: eps = 1/8 when the running loss exceeds 1/4, else 1/64 (catalog-003
    §5), 2e5 runs, delta_g = 0.05: the advanced filter's frequency is <= delta_g
    (false-failure probability <= 1e-6); the basic filter never exceeds eps_g."""
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
    from reference.results.filters.objects import ApproxFilter, BasicFilter, Verdict

    delta = Fraction(1, 20)
    dgp = float(delta) / math.e**2
    f = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime=dgp)
    assert f.propose(2, delta) is Verdict.HALT
    n = 100_000
    g = rng("lem3.3-printed")
    infinite = g.random(n) < float(delta)  # outcome "0" of RR_{2,delta}(0): |Loss| = inf
    assert rejection_probability(float(delta), n, dgp, ALPHA) > 0.9999
    assert check_rate(infinite, None, dgp).rejected


# ---- RSWR23 Theorem 2, Lemma 5.2, Theorem 3 ------------------------------------------

def gaussian_zcdp_rounds(rhos: np.ndarray, g: np.random.Generator) -> np.ndarray:
    """Privacy loss of a rho-zCDP Gaussian round: N(rho, 2 rho) given the past."""
    return np.asarray(rhos + np.sqrt(2 * rhos) * g.standard_normal(rhos.shape))


def run_zcdp_filter(eps: float, dpp: float, budget: float, n: int, label: str,
                    adaptive: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Theorem 2's filter with Gaussian rounds: rho_n = remaining/4 (at least 1e-3 of the
    budget), or twice that after a loss above its mean; stops before the round that
    would exceed ``budget`` (the rho* of (eps, delta''))."""
    g = rng(label)
    spent = np.zeros(n)
    loss = np.zeros(n)
    last_high = np.zeros(n, bool)
    alive = np.ones(n, bool)
    for _ in range(200):
        rho = np.maximum((budget - spent) / 4, budget / 1000)
        if adaptive:
            rho = np.where(last_high, 2 * rho, rho)
        go = alive & (spent + rho <= budget)
        alive &= go
        if not alive.any():
            break
        step = gaussian_zcdp_rounds(rho, g)
        loss = np.where(go, loss + step, loss)
        spent = np.where(go, spent + rho, spent)
        last_high = step > rho
    return loss, spent


@covers("RSWR23:Thm2")
def test_zcdp_filter_adaptive() -> None:
    """Adaptive Gaussian rounds under the zCDP filter at (eps, delta'') = (1, 0.05):
    the stopped loss exceeds eps with frequency <= delta'' (false-failure prob. <= 1e-6)."""
    eps, dpp = 1.0, 0.05
    budget = float(zcdp_budget(eps=eps, delta=dpp).value)
    loss, spent = run_zcdp_filter(eps, dpp, budget, 200_000, "rswr23-thm2")
    assert spent.max() <= budget
    assert not check_rate(loss > eps, None, dpp).rejected


@covers("RSWR23:Thm2")
def test_power_zcdp_filter_constant_halved() -> None:
    """Power check: the rule eps < rho + sqrt(rho log(1/delta'')) (constant 1, not 2) lets
    sum rho reach the larger root; with fixed rho = budget_wrong/10 the loss is exactly
    N(R, 2R) at R = 10 rho, exceeding eps with probability sf((eps - R)/sqrt(2R)) = 0.11."""
    eps, dpp = 1.0, 0.05
    L = math.log(1 / dpp)
    wrong = (eps / (math.sqrt(L / 4 + eps) + math.sqrt(L / 4))) ** 2  # R + sqrt(L R) = eps
    R = wrong
    p_true = float(stats.norm.sf((eps - R) / math.sqrt(2 * R)))
    n = 200_000
    assert rejection_probability(p_true, n, dpp, ALPHA) > 0.9999
    g = rng("rswr23-thm2-wrong")
    loss = sum(gaussian_zcdp_rounds(np.full(n, R / 10), g) for _ in range(10))
    assert check_rate(loss > eps, None, dpp).rejected


def run_expost(level: float, budget: float, n: int, g: np.random.Generator,
               respect_budget: bool = True, rounds: int = 64) -> np.ndarray:
    """Ex-post rounds of RR_eps with bound E(top) = eps, E(bottom) = 0 (delta = 0): the
    analyst proposes min(level, remaining) (Lemma 5.2's hypothesis) or, wrongly, ``level``
    and stops only once the bounds reach the budget."""
    spent = np.zeros(n)
    loss = np.zeros(n)
    for _ in range(rounds):
        alive = spent < budget
        if not alive.any():
            break
        e = np.minimum(level, budget - spent) if respect_budget else np.full(n, level)
        e = np.where(alive, e, 0.0)
        up = g.random(n) < 1 / (1 + np.exp(-e))
        loss += np.where(up, e, -e)
        spent += np.where(up, e, 0.0)
    return loss


@covers("RSWR23:Lem5.2")
def test_expost_filter_and_power() -> None:
    """Lemma 5.2 with delta = 0: the stopped loss never exceeds eps = 1 (frequency <= 0;
    false-failure probability 0).  Power check: proposing the level 3/8 regardless of the
    remaining budget (stopping only once the bounds reach it) exceeds eps exactly when the
    first three rounds are all top, probability p^3 = 0.208, so any of 1e4 runs rejects
    (exact rejection probability 1 - (1 - p^3)^n)."""
    g = rng("rswr23-lem5.2")
    loss = run_expost(3 / 8, 1.0, 100_000, g)
    assert not check_rate(loss > 1.0 + 1e-12, None, 0.0).rejected
    p3 = up_probability(3 / 8) ** 3
    n = 10_000
    assert rejection_probability(p3, n, 0.0, ALPHA) > 0.9999
    wrong = run_expost(3 / 8, 1.0, n, rng("rswr23-lem5.2-wrong"), respect_budget=False)
    assert check_rate(wrong > 1.0 + 1e-12, None, 0.0).rejected


@covers("RSWR23:Thm3")
def test_concurrent_filter_and_power() -> None:
    """Theorem 3: zCDP Gaussian rounds (eps = 1, delta = 0, delta'' = 0.05) interleaved
    with ex-post RR rounds (eps' = 1, delta' = 0): the total loss exceeds 2 with
    frequency <= 0.05.  Power check: the wrong claim "eps alone" (total <= 1) fails with
    exact probability sum_d P[D = d] sf((1 - d - R)/sqrt(2R)), D the ex-post loss."""
    n, dpp = 200_000, 0.05
    budget = float(zcdp_budget(eps=1, delta=dpp).value)
    z, _ = run_zcdp_filter(1.0, dpp, budget, n, "rswr23-thm3-z", adaptive=False)
    post = run_expost(1 / 8, 1.0, n, rng("rswr23-thm3-post"))
    total = z + post
    assert not check_rate(total > 2.0, None, dpp).rejected
    # Exact law of the ex-post part: simulate its exact distribution by enumeration of the
    # up/down sequences (levels 1/8, budget 1: stops after eight tops).
    law: dict[float, float] = {}
    p = up_probability(1 / 8)
    frontier = {(0, 0.0): 1.0}
    for _ in range(64):
        nxt: dict[tuple[int, float], float] = {}
        for (tops, d), pr in frontier.items():
            if tops == 8:
                law[d] = law.get(d, 0.0) + pr
                continue
            for up, q in ((1, p), (0, 1 - p)):
                key = (tops + up, d + (1 / 8 if up else -1 / 8))
                nxt[key] = nxt.get(key, 0.0) + pr * q
        frontier = nxt
    for (_, d), pr in frontier.items():
        law[d] = law.get(d, 0.0) + pr
    R = _zcdp_total(budget)
    p_true = sum(pr * float(stats.norm.sf((1 - d - R) / math.sqrt(2 * R)))
                 for d, pr in law.items())
    assert p_true > dpp and rejection_probability(p_true, n, dpp, ALPHA) > 0.9999
    assert check_rate(total > 1.0, None, dpp).rejected


def _zcdp_total(budget: float) -> float:
    """Total rho spent by the non-adaptive schedule of :func:`run_zcdp_filter`."""
    spent = 0.0
    for _ in range(200):
        rho = max((budget - spent) / 4, budget / 1000)
        if spent + rho > budget:
            break
        spent += rho
    return spent


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
