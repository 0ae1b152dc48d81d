"""Independent routes for the PLD tests of DP-SGD (``proofs_tests/dpsgd/test_pld*.py``).

Nothing here calls :mod:`reference.results.dpsgd.pld` or ``pld_grid``: every expected value
is written from the definitions, in mpmath at :data:`DPS` digits.

* One step's hockey-stick divergence in closed form, per direction, for every real ``e``
  (``delta_1(e) = E[(1 - e^(e - X))_+]``):

  - remove (``X = l(Z)``, ``Z ~ P``): ``l(z) > e`` iff ``z > z* = sigma^2 ln((e^e - 1 + q)/q)
    + 1/2``; when ``e <= ln(1 - q)`` every ``z`` qualifies and ``delta_1 = 1 - e^e``;
  - add (``X = -l(Z)``, ``Z ~ Q``): ``-l(z) > e`` iff ``z < z' = sigma^2 ln((e^-e - 1 +
    q)/q) + 1/2``, which needs ``e^-e > 1 - q`` (else ``delta_1 = 0``).

* ``q = 1``: ``T`` steps are the Gaussian mechanism with ``mu = sqrt(T)/sigma``.
* ``T = 2``: ``delta_2(e) = E_{Z1}[delta_1(e - X(Z1))]`` by ``mp.quad`` split at the kink.
* ``eps`` from ``delta`` by bisection on a decreasing profile.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp

#: Digits of the independent evaluations.
DPS = 50
REMOVE, ADD = "remove", "add"


def mpf(x: Any) -> mpmath.mpf:
    """An exact input (Fraction, int, decimal string) or an mpf at the current precision."""
    if isinstance(x, mpmath.mpf):
        return +x
    f = Fraction(x)
    return mp.mpf(f.numerator) / f.denominator


def _phi(x: Any) -> mpmath.mpf:
    return mp.ncdf(x)


def _phic(x: Any) -> mpmath.mpf:
    return mp.ncdf(-x)


def loss(q: Any, sigma: Any, z: Any) -> mpmath.mpf:
    """``l(z) = ln(1 - q + q e^((2z - 1)/(2 sigma^2)))`` (the remove direction's loss)."""
    w = (2 * z - 1) / (2 * sigma**2)
    return w if q == 1 else mp.log1p(q * mp.expm1(w))


def density(q: Any, sigma: Any, direction: str, z: Any) -> mpmath.mpf:
    """The density of ``Z``: ``P`` for remove, ``Q = N(0, sigma^2)`` for add."""
    if direction == ADD:
        return mp.npdf(z, 0, sigma)
    return (1 - q) * mp.npdf(z, 0, sigma) + q * mp.npdf(z, 1, sigma)


def delta1(q: Any, sigma: Any, direction: str, e: Any) -> mpmath.mpf:
    """One step's ``E[(1 - e^(e - X))_+]`` in closed form (any real ``e``)."""
    if direction == REMOVE:
        inner = mp.exp(e) - 1 + q
        if inner <= 0:
            return -mp.expm1(e)
        zs = sigma**2 * mp.log(inner / q) + mp.mpf(1) / 2
        tail_p = (1 - q) * _phic(zs / sigma) + q * _phic((zs - 1) / sigma)
        return tail_p - mp.exp(e) * _phic(zs / sigma)
    inner = mp.exp(-e) - 1 + q
    if inner <= 0:
        return mp.zero
    zp = sigma**2 * mp.log(inner / q) + mp.mpf(1) / 2
    return _phi(zp / sigma) - mp.exp(e) * ((1 - q) * _phi(zp / sigma)
                                           + q * _phi((zp - 1) / sigma))


def delta_one_step(q: Fraction, sigma: Fraction, eps: Any) -> mpmath.mpf:
    """``max`` over the directions of one step's hockey-stick divergence at ``e^eps``."""
    with mp.workdps(DPS):
        qq, ss, e = mpf(q), mpf(sigma), mpf(eps)
        return max(delta1(qq, ss, REMOVE, e), delta1(qq, ss, ADD, e))


def delta_gaussian(sigma: Fraction, steps: int, eps: Any) -> mpmath.mpf:
    """``T`` steps at ``q = 1``: ``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``,
    ``mu = sqrt(T)/sigma`` (Balle and Wang 2018, Thm. 8; both directions are equal)."""
    with mp.workdps(DPS):
        mu = mp.sqrt(steps) / mpf(sigma)
        e = mpf(eps)
        return _phi(-e / mu + mu / 2) - mp.exp(e) * _phi(-e / mu - mu / 2)


def delta_two_steps(q: Fraction, sigma: Fraction, eps: Any, dps: int = 25) -> mpmath.mpf:
    """``T = 2`` by quadrature: ``E_{Z1}[delta_1(eps - X(Z1))]`` per direction, the max.

    The integrand is smooth except where ``eps - X(z)`` crosses the end of one step's loss
    range (``ln(1 - q)`` for remove, ``-ln(1 - q)`` for add): the integral is split there,
    at the component means and at +-12 sigma (beyond which the mass is below 1e-32)."""
    out = []
    with mp.workdps(dps):
        qq, ss, e = mpf(q), mpf(sigma), mpf(eps)
        for direction in (REMOVE, ADD):
            sign = 1 if direction == REMOVE else -1
            pts = [-12 * ss, mp.zero, mp.mpf(1), 1 + 12 * ss]
            if qq < 1:  # the kink: l(z) = sign (eps - sign ln(1 - q))
                target = sign * e - mp.log1p(-qq)
                inner = mp.expm1(target) + qq
                if inner > 0:
                    pts.append(ss**2 * mp.log(inner / qq) + mp.mpf(1) / 2)
            pts = sorted(p for p in pts if -12 * ss <= p <= 1 + 12 * ss)

            def f(z: Any, direction: str = direction, sign: int = sign) -> mpmath.mpf:
                return (density(qq, ss, direction, z)
                        * delta1(qq, ss, direction, e - sign * loss(qq, ss, z)))
            out.append(mp.quad(f, pts))
    return max(out)


def eps_from(profile: Callable[[Any], mpmath.mpf], delta: Fraction,
             top: float = 2.0**20) -> mpmath.mpf:
    """``inf{eps >= 0 : profile(eps) <= delta}`` for a decreasing profile, by bisection to
    about 1e-40 (0 when ``profile(0) <= delta``)."""
    with mp.workdps(DPS):
        d = mpf(delta)
        if profile(mp.zero) <= d:
            return mp.zero
        lo, hi = mp.zero, mp.mpf(1)
        while profile(hi) > d:
            lo, hi = hi, 2 * hi
            assert hi <= top
        for _ in range(160):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if profile(mid) > d else (lo, mid)
        return hi
