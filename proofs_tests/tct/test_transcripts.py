"""The exact transcript enumerator of target charging (:mod:`reference.results.tct.transcripts`),
the independent route of the multi-target and charging tests, held against laws and
divergences worked out by hand below (exact rationals), and step (2) of the proof of CL23
Lemma 2.7 (a halted r-target transcript is valid for the target filled last)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.profiles import share
from reference.oracle.tct_strategies import pair
from reference.results import covers
from reference.results.tct.transcripts import halted_laws, hockey, profile_delta, valid_for

F = Fraction
ONE, ZERO = frozenset({1}), frozenset({0})


def test_single_target_laws() -> None:
    """Two tests answering 1 w.p. 1/2 on D^0 and 1/4 on D^1, target {1}, tau = 1: the run
    stops at the first 1.  D^0: (1) 1/2, (0, 1) 1/4, (0, 0) 1/4.  D^1: (1) 1/4,
    (0, 1) (3/4)(1/4) = 3/16, (0, 0) 9/16."""
    l0, l1 = halted_laws([(F(1, 2), F(1, 4))] * 2, [ONE], tau=1)
    assert l0 == {(1,): F(1, 2), (0, 1): F(1, 4), (0, 0): F(1, 4)}
    assert l1 == {(1,): F(1, 4), (0, 1): F(3, 16), (0, 0): F(9, 16)}
    # tau = 2 over the same tests: never halted early, all four answer pairs
    l0, l1 = halted_laws([(F(1, 2), F(1, 4))] * 2, [ONE], tau=2)
    assert l0 == {t: F(1, 4) for t in ((1, 1), (1, 0), (0, 1), (0, 0))}
    assert l1 == {(1, 1): F(1, 16), (1, 0): F(3, 16), (0, 1): F(3, 16), (0, 0): F(9, 16)}


def test_two_target_laws() -> None:
    """Targets {1} and {0}, tau = 1, three tests as above: the run halts once both answers
    have appeared.  (1, 0) and (0, 1) halt after two tests; (1, 1, y) and (0, 0, y) run to
    the end.  D^0: 1/4, 1/4 and 1/8 each.  D^1: (1, 0) = (0, 1) = 3/16, (1, 1, 0) = 3/64,
    (1, 1, 1) = 1/64, (0, 0, 1) = 9/64, (0, 0, 0) = 27/64 (total 64/64)."""
    l0, l1 = halted_laws([(F(1, 2), F(1, 4))] * 3, [ONE, ZERO], tau=1)
    runs = [(1, 1, 0), (1, 1, 1), (0, 0, 1), (0, 0, 0)]
    assert l0 == {(1, 0): F(1, 4), (0, 1): F(1, 4), **{t: F(1, 8) for t in runs}}
    assert l1 == {(1, 0): F(3, 16), (0, 1): F(3, 16), (1, 1, 0): F(3, 64),
                  (1, 1, 1): F(1, 64), (0, 0, 1): F(9, 64), (0, 0, 0): F(27, 64)}


def test_impossible_answers_are_left_out() -> None:
    """An answer impossible on both datasets is no transcript; one possible on a single
    dataset is in that law only.  Tests (1, 1/2) then (0, 0), target {1}, tau = 2: D^0
    answers 1 then 0 surely; D^1 answers 1 or 0 (1/2 each), then 0 surely."""
    l0, l1 = halted_laws([(F(1), F(1, 2)), (F(0), F(0))], [ONE], tau=2)
    assert l0 == {(1, 0): F(1)}
    assert l1 == {(1, 0): F(1, 2), (0, 0): F(1, 2)}
    # (1/2, 0): answer 1 possible on D^0 only
    l0, l1 = halted_laws([(F(1, 2), F(0))], [ONE], tau=1)
    assert l0 == {(1,): F(1, 2), (0,): F(1, 2)} and l1 == {(0,): F(1)}
    # (1, 0): each answer sure on one dataset and impossible on the other
    l0, l1 = halted_laws([(F(1), F(0))], [ONE], tau=1)
    assert l0 == {(1,): F(1)} and l1 == {(0,): F(1)}


def test_hockey_and_profile_by_hand() -> None:
    """The laws of ``test_single_target_laws`` (tau = 1), ``l0 = (1/2, 1/4, 1/4)`` and
    ``l1 = (1/4, 3/16, 9/16)``: at w = 1 both directions give the total variation
    ``1/4 + 1/16 = 5/16``; at w = 2 ``(l0 - 2 l1)_+ = 0`` everywhere and
    ``(l1 - 2 l0)_+`` only at (0, 0): ``9/16 - 1/2 = 1/16``.  Keys in one law only (the law
    of one sure answer against a fair coin, w = 3/2): ``(1 - 3/4) = 1/4`` one way,
    ``(1/2 - 3/2)_+ + 1/2 = 1/2`` the other."""
    l0, l1 = halted_laws([(F(1, 2), F(1, 4))] * 2, [ONE], tau=1)
    assert hockey(l0, l1, F(1)) == hockey(l1, l0, F(1)) == F(5, 16)
    assert hockey(l0, l1, F(2)) == 0 and hockey(l1, l0, F(2)) == F(1, 16)
    assert profile_delta(l0, l1, F(2)) == profile_delta(l1, l0, F(2)) == F(1, 16)
    sure, coin = {(1,): F(1)}, {(1,): F(1, 2), (0,): F(1, 2)}
    assert hockey(sure, coin, F(3, 2)) == F(1, 4)
    assert hockey(coin, sure, F(3, 2)) == F(1, 2)
    assert profile_delta(sure, coin, F(3, 2)) == F(1, 2)


def test_valid_for_by_hand() -> None:
    """Single-target charging with {1} and tau = 2 halts exactly at the second 1."""
    assert valid_for((0, 1, 1), ONE, 2) and valid_for((1, 0, 1), ONE, 2)
    assert valid_for((1, 1), ONE, 2) and valid_for((1, 0, 0), ZERO, 2)
    assert not valid_for((1, 1, 0), ONE, 2)          # ran past its halt
    assert not valid_for((0, 1), ONE, 2)             # not yet halted
    assert not valid_for((1, 1, 1), ONE, 2)          # three hits
    assert not valid_for((1, 1), ZERO, 2) and not valid_for((0, 0, 1), ZERO, 2)


@covers("CL23:Lem2.7")
@settings(max_examples=share(F(1, 2)))
@given(st.sampled_from([F(5, 4), F(2)]), st.integers(2, 5), st.integers(1, 2), st.data())
def test_halted_transcripts_are_valid_for_the_last_target(w: Fraction, n: int, tau: int,
                                                          data: st.DataObject) -> None:
    """Step (2) of the proof of Lemma 2.7: a 2-target transcript that halted (both targets
    reached tau) is valid for the target its last answer hit (single-target charging with
    it halts exactly there), and not for the other, which reached tau earlier."""
    tests = [(P[1], Q[1]) for P, Q in (data.draw(pair(w, 2)) for _ in range(n))]
    l0, l1 = halted_laws(tests, [ONE, ZERO], tau)
    halted = [t for t in set(l0) | set(l1) if t.count(1) >= tau and t.count(0) >= tau]
    for t in halted:
        last, other = (ONE, ZERO) if t[-1] == 1 else (ZERO, ONE)
        assert valid_for(t, last, tau) and not valid_for(t, other, tau)
