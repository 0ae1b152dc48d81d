"""Statistical tests of the concentration bounds behind the odometers (RRUV16 Theorems 4.1,
4.2, 4.4, 4.5), on a Rademacher martingale with predictable coefficients simulated with
numpy.

Each check rejects a true guarantee with probability at most ``ALPHA = 1e-6`` (one-sided
Clopper–Pearson).  The power check runs the same harness on the Theorem 4.4
threshold divided by 3, whose true rate is an exact binomial tail, and the exact
rejection probability is asserted.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.concentration.rruv16 import self_normalized, window_bound, window_tail
from reference.sim.adversaries import (
    NP,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng


@covers("RRUV16:Thm4.1", "RRUV16:Thm4.4", "RRUV16:Thm4.2", "RRUV16:Thm4.5")
def test_concentration_bounds_and_power() -> None:
    """Rademacher martingale with predictable c_i (1 after a +1, else 1/2), k = 50, 2e5 runs:
    Theorem 4.4 / 4.1 (x = 1, delta = 0.05), Theorem 4.2 (s = 2, c = 2, t = 4) and
    Theorem 4.5 (beta = 0.05, t = 4) events occur with frequency <= their bounds
    (false-failure probability <= 1e-6 each).  Power check: the Theorem 4.4 threshold
    divided by 3 for constant c_i = 1 is exceeded with the exact binomial probability
    P[|2 Bin(50, 1/2) - 50| >= thr/3] = 0.28, rejected with the exact probability below."""
    g = rng("concentration")
    runs, k, delta = 200_000, 50, 0.05
    M = np.zeros(runs)
    U2 = np.zeros(runs)
    c = np.full(runs, 0.5)
    for _ in range(k):
        xi = np.where(g.random(runs) < 0.5, 1.0, -1.0)
        M += c * xi
        U2 += 4 * c * c
        c = np.where(xi > 0, 1.0, 0.5)
    thr = self_normalized(NP, U2, 1.0, math.log(1 / delta))
    assert not check_rate(np.abs(M) >= thr, None, delta).rejected
    B = np.sqrt(U2 / 4)
    tail = float(window_tail(s=2, t=4))
    assert not check_rate((np.abs(M) >= 2 * B) & (B >= 2) & (B <= 8), None, min(tail, 1)
                          ).rejected
    w = window_bound(beta="0.05", t=4)
    ev = (np.abs(M) >= np.sqrt(U2 / 2 * math.log(20))) & (B >= 2) & (B <= 8)
    assert not check_rate(ev, None, min(float(w.bound), 1)).rejected
    # power: constant c_i = 1, U_k^2 = 4k, threshold / 3
    thr3 = self_normalized(NP, 4.0 * k, 1.0, math.log(1 / delta)) / 3
    u = np.arange(k + 1)
    p_true = float(stats.binom.pmf(u[np.abs(2 * u - k) >= thr3], k, 0.5).sum())
    assert rejection_probability(p_true, runs, delta, ALPHA) > 0.9999
    M1 = 2.0 * g.binomial(k, 0.5, runs) - k
    assert check_rate(np.abs(M1) >= thr3, None, delta).rejected
