"""The integer coefficients of KOV15 Theorem 3.3's sums, and the float walk to the root's piece.

:func:`kov15_sums._ratios` computes ``c_j = C(k, j) / C(k, top)`` times ``2^shift`` rounded
down step by step; :func:`kov15_sums._poly` evaluates the integer polynomial and, in an
interval context, widens it by the rounding's bound. Independent routes: exact binomials
(``math.comb``) and ``Fraction`` arithmetic for the coefficients and the polynomial at
rational points; every term summed in arb for the float walk's piece.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_q, frac
from proofs_tests.composition.test_kov15_sums_window import spy_ratios
from reference.core.fastballs import FAST
from reference.core.numeric import endpoints, to_ctx, working
from reference.results import covers
from reference.results.composition import kov15_sums
from reference.results.composition.kov15 import _prepare, optimal_epsilon
from reference.results.composition.kov15_sums import Coefficients

F = Fraction


@st.composite
def windows(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """``k, top, low, high, shift`` with ``low <= top <= high <= (k-1)/2``."""
    k = draw(st.integers(3, 3000))
    high = draw(st.integers(0, (k - 1) // 2))
    top = draw(st.integers(0, high))
    low = draw(st.integers(0, top))
    return k, top, low, high, draw(st.integers(1, 400))


@covers("KOV15:Thm3.3-delta")
@given(windows(), st.sampled_from([mp, iv, FAST]))
def test_each_coefficient_is_the_exact_ratio_rounded_down_within_its_bound(
        window: tuple[int, int, int, int, int], ctx: object) -> None:
    """``X - n (1 + X 2^-shift) <= C <= X``, ``X = 2^shift C(k, j) / C(k, top)`` exactly, ``n``
    the longer side; in every context the same integers (``fmpz`` on balls)."""
    k, top, low, high, shift = window
    with working(ctx):
        coeffs = kov15_sums._ratios(ctx, k, top, low, high, shift)
    assert len(coeffs) == high - low + 1
    steps = max(top - low, high - top)
    for c, j in zip(coeffs, range(high, low - 1, -1), strict=True):
        exact = F(math.comb(k, j) * 2**shift, math.comb(k, top))
        assert exact - steps * (1 + exact / 2**shift) <= int(c) <= exact
        if j == top:
            assert int(c) == 2**shift


def test_each_step_rounds_down_exactly() -> None:
    """A case small enough to do by hand: k = 11, top = 3, shift = 4: going up
    ``16 * 8 // 4 = 32``, ``32 * 7 // 5 = 44``; going down ``16 * 3 // 9 = 5``,
    ``5 * 2 // 10 = 1``, ``1 * 1 // 11 = 0`` (the floor at each step, not of the exact
    ratio: ``16 C(11, 1) / C(11, 3) = 1.07``, ``16 C(11, 0) / C(11, 3) = 0.097``)."""
    for ctx in (mp, FAST):
        with working(ctx):
            assert [int(c) for c in kov15_sums._ratios(ctx, 11, 3, 0, 5, 4)] \
                == [44, 32, 16, 5, 1, 0]


def test_a_window_past_half_of_k_is_refused() -> None:
    with pytest.raises(ValueError, match="above"):
        kov15_sums._ratios(mp, 10, 3, 0, 5, 4)  # (k-1)/2 = 4.5 for k = 10: 5 is above
    with working(mp):
        kov15_sums._ratios(mp, 11, 3, 0, 5, 4)  # 5 <= (11-1)/2


@covers("KOV15:Thm3.3-delta")
@given(windows(), st.fractions(F(1, 1000), F(3), max_denominator=1000),
       st.sampled_from([iv, FAST]))
def test_the_polynomial_holds_the_exact_sum_tightly(
        window: tuple[int, int, int, int, int], x: Fraction, ctx: object) -> None:
    """``sum_j c_j x^(high-j)`` with the exact ratios, at a rational ``x``, inside the
    enclosure from the rounded integers, which is at most ``(n + 2) 2^(4 - prec)`` wide
    relative for ``n + 1`` terms (the rounding's widening is below ``2^-(prec+6)`` by the
    shift of ``_coefficients``; the rest is the evaluation's own rounding)."""
    k, top, low, high, _ = window
    exact = sum(F(math.comb(k, j), math.comb(k, top)) * x ** (high - j)
                for j in range(low, high + 1))
    with working(ctx):
        coef = kov15_sums._coefficients(ctx, k, top, low, high)
        (value,) = kov15_sums._poly(ctx, coef, to_ctx(ctx, x))
        enc = endpoints(value)
        lo, hi = frac(enc.lo), frac(enc.hi)
        assert lo <= exact <= hi
        assert hi - lo <= exact * (high - low + 2) / 2 ** (ctx.prec - 4)


def test_the_widening_is_needed_and_named() -> None:
    """Integers rounded down hold less than the sum (the widening by ``1 + 4 n 2^-t`` is
    what puts it inside); coefficients too short for their steps are refused rather than
    given a bound that does not hold."""
    k, top, low, high, shift = 2001, 1000, 700, 1000, 60
    exact = sum(F(math.comb(k, j), math.comb(k, top)) for j in range(low, high + 1))
    with working(FAST):
        coeffs = kov15_sums._ratios(FAST, k, top, low, high, shift)
        assert F(sum(int(c) for c in coeffs), 2**shift) < exact
        with pytest.raises(ArithmeticError, match="steps"):
            kov15_sums._poly(FAST, Coefficients(coeffs, shift, top - low), FAST.one)
        coef = kov15_sums._coefficients(FAST, k, top, low, high)
        assert coef.steps == top - low
        (value,) = kov15_sums._poly(FAST, coef, FAST.one)
        enc = endpoints(value)
        assert frac(enc.lo) <= exact <= frac(enc.hi)


def _arb_d(eps: Fraction, k: int, m: int) -> Fraction:
    """An upper end of ``D_m = sum_{j<=m} w_j (1 - e^(-2(m-j) eps))`` summed over every term
    in arb at 400 bits, the weights from ``w_0 = p^k`` by their exact ratios ``(k-j)
    e^-eps / (j+1)`` (every term positive; ``test_kov15_outward._arb_piece`` sums the same
    with an exact binomial and powers per term, minutes at k = 30000)."""
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        e = arb_q(eps)
        w, shrink, total = (1 / (1 + (-e).exp())) ** k, (-e).exp(), flint.arb(0)
        for j in range(m + 1):
            total += w * -(-2 * (m - j) * e).expm1()
            w = w * (k - j) * shrink / (j + 1)
        return total
    finally:
        flint.ctx.prec = old


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("eps", "k", "target"), [
    (F(1, 100), 30000, F(1, 10**6)),    # a long walk: about 500 pieces
    (F(1, 10), 20000, F(1, 10**8)),
    (F(3), 3000, F(1, 10**9)),
    (F(5), 10**5, F(1, 10**6)),
    (F(2), 20000, F(1, 10**9)),
    (F(300), 40, F(1, 10**30)),         # the weights fall by e^-300 a piece
    (F(800), 30, F(1, 10**300)),
    (F(1, 10), 7, F(1, 10**3)),         # odd k: the last piece's factor is 1 - e^-eps
])
def test_the_walk_finds_the_root_s_piece(eps: Fraction, k: int, target: Fraction) -> None:
    """``D_m < t <= D_(m+1)`` (every term in arb) for the piece found."""
    with mp.workdps(30):
        m = kov15_sums.float_piece(k, to_ctx(mp, eps), to_ctx(mp, target))
    last = (k + 1) // 2 - 1
    assert 0 <= m <= last
    assert _arb_d(eps, k, m) < arb_q(target)
    if m < last:
        assert arb_q(target) <= _arb_d(eps, k, m + 1)


def test_flint_integers_on_balls() -> None:
    with working(FAST):
        assert isinstance(kov15_sums._ratios(FAST, 10, 3, 0, 4, 4)[0], flint.fmpz)
    with working(mp):
        assert type(kov15_sums._ratios(mp, 10, 3, 0, 4, 4)[0]) is int


@pytest.mark.parametrize("eps", [F(1, 10**320), F(10**-311), F(1, 2**1074)])
def test_the_walk_takes_a_subnormal_eps(eps: Fraction) -> None:
    """An eps whose float is subnormal (or 0): the walk's floats stay finite (a block
    length of ``700 / x`` once overflowed there), and the inverse returns its certificate."""
    with mp.workdps(30):
        kov15_sums.float_piece(3, to_ctx(mp, eps), to_ctx(mp, F(1, 2)))
    cert = optimal_epsilon(eps=eps, k=1, delta_g=F(1, 2))
    assert cert.holds


@covers("KOV15:Thm3.3-delta")
@given(st.fractions(0, 50, max_denominator=10**6), st.integers(1, 10**7),
       st.fractions(0, 10**4, max_denominator=2**300))
def test_the_last_piece_in_integers_is_the_ceiling_of_the_rationals(
        eps: Fraction, k: int, eps_g: Fraction) -> None:
    """``optimal_delta``'s hook finds the last positive term ``ceil((k eps - eps_g) / (2
    eps)) - 1`` and its gap ``(k - 2 last) eps - eps_g`` in integers: the same as in
    ``Fraction`` arithmetic (-1 and ``-eps_g`` at eps = 0), the gap in ``(0, 2 eps]``."""
    got = _prepare({"eps": eps, "k": k, "eps_g": eps_g, "delta": F(0)}, "test")
    last = math.ceil((k * eps - eps_g) / (2 * eps)) - 1 if eps > 0 else -1
    assert got["last"] == last
    assert got["last_gap"] == (k - 2 * last) * eps - eps_g
    if eps > 0:
        assert 0 < got["last_gap"] <= 2 * eps


@pytest.mark.parametrize(("k", "top", "low", "high"), [
    (10**4, 4755, 4088, 4755),      # the bench's window: down only
    (4000, 1700, 1500, 1999),       # both sides
    (400, 19, 0, 190),              # up only, far
    (301, 150, 150, 150),           # one term
])
def test_the_least_coefficient_gets_its_bits(monkeypatch: pytest.MonkeyPatch, k: int, top: int,
                                             low: int, high: int) -> None:
    """``C_low`` (``C_top`` when ``low = top``) has at least ``prec + bits(n + 1) + 8`` bits
    (``n`` the longer side), from the float estimate of ``log2(1 / c_low)`` in one call."""
    calls = spy_ratios(monkeypatch)
    n = max(top - low, high - top)
    with working(FAST):
        coef = kov15_sums._coefficients(FAST, k, top, low, high)
        goal = FAST.prec + (n + 1).bit_length() + 8
    assert len(calls) == 1 and coef.steps == n
    assert int(coef.ints[-1]).bit_length() - 1 >= goal
    assert int(coef.ints[high - top]) == 2**coef.shift


def test_a_short_estimate_is_made_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the estimate of ``log2(1 / c_low)`` taken as 0 (every ``lgamma`` 0), the first
    shift leaves ``C_low`` short (at 222 bits the floors leave little of it); each further
    call adds the bits missing, until ``C_low`` has at least its ``prec + bits(n + 1) + 8``
    bits, and not more than two beyond."""
    k, top, low, high = 4000, 1700, 1300, 1700
    calls: list[int] = []
    real = kov15_sums._ratios

    def spy(ctx: object, k: int, top: int, low: int, high: int, shift: int) -> list[object]:
        calls.append(shift)
        return real(ctx, k, top, low, high, shift)

    monkeypatch.setattr(kov15_sums, "_ratios", spy)
    monkeypatch.setattr(kov15_sums.math, "lgamma", lambda v: 0.0)
    with working(FAST):
        coef = kov15_sums._coefficients(FAST, k, top, low, high)
        goal = FAST.prec + (top - low + 1).bit_length() + 8
    assert len(calls) >= 2 and calls[0] == goal + 2 and calls[-1] == coef.shift
    assert calls == sorted(set(calls))
    assert goal <= int(coef.ints[-1]).bit_length() - 1 <= goal + 2


def test_the_widening_holds_what_the_floors_lost() -> None:
    """At a precision where Arb adds nothing (an exact point, integers far shorter than
    the precision), the enclosure of the least coefficient alone, ``C_low 2^-shift [1,
    1 + 4 n 2^-t]``, holds the exact ``c_low`` (which the floors put above ``C_low 2^-shift``;
    near k/2 each step loses about half a unit); the guard refuses ``4 n > 2^(t-1)``
    exactly."""
    k, top, low, high, shift = 2001, 1000, 800, 1000, 120
    with working(FAST):
        c_low = kov15_sums._ratios(FAST, k, top, low, high, shift)[-1]
        exact = F(math.comb(k, low), math.comb(k, top))
        assert F(int(c_low), 2**shift) < exact
        old = FAST.prec
        FAST.prec = 4000
        try:
            (value,) = kov15_sums._poly(FAST, Coefficients([c_low], shift, top - low),
                                        FAST.one)
            lo, hi = frac(endpoints(value).lo), frac(endpoints(value).hi)
            t = int(c_low).bit_length() - 1
            assert lo <= exact <= hi
            assert hi - lo <= F(int(c_low), 2**shift) * 5 * (top - low) / 2**t  # 4 n 2^-t
            (value,) = kov15_sums._poly(FAST, Coefficients([2**10], 0, 2**7),  # 4 n = 2^(t-1)
                                        FAST.one)
            assert 2**10 + 2**7 * 4 <= frac(endpoints(value).hi) <= 2**10 + 2**7 * 4 + 1
            with pytest.raises(ArithmeticError):
                kov15_sums._poly(FAST, Coefficients([2**10], 0, 2**7 + 1), FAST.one)
        finally:
            FAST.prec = old


@pytest.mark.parametrize("side", [-1, 1])
@pytest.mark.parametrize(("eps", "k", "m"), [
    (F(1, 100), 30000, None),   # after a walk of about 500 pieces from a negligible start
    (F(1), 50, 0),              # from w_0 itself (the first piece is not negligible)
])
def test_the_walk_is_exact_next_to_a_piece_s_end(side: int, eps: Fraction, k: int,
                                                  m: int | None) -> None:
    """A target a part in 10^9 above or below ``D_(m+1)`` (every term in arb): the piece on
    the right side of that end (at m = 0 the walk's sums start from nothing: a start weight
    more in ``D`` or ``T`` would take piece 0 for the target above ``D_1``)."""
    if m is None:
        with mp.workdps(30):
            m = kov15_sums.float_piece(k, to_ctx(mp, eps), to_ctx(mp, F(1, 10**6)))
    end = frac(endpoints(_arb_d(eps, k, m + 1)).mid)     # D_(m+1) to 400 bits
    target = end * (1 + side * F(1, 10**9))
    with mp.workdps(30):
        got = kov15_sums.float_piece(k, to_ctx(mp, eps), to_ctx(mp, target))
    assert got == (m + 1 if side > 0 else m)
