"""The numeric helpers below every formula (reference.core.numeric): precision control,
exact rationals in a context, ``pos_part``/``ctx_min``/``abs_gap`` in both contexts, the
``Interval`` record, and the rigorous ``expm1``/``log1p`` enclosures.

Independent routes: exact rational arithmetic (``fractions.Fraction``) for the piecewise
helpers, python-flint arb balls at 400 bits for ``expm1``/``log1p``; every enclosure is
checked to contain the exact value and to be tight (two-sided).  Written against the
survivors of ``python -m reference.tools.mutate reference/core/numeric.py``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_q
from reference import DomainError
from reference.core.numeric import (
    DEFAULT_DPS,
    Interval,
    abs_gap,
    ctx_min,
    endpoints,
    exact,
    expm1,
    extra_bits,
    get_dps,
    log1p,
    pos_part,
    precision,
    to_ctx,
    working,
)


def q(x: object) -> Fraction:
    return exact(x, "x", "test")


def ends(x: object) -> tuple[Fraction, Fraction]:
    e = endpoints(x)
    return q(e.lo), q(e.hi)


def test_default_precision_is_fifty_digits_and_precision_bounds() -> None:
    assert DEFAULT_DPS == 50 and get_dps() == 50       # README: 50 significant digits
    for ok in (5, 10_000):
        with precision(ok):
            assert get_dps() == ok
        assert get_dps() == 50
    for bad in (4, 10_001, True, 5.0, "50"):
        with pytest.raises(DomainError), precision(bad):  # type: ignore[arg-type]
            pass


def test_working_and_extra_bits_set_and_restore() -> None:
    mp_prec, iv_prec = mp.prec, iv.prec
    with working(mp, 30):
        assert mp.dps == 30
    with working(mp):
        assert mp.dps == 50
    with working(iv, 30):
        assert iv.dps > 30 and mp.dps > 30          # guard digits for intervals,
        assert mp.prec == iv.prec                   # and endpoint arithmetic (mp) at iv's
    assert (mp.prec, iv.prec) == (mp_prec, iv_prec)
    with extra_bits(mp, 17):
        assert mp.prec == mp_prec + 17
    assert mp.prec == mp_prec
    with working(iv, 30):                            # iv: mp's endpoint arithmetic follows
        base = iv.prec
        with extra_bits(iv, 17):
            assert iv.prec == mp.prec == base + 17
        assert iv.prec == mp.prec == base


@pytest.mark.parametrize("value", [Fraction(3), Fraction(-7), Fraction(1, 3), Fraction(-22, 7),
                                   Fraction(10**40 + 1, 10**40), 5, 0])
def test_to_ctx_is_the_rational(value: Fraction | int) -> None:
    exact_value = Fraction(value)
    with mp.workdps(50):
        point = to_ctx(mp, value)
        assert abs(q(point) - exact_value) <= abs(exact_value) * Fraction(1, 10**49)
    with working(iv, 50):
        lo, hi = ends(to_ctx(iv, value))
    assert lo <= exact_value <= hi and hi - lo <= abs(exact_value) * Fraction(1, 10**58)
    if exact_value.denominator == 1:                  # integers are exact in both contexts
        assert lo == hi == exact_value == q(to_ctx(mp, value))


def test_pos_part_and_ctx_min_in_both_contexts() -> None:
    for x, want in ((-2, 0), (0, 0), (3, 3), (Fraction(-1, 10**300), 0)):
        assert q(pos_part(mp, to_ctx(mp, Fraction(x)))) == want
    cases = {(-1, 2): (0, 2), (-3, -1): (0, 0), (1, 2): (1, 2), (0, 0): (0, 0)}
    for (a, b), want in cases.items():
        assert ends(pos_part(iv, iv.mpf((a, b)))) == want
    for x, y in ((1, 2), (2, 1), (-5, -5), (0, -1)):
        assert q(ctx_min(mp, mp.mpf(x), mp.mpf(y))) == min(x, y)
    assert ends(ctx_min(iv, iv.mpf((1, 3)), iv.mpf((2, 4)))) == (1, 3)
    assert ends(ctx_min(iv, iv.mpf((1, 5)), iv.mpf((2, 3)))) == (1, 3)
    assert ends(ctx_min(iv, iv.mpf((2, 6)), iv.mpf((1, 7)))) == (1, 6)


_RATIONAL = st.fractions(min_value=-10, max_value=10, max_denominator=1000)


@given(_RATIONAL, _RATIONAL)
def test_abs_gap_is_the_difference_of_absolute_values(u: Fraction, d: Fraction) -> None:
    """``|u - d| - |u|`` computed exactly; the point value to 45 digits, the enclosure
    around it and at most 1e-45 relative wide (plus 1e-300 absolute for a zero gap)."""
    want = abs(u - d) - abs(u)
    slack = (abs(d) + abs(u)) * Fraction(1, 10**45) + Fraction(1, 10**300)
    with mp.workdps(50):
        got = q(abs_gap(mp, to_ctx(mp, u), to_ctx(mp, d)))
    assert abs(got - want) <= slack
    with working(iv, 50):
        lo, hi = ends(abs_gap(iv, to_ctx(iv, u), to_ctx(iv, d)))
    assert lo <= want <= hi and hi - lo <= slack


def test_abs_gap_with_an_undecided_sign_and_tiny_steps() -> None:
    with working(iv, 50):
        lo, hi = ends(abs_gap(iv, iv.mpf(3), iv.mpf((-1, 2))))
        assert (lo, hi) == (-2, 2)                    # |gap| <= |d| <= 2, sign unknown
        # gap = -d over [-1, 1/2] is [-1/2, 1]: the enclosure is the |gap| <= |d| <= 1 box
        assert ends(abs_gap(iv, iv.mpf(3), iv.mpf((-1, 0.5)))) == (-1, 1)
    with working(iv, 50):                              # d touching 0: the sign is known
        assert ends(abs_gap(iv, iv.mpf(5), iv.mpf((0, 2)))) == (-2, 0)   # gap = -d
        assert ends(abs_gap(iv, iv.mpf(5), iv.mpf((-2, 0)))) == (0, 2)   # gap = -d
    with mp.workdps(50):                               # the docstring's case, and its mirror
        for u, d in (("-3.3e-236", "3.9e-286"), ("3.3e-236", "-3.9e-286")):
            got = q(abs_gap(mp, mp.mpf(u), mp.mpf(d)))
            assert abs(got - abs(q(mp.mpf(d)))) <= abs(q(mp.mpf(d))) * Fraction(1, 10**45)


def test_interval_record() -> None:
    box = Interval(mp.mpf(1), mp.mpf(4))
    assert 1 in box and 4 in box and 2.5 in box and 0.999 not in box and 4.001 not in box
    assert box.mid == 2.5 and box.width == 3
    with mp.workdps(50):                               # 17 significant digits
        assert str(Interval(mp.mpf(1) / 3, mp.mpf(2))) == "[0.33333333333333333, 2.0]"
    assert endpoints(mp.mpf("0.25")) == Interval(mp.mpf("0.25"), mp.mpf("0.25"))
    with pytest.raises(dataclasses.FrozenInstanceError):   # a value, not a container
        box.lo = mp.mpf(0)  # type: ignore[misc]
    assert len({box, Interval(mp.mpf(1), mp.mpf(4))}) == 1


_TINY = st.sampled_from([Fraction(1, 10**k) for k in (3, 9, 30, 80, 200)]
                        + [Fraction(3, 1000), Fraction(1, 257), Fraction(1, 255)])


@given(_TINY, st.sampled_from([1, -1]), st.sampled_from([0, 1]))
def test_expm1_log1p_enclose_the_arb_value_tightly(x: Fraction, sign: int, is_log: int) -> None:
    """Both the Taylor branch (|x| < 2^-8) and mpmath's, against arb at 400 bits; an
    interval argument [x, 2x] gives [f(x), f(2x)] (both functions increase)."""
    x = sign * x
    flint.ctx.prec = 400
    f, g = (log1p, flint.arb.log1p) if is_log else (expm1, flint.arb.expm1)
    with working(iv, 50):
        for lo_arg, hi_arg in ((x, x), (min(x, 2 * x), max(x, 2 * x))):
            arg = iv.mpf((endpoints(to_ctx(iv, lo_arg)).lo, endpoints(to_ctx(iv, hi_arg)).hi))
            lo, hi = ends(f(iv, arg))
            ref_lo, ref_hi = g(arb_q(lo_arg)), g(arb_q(hi_arg))
            assert arb_q(lo) < ref_lo and ref_hi < arb_q(hi)
            slack = 2 * (abs(lo) + abs(hi)) * Fraction(1, 10**58)
            assert arb_q(hi - lo) < ref_hi - ref_lo + arb_q(slack)
    with mp.workdps(50):
        point = q(f(mp, to_ctx(mp, x)))
    assert abs(arb_q(point) - g(arb_q(x))) < arb_q(abs(point) * Fraction(1, 10**48))


def test_expm1_log1p_at_zero() -> None:
    with working(iv, 50):
        assert ends(expm1(iv, iv.mpf(0))) == (0, 0) == ends(log1p(iv, iv.mpf(0)))


@pytest.mark.parametrize("x", [Fraction(1, 256), Fraction(-1, 256), Fraction(1, 255),
                               Fraction(1, 2), Fraction(-1, 3)])
@pytest.mark.parametrize("f", [expm1, log1p])
def test_from_two_to_the_minus_eight_the_enclosure_is_within_eight_ulps(x: Fraction,
                                                                        f: object) -> None:
    """The series is used only for |x| < 2^-8 (the module's comment); at 2^-8 and above
    mpmath's own interval functions give a few ulps (the series, about 16 to 30)."""
    with working(iv, 50):
        lo, hi = ends(f(iv, to_ctx(iv, x)))  # type: ignore[operator]
        bits = iv.prec
    assert 0 < hi - lo <= 8 * max(abs(lo), abs(hi)) / 2**bits
