"""The statistical-test harness: exact binomial confidence limits and seeded generators.

A probabilistic guarantee "event E has probability at most ``bound``" is checked by
simulating ``n`` independent runs and rejecting when the one-sided Clopper–Pearson
lower confidence limit of the rate, at confidence ``1 - alpha``, exceeds ``bound``.
If the guarantee holds, a rejection has probability at most ``alpha`` (the test's
false-failure probability).  :func:`rejection_probability` computes, exactly, how
often the same test rejects a variant whose true rate is known: the power stated
beside every power check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

#: Default false-failure probability of a statistical test.
ALPHA = 1e-6


def rng(label: str) -> np.random.Generator:
    """A reproducible generator derived from a text label (``numpy.random.SeedSequence``)."""
    digest = hashlib.sha256(label.encode()).digest()
    return np.random.default_rng(np.random.SeedSequence(int.from_bytes(digest[:16], "big")))


def cp_lower(k: int, n: int, alpha: float) -> float:
    """One-sided Clopper–Pearson lower limit: ``P_p[X >= k] <= alpha`` for every ``p`` below it."""
    return 0.0 if k == 0 else float(_st.beta.ppf(alpha, k, n - k + 1))


def cp_upper(k: int, n: int, alpha: float) -> float:
    """One-sided Clopper–Pearson upper limit for a binomial rate."""
    return 1.0 if k == n else float(_st.beta.ppf(1 - alpha, k + 1, n - k))


@dataclass(frozen=True)
class RateCheck:
    """Outcome of testing ``P[event] <= bound`` from ``hits`` events in ``n`` runs."""

    hits: int
    n: int
    bound: float
    alpha: float

    @property
    def rate(self) -> float:
        return self.hits / self.n

    @property
    def lower(self) -> float:
        return cp_lower(self.hits, self.n, self.alpha)

    @property
    def rejected(self) -> bool:
        """True when the data refute ``P[event] <= bound`` at level ``alpha``."""
        return self.lower > self.bound

    def __str__(self) -> str:
        return (f"{self.hits}/{self.n} = {self.rate:.4g} (CP lower {self.lower:.4g} at "
                f"alpha={self.alpha:g}) vs bound {self.bound:.4g}: "
                f"{'REJECTED' if self.rejected else 'consistent'}")


def check_rate(events: np.ndarray | int, n: int | None, bound: float,
               alpha: float = ALPHA) -> RateCheck:
    """Test ``P[event] <= bound`` from a boolean array of events (or a count and ``n``)."""
    if isinstance(events, np.ndarray):
        hits, total = int(np.count_nonzero(events)), int(events.size)
    else:
        if n is None:
            raise ValueError("n is required with a count")
        hits, total = int(events), int(n)
    return RateCheck(hits, total, float(bound), alpha)


def critical_count(n: int, bound: float, alpha: float = ALPHA) -> int:
    """Smallest number of events in ``n`` runs for which :func:`check_rate` rejects."""
    lo, hi = 0, n + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cp_lower(mid, n, alpha) > bound:
            hi = mid
        else:
            lo = mid + 1
    return lo


def rejection_probability(p_true: float, n: int, bound: float, alpha: float = ALPHA) -> float:
    """Exact probability that the test of ``P <= bound`` rejects at true rate ``p_true``."""
    c = critical_count(n, bound, alpha)
    return 0.0 if c > n else float(_st.binom.sf(c - 1, n, p_true))


# ---- exact-law (Kolmogorov–Smirnov / DKW) tests, for reference.results.privacy_loss.lec11 ----
# A sample is tested against a continuous law with the Dvoretzky–Kiefer–Wolfowitz
# inequality in Massart's form, P[sup |F_n - F| > t] <= 2 exp(-2 n t^2) for every t: the
# test rejects when the KS distance exceeds ``dkw_radius(n, alpha)``, so its false-failure
# probability is at most ``alpha`` for every n (no asymptotics).  The same inequality gives
# a rigorous lower bound on the power against a law at sup-distance ``d`` from the tested one.


def dkw_radius(n: int, alpha: float = ALPHA) -> float:
    """``t`` with ``2 exp(-2 n t^2) = alpha``: the rejection threshold of :func:`check_law`."""
    return float(np.sqrt(np.log(2 / alpha) / (2 * n)))


def ks_distance(sample: np.ndarray, cdf: Callable[[np.ndarray], np.ndarray]) -> float:
    """``sup_x |F_n(x) - F(x)|`` of the empirical law of ``sample`` against ``cdf``."""
    xs = np.sort(np.asarray(sample, dtype=float))
    n = xs.size
    f = np.asarray(cdf(xs), dtype=float)
    upper = np.arange(1, n + 1) / n - f
    lower = f - np.arange(0, n) / n
    return float(max(upper.max(), lower.max()))


@dataclass(frozen=True)
class LawCheck:
    """Outcome of testing "the sample has law F" by the DKW–Massart bound."""

    distance: float
    n: int
    alpha: float

    @property
    def radius(self) -> float:
        return dkw_radius(self.n, self.alpha)

    @property
    def rejected(self) -> bool:
        return self.distance > self.radius

    def __str__(self) -> str:
        return (f"KS distance {self.distance:.4g} over n={self.n} vs DKW radius "
                f"{self.radius:.4g} (alpha={self.alpha:g}): "
                f"{'REJECTED' if self.rejected else 'consistent'}")


def check_law(sample: np.ndarray, cdf: Callable[[np.ndarray], np.ndarray],
              alpha: float = ALPHA) -> LawCheck:
    """Test that ``sample`` (i.i.d., continuous law) has distribution function ``cdf``."""
    return LawCheck(ks_distance(sample, cdf), int(np.asarray(sample).size), alpha)


def law_power(n: int, distance: float, alpha: float = ALPHA) -> float:
    """Lower bound on the probability that :func:`check_law` rejects a wrong law.

    If the sample's true law is at sup-distance ``distance`` from the tested one, the KS
    distance exceeds ``distance - sup |F_n - F_true|``, so the test rejects whenever
    ``sup |F_n - F_true| < distance - radius``: probability >= ``1 - 2 exp(-2 n gap^2)``.
    """
    gap = distance - dkw_radius(n, alpha)
    return 0.0 if gap <= 0 else float(max(0.0, 1 - 2 * np.exp(-2 * n * gap * gap)))
