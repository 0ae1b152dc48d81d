"""Statistical tests of the lecture notes' advanced composition (LEC11 N5/N22); RRUV16's
forms are in ``test_rruv16.py``.  The harness (k-fold leaky randomized response, exact
exceedance by the binomial law) is in ``stats_tests/composition_support.py``.

The guarantee checked, the false-failure probability (1e-6) and the power checks'
exact rejection probabilities are described there.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.results import covers
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.sim.stats import ALPHA, rejection_probability
from stats_tests.composition_support import (
    DELTA,
    EPS,
    N_QUICK,
    SLACK,
    K,
    exact_exceedance,
    homogeneous,
    run,
)
from stats_tests.mutants import mutant

LEC11 = "reference.results.composition.lec11"
#: The mean term's ``+`` turned into ``-`` in ``advanced_composition_tanh`` (the tool's text).
_ROOT_TERM = "eps * ctx.sqrt(2 * k * log(ctx, 1 / delta_prime))"
_MEAN_TERM = "k * eps * _tanh_half(ctx, eps)"


@covers("LEC11:AdvComp")
def test_lec11_tail_within_bound() -> None:
    """Frequency of loss > eps~ (LEC11:AdvComp) is <= k delta + delta' = 0.06.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.0147.)"""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition_tanh(eps=EPS, k=K, delta_prime=SLACK, delta=DELTA)
    rejected, rate = run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)
    assert not rejected, rate
    assert exact_exceedance(eps, DELTA, float(g.eps)) <= float(g.delta)


@covers("LEC11:AdvComp")
def test_power_lec11_without_mean_term() -> None:
    """Power check: eps' = eps sqrt(2k ln(1/delta')) (the mean term k eps tanh(eps/2)
    dropped, the "sqrt(k) eps" heuristic of N1) must be rejected against 0.06.

    Its exact exceedance is 0.488 (binomial law); with n = 1e5 the harness rejects with
    probability 1.0 (computed below by ``rejection_probability``); false-failure 1e-6."""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition_tanh(eps=EPS, k=K, delta_prime=SLACK, delta=DELTA)
    wrong = EPS * np.sqrt(2 * K * np.log(1 / SLACK))
    p_true = exact_exceedance(eps, DELTA, wrong)
    assert p_true == pytest.approx(0.488, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    rejected, _ = run(eps, DELTA, wrong, float(g.delta), N_QUICK, label)
    assert rejected


@covers("LEC11:AdvComp")
def test_power_lec11_mutant_mean_term_subtracted() -> None:
    """Power check on a mutant of ``lec11.advanced_composition_tanh`` planted by the mutation
    tool: the mean term's ``+`` turned into ``-`` (eps~ = eps sqrt(2k ln(1/delta')) - k eps
    tanh(eps/2), here -0.0072), with the same harness, sample and bound 0.06.

    Its exact exceedance is 0.9953 (binomial law); with n = 1e5 the harness rejects with
    probability 1.0 (computed below by ``rejection_probability``); false-failure 1e-6."""
    wrong = mutant(LEC11, f"{_ROOT_TERM} + {_MEAN_TERM}", f"{_ROOT_TERM} - {_MEAN_TERM}")
    eps, label = homogeneous(N_QUICK)
    g = wrong.advanced_composition_tanh(eps=EPS, k=K, delta_prime=SLACK, delta=DELTA)
    assert float(g.delta) == pytest.approx(K * DELTA + SLACK)  # the fault is in eps~ only
    p_true = exact_exceedance(eps, DELTA, float(g.eps))
    assert p_true == pytest.approx(0.9953, abs=1e-4)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    rejected, _ = run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)
    assert rejected


@pytest.mark.slow
@covers("LEC11:AdvComp")
def test_lec11_tail_thorough() -> None:
    """Thorough size: eps=0.2, k=400, delta=1e-5, delta'=0.01 (bound 0.014), n = 1e6.

    True rate, exactly: 0.00498.  False-failure probability <= 1e-6; the variant without
    the mean term (exact rate 0.147) is rejected with probability > 1 - 1e-9 (computed
    below)."""
    eps, delta, k, slack, n = 0.2, 1e-5, 400, 0.01, 1_000_000
    seq = (eps,) * k
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)
    rejected, rate = run(seq, delta, float(g.eps), float(g.delta), n, "lrr-thorough")
    assert not rejected, rate
    wrong = eps * np.sqrt(2 * k * np.log(1 / slack))
    p_true = exact_exceedance(seq, delta, wrong)
    assert rejection_probability(p_true, n, float(g.delta), ALPHA) > 1 - 1e-9, p_true
    assert run(seq, delta, wrong, float(g.delta), n, "lrr-thorough")[0]
