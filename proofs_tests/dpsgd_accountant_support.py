"""Shared helpers of the DP-SGD accountant tests: cached evaluations of the results under
test and the independent objective (plain ``sgm_rdp`` at 60 digits, minimised by mpmath)."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import iv, mp

from reference import certified, precision
from reference.results.dpsgd.mtz19 import sgm_rdp
from reference.results.dpsgd.rdp_accountant import (
    MAX_SEARCH_ORDER,
    dpsgd_delta_rdp,
    dpsgd_eps_rdp,
)

EPS_ID, DELTA_ID = "DPSGD:eps-rdp", "DPSGD:delta-rdp"
#: Digits of the independent evaluations.
_DPS = 60
#: Relative width the docstrings promise (about 2^-80), with room.
_NARROW = mp.mpf(10) ** -20
#: The standard input (the docstring's example).
_STD = (Fraction(1, 100), Fraction(1), 10_000, Fraction(1, 10**5))

Case = tuple[Fraction, Fraction, int, Fraction]


def _f(x: object) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(str(x))


def _mpf(x: Fraction) -> mpmath.mpf:
    return mp.mpf(x.numerator) / x.denominator


def _ivf(x: Fraction) -> Any:
    return iv.mpf(x.numerator) / x.denominator


@contextlib.contextmanager
def _iv_dps(dps: int) -> Iterator[None]:
    old = iv.prec
    iv.dps = dps
    try:
        yield
    finally:
        iv.prec = old


# ---- cached evaluations of the results under test (each costs seconds) -------------------

@functools.cache
def _eps_enc(q: Fraction, sigma: Fraction, steps: int, delta: Fraction) -> Any:
    return certified(dpsgd_eps_rdp, q=q, sigma=sigma, steps=steps, delta=delta)


@functools.cache
def _eps_plain(q: Fraction, sigma: Fraction, steps: int, delta: Fraction) -> mpmath.mpf:
    return dpsgd_eps_rdp(q=q, sigma=sigma, steps=steps, delta=delta)


@functools.cache
def _delta_enc(q: Fraction, sigma: Fraction, steps: int, eps: Fraction) -> Any:
    return certified(dpsgd_delta_rdp, q=q, sigma=sigma, steps=steps, eps=eps)


def _rel_width(enc: Any) -> mpmath.mpf:
    return (enc.hi - enc.lo) / abs(enc.mid)


def _overlap(a: Any, b: Any) -> bool:
    return bool(a.lo <= b.hi and b.lo <= a.hi)


# ---- the independent objective -------------------------------------------------------------

def _objective(case: Case) -> Callable[[Any], mpmath.mpf]:
    """``alpha -> T rdp(alpha) + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1)`` from
    plain ``MTZ19:rdp`` at 60 digits (the order is passed on exactly)."""
    q, sigma, steps, delta = case

    def f(alpha: Any) -> mpmath.mpf:
        with precision(_DPS):
            rdp = sgm_rdp(q=q, sigma=sigma, alpha=alpha)
        with mp.workdps(max(mp.dps, _DPS)):
            a = mp.mpf(alpha) if not isinstance(alpha, Fraction) else _mpf(alpha)
            return steps * rdp + mp.log(1 - 1 / a) - (mp.log(_mpf(delta)) + mp.log(a)) / (a - 1)

    return f


def _objective_iv(case: Case, alpha: Fraction) -> Any:
    """The objective at ``alpha`` in interval arithmetic from certified ``MTZ19:rdp``."""
    q, sigma, steps, delta = case
    rdp = certified(sgm_rdp, q=q, sigma=sigma, alpha=alpha)
    with _iv_dps(_DPS):
        a = _ivf(alpha)
        return (steps * iv.mpf((rdp.lo, rdp.hi)) + iv.log((a - 1) / a)
                - (iv.log(_ivf(delta)) + iv.log(a)) / (a - 1))


def _integer_argmin(f: Callable[[Any], mpmath.mpf], top: int) -> int:
    """The minimising integer order in ``[2, top]`` of a quasi-convex ``f``: a scan that
    stops once the values have risen twice in a row."""
    best, best_value, rises, last = 2, f(2), 0, None
    for k in range(3, top + 1):
        v = f(k)
        if v < best_value:
            best, best_value = k, v
        rises = rises + 1 if last is not None and v > last else 0
        last = v
        if rises >= 2:
            break
    return best


def _independent_min(case: Case) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(value, order)`` of the minimum over ``(1, 256]``: integer bracket, then ``findroot``
    (Illinois, bracketing) on the central-difference derivative (step 1e-20: error ~1e-40)."""
    f = _objective(case)
    k = _integer_argmin(f, MAX_SEARCH_ORDER)
    assert k < MAX_SEARCH_ORDER, "the tests below need an interior minimum"
    with mp.workdps(_DPS):
        step = mp.mpf(10) ** -20

        def slope(a: mpmath.mpf) -> mpmath.mpf:
            return mp.diff(f, a, h=step)

        left = mp.mpf(k - 1) if k > 2 else 1 + mp.mpf(10) ** -3
        right = mp.mpf(k + 1)
        assert slope(left) < 0 < slope(right)
        order = mp.findroot(slope, (left, right), solver="illinois", tol=mp.mpf(10) ** -70,
                            verify=False)
        assert left < order < right
        assert abs(slope(order)) < mp.mpf(10) ** -30
        return f(order), order
