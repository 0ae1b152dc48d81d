"""Statistical tests of RSWR23's filters: the zCDP filter (Theorem 2) with adaptive Gaussian
rounds, the ex-post filter (Lemma 5.2) with randomized-response rounds, and the concurrent
filter (Theorem 3), simulated with numpy over runs.  RRUV16's filters are in
``test_rruv16.py``.

Guarantee checked for each filter: at the halt, the loss exceeds its bound with frequency
at most the filter's delta.  Every check rejects a true guarantee with probability at most
``ALPHA = 1e-6`` (one-sided Clopper–Pearson); beside each, a power check runs the same
harness on a deliberately wrong variant whose true rate is computed exactly and asserts
the exact probability that the harness rejects it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.conversions.rswr23 import zcdp_budget
from reference.sim.adversaries import (
    up_probability,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng


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
