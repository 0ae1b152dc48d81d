"""RRUV16 §2: indistinguishability, point-wise indistinguishability, Lemma 2.3, RR.

Lemma 2.3 (ii) is tested in its corrected form only; the printed constant is pinned as
failing on the counterexamples of erratum RRUV16:Lem2.3-ii (never expected to hold).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.privacy_loss_support import TOL, at60, dist, mpq, pairs
from reference import DomainError
from reference.core.numeric import exact
from reference.results import covers, errata
from reference.results.privacy_loss.rruv16 import (
    indistinguishable_delta,
    indistinguishable_to_pointwise,
    pointwise_delta,
    pointwise_to_indistinguishable,
    randomized_response,
    sharpness_pair,
)
from reference.results.privacy_loss.rswr23 import privacy_loss_distribution


@st.composite
def rr_like(draw: st.DrawFn) -> tuple[list[Any], list[Any]]:
    """RR_{eps0, delta0}, its 2-fold product, or a mixture with a random pair."""
    eps0 = draw(st.fractions(0, 3, max_denominator=20))
    delta0 = draw(st.fractions(0, Fraction(1, 2), max_denominator=200))
    rr = randomized_response(eps=eps0, delta=delta0)
    kind = draw(st.sampled_from(["rr", "product", "mixture"]))
    if kind == "rr":
        return list(rr.P), list(rr.Q)
    if kind == "product":
        return ([a * b for a in rr.P for b in rr.P], [a * b for a in rr.Q for b in rr.Q])
    P, Q = draw(dist(4)), draw(dist(4))
    lam = mpq(draw(st.fractions(0, 1, max_denominator=10)))
    return ([lam * a + (1 - lam) * mpq(p) for a, p in zip(rr.P, P, strict=True)],
            [lam * b + (1 - lam) * mpq(q) for b, q in zip(rr.Q, Q, strict=True)])


eps_st = st.fractions(0, 4, max_denominator=64)
pos_eps_st = st.fractions(Fraction(1, 100), 4, max_denominator=100)


def _exact(xs: tuple[Any, ...]) -> list[Fraction]:
    return [exact(x, "p", "test") for x in xs]


def brute_force(P: list[Fraction], Q: list[Fraction], eps: Fraction) -> mpmath.mpf:
    """max over events E and both orders of P(E) - e^eps Q(E), at 80 digits."""
    with mp.workdps(80):
        w, best = mp.exp(mpq(eps)), mp.zero
        for r in range(1, len(P) + 1):
            for event in itertools.combinations(range(len(P)), r):
                p = mpq(sum((P[i] for i in event), Fraction(0)))
                q = mpq(sum((Q[i] for i in event), Fraction(0)))
                best = max(best, p - w * q, q - w * p)
        return best


def pointwise_by_logs(P: list[Fraction], Q: list[Fraction], eps: Fraction) -> mpmath.mpf:
    """max of P[|L| > eps] and Q[|L| > eps] with L from logarithms, at 80 digits."""
    with mp.workdps(80):
        def big(p: Fraction, q: Fraction) -> bool:
            if p == 0 or q == 0:
                return p != q
            return bool(abs(mp.log(mpq(p)) - mp.log(mpq(q))) > mpq(eps))
        bad = [big(p, q) for p, q in zip(P, Q, strict=True)]
        return max(mpq(sum((p for p, b in zip(P, bad, strict=True) if b), Fraction(0))),
                   mpq(sum((q for q, b in zip(Q, bad, strict=True) if b), Fraction(0))))


@covers("RRUV16:Def2.1")
@given(pairs(), eps_st)
@at60
def test_indistinguishability_is_the_worst_event(pq: tuple[list[Fraction], list[Fraction]],
                                                 eps: Fraction) -> None:
    P, Q = pq
    exact = brute_force(P, Q, eps)
    assert abs(indistinguishable_delta(P=P, Q=Q, eps=eps) - exact) <= TOL
    enc = indistinguishable_delta.certified(P=P, Q=Q, eps=eps)
    assert enc.lo - TOL <= exact <= enc.hi + TOL
    assert indistinguishable_delta(P=P, Q=Q, eps=eps) == indistinguishable_delta(P=Q, Q=P, eps=eps)


@covers("RRUV16:Def2.1")
@given(pairs(), eps_st, eps_st, st.data())
@at60
def test_indistinguishability_monotone_and_post_processing(
        pq: tuple[list[Fraction], list[Fraction]], e1: Fraction, e2: Fraction,
        data: st.DataObject) -> None:
    P, Q = pq
    lo, hi = sorted((e1, e2))
    assert (indistinguishable_delta(P=P, Q=Q, eps=hi)
            <= indistinguishable_delta(P=P, Q=Q, eps=lo) + TOL)
    # Theorem 2.5 (post-processing): a random stochastic map cannot increase delta.
    cols = data.draw(st.integers(1, 5))
    F = [data.draw(dist(cols)) for _ in P]
    PF = [sum(P[i] * F[i][j] for i in range(len(P))) for j in range(cols)]
    QF = [sum(Q[i] * F[i][j] for i in range(len(P))) for j in range(cols)]
    assert (indistinguishable_delta(P=PF, Q=QF, eps=lo)
            <= indistinguishable_delta(P=P, Q=Q, eps=lo) + TOL)


@covers("RRUV16:Def2.2")
@given(pairs(), eps_st)
@at60
def test_pointwise_delta_by_logarithms(pq: tuple[list[Fraction], list[Fraction]],
                                       eps: Fraction) -> None:
    P, Q = pq
    exact = pointwise_by_logs(P, Q, eps)
    assert abs(pointwise_delta(P=P, Q=Q, eps=eps) - exact) <= TOL
    enc = pointwise_delta.certified(P=P, Q=Q, eps=eps)
    assert enc.lo - TOL <= exact <= enc.hi + TOL


@covers("RRUV16:Def2.2")
def test_pointwise_undecided_event_keeps_a_valid_enclosure() -> None:
    # |L| = log 2 exactly at eps = log 2 (given as a 60-digit number): the interval
    # evaluation may not decide the event and must then enclose both answers.
    with mp.workdps(60):
        eps = mp.log(2)
    enc = pointwise_delta.certified(P="0.5,0.5", Q="0.25,0.75", eps=eps)
    assert enc.lo <= pointwise_delta(P="0.5,0.5", Q="0.25,0.75", eps=eps) <= enc.hi


@covers("RRUV16:Lem2.3-i", "RRUV16:Def2.1", "RRUV16:Def2.2")
@given(st.one_of(pairs(), rr_like()), eps_st)
@at60
def test_pointwise_implies_indistinguishable(pq: tuple[list[Any], list[Any]],
                                             eps: Fraction) -> None:
    P, Q = pq
    pointwise = pointwise_delta(P=P, Q=Q, eps=eps)
    guarantee = pointwise_to_indistinguishable(eps=eps, delta=min(pointwise, mp.one))
    assert abs(guarantee.eps - mpq(eps)) <= TOL
    assert indistinguishable_delta(P=P, Q=Q, eps=guarantee.eps) <= guarantee.delta + TOL


@covers("RRUV16:Lem2.3-ii", "RRUV16:Def2.1", "RRUV16:Def2.2")
@given(st.one_of(pairs(), rr_like()), pos_eps_st)
@at60
def test_corrected_lemma_2_3_ii_holds(pq: tuple[list[Any], list[Any]], eps: Fraction) -> None:
    P, Q = pq
    delta = indistinguishable_delta(P=P, Q=Q, eps=eps)
    guarantee = indistinguishable_to_pointwise(eps=eps, delta=min(delta, mp.one))
    assert abs(guarantee.eps - 2 * mpq(eps)) <= TOL
    assert pointwise_delta(P=P, Q=Q, eps=guarantee.eps) <= guarantee.delta + TOL


@covers("RRUV16:Lem2.3-ii")
@given(st.fractions(Fraction(1, 100), 3, max_denominator=100),
       st.fractions(Fraction(1, 10**6), Fraction(1, 10), max_denominator=10**6))
@at60
def test_corrected_constant_is_sharp(eps: Fraction, frac: Fraction) -> None:
    # Counterexample 2 of erratum RRUV16:Lem2.3-ii: exactly (eps, delta)-indistinguishable,
    # and its point-wise mass at 2 eps tends to the corrected delta as eta -> 0.
    delta = mpq(frac) * -mp.expm1(-mpq(eps)) / 3  # keeps the third mass positive
    bound = indistinguishable_to_pointwise(eps=eps, delta=delta).delta
    printed = 2 * delta / (mp.exp(mpq(eps)) * mpq(eps))
    gaps = []
    for eta in ["1e-3", "1e-6", "1e-9"]:
        pair = sharpness_pair(mpq(eps), delta, mp.mpf(eta))
        assert abs(indistinguishable_delta(P=pair.P, Q=pair.Q, eps=eps) - delta) <= delta * TOL
        mass = pointwise_delta(P=pair.P, Q=pair.Q, eps=2 * eps)
        assert mass <= bound * (1 + TOL)
        gaps.append(bound - mass)
    assert gaps[0] > gaps[1] > gaps[2] >= 0
    # The deficit is O(eta / eps); the printed constant is below the limit by ~eps/2
    # (relative), so at eta = 1e-9 the pair refutes it for every eps >= 0.01.
    assert gaps[2] <= bound * mpmath.mpf("2e-9") * (1 + 1 / mpq(eps))
    assert bound - gaps[2] > printed


@covers("RRUV16:Lem2.3-ii")
def test_printed_constant_fails_pinned() -> None:
    # The erratum at eps = 0.1, delta = 1e-4: 1.911e-3 against the printed 1.810e-3.
    with mp.workdps(60):
        pair = sharpness_pair(mp.mpf("0.1"), mp.mpf("1e-4"), mp.mpf("1e-12"))
        mass = pointwise_delta(P=pair.P, Q=pair.Q, eps="0.2")
        assert mpmath.nstr(mass, 4) == "0.001911"
        bound = indistinguishable_to_pointwise(eps="0.1", delta="1e-4").delta
        assert mpmath.nstr(bound, 4) == "0.001911"
        printed = 2 * mp.mpf("1e-4") / (mp.exp(mp.mpf("0.1")) * mp.mpf("0.1"))
        assert mpmath.nstr(printed, 4) == "0.00181"
        assert mass > printed
        # Counterexample 1: RR_{1, delta} has point-wise mass delta at 2 > 2 delta / e.
        rr = randomized_response(eps=1, delta="1e-4")
        assert abs(pointwise_delta(P=rr.P, Q=rr.Q, eps=2) - mp.mpf("1e-4")) <= TOL
        assert 2 * mp.mpf("1e-4") / mp.e < mp.mpf("1e-4")
    (entry,) = [e for e in errata() if e.id == "RRUV16:Lem2.3-ii"]
    check = entry.verify()
    assert check.confirmed, check.detail


@covers("RRUV16:Lem2.3-i", "RRUV16:Lem2.3-ii")
def test_lemma_domains() -> None:
    with pytest.raises(DomainError):
        indistinguishable_to_pointwise(eps=0, delta="0.1")
    with pytest.raises(DomainError):
        indistinguishable_to_pointwise(eps=1, delta="1.5")
    with pytest.raises(DomainError):
        pointwise_to_indistinguishable(eps=-1, delta="0.1")
    with pytest.raises(DomainError):
        pointwise_delta(P="0.5,0.5", Q="1", eps=1)


@covers("RRUV16:Def2.6")
@given(st.fractions(0, 5, max_denominator=100), st.fractions(0, 1, max_denominator=1000),
       st.fractions(0, Fraction(99, 100), max_denominator=100))
@at60
def test_randomized_response_is_exactly_eps_delta(eps: Fraction, delta: Fraction,
                                                  shrink: Fraction) -> None:
    rr = randomized_response(eps=eps, delta=delta)
    assert rr.labels == ("0", "T", "B", "1")
    assert abs(mp.fsum(rr.P) - 1) <= TOL and abs(mp.fsum(rr.Q) - 1) <= TOL
    P, Q = _exact(rr.P), _exact(rr.Q)
    assert abs(brute_force(P, Q, eps) - mpq(delta)) <= TOL
    # Tight: at any smaller eps' the pair needs more than delta (unless it is trivial).
    if eps > 0 and delta < 1:
        assert brute_force(P, Q, eps * shrink) > mpq(delta) + mpmath.mpf("1e-30")


@covers("RRUV16:Def2.6")
@given(st.fractions(Fraction(1, 100), 5, max_denominator=100),
       st.fractions(Fraction(1, 1000), Fraction(999, 1000), max_denominator=1000))
@at60
def test_randomized_response_losses(eps: Fraction, delta: Fraction) -> None:
    rr = randomized_response(eps=eps, delta=delta)
    pld = privacy_loss_distribution(P=rr.P, Q=rr.Q)  # outcomes 0, T, B (1 has no P-mass)
    assert pld.losses[0] == mp.inf
    assert abs(pld.losses[1] - mpq(eps)) <= TOL and abs(pld.losses[2] + mpq(eps)) <= TOL
    back = privacy_loss_distribution(P=rr.Q, Q=rr.P)  # reference input 1: -inf at "0"
    assert back.losses[-1] == mp.inf
    enc = randomized_response.certified(eps=eps, delta=delta)
    for lo_hi, value in zip(enc.P + enc.Q, rr.P + rr.Q, strict=True):
        assert lo_hi.lo - TOL <= value <= lo_hi.hi + TOL


@covers("RRUV16:Def2.6")
def test_randomized_response_domain() -> None:
    with pytest.raises(DomainError):
        randomized_response(eps=1, delta="1.01")
    with pytest.raises(DomainError):
        randomized_response(eps=-0.5, delta=0)
