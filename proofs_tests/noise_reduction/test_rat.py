"""Property tests of ReducedAboveThreshold (WRWR22 §5: Algorithm 1, Theorem 5.1,
Corollary 5.2) and its exact halting probabilities.

Independent routes: scipy quadrature of the AboveThreshold integral (constant eps), the
closed-form law of a difference of two Laplace variables, exact Fraction arithmetic,
independent Monte Carlo numbers (0.48 eps_k for Algorithm 1, up to 1.46 eps_k for the
fresh-threshold variant) and an independently computed boundary value.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp
from scipy import integrate, stats

from proofs_tests.profiles import share
from reference.core.errors import DomainError
from reference.results import covers
from reference.results.boundaries.wrwr22 import mixture_boundary
from reference.results.noise_reduction.laplace import lnr_expost
from reference.results.noise_reduction.rat import (
    bm_rat_expost,
    lnr_rat_expost,
    rat_loss_bound,
    rat_scales,
)
from reference.sim.rat import halting_probabilities, reduced_above_threshold, threshold_loss


@covers("WRWR22:Alg1")
@given(eps=st.fractions(Fraction(1, 100), 5), extra=st.fractions(0, 5),
       sens=st.fractions(Fraction(1, 10), 3))
def test_scales_of_a_round(eps: Fraction, extra: Fraction, sens: Fraction) -> None:
    """eta = 2D/eps_max <= S_n = 2D/eps_n, query scale 4D/eps_n (exact rationals)."""
    s = rat_scales(eps=eps, eps_max=eps + extra, sensitivity=sens)
    with mp.workdps(50):
        for got, want in ((s.eta, 2 * sens / (eps + extra)), (s.threshold, 2 * sens / eps),
                          (s.query, 4 * sens / eps)):
            assert abs(got - mp.mpf(want.numerator) / want.denominator) < mp.mpf(10) ** -45
        assert s.eta <= s.threshold
    with pytest.raises(DomainError, match="eps_max"):
        rat_scales(eps=eps + 1, eps_max=eps)


@covers("WRWR22:Alg1")
def test_sampler_reduces_to_above_threshold_and_halts_once() -> None:
    gen = np.random.default_rng(4)
    u = gen.normal(size=(500, 6))
    const = reduced_above_threshold(u, np.full(6, 0.7), 1.0, 1.0, 0.5, gen)
    assert np.all(const.zeta == const.zeta[:, :1])            # one threshold draw
    assert np.all(const.xi[:, 1:] != const.xi[:, :-1])         # fresh query noise
    rising = reduced_above_threshold(u, np.linspace(0.2, 1.0, 6), 1.0, 1.0, 0.5, gen)
    assert np.any(rising.zeta[:, 0] != rising.zeta[:, -1])
    for run in (const, rising):
        success = u + run.xi >= 0.5 + run.zeta
        for i in range(u.shape[0]):                            # 1 printed once, last
            printed = success[i, :run.halt[i]] if run.halt[i] else success[i]
            assert printed.sum() == (1 if run.halt[i] else 0)
            assert not run.halt[i] or printed[-1]
    fresh = reduced_above_threshold(u, np.full(6, 0.7), 1.0, 1.0, 0.5, gen,
                                    fresh_threshold=True)
    assert np.all(fresh.zeta[:, 1:] != fresh.zeta[:, :-1])
    with pytest.raises(DomainError, match="non-decreasing"):
        reduced_above_threshold(u, np.linspace(1.0, 0.2, 6), 1.0, 1.0, 0.5, gen)
    with pytest.raises(DomainError, match="eps_max"):
        reduced_above_threshold(u, np.full(6, 2.0), 1.0, 1.0, 0.5, gen)


def above_threshold_by_quadrature(gaps: np.ndarray, eps: float) -> np.ndarray:
    """P[N = k] of AboveThreshold (constant eps): one threshold draw zeta ~ Lap(2/eps),
    query noise Lap(4/eps); integrate over zeta with scipy."""
    s, b = 2 / eps, 4 / eps
    out = []
    for k in range(len(gaps)):
        def f(z: float, k: int = k) -> float:
            passes = [stats.laplace.cdf(z - g, 0, b) for g in gaps[:k]]
            return float(stats.laplace.pdf(z, 0, s) * np.prod(passes)
                         * stats.laplace.sf(z - gaps[k], 0, b))
        out.append(integrate.quad(f, -60 * s, 60 * s, points=[0, *gaps[:k + 1]], limit=400)[0])
    return np.array(out)


@covers("WRWR22:Thm5.1")
def test_exact_halting_probabilities_against_independent_routes() -> None:
    gaps = np.array([0.3, -0.5, 0.0, 1.0, -1.0])
    grid = halting_probabilities(gaps, np.full(5, 0.8))
    assert abs(grid.sum() - 1) < 1e-7
    assert np.allclose(grid[:-1], above_threshold_by_quadrature(gaps, 0.8), rtol=2e-5)
    # One round: P[xi >= zeta - d] from the closed-form law of zeta - xi (scales 2 and 4).
    s, b, d = 2.0, 4.0, 0.7
    tail = (s * s * math.exp(-d / s) - b * b * math.exp(-d / b)) / (2 * (s * s - b * b))
    assert abs(halting_probabilities(np.array([d]), np.array([1.0]))[0] - (1 - tail)) < 1e-8
    fresh = halting_probabilities(gaps, np.linspace(0.4, 1.2, 5), fresh_threshold=True)
    assert abs(fresh.sum() - 1) < 1e-9


PATTERNS = {
    "at threshold, x' below": (np.zeros(12), -np.ones(12)),
    "at threshold, x' above": (np.zeros(12), np.ones(12)),
    "alternating": (np.tile([0.0, -1.0], 6), np.tile([-1.0, 0.0], 6)),
    "far below, then near": (np.r_[np.full(6, -3.0), np.zeros(6)], np.r_[np.full(6, -2.0),
                                                                         np.full(6, -1.0)]),
}
SCHEDULES = {"constant": np.ones(12), "increasing": np.linspace(0.5, 1.5, 12)}


@covers("WRWR22:Thm5.1")
@pytest.mark.parametrize("schedule", list(SCHEDULES))
@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_threshold_loss_at_most_eps_at_the_halting_round(pattern: str, schedule: str) -> None:
    """With trivial Alg the transcript is N: |log P_x[N = k]/P_x'[N = k]| <= eps_k for every
    k, both directions (exact halting probabilities; neighbours' utilities differ by <= 1)."""
    gx, gxp = PATTERNS[pattern]
    eps = SCHEDULES[schedule]
    px, pxp = halting_probabilities(gx, eps), halting_probabilities(gxp, eps)
    ratio = np.abs(np.log(px[:-1] / pxp[:-1])) / eps
    assert np.all(ratio <= 1), ratio.max()


@covers("WRWR22:Thm5.1")
def test_fresh_threshold_variant_breaks_the_theorem() -> None:
    """Independent Monte Carlo: Algorithm 1's worst ratio is 0.48 eps_k (constant eps = 1,
    u(x) = tau, u(x') = tau - 1, K = 12); redrawing the threshold noise each round exceeds
    eps_k from k = 9 on, up to 1.46 (Monte Carlo; 1.49 exactly at k = 12)."""
    gx, gxp, eps = np.zeros(12), -np.ones(12), np.ones(12)
    right = np.abs(np.log(halting_probabilities(gx, eps)[:-1]
                          / halting_probabilities(gxp, eps)[:-1]))
    wrong = np.abs(np.log(halting_probabilities(gx, eps, fresh_threshold=True)[:-1]
                          / halting_probabilities(gxp, eps, fresh_threshold=True)[:-1]))
    assert abs(right.max() - 0.48) < 0.01
    assert np.all(wrong[8:] > 1) and np.all(wrong[:8] < 1) and 1.45 < wrong.max() < 1.5
    assert abs(threshold_loss(gx, gxp, eps, 1) - right[0]) < 1e-12


@covers("WRWR22:Thm5.1", "WRWR22:Thm5.1-LNR")
@given(alg=st.fractions(-5, 5), eps=st.fractions(Fraction(1, 100), 5),
       t=st.fractions(Fraction(1, 10), 10))
def test_bounds_add_up(alg: Fraction, eps: Fraction, t: Fraction) -> None:
    with mp.workdps(50):
        total = alg + eps
        assert abs(rat_loss_bound(alg_loss=alg, eps=eps)
                   - mp.mpf(total.numerator) / total.denominator) < mp.mpf(10) ** -45
        g = lnr_rat_expost(t=t, sensitivity=1)
        via = rat_loss_bound(alg_loss=lnr_expost(t=t).eps, eps=1 / t)   # Prop 4.2 + E_N
        assert abs(g.eps - via) < mp.mpf(10) ** -45 and g.delta == 0
        two_over_t = 2 / t                                              # 2 Delta_1 / T_N
        exact_eps = mp.mpf(two_over_t.numerator) / two_over_t.denominator
        assert abs(g.eps - exact_eps) < mp.mpf(10) ** -45


@covers("WRWR22:Cor5.2")
@settings(max_examples=share(Fraction(1, 2)))
@given(times=st.lists(st.floats(0.05, 50), min_size=2, max_size=8, unique=True),
       rho=st.floats(0.1, 10), delta=st.floats(1e-8, 0.5))
def test_boundary_gives_valid_rat_privacy_functions(times: list[float], rho: float,
                                                    delta: float) -> None:
    """psi(T_n) along decreasing BM times is non-decreasing and at most eps_max =
    psi(T_min): valid RAT privacy functions; the guarantee is twice psi(T_N)."""
    ts = sorted(times, reverse=True)
    psi = [mixture_boundary(t=t, rho=rho, delta=delta) for t in ts]
    assert all(a < b for a, b in itertools.pairwise(psi))
    eps_max = psi[-1]
    g = bm_rat_expost(t=ts[-1], rho=rho, delta=delta)
    with mp.workdps(50):
        assert abs(g.eps - 2 * eps_max) < mp.mpf(10) ** -40 * eps_max
    # independently computed value of psi^M at t = rho = 1, delta = 1e-6: 8.02650892465936
    assert abs(float(bm_rat_expost(t=1, rho=1, delta="1e-6").eps) - 2 * 8.02650892465936) \
        < 1e-12
