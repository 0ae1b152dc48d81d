"""Targets of finite pairs: the explicit mixtures and the full-support target (CL23
Lemma A.1, Cor A.3, Lemma B.3).  The q-target oracle itself (Def 2.1, B.1) is in
``test_oracle.py``.

Independent routes: the hockey-stick divergence (finite ground truth) against the
mixtures' existence and the LP's feasibility; the mixtures' parts re-checked pointwise.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.profiles import share
from reference import DomainError
from reference.oracle.tct_strategies import law, ratios
from reference.results import covers
from reference.results.tct.oracle import ZERO, best_q
from reference.results.tct.targets import (
    algorithm_decomposition,
    full_support_q,
    mixture,
)

F = Fraction


def hockey(P: tuple[Fraction, ...], Q: tuple[Fraction, ...], w: Fraction) -> Fraction:
    """Exact smallest delta of (ln w, delta)-indistinguishability: the direct formula."""
    one = sum((max(ZERO, a - w * b) for a, b in zip(P, Q, strict=True)), ZERO)
    two = sum((max(ZERO, b - w * a) for a, b in zip(P, Q, strict=True)), ZERO)
    return max(one, two)


def _log(w: Fraction) -> mpmath.mpf:
    with mp.workdps(60):
        return mp.log(mp.mpf(w.numerator) / w.denominator)


@covers("CL23:LemA.1", "CL23:CorA.3")
@settings(max_examples=share(Fraction(2, 3)))
@given(ratios(), st.integers(2, 5), st.data())
def test_mixture_exists_exactly_above_hockey_stick(w: Fraction, n: int,
                                                   data: st.DataObject) -> None:
    """The explicit mixture exists iff delta >= delta_min, and then is a valid A.1 split."""
    P, Q = data.draw(law(n)), data.draw(law(n))
    need = hockey(P, Q, w)
    eps = _log(w)
    with mp.workdps(60):
        slack = mp.mpf(10) ** -40
    if need > 0:
        with pytest.raises(DomainError, match=r"CL23:LemA.1"):
            mixture(P=P, Q=Q, eps=eps, delta=need * F(999, 1000))
    delta = min(need + F(1, 1000), F(999, 1000))
    for res in (mixture, algorithm_decomposition):
        m = res.certified(P=P, Q=Q, eps=eps, delta=delta)
        with mp.workdps(60):
            w_hi = mp.e ** eps
            for a, b in zip(m.N0, m.N1, strict=True):
                assert a.lo >= -slack and b.lo >= -slack
                assert a.lo <= w_hi * b.hi + slack and b.lo <= w_hi * a.hi + slack
            for e in (m.e0, m.e1):
                assert all(x.lo >= -slack for x in e)
                total = mp.fsum(x.mid for x in e)
                assert abs(total - mp.mpf(delta.numerator) / delta.denominator) < slack * 10
            assert abs(mp.fsum(x.mid for x in m.N0) - 1) < slack * 10


@covers("CL23:LemB.3", "CL23:LemA.1")
@settings(max_examples=share(Fraction(2, 3)))
@given(ratios(), st.integers(2, 4), st.data())
def test_full_support_target_iff_indistinguishable(w: Fraction, n: int,
                                                   data: st.DataObject) -> None:
    """B.3: the full support is a 1-target exactly when delta reaches the hockey-stick."""
    P, Q = data.draw(law(n)), data.draw(law(n))
    need = hockey(P, Q, w)
    everything = list(range(n))
    if need < 1:
        assert best_q(P, Q, everything, w=w, delta=need).q == 1
    if need > 0:
        below = best_q(P, Q, everything, w=w, delta=need * F(99, 100))
        assert below.q == 0
        for T in ([0], everything):  # (i): no q-target of any kind below delta_min
            assert best_q(P, Q, T, w=w, delta=need * F(99, 100)).q == 0


@covers("CL23:LemB.3")
def test_registered_full_support_value() -> None:
    assert full_support_q(P="0.5,0.5", Q="0.25,0.75", eps=0, delta="0.25") == 1
    assert full_support_q(P="0.5,0.5", Q="0.25,0.75", eps=0, delta="0.2") == 0
    with mp.workdps(30):
        eps = mp.log(2) + mp.mpf(10) ** -25  # ratios 2 and 2/3: just ln 2-DP
    enc = full_support_q.certified(P="0.5,0.5", Q="0.25,0.75", eps=eps, delta=0)
    assert enc.lo == 1
