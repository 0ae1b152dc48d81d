"""The two series inside ``normal_sf``, each on its own: the integer sum of the Taylor range
(``special.marsaglia_sum``) and the Mills-ratio bracket of the asymptotic range
(``special.mills_bracket``).

``normal_sf`` returns ``1/2 - phi(x) S(x)`` with ``S(x) = sum_n x^(2n+1)/(2n+1)!!`` bounded
by two integers ``lo <= S 2^frac <= hi``.  Around that sum come 30 guard bits and an
outward-rounded ``phi``, so a tail bound that is slightly too small (the remainder's ratio
``x^2/(2n+4)`` instead of ``x^2/(2n+3)``) is invisible in the final enclosure and must be
caught here, where nothing else pads it.  Likewise the asymptotic range: ``R(t) = Q/phi``
lies between two consecutive partial sums, and a bracket built from the wrong ends of them
(``max`` for ``min``) still hides inside the final enclosure.

Independent route: python-flint's arb, ``S(x) = sqrt(pi/2) e^(x^2/2) erf(x/sqrt 2)``
(Marsaglia 2004, "Evaluating the normal distribution", J. Stat. Softw. 11(4), eq. for
``Phi(x) = 1/2 + phi(x) S(x)``), at ``3 frac + 200`` bits.  Checked: the arb ball lies
strictly inside ``[lo, hi] 2^-frac``, and the width is at most ``2^(1 - bits) S`` (the
series stops once a term is below ``2^-bits`` of the sum; the geometric tail at ratio
``<= 1/2`` at most doubles that term) plus the ``2n`` units of the per-term rounding.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv

from proofs_tests.arb_support import arb_normal_sf, dyadic_points, frac
from reference.core.numeric import endpoints
from reference.core.special import marsaglia_sum, mills_bracket


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


def points() -> st.SearchStrategy[tuple[int, int]]:
    """``x = man 2^exp`` from ``2^-1100`` to 38 (the Taylor range at 1000+ bits ends ~38)."""
    return dyadic_points(64, (-1100, 5), 38)


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


def _check_mills(t: Fraction, target: int) -> None:
    """``R(t) = Q(t)/phi(t) = sqrt(2 pi) e^(t^2/2) Q(t)`` in arb (``Q`` by the incomplete
    gamma function, as in test_special_arb) lies strictly
    inside the bracket, which is at most ``2^(2-target) R`` wide (two consecutive partial
    sums differ by the last term, below ``2^-target``, plus the rounding of ~t^2/2 steps)."""
    q = arb_normal_sf(t, target)            # relative radius below 2^-(target + 90)
    old_iv, old_arb = iv.prec, flint.ctx.prec
    iv.prec = target
    flint.ctx.prec = 2 * (target + t.numerator.bit_length() + t.denominator.bit_length()) + 200
    try:
        ends = endpoints(mills_bracket(mpmath.mp.make_mpf(mpmath.libmp.from_rational(
            t.numerator, t.denominator, 10**4)), target))   # t exactly (a short dyadic)
        x = flint.arb(t.numerator) / t.denominator
        exact = q * (2 * flint.arb.pi()).sqrt() * (x * x / 2).exp()
        lo, hi = frac(ends.lo), frac(ends.hi)
        assert exact.rad() < flint.arb(2) ** (-target - 60) * exact.mid()
        assert flint.arb(lo.numerator) / lo.denominator < exact
        assert exact < flint.arb(hi.numerator) / hi.denominator
        assert flint.arb((hi - lo).numerator) / (hi - lo).denominator \
            <= exact * flint.arb(2) ** (2 - target) * (1 + x * x)
    finally:
        iv.prec, flint.ctx.prec = old_iv, old_arb


@given(target=st.integers(20, 600), num=st.integers(0, 2**40), scale=st.integers(0, 60))
def test_mills_bracket_contains_the_ratio_and_is_tight(target: int, num: int,
                                                      scale: int) -> None:
    """Arguments from ``normal_sf``'s switch point ``sqrt(2 (target + 10) ln 2) + 1`` up to
    ``2^60`` times it, exact dyadics."""
    switch = math.sqrt(2 * (target + 10) * math.log(2)) + 1
    t = Fraction(math.ceil(switch * 2**20) + num, 2**20) * 2**scale
    _check_mills(t, target)


def test_mills_bracket_at_hand_worked_points() -> None:
    """``t = 10`` at 60 bits (``R(10) = 0.09902859647173192...``, from A&S's ``Q(10)``), and
    powers of two where the partial sums are exact, so nothing but the choice of ends keeps
    ``R`` inside: ``t = 2^200`` at 100 bits stops after ``1`` and ``1 - t^-2`` (``R`` is
    strictly between, the lower end must be the second), ``t = 2^30`` after
    ``1 - t^-2`` and ``1 - t^-2 + 3 t^-4`` (the upper end must be the second)."""
    _check_mills(Fraction(10), 60)
    _check_mills(Fraction(2**200), 100)
    _check_mills(Fraction(2**30), 100)
    _check_mills(Fraction(2**200 + 1), 100)


def test_mills_bracket_at_high_precision_just_above_the_switch() -> None:
    """At 2000 and 3000 bits, just above the switch ``T = sqrt(2 (target + 10) ln 2) + 1``:
    the smallest term ``(2n-1)!!/t^(2n)`` (at ``n ~ t^2/2``, about ``e^(-t^2/2)``, below
    ``2^-(target+10)``) must be reached.  Stopping where ``3n + 1 >= t^2`` instead (a third of
    the way) leaves a term near ``(2/(3e))^(t^2/3)``, about ``2^(-0.68 t^2)``, which at these
    precisions is above ``2^-target`` (``t^2 ~ 1.39 target``; below ~1000 bits it is not)."""
    for target in (2000, 3000):
        switch = math.sqrt(2 * (target + 10) * math.log(2)) + 1
        _check_mills(Fraction(math.ceil(switch * 2**20), 2**20), target)
