"""Conditional release, revisions, BetweenThresholds (CL23 Lemmas 2.4, 2.5, D.1, D.2, G.1)
held against the exact q-target oracle; NotPrior targets are in ``test_notprior.py``.

Pairs are drawn with a rational ratio bound ``w`` (``eps = ln w``) so the oracle is exact;
each closed form is evaluated (certified) at ``eps = ln w`` to 60 digits.  Validity: the
closed form never exceeds the oracle's q; tightness: a pair attains it.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.tct_support import SLACK, at_most, equal, log, num
from reference.oracle.tct_strategies import approx_pair, bounded, pair, ratios
from reference.results import covers
from reference.results.tct.oracle import best_q
from reference.results.tct.release import (
    between_thresholds_law,
    between_thresholds_q,
    bottom_replace,
    bottom_replace_privacy,
    condition,
    conditional_release,
    conditioned_epsilon,
    revise_call,
)

F = Fraction


@covers("CL23:Lem2.4", "CL23:LemD.1")
@given(ratios(), st.integers(2, 5), st.sampled_from([F(0), F(1, 100), F(1, 10)]), st.data())
def test_conditional_release(w: Fraction, n: int, delta: Fraction, data: st.DataObject) -> None:
    """Lem 2.4 / D.1: ⊥-replacement keeps (eps, delta); T is then a NotPrior target."""
    P, Q = data.draw(approx_pair(w, n, delta)) if delta else data.draw(pair(w, n))
    T = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
    P2, Q2 = bottom_replace(P, T), bottom_replace(Q, T)
    spec = conditional_release.certified(eps=log(w), delta=delta)
    kept = bottom_replace_privacy(eps=log(w), delta=delta)
    with mp.workdps(60):
        assert abs(spec.eps.mid - kept.eps) < SLACK and abs(kept.delta - num(delta)) < SLACK
    # The released pair is (ln w, delta)-indistinguishable: a full-support 1-target exists.
    assert best_q(P2, Q2, range(n + 1), w=w, delta=delta).q == 1
    opt = best_q(P2, Q2, T, w=w, delta=delta)
    assert at_most(spec.q, opt.q)


@covers("CL23:LemD.2")
@given(ratios(), st.integers(2, 5), st.data())
def test_conditioning_at_most_doubles(w: Fraction, n: int, data: st.DataObject) -> None:
    P, Q = data.draw(pair(w, n))
    T = sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1)))
    Pc, Qc = condition(P, T), condition(Q, T)
    assert bounded(Pc, Qc, w * w)
    with mp.workdps(60):
        assert abs(conditioned_epsilon.certified(eps=log(w)).mid - 2 * log(w)) < SLACK


@covers("CL23:LemD.2")
@given(ratios(), st.integers(2, 12))
def test_doubling_is_tight(w: Fraction, k: int) -> None:
    """P(a) = w Q(a), P(b) = Q(b)/w, Q(a) = 2^-k: the conditioned ratio tends to w^2."""
    qa = F(1, 2**k)
    qb = (1 - qa) / 2
    P = (w * qa, qb / w, 1 - w * qa - qb / w)
    Q = (qa, qb, 1 - qa - qb)
    assume(all(x > 0 for x in P) and bounded(P, Q, w))
    Pc, Qc = condition(P, [0, 1]), condition(Q, [0, 1])
    ratio = Pc[0] / Qc[0]          # = w (qa + qb)/(w qa + qb/w) -> w^2 as qa -> 0
    assert ratio <= w * w and w * w - ratio <= w**4 * qa / qb


@covers("CL23:Lem2.5")
@given(ratios(), st.integers(3, 5), st.data())
def test_revise_call_pair(w: Fraction, n: int, data: st.DataObject) -> None:
    """A revise call publishes (M(D)|_{Y \\ T_h})^{[T']}: 2 eps-bounded, NotPrior q at 2 eps."""
    P, Q = data.draw(pair(w, n))
    cut = data.draw(st.integers(1, n - 2))
    rest = list(range(cut, n))                      # Y \ T_h, with T_h = {0..cut-1}
    ext = sorted(data.draw(st.sets(st.sampled_from(rest), min_size=1)))
    P2, Q2 = bottom_replace(condition(P, rest), ext), bottom_replace(condition(Q, rest), ext)
    assert bounded(P2, Q2, w * w)
    spec = revise_call.certified(eps=log(w))
    opt = best_q(P2, Q2, ext, w=w * w)
    assert at_most(spec.q, opt.q) and spec.delta.hi == 0


@covers("CL23:Lem2.5")
def test_revise_needs_the_doubled_parameter() -> None:
    """A revise pair that is not eps-bounded: the factor 2 cannot be dropped."""
    w = F(2)
    a, b = F(1, 100), F(99, 200)
    P = (w * a, b / w, 1 - w * a - b / w)
    Q = (a, b, 1 - a - b)
    assert bounded(P, Q, w)
    P2, Q2 = bottom_replace(condition(P, [0, 1]), [0]), bottom_replace(condition(Q, [0, 1]), [0])
    assert not bounded(P2, Q2, w) and bounded(P2, Q2, w * w)


@covers("CL23:LemG.1")
@given(st.sampled_from([F(11, 10), F(3, 2), F(2), F(3)]), st.integers(-12, 8),
       st.sampled_from([-1, 0, 1]), st.integers(1, 6))
def test_between_thresholds_never_exceeds_oracle(w: Fraction, mu: int, step: int,
                                                 gap: int) -> None:
    P = between_thresholds_law(w, mu, 0, gap)
    Q = between_thresholds_law(w, mu + step, 0, gap)
    assert bounded(P, Q, w)
    opt = best_q(P, Q, [1], w=w)
    assert at_most(between_thresholds_q.certified(eps=log(w), gap=gap), opt.q)


@covers("CL23:LemG.1")
@given(st.sampled_from([F(11, 10), F(3, 2), F(2), F(3)]), st.integers(1, 6))
def test_between_thresholds_tight_far_below(w: Fraction, gap: int) -> None:
    """Both values below t_l at distance 1: the oracle attains the closed form exactly."""
    P = between_thresholds_law(w, -20, 0, gap)
    Q = between_thresholds_law(w, -19, 0, gap)
    opt = best_q(P, Q, [1], w=w)
    assert equal(between_thresholds_q.certified(eps=log(w), gap=gap), opt.q)
