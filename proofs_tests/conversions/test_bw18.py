"""Property tests of the exact Gaussian privacy curve (BW18 Thm 8 and its rho forms).

Expected numbers come from independent routes: the anchors report (§3.1), scipy's
normal CDF and root finding, and mpmath quadrature of the hockey-stick divergence.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp
from scipy.optimize import brentq
from scipy.stats import norm

from proofs_tests.conversions_support import ANCHORS_31, close
from proofs_tests.profiles import share
from reference import DomainError, certified, precision
from reference.core.numeric import Interval
from reference.results import covers
from reference.results.conversions.bw18 import (
    gaussian_delta,
    gaussian_delta_rho,
    gaussian_epsilon,
    gaussian_epsilon_rho,
)


@covers("BW18:Thm8")
@settings(max_examples=share(Fraction(2, 3)))
@given(sigma=st.floats(0.2, 20), eps=st.floats(-8, 8), sens=st.floats(0.1, 5))
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


# ---- eps < 0: the curve is the hockey-stick divergence at every real eps ----------------


def loss_integral(mu: mpmath.mpf, eps: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``delta = E[(1 - e^(eps - L))_+]`` and ``1 - delta = E[min(1, e^(eps - L))]`` by
    quadrature over the privacy loss ``L ~ N(mu^2/2, mu^2)`` (no closed form of Q used).

    The second integral keeps its relative accuracy where ``delta`` is close to 1."""
    m, s = mu * mu / 2, mu
    cuts = sorted({eps, *(c for c in (m - 12 * s, m - 3 * s, m, m + 3 * s, m + 12 * s)
                          if c > eps)})
    delta = mp.quad(lambda x: -mp.expm1(eps - x) * mp.npdf(x, m, s), [*cuts, mp.inf])
    below = mp.ncdf((eps - m) / s)
    # e^eps E[e^-L; L > eps] = e^eps Q(L' > eps) with L' ~ N(-m, s^2) (the other law).
    above = mp.exp(eps) * mp.quad(lambda x: mp.exp(-x) * mp.npdf(x, m, s), [*cuts, mp.inf])
    return delta, below + above


NEGATIVE = [("1", "-0.5"), ("1", "-3"), ("2", "-1e-3"), ("1/2", "-1"), ("1e-6", "-1e-6"),
            ("1e-6", "-3e-6"), ("50", "-20"), ("1", "-20"), ("1", "-50"), ("1/10", "-50")]


@covers("BW18:Thm8")
@pytest.mark.parametrize(("mu", "eps"), NEGATIVE)
def test_gaussian_curve_below_zero_is_the_loss_integral(mu: str, eps: str) -> None:
    """At 80 digits: delta and 1 - delta both match the quadrature (the second one down
    to e^eps ~ 2e-22, where the 50-digit value of delta would hide it), two-sidedly."""
    sigma = 1 / Fraction(mu)
    with mp.workdps(100):
        ref, comp = loss_integral(mp.mpf(Fraction(mu).numerator) / Fraction(mu).denominator,
                                  mp.mpf(eps))
    enc = certified(gaussian_delta, sigma=sigma, eps=eps)
    with mp.workdps(100):
        tol = mp.mpf(10) ** -45 * ref
        assert enc.lo - tol <= ref <= enc.hi + tol
        assert enc.hi - enc.lo <= tol
        assert enc.lo >= -mp.expm1(mp.mpf(eps)) - tol  # delta >= 1 - e^eps below 0
    with precision(80):
        enc80 = certified(gaussian_delta, sigma=sigma, eps=eps)
        rel = abs(gaussian_delta(sigma=sigma, eps=eps) - ref) / ref
    with mp.workdps(100):
        assert rel <= mp.mpf(10) ** -60
        tol = mp.mpf(10) ** -40 * comp
        assert 1 - enc80.hi - tol <= comp <= 1 - enc80.lo + tol
        assert enc80.hi - enc80.lo <= mp.mpf(10) ** -75


@covers("BW18:Thm8")
@pytest.mark.parametrize(("sigma", "eps"), [("1", "-0.5"), ("0.5", "-3"), ("3", "-0.1")])
def test_gaussian_curve_below_zero_is_the_hockey_stick_integral(sigma: str, eps: str) -> None:
    """The x-space route of the test above eps = 0: int (p - e^eps q)_+ over x < 1/2 - s^2 eps."""
    with mp.workdps(40):
        s, e = mp.mpf(sigma), mp.mpf(eps)
        cut = mp.mpf(1) / 2 - s * s * e
        value = mp.quad(lambda x: mp.npdf(x, 0, s) - mp.exp(e) * mp.npdf(x, 1, s),
                        [-mp.inf, 0, 1, cut])
    enc = certified(gaussian_delta, sigma=sigma, eps=eps)
    with mp.workdps(60):
        assert enc.lo - mp.mpf(10) ** -30 <= value <= enc.hi + mp.mpf(10) ** -30


@covers("BW18:Thm8", "BW18:Thm8-rho")
@settings(max_examples=share(Fraction(1, 3)))
@given(sigma=st.fractions(Fraction(1, 10), 10, max_denominator=64),
       neg=st.fractions(-30, 0, max_denominator=64), pos=st.fractions(0, 30, max_denominator=64))
def test_gaussian_curve_non_increasing_across_zero(sigma: Fraction, neg: Fraction,
                                                   pos: Fraction) -> None:
    at_neg = certified(gaussian_delta, sigma=sigma, eps=neg)
    at_zero = certified(gaussian_delta, sigma=sigma, eps=0)
    at_pos = certified(gaussian_delta, sigma=sigma, eps=pos)
    assert at_pos.lo <= at_zero.hi and at_zero.lo <= at_neg.hi
    with mp.workdps(60):
        assert -mp.expm1(mp.mpf(neg.numerator) / neg.denominator) <= at_neg.hi
        assert _at_most_one(at_neg, balls=True)
    rho = 1 / (2 * sigma**2)
    if rho >= Fraction(1, 10**16):
        b = certified(gaussian_delta_rho, rho=rho, eps=neg)
        assert at_neg.lo <= b.hi and b.lo <= at_neg.hi


def _at_most_one(enc: Interval, balls: bool) -> bool:
    """The enclosure is cut at 1: exactly in ``iv``; on Arb's balls up to the rounding of
    a ball's radius to 30 bits (a part in 2^29 of its width)."""
    return bool(enc.hi <= (1 + (enc.hi - enc.lo) / 2**29 if balls else 1))


@covers("BW18:Thm8")
@pytest.mark.parametrize("balls", [True, False], ids=["balls", "iv"])
@pytest.mark.parametrize("sigma", ["1e-8", "1", "1e8"])
@pytest.mark.parametrize("eps", ["-1e12", "-1e6", "-1e-30"])
def test_gaussian_curve_extremes_below_zero(sigma: str, eps: str, balls: bool) -> None:
    """The ends of the domain evaluate, with narrow enclosures between 1 - e^eps and 1, in
    both evaluators."""
    assert gaussian_delta.balls
    enc = dataclasses.replace(gaussian_delta, balls=balls).certified(sigma=sigma, eps=eps)
    point = gaussian_delta(sigma=sigma, eps=eps)
    with mp.workdps(80):
        slack = mp.mpf(10) ** -45 * enc.hi
        assert enc.lo - slack <= point <= enc.hi + slack and 0 < enc.lo
        assert _at_most_one(enc, balls)
        assert enc.hi - enc.lo <= slack
        assert enc.hi >= -mp.expm1(mp.mpf(eps))


@covers("BW18:Thm8", "BW18:Thm8-rho")
@pytest.mark.parametrize("eps", ["-1000000000001", float("nan"), float("-inf"), "inf"])
def test_gaussian_curve_outside_the_domain(eps: object) -> None:
    with pytest.raises(DomainError) as err:
        gaussian_delta(sigma=1, eps=eps)
    assert err.value.param == "eps"
    with pytest.raises(DomainError):
        gaussian_delta_rho(rho=1, eps=eps)


@covers("BW18:Thm8-eps", "BW18:Thm8-rho-eps")
@pytest.mark.parametrize("delta", ["0.5", "0.9"])
def test_inverses_range_over_nonnegative_eps(delta: str) -> None:
    """delta(0) = 0.3829 < delta: the curve reaches delta at some eps < 0, but the inverses
    are min{eps >= 0 : delta(eps) <= target}, so 0 with the bracket [0, 0]."""
    assert gaussian_delta(sigma=1, eps=-5) > mp.mpf(delta)  # a negative solution exists
    for cert in (gaussian_epsilon(sigma=1, delta=delta),
                 gaussian_epsilon_rho(rho="0.5", delta=delta)):
        assert cert.holds and cert.value == cert.lo == cert.hi == 0
