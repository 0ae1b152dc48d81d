"""Conditional release with revisions (CL23 Algorithm 2, :class:`ConditionalReleases`), the
call specs of Lemmas 2.4 and 2.5 pinned at exact points, and the refusals of
:func:`condition`.  Expected values are worked out by hand in each test."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.tct_support import log
from reference import DomainError
from reference.results import covers
from reference.results.tct.release import (
    ConditionalReleases,
    between_thresholds_law,
    condition,
    conditional_release,
    revise_call,
)

F = Fraction


def close(enc: object, x: object) -> bool:
    """The certified enclosure ``enc`` is within 1e-40 of ``x`` (an mpf at 60 digits)."""
    with mp.workdps(60):
        return bool(abs(enc.mid - x) < mp.mpf(10) ** -40)  # type: ignore[attr-defined]


@covers("CL23:Lem2.5")
def test_revise_call_spec_exact() -> None:
    """eps = ln(3)/2: a revise call is (2 eps, 0)-DP = (ln 3, 0), with the NotPrior q at
    2 eps, ``1/(e^{ln 3} + 1) = 1/4``."""
    with mp.workdps(60):
        eps = mp.log(3) / 2
    spec = revise_call.certified(eps=eps)
    with mp.workdps(60):
        assert close(spec.eps, mp.log(3)) and close(spec.q, mp.mpf(1) / 4)
    assert spec.delta.lo == spec.delta.hi == 0


@covers("CL23:Lem2.4")
def test_conditional_release_spec_exact() -> None:
    """eps = ln 3, delta = 1/10: ConditionalRelease keeps (ln 3, 1/10), q = 1/(3 + 1)."""
    spec = conditional_release.certified(eps=log(F(3)), delta=F(1, 10))
    with mp.workdps(60):
        assert close(spec.eps, mp.log(3)) and close(spec.q, mp.mpf(1) / 4)
        assert close(spec.delta, mp.mpf(1) / 10)


def test_condition_needs_positive_mass() -> None:
    """Conditioning on a target of probability 0 (or an empty target) is refused."""
    P = [F(1, 2), F(0), F(1, 2)]
    assert condition(P, [0, 1]) == (F(1), F(0), F(0))
    for target in ([1], []):
        with pytest.raises(DomainError, match="positive probability"):
            condition(P, target)


def test_between_thresholds_law_at_the_mean() -> None:
    """mu + Lap(1/eps), e^eps = 2, thresholds at the mean 0 and at 2: ``P[< 0] = 1/2``,
    ``P[> 2] = (1/2) 2^-2 = 1/8``, between ``3/8``; thresholds -1 and 0: ``P[< -1] = 1/4``,
    ``P[> 0] = 1/2``."""
    assert between_thresholds_law(F(2), 0, 0, 2) == (F(1, 2), F(3, 8), F(1, 8))
    assert between_thresholds_law(F(2), 0, -1, 0) == (F(1, 4), F(1, 4), F(1, 2))


def test_release_and_revise_by_hand() -> None:
    """Algorithm 2 step by step: a miss publishes ⊥ (None) and charges nothing; a revise
    that catches the stored value publishes it and charges once; a later revise of a
    released computation is a no-op; the stored target grows by union."""
    cr: ConditionalReleases[int] = ConditionalReleases()
    assert cr.charges == 0 and cr.log == []
    assert cr.release("a", 7, lambda y: y > 10) is None
    assert cr.charges == 0
    assert cr.release("b", 12, lambda y: y > 10) == 12
    assert cr.charges == 1
    assert cr.revise("a", lambda y: y > 20) is None              # 7 still missed
    target = cr.stored["a"].target
    assert target(15) and target(25) and not target(7)          # y > 10 or y > 20
    assert cr.revise("a", lambda y: 5 < y <= 10) == 7
    assert cr.stored["a"].target(7) and cr.stored["a"].target(15)
    assert cr.charges == 2
    assert cr.revise("a", lambda y: True) is None                # released: no-op
    assert cr.revise("b", lambda y: True) is None
    assert cr.charges == 2
    assert cr.log == [("release", "a", None), ("release", "b", 12), ("revise", "a", None),
                      ("revise", "a", 7), ("revise", "a", None), ("revise", "b", None)]
    with pytest.raises(DomainError, match="new computation"):
        cr.release("a", 1, lambda y: True)
    with pytest.raises(DomainError, match="stored computation"):
        cr.revise("c", lambda y: True)


@given(st.lists(st.tuples(st.integers(0, 9), st.lists(st.integers(0, 9), max_size=4)),
                min_size=1, max_size=6))
def test_each_computation_charged_once_iff_in_its_final_target(
        runs: list[tuple[int, list[int]]]) -> None:
    """Release computation ``h`` with value ``v`` and target ``{0}``, then revise with
    ``{c}`` for each ``c`` in its list: it is published exactly once iff ``v`` lies in
    ``{0} ∪ {c...}`` (its final target), at the first of those sets holding ``v``."""
    cr: ConditionalReleases[int] = ConditionalReleases()
    expected = 0
    for h, (v, cuts) in enumerate(runs):
        outs = [cr.release(h, v, lambda y: y == 0)]
        outs += [cr.revise(h, lambda y, c=c: y == c) for c in cuts]
        hits = [v == c for c in [0, *cuts]]
        published = [o for o in outs if o is not None]
        assert published == ([v] if any(hits) else [])
        if any(hits):
            assert outs.index(v) == hits.index(True)
        expected += any(hits)
    assert cr.charges == expected
