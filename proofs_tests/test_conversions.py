"""Property tests of the zCDP -> DP conversions and the Gaussian curve
(reference.results.conversions).

Expected numbers come from independent routes: the published library numbers of the
anchors report (§3.1, computed there with mpmath at 50 digits and several libraries),
direct minimisation of the CKS20 objective over a grid of orders, scipy's normal CDF,
mpmath quadrature of the hockey-stick divergence, and two-point sums for randomized
response.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp
from scipy.optimize import brentq
from scipy.stats import norm

import reference.results.conversions  # noqa: F401  (registers the family)
from reference import certified
from reference.results import covers
from reference.results.conversions.bs16 import puredp_to_zcdp
from reference.results.conversions.bw18 import (
    gaussian_delta,
    gaussian_delta_rho,
    gaussian_epsilon,
    gaussian_epsilon_rho,
)
from reference.results.conversions.cks20 import cks_delta, cks_epsilon, cks_order
from reference.results.conversions.mir17 import rr_renyi
from reference.results.conversions.rswr23 import zcdp_to_dp

#: anchors §3.1: (rho, delta, BS16, CKS20, a*, Gauss), mpmath at 50 digits.
ANCHORS_31 = [
    ("0.01", "1e-6", "0.753384438", "0.621692655", "33.12", "0.575055186"),
    ("0.1", "1e-6", "2.450788000", "2.141938928", "11.66", "1.994526901"),
    ("1", "1e-6", "8.433844378", "7.766216625", "4.51", "7.286080966"),
    ("1.3527", "1e-6", "9.998679674", "9.265762734", "4.03", "8.703243855"),
    ("0.01", "1e-9", "0.920456278", "0.810174468", "42.21", "0.768211713"),
    ("0.1", "1e-9", "2.979115547", "2.715481887", "14.44", "2.582872835"),
    ("1", "1e-9", "10.10456278", "9.521463672", "5.36", "9.092558369"),
    ("1.3527", "1e-9", "11.94181926", "11.29956548", "4.76", "10.79783989"),
]

rhos = st.floats(min_value=1e-4, max_value=50)
deltas = st.floats(min_value=1e-30, max_value=0.5)


def _close(x: object, published: str) -> bool:
    digits = len(published.replace(".", "").lstrip("0"))
    return abs(mp.mpf(x) - mp.mpf(published)) <= mp.mpf(10) ** (-digits + 1) * mp.mpf(published)


def _grid_min_cks(rho: float, delta: float) -> float:
    """Independent route: the CKS20 objective minimised over a dense grid of orders."""
    a = np.concatenate([1 + np.geomspace(1e-6, 1e6, 200_000)])
    vals = a * rho + np.log1p(-1 / a) - (math.log(delta) + np.log(a)) / (a - 1)
    return max(0.0, float(vals.min()))


@covers("CKS20:Cor13", "RSWR23:Lem2.3")
@pytest.mark.parametrize("row", ANCHORS_31, ids=[f"{r[0]}-{r[1]}" for r in ANCHORS_31])
def test_cks_and_bs16_match_the_anchor_numbers(row: tuple[str, ...]) -> None:
    rho, delta, bs16, cks, _, _ = row
    assert _close(cks_epsilon(rho=rho, delta=delta), cks)
    assert _close(zcdp_to_dp(rho=rho, delta=delta), bs16)


@covers("CKS20:Cor13-order")
@pytest.mark.parametrize("row", ANCHORS_31, ids=[f"{r[0]}-{r[1]}" for r in ANCHORS_31])
def test_optimal_order_matches_anchors_and_is_a_minimum(row: tuple[str, ...]) -> None:
    rho, delta, _, _, order, _ = row
    a = cks_order(rho=rho, delta=delta)
    assert abs(a - mp.mpf(order)) < mp.mpf("0.006")

    def objective(x: mpmath.mpf) -> mpmath.mpf:
        r, d = mp.mpf(rho), mp.mpf(delta)
        return x * r + mp.log(1 - 1 / x) - (mp.log(d) + mp.log(x)) / (x - 1)

    with mp.workdps(50):
        h = mp.mpf(10) ** -8
        assert objective(a) < objective(a - h) and objective(a) < objective(a + h)
        # and it solves the stated equation (a-1)^2 rho + ln a = ln(1/delta)
        gap = (a - 1) ** 2 * mp.mpf(rho) + mp.log(a) + mp.log(mp.mpf(delta))
        assert abs(gap) < mp.mpf(10) ** -40


@covers("CKS20:Cor13")
@settings(max_examples=40)
@given(rho=rhos, delta=deltas)
def test_cks_equals_grid_minimum(rho: float, delta: float) -> None:
    value = float(cks_epsilon(rho=rho, delta=delta))
    grid = _grid_min_cks(rho, delta)
    assert value <= grid + 1e-9 * (1 + grid)       # no order does better than a*
    assert grid <= value + 1e-4 * (1 + value)       # the grid comes close to it


@covers("CKS20:Cor13", "RSWR23:Lem2.3", "BW18:Thm8-rho-eps")
@settings(max_examples=30)
@given(rho=rhos, delta=st.floats(min_value=1e-20, max_value=0.1))
def test_bs16_above_cks20_above_gaussian(rho: float, delta: float) -> None:
    """BS16 >= CKS20 >= exact Gaussian eps (the Gaussian is rho-zCDP), as enclosures."""
    bs16 = certified(zcdp_to_dp, rho=rho, delta=delta)
    cks = certified(cks_epsilon, rho=rho, delta=delta)
    gauss = gaussian_epsilon_rho(rho=rho, delta=delta)
    assert cks.hi <= bs16.lo
    assert gauss.hi <= cks.lo


@covers("CKS20:Cor13-delta")
@settings(max_examples=25)
@given(rho=rhos, delta=st.floats(min_value=1e-20, max_value=0.1))
def test_cks_delta_inverts_cks_epsilon(rho: float, delta: float) -> None:
    eps = cks_epsilon(rho=rho, delta=delta)
    if eps == 0:
        return
    back = cks_delta(rho=rho, eps=eps)
    assert abs(back / mp.mpf(delta) - 1) < mp.mpf(10) ** -30
    # and the delta curve lies above the Gaussian's (the Gaussian is rho-zCDP)
    assert certified(gaussian_delta_rho, rho=rho, eps=eps).hi <= certified(
        cks_delta, rho=rho, eps=eps).lo


@covers("CKS20:Cor13-delta")
def test_cks_delta_edges() -> None:
    assert cks_delta(rho=0, eps=1) == 0
    assert cks_delta(rho=1, eps=0) <= 1
    with mp.workdps(50):  # at eps = 0 it must still exceed the Gaussian's total variation
        tv = 2 * mp.ncdf(mp.sqrt(2 * 50) / 2) - 1
        assert tv <= cks_delta(rho=50, eps=0) <= 1


@covers("BW18:Thm8")
@settings(max_examples=40)
@given(sigma=st.floats(0.2, 20), eps=st.floats(0, 8), sens=st.floats(0.1, 5))
def test_gaussian_curve_against_scipy(sigma: float, eps: float, sens: float) -> None:
    ref = (norm.cdf(sens / (2 * sigma) - eps * sigma / sens)
           - math.exp(eps) * norm.cdf(-sens / (2 * sigma) - eps * sigma / sens))
    ours = float(gaussian_delta(sigma=sigma, eps=eps, sensitivity=sens))
    if ref > 1e-6:  # scipy's difference cancels below that
        assert abs(ours - ref) <= 1e-9 * ref


@covers("BW18:Thm8")
@pytest.mark.parametrize(("sigma", "eps"), [("1", "0.5"), ("0.5", "3"), ("3", "0.1")])
def test_gaussian_curve_is_the_hockey_stick_integral(sigma: str, eps: str) -> None:
    """delta(eps) = int [p(x) - e^eps q(x)]_+ dx for N(0, s^2) vs N(1, s^2), by quadrature."""
    with mp.workdps(30):
        s, e = mp.mpf(sigma), mp.mpf(eps)
        cut = s * s * e + mp.mpf(1) / 2       # p/q = e^eps at x = 1/2 - s^2 eps (p: mean 0)
        pdf = lambda x, m: mp.npdf(x, m, s)  # noqa: E731
        value = mp.quad(lambda x: pdf(x, 0) - mp.exp(e) * pdf(x, 1), [-mp.inf, 1 - cut])
        enc = certified(gaussian_delta, sigma=sigma, eps=eps)
        assert abs(value - enc.mid) < mp.mpf(10) ** -25


@covers("BW18:Thm8-eps")
@settings(max_examples=20)
@given(sigma=st.floats(0.3, 10), delta=st.floats(1e-12, 0.3))
def test_gaussian_epsilon_against_scipy_root(sigma: float, delta: float) -> None:
    cert = gaussian_epsilon(sigma=sigma, delta=delta)
    assert cert.holds

    def curve(e: float) -> float:
        return float(norm.sf(e * sigma - 0.5 / sigma)
                     - math.exp(e) * norm.sf(e * sigma + 0.5 / sigma))

    if curve(0) <= delta:
        assert cert.value == 0
        return
    rho = 1 / (2 * sigma**2)
    top = rho + 2 * math.sqrt(rho * math.log(1 / delta))     # BS16: curve(top) <= delta
    ref = brentq(lambda e: math.log(curve(e)) - math.log(delta), 0, top, xtol=1e-14)
    assert abs(float(cert.value) - ref) <= 1e-7 * (1 + ref)


@covers("BW18:Thm8-rho", "BW18:Thm8-rho-eps")
@pytest.mark.parametrize("row", ANCHORS_31, ids=[f"{r[0]}-{r[1]}" for r in ANCHORS_31])
def test_gaussian_rho_matches_anchors(row: tuple[str, ...]) -> None:
    rho, delta, _, _, _, gauss = row
    cert = gaussian_epsilon_rho(rho=rho, delta=delta)
    assert cert.holds and _close(cert.value, gauss)
    with mp.workdps(50):
        assert abs(gaussian_delta_rho(rho=rho, eps=cert.value) / mp.mpf(delta) - 1) < 1e-30


@covers("BW18:Thm8-rho", "BW18:Thm8")
@pytest.mark.parametrize("sigma", ["0.5", "2", "7"])
def test_rho_and_sigma_forms_agree(sigma: str) -> None:
    """sigma rational gives rational rho = 1/(2 sigma^2): both enclosures must intersect."""
    rho = 1 / (2 * mp.mpf(sigma) ** 2)
    from fractions import Fraction
    rho_q = 1 / (2 * Fraction(sigma) ** 2)
    a = certified(gaussian_delta, sigma=sigma, eps="1.5")
    b = certified(gaussian_delta_rho, rho=rho_q, eps="1.5")
    assert a.lo <= b.hi and b.lo <= a.hi and rho > 0


@covers("BS16:Prop1.4", "MIR17:RR-renyi")
@settings(max_examples=40)
@given(eps=st.floats(0, 10), alpha=st.floats(1.001, 200))
def test_pure_dp_is_half_eps_squared_zcdp(eps: float, alpha: float) -> None:
    """zCDP definition: D_alpha <= alpha rho for every alpha, checked on RR (the worst case)."""
    d = certified(rr_renyi, eps=eps, alpha=alpha)
    rho = certified(puredp_to_zcdp, eps=eps)
    assert d.hi <= alpha * rho.hi * (1 + mp.mpf(10) ** -40) + mp.mpf(10) ** -60
    assert d.hi <= eps + mp.mpf(10) ** -40        # and RDP never exceeds the max divergence


@covers("MIR17:RR-renyi")
@settings(max_examples=40)
@given(eps=st.floats(1e-3, 20), alpha=st.floats(1.01, 50))
def test_rr_renyi_by_two_point_sum(eps: float, alpha: float) -> None:
    with mp.workdps(80):
        e, a = mp.mpf(eps), mp.mpf(alpha)
        p = mp.exp(e) / (1 + mp.exp(e))
        q = 1 - p
        direct = mp.log(p**a * q ** (1 - a) + q**a * p ** (1 - a)) / (a - 1)
    assert abs(rr_renyi(eps=eps, alpha=alpha) - direct) <= mp.mpf(10) ** -40 * (1 + direct)


@covers("MIR17:RR-renyi")
def test_rr_renyi_limits() -> None:
    """alpha -> 1 gives KL = eps tanh(eps/2); alpha -> infinity gives eps; increasing in alpha."""
    with mp.workdps(50):
        eps = mp.mpf("0.7")
        near_one = rr_renyi(eps="0.7", alpha="1.000000000000000000001")
        assert abs(near_one - eps * mp.tanh(eps / 2)) < mp.mpf(10) ** -18
        assert abs(rr_renyi(eps="0.7", alpha=10**12) - eps) < mp.mpf(10) ** -11
    values = [rr_renyi(eps="0.7", alpha=a) for a in ("1.5", "2", "4", "16")]
    assert values == sorted(values)
