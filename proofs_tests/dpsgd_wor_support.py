"""Independent routes for the tests of DP-SGD without replacement (``proofs_tests/dpsgd/
test_wor.py``): the symmetric law of the upper end, written from its definition.

Nothing here calls :mod:`reference.results.dpsgd` code.  In the units of the grid (shift 1,
noise ``s = sigma/2``; ``P = (1-q) N(0, s^2) + q N(1, s^2)``, ``Q = N(0, s^2)``, ``l(z) =
ln dP/dQ(z)``, positive exactly for ``z > 1/2``), the law ``omega`` is: ``l(Z)`` for ``Z ~ P``
on ``z > 1/2``; ``-l(Z)`` for ``Z ~ Q`` on ``z > 1/2``; an atom at 0 with the rest.

* One draw, in closed form: ``E_omega (1 - e^(c - X))_+`` for every real ``c``: the first
  part counts where ``l(z) > max(c, 0)``: ``P(Z > z_t) - e^c Q(Z > z_t)``; the atom ``(1 -
  e^c)_+`` times its mass; the second part, for ``c < 0``, where ``l(z) < -c``: ``Q(1/2 < Z <
  z') - e^c P(1/2 < Z < z')`` (``e^(c + l) dQ = e^c dP``).
* Two draws: the one-draw form integrated over the first draw (``mp.quad``).
* The hockey-stick divergences of ``P`` and ``Q`` directly, ``int (p - a q)_+``, by
  quadrature: the law must give ``H_a(P || Q)`` for ``a >= 1`` and ``H_a(Q || P)`` below.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp

from proofs_tests.dpsgd_pld_support import ADD, REMOVE, density, loss, mpf

DPS = 40
#: Digits of the two-step quadrature (each is one ``mp.quad`` of closed forms).
DPS2 = 20
HALF = mp.mpf(1) / 2


def _mass(q: Any, s: Any, a: Any, b: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(P(a < Z < b), Q(a < Z < b))`` (``b`` may be ``inf``)."""
    def cdf(mean: Any, x: Any) -> mpmath.mpf:
        return mp.one if x == mp.inf else mp.ncdf((x - mean) / s)
    qm = cdf(0, b) - cdf(0, a)
    return (1 - q) * qm + q * (cdf(1, b) - cdf(1, a)), qm


def _z_at(q: Any, s: Any, t: Any) -> mpmath.mpf:
    """``z`` with ``l(z) = t`` for ``t >= 0``."""
    return s**2 * mp.log((mp.expm1(t) + q) / q) + HALF


def atom(q: Any, s: Any) -> mpmath.mpf:
    p_half, q_half = _mass(q, s, HALF, mp.inf)
    return 1 - p_half - q_half


def delta1_sym(q: Any, s: Any, c: Any) -> mpmath.mpf:
    """One draw of ``omega``: ``E (1 - e^(c - X))_+``."""
    zt = _z_at(q, s, max(c, mp.zero))
    p_t, q_t = _mass(q, s, zt, mp.inf)
    out = p_t - mp.exp(c) * q_t
    if c < 0:
        out += atom(q, s) * -mp.expm1(c)
        zp = _z_at(q, s, -c)
        p_m, q_m = _mass(q, s, HALF, zp)
        out += q_m - mp.exp(c) * p_m
    return out


def delta2_sym(q: Any, s: Any, e: Any) -> mpmath.mpf:
    """Two draws: ``E_X1 [delta1_sym(e - X1)]``, split where ``e - X1`` crosses 0."""
    top = 1 + 14 * s
    pts = [HALF, mp.one, top]
    if e > 0:
        kink = _z_at(q, s, e)
        if kink < top:
            pts.append(kink)
    pts = sorted(pts)

    def first(z: Any) -> mpmath.mpf:
        return density(q, s, REMOVE, z) * delta1_sym(q, s, e - loss(q, s, z))

    def second(z: Any) -> mpmath.mpf:
        return density(q, s, ADD, z) * delta1_sym(q, s, e + loss(q, s, z))
    return (mp.quad(first, pts) + mp.quad(second, [HALF, mp.one, top])
            + atom(q, s) * delta1_sym(q, s, e))


def hockey(q: Any, s: Any, a: Any, reverse: bool) -> mpmath.mpf:
    """``H_a(P || Q)`` (or ``H_a(Q || P)``) as ``int (p - a q)_+`` by quadrature, split
    where the integrand's sign changes (``l(z) = ln a``, when it has a solution)."""
    def f(z: Any) -> mpmath.mpf:
        p, qq = density(q, s, REMOVE, z), density(q, s, ADD, z)
        return max(qq - a * p, mp.zero) if reverse else max(p - a * qq, mp.zero)
    pts = [-14 * s, mp.zero, HALF, mp.one, 1 + 14 * s]
    target = -mp.log(a) if reverse else mp.log(a)
    inner = mp.expm1(target) + q
    if inner > 0:
        pts.append(s**2 * mp.log(inner / q) + HALF)
    return mp.quad(f, sorted(pts))


def sym_profile(q: Fraction, sigma: Fraction, steps: int, eps: Any) -> mpmath.mpf:
    """The upper end's delta at ``eps`` for one or two steps (noise multiplier ``sigma``,
    so ``s = sigma/2``)."""
    with mp.workdps(DPS if steps == 1 else DPS2):
        qq, s, e = mpf(q), mpf(sigma) / 2, mpf(eps)
        return delta1_sym(qq, s, e) if steps == 1 else delta2_sym(qq, s, e)
