"""The numeric contract: exact conversion of inputs (reference.core.numeric.exact)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference import DomainError
from reference.core.numeric import exact


@pytest.mark.parametrize(("x", "q"), [
    (mpmath.mpf(-0.5), Fraction(-1, 2)),          # mpmath 1.3's man_exp drops the sign
    (mpmath.mpf("-3"), Fraction(-3)),
    (-mpmath.mpf(2) ** -1100, -Fraction(1, 2**1100)),
    (mpmath.mpf(0), Fraction(0)),
    (-0.0, Fraction(0)),
    (5e-324, Fraction(1, 2**1074)),                # the smallest subnormal double
    (-1.7976931348623157e308, -Fraction(int(1.7976931348623157e308))),
    ("0.1", Fraction(1, 10)),
    (Decimal("-2.5"), Fraction(-5, 2)),
])
def test_exact_values(x: object, q: Fraction) -> None:
    assert exact(x, "x", "test") == q


@given(st.fractions(max_denominator=10**30), st.integers(10, 400))
def test_mpf_round_trip_with_sign(q: Fraction, bits: int) -> None:
    """exact(mpf) is the binary number the mpf holds: both signs, any precision."""
    with mpmath.workprec(bits):
        x = mpmath.mpf(q.numerator) / q.denominator
    got = exact(x, "x", "test")
    assert (got < 0) == (x < 0) and (got == 0) == (x == 0)
    with mpmath.workprec(bits + 10):
        assert mpmath.mpf(got.numerator) / got.denominator == x


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_is_its_binary_value(f: float) -> None:
    assert exact(f, "x", "test") == Fraction(f)
    assert exact(mpmath.mpf(f), "x", "test") == Fraction(f)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), mpmath.inf, -mpmath.inf, None,
                                 True, "abc", Decimal("NaN")])
def test_non_finite_or_non_numbers_are_domain_errors(bad: object) -> None:
    with pytest.raises(DomainError):
        exact(bad, "x", "test")
