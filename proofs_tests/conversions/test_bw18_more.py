"""More property tests of the exact Gaussian curve (BW18 Thm 8): domain limits, tightness
where the closed form cancels, and the inverse next to ``delta(0)``.

Independent routes: ``Q(x) = erfc(x / sqrt 2) / 2`` by mpmath's own ``erfc`` at 800 digits
(the code under test uses its own rigorous series, :func:`reference.core.special.normal_sf`),
python-flint's ``arb`` error function, and the first-order expansion of the curve at 0.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
from mpmath import mp

from reference import DomainError, certified
from reference.core.numeric import working
from reference.results import covers
from reference.results.conversions.bw18 import (
    gaussian_delta,
    gaussian_delta_rho,
    gaussian_epsilon,
    gaussian_epsilon_rho,
)


def _mpf(q: Fraction) -> mpmath.mpf:
    return mp.mpf(q.numerator) / q.denominator


def _curve_ref(mu: Fraction, eps: Fraction) -> mpmath.mpf:
    """``Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2)`` at 800 digits with mpmath's erfc (the
    cancellation here is at most ~200 digits)."""
    with mp.workdps(800):
        m, e = _mpf(mu), _mpf(eps)
        a, b = e / m - m / 2, e / m + m / 2
        return +(mp.erfc(a / mp.sqrt(2)) / 2 - mp.exp(e) * mp.erfc(b / mp.sqrt(2)) / 2)


@covers("BW18:Thm8", "BW18:Thm8-eps")
def test_precondition_bounds_the_ratio_sensitivity_over_sigma() -> None:
    """The limit is on mu = sensitivity/sigma, in [1e-8, 1e8]: sigma = sensitivity = 1e5 is
    mu = 1 (the value erf-based by flint), and mu = 1e9, 1.5e8, 5e-9, 1e-9 are refused
    although sigma and sensitivity are each moderate (and their product inside the range)."""
    flint.ctx.prec = 300
    half = flint.arb(1) / 2
    q = lambda x: (x / flint.arb(2).sqrt()).erfc() / 2  # noqa: E731
    ref = q(half) - flint.arb(1).exp() * q(3 * half)    # mu = 1, eps = 1
    value = gaussian_delta(sigma=10**5, eps=1, sensitivity=10**5)
    assert abs(flint.arb(mpmath.nstr(value, 60)) - ref) < flint.arb("1e-48")
    for sigma, sens in [(Fraction(1, 10**5), 10**4), (2, 3 * 10**8), (2 * 10**8, 1),
                        (10**5, Fraction(1, 10**4))]:
        with pytest.raises(DomainError) as err:
            gaussian_delta(sigma=sigma, eps=1, sensitivity=sens)
        assert err.value.param == "sigma"
        with pytest.raises(DomainError):
            gaussian_epsilon(sigma=sigma, delta="1e-6", sensitivity=sens)
    for sigma in (Fraction(1, 10**8), 10**8):  # the ends themselves are inside
        assert 0 < gaussian_delta(sigma=sigma, eps=1) <= 1
    # rho in [1e-16, 1e16): both ends of the rho forms, each side
    for rho in (Fraction(1, 10**16), 10**16 - 1):
        assert 0 < gaussian_delta_rho(rho=rho, eps=1) <= 1
    for rho in (Fraction(99, 10**18), 10**16):
        with pytest.raises(DomainError) as err:
            gaussian_delta_rho(rho=rho, eps=1)
        assert err.value.param == "rho"


#: (sigma, sensitivity, eps) with mu = sensitivity/sigma and eps exact binary numbers, so the
#: inputs carry no rounding; delta(eps)/Q(a) ~ mu^2/eps cancels up to ~60 bits, and
#: exp(-a^2/2) has a^2 up to 2^72.
_EXACT = [(Fraction(2**28), 3, Fraction(1)), (Fraction(2**28), 3, Fraction(7, 16)),
          (Fraction(2**28), 3, Fraction(3, 2**28)), (Fraction(2**26), 1, Fraction(1, 2**26)),
          (Fraction(2**26), 1, Fraction(1, 2**10)), (Fraction(2**26), 1, Fraction(1024)),
          (Fraction(2**26), 1, Fraction(1, 2**20)), (Fraction(1, 2**10), 1, Fraction(2**39)),
          (Fraction(1, 2**10), 3, Fraction(2**30 + 1))]


@covers("BW18:Thm8", "BW18:Thm8-rho")
@pytest.mark.parametrize(("sigma", "sens", "eps"), _EXACT)
def test_cancellation_is_paid_with_guard_bits(sigma: Fraction, sens: int, eps: Fraction,
                                              ) -> None:
    """Two-sided and tight: the enclosure contains the 800-digit value, its relative width
    is at most 1e-60 (intervals work at 50 + 10 digits; the guard bits pay for the
    cancellation and for a^2 in full, so the width stays at that level), and the plain value
    is within 1e-49 of it."""
    mu = sens / sigma
    ref = _curve_ref(mu, eps)
    enc = certified(gaussian_delta, sigma=sigma, eps=eps, sensitivity=sens)
    point = gaussian_delta(sigma=sigma, eps=eps, sensitivity=sens)
    with mp.workdps(800):
        assert enc.lo <= ref <= enc.hi
        assert enc.hi - enc.lo <= mp.mpf(10) ** -60 * ref
        assert abs(point - ref) <= mp.mpf(10) ** -49 * ref
    rho = mu * mu / 2
    if sens == 1 and rho >= Fraction(1, 10**16):  # mu = sqrt(2 rho) exact too
        enc = certified(gaussian_delta_rho, rho=rho, eps=eps)
        with mp.workdps(800):
            assert enc.lo <= ref <= enc.hi
            assert enc.hi - enc.lo <= mp.mpf(10) ** -60 * ref


@covers("BW18:Thm8-eps", "BW18:Thm8-rho-eps")
@pytest.mark.parametrize("digits", [48, 60, 70, pytest.param(300, marks=pytest.mark.slow)])
def test_inverse_at_delta_within_rounding_of_delta_at_zero(digits: int) -> None:
    """delta(0) = erf(1/(2 sqrt 2)) at sigma = 1 (flint), truncated to ``digits`` decimals:
    the exact inverse is ``(delta(0) - delta) / Q(1/2)`` to first order (the derivative of
    the curve at 0 is ``-Q(mu/2)``: the phi terms cancel; the second-order term is
    relatively of the order of delta(0) - delta, below 1e-47).  At 60 and 70 digits
    ln(delta) and ln(delta(0)) are equal at the working precision, and the solver raised
    RuntimeError (no sign change at 0); after that fix the certificate was only [0, ~1e-49]
    with the plain value ~1e-49 (at 300 digits the exact inverse is 3.2e-300: the value was
    off by 250 orders of magnitude).  Now the inverse escalates the digits until its
    enclosure is as tight as 50 digits warrant (200 digits for 60 and 70, 800 for 300)."""
    flint.ctx.prec = 600 + 4 * digits
    tv = (flint.arb(1) / (2 * flint.arb(2).sqrt())).erf()
    delta = Fraction(int((tv * flint.arb(10) ** digits).floor().unique_fmpz()), 10**digits)
    q_half = (flint.arb(1) / (2 * flint.arb(2).sqrt())).erfc() / 2
    first = (tv - flint.arb(delta.numerator) / delta.denominator) / q_half
    with mp.workdps(120):
        ref = mp.mpf(first.mid().str(60, radius=False))
    for cert in (gaussian_epsilon(sigma=1, delta=delta),
                 gaussian_epsilon_rho(rho=Fraction(1, 2), delta=delta)):
        assert cert.holds
        with mp.workdps(120):
            slack = mp.mpf(10) ** -45 * ref       # the first-order error, and more
            assert cert.lo - slack <= ref <= cert.hi + slack
            assert cert.lo <= cert.value <= cert.hi
            assert abs(cert.value - ref) <= slack
        with working(mp):
            assert cert.tight(mp.prec)
    with working(mp):  # the plain curve at 0 is above delta: a positive root exists
        assert gaussian_delta(sigma=1, eps=0) >= _mpf(delta)
