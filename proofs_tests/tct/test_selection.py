"""One-shot selection and SVT with individual charging (CL23 Lemma 2.6, Theorems I.1, I.3,
2.10): the sweep simulation against Algorithm 3, and the explicit bounds against the exact
privacy profiles of top-1 / top-2 outputs of small discrete candidates (enumeration).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.profiles import share
from proofs_tests.tct_support import log
from reference.oracle.tct_strategies import pair
from reference.results import covers
from reference.results.tct.base import simplest_between
from reference.results.tct.charging import tct_advanced, tct_basic
from reference.results.tct.release import revise_call
from reference.results.tct.selection import (
    svt_individual,
    svt_individual_basic,
    sweep_top_k,
    top_k,
    top_k_calls,
    top_one,
)
from reference.results.tct.transcripts import Law, profile_delta
from reference.sim.tct_selection import IndividualSVT, one_shot_top_k

F = Fraction



def fixed(score: float):  # type: ignore[no-untyped-def]
    return lambda data, rng: (None, score)


def top_laws(cands: Sequence[tuple[tuple[Fraction, ...], tuple[Fraction, ...]]],
             k: int) -> tuple[Law, Law]:
    """Exact laws on D^0, D^1 of the top-k output ((index, score), ...) of independent
    candidates with score laws (P_i, Q_i) on 0..L-1; ties go to the smaller index."""
    laws: tuple[Law, Law] = ({}, {})
    levels = len(cands[0][0])
    for scores in itertools.product(range(levels), repeat=len(cands)):
        order = sorted(range(len(cands)), key=lambda i: (-scores[i], i))[:k]
        out = tuple(x for i in order for x in (i, scores[i]))
        for b in (0, 1):
            mass = math.prod((c[b][s] for c, s in zip(cands, scores, strict=True)), start=F(1))
            if mass:
                laws[b][out] = laws[b].get(out, F(0)) + mass
    return laws


@covers("CL23:Lem2.6")
@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.data())
def test_sweep_simulates_one_shot_exactly(scores: list[int], data: st.DataObject) -> None:
    """Lemma 2.6: ConditionalRelease + ReviseCR rounds select what Algorithm 3 selects, with
    exactly k target hits."""
    k = data.draw(st.integers(1, len(scores)))
    released, charges = sweep_top_k([(None, F(s)) for s in scores], k)
    chosen = one_shot_top_k([fixed(s) for s in scores], [], k, np.random.default_rng(0))
    assert released == [i for i, _, _ in chosen] and charges == k


@covers("CL23:Lem2.6")
@given(st.fractions(0, 3, max_denominator=20), st.integers(1, 50))
def test_selection_calls_are_revise_calls(eps: Fraction, k: int) -> None:
    spec = top_k_calls(eps=eps, k=k)
    rev = revise_call(eps=eps)
    assert spec.eps == rev.eps and spec.q == rev.q and spec.hits == k


@covers("CL23:ThmI.1")
@settings(max_examples=share(Fraction(1, 2)))
@given(st.sampled_from([F(11, 10), F(3, 2), F(2)]), st.integers(2, 5), st.integers(2, 3),
       st.sampled_from([F(1, 2), F(1, 5), F(1, 20)]), st.data())
def test_top_one_exact_profile(w: Fraction, m: int, levels: int, delta: Fraction,
                               data: st.DataObject) -> None:
    """Theorem I.1: the exact delta of the top-1 output at eps' = 2 m' ln w is <= delta."""
    cands = [data.draw(pair(w, levels)) for _ in range(m)]
    bound = top_one.certified(eps=log(w), delta=delta)
    m_prime = int(bound.m.lo)
    assert bound.m.lo == bound.m.hi
    exact = profile_delta(*top_laws(cands, 1), w ** (2 * m_prime))
    assert exact <= delta


@covers("CL23:ThmI.1")
@given(st.sampled_from(["0.01", "0.1", "0.5", "2"]), st.sampled_from(["0.5", "1e-3", "1e-9"]))
def test_top_one_geometric_tail(eps: str, delta: str) -> None:
    """m' is the smallest integer with (1 - q_2)^m' <= delta, q_2 = 1/(e^{2 eps}+1)."""
    b = top_one(eps=eps, delta=delta)
    with mp.workdps(60):
        keep = 1 - 1 / (mp.exp(2 * mp.mpf(eps)) + 1)
        assert keep ** b.m <= mp.mpf(delta) < keep ** (b.m - 1)
        assert abs(b.eps - 2 * mp.mpf(eps) * b.m) < 1e-40


@covers("CL23:ThmI.3")
@settings(max_examples=share(Fraction(1, 3)))
@given(st.sampled_from([F(11, 10), F(3, 2), F(2)]), st.integers(2, 4), st.data())
def test_top_two_exact_profile(w: Fraction, m: int, data: st.DataObject) -> None:
    """Theorem I.3 (k = 2): the exact delta of the ordered top-2 output at a rational
    W <= e^{eps'} is at most the bound's delta."""
    cands = [data.draw(pair(w, 3)) for _ in range(m)]
    b = top_k.certified(eps=log(w), k=2, alpha=1, delta_star="0.01")
    with mp.workdps(60):
        lo = mp.exp(b.eps.lo)
    W = simplest_between(F(str(mpmath.nstr(lo * (1 - mp.mpf(10) ** -12), 20))),
                         F(str(mpmath.nstr(lo * (1 - mp.mpf(10) ** -13), 20))))
    exact = profile_delta(*top_laws(cands, 2), W)
    with mp.workdps(60):
        assert mp.mpf(exact.numerator) / exact.denominator <= b.delta.lo


@covers("CL23:ThmI.3")
@given(st.fractions(0, 1, max_denominator=50), st.integers(1, 200),
       st.sampled_from([F(1, 2), F(1), F(2)]))
def test_top_k_is_tct_over_doubled_calls(eps: Fraction, k: int, alpha: Fraction) -> None:
    """m' = floor((1+alpha) k (e^{2eps}+1)) by mpmath at 80 digits; eps' is TCT's advanced
    form at 2 eps, between the bounds at the rational q just below/above 1/(e^{2eps}+1)."""
    b = top_k(eps=eps, k=k, alpha=alpha, delta_star="1e-6")
    with mp.workdps(80):
        q2 = 1 / (mp.exp(2 * mp.mpf(eps.numerator) / eps.denominator) + 1)
        assert b.m == mpmath.floor((1 + mp.mpf(alpha.numerator) / alpha.denominator) * k / q2)
        q_lo = F(str(mpmath.nstr(q2 * (1 - mp.mpf(10) ** -30), 40)))
        q_hi = F(str(mpmath.nstr(q2 * (1 + mp.mpf(10) ** -30), 40)))
    loose = tct_advanced(eps=2 * eps, q=q_lo, tau=k, alpha=alpha, delta_star="1e-6", Delta=0)
    tight = tct_advanced(eps=2 * eps, q=q_hi, tau=k, alpha=alpha, delta_star="1e-6", Delta=0)
    assert tight.eps <= b.eps <= loose.eps and b.delta == tight.delta


@covers("CL23:Thm2.10", "CL23:Thm2.10-basic")
@given(st.fractions(0, 2, max_denominator=50), st.integers(1, 300),
       st.sampled_from([F(1, 2), F(1), F(2)]))
def test_svt_is_per_item_tct(eps: Fraction, tau: int, alpha: Fraction) -> None:
    """Theorem 2.10: per item, TCT at q = 1/(e^eps+1) with tau hits (bracketed by rational q)."""
    basic = svt_individual_basic(eps=eps, tau=tau, alpha=alpha)
    adv = svt_individual(eps=eps, tau=tau, alpha=alpha, delta_star="1e-6")
    with mp.workdps(80):
        q1 = 1 / (mp.exp(mp.mpf(eps.numerator) / eps.denominator) + 1)
        q_lo = F(str(mpmath.nstr(q1 * (1 - mp.mpf(10) ** -30), 40)))
        q_hi = F(str(mpmath.nstr(q1 * (1 + mp.mpf(10) ** -30), 40)))
    lo = tct_basic(eps=eps, q=q_hi, tau=tau, alpha=alpha, Delta=0)
    hi = tct_basic(eps=eps, q=q_lo, tau=tau, alpha=alpha, Delta=0)
    assert lo.eps <= basic.eps <= hi.eps and basic.delta == lo.delta
    assert adv.m == basic.m and adv.delta > basic.delta


@covers("CL23:Thm2.10")
def test_individual_svt_charges_and_removes() -> None:
    """Algorithm 5's bookkeeping: only contributing items are charged, removed at tau."""
    svt = IndividualSVT(list(range(10)), eps=50.0, tau=2)    # eps = 50: almost no noise
    g = np.random.default_rng(3)
    assert svt.query(lambda x: x < 3, 2.5, g) is not None     # items 0, 1, 2 charged
    assert svt.query(lambda x: x < 5, 4.5, g) is not None     # 0-2 reach tau, 3-4 charged
    assert sorted(svt.data) == [3, 4, 5, 6, 7, 8, 9]
    assert svt.query(lambda x: x < 3, 0.5, g) is None         # removed items never count
    assert svt.query(lambda x: x >= 8, 100.0, g) is None      # below threshold: no charge
    assert sorted(svt.charges.values()) == [0, 0, 0, 0, 0, 1, 1]
