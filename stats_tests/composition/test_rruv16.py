"""Statistical tests of advanced composition (RRUV16 Thm 2.10 and footnote 2); the lecture
notes' form (LEC11) is in ``test_lec11.py``.  The harness (k-fold leaky randomized
response, exact exceedance by the binomial law) is in ``stats_tests/composition_support.py``.

The guarantee checked, the false-failure probability (1e-6) and the power checks'
exact rejection probabilities are described there.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.results import covers
from reference.results.composition.rruv16 import (
    advanced_composition,
    advanced_composition_heterogeneous,
)
from reference.sim.stats import ALPHA, rejection_probability
from stats_tests.composition_support import (
    DELTA,
    EPS,
    HET_DELTA,
    HET_EPS,
    N_QUICK,
    SLACK,
    K,
    exact_exceedance,
    homogeneous,
    run,
)
from stats_tests.mutants import mutant

RRUV16 = "reference.results.composition.rruv16"


@covers("RRUV16:Thm2.10")
def test_thm210_tail_within_bound() -> None:
    """Frequency of loss > eps_g (RRUV16:Thm2.10) is <= k delta + delta_hat = 0.06.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.00995, the leaks.)"""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition(eps=EPS, k=K, delta_hat=SLACK, delta=DELTA)
    rejected, rate = run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)
    assert not rejected, rate


@covers("RRUV16:Thm2.10")
def test_power_thm210_half_sqrt_term_no_mean() -> None:
    """Power check: eps' = eps sqrt(k log(1/delta_hat)) (no factor 2, no mean term) must be
    rejected against 0.06.

    Its exact exceedance is 0.783; with n = 1e5 the harness rejects with probability 1.0
    (computed below); false-failure probability 1e-6."""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition(eps=EPS, k=K, delta_hat=SLACK, delta=DELTA)
    wrong = EPS * np.sqrt(K * np.log(1 / SLACK))
    p_true = exact_exceedance(eps, DELTA, wrong)
    assert p_true == pytest.approx(0.783, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(eps, DELTA, wrong, float(g.delta), N_QUICK, label)[0]


@covers("RRUV16:Thm2.10")
def test_power_thm210_mutant_mean_term_over_k() -> None:
    """Power check on a mutant of ``rruv16.advanced_composition`` planted by the mutation
    tool: the mean term eps (e^eps - 1) k turned into eps (e^eps - 1) / k (eps_g = 12.24
    instead of 44.67), with the same harness, sample and bound 0.06.

    Its exact exceedance is 0.4876 (binomial law); with n = 1e5 the harness rejects with
    probability 1.0 (computed below); false-failure probability 1e-6.  (The mutant
    subtracting the root term instead has exceedance 0.052 < 0.06: no test can reject it.)"""
    wrong = mutant(RRUV16, "eps * expm1(ctx, eps) * k", "eps * expm1(ctx, eps) / k")
    eps, label = homogeneous(N_QUICK)
    g = wrong.advanced_composition(eps=EPS, k=K, delta_hat=SLACK, delta=DELTA)
    assert float(g.eps) == pytest.approx(
        EPS * np.expm1(EPS) / K + EPS * np.sqrt(2 * K * np.log(1 / SLACK)), rel=1e-12)
    p_true = exact_exceedance(eps, DELTA, float(g.eps))
    assert p_true == pytest.approx(0.4876, abs=1e-4)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)[0]


@covers("RRUV16:fn2-advanced")
def test_fn2_tail_within_bound() -> None:
    """Heterogeneous rounds (100 x 0.1, 100 x 0.3, delta_i = 1e-4): frequency of loss >
    eps_g (RRUV16:fn2-advanced) is <= sum delta_i + delta_hat = 0.07.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.0198.)"""
    g = advanced_composition_heterogeneous(eps=HET_EPS, delta_hat=SLACK,
                                           delta=[HET_DELTA] * len(HET_EPS))
    rejected, rate = run(HET_EPS, HET_DELTA, float(g.eps), float(g.delta), N_QUICK, "lrr-het")
    assert not rejected, rate
    assert exact_exceedance(HET_EPS, HET_DELTA, float(g.eps)) <= float(g.delta)


@covers("RRUV16:fn2-advanced")
def test_power_fn2_without_mean_term() -> None:
    """Power check: eps' = sqrt(2 sum eps_i^2 log(1/delta_hat)) (mean term dropped) must be
    rejected against 0.07.

    Its exact exceedance is 0.208; with n = 1e5 the harness rejects with probability 1.0
    (computed below); false-failure probability 1e-6."""
    g = advanced_composition_heterogeneous(eps=HET_EPS, delta_hat=SLACK,
                                           delta=[HET_DELTA] * len(HET_EPS))
    wrong = float(np.sqrt(2 * np.sum(np.square(HET_EPS)) * np.log(1 / SLACK)))
    p_true = exact_exceedance(HET_EPS, HET_DELTA, wrong)
    assert p_true == pytest.approx(0.208, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(HET_EPS, HET_DELTA, wrong, float(g.delta), N_QUICK, "lrr-het")[0]


@covers("RRUV16:fn2-advanced")
def test_power_fn2_mutant_spread_subtracted() -> None:
    """Power check on a mutant of ``rruv16.advanced_composition_heterogeneous`` planted by
    the mutation tool: ``mean + spread`` turned into ``mean - spread`` (eps_g = 3.807), with
    the same harness, sample and bound 0.07.

    Its exact exceedance is 0.6417; with n = 1e5 the harness rejects with probability 1.0
    (computed below); false-failure probability 1e-6."""
    wrong = mutant(RRUV16, "mean + spread", "mean - spread")
    g = wrong.advanced_composition_heterogeneous(eps=HET_EPS, delta_hat=SLACK,
                                                 delta=[HET_DELTA] * len(HET_EPS))
    p_true = exact_exceedance(HET_EPS, HET_DELTA, float(g.eps))
    assert p_true == pytest.approx(0.6417, abs=1e-4)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(HET_EPS, HET_DELTA, float(g.eps), float(g.delta), N_QUICK, "lrr-het")[0]
