"""Statistical tests of the Skellam noise-reduction process (WRWR22 §4).

For the integer-valued Skellam law the Kolmogorov–Smirnov distance is taken over the
integers, where the DKW–Massart bound also holds.  Each test's false-failure probability
is at most 1e-6 (Bonferroni over its checks).  The power check runs the same harness on
redrawn Skellam noise, whose law is known exactly, and states the resulting power.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
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
from stats_tests.mutants import line_in, mutant

SKELLAM = "reference.results.noise_reduction.skellam"

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


KS = np.arange(-40, 61)


class LibraryLaw:
    """The integer law whose pmf on ``KS`` is ``module.skellam_pmf`` at (t, lam1, lam2) (the
    library's Skellam law, or a mutant's), as a CDF for :func:`integer_law`."""

    def __init__(self, module: types.ModuleType, t: float, lam1: float, lam2: float) -> None:
        self.pmf = np.array([float(module.skellam_pmf(k=int(k), t=t, lam1=lam1, lam2=lam2))
                             for k in KS])

    def cdf(self, ks: np.ndarray) -> np.ndarray:
        cum = np.concatenate([[0.0], np.cumsum(self.pmf)])
        return np.asarray(cum[np.clip(np.asarray(ks) - KS[0] + 1, 0, KS.size)])


@covers("WRWR22:Sec4-Skellam")
def test_power_mutant_skellam_mean() -> None:
    """The marginal X_2 of the main test's paths (n = 1e5) against the law computed by
    ``skellam_pmf`` itself (its pmf on -40..60 holds all but 1e-12 of the mass): consistent
    (false failure <= 1e-6/6).  Power check on a mutant of ``skellam_pmf`` planted by the
    mutation tool: the mean ``t * lam1`` turned into ``t / lam1`` (Skell(4/3, 1.6) instead
    of Skell(3, 1.6)).  The two laws are at integer sup-distance 0.3410 (exact, from the
    pmfs), so the same DKW test rejects with probability 1.0 (:func:`law_power`, a
    rigorous lower bound); false failure <= 1e-6/6."""
    x = skellam_paths([6.0, 2.0, 0.5], N, rng("skellam"), 1.5, 0.8)[:, 1]
    real = types.ModuleType("real")
    real.skellam_pmf = skellam_pmf  # type: ignore[attr-defined]
    right = LibraryLaw(real, 2, 1.5, 0.8)
    assert abs(right.pmf.sum() - 1) < 1e-12
    assert np.max(np.abs(right.pmf - stats.skellam.pmf(KS, 3.0, 1.6))) < 1e-12
    assert not integer_law(x, right, ALPHA / 6).rejected  # type: ignore[arg-type]
    site = line_in(SKELLAM, "skellam_pmf", "t * lam1")
    wrong = LibraryLaw(mutant(SKELLAM, "t * lam1", "t / lam1", line=site), 2, 1.5, 0.8)
    distance = float(np.max(np.abs(np.cumsum(wrong.pmf) - np.cumsum(right.pmf))))
    assert distance == pytest.approx(0.3410, abs=1e-4)
    assert np.max(np.abs(wrong.pmf - stats.skellam.pmf(KS, 4 / 3, 1.6))) < 1e-12
    assert law_power(N, distance, ALPHA / 6) > 1 - 1e-9
    assert integer_law(x, right, ALPHA / 6).distance < integer_law(  # type: ignore[arg-type]
        x, wrong, ALPHA / 6).distance  # type: ignore[arg-type]
    assert integer_law(x, wrong, ALPHA / 6).rejected  # type: ignore[arg-type]
