"""Shared routes of the DP-SGD property tests (``proofs_tests/dpsgd``): the RDP of the
sampled Gaussian mechanism by arb (the finite sum, the rigorous integral) and by mpmath
quadrature, exact-input helpers and Hypothesis strategies."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import flint
import mpmath
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends, arb_normal_sf, arb_q, frac
from reference import certified
from reference.results.dpsgd.mtz19 import sgm_rdp

#: Relative width allowed for an enclosure (and for a rigorous arb reference).
_TIGHT = Fraction(1, 10**45)
#: Relative distance allowed between the plain value (50 digits) and a rigorous reference.
_PLAIN = Fraction(1, 10**45)
#: Relative distance allowed to mpmath's quadrature (60 digits; its own error estimates are
#: below 1e-55 here, but it is not rigorous).
_QUAD = Fraction(1, 10**35)

# ---- helpers -----------------------------------------------------------------------------------

def _fr(x: object) -> Fraction:
    """An exact input (float, decimal string, int or Fraction) as a Fraction."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int | float | str):
        return Fraction(x)
    raise TypeError(f"not an exact input: {x!r}")


def _enclosure(q: object, sigma: object, alpha: object) -> tuple[Fraction, Fraction]:
    enc = certified(sgm_rdp, q=q, sigma=sigma, alpha=alpha)
    return frac(enc.lo), frac(enc.hi)


def _plain(q: object, sigma: object, alpha: object) -> Fraction:
    return frac(sgm_rdp(q=q, sigma=sigma, alpha=alpha))


def _mpf(x: Fraction) -> mpmath.mpf:
    return mp.mpf(x.numerator) / x.denominator


def _assert_pinned(lo: Fraction, hi: Fraction, q: object, sigma: object, alpha: object) -> None:
    """Two-sided: the rigorous reference ``[lo, hi]`` is tight, meets the certified enclosure
    (both contain the exact value), the enclosure is tight, and the plain value is next to it."""
    assert 0 < lo <= hi
    assert hi - lo <= lo * _TIGHT
    elo, ehi = _enclosure(q, sigma, alpha)
    assert elo <= hi and lo <= ehi, (float(elo), float(ehi), float(lo), float(hi))
    assert ehi - elo <= lo * _TIGHT
    assert abs(_plain(q, sigma, alpha) - lo) <= lo * _PLAIN


def _arb_integer_rdp(q: Fraction, sigma: Fraction, n: int,
                     bits: int = 600) -> tuple[Fraction, Fraction]:
    """The finite sum at integer order ``n`` in arb: ``A - 1 = sum_{i>=2} C(n,i) (1-q)^(n-i)
    q^i expm1((i^2-i)/(2 sigma^2))`` (positive terms: nothing cancels, so ``bits`` of relative
    precision survive for any ``q``), the weights by ``w_i = w_(i-1) (n-i+1)/i q/(1-q)``."""
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        ratio = arb_q(q) / arb_q(1 - q)
        weight = arb_q(1 - q) ** n
        excess = flint.arb(0)
        s2 = 2 * sigma * sigma
        for i in range(1, n + 1):
            weight = weight * (n - i + 1) / i * ratio
            if i >= 2:
                excess += weight * arb_q(Fraction(i * i - i) / s2).expm1()
        return arb_ends(excess.log1p() / (n - 1))
    finally:
        flint.ctx.prec = old


def _arb_integral_rdp(q: Fraction, sigma: Fraction, alpha: Fraction, bits: int = 320,
                      width: int = 20) -> tuple[Fraction, Fraction]:
    """Rigorous ``ln(A)/(alpha-1)`` from the defining integral (``0 < q < 1``).

    ``acb.integral`` encloses the integral over ``[L, R] = [-K sigma, alpha + K sigma]``
    (``K = width``; the integrand is analytic: ``b(z)`` stays off the branch cut of ``log``,
    which the ``analytic`` flag checks).  The integrand is positive, so that is a lower bound of
    ``A``.  Upper bound: add the two tails.  Left, ``z < L < 1/2`` gives ``b < 1`` and a tail of
    at most ``Q(K)``.  Right, ``b^alpha <= 2^(alpha-1) ((1-q)^alpha + q^alpha e^(alpha x))``
    with ``x = (2z-1)/(2 sigma^2)``, and ``phi(z) e^(alpha x) = e^(alpha(alpha-1)/(2 sigma^2))
    phi(z - alpha)``: a tail of at most ``2^(alpha-1) ((1-q)^alpha Q(R/sigma) + q^alpha
    e^(alpha(alpha-1)/(2 sigma^2)) Q(K))``."""
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        aq, asig, aal = arb_q(q), arb_q(sigma), arb_q(alpha)
        two_s2 = 2 * asig * asig

        def integrand(z: flint.acb, analytic: bool) -> flint.acb:
            base = (1 - aq) + aq * ((2 * z - 1) / two_s2).exp()
            return (aal * base.log(analytic=analytic) - z * z / two_s2).exp()

        left, right = -width * sigma, alpha + width * sigma
        cuts = {left, right} | {c + k * sigma for c in (Fraction(0), alpha)
                                for k in range(-width, width + 1)}
        points = sorted(p for p in cuts if left <= p <= right)
        total = flint.acb(0)
        for a, b in itertools.pairwise(points):
            total += flint.acb.integral(integrand, flint.acb(arb_q(a)), flint.acb(arb_q(b)))
        norm = asig * (2 * flint.arb.pi()).sqrt()
        inner = total.real / norm
        q_k = arb_normal_sf(Fraction(width), bits)
        tails = q_k + flint.arb(2) ** (aal - 1) * (
            (1 - aq) ** aal * arb_normal_sf(right / sigma, bits)
            + aq ** aal * (aal * (aal - 1) / two_s2).exp() * q_k)
        lo, _ = arb_ends(inner.log() / (aal - 1))
        _, hi = arb_ends((inner + tails).log() / (aal - 1))
        return lo, hi
    finally:
        flint.ctx.prec = old


def _quad(q: object, sigma: object, f: Callable[[mpmath.mpf], mpmath.mpf],
          centres: tuple[object, ...], dps: int = 60) -> mpmath.mpf:
    """``int phi_sigma(z) f(b(z)) dz`` by mpmath's tanh-sinh rule on the whole line, split at
    ``centres``, ``z0`` (where ``b = 2(1-q)``) and steps of ``sigma`` around them.  ``f`` is
    given ``ln b``."""
    with mp.workdps(dps):
        qq, s = _mpf(_fr(q)), _mpf(_fr(sigma))
        two_s2 = 2 * s * s
        z0 = s * s * mp.log((1 - qq) / qq) + mp.mpf(1) / 2
        cs = [c if isinstance(c, mpmath.mpf) else _mpf(_fr(c)) for c in centres]

        def g(z: mpmath.mpf) -> mpmath.mpf:
            log_b = mp.log((1 - qq) + qq * mp.exp((2 * z - 1) / two_s2))
            return f(log_b) * mp.exp(-z * z / two_s2)

        lo, hi = min(cs) - 14 * s, max(cs) + 14 * s
        cand = {c + k * s for c in cs for k in (-12, -8, -5, -3, -2, -1, 0, 1, 2, 3, 5, 8, 12)}
        cand |= {z0 + k * s for k in (-2, 0, 2)}
        points = sorted(p for p in cand if lo <= p <= hi)
        total = mp.quad(g, [mp.ninf, *points, mp.inf])
        return total / (s * mp.sqrt(2 * mp.pi))


def _quad_rdp(q: object, sigma: object, alpha: object) -> Fraction:
    """``ln(A_alpha)/(alpha-1)`` from the quadrature of the defining integral."""
    with mp.workdps(60):
        a = _mpf(_fr(alpha))
        moment = _quad(q, sigma, lambda log_b: mp.exp(a * log_b), (0, a))
        return frac(mp.log(moment) / (a - 1))


def _close(x: Fraction, ref: Fraction, rel: Fraction) -> bool:
    return abs(x - ref) <= abs(ref) * rel


# ---- strategies --------------------------------------------------------------------------------

@st.composite
def _rates(draw: st.DrawFn) -> Fraction:
    """``q`` in ``(0, 1)``: tiny (down to 1e-303), moderate, or within 1e-15 of 1, exactly."""
    kind = draw(st.sampled_from(("tiny", "moderate", "near one")), label="kind of q")
    man = Fraction(draw(st.integers(1, 999), label="mantissa"), 1000)
    if kind == "moderate":
        return man
    k = draw(st.integers(1, 300 if kind == "tiny" else 12), label="decades")
    small = man * Fraction(1, 10**k)
    return small if kind == "tiny" else 1 - small


@st.composite
def _noises(draw: st.DrawFn) -> Fraction:
    """``sigma`` in ``[0.01, 1e6)``, an exact decimal of three digits."""
    man = Fraction(draw(st.integers(100, 999), label="mantissa"), 100)
    return man * Fraction(10) ** draw(st.integers(-2, 5), label="decades")


def _fractional(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi).filter(lambda a: a != int(a))
