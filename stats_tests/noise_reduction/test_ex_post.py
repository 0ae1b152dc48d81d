"""Statistical tests of basic ex-post composition (RSWR23 Lemma 5.1) under adaptively chosen
mechanisms.

Rates are tested with one-sided Clopper–Pearson (:func:`reference.sim.stats.check_rate`),
false failure at most 1e-6.  The power check claims an un-summed bound whose exceedance
rate is known exactly, and states the resulting power.
"""

from __future__ import annotations

import types

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.ex_post import compose_expost, expost_excess
from reference.sim.adversaries import NP
from reference.sim.ex_post import check_expost
from reference.sim.stats import (
    check_rate,
    rejection_probability,
    rng,
)
from stats_tests.mutants import mutant


def gaussian_losses(gen: np.random.Generator, times: np.ndarray) -> np.ndarray:
    """Losses of Gaussian mechanisms (c = 1) at variances ``times``: N(1/(2t), 1/t)."""
    return 1 / (2 * times) + gen.standard_normal(times.shape) / np.sqrt(times)


def adaptive_rounds(n: int = 200_000) -> tuple[np.ndarray, list[np.ndarray]]:
    """Four rounds; round i uses variance 1 if the previous loss exceeded its mean, else 3,
    with E_i its exact (1 - 0.01)-quantile: the summed losses and the per-round E_i."""
    gen = rng("lem5.1")
    z = stats.norm.isf(0.01)
    t = np.full(n, 3.0)
    total_l, rounds_e = np.zeros(n), []
    for _ in range(4):
        loss = gaussian_losses(gen, t)
        total_l += loss
        rounds_e.append(1 / (2 * t) + z / np.sqrt(t))
        t = np.where(loss > 1 / (2 * t), 1.0, 3.0)
    return total_l, rounds_e


@covers("RSWR23:Lem5.1")
def test_basic_composition_of_adaptively_chosen_mechanisms() -> None:
    """Four rounds; round i uses variance 1 if the previous loss exceeded its mean, else 3,
    with E_i its exact (1 - 0.01)-quantile: P[sum L_i > sum E_i] <= 0.04 (CP, 1e-6)."""
    deltas = [0.01] * 4
    total_l, rounds_e = adaptive_rounds()
    total_e = np.sum(rounds_e, axis=0)
    for path in range(8):  # the lemma's composed bound, per path, is what is tested
        bound = compose_expost(expost=[float(e[path]) for e in rounds_e], deltas=deltas)
        assert abs(float(bound.eps) - total_e[path]) < 1e-12
        assert abs(float(bound.delta) - 0.04) < 1e-15
    check = check_expost(total_l, total_e, 0.04)
    assert not check.rejected, str(check)


def excess_events(module: types.ModuleType, losses: np.ndarray,
                  bounds: np.ndarray) -> np.ndarray:
    """Per run, is ``module.expost_excess`` (WRWR22 Def. 2.2's ``(L - E)^+``) positive?"""
    excess = np.frompyfunc(lambda x, e: float(module.expost_excess.core(NP, x, e)), 2, 1)
    return np.asarray(excess(losses, bounds), dtype=float) > 0


@covers("RSWR23:Lem5.1", "WRWR22:Def2.2")
def test_power_mutant_excess_with_the_bound_added() -> None:
    """Power check on a mutant of ``expost_excess`` planted by the mutation tool: ``(L - E)^+``
    turned into ``(L + E)^+``, deciding the event of the main test's harness on its sample
    (the real excess decides exactly as L > E: asserted).

    The mutant's event holds whenever every round has Z_i > -z_0.99 (then each
    L_i + E_i = 1/t + (Z_i + z)/sqrt(t) > 0), so its rate is >= 0.99^4 = 0.9606 (exact: the
    Z_i are i.i.d. standard normal whatever the adaptive t), against 0.04: rejected with
    probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    total_l, rounds_e = adaptive_rounds()
    total_e = np.sum(rounds_e, axis=0)
    real = types.ModuleType("real")
    real.expost_excess = expost_excess  # type: ignore[attr-defined]
    assert np.array_equal(excess_events(real, total_l, total_e), total_l > total_e)
    wrong = mutant("reference.results.noise_reduction.ex_post", "loss - bound", "loss + bound")
    events = excess_events(wrong, total_l, total_e)
    assert rejection_probability(0.99**4, events.size, 0.04) > 1 - 1e-9
    assert check_rate(events, None, 0.04).rejected


@covers("RSWR23:Lem5.1")
def test_power_composition_without_summing_the_bounds() -> None:
    """Power check: claiming (max E_i, sum delta_i) for four variance-1 rounds: sum L ~
    N(2, 4) exceeds max E = 0.5 + 2.326 w.p. 0.340 (exact), against 0.04."""
    gen, n = rng("lem5.1-wrong"), 20_000
    total = gaussian_losses(gen, np.ones((n, 4))).sum(axis=1)
    e_max = 0.5 + stats.norm.isf(0.01)
    p_true = float(stats.norm.sf((e_max - 2) / 2))
    assert abs(p_true - 0.340) < 1e-3 and rejection_probability(p_true, n, 0.04) > 0.9999
    assert check_expost(total, e_max, 0.04).rejected
