"""Multi-target charging (CL23 Lemma 2.7), against exact privacy profiles of halted
transcripts enumerated in rational arithmetic (:mod:`reference.results.tct.transcripts`)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.profiles import share
from proofs_tests.tct_support import log
from reference.oracle.tct_strategies import pair
from reference.results import covers
from reference.results.tct.multi_target import multi_target
from reference.results.tct.transcripts import halted_laws, profile_delta

F = Fraction



@covers("CL23:Lem2.7")
@settings(max_examples=share(Fraction(1, 2)))
@given(st.sampled_from([F(5, 4), F(3, 2), F(2)]), st.integers(3, 8), st.integers(1, 2),
       st.data())
def test_multi_target_by_enumeration(w: Fraction, n: int, tau: int,
                                     data: st.DataObject) -> None:
    """2-TCT with targets {1} and {0}, halting when both reach tau: its exact delta is at
    most the sum of the two single-target deltas, hence at most 2 max(delta_1, delta_2)."""
    tests = [(P[1], Q[1]) for P, Q in (data.draw(pair(w, 2)) for _ in range(n))]
    one, zero = frozenset({1}), frozenset({0})
    both = halted_laws(tests, [one, zero], tau)
    single = [halted_laws(tests, [t], tau) for t in (one, zero)]
    for power in (1, 2, 3):
        W = w**power
        d2 = profile_delta(*both, W)
        da, db = (profile_delta(*law, W) for law in single)
        assert d2 <= da + db
        bound = multi_target(eps_prime=log(W), delta_prime=max(da, db), r=2)
        with mp.workdps(60):
            assert mp.mpf(d2.numerator) / d2.denominator <= bound.delta + 1e-40


@covers("CL23:Lem2.7")
def test_multi_target_factor_is_needed() -> None:
    """The factor r is needed: on these six tests (exact rationals), the delta of 2-TCT
    exceeds both single-target deltas (and stays below their sum)."""
    tests = [(F(2, 5), F(3, 10)), (F(4, 5), F(11, 15)), (F(9, 10), F(37, 40)),
             (F(3, 10), F(2, 5)), (F(9, 10), F(13, 15)), (F(1, 5), F(4, 15))]
    one, zero = frozenset({1}), frozenset({0})
    d2 = profile_delta(*halted_laws(tests, [one, zero], 2), F(4, 3))
    d1 = [profile_delta(*halted_laws(tests, [t], 2), F(4, 3)) for t in (one, zero)]
    assert max(d1) < d2 <= sum(d1)
