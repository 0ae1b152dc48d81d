"""Property tests of MTZ19:rdp, continued: the peer library, the CVZ weights, the domain
and the extremes (routes in ``proofs_tests/dpsgd_support.py`` and ``test_mtz19.py``)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from mpmath import mp

from proofs_tests.arb_support import frac
from proofs_tests.dpsgd_support import (
    _TIGHT,
    _arb_integer_rdp,
    _arb_integral_rdp,
    _assert_pinned,
    _close,
    _enclosure,
    _fr,
    _mpf,
    _plain,
    _quad,
)
from reference import DomainError, certified
from reference.results import covers
from reference.results.dpsgd.mtz19 import MAX_FRACTIONAL_ORDER, MAX_ORDER, cvz_weights, sgm_rdp

# ---- 7. the peer library -----------------------------------------------------------------------

@covers("MTZ19:rdp")
def test_agrees_with_dp_accounting() -> None:
    """dp-accounting 0.6.0 at integer orders: its finite sum agrees to 1e-9 relative.  At
    fractional orders it adds the sizes ``|t_i| + |t'_i|`` of the two series (the signs of the
    tail are dropped) until the terms are ``e^-30`` below the total, so its value is an upper
    bound, up to 75% above the exact value at these inputs (checked against the
    defining integral in the tests above), and infinite when its 1000 steps do not suffice:
    there only ``peer >= value`` is asserted."""
    peer = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    compute = peer._compute_rdp_poisson_subsampled_gaussian
    for q in (1e-3, 1e-2, 0.1):
        for sigma in (0.5, 1, 2, 4):
            for alpha in (1.5, 2, 2.5, 3, 8, 32, 64):
                theirs = float(compute(q, sigma, [alpha])[0])
                ours = float(sgm_rdp(q=q, sigma=sigma, alpha=alpha))
                if alpha == int(alpha):
                    assert math.isclose(theirs, ours, rel_tol=1e-9), (q, sigma, alpha)
                else:
                    assert theirs >= ours * (1 - 1e-12), (q, sigma, alpha, theirs, ours)


# ---- 8. the CVZ weights ------------------------------------------------------------------------

def _d_exact(n: int) -> int:
    """``((3+sqrt 8)^n + (3-sqrt 8)^n)/2`` in ``Z[sqrt 2]``: ``(3 + 2 sqrt 2)^n = a + b sqrt 2``
    and ``(3 - 2 sqrt 2)^n = a - b sqrt 2``, so it is ``a``."""
    a, b = 1, 0
    for _ in range(n):
        a, b = 3 * a + 4 * b, 2 * a + 3 * b
    return a


@covers("MTZ19:rdp")
def test_cvz_weights() -> None:
    """``d_n`` (exactly and by mpmath), the weights against CVZ's closed form ``c_k =
    sum_{m=k+1}^{n} n/(n+m) C(n+m, 2m) 4^m`` (signs alternating), and the accelerated sums of
    ``1 - 1/2 + 1/3 - ...`` and ``1 - 1/3 + 1/5 - ...`` within ``S/d_n`` (CVZ Proposition 1:
    ``S`` the sum, ``a_k`` moments of a positive measure on ``[0, 1]``)."""
    with mp.workdps(120):
        ln2, quarter_pi = mp.log(2), mp.pi / 4
        for n in range(1, 51):
            d, weights = cvz_weights(n)
            assert d == _d_exact(n)
            assert d == int(mp.nint(((3 + mp.sqrt(8)) ** n + (3 - mp.sqrt(8)) ** n) / 2))
            assert len(weights) == n
            for k, w in enumerate(weights):
                c = sum((Fraction(n, n + m) * math.comb(n + m, 2 * m) * 4**m
                         for m in range(k + 1, n + 1)), Fraction(0))
                assert w == (c if k % 2 == 0 else -c) / d
            for step, target in ((1, ln2), (2, quarter_pi)):   # a_k = 1/(step k + 1)
                approx = sum((w * Fraction(1, step * k + 1) for k, w in enumerate(weights)),
                             Fraction(0))
                assert abs(_mpf(approx) - target) <= target / d


# ---- 9. the domain -----------------------------------------------------------------------------

@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma", "alpha", "param"), [
    ("0.1", "1", 1, "alpha"), ("0.1", "1", MAX_ORDER + 1, "alpha"), ("0.1", "1", "0.5", "alpha"),
    ("0.1", "1", Fraction(2 * MAX_FRACTIONAL_ORDER + 1, 2), "alpha"),
    ("-0.1", "1", 2, "q"), ("1.5", "1", 2, "q"), ("0.1", 0, 2, "sigma"), ("0.1", "-1", 2, "sigma"),
])
def test_domain_errors(q: object, sigma: object, alpha: object, param: str) -> None:
    for is_certified in (False, True):
        with pytest.raises(DomainError) as err:
            if is_certified:
                certified(sgm_rdp, q=q, sigma=sigma, alpha=alpha)
            else:
                sgm_rdp(q=q, sigma=sigma, alpha=alpha)
        assert err.value.param == param
        assert param in str(err.value) and "MTZ19:rdp" in str(err.value)


# ---- 10. extremes ------------------------------------------------------------------------------

def _second_order(q: Fraction, sigma: Fraction, alpha: Fraction) -> mpmath.mpf:
    """``ln(1 + C(alpha,2) q^2 (e^(1/sigma^2) - 1))/(alpha-1)``: ``A = E[(1 + q(L-1))^alpha]``
    with ``E[L] = 1`` and ``E[(L-1)^2] = e^(1/sigma^2) - 1``."""
    a = _mpf(alpha)
    return mp.log1p(a * (a - 1) / 2 * _mpf(q) ** 2 * mp.expm1(1 / _mpf(sigma) ** 2)) / (a - 1)


@covers("MTZ19:rdp")
@pytest.mark.parametrize("alpha", ["2.5", "3"])
def test_tiny_sampling_rate(alpha: str) -> None:
    """``q = 1e-300``: the next term of the expansion is ``O(q^(alpha-2))`` relative (1e-150 at
    2.5, 1e-300 at 3), so the second-order value pins the enclosure at 1e-40 on both sides."""
    q, sigma = Fraction(1, 10**300), Fraction(1)
    with mp.workdps(80):
        ref = frac(_second_order(q, sigma, _fr(alpha)))
    elo, ehi = _enclosure(q, sigma, alpha)
    band = ref * Fraction(1, 10**40)
    assert ref - band <= elo <= ehi <= ref + band
    assert _close(_plain(q, sigma, alpha), ref, Fraction(1, 10**40))


@covers("MTZ19:rdp")
@pytest.mark.parametrize("alpha", ["2.5", "3"])
def test_huge_noise(alpha: str) -> None:
    """``sigma = 1e6``, ``q = 1/2``: ``L - 1 = O(1/sigma)``, so the third-order term is
    ``O(q/sigma^2)`` relative; the value is about ``alpha q^2 / (2 sigma^2)``."""
    q, sigma = Fraction(1, 2), Fraction(10**6)
    with mp.workdps(80):
        ref = frac(_second_order(q, sigma, _fr(alpha)))
    rough = _fr(alpha) * q * q / (2 * sigma * sigma)
    assert _close(ref, rough, Fraction(1, 10**11))
    elo, ehi = _enclosure(q, sigma, alpha)
    band = ref * Fraction(1, 10**10)
    assert ref - band <= elo <= ehi <= ref + band
    assert ehi - elo <= ref * _TIGHT
    assert _close(_plain(q, sigma, alpha), ref, Fraction(1, 10**10))


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma"), [("0.01", "1"), ("0.5", "2")])
def test_order_next_to_one_is_the_kl_divergence(q: str, sigma: str) -> None:
    """``alpha = 1 + 1e-30``: the value is ``KL(mu || mu0) + O(1e-30)``; the KL divergence is
    ``E_mu0[b ln b]`` = ``int phi (b ln b - b + 1)`` (a positive integrand), by quadrature."""
    alpha = 1 + Fraction(1, 10**30)
    with mp.workdps(60):
        kl = frac(_quad(q, sigma, lambda log_b: mp.exp(log_b) * (log_b - 1) + 1, (0, 1)))
    elo, ehi = _enclosure(q, sigma, alpha)
    band = kl * Fraction(1, 10**20)
    assert kl - band <= elo <= ehi <= kl + band
    assert ehi - elo <= kl * _TIGHT
    assert _close(_plain(q, sigma, alpha), kl, Fraction(1, 10**20))


@covers("MTZ19:rdp")
def test_largest_fractional_order() -> None:
    """``alpha = 255.5`` (fractional orders stop at 256): the defining integral in arb, over
    ``alpha +- 40 sigma`` (the tail bound carries a factor ``2^(alpha-1)``)."""
    q, sigma, alpha = Fraction(1, 1000), Fraction(50), Fraction(2 * MAX_FRACTIONAL_ORDER - 1, 2)
    lo, hi = _arb_integral_rdp(q, sigma, alpha, width=40)
    _assert_pinned(lo, hi, q, sigma, alpha)


@covers("MTZ19:rdp")
def test_largest_order() -> None:
    """``alpha = 10000`` (the largest order), ``q = 1e-3``, ``sigma = 50``: the finite sum of
    10001 terms in arb."""
    q, sigma = Fraction(1, 1000), Fraction(50)
    lo, hi = _arb_integer_rdp(q, sigma, MAX_ORDER)
    assert hi - lo <= lo * Fraction(1, 10**100)
    _assert_pinned(lo, hi, q, sigma, MAX_ORDER)
