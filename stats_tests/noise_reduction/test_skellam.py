"""Statistical tests of the Skellam noise-reduction process (WRWR22 §4).

For the integer-valued Skellam law the Kolmogorov–Smirnov distance is taken over the
integers, where the DKW–Massart bound also holds.  Each test's false-failure probability
is at most 1e-6 (Bonferroni over its checks).  The power check runs the same harness on
redrawn Skellam noise, whose law is known exactly, and states the resulting power.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.skellam import skellam_pmf
from reference.sim.skellam_paths import skellam_paths
from reference.sim.stats import (
    ALPHA,
    LawCheck,
    law_power,
    rng,
)

N = 100_000


def integer_law(sample: np.ndarray, cdf: stats.rv_discrete, alpha: float) -> LawCheck:
    """KS distance of an integer sample to an integer law, over all integers (both CDFs are
    step functions jumping at integers only), as a DKW :class:`LawCheck`."""
    xs = np.sort(sample)
    ks = np.arange(xs[0] - 1, xs[-1] + 1)
    emp = np.searchsorted(xs, ks, side="right") / xs.size
    return LawCheck(float(np.max(np.abs(emp - cdf.cdf(ks)))), int(xs.size), alpha)


def test_integer_law_helper_matches_a_direct_computation() -> None:
    x = np.array([0, 0, 1, 3])
    law = stats.poisson(1.0)
    direct = max(abs(np.mean(x <= k) - law.cdf(k)) for k in range(-1, 10))
    assert abs(integer_law(x, law, ALPHA).distance - direct) < 1e-15


@covers("WRWR22:Sec4-Skellam", "WRWR22:Sec4-Skellam-NR")
def test_skellam_marginals_and_independent_increments() -> None:
    """Backward Skellam paths at times 6, 2, 0.5 (rates 1.5, 0.8): X_t ~ Skell(1.5t, 0.8t),
    the increment X_6 - X_2 ~ Skell(6, 3.2), also on each half split by X_2 <= 0 (it is
    independent of X_2).  Integer KS with DKW, 6 checks at alpha/6: false failure <= 1e-6."""
    times, l1, l2 = [6.0, 2.0, 0.5], 1.5, 0.8
    x = skellam_paths(times, N, rng("skellam"), l1, l2)
    assert abs(float(skellam_pmf(k=1, t=2, lam1=l1, lam2=l2))
               - stats.skellam.pmf(1, 3.0, 1.6)) < 1e-12
    for k, t in enumerate(times):
        check = integer_law(x[:, k], stats.skellam(l1 * t, l2 * t), ALPHA / 6)
        assert not check.rejected, (t, str(check))
    inc, low = x[:, 0] - x[:, 1], x[:, 1] <= 0
    for part in (inc, inc[low], inc[~low]):
        check = integer_law(part, stats.skellam(l1 * 4, l2 * 4), ALPHA / 6)
        assert not check.rejected, str(check)


@covers("WRWR22:Sec4-Skellam-NR")
def test_power_skellam_redrawn_noise() -> None:
    """Power check: drawing each release's noise afresh keeps the marginals but makes the
    increment X_6 - X_2 ~ Skell(10.6, 7.8), at integer sup-distance 0.085 from Skell(6, 3.2):
    the DKW test rejects w.p. > 0.9999."""
    x = skellam_paths([6.0, 2.0], N, rng("skellam-wrong"), 1.5, 0.8, fresh=True)
    ks = np.arange(-60, 80)
    distance = float(np.max(np.abs(stats.skellam.cdf(ks, 10.6, 7.8)
                                   - stats.skellam.cdf(ks, 6.0, 3.2))))
    assert distance > 0.08 and law_power(N, distance, ALPHA / 6) > 0.9999
    assert integer_law(x[:, 0] - x[:, 1], stats.skellam(6.0, 3.2), ALPHA / 6).rejected
