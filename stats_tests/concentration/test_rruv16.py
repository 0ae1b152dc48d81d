"""Statistical tests of the concentration bounds behind the odometers (RRUV16 Theorems 4.1,
4.2, 4.4, 4.5), on a Rademacher martingale with predictable coefficients simulated with
numpy.

Each check rejects a true guarantee with probability at most ``ALPHA = 1e-6`` (one-sided
Clopper–Pearson).  The power checks run the same harness on the Theorem 4.4
threshold divided by 3, whose true rate is an exact binomial tail, and on mutants of
``reference.results.concentration.rruv16`` planted by the mutation tool, whose true rates
on the adaptive martingale are exact (:func:`exact_law`, a dynamic programme over its
states); each asserts its exact rejection probability.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.concentration.rruv16 import self_normalized, window_bound, window_tail
from reference.sim.adversaries import (
    NP,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

K, RUNS, DELTA = 50, 200_000, 0.05
RRUV16 = "reference.results.concentration.rruv16"


@lru_cache(maxsize=1)
def simulate() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(M_k, U_k^2)`` of 2e5 runs of the Rademacher martingale with predictable c_i
    (1 after a +1, else 1/2), k = 50, and ``M_k`` of 2e5 runs with constant c_i = 1."""
    g = rng("concentration")
    M = np.zeros(RUNS)
    U2 = np.zeros(RUNS)
    c = np.full(RUNS, 0.5)
    for _ in range(K):
        xi = np.where(g.random(RUNS) < 0.5, 1.0, -1.0)
        M += c * xi
        U2 += 4 * c * c
        c = np.where(xi > 0, 1.0, 0.5)
    M1 = 2.0 * g.binomial(K, 0.5, RUNS) - K
    return M, U2, M1


@lru_cache(maxsize=1)
def exact_law() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The exact joint law of ``(M_k, U_k^2)`` of :func:`simulate`'s adaptive martingale.

    Dynamic programming over (2 M, number j of rounds with c = 1, current c): a round with
    c = 1/2 moves 2M by +-1, one with c = 1 by +-2, each with probability 1/2, and the next
    c is 1 after a +1.  Then ``U_k^2 = 4 j + (k - j)``.  Returns (M, U2, probability) on
    the grid; the simulation's M and U2 are sums of +-1/2, +-1, 1 and 4, exact in floating
    point, so an event computed from them has exactly the probability computed here.
    """
    span = 4 * K + 1
    law = np.zeros((span, K + 1, 2))  # [2M + 2K, j, c is 1]
    law[2 * K, 0, 0] = 1.0
    for _ in range(K):
        nxt = np.zeros_like(law)
        for c_is_one, step in ((0, 1), (1, 2)):
            src = law[:, :, c_is_one]
            moved = np.zeros((span, K + 1))
            moved[:, c_is_one:] = src[:, :K + 1 - c_is_one]  # j counts rounds with c = 1
            nxt[step:, :, 1] += moved[:-step] / 2  # +1: next c = 1
            nxt[:-step, :, 0] += moved[step:] / 2  # -1: next c = 1/2
        law = nxt
    m = (np.arange(span) - 2 * K)[:, None] / 2.0
    j = np.arange(K + 1)[None, :]
    M, U2 = np.broadcast_arrays(m, 4.0 * j + (K - j))
    return M, U2, law.sum(axis=2)


def exact_rate(event: np.ndarray) -> float:
    """Exact probability of an event given on :func:`exact_law`'s grid."""
    return float(exact_law()[2][event].sum())


@covers("RRUV16:Thm4.1", "RRUV16:Thm4.4", "RRUV16:Thm4.2", "RRUV16:Thm4.5")
def test_concentration_bounds_and_power() -> None:
    """Rademacher martingale with predictable c_i (1 after a +1, else 1/2), k = 50, 2e5 runs:
    Theorem 4.4 / 4.1 (x = 1, delta = 0.05), Theorem 4.2 (s = 2, c = 2, t = 4) and
    Theorem 4.5 (beta = 0.05, t = 4) events occur with frequency <= their bounds
    (false-failure probability <= 1e-6 each; exact rates 3.0e-5, 0.0452 and 0.0136 by
    :func:`exact_law`, against 0.05, min(2.92, 1) and min(1.92, 1): the last two bounds are
    vacuous at these parameters).  Power check: the Theorem 4.4 threshold
    divided by 3 for constant c_i = 1 is exceeded with the exact binomial probability
    P[|2 Bin(50, 1/2) - 50| >= thr/3] = 0.28, rejected with the exact probability below."""
    M, U2, M1 = simulate()
    k, runs, delta = K, RUNS, DELTA
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
    assert check_rate(np.abs(M1) >= thr3, None, delta).rejected


def test_exact_law_is_a_law_with_the_martingale_moments() -> None:
    """The dynamic programme's law sums to 1, E M_k = 0 and E M_k^2 = E U_k^2 / 4 (the
    increments c_i xi_i are orthogonal with E (c_i xi_i)^2 = E c_i^2 = E (U_k^2 / 4) / k
    summed), and E U_k^2 = 4 (1/4 + 49 (1/2 + 1/8)) from P[c_i = 1] = 1/2 for i >= 2."""
    M, U2, p = exact_law()
    assert p.sum() == pytest.approx(1, abs=1e-12)
    assert (p * M).sum() == pytest.approx(0, abs=1e-12)
    assert (p * U2).sum() == pytest.approx(4 * (0.25 + 49 * (0.5 + 0.125)), rel=1e-12)
    assert (p * M * M).sum() == pytest.approx((p * U2).sum() / 4, rel=1e-12)


@covers("RRUV16:Thm4.4", "RRUV16:Thm4.1")
def test_power_mutant_threshold_divided_by_log() -> None:
    """Power check on a mutant of ``self_normalized`` (the Theorem 4.1/4.4 threshold) planted
    by the mutation tool: ``... * log_inv_delta`` under the root turned into
    ``... / log_inv_delta`` (the threshold divided by log(1/delta) = 3.0), on the main
    test's adaptive sample (n = 2e5).

    Its exact rate is 0.1736 (:func:`exact_law`) against delta = 0.05: the harness rejects
    with probability 1.0 (exact binomial, computed below, > 1 - 1e-9); false failure
    <= 1e-6."""
    wrong = mutant(RRUV16, "(b2 + x) * (2 + log(ctx, b2 / x + 1)) * log_inv_delta",
                   "(b2 + x) * (2 + log(ctx, b2 / x + 1)) / log_inv_delta")
    eM, eU2, _ = exact_law()
    p_true = exact_rate(np.abs(eM) >= wrong.self_normalized(NP, eU2, 1.0, math.log(1 / DELTA)))
    assert p_true == pytest.approx(0.1736, abs=1e-4)
    assert rejection_probability(p_true, RUNS, DELTA, ALPHA) > 1 - 1e-9
    M, U2, _ = simulate()
    thr = wrong.self_normalized(NP, U2, 1.0, math.log(1 / DELTA))
    assert check_rate(np.abs(M) >= thr, None, DELTA).rejected


@covers("RRUV16:Thm4.2")
def test_power_mutant_window_tail_exponent() -> None:
    """Power check on a mutant of ``window_tail`` (Theorem 4.2) planted by the mutation
    tool: the exponent ``-s * s / 2`` turned into ``-s * s * 2`` (bound 0.00724 instead of
    2.92 at s = 2, t = 4), on the main test's sample (n = 2e5).

    The event |M| >= 2B, 2 <= B <= 8 has exact rate 0.0452 (:func:`exact_law`): the
    harness rejects with probability 1.0 (exact binomial, computed below, > 1 - 1e-9);
    false failure <= 1e-6."""
    bound = float(mutant(RRUV16, "-s * s / 2", "-s * s * 2").window_tail(s=2, t=4))
    assert bound == pytest.approx(2 * np.sqrt(np.e) * (1 + 4 * np.log(4)) * np.exp(-8),
                                  rel=1e-12)
    eM, eU2, _ = exact_law()
    eB = np.sqrt(eU2 / 4)
    p_true = exact_rate((np.abs(eM) >= 2 * eB) & (eB >= 2) & (eB <= 8))
    assert p_true == pytest.approx(0.0452, abs=1e-4)
    assert rejection_probability(p_true, RUNS, bound, ALPHA) > 1 - 1e-9
    M, U2, _ = simulate()
    B = np.sqrt(U2 / 4)
    assert check_rate((np.abs(M) >= 2 * B) & (B >= 2) & (B <= 8), None, bound).rejected


@covers("RRUV16:Thm4.5")
def test_power_mutant_window_bound_sign() -> None:
    """Power check on a mutant of ``window_bound`` (Theorem 4.5) planted by the mutation
    tool: ``beta + 2 log(t) sqrt(0.74 beta)`` turned into ``beta - ...`` (bound -1.594
    instead of 1.923 at beta = 0.05, t = 4), on the main test's sample (n = 2e5).

    Rejected with probability 1 (a negative bound is refuted by any count: computed below);
    false failure <= 1e-6.  The bound is vacuous (> 1) at the main test's parameters, so
    no mutant keeping it above the event's exact rate 0.0136 can be rejected here."""
    c074 = "c074 * beta"
    w = mutant(RRUV16, f"beta + 2 * log(ctx, t) * ctx.sqrt({c074})",
               f"beta - 2 * log(ctx, t) * ctx.sqrt({c074})").window_bound(beta="0.05", t=4)
    bound = float(w.bound)
    assert bound == pytest.approx(2 * np.sqrt(np.e) * (0.05 - 2 * np.log(4) * np.sqrt(0.037)),
                                  rel=1e-12)
    assert rejection_probability(0.0, RUNS, bound, ALPHA) == 1.0
    M, U2, _ = simulate()
    B = np.sqrt(U2 / 4)
    ev = (np.abs(M) >= np.sqrt(U2 / 2 * math.log(20))) & (B >= 2) & (B <= 8)
    assert check_rate(ev, None, bound).rejected
