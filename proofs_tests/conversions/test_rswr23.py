"""Property tests of the zCDP family (RSWR23 §2, §7): what each statement implies,
checked by routes independent of the formulas (quadrature, exact Gaussian privacy
profiles, finite enumeration, simulation of the doubling schedule)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import assume, example, given
from hypothesis import strategies as st
from mpmath import mp
from scipy.special import logsumexp

from reference import certified
from reference.core.numeric import exact
from reference.results import covers
from reference.results.conversions.rswr23 import (
    compose_zcdp,
    doubling_bound,
    dp_to_zcdp,
    exponential_mechanism_zcdp,
    gaussian_zcdp,
    laplace_epsilon,
    zcdp_budget,
    zcdp_to_dp,
)

small_pos = st.floats(min_value=1e-4, max_value=50, allow_nan=False)
deltas = st.floats(min_value=1e-15, max_value=0.5)


LAMBDAS = np.concatenate([np.linspace(1.001, 10, 400), np.geomspace(10, 1e4, 200)])


def renyi_sup_over_lambda(p: np.ndarray, q: np.ndarray) -> float:
    """max over a lambda grid of D_lambda(P||Q)/lambda, computed directly (independent route)."""
    logs = logsumexp(np.outer(LAMBDAS, np.log(p)) + np.outer(1 - LAMBDAS, np.log(q)), axis=1)
    return float(np.max(logs / (LAMBDAS - 1) / LAMBDAS))


@covers("RSWR23:Lem2.1")
@given(eps=small_pos, delta1=st.floats(0, 5), y=st.floats(-50, 50), fx=st.floats(-5, 5),
       frac=st.floats(-1, 1))
@example(eps=1.0, delta1=2.198434728090812e-31, y=0.0, fx=1.0, frac=1.0)
def test_laplace_log_ratio_bounded(eps: float, delta1: float, y: float, fx: float,
                                   frac: float) -> None:
    """log p_x(y) - log p_x'(y) from the Laplace densities (exact rationals) is <= eps Delta_1.

    Exact: at 40 digits ``f(x) + frac Delta_1`` rounded away a Delta_1 of 2e-31 next to
    f(x) = 1 (a red run with a random seed: the log-ratio came out 2e-9 relative above).
    """
    q = Fraction
    fxp = q(fx) + q(frac) * q(delta1)                 # |f(x) - f(x')| <= Delta_1 exactly
    lr = q(eps) * (abs(q(y) - fxp) - abs(q(y) - q(fx)))
    bound = exact(laplace_epsilon(eps=eps, sensitivity=delta1), "bound", "test")
    assert abs(lr) <= bound * (1 + q(1, 10**30))


@covers("RSWR23:Lem2.1")
def test_laplace_bound_is_attained() -> None:
    # Beyond both centres the log-ratio equals eps * |f(x) - f(x')| exactly.
    y, scale = 100.0, 2.0
    lr = (-abs(y - 0.0) / scale) - (-abs(y - 3.0) / scale)  # log Laplace(0, 2) - log Laplace(3, 2)
    assert abs(float(laplace_epsilon(eps=0.5, sensitivity=3)) + lr) < 1e-12


@covers("RSWR23:Lem2.2")
@given(rho=st.floats(0.05, 20), shift=st.floats(0.01, 1), lam=st.floats(1.1, 8))
def test_gaussian_renyi_by_quadrature(rho: float, shift: float, lam: float) -> None:
    """D_lambda(N(0,1/rho) || N(shift,1/rho)), integrated numerically, is <= lambda * bound."""
    sd = 1 / np.sqrt(rho)
    with mp.workdps(30):
        def integrand(y: mpmath.mpf) -> mpmath.mpf:
            lp = -(y**2) / (2 * sd**2)
            lq = -((y - shift) ** 2) / (2 * sd**2)
            return mpmath.exp(lam * lp + (1 - lam) * lq) / mpmath.sqrt(2 * mpmath.pi * sd**2)
        val = mpmath.quad(integrand, [-mpmath.inf, shift / 2, mpmath.inf])
        d = float(mpmath.log(val) / (lam - 1))
    bound = float(gaussian_zcdp(rho=rho, sensitivity=shift))
    assert d <= lam * bound * (1 + 1e-8) + 1e-12
    assert d >= lam * bound * (1 - 1e-6) - 1e-12  # attained at sensitivity = |shift|


def gaussian_delta(eps: float, mu: float) -> float:
    """Exact privacy profile of N(0,1) vs N(mu,1) (Balle–Wang 2018): an independent route."""
    with mp.workdps(40):
        e, m = mp.mpf(eps), mp.mpf(mu)
        return float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2))


@covers("RSWR23:Lem2.3")
@given(rho=small_pos, delta=deltas)
def test_conversion_respects_exact_gaussian_profile(rho: float, delta: float) -> None:
    """A rho-zCDP Gaussian (mu = sqrt(2 rho)) has exact delta(eps(rho, delta)) <= delta."""
    eps = float(zcdp_to_dp(rho=rho, delta=delta))
    assert gaussian_delta(eps, np.sqrt(2 * rho)) <= delta * (1 + 1e-9)


@covers("RSWR23:Lem2.3")
@given(rho=small_pos, rho2=small_pos, delta=deltas, delta2=deltas)
def test_conversion_monotone(rho: float, rho2: float, delta: float, delta2: float) -> None:
    (r1, r2), (d1, d2) = sorted((rho, rho2)), sorted((delta, delta2))
    assert zcdp_to_dp(rho=r1, delta=d1) <= zcdp_to_dp(rho=r2, delta=d1)
    assert zcdp_to_dp(rho=r1, delta=d1) >= zcdp_to_dp(rho=r1, delta=d2)


@covers("RSWR23:Lem2.3")
def test_conversion_catalog_value() -> None:
    # Independently computed: eps(1.3525, 1e-6) = 9.9978.
    assert abs(float(zcdp_to_dp(rho="1.3525", delta="1e-6")) - 9.9978) < 5e-5
    enc = certified(zcdp_to_dp, rho="1.3527", delta="1e-6")
    assert enc.lo <= enc.hi and enc.hi - enc.lo < mp.mpf(10) ** -45


@covers("RSWR23:Lem2.3-inverse")
@given(rho=st.floats(1e-6, 100), delta=deltas)
def test_inverse_pair(rho: float, delta: float) -> None:
    eps = zcdp_to_dp(rho=rho, delta=delta)
    cert = zcdp_budget(eps=eps, delta=delta)
    assert cert.holds and cert.lo <= cert.hi
    with mp.workdps(60):
        tol = mp.mpf(10) ** -40 * max(1, rho)
        assert abs(cert.value - mp.mpf(rho)) <= tol
        # The exact inverse of eps (eps(rho) rounded at 50 digits) is bracketed by [lo, hi].
        assert cert.lo - tol <= mp.mpf(rho) <= cert.hi + tol


@covers("RSWR23:Lem2.3-inverse")
def test_inverse_catalog_value() -> None:
    # Independently computed: rho* = 1.353015 for (10, 1e-6); sum of squares 2 rho* = 2.706029.
    cert = zcdp_budget(eps=10, delta="1e-6")
    assert abs(float(cert.value) - 1.353015) < 1e-6
    assert abs(2 * float(cert.value) - 2.706029) < 1e-6


@covers("RSWR23:Lem2.3-i")
@given(eps=st.floats(0.01, 4))
def test_dp_to_zcdp_randomized_response(eps: float) -> None:
    """RR_eps (the worst eps-DP pair) has sup_lambda D_lambda/lambda <= eps^2/2."""
    p = np.exp(eps) / (1 + np.exp(eps))
    rho, delta = dp_to_zcdp(eps=eps)
    assert delta == 0
    assert renyi_sup_over_lambda(np.array([p, 1 - p]), np.array([1 - p, p])) <= float(rho) * (
        1 + 1e-7)


@covers("RSWR23:Lem2.3-i")
@given(eps=st.fractions(Fraction(0), 5, max_denominator=1000),
       delta=st.fractions(Fraction(1, 10**9), Fraction(99, 100), max_denominator=10**9))
def test_dp_to_zcdp_keeps_the_dp_delta(eps: Fraction, delta: Fraction) -> None:
    """The statement: (eps, delta)-DP gives delta-approximate eps^2/2-zCDP with the *same*
    delta (neither doubled nor dropped); both parts pinned against exact rationals."""
    rho, d = dp_to_zcdp(eps=eps, delta=delta)
    assert abs(exact(rho, "rho", "test") - eps**2 / 2) <= Fraction(1, 10**45) * (1 + eps**2)
    assert abs(exact(d, "delta", "test") - delta) <= Fraction(1, 10**45) * delta


@covers("RSWR23:Lem2.3-i")
@given(eps=st.floats(0.01, 4), delta=st.floats(1e-9, 0.9))
def test_dp_to_zcdp_delta_is_attained_by_a_leaking_rr(eps: float, delta: float) -> None:
    """M(b) reveals b with probability delta and else runs RR_eps: (eps, delta)-DP, and
    delta'-approximate zCDP (any rho) needs delta' >= delta, the mass of M(0) where M(1) has
    none (a finite Renyi divergence needs absolute continuity).  Conditioned on not
    revealing it is RR_eps, of level <= eps^2/2.  So the returned pair is valid for this
    mechanism, and its delta is exactly the forced mass: no smaller, and (the statement
    keeps the DP delta) no larger."""
    with mp.workdps(40):
        e, dd = mp.exp(mp.mpf(eps)), mp.mpf(delta)
        p0 = [dd, (1 - dd) * e / (1 + e), (1 - dd) / (1 + e), mp.zero]
        p1 = [mp.zero, (1 - dd) / (1 + e), (1 - dd) * e / (1 + e), dd]
        # (eps, delta)-DP: the largest hockey-stick divergence over events is delta.
        assert mp.fsum(max(a - e * b, 0) for a, b in zip(p0, p1, strict=True)) <= dd * (
            1 + mp.mpf(10) ** -30)
        rho, d = dp_to_zcdp(eps=eps, delta=delta)
        forced = mp.fsum(a for a, b in zip(p0, p1, strict=True) if b == 0)  # no E can keep it
        assert abs(d - forced) <= mp.mpf(10) ** -35 * forced
        kept = [(a, b) for a, b in zip(p0, p1, strict=True) if a > 0 and b > 0]
        cond0 = np.array([float(a / (1 - dd)) for a, _ in kept])
        cond1 = np.array([float(b / (1 - dd)) for _, b in kept])
    assert renyi_sup_over_lambda(cond0, cond1) <= float(rho) * (1 + 1e-7)


@covers("RSWR23:Lem2.4")
@given(e1=st.floats(0.05, 2), e2=st.floats(0.05, 2))
def test_zcdp_composition_by_enumeration(e1: float, e2: float) -> None:
    """The product of two RR pairs has zCDP level <= the sum of the parts' levels."""
    def rr(e: float) -> tuple[np.ndarray, np.ndarray]:
        p = np.exp(e) / (1 + np.exp(e))
        return np.array([p, 1 - p]), np.array([1 - p, p])
    (p1, q1), (p2, q2) = rr(e1), rr(e2)
    rho1, rho2 = renyi_sup_over_lambda(p1, q1), renyi_sup_over_lambda(p2, q2)
    joint = renyi_sup_over_lambda(np.outer(p1, p2).ravel(), np.outer(q1, q2).ravel())
    total = compose_zcdp(rho=[rho1, rho2], delta=[0.001, 0.002])
    assert joint <= float(total.rho) * (1 + 1e-7)
    assert total.delta == mp.mpf("0.003")


@covers("RSWR23:Sec7.2-EM")
@given(seed=st.integers(0, 2**32 - 1), eps=st.floats(0.01, 3), m=st.integers(2, 8))
def test_em_monotone_neighbours(seed: int, eps: float, m: int) -> None:
    """softmax(eps u) vs softmax(eps (u + d)), d in [0,1]^m: sup D_lambda/lambda <= eps^2/8."""
    g = np.random.default_rng(seed)
    u = g.uniform(0, 5, m)
    d = g.uniform(0, 1, m)
    def softmax(v: np.ndarray) -> np.ndarray:
        w = np.exp(eps * (v - v.max()))
        return np.asarray(w / w.sum())
    sup = renyi_sup_over_lambda(softmax(u), softmax(u + d))
    assert sup <= float(exponential_mechanism_zcdp(eps=eps)) * (1 + 1e-7) + 1e-15


@covers("RSWR23:Sec7.2-EM")
def test_em_bound_needs_monotone_neighbours() -> None:
    """Utilities moving in both directions can exceed eps^2/8 (why the note restricts it)."""
    eps = 2.0
    u = np.array([0.0, 0.0])
    v = np.array([1.0, -1.0])  # one count up, the other down
    def softmax(x: np.ndarray) -> np.ndarray:
        w = np.exp(eps * x)
        return np.asarray(w / w.sum())
    bound = float(exponential_mechanism_zcdp(eps=eps))
    assert renyi_sup_over_lambda(softmax(u), softmax(v)) > bound


@covers("RSWR23:Sec7.1-doubling")
@given(e1=st.fractions(Fraction(1, 1000), 1), target=st.fractions(Fraction(1, 1000), 10),
       r2=st.sampled_from([Fraction(3, 2), Fraction(2), Fraction(3), Fraction(4)]))
def test_doubling_schedule(e1: Fraction, target: Fraction, r2: Fraction) -> None:
    """Run the schedule exactly on squared parameters: overshoot < r and spend < bound."""
    assume(e1 <= target)
    sq, total, t2 = e1 * e1, Fraction(0), target * target
    while True:
        total += sq
        if sq >= t2:
            break
        sq *= r2
    bound = doubling_bound(ratio_sq=r2)
    assert sq / t2 < r2  # overshoot^2 = r^2
    with mp.workdps(60):
        assert abs(bound.overshoot**2 * r2.denominator / r2.numerator - 1) < mp.mpf(10) ** -45
    assert total / t2 < exact(bound.spend, "spend", "test") * (1 + Fraction(1, 10**40))


@covers("RSWR23:Sec7.1-doubling")
def test_doubling_ratio_sqrt2_is_minimax() -> None:
    """r^2 = 2 minimises r^4/(r^2-1) (value 4), as an independent grid search finds (min 4.0000)."""
    grid = [Fraction(101 + i, 100) for i in range(400)]
    best = min(grid, key=lambda r2: doubling_bound(ratio_sq=r2).spend)
    assert best == 2 and doubling_bound().spend == 4
