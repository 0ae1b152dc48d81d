"""Property tests of the exact Gaussian privacy curve (BW18 Thm 8 and its rho forms).

Expected numbers come from independent routes: the anchors report (§3.1), scipy's
normal CDF and root finding, and mpmath quadrature of the hockey-stick divergence.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp
from scipy.optimize import brentq
from scipy.stats import norm

from proofs_tests.conversions_support import ANCHORS_31, close
from proofs_tests.profiles import share
from reference import certified
from reference.results import covers
from reference.results.conversions.bw18 import (
    gaussian_delta,
    gaussian_delta_rho,
    gaussian_epsilon,
    gaussian_epsilon_rho,
)


@covers("BW18:Thm8")
@settings(max_examples=share(Fraction(2, 3)))
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
@settings(max_examples=share(Fraction(1, 3)))
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
    assert cert.holds and close(cert.value, gauss)
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
