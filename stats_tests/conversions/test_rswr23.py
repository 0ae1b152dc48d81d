"""Statistical tests of the zCDP conversion and composition (RSWR23 Lemmas 2.3, 2.4).

The guarantee checked: for a rho-zCDP Gaussian mechanism, the sampled privacy loss
exceeds ``eps(rho, delta) = rho + 2 sqrt(rho log(1/delta))`` with frequency at most
``delta`` (a tail bound that implies the (eps, delta)-DP of Lemma 2.3 (ii)).  The loss
is computed from the sampled output and the two Gaussian densities, not from its law.

Every test here rejects a true guarantee with probability at most ``ALPHA = 1e-6``
(one-sided Clopper–Pearson); every power check states the exact probability with
which the same harness rejects its wrong variant.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.conversions.rswr23 import compose_zcdp, gaussian_zcdp, zcdp_to_dp
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

DELTA = 0.05
RSWR23 = "reference.results.conversions.rswr23"


def root_over_log() -> types.ModuleType:
    """``rswr23`` with the mutation tool's fault in ``zcdp_to_dp``: ``rho * log(1/delta)``
    under the root turned into ``rho / log(1/delta)``."""
    return mutant(RSWR23, "rho * log(ctx, 1 / delta)", "rho / log(ctx, 1 / delta)")


def gaussian_losses(sigma: float, shift: float, n: int, label: str) -> np.ndarray:
    """Privacy loss log p_x(y)/p_x'(y) of y = f(x) + N(0, sigma^2), f(x)=0, f(x')=shift."""
    y = rng(label).normal(0.0, sigma, n)
    return np.asarray(stats.norm.logpdf(y, 0.0, sigma) - stats.norm.logpdf(y, shift, sigma))


def loss_tail_check(eps: float, rho: float, n: int, label: str) -> tuple[bool, float]:
    """Run the harness: is P[loss > eps] <= DELTA refuted for the rho-zCDP Gaussian?"""
    sigma = 1.0 / np.sqrt(2 * rho)  # Delta = 1: rho = 1 / (2 sigma^2)
    losses = gaussian_losses(sigma, 1.0, n, label)
    return check_rate(losses > eps, None, DELTA).rejected, float(np.mean(losses > eps))


@covers("RSWR23:Lem2.3", "RSWR23:Lem2.2")
@pytest.mark.parametrize("rho", [0.05, 0.5, 2.0])
def test_gaussian_loss_tail_within_delta(rho: float) -> None:
    """Frequency of loss > eps(rho, delta) is <= delta.  False-failure probability <= 1e-6."""
    assert float(gaussian_zcdp(rho=2 * rho, sensitivity=1)) == pytest.approx(rho)
    eps = float(zcdp_to_dp(rho=rho, delta=DELTA))
    rejected, rate = loss_tail_check(eps, rho, 200_000, f"lem2.3-{rho}")
    assert not rejected, rate


@covers("RSWR23:Lem2.3")
@pytest.mark.parametrize("rho", [0.05, 0.5, 2.0])
def test_power_conversion_with_halved_constant(rho: float) -> None:
    """Power check: eps' = rho + sqrt(rho log(1/delta)) (constant 1, not 2) must be rejected.

    Its true exceedance is P[N(rho, 2 rho) > eps'] = sf(sqrt(log(1/delta)/2)) = 0.1105
    for every rho, against delta = 0.05: with n = 2e5 runs the harness rejects with
    probability computed exactly below (> 0.9999).
    """
    eps_wrong = rho + np.sqrt(rho * np.log(1 / DELTA))
    p_true = float(stats.norm.sf((eps_wrong - rho) / np.sqrt(2 * rho)))
    n = 200_000
    assert rejection_probability(p_true, n, DELTA, ALPHA) > 0.9999
    rejected, rate = loss_tail_check(eps_wrong, rho, n, f"lem2.3-wrong-{rho}")
    assert rejected, rate


@covers("RSWR23:Lem2.3")
@pytest.mark.parametrize("rho", [0.05, 0.5, 2.0])
def test_power_mutant_conversion_root_over_log(rho: float) -> None:
    """Power check on a mutant of ``rswr23.zcdp_to_dp`` planted by the mutation tool:
    ``rho * log(1/delta)`` under the root turned into ``rho / log(1/delta)``, so that
    eps' = rho + 2 sqrt(rho / log(1/delta)), on the main test's samples (n = 2e5).

    Its true exceedance is P[N(rho, 2 rho) > eps'] = sf(sqrt(2 / log(1/delta))) = 0.2069
    for every rho, against delta = 0.05: the harness rejects with probability 1.0 (computed
    exactly below, > 1 - 1e-9); false-failure probability 1e-6."""
    eps_wrong = float(root_over_log().zcdp_to_dp(rho=rho, delta=DELTA))
    assert eps_wrong == pytest.approx(rho + 2 * np.sqrt(rho / np.log(1 / DELTA)), rel=1e-12)
    p_true = float(stats.norm.sf((eps_wrong - rho) / np.sqrt(2 * rho)))
    assert p_true == pytest.approx(0.2069, abs=1e-4)
    n = 200_000
    assert rejection_probability(p_true, n, DELTA, ALPHA) > 1 - 1e-9
    rejected, rate = loss_tail_check(eps_wrong, rho, n, f"lem2.3-{rho}")
    assert rejected, rate


@covers("RSWR23:Lem2.2", "RSWR23:Lem2.3")
def test_power_mutant_gaussian_zcdp_precision_inverted() -> None:
    """The Gaussian of sd 1/2 (precision 4) is charged ``gaussian_zcdp(rho=4)`` = 2 and
    converted at delta = 0.05 by the library; its sampled loss (the main test's rho = 2
    sample) stays within delta (that test).  Power check on a mutant of ``gaussian_zcdp``
    planted by the mutation tool: ``sensitivity**2 * rho`` turned into ``sensitivity**2 /
    rho`` (precision read as variance: zCDP 1/8 instead of 2, eps' = 1/8 + 2 sqrt(log(20)/8)
    = 1.349).  The true loss N(2, 4) exceeds it with exact probability 0.6276, so 2e5 runs
    reject with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    rho = float(mutant(RSWR23, "sensitivity**2 * rho", "sensitivity ** 2 / rho")
                .gaussian_zcdp(rho=4, sensitivity=1))
    assert rho == 0.125
    eps_wrong = float(zcdp_to_dp(rho=rho, delta=DELTA))
    p_true = float(stats.norm.sf((eps_wrong - 2.0) / 2.0))
    assert p_true == pytest.approx(0.6276, abs=1e-4)
    n = 200_000
    assert rejection_probability(p_true, n, DELTA, ALPHA) > 1 - 1e-9
    rejected, rate = loss_tail_check(eps_wrong, 2.0, n, "lem2.3-2.0")
    assert rejected, rate


@covers("RSWR23:Lem2.4")
def test_adaptive_two_round_composition() -> None:
    """Round 2's query depends on round 1's output; the summed loss obeys eps(rho1+rho2).

    Round 1: Gaussian of zCDP rho1 on a sensitivity-1 count.  Round 2: if y1 > 0 the
    analyst asks a query whose difference between neighbours is +1, else -1 (both
    sensitivity 1), with zCDP rho2.  False-failure probability <= 1e-6.
    """
    rho1, rho2, n = 0.1, 0.4, 400_000
    g = rng("lem2.4")
    s1, s2 = 1 / np.sqrt(2 * rho1), 1 / np.sqrt(2 * rho2)
    y1 = g.normal(0.0, s1, n)
    l1 = stats.norm.logpdf(y1, 0, s1) - stats.norm.logpdf(y1, 1, s1)
    shift2 = np.where(y1 > 0, 1.0, -1.0)
    y2 = g.normal(0.0, s2, n)
    l2 = stats.norm.logpdf(y2, 0, s2) - stats.norm.logpdf(y2, shift2, s2)
    total = compose_zcdp(rho=[rho1, rho2])
    eps = float(zcdp_to_dp(rho=total.rho, delta=DELTA))
    assert not check_rate(l1 + l2 > eps, None, DELTA).rejected
    # Power check: charging only round 1 (ignoring the adaptive round 2) must be rejected;
    # the true rate is sf(eps(0.1) - 0.5) = 0.244 for the N(0.5, 1) total loss.
    eps_wrong = float(zcdp_to_dp(rho=rho1, delta=DELTA))
    p_true = float(stats.norm.sf((eps_wrong - (rho1 + rho2)) / np.sqrt(2 * (rho1 + rho2))))
    assert rejection_probability(p_true, n, DELTA, ALPHA) > 0.9999
    assert check_rate(l1 + l2 > eps_wrong, None, DELTA).rejected
    # Power check on the mutant of ``zcdp_to_dp`` (rho * log -> rho / log, planted by the
    # mutation tool) converting the composed rho = 0.5: the true rate is
    # sf(sqrt(2 / log(1/delta))) = 0.2069, rejected with probability > 1 - 1e-9 (exact).
    wrong = root_over_log()
    eps_mut = float(wrong.zcdp_to_dp(rho=wrong.compose_zcdp(rho=[rho1, rho2]).rho, delta=DELTA))
    p_mut = float(stats.norm.sf((eps_mut - (rho1 + rho2)) / np.sqrt(2 * (rho1 + rho2))))
    assert p_mut == pytest.approx(0.2069, abs=1e-4)
    assert rejection_probability(p_mut, n, DELTA, ALPHA) > 1 - 1e-9
    assert check_rate(l1 + l2 > eps_mut, None, DELTA).rejected


@pytest.mark.slow
@covers("RSWR23:Lem2.3")
def test_gaussian_loss_tail_small_delta_thorough() -> None:
    """Thorough size: delta = 1e-3 with 2e7 runs (false-failure probability <= 1e-6)."""
    rho, delta = 0.5, 1e-3
    eps = float(zcdp_to_dp(rho=rho, delta=delta))
    losses = gaussian_losses(1.0, 1.0, 20_000_000, "lem2.3-thorough")
    assert not check_rate(losses > eps, None, delta).rejected
