"""The arb-ball context (:mod:`reference.core.fastballs`): conversions, ends, functions,
precision handling and decisions, each against an independent route (exact rationals, or
mpmath at twice the precision).
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_ends, frac
from reference.core import fastballs, numeric
from reference.core.fastballs import FAST, ends, normal_tail, rough_ends
from reference.core.numeric import (
    endpoints,
    exp,
    extra_bits,
    is_interval,
    pos_part,
    to_ctx,
    working,
)
from reference.core.special import normal_sf
from reference.results import get

F = Fraction

rationals = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**12)


def _ends(x: object) -> tuple[Fraction, Fraction]:
    e = endpoints(x)
    return frac(e.lo), frac(e.hi)


def test_is_an_interval_context_whose_numbers_have_ends() -> None:
    assert is_interval(FAST) and not is_interval(mp)
    with working(FAST):
        x = FAST.mpf(F(1, 3))
        lo, hi = _ends(x)
        assert lo < F(1, 3) < hi and hi - lo < F(1, 2 ** (FAST.prec - 2))
        assert endpoints(x) == ends(x)


@given(q=rationals)
def test_a_rational_is_enclosed_tightly(q: Fraction) -> None:
    with working(FAST):
        lo, hi = _ends(FAST.mpf(q))
        assert lo <= q <= hi
        assert hi - lo <= abs(q) * F(1, 2 ** (FAST.prec - 2))


def test_ints_and_binary_numbers_are_exact_at_any_precision() -> None:
    """A 300-bit integer and a 400-bit mpf stay exact at flint's 53 bits (``mp.mpf(x)``
    would have rounded the mpf to the current mp precision)."""
    big = 2**300 + 1
    with mp.workprec(400):
        fine = mp.mpf(1) + mp.ldexp(1, -399)
    old = flint.ctx.prec
    flint.ctx.prec = 53
    try:
        assert _ends(FAST.mpf(big)) == (big, big)
        for n in (-big, 2**5000 + 1, -(2**5000) - 1, 2**30, -(2**30), -7, 0):
            assert _ends(FAST.mpf(n)) == (n, n)
        assert _ends(FAST.mpf(fine)) == (frac(fine), frac(fine))
        assert _ends(FAST.mpf(mp.mpf(-3) / 4)) == (F(-3, 4), F(-3, 4))
        assert _ends(FAST.mpf(0.1)) == (F(0.1), F(0.1))      # a float: the double it holds
        assert _ends(FAST.mpf(5e-324)) == (F(5e-324), F(5e-324))
    finally:
        flint.ctx.prec = old


@given(a=rationals, b=rationals)
def test_a_pair_is_the_ball_around_its_midpoint(a: Fraction, b: Fraction) -> None:
    """``mpf((lo, hi))`` holds ``[lo, hi]``; only the radius is rounded (up, to 30 bits)."""
    lo, hi = min(a, b), max(a, b)
    with working(mp):
        ends_in = (mp.mpf(lo.numerator) / lo.denominator, mp.mpf(hi.numerator) / hi.denominator)
    x_lo, x_hi = frac(ends_in[0]), frac(ends_in[1])
    got_lo, got_hi = _ends(FAST.mpf(ends_in))
    assert got_lo <= x_lo and x_hi <= got_hi
    assert (got_hi - got_lo) - (x_hi - x_lo) <= (x_hi - x_lo) * F(1, 2**28)
    assert _ends(FAST.mpf((0, 0))) == (0, 0)
    lo3, hi5 = _ends(FAST.mpf((3, 5)))
    assert lo3 <= 3 and hi5 >= 5 and (hi5 - lo3) - 2 <= F(2, 2**28)


@pytest.mark.parametrize(("bad", "error"), [
    (True, TypeError), ("1", TypeError), (None, TypeError), (mp.inf, ValueError),
    (mp.nan, ValueError), (float("inf"), ValueError), ((2, 1), ValueError),
    ((0, mp.inf), ValueError)])
def test_what_is_not_a_number_is_refused(bad: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        FAST.mpf(bad)


def test_ends_are_exact_whatever_flint_precision_is_current() -> None:
    """The regression: ``lower()``/``upper()`` round to flint's current precision, and cut an
    enclosure of ``1 - c 2^-200`` computed at 400 bits to the nearest ``2^-203``."""
    with working(FAST):
        with extra_bits(FAST, 300):
            x = 1 - FAST.mpf(F(1, 3 * 2**200))
        lo, hi = _ends(x)                                    # read at about 200 bits
    exact = 1 - F(1, 3 * 2**200)
    assert lo <= exact <= hi and hi - lo < F(1, 2**450)
    for infinite in (flint.arb(0, "inf"), flint.arb(1) / 0):    # an infinite radius, nan
        wide = ends(infinite)
        assert (wide.lo, wide.hi) == (mp.ninf, mp.inf)


def test_ends_whose_exact_form_is_too_long_are_rounded_outward() -> None:
    """Ends ``mid -+ rad`` exact up to a gap of ``MAX_EXACT_SPAN = 2^16`` bits between their
    leading bits, rounded outward to that many bits beyond it (found: ``MV16:Thm1.5-delta``
    at ``eps = 1.8e308`` ended in mpmath's ``OverflowError: too many digits in integer``, its
    ball ``1 +- 2^-(2.6e308)``).  Pinned around 1 with Arb's radius for ``2^-k`` (rounded up
    by Arb to ``(2^29 + 1) 2^-(k + 29)``, read exactly): at ``k = 2^16`` the exact ends; at
    ``k = 2^16 + 1`` and ``10^18`` one unit of ``2^16`` bits below and above 1 (by hand);
    radius 1 around ``2^(10^18)``: ``2^(10^18)`` minus and plus one unit there."""
    span = fastballs.MAX_EXACT_SPAN
    assert span == 2**16
    exact_ball = flint.arb(1, flint.arb(2) ** -span)
    lo, hi = arb_ends(exact_ball)
    assert Fraction(2) ** -span < (hi - lo) / 2 < Fraction(2) ** (1 - span)   # the radius
    e = ends(exact_ball)
    assert (frac(e.lo), frac(e.hi)) == (lo, hi)
    with mp.workprec(4 * span):
        one, two = mp.mpf(1), mp.mpf(2)
        for k in (span + 1, 10**18):
            e = ends(flint.arb(1, flint.arb(2) ** -k))
            assert (e.lo, e.hi) == (1 - two**-span, 1 + two ** (1 - span)), k
        big = mp.ldexp(one, 10**18)
        e = ends(flint.arb(flint.arb(2) ** (10**18), 1))
        assert e.lo == big - mp.ldexp(one, 10**18 - span)
        assert e.hi == big + mp.ldexp(one, 10**18 + 1 - span)
    huge = 2**70000 + 1   # an exact ball (radius 0) of 70001 bits keeps them all
    assert (frac(ends(flint.arb(huge)).lo), frac(ends(flint.arb(huge)).hi)) == (huge, huge)
    out = get("MV16:Thm1.5-delta").certified(eps_g="0.0427", eps=[2.0**1023], delta=[0])
    # the exact value is 1 - e^(0.0427 - 2^1023) (one mechanism): the enclosure meets 1, narrowly
    lo, hi = frac(out.lo), frac(out.hi)
    assert 1 - Fraction(1, 2**150) < lo < 1 <= hi < 1 + Fraction(1, 2**150)


#: The derivative of each function, for the spread of a ball argument (``x f'(x)`` below).
_SLOPES = {"exp": mp.exp, "expm1": mp.exp, "log": lambda x: 1 / x,
           "log1p": lambda x: 1 / (1 + x), "sqrt": lambda x: 1 / (2 * mp.sqrt(x)),
           "loggamma": mp.digamma}


@pytest.mark.parametrize("name", ["exp", "expm1", "log", "log1p", "sqrt", "loggamma"])
@given(q=st.fractions(min_value=F(1, 10**9), max_value=500, max_denominator=10**9))
@example(q=F(199229289, 200000000))      # next to loggamma's zero at 1 (each function)
@example(q=F(2000000001, 1000000000))    # and 1e-9 past its zero at 2
def test_functions_enclose_mpmath_at_twice_the_precision(name: str, q: Fraction) -> None:
    """The ball of ``f`` at the ball of ``q`` (``q`` rounded to the working precision, a
    radius of an ulp unless dyadic) holds ``f(q)`` and is at most ``2^12`` times the
    rounding of a point there, ``2^-bits (max(|f(q)|, 2^-20) + |q f'(q)|)``: the last term
    is the argument's own radius carried through ``f``, which near a zero of ``f`` is most
    of the width (``loggamma`` at ``q = 0.99615``, where ``|q f'| / |f|`` is 260: a random
    draw of the default profile failed the bound without it)."""
    with working(FAST):
        lo, hi = _ends(getattr(FAST, name)(FAST.mpf(q)))
        bits = FAST.prec
    with mp.workprec(2 * bits + 64):
        x = mp.mpf(q.numerator) / q.denominator
        exact = frac(getattr(mp, name)(x))
        spread = frac(abs(x * _SLOPES[name](x)))
    scale = max(abs(exact), F(1, 2**20)) + spread
    assert lo <= exact <= hi, (name, q)
    assert hi - lo <= scale * F(1, 2 ** (bits - 12)), (name, q, float(hi - lo))


@pytest.mark.parametrize(("name", "at"), [
    ("log", F(0)), ("log", F(-1)), ("log1p", F(-1)), ("log1p", F(-2)), ("sqrt", F(-1, 10**9)),
    ("loggamma", F(0)), ("loggamma", F(-3))])
def test_a_function_undefined_on_the_ball_raises(name: str, at: Fraction) -> None:
    with working(FAST), pytest.raises(ValueError, match=name):
        getattr(FAST, name)(FAST.mpf(at))


def test_positive_part_end_by_end() -> None:
    with working(FAST):
        pos, neg = FAST.mpf(F(1, 3)), FAST.mpf(F(-1, 3))
        assert pos_part(FAST, pos) is pos
        assert _ends(pos_part(FAST, neg)) == (0, 0)
        lo, hi = _ends(pos_part(FAST, FAST.mpf((-1, 2))))
        # [0, 2 + r] as a ball: its 30-bit radius may reach just below 0
        assert -F(1, 2**27) <= lo <= 0 and 2 <= hi <= 2 + F(1, 2**27)
        assert _ends(pos_part(FAST, FAST.zero)) == (0, 0)
        lo, hi = _ends(pos_part(FAST, FAST.mpf((-1, mp.mpf(0.5)))))     # an upper end below 1
        assert -F(1, 2**28) <= lo <= 0 and F(1, 2) <= hi <= F(1, 2) + F(1, 2**28)


def test_fsum_adds_exactly_enclosed_terms() -> None:
    with working(FAST):
        lo, hi = _ends(FAST.fsum([F(1, 3), F(2, 3), 1, mp.mpf(0.25), FAST.mpf(F(-1, 4))]))
        assert lo <= 2 <= hi and hi - lo < F(1, 2 ** (FAST.prec - 8))
        assert _ends(FAST.fsum([])) == (0, 0)


def test_int_poly_evals_are_exact_integer_polynomials_on_balls() -> None:
    """Python ints and flint's integers as coefficients (the constant first), evaluated at
    ints and Fractions (made balls by ``mpf``): each value holds the exact rational,
    tightly, and is exact where the point and the polynomial are."""
    with working(FAST):
        coeffs = [3, flint.fmpz(2) ** 300, -5, 7]
        for x in (2, Fraction(1, 3), Fraction(-7, 5)):
            exact = sum(Fraction(int(c)) * Fraction(x) ** i for i, c in enumerate(coeffs))
            (value,) = FAST.int_poly_evals(coeffs, [x])
            lo, hi = arb_ends(value)
            assert lo <= exact <= hi and hi - lo <= abs(exact) / 2 ** (FAST.prec - 4)
        assert [arb_ends(v) for v in FAST.int_poly_evals([1, 2], [3, -1])] == [(7, 7), (-1, -1)]
        assert [arb_ends(v) for v in FAST.int_poly_evals([], [3])] == [(0, 0)]


@pytest.mark.parametrize("n", [0, 1, 2, 20, 21, 170, 1000, 10_000])
def test_factorial_holds_the_exact_integer_tightly(n: int) -> None:
    """``n!`` (math.factorial, exact) inside the ball, which is exact while ``n!`` fits the
    working precision (``20! < 2^62``) and a few units of it wide beyond."""
    with working(FAST):
        lo, hi = arb_ends(FAST.factorial(n))
        exact = math.factorial(n)
        assert lo <= exact <= hi and hi - lo <= Fraction(exact, 2 ** (FAST.prec - 4))
        if n <= 20:
            assert lo == hi == exact


@pytest.mark.parametrize("bad", [-1, 2.0, True, Fraction(3)])
def test_factorial_refuses_what_is_not_a_natural_int(bad: object) -> None:
    with pytest.raises(ValueError, match="factorial needs an int n >= 0"):
        FAST.factorial(bad)  # type: ignore[arg-type]


def test_decisions_are_true_only_when_certain() -> None:
    with working(FAST):
        a, b = FAST.mpf((1, 2)), FAST.mpf((mp.mpf(1.5), 3))
        assert not a < b and not a > b and not a >= b
        assert FAST.mpf((1, 2)) < FAST.mpf((3, 4))
        assert FAST.mpf(3) >= FAST.mpf(3) and FAST.one > FAST.zero
        lo, hi = _ends(FAST.pi)
        assert lo < F(314159265358979, 10**14) + F(4, 10**15) and hi > F(314159265358979, 10**14)


def test_working_precision_is_iv_s_and_is_restored() -> None:
    """``working`` gives the balls the bits ``iv`` gets at the same digits; ``extra_bits``
    raises flint's and mp's precision alike; both are restored after."""
    before_flint, before_mp = flint.ctx.prec, mp.prec
    with working(iv, 50):
        iv_bits = iv.prec
    with working(FAST, 50):
        assert FAST.prec == iv_bits == flint.ctx.prec
        with extra_bits(FAST, 77):
            assert flint.ctx.prec == iv_bits + 77 and mp.prec >= iv_bits + 77
        assert FAST.prec == iv_bits
    assert (flint.ctx.prec, mp.prec) == (before_flint, before_mp)


@pytest.mark.parametrize("bits", [40, 230, 1000])
@pytest.mark.parametrize("t", ["-38.5", "-1", "0", "1e-30", "0.3", "3.7", "40.5", "1000.25",
                               "10000.5"])
def test_normal_tail_encloses_erfc_tightly_and_restores_the_precision(t: str, bits: int) -> None:
    """Against mpmath's erfc at twice the precision plus 64 bits: contained, at most
    ``2^-(bits-9)`` wide relative; flint's precision is what it was before."""
    with mp.workprec(bits):
        point = mp.mpf(t)
    before = flint.ctx.prec
    got = normal_tail(point, bits)
    assert flint.ctx.prec == before
    assert got is not None
    with mp.workprec(2 * bits + 64):
        ref = mp.erfc(point / mp.sqrt(2)) / 2
        assert got.lo <= ref <= got.hi
        assert got.hi - got.lo <= ref * mp.mpf(2) ** -(bits - 9)


def test_normal_tail_refuses_a_ball_less_accurate_than_asked() -> None:
    """Arb's erfc at 1e6 and 230 bits has a radius above its value: None (the series of
    ``special`` takes over there), and ``normal_sf(iv, .)`` is still tight at that point."""
    assert normal_tail(mp.mpf(10**6), 230) is None and normal_tail(mp.mpf(65537), 1000) is None
    # below the size cut: 40000 (2^15 < t < 2^16) is accepted; at 65535 Arb's ball is finite
    # but 16 bits short of the 230 asked (214 bits), so refused on accuracy
    near = normal_tail(mp.mpf(40000), 230)
    assert near is not None and near.hi - near.lo <= near.lo * mp.mpf(2) ** -221
    assert normal_tail(mp.mpf(65535), 230) is None
    calls: list[object] = []
    real = fastballs.normal_tail

    def spy(t: object, bits: int) -> object:
        out = real(t, bits)
        calls.append(out)
        return out

    with pytest.MonkeyPatch.context() as patch, working(iv, 50):
        patch.setattr(fastballs, "normal_tail", spy)
        far = endpoints(normal_sf(iv, iv.mpf(10**6)))
        near = endpoints(normal_sf(iv, iv.mpf("3.7")))
    assert calls[0] is None and calls[1] is not None     # the series, then Arb
    assert 0 < far.lo and far.hi - far.lo <= far.lo * mp.mpf(10) ** -45
    assert near.hi - near.lo <= near.lo * mp.mpf(10) ** -45


def test_rough_ends_read_a_ball_in_floats_and_nothing_else() -> None:
    """``rough_ends`` (estimates only): a ball's ``mid -+ rad`` in floats, in order and
    around the exact ends; 0 or infinite out of the floats' range; None for an ``mp``
    number, an ``iv`` interval or a float (numbers no radius vouches for)."""
    flint.ctx.prec = 100
    arb, fmpq = flint.arb, flint.fmpq
    x = arb(fmpq(1, 3)) + arb(0, fmpq(1, 2**40))      # 1/3 +- (2^-40 + rounding)
    lo, hi = rough_ends(x)
    assert lo < float(Fraction(1, 3)) < hi
    assert abs((hi - lo) / 2 - 2.0**-40) < 2.0**-60 and abs((lo + hi) / 2 - 1 / 3) < 1e-16
    assert rough_ends(arb(2) ** 2000) == (math.inf, math.inf)
    assert rough_ends(-(arb(2) ** 2000)) == (-math.inf, -math.inf)
    assert rough_ends(arb(2) ** -2000) == (0.0, 0.0)
    for other in (mp.mpf(1) / 3, iv.mpf(1) / 3, 0.25):
        assert rough_ends(other) is None


def test_ends_on_balls_falls_back_to_iv_only_where_arb_fails() -> None:
    """Balls first; ``iv`` where Arb raises or gives an infinite upper end (``exp`` of an
    exact 10^300: Arb's exponents end, mpmath's do not); a lower end of ``-inf`` stays."""
    seen: list[object] = []

    def log2(c: object) -> numeric.Interval:
        seen.append(c)
        with working(c):
            return endpoints(c.log(c.mpf(2)))         # type: ignore[attr-defined]

    got = fastballs.ends_on_balls(log2)
    with mp.workdps(80):
        assert seen == [FAST] and got.lo <= mp.log(2) <= got.hi and got.hi - got.lo < 1e-50
    seen.clear()

    def huge(c: object) -> numeric.Interval:
        seen.append(c)
        with working(c):
            return endpoints(exp(c, to_ctx(c, 10**300)))
    got = fastballs.ends_on_balls(huge)
    assert seen == [FAST, iv] and mp.isfinite(got.hi) and got.lo > mp.mpf(10) ** (10**299)
    seen.clear()

    def broken(c: object) -> numeric.Interval:
        seen.append(c)
        if c is FAST:
            raise ValueError("no ball")
        return numeric.Interval(mp.mpf(1), mp.mpf(2))
    assert fastballs.ends_on_balls(broken) == numeric.Interval(mp.mpf(1), mp.mpf(2))
    assert seen == [FAST, iv]
    seen.clear()

    def open_below(c: object) -> numeric.Interval:
        seen.append(c)
        return numeric.Interval(mp.ninf, mp.mpf(3))
    assert fastballs.ends_on_balls(open_below) == numeric.Interval(mp.ninf, mp.mpf(3))
    assert seen == [FAST]
