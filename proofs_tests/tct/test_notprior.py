"""NotPrior targets, conditional release, revisions, BetweenThresholds (CL23 Lemmas 2.3, 2.4,
2.5, C.1–C.3, D.1, D.2, G.1) held against the exact q-target oracle.

Pairs are drawn with a rational ratio bound ``w`` (``eps = ln w``) so the oracle is exact;
each closed form is evaluated (certified) at ``eps = ln w`` to 60 digits.  Validity: the
closed form never exceeds the oracle's q; tightness: a pair attains it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp

from reference import DomainError
from reference.oracle.tct_strategies import approx_pair, bounded, deltas, pair, ratios
from reference.results import covers
from reference.results.tct.notprior import (
    notprior_pair_q,
    notprior_q,
    notprior_q_approx,
    private_test_q,
)
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
SLACK = mp.mpf(10) ** -40


def log(w: Fraction, up: bool = False) -> mpmath.mpf:
    """``ln w`` at 60 digits; ``up`` adds 1e-55 so that ``e^eps > w`` certainly."""
    with mp.workdps(60):
        x = mp.log(mp.mpf(w.numerator) / w.denominator)
        return x + mp.mpf(10) ** -55 if up else x


def num(x: Fraction) -> mpmath.mpf:
    with mp.workdps(60):
        return mp.mpf(x.numerator) / x.denominator


def at_most(enc: Any, x: Fraction) -> bool:
    """The certified closed form is at most the exact ``x`` (up to the rounding of ln w)."""
    with mp.workdps(60):
        return bool(enc.lo <= num(x) + SLACK)


def equal(enc: Any, x: Fraction) -> bool:
    with mp.workdps(60):
        return bool(abs(enc.mid - num(x)) <= SLACK)


@st.composite
def notprior_case(draw: st.DrawFn) -> tuple[Fraction, tuple[Fraction, ...],
                                              tuple[Fraction, ...], int]:
    w = draw(ratios())
    n = draw(st.integers(2, 5))
    P, Q = draw(pair(w, n))
    return w, P, Q, draw(st.integers(0, n - 1))


# ---- NotPrior --------------------------------------------------------------------------

@covers("CL23:Lem2.3", "CL23:LemC.2")
@given(notprior_case())
def test_notprior_value_never_exceeds_oracle(case: tuple) -> None:  # type: ignore[type-arg]
    """Lemma 2.3: q(everything but the prior) >= 1/(e^eps + 1); C.2's construction = oracle."""
    w, P, Q, prior = case
    rest = [y for y in range(len(P)) if y != prior]
    opt = best_q(P, Q, rest, w=w)
    assert at_most(notprior_q.certified(eps=log(w)), opt.q)
    assert opt.q >= 1 / (w + 1)                        # the same inequality, exactly
    construction = notprior_pair_q.certified(P=P, Q=Q, prior=prior, eps=log(w, up=True))
    if opt.q < 1:
        assert equal(construction, opt.q)               # C.2's construction is optimal


@covers("CL23:Lem2.3", "CL23:LemC.3")
@given(ratios(), st.integers(1, 20))
def test_notprior_tight_pair(w: Fraction, k: int) -> None:
    """Tightness: pi1 = w pi0 with pi0 <= 1/(w+1) attains 1/(w+1) exactly."""
    pi0 = F(k, 20) / (w + 1)
    opt = best_q([1 - pi0, pi0], [1 - w * pi0, w * pi0], [1], w=w)
    assert opt.q == 1 / (w + 1)
    assert equal(notprior_q.certified(eps=log(w)), opt.q)
    assert equal(private_test_q.certified(pi0=pi0, pi1=w * pi0, eps=log(w, up=True)), opt.q)


@covers("CL23:LemC.3")
@given(ratios(), st.data())
def test_private_test_construction_is_optimal(w: Fraction, data: st.DataObject) -> None:
    """C.3 on binary pairs equals the oracle (catalog-004 §5: optimal) and is >= 1/(w+1)."""
    P, Q = data.draw(pair(w, 2))
    opt = best_q(P, Q, [1], w=w)
    enc = private_test_q.certified(pi0=P[1], pi1=Q[1], eps=log(w, up=True))
    assert equal(enc, opt.q) and opt.q >= 1 / (w + 1)


@covers("CL23:LemC.3", "CL23:LemC.2")
def test_constructions_reject_distinguishable_pairs() -> None:
    with pytest.raises(DomainError, match=r"CL23:LemC.3"):
        private_test_q(pi0="0.1", pi1="0.5", eps=1)
    with pytest.raises(DomainError, match=r"CL23:LemC.2"):
        notprior_pair_q(P="0.5,0.5", Q="0.1,0.9", prior=0, eps=1)


@covers("CL23:LemC.1")
@given(ratios(), st.integers(2, 5), deltas(), st.data())
def test_notprior_with_delta(w: Fraction, n: int, delta: Fraction, data: st.DataObject) -> None:
    """C.1: with (eps, delta) the NotPrior target keeps q >= 1/(e^eps + 1)."""
    P, Q = data.draw(approx_pair(w, n, delta))
    prior = data.draw(st.integers(0, n - 1))
    rest = [y for y in range(n) if y != prior]
    opt = best_q(P, Q, rest, w=w, delta=delta)
    assert at_most(notprior_q_approx.certified(eps=log(w), delta=delta), opt.q)


# ---- ConditionalRelease, D.1, D.2, revisions -----------------------------------------

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


# ---- BetweenThresholds ---------------------------------------------------------------

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
