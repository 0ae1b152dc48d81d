"""Property tests of the Rényi DP of the Poisson-subsampled Gaussian mechanism (MTZ19:rdp).

The value is ``ln(A_alpha)/(alpha-1)``, ``A_alpha = E_{z~N(0,sigma^2)}[b(z)^alpha]`` with
``b(z) = 1 - q + q e^((2z-1)/(2 sigma^2))``.  Independent routes (none calls the code under
test):

* integer orders: the finite binomial sum, in python-flint arb balls (the binomial weights by
  their ratio recurrence, ``A - 1`` as a sum of positive terms with ``expm1``, then ``log1p``);
* any order: the defining integral, (a) rigorously with arb's integrator
  (``flint.acb.integral``, on ``[-K sigma, alpha + K sigma]`` with explicit Gaussian tail bounds
  for the rest of the line), and (b) by mpmath's tanh-sinh quadrature at 60 digits, split at
  ``0``, ``alpha``, ``z0`` and steps of ``sigma`` around them;
* closed forms: ``q = 0`` gives 0, ``q = 1`` gives ``alpha/(2 sigma^2)``, ``alpha = 2`` gives
  ``ln(1 + q^2 (e^(1/sigma^2) - 1))``, and second-order expansions for tiny ``q`` and huge
  ``sigma``; the KL divergence (by quadrature) as ``alpha -> 1``;
* the reverse divergence ``D_alpha(mu0 || mu)`` by quadrature (MTZ19 Section 3 shows it is never
  larger);
* the peer library dp-accounting (floats);
* for the CVZ weights: ``d_n`` in exact ``Z[sqrt 2]`` arithmetic and by mpmath, the closed form
  of the weights (CVZ 2000, Algorithm 1), and two alternating series with known sums.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import frac
from proofs_tests.dpsgd_support import (
    _PLAIN,
    _QUAD,
    _TIGHT,
    _arb_integer_rdp,
    _arb_integral_rdp,
    _assert_pinned,
    _close,
    _enclosure,
    _fr,
    _fractional,
    _mpf,
    _noises,
    _plain,
    _quad,
    _quad_rdp,
    _rates,
)
from proofs_tests.profiles import share
from reference import certified
from reference.results import covers
from reference.results.dpsgd.mtz19 import MAX_FRACTIONAL_ORDER, MAX_ORDER, sgm_rdp

# ---- 1. integer orders: the finite sum in arb --------------------------------------------------

@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 2)), deadline=None)
@given(q=_rates(), sigma=_noises(), n=st.integers(2, 300))
@example(q=Fraction(1, 10**300), sigma=Fraction(1, 100), n=300)
@example(q=Fraction(1, 10**300), sigma=Fraction(10**6), n=300)
@example(q=1 - Fraction(1, 10**12), sigma=Fraction(1, 100), n=300)
@example(q=1 - Fraction(1, 10**12), sigma=Fraction(10**6), n=2)
def test_integer_orders_match_the_finite_sum_in_arb(q: Fraction, sigma: Fraction,
                                                     n: int) -> None:
    lo, hi = _arb_integer_rdp(q, sigma, n)
    assert hi - lo <= lo * Fraction(1, 10**100)
    _assert_pinned(lo, hi, q, sigma, n)


# ---- 2. the defining integral ------------------------------------------------------------------

_FRACTIONAL_PINS = [("0.01", "1", "2.5"), ("0.1", "0.8", "1.5"), ("0.9", "1", "3.5"),
                    ("0.3", "2", "7.25"), ("0.01", "0.5", "1.0001")]


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma", "alpha"), _FRACTIONAL_PINS)
def test_fractional_pins_match_the_defining_integral(q: str, sigma: str, alpha: str) -> None:
    """Rigorous (arb's integrator) and by mpmath's quadrature."""
    lo, hi = _arb_integral_rdp(_fr(q), _fr(sigma), _fr(alpha))
    _assert_pinned(lo, hi, q, sigma, alpha)
    assert _close(_quad_rdp(q, sigma, alpha), lo, _QUAD)


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma", "alpha"), [("0.01", "1", 2), ("0.5", "2", 8),
                                                   ("0.9", "0.7", 5), ("0.001", "4", 32)])
def test_integer_pins_match_the_defining_integral(q: str, sigma: str, alpha: int) -> None:
    """The finite sum itself (not only its arithmetic) against the integral, rigorously."""
    lo, hi = _arb_integral_rdp(_fr(q), _fr(sigma), _fr(alpha))
    _assert_pinned(lo, hi, q, sigma, alpha)


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 15)), deadline=None)
@given(q=st.floats(1e-4, 0.99), sigma=st.floats(0.3, 10), alpha=_fractional(1.01, 40))
def test_fractional_orders_match_the_defining_integral(q: float, sigma: float,
                                                       alpha: float) -> None:
    lo, hi = _arb_integral_rdp(_fr(q), _fr(sigma), _fr(alpha))
    _assert_pinned(lo, hi, q, sigma, alpha)
    assert _close(_quad_rdp(q, sigma, alpha), lo, _QUAD)


# ---- 3. limits and closed forms ----------------------------------------------------------------

@covers("MTZ19:rdp")
@pytest.mark.parametrize("alpha", ["1.5", 2, "7.25", MAX_ORDER])
def test_no_sampling_gives_zero(alpha: object) -> None:
    assert sgm_rdp(q=0, sigma="0.7", alpha=alpha) == 0
    assert _enclosure(0, "0.7", alpha) == (Fraction(0), Fraction(0))


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(sigma=_noises(), alpha=st.one_of(st.integers(2, MAX_ORDER),
                                        st.fractions(1 + Fraction(1, 10**6),
                                                     MAX_FRACTIONAL_ORDER,
                                                     max_denominator=10**6)))
def test_full_sampling_is_the_gaussian_mechanism(sigma: Fraction, alpha: object) -> None:
    """``q = 1``: the Gaussian mechanism, ``alpha / (2 sigma^2)`` exactly."""
    exact = _fr(alpha) / (2 * sigma * sigma)
    elo, ehi = _enclosure(1, sigma, alpha)
    assert elo <= exact <= ehi
    assert ehi - elo <= exact * _TIGHT
    assert _close(_plain(1, sigma, alpha), exact, _PLAIN)


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(q=_rates(), sigma=_noises())
@example(q=Fraction(1, 10**300), sigma=Fraction(10**6))
@example(q=Fraction(1, 2), sigma=Fraction(1))
def test_order_two_closed_form(q: Fraction, sigma: Fraction) -> None:
    """``A_2 = 1 + q^2 (e^(1/sigma^2) - 1)``, by mpmath at 150 digits (``expm1``, ``log1p``:
    no cancellation, so the reference is good to ~145 digits relative)."""
    with mp.workdps(150):
        ref = mp.log1p(_mpf(q) ** 2 * mp.expm1(1 / _mpf(sigma) ** 2))
        slack = mp.mpf(10) ** -120
        enc = certified(sgm_rdp, q=q, sigma=sigma, alpha=2)
        elo, ehi = enc.lo, enc.hi
        assert elo <= ref * (1 + slack) and ref * (1 - slack) <= ehi
        assert ehi - elo <= ref * mp.mpf(10) ** -45
        assert abs(sgm_rdp(q=q, sigma=sigma, alpha=2) - ref) <= ref * mp.mpf(10) ** -45


# ---- 4. monotonicity ---------------------------------------------------------------------------

_orders = st.one_of(st.integers(2, 64), st.floats(1.01, 64))


def _strictly_below(x: Fraction, y: Fraction) -> bool:
    """``x < y`` by far more than the 50-digit rounding of either."""
    return x < y and y - x > abs(y) * Fraction(1, 10**40)


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(q=st.floats(1e-4, 1), sigma=st.floats(0.3, 20), alpha=_orders,
       step=st.floats(0.01, 1))
def test_increasing_in_the_order(q: float, sigma: float, alpha: float, step: float) -> None:
    """Rényi divergences are nondecreasing in the order (strictly here: the two laws differ)."""
    larger = _fr(alpha) * (1 + _fr(step))
    assert _strictly_below(_plain(q, sigma, alpha), _plain(q, sigma, larger))


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(q=st.floats(1e-6, 0.99), sigma=st.floats(0.3, 20), alpha=_orders,
       step=st.floats(0.01, 1))
def test_increasing_in_the_sampling_rate(q: float, sigma: float, alpha: float,
                                         step: float) -> None:
    larger = _fr(q) + (1 - _fr(q)) * _fr(step)
    assert _strictly_below(_plain(q, sigma, alpha), _plain(larger, sigma, alpha))


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(q=st.floats(1e-6, 1), sigma=st.floats(0.3, 20), alpha=_orders,
       step=st.floats(0.01, 1))
def test_decreasing_in_the_noise(q: float, sigma: float, alpha: float, step: float) -> None:
    larger = _fr(sigma) * (1 + _fr(step))
    assert _strictly_below(_plain(q, larger, alpha), _plain(q, sigma, alpha))


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 20)), deadline=None)
@given(q=st.floats(1e-4, 0.9), sigma=st.floats(0.5, 10), alpha=_orders,
       step=st.floats(0.05, 1))
def test_monotone_with_disjoint_enclosures(q: float, sigma: float, alpha: float,
                                           step: float) -> None:
    """The three directions again, now as disjoint certified enclosures."""
    base = _enclosure(q, sigma, alpha)
    up = Fraction(1) + _fr(step)
    assert base[1] < _enclosure(q, sigma, _fr(alpha) * up)[0]
    assert base[1] < _enclosure(_fr(q) + (1 - _fr(q)) * _fr(step), sigma, alpha)[0]
    assert _enclosure(q, _fr(sigma) * up, alpha)[1] < base[0]


# ---- 5. the fractional series next to an integer order ------------------------------------------

@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 4)), deadline=None)
@given(q=st.floats(1e-4, 0.999), sigma=st.floats(0.3, 10), n=st.integers(2, 40))
def test_fractional_series_meets_the_integer_sum(q: float, sigma: float, n: int) -> None:
    """At ``alpha = n -+ 2^-80`` the two-series route (the code's path for non-integers) lies
    within ~1e-20 relative of the finite sum at ``n``, on the correct side: the order moves the
    value by ``2^-80 d/dalpha``, far above the 50-digit rounding and far below 1e-20."""
    h = Fraction(1, 2**80)
    mid = _plain(q, sigma, n)
    below, above = _plain(q, sigma, n - h), _plain(q, sigma, n + h)
    assert _close(below, mid, Fraction(1, 10**20)) and _close(above, mid, Fraction(1, 10**20))
    assert _strictly_below(below, mid) and _strictly_below(mid, above)


# ---- 6. the other direction --------------------------------------------------------------------

def _reverse_rdp(q: object, sigma: object, alpha: object) -> Fraction:
    """``D_alpha(mu0 || mu) = ln E_mu[(mu0/mu)^alpha]/(alpha-1)``; ``mu = b phi``, so the
    moment is ``int phi b^(1-alpha)``."""
    with mp.workdps(60):
        a = _mpf(_fr(alpha))
        moment = _quad(q, sigma, lambda log_b: mp.exp((1 - a) * log_b), (0, 1 - a))
        return frac(mp.log(moment) / (a - 1))


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma", "alpha"), [("0.01", "1", "2.5"), ("0.1", "0.8", "1.5"),
                                                   ("0.5", "2", 8), ("0.9", "1", "3.5"),
                                                   ("0.3", "0.5", "20.5")])
def test_reverse_divergence_is_not_larger_pins(q: str, sigma: str, alpha: object) -> None:
    reverse = _reverse_rdp(q, sigma, alpha)
    assert 0 < reverse <= _enclosure(q, sigma, alpha)[1]


@covers("MTZ19:rdp")
@settings(max_examples=share(Fraction(1, 30)), deadline=None)
@given(q=st.floats(1e-3, 0.99), sigma=st.floats(0.3, 10), alpha=st.floats(1.01, 30))
def test_reverse_divergence_is_not_larger(q: float, sigma: float, alpha: float) -> None:
    reverse = _reverse_rdp(q, sigma, alpha)
    assert 0 < reverse <= _enclosure(q, sigma, alpha)[1]
