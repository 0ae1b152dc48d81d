"""Property tests of the Renyi divergence of randomized response (MIR17).

Independent route: the two-point sum of the Renyi divergence, and its limits.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends as _arb_ends
from proofs_tests.profiles import share
from reference.core.numeric import exact
from reference.results import covers
from reference.results.conversions.mir17 import rr_renyi


@covers("MIR17:RR-renyi")
@settings(max_examples=share(Fraction(2, 3)))
@given(eps=st.floats(1e-3, 20), alpha=st.floats(1.01, 50))
def test_rr_renyi_by_two_point_sum(eps: float, alpha: float) -> None:
    with mp.workdps(80):
        e, a = mp.mpf(eps), mp.mpf(alpha)
        p = mp.exp(e) / (1 + mp.exp(e))
        q = 1 - p
        direct = mp.log(p**a * q ** (1 - a) + q**a * p ** (1 - a)) / (a - 1)
    assert abs(rr_renyi(eps=eps, alpha=alpha) - direct) <= mp.mpf(10) ** -40 * (1 + direct)


@covers("MIR17:RR-renyi")
def test_rr_renyi_limits() -> None:
    """alpha -> 1 gives KL = eps tanh(eps/2); alpha -> infinity gives eps; increasing in alpha."""
    with mp.workdps(50):
        eps = mp.mpf("0.7")
        near_one = rr_renyi(eps="0.7", alpha="1.000000000000000000001")
        assert abs(near_one - eps * mp.tanh(eps / 2)) < mp.mpf(10) ** -18
        assert abs(rr_renyi(eps="0.7", alpha=10**12) - eps) < mp.mpf(10) ** -11
    values = [rr_renyi(eps="0.7", alpha=a) for a in ("1.5", "2", "4", "16")]
    assert values == sorted(values)


def _q(x: object) -> Fraction:
    return exact(x, "x", "test")


@covers("MIR17:RR-renyi")
@pytest.mark.parametrize("eps, step", [
    (1e-06, Fraction(1, 10**300)),       # was OverflowError (alpha - 1 rounded to 0)
    (1e-06, Fraction(5e-324)),
    ("0.7", Fraction(1, 10**300)),
    (5e-324, Fraction(1, 10**15)),
    ("1e300", Fraction(1, 10**300)),
])
def test_rr_renyi_order_next_to_one(eps: object, step: Fraction) -> None:
    """alpha = 1 + step with step down to 5e-324: the two-point sum in arb balls at 8000
    bits (which cancels about 1100 bits, far below that precision) pins the value.

    For eps = 1e300 the sum is ``eps + ln(1 + w)/t`` with ``t = alpha - 1`` and
    ``-1/(1 + e^eps) < w < 0``, so ``0 < eps - D < 2/(t e^eps) < 10^-1000``: that
    bracket is the reference there."""
    flint = pytest.importorskip("flint")
    x = Fraction(eps)
    if x > 10**6:
        lo, hi = x - Fraction(1, 10**1000), x
    else:
        flint.ctx.prec = 8000
        try:
            e = flint.arb(flint.fmpq(x.numerator, x.denominator))
            a = 1 + flint.arb(flint.fmpq(step.numerator, step.denominator))
            p, q = 1 / (1 + (-e).exp()), 1 / (1 + e.exp())
            lo, hi = _arb_ends(((p**a) * q ** (1 - a) + (q**a) * p ** (1 - a)).log() / (a - 1))
        finally:
            flint.ctx.prec = 53
    assert hi - lo <= lo * Fraction(1, 10**60)
    value = rr_renyi(eps=eps, alpha=1 + step)
    enc = rr_renyi.certified(eps=eps, alpha=1 + step)
    assert _q(enc.lo) <= lo and hi <= _q(enc.hi)
    assert _q(enc.hi) - _q(enc.lo) <= lo * Fraction(1, 10**45)
    # the plain value is rounded to the working 50 digits: inside up to that rounding
    slack = lo * Fraction(1, 10**48)
    assert _q(enc.lo) - slack <= _q(value) <= _q(enc.hi) + slack


@covers("MIR17:RR-renyi")
@pytest.mark.parametrize("alpha", ["1.5", "2", "7"])
def test_rr_renyi_at_eps_one_and_zero(alpha: str) -> None:
    """eps = 1 by the two-point sum in flint's arb at 400 bits (p = e/(1 + e)); eps = 0 gives
    the divergence of two equal laws, exactly 0."""
    flint = pytest.importorskip("flint")
    a_q = Fraction(alpha)
    flint.ctx.prec = 400
    try:
        a = flint.arb(flint.fmpq(a_q.numerator, a_q.denominator))
        p = 1 / (1 + (-flint.arb(1)).exp())
        q = 1 - p
        lo, hi = _arb_ends(((p**a) * q ** (1 - a) + (q**a) * p ** (1 - a)).log() / (a - 1))
    finally:
        flint.ctx.prec = 53
    enc = rr_renyi.certified(eps=1, alpha=alpha)
    assert _q(enc.lo) <= lo and hi <= _q(enc.hi)
    assert _q(enc.hi) - _q(enc.lo) <= lo * Fraction(1, 10**45)
    assert abs(_q(rr_renyi(eps=1, alpha=alpha)) - lo) <= lo * Fraction(1, 10**48)
    assert rr_renyi(eps=0, alpha=alpha) == 0
    zero = rr_renyi.certified(eps=0, alpha=alpha)
    assert zero.lo == zero.hi == 0


@covers("MIR17:RR-renyi")
@pytest.mark.parametrize("alpha", [1, "0.5", 0, -2])
def test_rr_renyi_refuses_orders_at_most_one(alpha: object) -> None:
    from reference import DomainError
    with pytest.raises(DomainError) as err:
        rr_renyi(eps=1, alpha=alpha)
    assert err.value.param == "alpha"
