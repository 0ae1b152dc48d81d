"""``series``: expm1/log1p near 0 summed in integers, against python-flint's Arb.

Expected values: Arb's ``expm1``/``log1p`` at ``3 prec + 200`` bits of the exact binary
input (another library, another algorithm); the fixed-point sums against the exact series
``S = expm1(v)/v`` or ``log1p(v)/v`` the same way, with few terms so that the bound on
what is left out matters.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from reference.core.numeric import endpoints
from reference.core.series import _down, _sums, _up, series

PRECS = st.sampled_from([53, 100, 170, 203, 400, 1000])


def _arb(sign: int, man: int, e: int) -> flint.arb:
    return flint.arb(-man if sign else man) * flint.arb(2) ** e     # exact


def _mp_arb(x: object) -> flint.arb:
    sign, man, e, _ = x._mpf_  # type: ignore[attr-defined]
    return _arb(sign, man, e)


def _enclosure(sign: int, man: int, e: int, prec: int, log: bool) -> tuple[object, object]:
    old = iv.prec
    iv.prec = prec
    try:
        enc = endpoints(series(mp.make_mpf((sign, man, e, man.bit_length())), log))
    finally:
        iv.prec = old
    return enc.lo, enc.hi


def _check(sign: int, man: int, e: int, prec: int, log: bool) -> None:
    flint.ctx.prec = 3 * prec + 200
    x = _arb(sign, man, e)
    exact = x.log1p() if log else x.expm1()
    lo, hi = (_mp_arb(end) for end in _enclosure(sign, man, e, prec, log))
    assert lo < exact < hi                                       # strictly: rounded outward
    assert hi - lo <= abs(exact) * flint.arb(2) ** (3 - prec)    # tight: at most 4 ulps


@given(PRECS, st.integers(1, 400), st.integers(8, 6000), st.booleans(), st.booleans(),
       st.data())
def test_series_encloses_the_exact_value_within_four_ulps(prec: int, bits: int, below: int,
                                                          negative: bool, log: bool,
                                                          data: st.DataObject) -> None:
    """``|v| < 2^-below`` with a mantissa of ``bits`` bits, from next to ``2^-8`` down to
    ``2^-6000``."""
    man = data.draw(st.integers(2 ** (bits - 1), 2**bits - 1))
    _check(int(negative), man, -below - bits, prec, log)


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("sign", [0, 1])
@pytest.mark.parametrize(("man", "e"), [
    (2**53 - 1, -61),           # the largest double below 2^-8
    (1, -9),                    # 2^-9
    (1, -1074),                 # the least subnormal double
    (2**52 + 1, -1074 - 52),    # next to it, a long mantissa
    (3, -10**5),                # far below any precision: one term and the rest
    (2**999 + 1, -1008),        # just below 2^-8 with 1000 bits
])
@pytest.mark.parametrize("prec", [53, 203])
def test_series_at_the_extremes(man: int, e: int, sign: int, log: bool, prec: int) -> None:
    _check(sign, man, e, prec, log)


@pytest.mark.parametrize("v", [mp.zero, mp.mpf(2) ** -8, -mp.mpf(2) ** -8, mp.mpf("0.5"),
                               mp.mpf(3)])
def test_series_refuses_points_outside_its_range(v: object) -> None:
    with pytest.raises(ValueError, match=r"0 < \|v\| < 2\^-8"):
        series(v, False)


@given(st.integers(1, 400), st.integers(9, 120), st.integers(0, 6), st.integers(20, 120),
       st.booleans(), st.booleans(), st.data())
def test_sums_bound_the_series_with_few_terms(bits: int, below: int, terms: int, frac: int,
                                              log: bool, negative: bool,
                                              data: st.DataObject) -> None:
    """With ``terms`` as small as 0 what is left out is far above ``2^-frac``: the bound
    must cover it (two-sided: the true S inside, the bounds within 8 units plus 4 times
    the first term left out)."""
    man = data.draw(st.integers(2 ** (bits - 1), 2**bits - 1))
    shift = below + bits
    flint.ctx.prec = 4 * (frac + shift) + 200
    x = _arb(int(negative), man, -shift)
    s = (x.log1p() if log else x.expm1()) / x
    lo, hi = _sums(man, shift, terms, frac, log, alternating=negative != log)
    scaled = s * flint.arb(2) ** frac
    assert lo < scaled < hi
    first_out = flint.arb(man) ** (terms + 1) * flint.arb(2) ** (frac - shift * (terms + 1))
    first_out /= (terms + 2) if log else math.factorial(terms + 2)
    assert hi - lo <= 8 * (terms + 2) + 4 * first_out + 4


@given(st.integers(0, 2**300), st.integers(0, 400), st.integers(1, 10**6))
def test_directed_integer_division(a: int, shift: int, d: int) -> None:
    exact = Fraction(a, d * 2**shift)
    assert _down(a, shift, d) == exact.numerator // exact.denominator
    assert _up(a, shift, d) == -(-exact.numerator // exact.denominator)


def test_directed_division_pinned() -> None:
    assert (_down(7, 1, 2), _up(7, 1, 2)) == (1, 2)      # 7/4
    assert (_down(8, 1, 2), _up(8, 1, 2)) == (2, 2)      # exact: both the same
    assert (_down(1, 500, 3), _up(1, 500, 3)) == (0, 1)  # tiny: 0 and 1
