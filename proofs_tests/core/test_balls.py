"""``reference.core.balls``: inf-sup intervals with exact python-flint arb ends.

Expected values come from exact rational arithmetic (``Fraction``) for ``+ - * /`` and from
mpmath at four times the working precision for ``exp``, ``expm1``, ``log``, ``log1p``,
``sqrt`` (a library the module does not use).  Every enclosure is checked two-sided: it
contains the exact value, and its ends are within a few ulps of it (relative
``2^-(prec-10)`` for the functions, ``2^-(prec-5)`` of the operands' size for arithmetic).
The wide interval ``[1e-15, 1/2]`` is the reason the module exists: arb's own
midpoint-radius ball of it has an inverse reaching below 0.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends, frac
from reference.core.balls import ArbInterval, Balls, balls, ends, positive

B = balls()
PRECS = st.sampled_from([53, 80, 128, 200])
TWO = Fraction(2)



def _rationals(min_exp: int = -1000, max_exp: int = 1000) -> st.SearchStrategy[Fraction]:
    """Rationals of any sign with up to 12-digit denominators, scaled by ``2^k``: tiny,
    huge and ordinary magnitudes, most of them not representable in binary."""
    base = st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**12)
    return st.builds(lambda q, k: q * TWO**k, base, st.integers(min_exp, max_exp))


RATIONALS = _rationals()
ARITH: dict[str, Callable[[object, object], object]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}


def _exact_ends_are_arb_numbers(x: ArbInterval) -> tuple[Fraction, Fraction]:
    """The ends of ``x``, checked to be exact arb numbers (zero radius) and read back by an
    independent route (mid +- rad of each end, see ``arb_support``)."""
    assert x.lo.rad() == 0 and x.hi.rad() == 0
    got = ends(x)
    assert got == (arb_ends(x.lo)[0], arb_ends(x.hi)[1])
    assert got[0] <= got[1]
    return got


# ---- conversion, ends --------------------------------------------------------------------


@pytest.mark.parametrize(("x", "q"), [
    (0, Fraction(0)), (-5, Fraction(-5)), (Fraction(3, 8), Fraction(3, 8)),
    (Fraction(-1, 2**1100), Fraction(-1, 2**1100)),
    (mpmath.mpf(-0.5), Fraction(-1, 2)),             # the sign of an mpf is not dropped
    (-mpmath.mpf(2) ** -1100, -Fraction(1, 2**1100)),
    (mpmath.mpf(0), Fraction(0)), (2**70, Fraction(2**70)),
])
def test_binary_numbers_are_converted_exactly(x: object, q: Fraction) -> None:
    assert _exact_ends_are_arb_numbers(B.mpf(x)) == (q, q)


@given(RATIONALS, PRECS)
def test_rationals_are_enclosed_tightly(q: Fraction, prec: int) -> None:
    B.prec = prec
    lo, hi = _exact_ends_are_arb_numbers(B.mpf(q))
    assert lo <= q <= hi
    assert hi - lo <= abs(q) * TWO ** (2 - prec)
    if q.denominator & (q.denominator - 1):          # not dyadic: cannot be a point
        assert lo < q < hi


def test_mpf_keeps_all_bits_of_an_mpmath_number_and_a_pair_spans_its_ends() -> None:
    B.prec = 53
    with mp.workprec(300):
        third = mp.mpf(1) / 3                        # 300 bits: more than the 53 of flint
    lo, hi = _exact_ends_are_arb_numbers(B.mpf(third))
    assert lo < frac(third) < hi and hi - lo <= TWO**-52
    pair = B.mpf((Fraction(-1, 3), mpmath.mpf(0.5)))
    lo, hi = _exact_ends_are_arb_numbers(pair)
    assert lo < Fraction(-1, 3) and hi == Fraction(1, 2)
    assert Fraction(-1, 3) - lo <= TWO**-53
    assert B.mpf(pair) is pair and ArbInterval.of(pair) is pair


@pytest.mark.parametrize(("bad", "error"), [
    (True, TypeError), (0.5, TypeError), ("1/2", TypeError), (None, TypeError),
    (mpmath.inf, ValueError), (-mpmath.inf, ValueError), (mpmath.nan, ValueError),
])
def test_non_numbers_and_non_finite_numbers_are_refused(bad: object, error: type) -> None:
    with pytest.raises(error):
        B.mpf(bad)


def test_non_finite_ends_are_refused() -> None:
    with pytest.raises(ValueError):
        ArbInterval(flint.arb(0), flint.arb("inf"))


def test_a_reversed_pair_is_refused() -> None:
    """Found by this test (it was a strict xfail): the pair built an interval with lo > hi."""
    with pytest.raises(ValueError, match="lo <= hi"):
        B.mpf((1, 0))
    with pytest.raises(ValueError, match="lo <= hi"):
        B.mpf((Fraction(1, 3), Fraction(1, 4)))
    assert B.mpf((Fraction(1, 4), Fraction(1, 4))).lo == B.mpf(Fraction(1, 4)).lo


# ---- arithmetic ---------------------------------------------------------------------------


@given(st.sampled_from(sorted(ARITH)), RATIONALS, RATIONALS, PRECS,
       st.sampled_from(["both", "left", "right"]))
def test_arithmetic_contains_the_exact_result_and_is_tight(op: str, a: Fraction, b: Fraction,
                                                           prec: int, side: str) -> None:
    """``side``: which operands are intervals (the others are Fractions, mixed in by the
    reflected operators)."""
    assume(op != "div" or b != 0)
    B.prec = prec
    x = B.mpf(a) if side != "right" else a
    y = B.mpf(b) if side != "left" else b
    got = ARITH[op](x, y)
    assert isinstance(got, ArbInterval)
    lo, hi = _exact_ends_are_arb_numbers(got)
    exact = ARITH[op](a, b)
    assert lo <= exact <= hi
    scale = abs(a) + abs(b) if op in ("add", "sub") else abs(exact)
    assert hi - lo <= scale * TWO ** (5 - prec)


def _interval(draw: st.DrawFn) -> tuple[Fraction, Fraction]:
    a, b = draw(RATIONALS), draw(RATIONALS)
    return min(a, b), max(a, b)


@given(st.data(), st.sampled_from(sorted(ARITH)), PRECS)
def test_interval_arithmetic_is_the_range_over_the_box(data: st.DataObject, op: str,
                                                       prec: int) -> None:
    """For monotone ``+ - * /`` the exact range over a box is spanned by the end
    combinations: each end of the result is within a few ulps of it, and sampled points of
    the box map inside."""
    (a0, a1), (b0, b1) = _interval(data.draw), _interval(data.draw)
    assume(op != "div" or b0 > 0 or b1 < 0)
    B.prec = prec
    lo, hi = _exact_ends_are_arb_numbers(ARITH[op](B.mpf((a0, a1)), B.mpf((b0, b1))))
    combos = [ARITH[op](a, b) for a in (a0, a1) for b in (b0, b1)]
    sizes = [abs(a) + abs(b) if op in ("add", "sub") else abs(ARITH[op](a, b))
             for a in (a0, a1) for b in (b0, b1)]
    slack = max(sizes) * TWO ** (5 - prec)
    assert min(combos) - slack <= lo <= min(combos)
    assert max(combos) <= hi <= max(combos) + slack
    for _ in range(3):
        t, u = (data.draw(st.fractions(0, 1, max_denominator=1000)) for _ in "tu")
        assert lo <= ARITH[op](a0 + t * (a1 - a0), b0 + u * (b1 - b0)) <= hi


SIGNS = {"neg": (Fraction(-3), Fraction(-1, 2)), "mixed": (Fraction(-3), Fraction(2)),
         "pos": (Fraction(1, 4), Fraction(5))}


@pytest.mark.parametrize("sx", sorted(SIGNS))
@pytest.mark.parametrize("sy", sorted(SIGNS))
def test_product_of_each_sign_case_is_exact(sx: str, sy: str) -> None:
    """Binary ends, so the products are exact: the result is exactly [min, max] of the four."""
    (a0, a1), (b0, b1) = SIGNS[sx], SIGNS[sy]
    combos = [a * b for a in (a0, a1) for b in (b0, b1)]
    got = B.mpf((a0, a1)) * B.mpf((b0, b1))
    assert _exact_ends_are_arb_numbers(got) == (min(combos), max(combos))
    if sy != "mixed":                                # quotients: 1/y is rounded, a few ulps
        quotients = [a / b for a in (a0, a1) for b in (b0, b1)]
        lo, hi = _exact_ends_are_arb_numbers(B.mpf((a0, a1)) / B.mpf((b0, b1)))
        low, high = min(quotients), max(quotients)
        assert low - abs(low) * TWO**-50 <= lo <= low
        assert high <= hi <= high + abs(high) * TWO**-50


def test_negation_and_powers() -> None:
    x = B.mpf((Fraction(-1, 4), Fraction(3)))
    assert ends(-x) == (Fraction(-3), Fraction(1, 4)) and +x is x
    # a number on the left of a subtraction: 1 - [-1/4, 3] = [-2, 5/4], exactly
    assert ends(1 - x) == (Fraction(-2), Fraction(5, 4))
    assert ends(Fraction(1, 2) - x) == ends(B.mpf(Fraction(1, 2)) - x)
    assert ends(x**0) == (1, 1) and ends(x**1) == ends(x)
    assert ends(B.mpf(Fraction(-3, 2)) ** 3) == (Fraction(-27, 8), Fraction(-27, 8))
    lo, hi = ends(x**2)                              # x * x: encloses [0, 9]
    assert lo <= 0 and hi == 9
    for bad in (-1, 0.5, True):
        with pytest.raises(TypeError):
            x ** bad


@pytest.mark.parametrize("divisor", [(0, 0), (-1, 1), (0, 1), (-1, 0),
                                     (-Fraction(1, 2**1000), Fraction(1, 2**1000))])
def test_division_by_an_interval_containing_zero_raises(divisor: tuple[Fraction, ...]) -> None:
    d = B.mpf(divisor)
    for numerator in (B.mpf(1), 1, Fraction(1, 3), B.mpf((2, 3))):
        with pytest.raises(ValueError, match="containing 0"):   # refused, not an inf end
            numerator / d


# ---- increasing functions -----------------------------------------------------------------


def _dyadic(exps: tuple[int, int], cap: Fraction, sign: bool = True,
            bits: int = 50) -> st.SearchStrategy[Fraction]:
    """``+- man 2^e`` with ``man`` of at most ``bits`` bits (exact at every precision used),
    halved until at most ``cap`` in size."""
    def make(man: int, e: int, neg: bool) -> Fraction:
        x = man * TWO**e
        while x > cap:
            x /= 2**8
        return -x if neg else x
    return st.builds(make, st.integers(1, 2**bits - 1), st.integers(*exps),
                     st.booleans() if sign else st.just(False))


def _near(q: Fraction, side: int) -> st.SearchStrategy[Fraction]:
    """Points ``q + side 2^-k``: next to a domain boundary (exact for ``k <= 50``)."""
    return st.integers(1, 50).map(lambda k: q + side * TWO**-k)


POINTS = {
    "exp": st.one_of(_dyadic((-1100, 0), TWO**12), st.just(Fraction(0))),
    "expm1": st.one_of(_dyadic((-1100, 0), TWO**12), st.just(Fraction(0))),
    "log": st.one_of(_dyadic((-1150, 1100), TWO**1100, sign=False), _near(Fraction(1), 1),
                     _near(Fraction(1), -1)),
    "log1p": st.one_of(_dyadic((-1150, 1100), TWO**1100, sign=False), _near(Fraction(-1), 1),
                       _near(Fraction(0), -1), st.just(Fraction(0))),
    "sqrt": st.one_of(_dyadic((-1150, 1100), TWO**1100, sign=False), st.just(Fraction(0))),
}


def _mp(q: Fraction) -> object:
    return mp.mpf(q.numerator) / q.denominator      # exact: q is binary, mp.prec is ample


@given(st.data(), st.sampled_from(sorted(POINTS)), PRECS)
def test_functions_enclose_both_ends_and_are_tight(data: st.DataObject, name: str,
                                                   prec: int) -> None:
    a, b = sorted((data.draw(POINTS[name]), data.draw(POINTS[name])))
    B.prec = prec
    lo, hi = _exact_ends_are_arb_numbers(getattr(B, name)((a, b)))
    with mp.workprec(4 * prec + 64):
        fa, fb = frac(getattr(mp, name)(_mp(a))), frac(getattr(mp, name)(_mp(b)))
    ta, tb = abs(fa) * TWO ** (40 - 4 * prec), abs(fb) * TWO ** (40 - 4 * prec)  # mp's error
    assert lo <= fa + ta and fb - tb <= hi                                       # contains
    assert lo >= fa - ta - abs(fa) * TWO ** (10 - prec)                          # tight
    assert hi <= fb + tb + abs(fb) * TWO ** (10 - prec)


@pytest.mark.parametrize(("name", "interval"), [
    ("log", (0, 1)), ("log", (-1, 2)), ("log", (0, 0)), ("log", (-2, -1)),
    ("log1p", (-1, 0)), ("log1p", (-2, 1)), ("log1p", (-3, -2)),
    ("sqrt", (-Fraction(1, 2**1000), 1)), ("sqrt", (-1, -Fraction(1, 2))),
])
def test_functions_raise_where_undefined_on_the_interval(name: str,
                                                         interval: tuple[Fraction, ...]) -> None:
    """Refused by the domain check (an infinite or NaN end would also be refused, later)."""
    with pytest.raises(ValueError, match=f"{name} of an interval reaching"):
        getattr(B, name)(interval)


def test_functions_just_inside_their_domains() -> None:
    B.prec = 53
    assert ends(B.sqrt((0, 4))) == (0, 2)
    assert ends(B.log((Fraction(1, 2**1100), 1)))[0] < -762
    lo, hi = ends(B.log1p((-1 + TWO**-50, 0)))
    with mp.workprec(300):
        ref = frac(-50 * mp.log(2))                  # log(2^-50) = -34.657...
    assert hi == 0 and ref - TWO**-45 <= lo <= ref
    x = B.mpf((-1 + TWO**-60, 0))                    # -1 + 2^-60 rounds down to -1 at 53 bits
    with pytest.raises(ValueError):
        B.log1p(x)


def test_e_fsum_zero_one_and_precision() -> None:
    B.prec = 128
    assert flint.ctx.prec == 128 and B.prec == 128
    lo, hi = _exact_ends_are_arb_numbers(B.e)
    with mp.workprec(600):
        e = frac(mp.e)
    assert lo < e < hi and hi - lo <= TWO**-120
    assert ends(B.zero) == (0, 0) and ends(B.one) == (1, 1)
    lo, hi = ends(B.fsum([1, Fraction(1, 3), B.mpf(2), mpmath.mpf(-0.25)]))
    assert lo < Fraction(37, 12) < hi and hi - lo <= TWO**-120
    assert isinstance(B, Balls) and balls() is B


# ---- the wide interval: why ArbInterval exists ----------------------------------------------


def test_wide_interval_keeps_its_lower_end_through_inverse_and_log() -> None:
    B.prec = 53
    small = Fraction(1, 10**15)
    delta = B.mpf((small, Fraction(1, 2)))
    # the failure mode: arb's midpoint-radius ball of the same range has no usable inverse
    mid, rad = (small + Fraction(1, 2)) / 2, (Fraction(1, 2) - small) / 2
    ball = flint.arb(flint.fmpq(mid.numerator, mid.denominator),
                     flint.fmpq(rad.numerator, rad.denominator))
    assert not (1 / ball).is_finite() or arb_ends(1 / ball)[0] <= 0
    inv = 1 / delta
    lo, hi = _exact_ends_are_arb_numbers(inv)
    assert 0 < lo <= 2 <= hi and 10**15 <= hi
    assert lo >= 2 * (1 - TWO**-50) and hi <= 10**15 * (1 + TWO**-50)
    lo, hi = _exact_ends_are_arb_numbers(B.log(inv))
    with mp.workprec(300):
        log2, log_big = frac(mp.log(2)), frac(mp.log(mp.mpf(10) ** 15))
    assert 0 < lo <= log2 and log_big <= hi
    assert log2 - lo <= TWO**-50 and hi - log_big <= 35 * TWO**-50
    lo, hi = _exact_ends_are_arb_numbers(delta * delta)
    assert 0 < lo <= small**2 and Fraction(1, 4) <= hi
    assert small**2 - lo <= small**2 * TWO**-49
    lo, hi = ends(-B.log(delta))                      # log(1/delta) the other way round
    assert 0 < lo <= log2 and log_big <= hi


@pytest.mark.parametrize(("interval", "strict", "expected"), [
    ((0, 0), True, False), ((0, 0), False, True),
    ((0, 1), True, False), ((0, 1), False, True),
    ((-TWO**-1000, 1), True, False), ((-TWO**-1000, 1), False, False),
    ((TWO**-1000, 1), True, True), ((TWO**-1000, 1), False, True),
    ((-2, -1), False, False),
])
def test_positive_strict_and_non_strict_at_zero(interval: tuple[Fraction, ...], strict: bool,
                                                expected: bool) -> None:
    assert positive(B.mpf(interval), strict) is expected


def test_signs_of_ends_far_beyond_any_fraction() -> None:
    """e^(-10^40) has a binary exponent near -1.4e40: ``positive`` and ``definite_sign``
    read the sign from the mantissa (they made a Fraction of 10^40 bits, out of memory)."""
    B.prec = 100
    tiny = B.exp(B.mpf(-10**40))
    assert positive(tiny, True) and positive(tiny, False) and B.definite_sign(tiny) == 1
    assert not positive(-tiny, False) and B.definite_sign(-tiny) == -1
    straddle = B.mpf((-1, 1)) * tiny
    assert not positive(straddle, False) and B.definite_sign(straddle) is None
