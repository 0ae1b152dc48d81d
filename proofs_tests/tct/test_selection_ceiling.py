"""CL23:ThmI.1's number of calls m' = ceil(ln(1/delta)/ln(1 + e^-2eps)) is decided exactly.

Found by the thorough Hypothesis profile: at eps = 1.147e-143, delta = 2^-1074 the ratio is
1074 + 1e-140 and the enclosure of m' was [1074, 1075] (exact: 1075).  Expected values here
come from python-flint at 3000 bits (the ceiling of a ball that decides it) and, at
eps = 0, from integer arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import BrokenBalls, arb_q, frac
from reference.results import covers
from reference.results.tct.selection import top_one


def _flint_m(eps: Fraction, delta: Fraction) -> int | None:
    old = flint.ctx.prec
    flint.ctx.prec = 3000
    try:
        ratio = (1 / arb_q(delta)).log() / (1 + (-2 * arb_q(eps)).exp()).log()
        lo, hi = ratio.lower(), ratio.upper()
        a, b = math.ceil(Fraction(*_q(lo))), math.ceil(Fraction(*_q(hi)))
        return a if a == b else None
    finally:
        flint.ctx.prec = old


def _q(x: flint.arb) -> tuple[int, int]:
    man, exp = x.mid().man_exp()
    q = Fraction(int(man)) * Fraction(2) ** int(exp)
    return q.numerator, q.denominator


def _check(eps: Fraction, delta: Fraction, m: int) -> None:
    bound = top_one.certified(eps=eps, delta=delta)
    assert frac(bound.m.lo) == frac(bound.m.hi) == m
    assert frac(top_one(eps=eps, delta=delta).m) == m
    exact_eps = 2 * eps * m
    assert frac(bound.eps.lo) <= exact_eps <= frac(bound.eps.hi)


@covers("CL23:ThmI.1")
def test_the_thorough_profile_example() -> None:
    _check(Fraction(1.1470613000855157e-143), Fraction(5e-324), 1075)
    _check(Fraction(0), Fraction(5e-324), 1074)       # exactly log2(1/delta) = 1074
    _check(Fraction(0), Fraction(1, 3), 2)
    # a ratio near 5e19, above 2^53: its ceiling must not be rounded
    eps, delta = Fraction(19.71101592670168), Fraction(4.580424541016698e-180)
    m = _flint_m(eps, delta)
    assert m is not None and m > 2**64
    _check(eps, delta, m)


@covers("CL23:ThmI.1")
@given(st.integers(1, 1074), st.integers(-400, 0), st.booleans())
def test_m_is_the_exact_ceiling_next_to_powers_of_two(n: int, e: int, zero: bool) -> None:
    """delta = 2^-n makes the ratio an integer at eps = 0 and an integer plus about
    2 eps n / ln 2 for tiny eps: the ceiling's hardest inputs."""
    delta = Fraction(1, 2**n)
    eps = Fraction(0) if zero else Fraction(2) ** (e - 60)
    if zero:
        _check(eps, delta, n)
    else:
        m = _flint_m(eps, delta)
        assert m is not None
        _check(eps, delta, m)
        assert m == n + 1 if eps * n < Fraction(1, 4) else m >= n


@covers("CL23:ThmI.1")
@given(st.one_of(st.fractions(Fraction(70), Fraction(88), max_denominator=1000),
                st.fractions(Fraction(20), Fraction(120), max_denominator=1000)),
       st.sampled_from([Fraction(1, 10**300), Fraction(1, 3), Fraction(5e-324),
                        Fraction(1, 10**6)]))
def test_ratios_too_large_to_decide_keep_an_enclosure_of_the_ceiling(eps: Fraction,
                                                                    delta: Fraction) -> None:
    """Ratios up to about 2^350; for eps in [70, 88] between 2^203 and 2^267, where the
    enclosure at the working precision (203 bits at the default 50 digits) spans many
    integers but is still small enough to convert exactly: deciding against the ceiling of
    its lower end would give a wrong m'.  The enclosure of m' must contain the exact
    ceiling (flint at 3000 bits) and the plain value must be within its rounding of it."""
    m = _flint_m(eps, delta)
    assert m is not None
    bound = top_one.certified(eps=eps, delta=delta)
    assert frac(bound.m.lo) <= m <= frac(bound.m.hi)
    assert frac(bound.m.hi) - frac(bound.m.lo) <= m * Fraction(1, 2**150)
    assert frac(bound.eps.lo) <= 2 * eps * m <= frac(bound.eps.hi)
    plain = frac(top_one(eps=eps, delta=delta).m)
    assert abs(plain - m) <= m * Fraction(1, 2**50)


def _eps_for_ratio(M: int, up: bool) -> Fraction:
    """An eps (600 bits) with ln 2/ln(1 + e^-2eps) within about 1e-135 of the integer M, on
    the side ``up`` says: the inverse at 700 bits, rounded (the ratio falls as eps falls)."""
    with mpmath.workprec(700):
        eps = -mpmath.log(mpmath.expm1(mpmath.log(2) / M)) / 2
        scaled = eps * 2**600
        return Fraction(int(mpmath.ceil(scaled) if up else mpmath.floor(scaled)), 2**600)


@covers("CL23:ThmI.1")
@pytest.mark.parametrize("up", [False, True])
def test_a_ratio_next_to_an_integer_near_2_to_150_is_decided(up: bool) -> None:
    """The ratio 2^150 + 12345 -+ 1e-135: its enclosure at the working precision (about 200
    bits) straddles the integer, below the 2^(prec + 64) limit under which the ceiling is
    decided exactly (digits doubled), so m' is exact: 2^150 + 12345 from below, one more
    from above (flint at 3000 bits agrees)."""
    M = 2**150 + 12345
    eps, delta = _eps_for_ratio(M, up), Fraction(1, 2)
    m = _flint_m(eps, delta)
    assert m == (M + 1 if up else M)
    _check(eps, delta, m)


@covers("CL23:ThmI.1")
def test_where_arb_fails_iv_decides_the_same_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ratio's enclosure and the decision run on Arb's balls; with every use of the balls
    failing, mpmath's iv gives the same m' (the thorough profile's example and a ratio next
    to an integer near 2^150, both sides)."""
    from reference.core import fastballs

    cases = [(Fraction(1.1470613000855157e-143), Fraction(5e-324), 1075)]
    for up in (False, True):
        M = 2**150 + 12345
        cases.append((_eps_for_ratio(M, up), Fraction(1, 2), M + 1 if up else M))
    monkeypatch.setattr(fastballs, "FAST", BrokenBalls())   # every use of the balls
    for eps, delta, m in cases:
        _check(eps, delta, m)
