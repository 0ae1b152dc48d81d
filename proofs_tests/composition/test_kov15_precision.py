"""KOV15 Thm 3.3's forward value at the inputs its precision devices exist for, against
python-flint.

``optimal_delta`` carries guard bits for long recurrences and small ``eps``, an ``expm1``
branch at the kink of each term ``[1 - e^(eps_g - (k-2j) eps)]_+``, and ``-log2 K`` extra
bits for ``1 - K + K S`` when every mechanism's leak ``K = (1 - delta)^k`` is tiny (an
inverse reads ``1 - delta_g = K (1 - S)`` from it).  Each test below sits where one of them
matters and asks for the working precision, two-sided: the exact value (an arb ball from
exact rational inputs, every term positive so no cancellation) lies in the certified
enclosure, the enclosure is tight to the working precision (relative to the value, or to
its complement ``1 - delta_g`` where that is what an inverse reads), and the plain value
agrees with the exact one to the working precision.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
from mpmath import mp

from proofs_tests.arb_support import arb_ends, arb_q, frac
from reference.core.numeric import to_ctx
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon

F = Fraction


def exact_delta(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction,
                bits: int) -> tuple[Fraction, Fraction]:
    """Exact ends of a ball around ``1 - K + K sum_j C(k,j) p^(k-j) (1-p)^j (1 -
    e^-gap_j)`` over the positive gaps ``gap_j = (k-2j) eps - eps_g`` (exact rationals),
    ``K = (1 - delta)^k``: every term positive, the precision doubled until the radius is
    below ``2^-bits`` of the value and of its complement (``1 - K (1 - S)`` resolves ``K``)."""
    K, old, prec = (1 - delta) ** k, flint.ctx.prec, bits + 4 * k.bit_length() + 64
    try:
        while True:
            flint.ctx.prec = prec
            e = arb_q(eps)
            p, q = 1 / (1 + (-e).exp()), 1 / (1 + e.exp())
            total = flint.arb(0)
            for j in range(k + 1):
                gap = (k - 2 * j) * eps - eps_g
                if gap <= 0:
                    break
                total += math.comb(k, j) * p ** (k - j) * q ** j * -(-arb_q(gap)).expm1()
            lo, hi = arb_ends(arb_q(1 - K) + arb_q(K) * total)
            if hi - lo <= min(lo, 1 - hi) * F(1, 2**bits):
                return lo, hi
            prec *= 2
    finally:
        flint.ctx.prec = old


def arb_optimal_delta(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction,
                      bits: int) -> tuple[Fraction, Fraction]:
    """Exact ends of a ball holding ``1 - K + K sum_j C(k,j) p^(k-j) (1-p)^j
    (-expm1(-gap_j))`` over ``gap_j = (k-2j) eps - eps_g > 0`` (the gaps exact), and
    ``1 - K`` exact: relative radius below ``2^-bits`` of the value and of ``1 - value``."""
    lo, hi = exact_delta(eps, k, eps_g, delta, bits)
    assert hi - lo < lo * F(1, 2**bits) and hi - lo < (1 - hi) * F(1, 2**bits)
    return lo, hi


def check(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction,
          complement: bool = False) -> None:
    """Exact value in the enclosure; enclosure and plain value within ``2^-(prec - 10)`` of
    it, relative to the value (or, with ``complement``, to ``1 - value``)."""
    with mp.workdps(50):
        bits = mp.prec
    lo, hi = arb_optimal_delta(eps, k, eps_g, delta, bits + 20)
    args = {"eps": eps, "k": k, "eps_g": eps_g, "delta": delta}
    enc = optimal_delta.certified(**args)
    e_lo, e_hi = frac(enc.lo), frac(enc.hi)
    assert e_lo <= lo and hi <= e_hi, (float(lo), enc)
    scale = (1 - hi) if complement else lo
    assert e_hi - e_lo <= scale * F(1, 2 ** (bits - 10)), (float(e_hi - e_lo), float(scale))
    if not complement:
        plain = frac(optimal_delta(**args))
        assert abs(plain - lo) <= scale * F(1, 2 ** (bits - 10)), (float(plain), float(lo))


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize("below", [F(1, 2**20), F(1, 2**200), F(1, 10**400)])
@pytest.mark.parametrize("k", [1, 20])
def test_at_the_kink_of_the_first_term(below: Fraction, k: int) -> None:
    """eps_g = k eps - below: only j = 0 counts, with 1 - e^(-below) ~ below (p^k below);
    a subtraction 1 - e^(-below) would cancel every digit."""
    eps = F(1, 10)
    check(eps, k, k * eps - below, F(0))


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize("eps", [F(1, 2**100), F(1, 10**300)])
@pytest.mark.parametrize("k", [2, 50])
def test_small_eps(eps: Fraction, k: int) -> None:
    """eps far below the working precision: p - 1/2 ~ eps/4 and every gap ~ eps."""
    check(eps, k, F(k // 2) * eps / 3, F(0))


@covers("KOV15:Thm3.3-delta")
def test_long_recurrence() -> None:
    """k = 4000 terms, the weights and shortfalls updated by recurrence."""
    check(F(1, 50), 4000, F(1), F(0))


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("delta", "k"), [(F(1, 2), 200), (F(1, 2), 308), (F(1, 3), 100)])
def test_tiny_leak_resolves_the_complement(delta: Fraction, k: int) -> None:
    """K = (1 - delta)^k down to 2^-308 (the most extra bits given): delta_g = 1 - K (1 - S)
    is within K of 1, and the enclosure must resolve 1 - delta_g to the working precision
    (an inverse at delta_g = 1 - c K reads c from it)."""
    check(F(1, 10), k, F(1, 2), delta, complement=True)


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize("eps", [F(1, 10**400), F(1, 2**1100), F(1, 10**30)])
@pytest.mark.parametrize("k", [1, 4])
def test_eps_below_the_smallest_double(eps: Fraction, k: int) -> None:
    """An eps whose float is 0 (the terms' form is chosen from floats): every term is near
    its kink, so every one takes the expm1 form.  The guard
    bits for a small eps make the enclosure far tighter than 2^-169, so the exact ball is
    taken at ``log2(1/eps) + 400`` bits for the containment to be a test."""
    with mp.workdps(50):
        bits = mp.prec
    lo, hi = arb_optimal_delta(eps, k, F(0), F(0), eps.denominator.bit_length() + 400)
    enc = optimal_delta.certified(eps=eps, k=k, eps_g=0)
    assert frac(enc.lo) <= lo and hi <= frac(enc.hi)
    assert frac(enc.hi) - frac(enc.lo) <= lo * F(1, 2 ** (bits - 10))
    assert abs(frac(optimal_delta(eps=eps, k=k, eps_g=0)) - lo) <= lo * F(1, 2 ** (bits - 10))


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize("delta", [F(1, 10**30), F(1, 10**300), F(3, 2**60)])
@pytest.mark.parametrize("k", [1, 3])
def test_floor_with_a_tiny_delta(delta: Fraction, k: int) -> None:
    """eps_g >= k eps leaves only the floor 1 - (1 - delta)^k ~ k delta: 1 - e^(k log(1-delta))
    would cancel every digit (the leak is -expm1 there)."""
    check(F(1, 10), k, F(1), delta)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("delta", "k", "delta_g"), [(F(1, 10), 3, F(3, 10)),
                                                     (F(1, 1000), 50, F(1, 10)),
                                                     (F(1, 3), 4, F(41, 50))])
def test_inverse_with_delta_is_the_pure_inverse_at_the_rr_target(
        delta: Fraction, k: int, delta_g: Fraction) -> None:
    """delta_g = 1 - K + K S(eps_g) with K = (1-delta)^k, so the inverse at delta_g equals the
    delta = 0 inverse at the exact target t = (delta_g - 1 + K)/K: the two certified brackets
    meet, and the solver's own point (``core``, before the certificate walks from it) is
    within 2^-(prec - 20) of both."""
    eps = F(1, 5)
    K = (1 - delta) ** k
    t = (delta_g - 1 + K) / K
    assert 0 < t < 1
    cert = optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=delta)
    pure = optimal_epsilon(eps=eps, k=k, delta_g=t, delta=0)
    lo, hi = max(frac(cert.lo), frac(pure.lo)), min(frac(cert.hi), frac(pure.hi))
    assert 0 < lo <= hi      # delta_g below its value at eps_g = 0: a positive inverse
    with mp.workdps(50):
        bits = mp.prec
        guess = frac(optimal_epsilon.core(mp, to_ctx(mp, eps), k, to_ctx(mp, delta_g),
                                          to_ctx(mp, delta)))
    assert abs(guess - lo) <= lo * F(1, 2 ** (bits - 20))


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("delta_g", [F(1, 10**30), F(3, 10**30)])
def test_the_solver_point_at_a_tiny_eps(delta_g: Fraction) -> None:
    """eps = 1e-30, k = 100: the solver's A_m - e^eps_g B_m cancels about 100 bits (A_m and
    B_m agree to eps), which the small-eps guard bits pay for; its point is within
    2^-(prec - 20) of the certified inverse (without those bits: 2^-123 at 50 digits)."""
    eps, k = F(1, 10**30), 100
    cert = optimal_epsilon(eps=eps, k=k, delta_g=delta_g)
    lo, hi = frac(cert.lo), frac(cert.hi)
    assert 0 < lo and hi - lo <= lo * F(1, 2**150)
    with mp.workdps(50):
        bits = mp.prec
        guess = frac(optimal_epsilon.core(mp, to_ctx(mp, eps), k, to_ctx(mp, delta_g), mp.zero))
    assert abs(guess - lo) <= lo * F(1, 2 ** (bits - 20))
