"""Statistical tests of basic ex-post composition (RSWR23 Lemma 5.1) under adaptively chosen
mechanisms.

Rates are tested with one-sided Clopper–Pearson (:func:`reference.sim.stats.check_rate`),
false failure at most 1e-6.  The power check claims an un-summed bound whose exceedance
rate is known exactly, and states the resulting power.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.ex_post import compose_expost
from reference.sim.ex_post import check_expost
from reference.sim.stats import (
    rejection_probability,
    rng,
)


def gaussian_losses(gen: np.random.Generator, times: np.ndarray) -> np.ndarray:
    """Losses of Gaussian mechanisms (c = 1) at variances ``times``: N(1/(2t), 1/t)."""
    return 1 / (2 * times) + gen.standard_normal(times.shape) / np.sqrt(times)


@covers("RSWR23:Lem5.1")
def test_basic_composition_of_adaptively_chosen_mechanisms() -> None:
    """Four rounds; round i uses variance 1 if the previous loss exceeded its mean, else 3,
    with E_i its exact (1 - 0.01)-quantile: P[sum L_i > sum E_i] <= 0.04 (CP, 1e-6)."""
    gen, n, deltas = rng("lem5.1"), 200_000, [0.01] * 4
    z = stats.norm.isf(0.01)
    t = np.full(n, 3.0)
    total_l, rounds_e = np.zeros(n), []
    for _ in deltas:
        loss = gaussian_losses(gen, t)
        total_l += loss
        rounds_e.append(1 / (2 * t) + z / np.sqrt(t))
        t = np.where(loss > 1 / (2 * t), 1.0, 3.0)
    total_e = np.sum(rounds_e, axis=0)
    for path in range(8):  # the lemma's composed bound, per path, is what is tested
        bound = compose_expost(expost=[float(e[path]) for e in rounds_e], deltas=deltas)
        assert abs(float(bound.eps) - total_e[path]) < 1e-12
        assert abs(float(bound.delta) - 0.04) < 1e-15
    check = check_expost(total_l, total_e, 0.04)
    assert not check.rejected, str(check)


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
