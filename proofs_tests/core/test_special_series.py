"""The integer core of ``normal_sf``'s Taylor range (``special.marsaglia_sum``) on its own.

``normal_sf`` returns ``1/2 - phi(x) S(x)`` with ``S(x) = sum_n x^(2n+1)/(2n+1)!!`` bounded
by two integers ``lo <= S 2^frac <= hi``.  Around that sum come 30 guard bits and an
outward-rounded ``phi``, so a tail bound that is slightly too small (the remainder's ratio
``x^2/(2n+4)`` instead of ``x^2/(2n+3)``) is invisible in the final enclosure and must be
caught here, where nothing else pads it.

Independent route: python-flint's arb, ``S(x) = sqrt(pi/2) e^(x^2/2) erf(x/sqrt 2)``
(Marsaglia 2004, "Evaluating the normal distribution", J. Stat. Softw. 11(4), eq. for
``Phi(x) = 1/2 + phi(x) S(x)``), at ``3 frac + 200`` bits.  Checked: the arb ball lies
strictly inside ``[lo, hi] 2^-frac``, and the width is at most ``2^(1 - bits) S`` (the
series stops once a term is below ``2^-bits`` of the sum; the geometric tail at ratio
``<= 1/2`` at most doubles that term) plus the ``2n`` units of the per-term rounding.
"""

from __future__ import annotations

import flint
from hypothesis import given
from hypothesis import strategies as st

from reference.core.special import marsaglia_sum


def _check(man: int, exp: int, bits: int, frac: int, lo: int, hi: int) -> None:
    """``lo < S 2^frac < hi`` strictly, and ``hi - lo <= 2^(1-bits) S 2^frac + 8 (bits + frac)``."""
    old = flint.ctx.prec
    flint.ctx.prec = 3 * frac + 200   # S - x = x^3/3 + ... sits 2 log2(1/x) bits further down
    try:
        x = flint.arb(man) * flint.arb(2) ** exp
        exact = (flint.arb.pi() / 2).sqrt() * (x * x / 2).exp() * \
            (x / flint.arb(2).sqrt()).erf() * flint.arb(2) ** frac
        assert exact.rad() < flint.arb(2) ** -60 * exact.mid()
        assert flint.arb(lo) < exact < flint.arb(hi)
        # 4 (bits + frac) is far above the number of terms summed (2 units each)
        assert flint.arb(hi - lo) <= exact * flint.arb(2) ** (1 - bits) + 8 * (bits + frac)
    finally:
        flint.ctx.prec = old


@st.composite
def points(draw: st.DrawFn) -> tuple[int, int]:
    """``x = man 2^exp`` from ``2^-1100`` to 38 (the Taylor range at 1000+ bits ends ~38)."""
    width = draw(st.integers(1, 64), label="mantissa bits")
    man = draw(st.integers(2 ** (width - 1), 2 ** width - 1), label="mantissa") | 1
    log2 = draw(st.integers(-1100, 5), label="log2 x")
    exp = log2 - man.bit_length()
    if man * 2.0 ** exp > 38:
        exp -= 1
    return man, exp


@given(point=points(), bits=st.integers(8, 400))
def test_integer_bounds_contain_the_series_and_are_tight(point: tuple[int, int],
                                                        bits: int) -> None:
    man, exp = point
    frac = bits + 16 + max(0, -(exp + man.bit_length()))     # as normal_sf chooses it
    lo, hi = marsaglia_sum(man, exp, bits, frac)
    _check(man, exp, bits, frac, lo, hi)


def test_integer_bounds_at_hand_worked_points() -> None:
    """``x = 1``: ``S = 1 + 1/3 + 1/15 + 1/105 + 1/945 + ...``; ``x = 2^-40``: ``S = x +
    x^3/3 + ...`` with ``x^3/3`` below the 48-bit resolution, so both ends are ``x 2^frac``
    up to the tail's few units."""
    lo, hi = marsaglia_sum(1, 0, 40, 60)
    partial = sum(2**60 // d for d in (1, 3, 15, 105, 945, 10395, 135135, 2027025))
    assert lo >= partial - 8 and hi - lo < 2**22
    lo, hi = marsaglia_sum(1, -40, 8, 64)
    assert lo == 2**24 and 0 <= hi - lo <= 2
