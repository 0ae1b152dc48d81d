"""NotPrior targets (CL23 Lemma 2.3, C.1–C.3) held against the exact q-target oracle;
conditional release, revisions and BetweenThresholds are in ``test_release.py``.

Pairs are drawn with a rational ratio bound ``w`` (``eps = ln w``) so the oracle is exact;
each closed form is evaluated (certified) at ``eps = ln w`` to 60 digits.  Validity: the
closed form never exceeds the oracle's q; tightness: a pair attains it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.tct_support import at_most, equal, log
from reference import DomainError
from reference.oracle.tct_strategies import approx_pair, deltas, pair, ratios
from reference.results import covers
from reference.results.tct.notprior import (
    notprior_pair_q,
    notprior_q,
    notprior_q_approx,
    private_test_q,
)
from reference.results.tct.oracle import best_q

F = Fraction


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
    """C.3 on binary pairs equals the oracle (optimal, CL23 Appendix C) and is >= 1/(w+1)."""
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
