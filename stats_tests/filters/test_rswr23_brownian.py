"""Statistical tests of the Brownian filters (RSWR23 Lemma 6.2 and Theorem 6).

Each interaction runs under the filter until it halts (the budget spent exactly); the
realised total privacy loss of the halted transcript (worst-case neighbours, sensitivity
1) must exceed the filter's epsilon with frequency at most its delta.  Brownian rounds use
grids with ``1/(2 t_j) = R j / K`` (``R`` the remaining budget, ``K = 40``: condition (3)/(4)
is tight) simulated backwards, and the adversarial stopping rule "stop at the first
z-score ``W/sqrt(t) > a``, else at the last point" (a function of the releases).  Rates are
tested with one-sided Clopper–Pearson (false failure <= 1e-6); each power check's wrong
variant has a Gaussian total loss, so its rate and the harness's power are exact.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.filters.rswr23_brownian import (
    brownian_filter,
    unified_filter,
    unified_filter_printed,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

N, K, ROUNDS = 100_000, 40, 25
J = np.arange(1, K + 1) / K


def brownian_round(remaining: np.ndarray, a: float,
                   gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One adversarially stopped Brownian round per path: (loss, cost 1/(2 t_stop))."""
    costs = remaining[:, None] * J[None, :]                  # 1/(2t), increasing
    t = 1 / (2 * costs)                                      # decreasing times
    var = np.diff(t[:, ::-1], axis=1, prepend=0.0)
    w = np.cumsum(gen.standard_normal(t.shape) * np.sqrt(var), axis=1)[:, ::-1]
    stop = w / np.sqrt(t) > a
    first = np.where(stop.any(axis=1), stop.argmax(axis=1), K - 1)
    rows = np.arange(remaining.size)
    ts = t[rows, first]
    return 1 / (2 * ts) + w[rows, first] / ts, costs[rows, first]


def run(rho: float, a: float, zcdp_every: int, label: str) -> np.ndarray:
    """Total loss at the halt.  Every ``zcdp_every``-th round (0: never) is a Gaussian
    zCDP round of rho_n = 0.3 x remaining (loss N(rho_n, 2 rho_n)); the last round spends
    what is left (the analyst runs it to its end)."""
    gen = rng(label)
    remaining, total = np.full(N, rho), np.zeros(N)
    for r in range(1, ROUNDS + 1):
        live = np.nonzero(remaining > 0)[0]          # the filter has halted on the others
        left = remaining[live]
        if zcdp_every and r % zcdp_every == 0 and r < ROUNDS:
            cost = 0.3 * left
            loss = cost + np.sqrt(2 * cost) * gen.standard_normal(live.size)
        else:
            loss, cost = brownian_round(left, a if r < ROUNDS else np.inf, gen)
        total[live] += loss
        remaining[live] = np.where(cost >= left, 0.0, left - cost)
    assert not np.any(remaining > 0) and np.all(np.isfinite(total))
    return total


def eps_of(result: object, rho: float, delta: float) -> float:
    return float(result(rho=rho, **({"delta": delta} if result is brownian_filter  # type: ignore[operator]
                                    else {"delta_pp": delta})).eps)


@covers("RSWR23:Lem6.2")
def test_brownian_filter_halted_loss() -> None:
    """Lemma 6.2, rho = 1, delta = 0.05, adversary a = 1: P[L > eps] <= delta."""
    rho, delta = 1.0, 0.05
    total = run(rho, 1.0, 0, "lem6.2")
    check = check_rate(total > eps_of(brownian_filter, rho, delta), None, delta)
    assert not check.rejected, str(check)


@covers("RSWR23:Lem6.2")
def test_power_filter_charging_the_first_release() -> None:
    """Power check: a filter that charges a Brownian round at its first (noisiest) time
    instead of its stopped time.  With rounds charged 1/(2 t_first) = rho/10 but always
    run to t_last, 1/(2 t_last) = rho/2.5, ten rounds spend 4 rho = 2 (rho = 1/2): the total
    loss is N(2, 4) exactly, above eps(1/2, 0.05) = 2.949 w.p. 0.318."""
    rho, delta, n = 0.5, 0.05, 50_000
    eps = eps_of(brownian_filter, rho, delta)
    true_rho = 10 * rho / 2.5
    p_true = float(stats.norm.sf((eps - true_rho) / math.sqrt(2 * true_rho)))
    assert p_true > 0.3 and rejection_probability(p_true, n, delta, ALPHA) > 0.9999
    t_last = 1 / (2 * rho / 2.5)
    w = rng("lem6.2-wrong").standard_normal((n, 10)) * math.sqrt(t_last)
    total = (1 / (2 * t_last) + w / t_last).sum(axis=1)
    check = check_rate(total > eps, None, delta)
    assert check.rejected, str(check)


@covers("RSWR23:Thm6", "RSWR23:Thm6-printed")
def test_unified_filter_halted_loss() -> None:
    """Theorem 6 with zCDP rounds interleaved (every third round), rho = 1, delta'' = 0.05:
    P[L > eps] <= delta'' for the proof's constant, hence for the printed (larger) one."""
    rho, dpp = 1.0, 0.05
    total = run(rho, 0.5, 3, "thm6")
    for result in (unified_filter, unified_filter_printed):
        check = check_rate(total > eps_of(result, rho, dpp), None, dpp)
        assert not check.rejected, str(check)


@covers("RSWR23:Thm6")
def test_power_printed_zcdp_step() -> None:
    """Power check: accounting with the proof's printed zCDP step (rho_n/2 per zCDP round)
    lets zCDP rounds spend 2 rho: with Gaussian rounds only the total loss is N(2, 4)
    (rho = 1), above eps(1, 0.05) = 4.462 w.p. 0.109 (exact), against delta'' = 0.05."""
    rho, dpp, n = 1.0, 0.05, 50_000
    eps = eps_of(unified_filter, rho, dpp)
    p_true = float(stats.norm.sf((eps - 2 * rho) / math.sqrt(4 * rho)))
    assert p_true > 0.1 and rejection_probability(p_true, n, dpp, ALPHA) > 0.9999
    gen = rng("thm6-wrong")
    remaining, total = np.full(n, rho), np.zeros(n)
    for _ in range(30):              # charged rho_n/2, true level rho_n
        rho_n = 2 * 0.3 * remaining
        total += rho_n + np.sqrt(2 * rho_n) * gen.standard_normal(n)
        remaining -= rho_n / 2
    rho_n = 2 * remaining            # the last round uses up the (mis-)charged budget
    total += rho_n + np.sqrt(2 * rho_n) * gen.standard_normal(n)
    check = check_rate(total > eps, None, dpp)
    assert check.rejected, str(check)


# ---- the library's filters deciding, and power checks on their mutants ---------------------
# Deterministic schedules: Brownian rounds released at a fixed time t (loss N(1/(2t), 1/t)
# at sensitivity 1) and zCDP rounds of a fixed level (loss N(rho, 2 rho)); after each round
# the filter of the module given (the real one, or a mutant planted by the mutation tool)
# is asked whether to HALT.  Every run gets the same decisions, so the halted total loss
# is exactly N(R, 2R), R the true spend, and each rate below is an exact normal tail.

N_SCHEDULE = 20_000
FILTERS = "reference.results.filters.rswr23_brownian"


def scheduled_total(kinds: str, t: Fraction, rho_z: Fraction,
                    halts: Callable[[list[Fraction], list[Fraction]], bool], label: str,
                    horizon: int = 40) -> tuple[np.ndarray, float]:
    """Run rounds cycling through ``kinds`` ("B": Brownian at ``t``, "Z": zCDP ``rho_z``)
    until ``halts(times, levels)`` (asked after each round) or ``horizon``: the totals and
    the true spend R."""
    g = rng(label)
    total = np.zeros(N_SCHEDULE)
    times: list[Fraction] = []
    levels: list[Fraction] = []
    for r in range(horizon):
        if kinds[r % len(kinds)] == "B":
            times.append(t)
            total += 1 / (2 * float(t)) + g.standard_normal(N_SCHEDULE) / math.sqrt(float(t))
        else:
            levels.append(rho_z)
            total += float(rho_z) + math.sqrt(2 * float(rho_z)) * g.standard_normal(N_SCHEDULE)
        if halts(times, levels):
            break
    return total, sum(1 / (2 * float(x)) for x in times) + float(rho_z) * len(levels)


@covers("RSWR23:Lem6.2")
def test_brownian_filter_deciding_and_power_on_a_mutant() -> None:
    """Brownian rounds at t = 1/2 (cost 1) under the library's Lemma 6.2 filter, rho = 10,
    delta = 0.05: it halts after 10 rounds, the total is N(10, 20), above eps = 20.95 with
    exact probability 0.0072 <= delta (false failure <= 1e-6).

    Power check on a mutant of ``brownian_cost`` planted by the mutation tool: ``1/(2 t)``
    turned into ``1/(2/t)`` (a round at t = 1/2 charged 1/4).  It halts after 40 rounds:
    the total is N(40, 80), above 20.95 with exact probability 0.9834, so 2e4 runs reject
    with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    rho, delta, t = 10, 0.05, Fraction(1, 2)
    eps = eps_of(brownian_filter, rho, delta)

    def run_under(module: types.ModuleType, label: str) -> tuple[np.ndarray, float]:
        return scheduled_total("B", t, Fraction(0), lambda times, _: bool(
            module.brownian_filter(t=times, rho=rho, delta=delta).halt), label)

    real = types.ModuleType("real")
    real.brownian_filter = brownian_filter  # type: ignore[attr-defined]
    total, spend = run_under(real, "lem6.2-schedule")
    assert spend == 10
    assert float(stats.norm.sf((eps - spend) / math.sqrt(2 * spend))) == pytest.approx(
        0.0072, abs=1e-4)
    assert not check_rate(total > eps, None, delta).rejected

    total, spend = run_under(mutant(FILTERS, "2 * t", "2 / t", line=61), "lem6.2-mutant")
    assert spend == 40
    p_true = float(stats.norm.sf((eps - spend) / math.sqrt(2 * spend)))
    assert p_true == pytest.approx(0.9834, abs=1e-4)
    assert rejection_probability(p_true, N_SCHEDULE, delta, ALPHA) > 1 - 1e-9
    assert check_rate(total > eps, None, delta).rejected


@covers("RSWR23:Thm6", "RSWR23:Thm6-printed")
def test_unified_filter_deciding_and_power_on_a_mutant() -> None:
    """zCDP rounds of 1/10 alternating with Brownian rounds at t = 5 (cost 1/10) under the
    library's Theorem 6 filter, rho = 1, delta'' = 0.05: it halts after 10 rounds, the total
    is N(1, 2), above eps = 4.462 with exact probability 0.0072 <= delta'' (false failure
    <= 1e-6).

    Power check on a mutant of ``_spent`` planted by the mutation tool: the Brownian costs'
    ``total + sum(rho_z)`` turned into ``total - sum(rho_z)`` (zCDP rounds refund instead of
    spend).  The spend never reaches rho, so the 40 rounds of the horizon run: the total is
    N(4, 8), above 4.462 with exact probability 0.4351, so 2e4 runs reject with
    probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    rho, dpp, t, rz = 1, 0.05, Fraction(5), Fraction(1, 10)
    eps = eps_of(unified_filter, rho, dpp)

    def run_under(module: types.ModuleType, label: str) -> tuple[np.ndarray, float]:
        return scheduled_total("ZB", t, rz, lambda times, levels: bool(
            module.unified_filter(rho_z=levels, t=times, rho=rho, delta_pp=dpp).halt), label)

    real = types.ModuleType("real")
    real.unified_filter = unified_filter  # type: ignore[attr-defined]
    total, spend = run_under(real, "thm6-schedule")
    assert spend == pytest.approx(1, rel=1e-12)
    assert float(stats.norm.sf((eps - spend) / math.sqrt(2 * spend))) == pytest.approx(
        0.0072, abs=1e-4)
    assert not check_rate(total > eps, None, dpp).rejected

    # Power check on a mutant of ``unified_filter_printed`` planted by the mutation tool:
    # its epsilon's ``2 rho log(1/delta'')`` under the root turned into
    # ``2 rho / log(1/delta'')`` (eps = 2.634 instead of 5.895): the real run's N(1, 2) total
    # exceeds it with exact probability 0.1239 > 0.05, rejected with probability 1.0
    # (exact, > 1 - 1e-9).
    printed = float(mutant(FILTERS, "2 * rho * log(ctx, 1 / delta_pp)",
                           "2 * rho / log(ctx, 1 / delta_pp)").unified_filter_printed(
        rho=rho, delta_pp=dpp).eps)
    p_printed = float(stats.norm.sf((printed - spend) / math.sqrt(2 * spend)))
    assert p_printed == pytest.approx(0.1239, abs=1e-4)
    assert rejection_probability(p_printed, N_SCHEDULE, dpp, ALPHA) > 1 - 1e-9
    assert check_rate(total > printed, None, dpp).rejected

    wrong = mutant(FILTERS, 'total + sum(values.get("rho_z", ()), Fraction(0))',
                   "total - sum(values.get('rho_z', ()), Fraction(0))")
    total, spend = run_under(wrong, "thm6-mutant")
    assert spend == pytest.approx(4, rel=1e-12)
    p_true = float(stats.norm.sf((eps - spend) / math.sqrt(2 * spend)))
    assert p_true == pytest.approx(0.4351, abs=1e-4)
    assert rejection_probability(p_true, N_SCHEDULE, dpp, ALPHA) > 1 - 1e-9
    assert check_rate(total > eps, None, dpp).rejected


@pytest.mark.slow
@covers("RSWR23:Lem6.2", "RSWR23:Thm6")
def test_filters_thorough() -> None:
    """Thorough size: 4 x 1e5 interactions per configuration at delta = 0.01, adversaries
    a in {0.5, 1, 2}, with and without zCDP rounds (false failure <= 1e-6 each)."""
    rho, delta = 2.0, 0.01
    for a in (0.5, 1.0, 2.0):
        for every in (0, 3):
            total = np.concatenate([run(rho, a, every, f"thorough-{a}-{every}-{k}")
                                    for k in range(4)])
            check = check_rate(total > eps_of(unified_filter, rho, delta), None, delta)
            assert not check.rejected, str(check)
