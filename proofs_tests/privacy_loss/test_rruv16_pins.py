"""RRUV16 §2: the pins that test_rruv16.py leaves open.

The enclosure of Definition 2.1 is tight (the larger of two hockey-sticks, both ends), and
the check of erratum RRUV16:Lem2.3-ii is pinned: ``confirmed`` and every number of
``detail``, from python-flint ``arb`` (the masses of the two counterexamples by hand).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends, frac
from proofs_tests.privacy_loss_support import arb_shown, mpq, pairs
from reference import DomainError
from reference.results import covers, errata
from reference.results.privacy_loss.rruv16 import (
    exceeds_exp,
    indistinguishable_delta,
    pointwise_delta,
    pointwise_failure,
    sharpness_pair,
)


def _hockey(P: list[Fraction], Q: list[Fraction], eps: Fraction) -> Fraction:
    """``sum [p - e^eps q]_+``, its terms' signs decided in arb at 300 bits (exactly when
    ``eps = 0`` or ``q = 0``; otherwise ``e^eps`` is irrational, so no term is 0), returned
    as the lower end of the ball (radius below 2^-250)."""
    old = flint.ctx.prec
    flint.ctx.prec = 300
    try:
        w = (flint.arb(eps.numerator) / eps.denominator).exp()
        total = flint.arb(0)
        for p, q in zip(P, Q, strict=True):
            if eps == 0 or q == 0:
                total += flint.arb(flint.fmpq(*(max(p - q, Fraction(0)).as_integer_ratio())))
                continue
            d = flint.arb(flint.fmpq(p.numerator, p.denominator)) \
                - w * flint.fmpq(q.numerator, q.denominator)
            assert d > 0 or d < 0
            if d > 0:
                total += d
        lo, hi = arb_ends(total)
        assert hi - lo < Fraction(1, 2**250)
        return lo
    finally:
        flint.ctx.prec = old


@covers("RRUV16:Def2.1")
@given(pairs(), st.fractions(0, 4, max_denominator=64))
def test_indistinguishable_enclosure_is_tight(pq: tuple[list[Fraction], list[Fraction]],
                                              eps: Fraction) -> None:
    # delta* = max of the two hockey-sticks (arb): the enclosure's two ends are both within
    # 1e-40 of it, also when the two hockey-sticks differ.
    P, Q = pq
    exact = max(_hockey(P, Q, eps), _hockey(Q, P, eps))
    enc = indistinguishable_delta.certified(P=P, Q=Q, eps=eps)
    with mp.workdps(60):
        tol = mp.mpf("1e-40")
        assert abs(enc.lo - mpq(exact)) <= tol and abs(enc.hi - mpq(exact)) <= tol


@covers("RRUV16:Lem2.3-ii", "RRUV16:Def2.1", "RRUV16:Def2.2", "RRUV16:Def2.6")
def test_lemma_2_3_ii_check_pinned() -> None:
    # CE2, eps = 1/10, delta = 1e-4, eta = 1e-9: p = delta/(1 - e^(-eps-eta)) and
    # small = p e^(-2eps-eta) have |L| = 2eps + eta > 2eps, so the point-wise mass is
    # p + small; the hockey-stick is delta by construction; printed 2 delta/(e^eps eps).
    # CE1, RR_(1, 1e-4): the point-wise mass at 2 is delta (the outcomes 0 and 1, |L| = inf;
    # T and B have |L| = 1), printed 2 delta / e.
    flint.ctx.prec, old = 300, flint.ctx.prec
    try:
        eps, delta = flint.arb(flint.fmpq(1, 10)), flint.arb(flint.fmpq(1, 10**4))
        eta = flint.arb(flint.fmpq(1, 10**9))
        p = delta / (1 - (-eps - eta).exp())
        mass = p * (1 + (-2 * eps - eta).exp())
        printed = 2 * delta / (eps.exp() * eps)
        printed1 = 2 * delta / flint.arb(1).exp()
        shown = [arb_shown(delta, 6), arb_shown(mass, 4), arb_shown(printed, 4),
                 arb_shown(delta, 4),
                 arb_shown(printed1, 4)]
    finally:
        flint.ctx.prec = old
    (entry,) = [e for e in errata() if e.id == "RRUV16:Lem2.3-ii"]
    check = entry.verify()
    assert check.confirmed
    assert check.detail == (
        f"CE2 eps=0.1, delta=1e-4: Def2.1 = {shown[0]}, point-wise mass at 2eps = {shown[1]} > "
        f"printed {shown[2]}; CE1 RR_(1, 1e-4): Def2.1 = {shown[0]}, mass at 2 = {shown[3]} > "
        f"printed {shown[4]}")


@covers("RRUV16:Def2.2")
def test_exceeds_exp_at_eps_one() -> None:
    # e = 2.71828...: ratios 1, 2 and 2.718 are not above e^1, 2.7183 and 3 are.
    ratios = [Fraction(1), Fraction(2), Fraction(2718, 1000), Fraction(27183, 10000), Fraction(3)]
    assert [exceeds_exp(r, Fraction(1)) for r in ratios] == [False, False, False, True, True]
    assert pointwise_delta(P="0.6,0.4", Q="0.3,0.7", eps=1) == 0   # ratios 2 and 7/4 < e


@covers("RRUV16:Def2.2")
def test_pointwise_failure_refuses_unequal_lengths() -> None:
    # The helper is called directly (filters); laws of unequal length are an error, not a
    # silently shortened sum.
    with pytest.raises(ValueError):
        pointwise_failure(mp, [Fraction(1, 2), Fraction(1, 2)], [Fraction(1)], Fraction(0))


@covers("RRUV16:Lem2.3-ii")
def test_sharpness_pair_precision_and_values() -> None:
    # Documented: computed at 20 digits above the working precision, i.e. rounded to
    # mp.dps + 20 digits (236 bits at 50 digits) and accurate to that; values from arb:
    # p = delta/(1 - e^(-eps-eta)), small = p e^(-2eps-eta), rest = 1 - p - small.
    with mp.workdps(50):
        inputs = mp.mpf(1) / 10, mp.mpf(1) / 10**4, mp.mpf(1) / 10**9
        pair = sharpness_pair(*inputs)
        bits = mpmath.libmp.dps_to_prec(70)
    flint.ctx.prec, old = 400, flint.ctx.prec
    try:
        eps, delta, eta = (flint.arb(flint.fmpq(*frac(x).as_integer_ratio())) for x in inputs)
        p = delta / (1 - (-eps - eta).exp())
        small = p * (-2 * eps - eta).exp()
        want = [arb_ends(x)[0] for x in (p, small, 1 - p - small)]
    finally:
        flint.ctx.prec = old
    got = [frac(x) for x in pair.P]
    assert [frac(x) for x in pair.Q] == [got[1], got[0], got[2]]
    assert pair.labels == ("b", "c", "r")
    for g, w in zip(got, want, strict=True):   # rest: absolute (1 - p - small cancels)
        assert abs(g - w) <= Fraction(1, 2**(bits - 4))
        assert abs(g - w) <= w * Fraction(1, 2**(bits - 4)) or w > Fraction(1, 2)
    assert max(int(x._mpf_[1]).bit_length() for x in pair.P) <= bits


@covers("RRUV16:Lem2.3-ii")
def test_sharpness_pair_takes_a_zero_rest() -> None:
    # The largest delta for a pair is where the third mass is 0: p (1 + e^(-2eps-eta)) = 1.
    # Next to it (deltas an ulp apart at the pair's precision) some delta gives rest == 0
    # exactly; that pair is valid and returned, only a negative rest is refused.
    with mp.workdps(50):
        eps = eta = mp.mpf(1) / 10
    with mp.workdps(70):
        top = -mp.expm1(-eps - eta) / (1 + mp.exp(-2 * eps - eta))
        ulp = mp.mpf(2) ** (mp.mag(top) - mp.prec)
        deltas = [top + k * ulp for k in range(-6, 3)]
    zeros = refused = 0
    with mp.workdps(50):
        for d in deltas:
            try:
                pair = sharpness_pair(eps, d, eta)
            except DomainError:
                refused += 1
                continue
            assert pair.P[2] >= 0
            zeros += pair.P[2] == 0
    assert zeros >= 1 and refused >= 1
