"""``Q(x) = P[N(0, 1) > x]`` on the fast evaluator's balls (:class:`FastBalls.normal_sf`):
Arb's ``erfc`` of the ball itself, or, where that ball is not as accurate as the argument
allows (``|x| > 65536``, a widened ball), ``Q`` at the two exact ends by the rigorous point
route of :mod:`reference.core.special`.  Expected values: mpmath's ``erfc`` at four times
the precision plus 64 bits, at the exact ends of the argument (``Q`` decreases, so ``Q`` of
a ball ``[a, b]`` is ``[Q(b), Q(a)]``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core import fastballs, special
from reference.core.fastballs import FAST, ends
from reference.core.numeric import endpoints
from reference.core.special import normal_sf

TWO = Fraction(2)
PRECS = st.sampled_from([53, 100, 200])
#: Centres from the far left tail to the far right one (Q ~ 1e-300 at 37, 1e-9e10 at 4e5,
#: past Arb's reach at 65536), tiny magnitudes around 0, and 0.
CENTRES = st.one_of(st.fractions(-40, 40, max_denominator=10**6),
                    st.integers(1, 1000).map(lambda k: TWO**-k),
                    st.integers(1, 1000).map(lambda k: -(TWO**-k)),
                    st.integers(38, 10**6).map(Fraction), st.just(Fraction(0)))
#: Radii relative to the centre (0: a point; 2^-k: a ball from a rounded computation).
RADII = st.one_of(st.just(0), st.integers(20, 400))



def _ball(centre: Fraction, k: int) -> Any:
    """The ball around ``centre`` (rounded to a binary number of 2^-k relative radius, or
    exact for ``k = 0``)."""
    mid = flint.arb(flint.fmpq(centre.numerator, centre.denominator)).mid()
    if k == 0:
        return mid
    rad = abs(centre) * TWO**-k if centre else TWO**-k
    return flint.arb(mid, flint.arb(flint.fmpq(rad.numerator, rad.denominator)))


def _mp(q: Fraction) -> Any:
    return mp.mpf(q.numerator) / q.denominator


def exact_q(x: Any, prec: int) -> Any:
    """``Q(x)`` at an exact ``mp`` point, from mpmath at ``4 prec + 64`` bits (an ``mp``
    number, not a Fraction: ``Q(10^6)`` has an exponent of -7e11 bits)."""
    with mp.workprec(4 * prec + 64):
        return mp.erfc(x / mp.sqrt(2)) / 2


def _q_of_ball(centre: Fraction, k: int, prec: int) -> tuple[Any, Any, Any]:
    """``Q`` of the ball on the fast evaluator, and the exact ``Q`` at its two ends."""
    flint.ctx.prec = prec
    x = _ball(centre, k)
    span = ends(x)
    return ends(normal_sf(FAST, x)), exact_q(span.hi, prec), exact_q(span.lo, prec)


@given(PRECS, CENTRES, RADII)
@example(prec=200, centre=Fraction(60000), k=0)       # Arb's route
@example(prec=200, centre=Fraction(65537), k=0)       # the series
@example(prec=53, centre=Fraction(-30), k=20)
@example(prec=53, centre=Fraction(17125), k=31)       # Arb's ball was 5x the range here
@example(prec=100, centre=Fraction(17125), k=50)      # and 6x here
@example(prec=53, centre=Fraction(1424), k=20)        # and reached below 0 here
@example(prec=100, centre=Fraction(0), k=30)          # a ball around 0: Q' = -phi(0) there
def test_balls_enclose_q_over_the_ball_and_are_tight(prec: int, centre: Fraction,
                                                      k: int) -> None:
    """The ball holds ``[Q(hi), Q(lo)]`` and is at most 16 times as wide (Arb's image of a
    ball argument measured up to 6 times; the parity the balls contract asks of every
    result) plus ``(1 + x^2) 2^(12 - prec)`` relative, the rounding of a point at the
    working precision times ``Q``'s condition number."""
    got, q_hi, q_lo = _q_of_ball(centre, k, prec)
    assert got.lo <= q_hi and q_lo <= got.hi, (centre, k, prec)
    with mp.workprec(4 * prec + 64):
        rounding = (1 + _mp(centre) ** 2) * mp.ldexp(1, 12 - prec)
        assert got.hi - got.lo <= 16 * (q_lo - q_hi) + q_lo * rounding, (centre, k, prec)


ARB, SERIES, FAR = "arb", "series", "far"


@pytest.mark.parametrize(("centre", "k", "route"), [
    (Fraction(3, 2), 0, ARB), (Fraction(-37), 0, ARB), (Fraction(60000), 0, ARB),
    (Fraction(-65536), 0, ARB), (Fraction(65535), 0, SERIES), (Fraction(65536), 0, SERIES),
    # the argument's own accuracy, at 200 bits: the first ball that allows 16 bits
    # (acc(x) - 2 size - 2, size 1 and 7) and the last that allows 15; a wide argument
    (Fraction(3, 2), 21, ARB), (Fraction(3, 2), 20, SERIES), (Fraction(100), 33, ARB),
    (Fraction(100), 32, SERIES), (Fraction(17125), 31, SERIES), (Fraction(1000), 150, ARB),
    # below |x| = 1 the radius against 1 counts (Q' = -phi, at most 0.4): a ball around 0
    # (sqrt(2)/2 - sqrt(2)/2, BW18's example) or 2^-40 known to 2^-50 allows 27 and 47 bits;
    # 1/2 known to 2^-18 (relatively 2^-17) allows 14 (Arb's estimate of 1/2 +- 2^-18: 16)
    (Fraction(0), 30, ARB), (TWO**-40, 10, ARB), (Fraction(1, 2), 17, SERIES),
    (Fraction(1, 2), 19, ARB),
    # beyond |x| = 65536: the Mills ratio's series on the ball, both tails; the series at
    # the ends where that ball is not positive (x^2/2 known only to +-2000 here)
    (65536 + TWO**-30, 0, FAR), (Fraction(65537), 0, FAR), (Fraction(10**12), 0, FAR),
    (Fraction(-10**6), 60, FAR), (Fraction(-65537), 0, FAR), (Fraction(10**6), 30, SERIES)])
def test_each_route_where_documented(centre: Fraction, k: int, route: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Arb's erfc of the ball well inside |x| <= 65536 (measured: up to 60000 on the right,
    at 53, 200 and 700 bits; at 65535 its ball is less accurate than asked), and for every
    left-tail argument (Q near 1), where the argument allows 16 bits; beyond 65536 the
    Mills ratio's series on the ball; the point series at the two ends otherwise.  All
    enclose: the route is speed and tightness only."""
    calls: dict[str, list[Any]] = {SERIES: [], FAR: []}
    point, far = special._sf_point, fastballs._far_tail

    def counted(t: Any) -> Any:
        calls[SERIES].append(t)
        return point(t)

    def counted_far(t: Any) -> Any:
        calls[FAR].append(t)
        return far(t)

    monkeypatch.setattr(special, "_sf_point", counted)
    monkeypatch.setattr(fastballs, "_far_tail", counted_far)
    got, q_hi, q_lo = _q_of_ball(centre, k, 200)
    assert got.lo <= q_hi and q_lo <= got.hi
    final = SERIES if calls[SERIES] else FAR if calls[FAR] else ARB   # the one answering
    assert final == route, calls


def _far_q(x: Fraction, prec: int) -> Any:
    """``Q(x)`` from mpmath's ``erfc`` for ``|x| > 65536``: it loses about ``2 log2 x`` bits
    more than its working precision there (measured at ``x = 2^200``: 1e-84 relative at 678
    bits), so it runs at ``4 prec + 6 log2 x + 128`` bits and is checked against twice that."""
    size = abs(x).numerator.bit_length()
    wp = 4 * prec + 6 * size + 128
    values = []
    for bits in (wp, 2 * wp):
        with mp.workprec(bits):
            values.append(mp.erfc(_mp(x) / mp.sqrt(2)) / 2)
    with mp.workprec(2 * wp):
        assert abs(values[0] - values[1]) <= values[1] * mp.ldexp(1, -(2 * prec + 2 * size + 64))
    return values[1]


def test_far_tail_is_tight_where_the_argument_is_exact() -> None:
    """Beyond 65536 at an exact argument the ball is narrower than one unit in the last
    place at the working precision, for ``Q`` from ``1e-9e8`` down to ``10^(-2e299)`` and
    near 1.  The non-integers (rounded to ``prec`` bits) need the guard bits: ``x^2/2`` is
    not exact at the working precision, and ``exp`` multiplies its error by ``x^2/2``."""
    for prec in (53, 200, 600):
        flint.ctx.prec = prec
        for x in (Fraction(65537), Fraction(10**5), Fraction(7 * 10**7), TWO**200,
                  Fraction(3 * 10**150), Fraction(-10**9), Fraction(655361, 10),
                  Fraction(-70710678118654, 10**7), Fraction(10**12, 3)):
            point = _ball(x, 0)          # x rounded to prec bits: the argument
            got = ends(normal_sf(FAST, point))
            want = _far_q(frac(ends(point).lo), prec)
            with mp.workprec(16 * prec):
                assert got.lo <= want <= got.hi, (prec, x)
                assert got.hi - got.lo <= want * mp.ldexp(1, -prec), (prec, x)


def test_the_two_routes_agree() -> None:
    """At x = 40 with a radius of 2^-100 (an argument known to 100 bits) Arb's ball of Q is
    taken; the ends' route on the same ball gives an overlapping enclosure of a width
    within 4x of it."""
    flint.ctx.prec = iv.prec = 200
    x = _ball(Fraction(40), 100)
    fast = normal_sf(FAST, x)
    slow = FAST.mpf((endpoints(special._sf_point(ends(x).hi)).lo,
                     endpoints(special._sf_point(ends(x).lo)).hi))
    a, b, c, d = (frac(e) for x in (fast, slow) for e in (ends(x).lo, ends(x).hi))
    assert max(a, c) <= min(b, d)
    assert b - a <= 4 * (d - c) and d - c <= 4 * (b - a)
