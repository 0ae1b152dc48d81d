"""RSWR23 divergences off the comfortable domain: eps < 0, alpha = inf, huge and near-1 orders.

Second routes are exact rational arithmetic and python-flint arb (split from test_rswr23.py).
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends as _arb_ends
from proofs_tests.privacy_loss_support import TOL, at60, mpq, pairs
from reference.core.numeric import exact
from reference.results import covers
from reference.results.privacy_loss.rswr23 import hockey_stick, renyi

# ---- eps < 0 (hockey-stick) and alpha = inf (Rényi): exact second routes ----------------


def exp_bracket(x: Fraction, terms: int = 120) -> tuple[Fraction, Fraction]:
    """Rational ``lo <= e^x <= hi`` from the Taylor series of ``e^|x|`` (no mpmath).

    ``S_N = sum_{k <= N} y^k/k!`` is below ``e^y`` (y >= 0) and the tail is at most twice the
    next term once ``N + 2 > 2y``; ``e^-y`` is bracketed by the reciprocals.
    """
    y = abs(x)
    assert terms + 2 > 2 * y
    total, term = Fraction(0), Fraction(1)
    for k in range(terms + 1):
        total += term
        term = term * y / (k + 1)
    lo, hi = total, total + 2 * term
    return (lo, hi) if x >= 0 else (1 / hi, 1 / lo)


def rational_delta(P: list[Fraction], Q: list[Fraction], w: Fraction) -> Fraction:
    """``sum (p - w q)_+`` exactly, for a rational ``w``: non-increasing in ``w``."""
    return sum((max(Fraction(0), p - w * q) for p, q in zip(P, Q, strict=True)), Fraction(0))


@covers("RSWR23:Def2.1")
@given(pairs(), st.fractions(-8, 0, max_denominator=64))
@at60
def test_hockey_stick_negative_eps_against_exact_rationals(
        pq: tuple[list[Fraction], list[Fraction]], eps: Fraction) -> None:
    """The exact value lies in [D(w_hi), D(w_lo)] for a rational bracket of w = e^eps:
    the enclosure must meet that bracket and be as narrow as it is (two-sided)."""
    P, Q = pq
    w_lo, w_hi = exp_bracket(eps)
    assert w_hi - w_lo < Fraction(1, 10**80)
    d_hi, d_lo = rational_delta(P, Q, w_lo), rational_delta(P, Q, w_hi)
    enc = hockey_stick.certified(P=P, Q=Q, eps=eps)
    with mp.workdps(100):
        assert enc.lo <= mpq(d_hi) and mpq(d_lo) <= enc.hi
        assert enc.hi - enc.lo <= mpmath.mpf("1e-50")
    # Below 0 the worst event is never worse than everything: delta >= 1 - e^eps.
    assert d_hi >= 1 - w_lo
    assert abs(hockey_stick(P=P, Q=Q, eps=eps) - mpq(d_lo)) <= TOL


@covers("RSWR23:Def2.1")
@pytest.mark.parametrize("r", [Fraction(3, 2), Fraction(10), Fraction(10**6), Fraction(10**40)])
def test_hockey_stick_at_minus_log_r(r: Fraction) -> None:
    """eps = -log r (given at 120 digits, so e^eps = 1/r up to 1e-110): delta is the rational
    sum (p - q/r)_+ to that accuracy, down to delta -> 1 for large r."""
    P = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(0)]
    Q = [Fraction(1, 8), Fraction(1, 8), Fraction(1, 4), Fraction(1, 2)]
    with mp.workdps(120):
        eps = -mp.log(mpq(r))
    exact = rational_delta(P, Q, 1 / r)
    enc = hockey_stick.certified(P=P, Q=Q, eps=eps)
    with mp.workdps(100):
        slack = mpmath.mpf("1e-100")
        assert enc.lo - slack <= mpq(exact) <= enc.hi + slack
        assert enc.hi - enc.lo <= mpmath.mpf("1e-50")


@covers("RSWR23:Def2.1")
@given(pairs(), st.fractions(-30, 0, max_denominator=16), st.fractions(0, 30,
                                                                       max_denominator=16))
@at60
def test_hockey_stick_non_increasing_across_zero(pq: tuple[list[Fraction], list[Fraction]],
                                                 neg: Fraction, pos: Fraction) -> None:
    P, Q = pq
    at_neg = hockey_stick.certified(P=P, Q=Q, eps=neg)
    at_zero = hockey_stick.certified(P=P, Q=Q, eps=0)
    at_pos = hockey_stick.certified(P=P, Q=Q, eps=pos)
    assert at_pos.lo <= at_zero.hi and at_zero.lo <= at_neg.hi
    assert at_neg.hi <= 1 + TOL


@covers("RSWR23:Def2.1")
@pytest.mark.parametrize("eps", ["-1e6", "-1e300", -(10**1000)])
def test_hockey_stick_far_below_zero_is_one(eps: object) -> None:
    """delta -> sum p = 1 as eps -> -inf (1 - e^eps <= delta <= 1)."""
    enc = hockey_stick.certified(P="0.5,0.25,0.25", Q="0.25,0.5,0.25", eps=eps)
    assert enc.lo <= 1 <= enc.hi and 1 - enc.lo <= mpmath.mpf("1e-50")


def d_inf_exact(P: list[Fraction], Q: list[Fraction]) -> Fraction | None:
    """max p/q over p > 0 as an exact rational (None for +inf)."""
    if any(p > 0 and q == 0 for p, q in zip(P, Q, strict=True)):
        return None
    return max(p / q for p, q in zip(P, Q, strict=True) if p > 0)


@covers("RSWR23:Renyi")
@given(pairs())
@at60
def test_renyi_order_inf_is_log_of_the_max_ratio(pq: tuple[list[Fraction],
                                                            list[Fraction]]) -> None:
    P, Q = pq
    ratio = d_inf_exact(P, Q)
    for alpha in (float("inf"), "inf", mp.inf, "+Infinity"):
        if ratio is None:
            assert renyi(P=P, Q=Q, alpha=alpha) == mp.inf
            assert renyi.certified(P=P, Q=Q, alpha=alpha).lo == mp.inf
            continue
        enc = renyi.certified(P=P, Q=Q, alpha=alpha)
        with mp.workdps(100):
            exact = mp.log(mpq(ratio))
            assert enc.lo <= exact <= enc.hi and enc.hi - enc.lo <= mpmath.mpf("1e-50")
        assert abs(renyi(P=P, Q=Q, alpha=alpha) - exact) <= TOL
    assert renyi(P=P, Q=P, alpha="inf") == 0


@covers("RSWR23:Renyi")
@given(pairs(), st.sampled_from([Fraction(10), Fraction(1000), Fraction(10**6)]),
       st.fractions(1, 10, max_denominator=16))
@at60
def test_renyi_increases_to_order_inf(pq: tuple[list[Fraction], list[Fraction]],
                                      alpha: Fraction, smaller: Fraction) -> None:
    """D_a <= D_inf and D_a >= D_inf + log(p*)/(a - 1), p* the P-mass at the max ratio:
    D_a -> D_inf as a -> inf, two-sidedly; also D_smaller <= D_a."""
    P, Q = pq
    d_a, d_inf = renyi(P=P, Q=Q, alpha=alpha), renyi(P=P, Q=Q, alpha="inf")
    assert renyi(P=P, Q=Q, alpha=smaller) <= d_a + TOL or d_a == mp.inf
    ratio = d_inf_exact(P, Q)
    if ratio is None:
        assert d_a == d_inf == mp.inf
        return
    p_star = max(p for p, q in zip(P, Q, strict=True) if p > 0 and p / q == ratio)
    assert d_a <= d_inf + TOL
    assert d_a >= d_inf + mp.log(mpq(p_star)) / mpq(alpha - 1) - TOL


def _pins(lo: Fraction, hi: Fraction, P: list[object], Q: list[object], alpha: object,
          rel: Fraction = Fraction(1, 10**45)) -> None:
    """The enclosure contains [lo, hi], is tight, and holds the plain value (up to its
    rounding to the working 50 digits)."""
    enc = renyi.certified(P=P, Q=Q, alpha=alpha)
    value = renyi(P=P, Q=Q, alpha=alpha)
    e_lo, e_hi, v = (mpq_exact(x) for x in (enc.lo, enc.hi, value))
    assert e_lo <= lo and hi <= e_hi
    assert e_hi - e_lo <= abs(hi) * rel
    slack = abs(hi) * Fraction(1, 10**48)
    assert e_lo - slack <= v <= e_hi + slack


def mpq_exact(x: object) -> Fraction:
    return exact(x, "x", "test")


TINY = Fraction(1, 10**300)


@covers("RSWR23:Renyi")
@pytest.mark.parametrize("alpha", [Fraction(10**300), Fraction(1.7976931348623157e308), "1e300"])
def test_renyi_huge_order_equal_laws_is_zero(alpha: object) -> None:
    """Was ComplexResult: P = Q with masses 1e-300 at alpha = 1e300; the losses are 0
    exactly, so D = 0 with the enclosure [0, 0]."""
    P = [TINY, 1 - 2 * TINY, TINY]
    assert renyi(P=P, Q=P, alpha=alpha) == 0
    enc = renyi.certified(P=P, Q=P, alpha=alpha)
    assert enc.lo == 0 and enc.hi == 0


@covers("RSWR23:Renyi")
def test_renyi_huge_order_tiny_mass_by_asymptotic() -> None:
    """P = (1/2, 1/2), Q = (1e-300, 1 - 1e-300), alpha = 1e300.  With a = alpha - 1,
    D = [alpha ln(1/2) + a ln(1/q1) + ln(1 + (q1/q2)^a)]/a
      = 300 ln 10 - ln 2 (1 + 1/a) + c,  0 < c < (q1/q2)^a / a < 10^-1000,
    evaluated in arb balls at 4000 bits."""
    flint = pytest.importorskip("flint")
    a = Fraction(10**300) - 1
    flint.ctx.prec = 4000
    try:
        ref = 300 * flint.arb(10).log() - flint.arb(2).log() * (1 + 1 / flint.arb(a.numerator))
        lo, hi = _arb_ends(ref)
    finally:
        flint.ctx.prec = 53
    _pins(lo, hi + Fraction(1, 10**1000), ["0.5", "0.5"], [TINY, 1 - TINY], "1e300")


@covers("RSWR23:Renyi")
@pytest.mark.parametrize("step", [TINY, Fraction(5e-324), Fraction(1, 10**15)])
def test_renyi_order_next_to_one_by_arb(step: Fraction) -> None:
    """alpha = 1 + step: the sum log(sum p^alpha q^(1-alpha))/(alpha - 1) in arb balls at
    8000 bits (it cancels about 1100 bits)."""
    flint = pytest.importorskip("flint")
    P, Q = [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]
    flint.ctx.prec = 8000
    try:
        a = 1 + flint.arb(flint.fmpq(step.numerator, step.denominator))
        total = sum((flint.arb(flint.fmpq(p.numerator, p.denominator)) ** a
                     * flint.arb(flint.fmpq(q.numerator, q.denominator)) ** (1 - a)
                     for p, q in zip(P, Q, strict=True)), flint.arb(0))
        lo, hi = _arb_ends(total.log() / (a - 1))
    finally:
        flint.ctx.prec = 53
    assert hi - lo <= lo * Fraction(1, 10**60)
    _pins(lo, hi, P, Q, 1 + step)
