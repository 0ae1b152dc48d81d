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
from reference.sim.stats import check_law, check_rate, law_power, rejection_probability, rng

SIZES = [200_000, pytest.param(4_000_000, marks=pytest.mark.slow)]


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
