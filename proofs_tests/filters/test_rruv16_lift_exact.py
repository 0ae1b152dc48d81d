"""RRUV16:Lem3.3 decides HALT exactly when the deltas alone reach delta_g'.

Found by the thorough Hypothesis profile: eps = (0, 1e15, 0), delta = (0, 1/10, 0),
delta_g' = 1/10 raised RuntimeError (undecided at 3200 digits): the sum is
(1/10)(1 + e^-2e15)/(1 - e^-1e15), above 1/10 by about 10^(-4.3e14).  Every term is
delta_i times a factor > 1, so sum delta_i >= delta_g' (with some delta_i > 0) is HALT.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.numeric import exact
from reference.results import covers, get

LIFT = get("RRUV16:Lem3.3")


@covers("RRUV16:Lem3.3")
def test_the_thorough_profile_example() -> None:
    kw = {"eps": [0, 10**15, 0], "delta": [0, "0.1", 0], "delta_g_prime": "0.1"}
    assert LIFT(**kw).halt and LIFT.certified(**kw).halt
    # a finite failure (no round has eps_i = 0 < delta_i): about 1/10
    assert abs(exact(LIFT(**kw).failure, "failure", "test") - Fraction(1, 10)) < Fraction(1, 10**20)
    # a budget above the deltas by 10^-4000: the exact argument does not apply, and the
    # comparison is beyond every precision tried: undecided, said so (never a guess)
    kw["delta_g_prime"] = Fraction(1, 10) + Fraction(1, 10**4000)
    with pytest.raises(RuntimeError, match="cannot decide"):
        LIFT(**kw)
    # a budget above the deltas by 10^-22: the huge eps term is decided the other way
    kw["delta_g_prime"] = "0.1000000000000000000001"
    assert not LIFT(**kw).halt


@covers("RRUV16:Lem3.3")
@given(st.lists(st.tuples(st.sampled_from([Fraction(1, 10**6), Fraction(1, 2), Fraction(2),
                                           Fraction(10**15)]),
                          st.fractions(0, Fraction(1, 10), max_denominator=10**6)),
                min_size=1, max_size=4),
       st.fractions(0, Fraction(1, 2), max_denominator=10**6))
def test_halt_whenever_the_deltas_reach_the_budget(rounds: list[tuple[Fraction, Fraction]],
                                                   budget: Fraction) -> None:
    eps = [e for e, _ in rounds]
    delta = [d for _, d in rounds]
    out = LIFT(eps=eps, delta=delta, delta_g_prime=budget)
    if any(d > 0 for d in delta) and sum(delta) >= budget:
        assert out.halt
    elif not any(d > 0 for d in delta):
        assert not out.halt and out.failure == 0
    # each term is delta_i times a factor above 1
    assert exact(LIFT.certified(eps=eps, delta=delta, delta_g_prime=budget).failure.hi,
                 "failure", "test") >= sum(delta)
