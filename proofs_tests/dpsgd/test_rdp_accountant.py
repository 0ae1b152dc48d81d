"""Property tests of DP-SGD accounting by RDP (DPSGD:eps-rdp, DPSGD:delta-rdp).

The results minimise CKS20 Prop. 12 over the real orders ``1 < alpha <= 256`` with the RDP of
the sampled Gaussian mechanism (``MTZ19:rdp``), and certify the minimum from four orders
around the one their search finds.  Expected values come from routes that share none of that
code:

* an independent minimisation over the order: the objective built here from plain
  ``MTZ19:rdp`` values at 60 digits, a scan of the integer orders to bracket the minimum, then
  mpmath's ``findroot`` on its derivative (``mp.diff``, central differences), the value at
  the root;
* the objective at given orders in interval arithmetic built here from certified ``MTZ19:rdp``
  enclosures (no order can beat the infimum; a golden-section refinement in plain arithmetic
  gets close to it);
* ``q = 1``: the sampled Gaussian is the Gaussian mechanism, ``T``-fold ``rho``-zCDP with
  ``rho = T/(2 sigma^2)`` exactly, so the results are ``CKS20:Cor13`` / ``CKS20:Cor13-delta``
  (closed-form optimal orders, different code) wherever CKS20's order is at most 256;
* the peer library dp-accounting (``RdpAccountant``, floats, a fixed grid of orders and an
  upper bound of the fractional-order series: never below the infimum);
* the two results against each other (inverse pair), monotonicity in every parameter, and
  closed forms (``q = 0``, a negative infimum, the cap at 1, the top of the range).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.dpsgd_accountant_support import (
    _DPS,
    _NARROW,
    _STD,
    Case,
    _delta_enc,
    _eps_enc,
    _eps_plain,
    _f,
    _independent_min,
    _mpf,
    _objective,
    _objective_iv,
    _overlap,
    _rel_width,
)
from proofs_tests.profiles import share
from reference import certified
from reference.results import covers
from reference.results.conversions.cks20 import cks_delta, cks_epsilon, cks_order
from reference.results.dpsgd.rdp_accountant import (
    MAX_SEARCH_ORDER,
    dpsgd_delta_rdp,
    dpsgd_eps_rdp,
)

# ---- 1. two-sided pins ---------------------------------------------------------------------

_PINS = [_STD, (Fraction(1, 1000), Fraction(4, 5), 100_000, Fraction(1, 10**9)),
         (Fraction(1, 10), Fraction(4), 1000, Fraction(1, 10**5))]


@covers("DPSGD:eps-rdp")
@pytest.mark.parametrize("case", _PINS, ids=["std", "q1e-3", "q0.1"])
def test_eps_is_pinned_by_an_independent_minimisation(case: Case) -> None:
    """The enclosure contains the independent minimum (whose error, ~1e-40, is far below the
    enclosure's ~1e-24 width), is narrower than 1e-20 relative, and the plain value agrees."""
    value, order = _independent_min(case)
    enc = _eps_enc(*case)
    plain = _eps_plain(*case)
    with mp.workdps(_DPS):
        slack = mp.mpf(10) ** -38 * value
        assert 1 < order < MAX_SEARCH_ORDER
        assert enc.lo <= value + slack, (enc.lo, value)
        assert value - slack <= enc.hi, (enc.hi, value)
        assert _rel_width(enc) < _NARROW, _rel_width(enc)
        assert abs(plain - value) <= _NARROW * value, (plain, value)


# ---- 2. q = 1: the Gaussian mechanism, CKS20 ------------------------------------------------

_sigmas = st.fractions(min_value=Fraction(1, 2), max_value=20, max_denominator=100)
_steps = st.integers(min_value=1, max_value=10**6)
_deltas = st.sampled_from([Fraction(1, 10**k) for k in (2, 3, 5, 6, 9, 12)])


@covers("DPSGD:eps-rdp")
@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(sigma=_sigmas, steps=_steps, delta=_deltas)
@example(sigma=Fraction(2), steps=10, delta=Fraction(1, 10**5))
@example(sigma=Fraction(3, 5), steps=1, delta=Fraction(1, 10**6))
def test_q1_eps_is_cks20(sigma: Fraction, steps: int, delta: Fraction) -> None:
    rho = Fraction(steps) / (2 * sigma * sigma)
    assume(cks_order(rho=rho, delta=delta) <= MAX_SEARCH_ORDER - 1)
    ours = certified(dpsgd_eps_rdp, q=1, sigma=sigma, steps=steps, delta=delta)
    theirs = certified(cks_epsilon, rho=rho, delta=delta)
    assert _overlap(ours, theirs), (ours, theirs)
    assert theirs.hi > 0 and _rel_width(theirs) < _NARROW
    assert _rel_width(ours) < _NARROW, _rel_width(ours)


@covers("DPSGD:delta-rdp")
@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(sigma=_sigmas, steps=_steps, delta=_deltas)
@example(sigma=Fraction(2), steps=10, delta=Fraction(1, 10**5))
def test_q1_delta_is_cks20_delta(sigma: Fraction, steps: int, delta: Fraction) -> None:
    """At ``eps`` = CKS20's eps for ``delta`` the delta form's optimal order is CKS20's
    order for ``delta`` (the two forms are inverse at the same order): <= 256 is checked."""
    rho = Fraction(steps) / (2 * sigma * sigma)
    assume(cks_order(rho=rho, delta=delta) <= MAX_SEARCH_ORDER - 1)
    eps = _f(mpmath.nstr(cks_epsilon(rho=rho, delta=delta), 12))
    assume(eps > 0)
    ours = certified(dpsgd_delta_rdp, q=1, sigma=sigma, steps=steps, eps=eps)
    theirs = certified(cks_delta, rho=rho, eps=eps)
    assert _overlap(ours, theirs), (ours, theirs)
    assert _rel_width(theirs) < _NARROW
    assert _rel_width(ours) < _NARROW, _rel_width(ours)
    assert abs(ours.mid / _mpf(delta) - 1) < mp.mpf(10) ** -6   # eps was rounded to 12 digits


# ---- 3. the infimum is below every order, and reached -----------------------------------------

_ORDERS = [Fraction(x) for x in ("1.01", "1.25", "1.5", "2", "2.5", "3", "3.75", "4", "4.5",
                                 "5", "6.5", "8", "11", "16", "23.5", "32", "64", "100.5",
                                 "128", "256")]


def _golden(f: Callable[[Any], mpmath.mpf], lo: mpmath.mpf, hi: mpmath.mpf,
            width: mpmath.mpf) -> mpmath.mpf:
    """Minimum of a quasi-convex ``f`` on ``[lo, hi]`` by golden sections to ``width``."""
    g = (mp.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = f(c), f(d)
    while hi - lo > width:
        if fc <= fd:
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = f(d)
    return min(fc, fd)


@covers("DPSGD:eps-rdp")
def test_eps_is_below_every_order_and_reached() -> None:
    """Two-sided at the standard input: ``lo`` is below the certified objective at each of 20
    orders in (1, 256] (soundness); ``hi`` is below each of them too (no order does better
    than the reported optimum), and within 1e-6 of the best of them refined by golden
    sections (the reported value is attained)."""
    case = _STD
    enc = _eps_enc(*case)
    values = [_objective_iv(case, a) for a in _ORDERS]
    for a, v in zip(_ORDERS, values, strict=True):
        lo, hi = mp.make_mpf(v._mpi_[0]), mp.make_mpf(v._mpi_[1])
        assert hi - lo < mp.mpf(10) ** -30 * abs(hi)
        assert enc.lo <= lo, (a, enc.lo, lo)
        assert enc.hi <= hi * (1 + _NARROW), (a, enc.hi, hi)
    mids = [mp.make_mpf(v._mpi_[1]) for v in values]
    i = min(range(len(mids)), key=lambda k: mids[k])
    assert 0 < i < len(_ORDERS) - 1
    refined = _golden(_objective(case), _mpf(_ORDERS[i - 1]), _mpf(_ORDERS[i + 1]),
                      mp.mpf(10) ** -4)
    assert refined <= mids[i]
    assert enc.hi <= refined * (1 + _NARROW)
    assert refined <= enc.hi * (1 + mp.mpf(10) ** -6), (refined, enc.hi)


# ---- 4. inverse pair -------------------------------------------------------------------------

@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize("case", [_STD, _PINS[2]], ids=["std", "q0.1"])
def test_delta_at_the_eps_gives_back_delta(case: Case) -> None:
    q, sigma, steps, delta = case
    eps = _eps_plain(*case)
    enc = _delta_enc(q, sigma, steps, eps)
    d = _mpf(delta)
    tol = mp.mpf(10) ** -15 * d
    assert enc.lo <= d + tol and d - tol <= enc.hi, (enc, d)
    assert enc.hi - enc.lo < tol


# ---- 5. monotonicity ---------------------------------------------------------------------

def _strictly_below(a: Any, b: Any, margin: float = 1e-6) -> bool:
    """``a < b`` as enclosures, with a relative gap of at least ``margin``."""
    return bool(a.hi * (1 + margin) < b.lo)


@covers("DPSGD:eps-rdp")
def test_eps_is_monotone_in_every_parameter() -> None:
    q, sigma, steps, delta = _STD
    base = _eps_enc(*_STD)
    # decreasing in delta, increasing in steps and q, decreasing in sigma
    assert _strictly_below(_eps_enc(q, sigma, steps, delta * 10), base)
    assert _strictly_below(base, _eps_enc(q, sigma, steps * 2, delta))
    assert _strictly_below(base, _eps_enc(q * 2, sigma, steps, delta))
    assert _strictly_below(_eps_enc(q, sigma * Fraction(6, 5), steps, delta), base)


@covers("DPSGD:delta-rdp")
def test_delta_is_decreasing_in_eps() -> None:
    q, sigma, steps, _ = _STD
    low, high = _delta_enc(q, sigma, steps, Fraction(6)), _delta_enc(q, sigma, steps,
                                                                      Fraction(7))
    assert _strictly_below(high, low)
    assert _rel_width(low) < _NARROW and _rel_width(high) < _NARROW


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.slow
@settings(max_examples=share(Fraction(1, 10)), deadline=None)
@given(q=st.sampled_from([Fraction(1, 1000), Fraction(1, 100), Fraction(1, 20)]),
       sigma=st.sampled_from([Fraction(4, 5), Fraction(1), Fraction(2)]),
       steps=st.sampled_from([10, 100, 1000]), eps=st.sampled_from([Fraction(1), Fraction(3)]))
def test_monotone_pairs_thorough(q: Fraction, sigma: Fraction, steps: int,
                                 eps: Fraction) -> None:
    """Doubling ``steps`` raises eps and delta; doubling ``sigma`` lowers them."""
    delta = Fraction(1, 10**6)
    e0 = certified(dpsgd_eps_rdp, q=q, sigma=sigma, steps=steps, delta=delta)
    e1 = certified(dpsgd_eps_rdp, q=q, sigma=sigma, steps=2 * steps, delta=delta)
    e2 = certified(dpsgd_eps_rdp, q=q, sigma=2 * sigma, steps=steps, delta=delta)
    assert e0.hi < e1.lo and e2.hi < e0.lo
    d0 = certified(dpsgd_delta_rdp, q=q, sigma=sigma, steps=steps, eps=eps)
    d1 = certified(dpsgd_delta_rdp, q=q, sigma=sigma, steps=2 * steps, eps=eps)
    assert d0.hi < d1.lo or d0.hi == d1.hi == 1         # unless both are capped
