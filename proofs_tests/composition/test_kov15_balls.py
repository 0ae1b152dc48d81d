"""KOV15 Thm 3.3 on Arb's balls (``balls=True``) against the reference evaluator, mpmath's
``iv`` (the same formula, ``dataclasses.replace(res, balls=False)``), and both against the
exact value: an arb ball from exact rational inputs summed term by term from ``j = 0``
(independent of the outward sum and its stopping rule).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import frac
from proofs_tests.composition.test_kov15_precision import exact_delta
from proofs_tests.core.test_model_balls import count_forward
from proofs_tests.profiles import share
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon

F = Fraction
ON_IV = dataclasses.replace(optimal_delta, balls=False)
SOLVED_IN_MP = dataclasses.replace(optimal_epsilon, balls=False)


@st.composite
def forward_inputs(draw: st.DrawFn) -> dict[str, Any]:
    k = draw(st.integers(1, 1500))
    eps = draw(st.fractions(F(1, 1000), F(3), max_denominator=1000))
    eps_g = draw(st.fractions(F(0), k * eps, max_denominator=1000))
    delta = draw(st.sampled_from([F(0), F(1, 10**9), F(1, 3)]))
    return {"eps": eps, "k": k, "eps_g": eps_g, "delta": delta}


@covers("KOV15:Thm3.3-delta")
@settings(max_examples=share(F(1, 3)), deadline=None)
@given(args=forward_inputs())
def test_balls_and_iv_both_hold_the_exact_value_tightly(args: dict[str, Any]) -> None:
    with mp.workdps(50):
        bits = mp.prec
    # narrower than any enclosure (those carry up to ~100 guard bits): containment is a test
    lo, hi = exact_delta(args["eps"], args["k"], args["eps_g"], args["delta"], bits + 150)
    plain = frac(optimal_delta(**args))
    for enc in (optimal_delta.certified(**args), ON_IV.certified(**args)):
        e_lo, e_hi = frac(enc.lo), frac(enc.hi)
        assert e_lo <= lo and hi <= e_hi, (args, float(lo), enc)
        assert e_hi - e_lo <= hi * F(1, 2 ** (bits - 10)) + F(1, 2 ** (bits + 200))
    assert abs(plain - lo) <= hi * F(1, 2 ** (bits - 10)) + F(1, 2 ** (bits + 200))


@covers("KOV15:Thm3.3")
@settings(max_examples=share(F(1, 4)), deadline=None)
@given(k=st.integers(1, 20_000), eps=st.fractions(F(1, 1000), F(2), max_denominator=1000),
       delta_g=st.sampled_from([F(1, 10**12), F(1, 10**6), F(1, 100), F(1, 2)]))
def test_the_ball_solver_agrees_with_the_mp_solver(k: int, eps: Fraction,
                                                   delta_g: Fraction) -> None:
    """Both certificates hold and bracket the same exact inverse; their points agree to the
    working precision (each is within a few hundred ulps of the inverse)."""
    on_balls = optimal_epsilon(eps=eps, k=k, delta_g=delta_g)
    in_mp = SOLVED_IN_MP(eps=eps, k=k, delta_g=delta_g)
    assert on_balls.holds and in_mp.holds
    assert max(on_balls.lo, in_mp.lo) <= min(on_balls.hi, in_mp.hi)
    with mp.workdps(50):
        bits = mp.prec
    size = max(abs(frac(on_balls.value)), F(1, 2**1000))
    assert abs(frac(on_balls.value) - frac(in_mp.value)) <= size * F(1, 2 ** (bits - 12))


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("k", [1, 7, 500, 10**4, 10**6])
@pytest.mark.parametrize("delta_g", [F(1, 10**6), F(1, 10)])
def test_two_forward_sums_certify_the_inverse(k: int, delta_g: Fraction,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost the bench measures: one solver walk and two forward sums (the point, proven
    feasible, and one step behind it, proven infeasible), at every size."""
    calls = count_forward(monkeypatch)
    cert = optimal_epsilon(eps=F(1, 100), k=k, delta_g=delta_g)
    assert cert.holds
    assert len(calls) == (1 if cert.value == 0 else 2), calls
