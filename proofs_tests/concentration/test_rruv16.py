"""Property tests of RRUV16 §4 (concentration): each bound against exact laws that satisfy
its hypothesis (Gaussians, exactly enumerated Rademacher martingales with predictable
coefficients, finite mean-zero laws), and the monotonicity the statements imply."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import stats

from reference import DomainError
from reference.results import covers
from reference.results.concentration.rruv16 import (
    loss_mean_bound,
    martingale_threshold,
    range_sum,
    self_normalized_threshold,
    window_bound,
    window_tail,
)

small_delta = st.floats(1e-9, 0.36)


@covers("RRUV16:Thm4.1")
@given(B=st.floats(0.01, 10), beta=st.floats(0.001, 100), delta=small_delta)
def test_thm41_gaussian(B: float, beta: float, delta: float) -> None:
    """A ~ N(0, B^2) with B fixed satisfies (2) with equality: P[|A| >= thr] = 2 sf(thr/B)."""
    thr = float(self_normalized_threshold(B2=B * B, beta=beta, delta=delta))
    assert 2 * stats.norm.sf(thr / B) <= delta


@covers("RRUV16:Thm4.1")
@given(c=st.lists(st.floats(0.05, 2), min_size=1, max_size=10), beta=st.floats(0.01, 10),
       delta=small_delta)
def test_thm41_rademacher_enumerated(c: list[float], beta: float, delta: float) -> None:
    """A = sum c_i xi_i, B^2 = sum c_i^2 (cosh x <= e^{x^2/2}); exact law by enumeration."""
    B2 = sum(x * x for x in c)
    thr = float(self_normalized_threshold(B2=B2, beta=beta, delta=delta))
    sums = [abs(sum(s * x for s, x in zip(signs, c, strict=True)))
            for signs in itertools.product((-1, 1), repeat=len(c))]
    assert sum(s >= thr for s in sums) / len(sums) <= delta


@covers("RRUV16:Thm4.1")
@given(B2=st.floats(0, 10), B2b=st.floats(0, 10), d1=small_delta, d2=small_delta)
def test_thm41_monotone(B2: float, B2b: float, d1: float, d2: float) -> None:
    (a, b), (lo, hi) = sorted((B2, B2b)), sorted((d1, d2))
    assert self_normalized_threshold(B2=a, beta=1, delta=lo) <= \
        self_normalized_threshold(B2=b, beta=1, delta=lo)
    assert self_normalized_threshold(B2=a, beta=1, delta=hi) <= \
        self_normalized_threshold(B2=a, beta=1, delta=lo)


@covers("RRUV16:Thm4.1", "RRUV16:Thm4.4")
def test_delta_above_inv_e_rejected() -> None:
    for bad in ("0.3679", "0.5"):
        try:
            martingale_threshold(U2=1, x=1, delta=bad)
        except DomainError as err:
            assert "1/e" in str(err) and "RRUV16:Thm4.4" in str(err)
        else:  # pragma: no cover
            raise AssertionError("accepted delta > 1/e")
    martingale_threshold(U2=1, x=1, delta="0.3678")  # just below 1/e = 0.36788


@covers("RRUV16:Thm4.2")
@given(s=st.floats(1, 8), t=st.floats(1, 1e6), t2=st.floats(1, 1e6))
def test_thm42_gaussian_and_monotone(s: float, t: float, t2: float) -> None:
    """B fixed (c = B): P[|A| >= s B] = 2 sf(s) for A ~ N(0, B^2) is below the bound."""
    assert 2 * stats.norm.sf(s) <= float(window_tail(s=s, t=t))
    lo, hi = sorted((t, t2))
    assert window_tail(s=s, t=lo) <= window_tail(s=s, t=hi)


@covers("RRUV16:Thm4.2")
@given(s=st.floats(1, 8))
def test_thm42_at_t_one(s: float) -> None:
    with mpmath.workdps(40):
        expect = 2 * mpmath.sqrt(mpmath.e) * mpmath.exp(-mpmath.mpf(s) ** 2 / 2)
        assert abs(window_tail(s=s, t=1) - expect) < mpmath.mpf(10) ** -30 * expect


@covers("RRUV16:Thm4.3")
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(2, 6), lam=st.floats(-20, 20))
def test_thm43_hoeffding_lemma(seed: int, m: int, lam: float) -> None:
    """A random mean-zero law on [C, D]: E e^{lambda X} <= e^{lambda^2 (D-C)^2/8}."""
    g = np.random.default_rng(seed)
    x = g.uniform(-1, 1, m)
    w = g.dirichlet(np.ones(m))
    x = x - float(w @ x)  # mean zero
    C, D = float(x.min()), float(x.max())
    assume(D - C > 1e-9)
    mgf = float(w @ np.exp(lam * x))
    rs = range_sum(width=[D - C])
    assert mgf <= math.exp(lam * lam * float(rs.U2) / 8) * (1 + 1e-12)


@covers("RRUV16:Thm4.4")
@given(x=st.floats(0.01, 5), delta=small_delta, k=st.integers(1, 10),
       small=st.floats(0.1, 1), big=st.floats(1, 3))
def test_thm44_predictable_coefficients(x: float, delta: float, k: int, small: float,
                                        big: float) -> None:
    """X_i = c_i xi_i with c_i chosen from the past (big after a +1), enumerated exactly:
    P[|M_k| >= thr(U_k^2)] <= delta, with the realised U_k^2 = 4 sum c_i^2."""
    bad = 0.0
    for signs in itertools.product((-1, 1), repeat=k):
        c, m, u2 = small, 0.0, 0.0
        for s in signs:
            m += c * s
            u2 += 4 * c * c
            c = big if s > 0 else small
        thr = float(martingale_threshold(U2=u2, x=x, delta=delta))
        bad += abs(m) >= thr
    assert bad / 2**k <= delta


@covers("RRUV16:Thm4.4")
@given(U2=st.floats(0.01, 100), delta=small_delta)
def test_thm44_interior_minimum_in_x(U2: float, delta: float) -> None:
    """The threshold tends to infinity at x -> 0 and x -> inf: an interior minimum."""
    grid = [U2 * 10.0**k for k in range(-12, 13)]
    vals = [martingale_threshold(U2=U2, x=x, delta=delta) for x in grid]
    best = vals.index(min(vals))
    assert 0 < best < len(grid) - 1


@covers("RRUV16:Thm4.5")
@given(beta=st.floats(1e-9, 0.99), b2=st.floats(1e-9, 0.99), t=st.floats(1, 1e4),
       t2=st.floats(1, 1e4))
def test_thm45_monotone_and_constant(beta: float, b2: float, t: float, t2: float) -> None:
    assert beta * math.log(1 / beta) <= 0.37  # the proof's constant 0.37 >= 1/e
    (lo, hi), (tl, th) = sorted((beta, b2)), sorted((t, t2))
    assert window_bound(beta=lo, t=tl).bound <= window_bound(beta=hi, t=tl).bound
    assert window_bound(beta=lo, t=tl).bound <= window_bound(beta=lo, t=th).bound


@covers("RRUV16:Thm4.5")
@given(beta=st.floats(1e-6, 0.6), t=st.floats(1, 100))
def test_thm45_gaussian(beta: float, t: float) -> None:
    """U_k/2 = B fixed in [c, t c]: P[|A| >= sqrt(2 B^2 log(1/beta))] = 2 sf(...) <= bound."""
    w = window_bound(beta=beta, t=t, U2=4)
    assert 2 * stats.norm.sf(float(w.threshold) / 1) <= float(w.bound)


@covers("RRUV16:Lem4.6")
@given(eps=st.floats(1e-6, 5))
def test_lem46_randomized_response_and_laplace(eps: float) -> None:
    """RR_eps has mean loss eps tanh(eps/2); Laplace (shift 1, scale 1/eps) eps + e^-eps - 1."""
    bound = float(loss_mean_bound(eps=eps))
    assert eps * math.tanh(eps / 2) <= bound * (1 + 1e-12)
    assert eps + math.expm1(-eps) <= bound * (1 + 1e-12)


@covers("RRUV16:Lem4.6")
@given(seed=st.integers(0, 2**32 - 1), eps=st.floats(0.01, 3), m=st.integers(2, 8))
def test_lem46_random_pairs(seed: int, eps: float, m: int) -> None:
    """Random P, Q with max |log P/Q| <= eps: KL(P || Q) <= eps (e^eps - 1)/2."""
    g = np.random.default_rng(seed)
    q = g.dirichlet(np.ones(m))
    p = q * np.exp(g.uniform(-eps, eps, m))
    p /= p.sum()
    ratio = np.log(p / q)
    assume(np.abs(ratio).max() <= eps)
    assert float(p @ ratio) <= float(loss_mean_bound(eps=eps)) * (1 + 1e-9) + 1e-15
