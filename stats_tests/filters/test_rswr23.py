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
import types
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.conversions.rswr23 import zcdp_budget
from reference.results.filters.rswr23 import concurrent_filter, expost_filter, zcdp_filter
from reference.sim.adversaries import (
    up_probability,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

FILTERS = "reference.results.filters.rswr23"


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


# ---- the library's filters deciding, and power checks on their mutants ---------------------
# Deterministic schedules make every run's decision the same, so each HALT/CONT is asked
# of the filter itself (``zcdp_filter`` / ``concurrent_filter`` of the module given, the
# real one or a mutant planted by the mutation tool) once per round, and the stopped loss
# has an exact law.

DPP = 0.05
BUDGET = float(zcdp_budget(eps=1, delta=DPP).value)       # rho*(1, 0.05) = 0.0719


def fraction_of_budget(share: float) -> Fraction:
    """A rational zCDP level ``share * rho*(1, 0.05)`` (the filters take exact inputs)."""
    return Fraction(share * BUDGET).limit_denominator(10**9)


def zcdp_schedule(module: types.ModuleType, rho: Fraction, n: int, label: str,
                  horizon: int = 40) -> tuple[np.ndarray, int]:
    """Gaussian rounds of zCDP ``rho`` while ``module.zcdp_filter`` at (1, 0.05) CONTinues
    (at most ``horizon``): the stopped losses and the number of rounds run."""
    g = rng(label)
    loss = np.zeros(n)
    rounds = 0
    while rounds < horizon and not module.zcdp_filter(rho=[rho] * (rounds + 1), eps=1,
                                                      delta_pp=DPP).halt:
        loss += gaussian_zcdp_rounds(np.full(n, float(rho)), g)
        rounds += 1
    return loss, rounds


@covers("RSWR23:Thm2")
def test_zcdp_filter_deciding_and_power_on_a_mutant() -> None:
    """Rounds of 0.09 rho* under the library's zCDP filter at (eps, delta'') = (1, 0.05):
    it runs 11 rounds (0.99 rho*), the loss is N(R, 2R) at R = 11 rho, and it exceeds 1
    with frequency <= 0.05 (exact rate 0.0069; false failure <= 1e-6).

    Power check on a mutant of the filter planted by the mutation tool: ``_zcdp_eps``'s
    ``ctx.fsum(rho) if rho else ctx.zero`` turned into ``... if not rho else ctx.zero`` (the
    spent epsilon is 0: the filter never halts).  It runs the 40 rounds of the horizon;
    the loss is N(40 rho, 80 rho), exceeding 1 with exact probability 0.1514, so 2e4 runs
    reject with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    rho, n = fraction_of_budget(0.09), 20_000
    real = types.ModuleType("real")
    real.zcdp_filter = zcdp_filter  # type: ignore[attr-defined]
    loss, rounds = zcdp_schedule(real, rho, n, "rswr23-thm2-schedule")
    assert rounds == 11
    R = rounds * float(rho)
    assert float(stats.norm.sf((1 - R) / math.sqrt(2 * R))) == pytest.approx(0.0069, abs=1e-4)
    assert not check_rate(loss > 1, None, DPP).rejected

    wrong = mutant(FILTERS, "ctx.fsum(rho) if rho else ctx.zero",
                   "ctx.fsum(rho) if not rho else ctx.zero")
    loss, rounds = zcdp_schedule(wrong, rho, n, "rswr23-thm2-mutant")
    assert rounds == 40
    R = rounds * float(rho)
    p_true = float(stats.norm.sf((1 - R) / math.sqrt(2 * R)))
    assert p_true == pytest.approx(0.1514, abs=1e-4)
    assert rejection_probability(p_true, n, DPP, ALPHA) > 1 - 1e-9
    assert check_rate(loss > 1, None, DPP).rejected


def concurrent_schedule(module: types.ModuleType, rho: Fraction, level: Fraction, n: int,
                        label: str, horizon: int = 200) -> tuple[np.ndarray, int, int]:
    """Alternate zCDP Gaussian rounds (``rho``) and pure RR rounds of ``level`` (ex-post
    bound ``level`` on both outputs) while ``module.concurrent_filter`` with
    (eps, delta, delta'') = (1, 1e-6, 0.05) and (eps', delta') = (1, 1e-6) CONTinues:
    the stopped total losses and the numbers of zCDP and ex-post rounds run."""
    g = rng(label)
    loss = np.zeros(n)
    z = post = 0
    for step in range(horizon):
        is_z = step % 2 == 0
        halt = module.concurrent_filter(
            rho=[rho] * (z + is_z), expost=[level] * post, eps=1, delta="1e-6",
            delta_pp=DPP, eps_post=1, delta_post="1e-6").halt
        if halt:
            break
        if is_z:
            loss += gaussian_zcdp_rounds(np.full(n, float(rho)), g)
            z += 1
        else:
            up = g.random(n) < up_probability(float(level))
            loss += np.where(up, float(level), -float(level))
            post += 1
    return loss, z, post


def concurrent_exceedance(z: int, post: int, rho: Fraction, level: Fraction) -> float:
    """Exact P[N(z rho, 2 z rho) + level (2 U - post) > 2], U ~ Bin(post, p(level))."""
    u = np.arange(post + 1)
    pmf = stats.binom.pmf(u, post, up_probability(float(level)))
    R = z * float(rho)
    return float((pmf * stats.norm.sf((2 - float(level) * (2 * u - post) - R)
                                      / math.sqrt(2 * R))).sum())


@covers("RSWR23:Thm3")
def test_concurrent_filter_deciding_and_power_on_a_mutant() -> None:
    """zCDP rounds of 0.3 rho* alternating with RR rounds of 1/64 under the library's
    concurrent filter: its zCDP rule halts before the fourth zCDP round (3 + 3 rounds run),
    and the total loss exceeds eps + eps' = 2 with frequency <= 0.05 + 2e-6 (exact rate
    4.07e-8; false failure <= 1e-6).

    Power check on a mutant planted by the mutation tool: ``zcdp or post`` turned into
    ``zcdp and post`` (HALT only when both rules stop).  It runs until the ex-post budget
    is spent: 64 + 64 rounds; the total exceeds 2 with exact probability 0.3567 (normal
    tails summed over the binomial RR loss), so 2e4 runs reject with probability 1.0
    (exact, > 1 - 1e-9); false failure <= 1e-6."""
    rho, level, n = fraction_of_budget(0.3), Fraction(1, 64), 20_000
    bound = DPP + 2e-6
    real = types.ModuleType("real")
    real.concurrent_filter = concurrent_filter  # type: ignore[attr-defined]
    loss, z, post = concurrent_schedule(real, rho, level, n, "rswr23-thm3-schedule")
    assert (z, post) == (3, 3)
    assert concurrent_exceedance(z, post, rho, level) == pytest.approx(4.07e-8, rel=1e-3)
    assert not check_rate(loss > 2, None, bound).rejected

    wrong = mutant(FILTERS, "zcdp or post", "zcdp and post")
    loss, z, post = concurrent_schedule(wrong, rho, level, n, "rswr23-thm3-mutant")
    assert (z, post) == (64, 64)
    p_true = concurrent_exceedance(z, post, rho, level)
    assert p_true == pytest.approx(0.3567, abs=1e-4)
    assert rejection_probability(p_true, n, bound, ALPHA) > 1 - 1e-9
    assert check_rate(loss > 2, None, bound).rejected


def leaky_expost_schedule(module: types.ModuleType, level: Fraction, leak: Fraction, n: int,
                          label: str, horizon: int = 40) -> tuple[np.ndarray, int]:
    """Rounds of RR with ``level`` (ex-post bound ``level`` on both outputs) that leak the
    data with probability ``leak`` (loss +inf), while ``module.expost_filter`` with
    (eps, delta) = (1, 3/100) CONTinues: the stopped losses and the rounds run."""
    g = rng(label)
    loss = np.zeros(n)
    rounds = 0
    while rounds < horizon and not module.expost_filter(
            expost=[level] * rounds, deltas=[leak] * (rounds + 1), eps=1,
            delta=Fraction(3, 100)).halt:
        leaked = g.random(n) < float(leak)
        up = g.random(n) < up_probability(float(level))
        loss += np.where(leaked, np.inf, np.where(up, float(level), -float(level)))
        rounds += 1
    return loss, rounds


@covers("RSWR23:Lem5.2")
def test_expost_filter_deciding_and_power_on_a_mutant() -> None:
    """RR rounds of 1/8 leaking with probability 1/100 under the library's Lemma 5.2 filter
    at (eps, delta) = (1, 0.03): its delta rule stops before the fourth round (3 rounds
    run), the loss exceeds 1 only on a leak, exact rate 1 - 0.99^3 = 0.0297 <= 0.03 (false
    failure <= 1e-6).

    Power check on a mutant planted by the mutation tool: the stopping rule's ``or``
    turned into ``and`` (stop only when the budget is spent and the deltas are over).  It
    runs 8 rounds: the exact rate is 1 - 0.99^8 = 0.0773, so 2e4 runs reject with
    probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    level, leak, n, delta = Fraction(1, 8), Fraction(1, 100), 20_000, 0.03
    real = types.ModuleType("real")
    real.expost_filter = expost_filter  # type: ignore[attr-defined]
    loss, rounds = leaky_expost_schedule(real, level, leak, n, "rswr23-lem5.2-schedule")
    assert rounds == 3
    assert not check_rate(loss > 1, None, delta).rejected

    wrong = mutant(FILTERS, "_total(values, expost) == values[eps] or values[delta] < "
                   "_total(values, deltas)", "_total(values, expost) == values[eps] and "
                   "values[delta] < _total(values, deltas)")
    loss, rounds = leaky_expost_schedule(wrong, level, leak, n, "rswr23-lem5.2-mutant")
    assert rounds == 8
    p_true = 1 - 0.99**8
    assert rejection_probability(p_true, n, delta, ALPHA) > 1 - 1e-9
    assert check_rate(loss > 1, None, delta).rejected
