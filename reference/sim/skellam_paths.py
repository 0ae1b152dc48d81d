"""Sampler of Skellam noise-reduction paths (WRWR22 §4, last paragraph).

``X_t = P_1(t) - P_2(t)`` for independent Poisson processes of rates ``lam1, lam2``, read at
decreasing times; the exact results are in :mod:`reference.results.noise_reduction.skellam`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference.core.errors import DomainError


def skellam_paths(times: Sequence[float] | np.ndarray, n_paths: int, gen: np.random.Generator,
                  lam1: float, lam2: float, fresh: bool = False) -> np.ndarray:
    """``X`` at strictly decreasing ``times`` on ``n_paths`` paths, shape ``(n_paths, K)``.

    Backwards by binomial thinning of each Poisson count.  ``fresh=True`` draws every
    column independently (right marginals, no noise reduction): a power-check variant.

    >>> x = skellam_paths([4.0, 1.0], 100_000, np.random.default_rng(0), 1.5, 0.8)
    >>> [round(float(v), 1) for v in x.mean(axis=0)]
    [2.8, 0.7]
    """
    ts = np.asarray(times, dtype=float)
    if ts.ndim != 1 or ts.size == 0 or not np.all(ts > 0) or np.any(np.diff(ts) >= 0):
        raise DomainError("times", ts.tolist(), "must be strictly decreasing positive times",
                          "skellam_paths")
    out = np.empty((n_paths, ts.size), dtype=np.int64)
    p1 = gen.poisson(lam1 * ts[0], n_paths)
    p2 = gen.poisson(lam2 * ts[0], n_paths)
    out[:, 0] = p1 - p2
    for k in range(1, ts.size):
        if fresh:
            p1, p2 = gen.poisson(lam1 * ts[k], n_paths), gen.poisson(lam2 * ts[k], n_paths)
        else:
            ratio = ts[k] / ts[k - 1]
            p1, p2 = gen.binomial(p1, ratio), gen.binomial(p2, ratio)
        out[:, k] = p1 - p2
    return out
