"""CKS20 Corollary 13 (delta form) where ln(1/delta) is astronomically large: tiny rho and
a large eps (below 2^64, so the working precision gets no extra bits for the size of the
inputs), where |ln delta| ~ eps^2/(4 rho) needs guard bits for eps^2/rho.

Independent route: the paper's objective
``ln delta_a = (a-1)(a rho - eps) + a ln(1 - 1/a) - ln(a-1)`` evaluated at 250 digits
(|ln delta| <= 2^324 needs 150 digits for 1e-45) at
the optimal order, found by bisection in ``ln t`` on the first-order condition
``(2a-1) rho - eps + ln(1 - 1/a) = 0`` (the objective's derivative; ``t = a - 1``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from mpmath import mp

from reference import certified
from reference.results import covers
from reference.results.conversions.cks20 import cks_delta


def _mpf(q: Fraction) -> mpmath.mpf:
    return mp.mpf(q.numerator) / q.denominator


def _ref_log_delta(rho: Fraction, eps: Fraction) -> mpmath.mpf:
    """``inf_a ln delta_a`` at the current (high) precision."""
    r, e = _mpf(rho), _mpf(eps)

    def cond(t: mpmath.mpf) -> mpmath.mpf:        # increasing in t
        return (1 + 2 * t) * r - e - mp.log1p(1 / t)

    guess = e / (2 * r)                             # cond ~ 0 there when 1/t is negligible
    lo, hi = guess / 4, guess * 4
    assert cond(lo) < 0 < cond(hi)
    while hi / lo - 1 > mp.mpf(2) ** (20 - mp.prec):
        mid = mp.sqrt(lo * hi)
        lo, hi = (mid, hi) if cond(mid) < 0 else (lo, mid)
    t = (lo + hi) / 2
    a = 1 + t
    return t * (a * r - e) + a * mp.log1p(-1 / a) - mp.log(t)


@covers("CKS20:Cor13-delta")
@pytest.mark.parametrize(("rho", "eps"), [(Fraction(1, 2**200), Fraction(2**63)),
                                          (Fraction(1, 2**120), Fraction(3 * 2**50))])
def test_delta_with_huge_log_is_tight(rho: Fraction, eps: Fraction) -> None:
    """ln(1/delta) ~ eps^2/(4 rho) = 2^324 (and about 2^218): the enclosure contains the
    reference and its relative width is at most 1e-40 (its log-width, as ln delta is only
    known to absolute accuracy |ln delta| 2^-prec: the guard bits for eps^2/rho pay that)."""
    enc = certified(cks_delta, rho=rho, eps=eps)
    with mp.workdps(250):
        ref = _ref_log_delta(rho, eps)
        lo, hi = mp.log(enc.lo), mp.log(enc.hi)
        assert lo <= ref <= hi
        assert hi - lo <= mp.mpf(10) ** -40
        assert abs(mp.log(cks_delta(rho=rho, eps=eps)) - ref) <= mp.mpf(10) ** -45
