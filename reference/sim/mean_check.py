"""A rigorous one-sided test of ``E[X] <= bound`` for nonnegative ``X`` (e-values).

A sample mean of a heavy-tailed e-value says little, so the test caps it: ``min(X, cap)``
lies in ``[0, cap]`` and has mean at most ``E[X]``.  If ``E[X] <= bound``, Hoeffding's
inequality gives ``P[mean(min(X, cap)) > bound + u] <= exp(-2 n u^2 / cap^2)``; the test
rejects at ``u = cap sqrt(log(1/alpha) / (2 n))``, so its false-failure probability is at
most ``alpha``.  Against a variant whose capped mean ``mu`` is known, the same inequality
bounds the power from below (:func:`mean_power`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference.sim.stats import ALPHA


def mean_margin(n: int, cap: float, alpha: float = ALPHA) -> float:
    """The excess over ``bound`` at which :func:`check_mean` rejects."""
    return cap * math.sqrt(math.log(1 / alpha) / (2 * n))


@dataclass(frozen=True)
class MeanCheck:
    """Outcome of testing ``E[X] <= bound`` on capped samples."""

    mean: float
    n: int
    cap: float
    bound: float
    alpha: float

    @property
    def threshold(self) -> float:
        return self.bound + mean_margin(self.n, self.cap, self.alpha)

    @property
    def rejected(self) -> bool:
        return self.mean > self.threshold

    def __str__(self) -> str:
        return (f"capped mean {self.mean:.4f} over n={self.n} (cap {self.cap:g}) vs rejection "
                f"threshold {self.threshold:.4f} (alpha={self.alpha:g}): "
                f"{'REJECTED' if self.rejected else 'consistent'}")


def check_mean(values: np.ndarray, cap: float, bound: float = 1.0,
               alpha: float = ALPHA) -> MeanCheck:
    """Test ``E[X] <= bound`` for i.i.d. nonnegative samples ``values``.

    >>> g = np.random.default_rng(0)
    >>> check_mean(g.exponential(1.0, 100_000), cap=20).rejected    # mean 1
    False
    >>> check_mean(g.exponential(1.3, 100_000), cap=20).rejected    # mean 1.3
    True
    """
    x = np.asarray(values, dtype=float)
    if np.any(x < 0) or not np.all(np.isfinite(x)):
        raise ValueError("check_mean needs finite nonnegative samples")
    return MeanCheck(float(np.minimum(x, cap).mean()), int(x.size), cap, bound, alpha)


def mean_power(mu_capped: float, n: int, cap: float, bound: float = 1.0,
               alpha: float = ALPHA) -> float:
    """Lower bound on the rejection probability when ``E[min(X, cap)] = mu_capped``."""
    gap = mu_capped - bound - mean_margin(n, cap, alpha)
    return 0.0 if gap <= 0 else 1 - math.exp(-2 * n * gap * gap / cap**2)
