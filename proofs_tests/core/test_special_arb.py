"""``normal_sf`` against python-flint arb: containment and tightness at exact arguments.

Reference: ``Q(x) = Gamma(1/2, x^2/2) / (2 sqrt(pi))`` for ``x >= 0`` (arb's regularised
upper incomplete gamma, ``Q(1/2, x^2/2) / 2``; arb's ``erfc`` gives up beyond ``x ~ 1e6``)
and ``Q(x) = 1 - Q(-x)`` for ``x < 0``, with the ball's radius checked to be far below the
tolerance.  The arguments are exact dyadic rationals, so the enclosure of ``normal_sf(iv,
x)`` must contain ``Q(x)`` and, for ``x >= 0``, be at most ``2^-(prec+16) Q(x)`` wide: the
series run with 30 guard bits and return their ends unrounded (observed widths
``2^-(prec+23)`` in the asymptotic range, ``2^-(prec+50)`` in the Taylor range).  For
``x < 0`` the value ``1 - Q(-x)`` is rounded to ``prec`` bits: at most 2 ulps wide.
The point version (``ctx = mp``) must be within one ulp of ``Q`` at any size of ``x``.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_normal_sf as _q

# every test here runs on both routes of normal_sf(iv, .): Arb's erfc and the series
from proofs_tests.arb_support import normal_tail_routes  # noqa: F401
from reference.core.numeric import endpoints
from reference.core.special import normal_sf


def _arb(m: object) -> flint.arb:
    """An mp number as an exact arb (its sign, mantissa and exponent; flint.ctx.prec must
    exceed its bit count)."""
    sign, man, exp, bc = m._mpf_  # type: ignore[attr-defined]
    assert bc < flint.ctx.prec
    value = flint.arb(flint.arf((int(man), int(exp))))
    return -value if sign else value


def _check_enclosure(x: Fraction, prec: int) -> None:
    old = iv.prec
    iv.prec = prec
    try:
        with mp.workprec(prec + 2000):     # x exactly, even with more bits than prec
            point = mp.mpf(x.numerator) / x.denominator
        with mp.workprec(prec):
            arg = iv.mpf((point, point))     # ends are kept as given, not rounded
            assert endpoints(arg).lo == endpoints(arg).hi == point
            ends = endpoints(normal_sf(iv, arg))
    finally:
        iv.prec = old
    q = _q(x, prec)
    old = flint.ctx.prec
    flint.ctx.prec = prec + 1200      # the ends carry at most prec + 60 + x^2 / (2 ln 2) bits
    try:
        lo, hi = _arb(ends.lo), _arb(ends.hi)
        assert lo <= q <= hi, (x, prec)
        slack = flint.arb(2) ** (-prec - 16) if x >= 0 else flint.arb(2) ** (2 - prec)
        assert hi - lo <= q * slack, (x, prec)
    finally:
        flint.ctx.prec = old


#: Tiny, moderate, both series, the switch between them (from 10 to 35 over the
#: precisions below; at 700 bits the asymptotic series is not yet tight at 31.125 and
#: 31.25, two below the switch) and huge arguments; all dyadic.
POINTS = ([Fraction(1, 2**1000), Fraction(1, 2**60), Fraction(-1, 2**60), Fraction(3, 8),
           Fraction(-7, 4), Fraction(-23, 2), Fraction(10**6 + 1), Fraction(3 * 10**7),
           Fraction(2**100), Fraction(249, 8), Fraction(125, 4)]
          + [Fraction(k, 4) for k in range(4, 150, 3)])


@pytest.mark.parametrize("prec", [24, 53, 203, 700])
def test_enclosure_contains_and_is_tight_at_exact_points(prec: int) -> None:
    for x in POINTS:
        _check_enclosure(x, prec)


@given(st.integers(-40 * 2**16, 60 * 2**16), st.integers(24, 400))
def test_enclosure_contains_and_is_tight_anywhere(k: int, prec: int) -> None:
    _check_enclosure(Fraction(k, 2**16), prec)   # at most 22 bits: exact


@pytest.mark.parametrize("dps", [15, 50, 100])
def test_point_value_within_an_ulp_at_any_size(dps: int) -> None:
    """Regression: the point version evaluated ``erfc(x / sqrt 2)`` with ``x / sqrt 2``
    rounded to the working precision; Q's relative condition number is about ``x^2``, so
    ``normal_sf(mp, 1000)`` at 15 digits was off by 1.1e6 ulps (2.29064614682913e-217151
    instead of 2.29064614654550e-217151), at ``x = 1e5`` in the sixth digit."""
    for x in [Fraction(-17, 2), Fraction(-3, 8), Fraction(1, 2**70), Fraction(5), Fraction(37),
              Fraction(100), Fraction(1000), Fraction(10**5), Fraction(999_999),
              Fraction(10**6), Fraction(2 * 10**6 + 1, 2), Fraction(2**100),
              Fraction(2**1000)]:   # mpmath's erfc overflows from about 1e160
        with mp.workdps(dps):   # every x here is dyadic: exact in mp
            got = normal_sf(mp, mp.mpf(x.numerator) / x.denominator)
            bits = mp.prec
        q = _q(x, bits)
        old = flint.ctx.prec
        flint.ctx.prec = bits + 200
        try:
            assert abs(_arb(got) - q) < q * flint.arb(2) ** (1 - bits), (x, dps)
        finally:
            flint.ctx.prec = old


@pytest.mark.parametrize("prec", [24, 53])
def test_end_points_with_more_bits_than_the_series_carries(prec: int) -> None:
    """An interval end with more bits than the Taylor series' fixed point (here 200 to 300
    bits at a working precision of 24 or 53) is shifted right, rounded down and up."""
    for x in [1 + Fraction(1, 2**200), Fraction(3, 4) + Fraction(1, 2**300),
              5 - Fraction(1, 2**250), -3 - Fraction(1, 2**280)]:
        _check_enclosure(x, prec)


def test_asymptotic_series_just_above_the_switch_at_2000_bits() -> None:
    """At 2000 bits the switch lies near 54.2; just above it the asymptotic series must
    still run until its terms are below 2^-(prec+30) (tight), not stop where they are
    merely no longer decreasing fast."""
    for x in [Fraction(217, 4), Fraction(109, 2), Fraction(55)]:
        _check_enclosure(x, 2000)
