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
