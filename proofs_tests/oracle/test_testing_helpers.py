"""Tests of reference.oracle.testing (assertions for other libraries) and the added strategies.

Each assertion is checked on both sides: a value it must accept and a deliberately wrong
value it must reject (with the margin in the message), so none of these tests can pass
with an assertion that accepts everything or rejects everything.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings

from proofs_tests.profiles import share
from reference.core.decide import Verdict
from reference.core.numeric import exact
from reference.oracle.strategies import deltas, epsilon_lists, epsilons, params_for, rhos
from reference.oracle.testing import (
    assert_close_to,
    assert_sound_lower_bound,
    assert_sound_upper_bound,
    compare,
    enclosure,
)

#: CKS20 at (rho = 1.3527, delta = 1e-6) rounded to a double: mpmath alone gives 9.265762734
#: and OpenDP returns 9.265762733744117 (the conformance report); these tests exercise the
#: assertion helpers around it, the value itself is tested in
#: proofs_tests/conversions/test_cks20.py.
CKS = 9.265762733744108


def test_upper_bound_accepts_above_and_rejects_below() -> None:
    assert_sound_upper_bound(CKS + 1e-12, "CKS20:Cor13", rho="1.3527", delta="1e-6")
    assert_sound_upper_bound(math.inf, "CKS20:Cor13", rho="1.3527", delta="1e-6")
    with pytest.raises(AssertionError, match=r"not a sound upper bound, short by 0\.26"):
        assert_sound_upper_bound(9, "CKS20:Cor13", rho="1.3527", delta="1e-6")
    # a few ulps below the exact value is caught: the float is compared exactly
    with pytest.raises(AssertionError, match="not a sound upper bound"):
        assert_sound_upper_bound(math.nextafter(CKS - 1e-14, 0), "CKS20:Cor13",
                                 rho="1.3527", delta="1e-6")


def test_lower_bound_accepts_below_and_rejects_above() -> None:
    assert_sound_lower_bound(8.7, "BW18:Thm8-rho-eps", rho="1.3527", delta="1e-6")
    with pytest.raises(AssertionError, match=r"not a sound lower bound, over by 0\.0967"):
        assert_sound_lower_bound(8.8, "BW18:Thm8-rho-eps", rho="1.3527", delta="1e-6")


def test_close_to_both_directions() -> None:
    assert_close_to(0.100325876, "KOV15:Thm3.5", eps=["0.001"] * 500, delta_tilde="1e-6",
                    rel=1e-8)
    with pytest.raises(AssertionError, match="relative"):
        assert_close_to(0.1004, "KOV15:Thm3.5", eps=["0.001"] * 500, delta_tilde="1e-6",
                        rel=1e-8)
    with pytest.raises(AssertionError, match="not within"):
        assert_close_to(0.1002, "KOV15:Thm3.5", eps=["0.001"] * 500, delta_tilde="1e-6",
                        rel=1e-8)
    assert_close_to(1e-6, "KOV15:Thm3.5", eps=["0.1"], delta_tilde="1e-6", output="delta",
                    rel=1e-12)


def test_exact_equality_is_reported_undecided() -> None:
    """0.005 is exactly eps^2/2 at eps = 0.1; an enclosure cannot certify >= it."""
    with pytest.raises(AssertionError, match="undecided at 400 digits"):
        assert_sound_upper_bound(Fraction(1, 200), "BS16:Prop1.4", eps="0.1")
    assert compare(Fraction(1, 200), "BS16:Prop1.4", eps="0.1").upper_verdict() == "undecided"


def test_bad_library_values() -> None:
    with pytest.raises(AssertionError, match="NaN"):
        assert_sound_upper_bound(float("nan"), "BS16:Prop1.4", eps=1)
    with pytest.raises(AssertionError, match="not a real number"):
        assert_sound_upper_bound("abc", "BS16:Prop1.4", eps=1)
    with pytest.raises(AssertionError):
        assert_sound_upper_bound(-math.inf, "BS16:Prop1.4", eps=1)


def test_compare_reports_relative_excess() -> None:
    cmp = compare("0.08", "KOV15:Thm3.3", eps="0.001", k=500, delta_g="1e-6", delta=0)
    assert cmp.upper_verdict() is Verdict.HOLDS
    assert cmp.relative_excess is not None
    # Independently computed: KOV grid 0.08 vs exact 0.0797888542
    assert abs(cmp.relative_excess - (0.08 / 0.0797888542 - 1)) < 1e-9
    enc = enclosure("KOV15:Thm3.5", eps=["0.1", "0.2"], delta_tilde="0.01", output="delta")
    assert exact(enc.lo, "lo", "t") <= Fraction(1, 100) <= exact(enc.hi, "hi", "t")


@settings(max_examples=share(Fraction(1, 2)))
@given(eps=epsilons(), rho=rhos(), delta=deltas(), lst=epsilon_lists())
def test_strategies_draw_valid_parameters(eps: float, rho: float, delta: float,
                                          lst: list[float]) -> None:
    assert 0 < eps <= 10 and 0 < rho <= 20 and 0 < delta < 1
    assert 1 <= len(lst) and len(set(lst)) <= 3


@settings(max_examples=share(Fraction(1, 6)))
@given(params=params_for("MV16:Thm1.5-delta"))
def test_params_for_gives_valid_inputs(params: dict[str, object]) -> None:
    from reference import DomainError, get

    try:
        get("MV16:Thm1.5-delta")(**params)
    except DomainError as err:   # a cross-parameter condition (lengths) only
        assert "must have as many entries" in str(err)
