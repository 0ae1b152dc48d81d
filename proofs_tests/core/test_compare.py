"""``numeric.compare``: the exact sign of ``x - q``, read off the exponents when far apart."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.numeric import compare, exact

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
