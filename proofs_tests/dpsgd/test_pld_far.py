"""DP-SGD's optimal delta far out in the tail (DPSGD:delta): where the RDP conversion at a
few integer orders already bounds delta below ``2^-84`` the bracket is ``[0, that bound]``
and no grid is built.

The premise, pinned on both sides of the switch: every grid bracket's upper end is at least
its additive term ``eta >= 2^(20 - bits) >= 2^-84``, so there the bound is tighter than any
grid answer, and above ``2^-84`` the grid still runs.  The bound is recomputed by hand: the
moments ``A_alpha`` of the likelihood ratio as the binomial sum of Mironov, Talwar, Zhang
(2019) in mpmath at 50 digits (not the package's recurrences), converted by Canonne, Kamath,
Steinke (2020) Prop. 12; the exact delta of the Gaussian mechanism (``q = 1``) lies below it.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from mpmath import mp

from proofs_tests.dpsgd_pld_support import delta_gaussian, mpf
from reference import certified
from reference.results import covers
from reference.results.dpsgd import pld
from reference.results.dpsgd.pld import bracket, dpsgd_delta
from reference.results.dpsgd.pld_compose import compose
from reference.results.dpsgd.rdp_accountant import delta_bound

_ORDERS = (2, 4, 8, 16, 32, 64, 128, 256)
_FLOOR = mpmath.mpf(2) ** -84


def _hand_bound(q: Fraction, sigma: Fraction, steps: int, eps: Any) -> mpmath.mpf:
    """``min_alpha A_alpha^T e^(-(alpha-1) eps) (1 - 1/alpha)^(alpha-1) / alpha`` over the
    orders, ``A_alpha = sum_i C(alpha,i) (1-q)^(alpha-i) q^i e^((i^2-i)/(2 sigma^2))``."""
    with mp.workdps(50):
        qm, s2, e = mpf(q), mpf(sigma) ** 2, mpf(eps)   # (mp.mpf(Fraction): mpmath >= 1.4)
        out = []
        for a in _ORDERS:
            moment = mp.fsum(mp.binomial(a, i) * (1 - qm) ** (a - i) * qm ** i
                             * mp.exp((i * i - i) / (2 * s2)) for i in range(a + 1))
            out.append(mp.exp(steps * mp.log(moment) - (a - 1) * e)
                       * (1 - mp.mpf(1) / a) ** (a - 1) / a)
        return min(out)


@pytest.fixture
def composed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the grid compositions (the bracket's cache cleared before and after)."""
    calls: list[int] = []

    def counting(*args: Any) -> Any:
        calls.append(1)
        return compose(*args)
    bracket.cache_clear()
    monkeypatch.setattr(pld, "compose", counting)
    yield calls
    bracket.cache_clear()


_FAR = [(Fraction(1), Fraction(1), 1, Fraction(40)),
        (Fraction(1, 2), Fraction(1), 3, Fraction(30)),
        (Fraction(1, 100), Fraction(1), 10_000, Fraction(20)),
        (Fraction(147, 1000), Fraction(1), 100_000, Fraction(10**4))]


@covers("DPSGD:delta")
@pytest.mark.parametrize(("q", "sigma", "steps", "eps"), _FAR,
                         ids=["gauss", "q0.5-T3", "q0.01-T1e4", "q0.147-T1e5"])
def test_far_delta_is_the_rdp_bound(composed: list[int], q: Fraction, sigma: Fraction,
                                    steps: int, eps: Fraction) -> None:
    """The bracket is ``[0, B]`` with ``B`` the hand bound to 1e-12 (relative; the package
    rounds it up, so never below), the plain value is ``B``, and no grid is composed; at
    ``q = 1`` the Gaussian mechanism's exact delta lies below ``B`` (``e^-784.6`` under
    ``e^-748.4`` at ``eps = 40``)."""
    hand = _hand_bound(q, sigma, steps, eps)
    assert hand < _FLOOR
    enc = certified(dpsgd_delta, q=q, sigma=sigma, steps=steps, eps=eps)
    plain = dpsgd_delta(q=q, sigma=sigma, steps=steps, eps=eps)
    assert enc.lo == 0 and plain == enc.hi
    assert hand <= enc.hi <= hand * (1 + mpmath.mpf(10) ** -12), (enc, hand)
    assert composed == []
    if q == 1:
        exact = delta_gaussian(sigma, steps, eps)
        assert 0 < exact < enc.hi
        assert mp.log(exact) < -784 and mp.log(enc.hi) > -749


@covers("DPSGD:delta")
def test_delta_at_the_largest_eps_is_a_fixed_tiny_bound(composed: list[int]) -> None:
    """``eps = 1.8e308`` (the bound is ``e^(-1.8e308)``): ``[0, 2^-65536]``, at once (the
    grid took 158 s at ``10^5`` steps)."""
    eps = Fraction(18 * 10**307)
    enc = certified(dpsgd_delta, q=Fraction(147, 1000), sigma=Fraction(1), steps=100_000,
                    eps=eps)
    assert enc.lo == 0 and enc.hi == mpmath.mpf(2) ** -65536
    assert composed == []


def _switch(q: Fraction, sigma: Fraction, steps: int) -> Fraction:
    """The epsilon (to 1/1000) where the hand bound crosses ``2^-84`` (it decreases in eps)."""
    lo, hi = Fraction(0), Fraction(1000)
    while hi - lo > Fraction(1, 1000):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _hand_bound(q, sigma, steps, mid) <= _FLOOR else (mid, hi)
    return hi


_SWITCH = [(Fraction(1), Fraction(1), 1), (Fraction(1, 2), Fraction(2), 2)]


@covers("DPSGD:delta")
@pytest.mark.parametrize(("q", "sigma", "steps"), _SWITCH, ids=["gauss", "q0.5-T2"])
def test_switch_at_two_to_minus_84(composed: list[int], q: Fraction, sigma: Fraction,
                                   steps: int) -> None:
    """Just below the switch the grid runs and its upper end is at least ``2^-84`` (the
    premise of the exit); just above, no grid and an upper end below ``2^-84``."""
    eps = _switch(q, sigma, steps)
    below = certified(dpsgd_delta, q=q, sigma=sigma, steps=steps, eps=eps - Fraction(1, 500))
    assert composed and below.hi >= _FLOOR, below
    composed.clear()
    above = certified(dpsgd_delta, q=q, sigma=sigma, steps=steps, eps=eps)
    assert not composed and above.lo == 0 and above.hi <= _FLOOR, above
    if q == 1:
        exact = delta_gaussian(sigma, steps, eps - Fraction(1, 500))
        assert below.lo <= exact <= below.hi


@covers("DPSGD:delta")
@pytest.mark.parametrize("order", _ORDERS)
def test_bound_is_the_least_order(order: int) -> None:
    """``q = 1``, ``sigma = 1``, one step: the conversion at order ``alpha`` is ``(alpha-1)
    (alpha/2 - eps) - ln alpha + (alpha-1) ln(1 - 1/alpha)``, least among the orders at
    ``eps = alpha - 1/2``: there the bound is the hand value at that order (1e-12), so each
    order of the list is pinned (a changed order gives another value)."""
    eps = Fraction(2 * order - 1, 2)
    with mp.workdps(50):
        logs = {a: (a - 1) * (mp.mpf(a) / 2 - mpf(eps)) - mp.log(a)
                + (a - 1) * mp.log(1 - mp.mpf(1) / a) for a in _ORDERS}
        assert min(logs, key=logs.__getitem__) == order
        hand = mp.exp(logs[order])
        assert mp.almosteq(hand, _hand_bound(Fraction(1), Fraction(1), 1, eps), 1e-40)
        got = delta_bound(Fraction(1), Fraction(1), 1, eps)
        assert hand <= got <= hand * (1 + mp.mpf(10) ** -12), (order, got, hand)
