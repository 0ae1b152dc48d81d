"""``numeric.compare``: the exact sign of ``x - q``, read off the exponents when far apart."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.numeric import binary_order, compare, exact

mantissas = st.integers(-(2**120), 2**120)
exponents = st.integers(-5000, 5000)


@given(mantissas, exponents, st.integers(-(10**40), 10**40), st.integers(1, 10**40),
       st.integers(-5000, 5000), st.sampled_from([0, 1, -1]))
def test_compare_is_the_exact_sign(man: int, e: int, n: int, d: int, shift: int,
                                   near: int) -> None:
    x = mp.make_mpf(mp.mpf(man)._mpf_) * mp.mpf(2) ** e if man else mp.zero
    q = Fraction(n, d) * Fraction(2) ** shift
    if near:  # q within one part in 2^300 of x: only the exact route can tell
        q = exact(x, "x", "test") * (1 + Fraction(near, 2**300)) + Fraction(near, 2**9000)
    gap = exact(x, "x", "test") - q
    assert compare(x, q) == (gap > 0) - (gap < 0)


def test_compare_reads_huge_magnitudes_from_exponents() -> None:
    with mp.workprec(60):
        huge = mp.exp(10**12)   # exact() of it would be an integer of 1.4e12 bits
    assert compare(huge, Fraction(10**300)) == 1
    assert compare(-huge, Fraction(-(10**300))) == -1
    assert compare(1 / huge, Fraction(1, 10**300)) == -1
    assert compare(mp.zero, Fraction(0)) == 0
    assert compare(mp.mpf(-1), Fraction(0)) == -1
    assert compare(mp.mpf(1), Fraction(-1)) == 1


@given(st.integers(-(10**60), 10**60).filter(bool), st.integers(1, 10**60))
def test_binary_order_brackets_the_magnitude(n: int, d: int) -> None:
    """The docstring's contract, checked in exact rationals: 2^(k-2) < |q| < 2^k."""
    q = Fraction(n, d)
    k = binary_order(q)
    assert Fraction(2) ** (k - 2) < abs(q) < Fraction(2) ** k


def test_binary_order_at_powers_of_two_and_zero() -> None:
    # |q| = 2^j: numerator bits j + 1 (or 1), denominator bits 1 (or 1 - j): k = j + 1,
    # the only integer with 2^(k-2) < 2^j < 2^k
    for j in range(-70, 71):
        assert binary_order(Fraction(2) ** j) == j + 1 == binary_order(-Fraction(2) ** j)
    assert binary_order(0) == 0 == binary_order(Fraction(0))
    assert binary_order(1) == 1 and binary_order(Fraction(3, 2)) == 1   # 1/2 < 3/2 < 2
