"""Monte Carlo checks of the LEC11 privacy-loss results, each beside a power check.

The loss is computed from the sampled output ``Y = f(x) + Z`` and the two Gaussian
log-densities (never from the closed form under test).  Exact-law tests use the
DKW–Massart bound (:func:`reference.sim.stats.check_law`, false-failure probability
<= 1e-6 at every n); rates use one-sided Clopper–Pearson (:func:`check_rate`,
alpha = 1e-6 per side).  Quick sizes by default, thorough ones under ``-m slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.privacy_loss.lec11 import (
    gaussian_loss_law,
    gaussian_loss_tail,
    name_and_shame,
    notes_gaussian_sigma,
)
from reference.sim.stats import (
    check_law,
    check_rate,
    critical_count,
    dkw_radius,
    law_power,
    rejection_probability,
    rng,
)
from stats_tests.mutants import mutant

SIZES = [200_000, pytest.param(4_000_000, marks=pytest.mark.slow)]
N_QUICK = 200_000
LEC11 = "reference.results.privacy_loss.lec11"


def sampled_loss(label: str, n: int, sigma: float, sensitivity: float = 1.0) -> np.ndarray:
    """Privacy losses ``log p_x(Y) - log p_x'(Y)`` of ``Y = f(x) + Z``, ``f(x) = 0``."""
    y = rng(label).normal(0.0, sigma, size=n)
    return np.asarray(stats.norm.logpdf(y, 0.0, sigma) - stats.norm.logpdf(y, sensitivity, sigma))


def _sup_distance(cdf_a: stats.rv_continuous, cdf_b: stats.rv_continuous) -> float:
    """A lower bound (a maximum over a fine grid) on ``sup |F_a - F_b|``."""
    grid = np.linspace(-30.0, 30.0, 600_001)
    return float(np.abs(cdf_a.cdf(grid) - cdf_b.cdf(grid)).max())


@covers("LEC11:GaussLoss")
@pytest.mark.parametrize("n", SIZES)
def test_gaussian_loss_has_the_stated_law(n: int) -> None:
    """The sampled loss is N(Delta^2/(2 sigma^2), Delta^2/sigma^2) (sigma = 1.5, Delta = 1).

    False failure <= 1e-6.  Power: the same sample tested against variance x1.1 (sup
    distance 0.0115) is rejected with probability >= 0.99998 at n = 2e5 (1 - 1e-359 at
    4e6), and against variance = mean (distance 0.083) with probability >= 1 - 1e-1029
    (DKW–Massart lower bounds, :func:`law_power`).
    """
    sigma = 1.5
    law = gaussian_loss_law(sigma="1.5")
    mean, var = float(law.mean), float(law.variance)
    loss = sampled_loss(f"GaussLoss-{n}", n, sigma)
    right = stats.norm(mean, np.sqrt(var))
    result = check_law(loss, right.cdf)
    assert not result.rejected, str(result)

    for wrong in (stats.norm(mean, np.sqrt(1.1 * var)), stats.norm(mean, np.sqrt(mean))):
        power = law_power(n, _sup_distance(right, wrong))
        assert power >= 0.9999
        assert check_law(loss, wrong.cdf).rejected


@covers("LEC11:GaussTail")
@pytest.mark.parametrize("n", SIZES)
def test_gaussian_tail_frequency(n: int) -> None:
    """The frequency of ``I > eps`` matches P[I > eps] = 0.2266 (sigma = 2, eps = 0.5).

    Two one-sided tests (too many / too few events), false failure <= 2e-6.  Power,
    exact (binomial): the variant that drops the mean, Q(eps sigma) = 0.1587, is rejected
    with probability > 1 - 1e-300 at n = 2e5; the variant with doubled variance,
    Q((eps - mean) sigma / sqrt 2) = 0.2979, likewise from the other side.
    """
    sigma, eps = 2.0, 0.5
    tail = float(gaussian_loss_tail(sigma="2", eps="0.5"))
    events = sampled_loss(f"GaussTail-{n}", n, sigma) > eps
    too_many = check_rate(events, None, tail)
    too_few = check_rate(~events, None, 1 - tail)
    assert not too_many.rejected, str(too_many)
    assert not too_few.rejected, str(too_few)

    mean = 1 / (2 * sigma**2)
    no_mean = float(stats.norm.sf(eps * sigma))
    wide = float(stats.norm.sf((eps - mean) * sigma / np.sqrt(2)))
    assert rejection_probability(tail, n, no_mean) >= 0.9999
    assert rejection_probability(1 - tail, n, 1 - wide) >= 0.9999
    assert check_rate(events, None, no_mean).rejected
    assert check_rate(~events, None, 1 - wide).rejected


@covers("LEC11:Ex1", "LEC11:GaussTail")
@pytest.mark.parametrize("n", SIZES)
def test_notes_calibration_gives_eps_delta(n: int) -> None:
    """With the notes' sigma at (eps, delta) = (1, 0.05), P[I > eps] <= delta.

    False failure <= 1e-6.  Power: a mechanism with a third of that sigma (true rate
    0.2356) fails the same check with probability > 1 - 1e-300 (exact binomial).
    """
    eps, delta = 1.0, 0.05
    sigma = float(notes_gaussian_sigma(eps=1, delta="0.05"))
    good = check_rate(sampled_loss(f"Ex1-{n}", n, sigma) > eps, None, delta)
    assert not good.rejected, str(good)

    wrong_rate = float(gaussian_loss_tail(sigma=sigma / 3, eps=1))
    assert rejection_probability(wrong_rate, n, delta) >= 0.9999
    assert check_rate(sampled_loss(f"Ex1-wrong-{n}", n, sigma / 3) > eps, None, delta).rejected


@covers("LEC11:NameShame")
@pytest.mark.parametrize("n", SIZES)
def test_name_and_shame_reveals_at_rate_delta(n: int) -> None:
    """Runs of NS_delta publish the differing record at rate delta = 0.01 (10 records).

    Two one-sided tests on record 0, false failure <= 2e-6.  Power (exact binomial): the
    claim "rate <= delta/2" is rejected with probability > 1 - 1e-94 at n = 2e5.
    """
    pair = name_and_shame(delta="0.01")
    delta = float(pair.P[0])
    x = np.zeros(10, dtype=int)
    published = rng(f"NameShame-{n}").random((n, x.size)) < delta
    outputs = np.where(published, x, -1)  # -1 stands for bot
    revealed = outputs[:, 0] == x[0]
    assert not check_rate(revealed, None, delta).rejected
    assert not check_rate(~revealed, None, 1 - delta).rejected
    assert rejection_probability(delta, n, delta / 2) >= 0.9999
    assert check_rate(revealed, None, delta / 2).rejected
    # About delta * (number of records) are published per run.
    assert abs(published.mean() - delta) < 10 * np.sqrt(delta / (n * x.size))


# ---- power checks on mutants planted by the mutation tool ---------------------------------
# Each runs the quick test's harness, on the quick test's sample (same label and n), with
# the guarded function replaced by a mutant of ``reference.results.privacy_loss.lec11``.


@covers("LEC11:GaussLoss")
def test_power_mutant_loss_law_mean_constant() -> None:
    """Mutant of ``gaussian_loss_law``: the mean ``ratio**2 / 2`` turned into ``ratio**2 / 3``
    (mean 0.148 instead of 0.222 at sigma = 1.5), the law test's sample of n = 2e5.

    The mutant law N(0.148, 0.444) is at sup distance 0.0443 from the true N(0.222, 0.444),
    so the DKW test rejects it with probability >= 1 - 2 exp(-586) (the DKW-Massart bound
    of :func:`law_power`, its exponent computed below); false failure of the test <= 1e-6."""
    law = mutant(LEC11, "ratio**2 / 2", "ratio ** 2 / 3").gaussian_loss_law(sigma="1.5")
    mean, var = float(law.mean), float(law.variance)
    assert (mean, var) == pytest.approx((1 / 1.5**2 / 3, 1 / 1.5**2), rel=1e-12)
    wrong = stats.norm(mean, np.sqrt(var))
    # Two normals with a common sd s and means m apart: sup |F - G| = 2 Phi(m / (2 s)) - 1,
    # here m = 1/(2 sigma^2) - 1/(3 sigma^2) and s = 1/sigma.
    distance = float(2 * stats.norm.cdf(1 / (6 * 1.5**2) / 2 * 1.5) - 1)
    assert distance == pytest.approx(0.0443, abs=1e-4)
    gap = distance - dkw_radius(N_QUICK)
    assert 2 * N_QUICK * gap**2 > 586 and law_power(N_QUICK, distance) == 1.0
    loss = sampled_loss(f"GaussLoss-{N_QUICK}", N_QUICK, 1.5)
    assert check_law(loss, wrong.cdf).rejected


@covers("LEC11:GaussTail")
def test_power_mutant_tail_mean_constant() -> None:
    """Mutant of ``gaussian_loss_tail``: ``2 * sigma**2`` in the mean turned into
    ``3 * sigma**2`` (tail Q((0.5 - 1/12) 2) = 0.2023 instead of Q(0.75) = 0.2266 at sigma = 2,
    eps = 0.5), on the tail test's sample of n = 2e5.

    The "too many events" side rejects it with probability 1 - 1e-103 (exact binomial:
    the log10 of the miss probability is computed below); false failure <= 1e-6."""
    tail = float(mutant(LEC11, "2 * sigma**2", "3 * sigma ** 2")
                 .gaussian_loss_tail(sigma="2", eps="0.5"))
    assert tail == pytest.approx(float(stats.norm.sf((0.5 - 1 / 12) * 2)), rel=1e-12)
    true_tail = float(stats.norm.sf((0.5 - 1 / 8) * 2))
    assert rejection_probability(true_tail, N_QUICK, tail) > 1 - 1e-12
    miss = stats.binom.logcdf(critical_count(N_QUICK, tail) - 1, N_QUICK, true_tail)
    assert miss / np.log(10) < -103
    events = sampled_loss(f"GaussTail-{N_QUICK}", N_QUICK, 2.0) > 0.5
    assert check_rate(events, None, tail).rejected


@covers("LEC11:Ex1")
def test_power_mutant_notes_sigma_root_divided() -> None:
    """Mutant of ``notes_gaussian_sigma``: ``2 * sqrt(ln(1/delta)) / eps`` turned into
    ``2 / sqrt(ln(1/delta)) / eps`` (sigma 1.155 instead of 3.462 at (1, 0.05)); the
    mechanism with the mutant's sigma is run through the calibration test (n = 2e5).

    Its true rate P[I > 1] = Q((1 - 1/(2 sigma^2)) sigma) = 0.2349 against delta = 0.05:
    rejected with probability 1 - 1e-300 or closer (exact binomial: the miss probability
    underflows, computed below); false failure <= 1e-6."""
    sigma = float(mutant(LEC11, "2 * ctx.sqrt(log(ctx, 1 / delta))",
                         "2 / ctx.sqrt(log(ctx, 1 / delta))").notes_gaussian_sigma(eps=1,
                                                                                  delta="0.05"))
    assert sigma == pytest.approx(2 / np.sqrt(np.log(20)), rel=1e-12)
    p_true = float(stats.norm.sf((1 - 1 / (2 * sigma**2)) * sigma))
    assert p_true == pytest.approx(0.2349, abs=1e-4)
    assert rejection_probability(p_true, N_QUICK, 0.05) > 1 - 1e-12
    assert stats.binom.cdf(critical_count(N_QUICK, 0.05) - 1, N_QUICK, p_true) < 1e-300
    assert check_rate(sampled_loss(f"Ex1-mutant-{N_QUICK}", N_QUICK, sigma) > 1, None,
                      0.05).rejected
