"""Regression: D_alpha(P || P) is exactly 0 (it was a rounding error of either sign).

The masses' defect ``sum(P) - 1`` was summed from rounded masses; it is now computed exactly
from the exact inputs, so the divergence of a law from itself is 0 at every order.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from mpmath import mp

from reference import certified
from reference.results import covers
from reference.results.privacy_loss.rswr23 import renyi

# The first two gave -6.7e-52 at alpha = 3 before the fix (found by random search).
LAWS = [[Fraction(w, 1552) for w in (820, 334, 88, 310)],
        [Fraction(w, 921) for w in (259, 652, 10)],
        ["1/3", "1/3", "1/3"], ["0.1", "0.7", "0.2"], [Fraction(1, 7)] * 7,
        ["1e-300", "0.5", str(Fraction(1, 2) - Fraction(1, 10**300))]]


@covers("RSWR23:Renyi")
@pytest.mark.parametrize("P", LAWS)
@pytest.mark.parametrize("alpha", [1, "1.000000000001", 2, 3, "7.5"])
def test_divergence_from_itself_is_zero(P: list[object], alpha: object) -> None:
    assert renyi(P=P, Q=P, alpha=alpha) == 0
    enc = certified(renyi, P=P, Q=P, alpha=alpha)
    assert enc.lo <= 0 <= enc.hi


@covers("RSWR23:Renyi")
def test_float_masses_keep_their_exact_defect() -> None:
    """Binary floats summing to 1 - 2^-53: D(P||P) = log(sum P)/(alpha - 1), not 0."""
    P = [0.1, 0.2, 0.7]
    defect = sum((Fraction(p) for p in P), Fraction(0)) - 1
    assert defect != 0
    with mp.workdps(60):
        expected = mp.log1p(mp.mpf(defect.numerator) / defect.denominator) / 2
    got = renyi(P=P, Q=P, alpha=3)
    assert abs(got - expected) <= abs(expected) * mp.mpf(10) ** -45
    enc = certified(renyi, P=P, Q=P, alpha=3)
    assert enc.lo <= expected <= enc.hi
