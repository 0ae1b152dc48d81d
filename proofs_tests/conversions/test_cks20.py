"""Property tests of the CKS20 zCDP -> DP conversion (CKS20 Cor 13 and its order).

Expected numbers come from independent routes: the published library numbers of the
anchors report (§3.1, computed there with mpmath at 50 digits and several libraries) and
direct minimisation of the CKS20 objective over a grid of orders.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.conversions_support import ANCHORS_31, close
from proofs_tests.profiles import share
from reference import certified
from reference.results import covers
from reference.results.conversions.bw18 import (
    gaussian_delta_rho,
    gaussian_epsilon_rho,
)
from reference.results.conversions.cks20 import cks_delta, cks_epsilon, cks_order
from reference.results.conversions.rswr23 import zcdp_to_dp

rhos = st.floats(min_value=1e-4, max_value=50)
deltas = st.floats(min_value=1e-30, max_value=0.5)


def _grid_min_cks(rho: float, delta: float) -> float:
    """Independent route: the CKS20 objective minimised over a dense grid of orders."""
    a = np.concatenate([1 + np.geomspace(1e-6, 1e6, 200_000)])
    vals = a * rho + np.log1p(-1 / a) - (math.log(delta) + np.log(a)) / (a - 1)
    return max(0.0, float(vals.min()))


@covers("CKS20:Cor13", "RSWR23:Lem2.3")
@pytest.mark.parametrize("row", ANCHORS_31, ids=[f"{r[0]}-{r[1]}" for r in ANCHORS_31])
def test_cks_and_bs16_match_the_anchor_numbers(row: tuple[str, ...]) -> None:
    rho, delta, bs16, cks, _, _ = row
    assert close(cks_epsilon(rho=rho, delta=delta), cks)
    assert close(zcdp_to_dp(rho=rho, delta=delta), bs16)


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
@settings(max_examples=share(Fraction(2, 3)))
@given(rho=rhos, delta=deltas)
def test_cks_equals_grid_minimum(rho: float, delta: float) -> None:
    value = float(cks_epsilon(rho=rho, delta=delta))
    grid = _grid_min_cks(rho, delta)
    assert value <= grid + 1e-9 * (1 + grid)       # no order does better than a*
    assert grid <= value + 1e-4 * (1 + value)       # the grid comes close to it


@covers("CKS20:Cor13", "RSWR23:Lem2.3", "BW18:Thm8-rho-eps")
@settings(max_examples=share(Fraction(1, 2)))
@given(rho=rhos, delta=st.floats(min_value=1e-20, max_value=0.1))
def test_bs16_above_cks20_above_gaussian(rho: float, delta: float) -> None:
    """BS16 >= CKS20 >= exact Gaussian eps (the Gaussian is rho-zCDP), as enclosures."""
    bs16 = certified(zcdp_to_dp, rho=rho, delta=delta)
    cks = certified(cks_epsilon, rho=rho, delta=delta)
    gauss = gaussian_epsilon_rho(rho=rho, delta=delta)
    assert cks.hi <= bs16.lo
    assert gauss.hi <= cks.lo


@covers("CKS20:Cor13-delta")
@settings(max_examples=share(Fraction(5, 12)))
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


# ---- accuracy of the delta form near 1 and at the extremes ---------------------------------
# Independent route: the paper's objective ln delta_a = (a-1)(a rho - eps) + a ln(1 - 1/a)
# - ln(a-1) rewritten in s = ln(a-1) (with t = a-1: a ln(t/a) - ln t = t ln t - (1+t) ln(1+t),
# so no two terms of size rho cancel outside a factor t), minimised by golden-section search
# over s at 200 digits after a dense scan; no root finding and no use of the optimality
# condition. The value is then compared with the certified enclosure computed at 50 digits.

_REF_DPS = 200


def _ref_log_delta(rho: str, eps: str) -> mpmath.mpf:
    """``inf_a ln delta_a`` at 200 digits: dense scan over ``s = ln(a-1)`` then golden section."""
    with mp.workdps(_REF_DPS + 20):
        r, e = mp.mpf(rho), mp.mpf(eps)

        def objective(s: mpmath.mpf) -> mpmath.mpf:
            t = mp.exp(s)
            return t * ((1 + t) * r - e + s) - (1 + t) * mp.log1p(t)

        lo = -(3 * r + e + 10)
        hi = mp.log((e + 1) / r + 1) + 10
        n = 4000
        grid = [lo + (hi - lo) * k / n for k in range(n + 1)]
        vals = [objective(s) for s in grid]
        k = min(range(n + 1), key=lambda i: vals[i])
        a, b = grid[max(k - 1, 0)], grid[min(k + 1, n)]
        g = (mp.sqrt(5) - 1) / 2
        c, d = b - g * (b - a), a + g * (b - a)
        fc, fd = objective(c), objective(d)
        while b - a > mp.mpf(10) ** -(_REF_DPS // 2 + 10) * (1 + abs(a)):
            if fc < fd:
                b, d, fd = d, c, fc
                c = b - g * (b - a)
                fc = objective(c)
            else:
                a, c, fc = c, d, fd
                d = a + g * (b - a)
                fd = objective(d)
        best = min(fc, fd, vals[k])
        assert best <= vals[k]  # the refinement never ends above the scan's best point
        return +best


#: (rho, eps): delta within e^-4900 and e^-900 of 1 (the reported defect), eps = 0, eps tiny,
#: rho huge, rho tiny (delta ~ e^-250000; and a* - 1 ~ 7e149 at rho = 1e-300, eps = 0,
#: where ln(1 - 1/a) must not round to 0), eps huge, and moderate values on both sides of 1/2.
_EXTREMES = [("5000", "100"), ("1000", "100"), ("50", "0"), ("1000000", "5"),
             ("0.5", "1e-9"), ("0.000001", "1"), ("1e-300", "0"), ("1e-20", "1e20"),
             ("1", "7.766216625"), ("10", "9.5"), ("3", "1"), ("0.01", "30")]


def _exact(x: object) -> Fraction:
    from reference.core.numeric import exact
    return exact(x, "x", "test")


@covers("CKS20:Cor13-delta")
@pytest.mark.parametrize(("rho", "eps"), _EXTREMES, ids=[f"{r}-{e}" for r, e in _EXTREMES])
def test_cks_delta_enclosure_is_tight_and_contains_the_independent_value(rho: str,
                                                                          eps: str) -> None:
    """Two-sided: the enclosure contains the 200-digit value of delta and of 1 - delta, and is
    narrow: relative width at most 10^-40 of delta, and of 1 - delta wherever 1 - delta is
    large enough (>= 10^-20) to be resolved by an endpoint of 60 digits.  (Comparisons of
    mpf numbers are exact; differences near 1 are taken exactly, as Fractions.)"""
    enc = certified(cks_delta, rho=rho, eps=eps)
    point = cks_delta(rho=rho, eps=eps)
    log_ref = _ref_log_delta(rho, eps)
    with mp.workdps(_REF_DPS):
        delta_ref = mp.exp(log_ref)
        comp_ref = -mp.expm1(log_ref)                     # 1 - delta, to 200 digits relative
        slack = mp.mpf(10) ** -(_REF_DPS - 20)
        # delta in [lo, hi], with a relative slack far below the enclosure's width (the
        # reference is good to ~190 digits)
        assert enc.lo <= delta_ref * (1 + slack) and delta_ref * (1 - slack) <= enc.hi
        assert enc.hi - enc.lo <= mp.mpf(10) ** -40 * delta_ref
        # the plain value (rounded to 50 digits) agrees with the enclosure
        assert enc.lo * (1 - mp.mpf(10) ** -48) <= point <= enc.hi * (1 + mp.mpf(10) ** -48)
        if delta_ref >= 0.5:
            lo, hi = _exact(enc.lo), _exact(enc.hi)
            # 1 - delta in [1 - hi, 1 - lo]
            assert 1 - hi <= _exact(comp_ref * (1 + slack))
            assert _exact(comp_ref * (1 - slack)) <= 1 - lo
            if comp_ref >= mp.mpf(10) ** -20:
                assert hi - lo <= Fraction(1, 10**40) * _exact(comp_ref)


@covers("CKS20:Cor13-delta")
@pytest.mark.parametrize(("rho", "eps", "dps"), [("1000", "100", 460), ("5000", "100", 2200)])
def test_cks_delta_complement_resolves_when_precision_is_raised(rho: str, eps: str,
                                                                dps: int) -> None:
    """Escalating the precision (as :func:`reference.core.decide.decide` does) resolves
    1 - delta ~ e^(eps - rho) to relative width 10^-40, pinned two-sidedly by the
    independent value."""
    from reference import precision
    with precision(dps):
        enc = certified(cks_delta, rho=rho, eps=eps)
    lo, hi = _exact(enc.lo), _exact(enc.hi)
    with mp.workdps(_REF_DPS):
        comp_ref = -mp.expm1(_ref_log_delta(rho, eps))
        slack = mp.mpf(10) ** -(_REF_DPS - 20)
        c_lo, c_hi = 1 - hi, 1 - lo
        assert c_lo <= _exact(comp_ref * (1 + slack))
        assert _exact(comp_ref * (1 - slack)) <= c_hi
        assert c_hi - c_lo <= Fraction(1, 10**40) * _exact(comp_ref)


_NEAR_ONE = 1 - Fraction(1, 10**300)
_NEAR_EDGES = [(Fraction(10**15), _NEAR_ONE), (Fraction(1), _NEAR_ONE),
               (Fraction(5e-324), Fraction(5e-324)), (Fraction(10**15), Fraction(5e-324)),
               (Fraction(5e-324), 1 - Fraction(1, 10**15))]


def _bisect_log(f: object, lo: mpmath.mpf, hi: mpmath.mpf) -> mpmath.mpf:
    """Root of an increasing ``f`` in ``[lo, hi]`` (0 < lo, sign change), bisection in log t
    at the current precision."""
    for _ in range(10 * mp.prec):
        mid = mp.sqrt(lo * hi)
        if f(mid) < 0:  # type: ignore[operator]
            lo = mid
        else:
            hi = mid
        if hi / lo - 1 < mp.mpf(2) ** (10 - mp.prec):
            break
    return (lo + hi) / 2


@covers("CKS20:Cor13", "CKS20:Cor13-order")
@pytest.mark.parametrize(("rho", "delta"), _NEAR_EDGES)
def test_cks_epsilon_next_to_the_domain_edges(rho: Fraction, delta: Fraction) -> None:
    """delta = 1 - 1e-300 was a RuntimeError (delta rounded to 1, ln(1/delta) to 0), and at
    rho = delta = 5e-324 ln(t/a) rounded to 0 (plain value wrong in the 3rd digit).
    Reference: the root of (a-1)^2 rho + ln a = ln(1/delta) by mpmath's findroot and the
    CKS20 objective evaluated there, at 600 digits (its worst cancellation is 300 digits).
    The root lies in [L/(2 + 2 sqrt(1 + 4 rho L)), max(1, L/rho)] (L = ln(1/delta))."""
    eps = cks_epsilon(rho=rho, delta=delta)
    enc = cks_epsilon.certified(rho=rho, delta=delta)
    order = cks_order(rho=rho, delta=delta)
    enc_order = cks_order.certified(rho=rho, delta=delta)
    with mp.workdps(600):
        r, d = mp.mpf(rho.numerator) / rho.denominator, mp.mpf(delta.numerator) / delta.denominator
        ell = -mp.log(d)
        t = _bisect_log(lambda s: s * s * r + mp.log1p(s) - ell,
                        ell / (2 + 2 * mp.sqrt(1 + 4 * r * ell)), max(mp.one, ell / r))
        a = 1 + t
        ref = max(a * r + mp.log(t / a) - (mp.log(d) + mp.log(a)) / t, mp.zero)
        tol = mp.mpf(10) ** -45
        assert enc.lo <= ref <= enc.hi and enc.hi - enc.lo <= tol * ref
        assert abs(eps - ref) <= mp.mpf(10) ** -48 * ref
        assert enc_order.lo <= a <= enc_order.hi and enc_order.hi - enc_order.lo <= tol * a
        assert abs(order - a) <= mp.mpf(10) ** -48 * a
