"""The boundary wrapper and run-twice (CL23 Lemmas 2.8, 2.9, E.1, E.2, F.1) against exact
computation: the wrapped laws are rational when the algorithm's are, ``e^t`` is rational
when ``e^eps = w`` is (``t_test``: ``max(w, 3(2w-1)/(2w+1))``; ``t``: ``3w^2/(2w+1)``), so
the wrapped pair's privacy (its largest likelihood ratio) and the boundary target's best q
(the oracle) are exact.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.tct_support import log
from reference.oracle.tct_strategies import pair, ratios
from reference.results import covers
from reference.results.tct.oracle import best_q
from reference.results.tct.wrappers import (
    boundary_wrap,
    run_twice,
    run_twice_target,
    wrapped_privacy,
    wrapped_target,
    wrapped_target_exact,
    wrapped_test_privacy,
    wrapped_test_target,
    wrapped_test_target_exact,
)

F = Fraction
SLACK = mp.mpf(10) ** -40



def num(x: Fraction) -> mpmath.mpf:
    with mp.workdps(60):
        return mp.mpf(x.numerator) / x.denominator


def ratio_for_tests(w: Fraction) -> Fraction:
    """``e^{t_test}``, a rational when ``w`` is (the independent route: Lemma E.1's cases)."""
    return max(w, 3 * (2 * w - 1) / (2 * w + 1))


def general_ratio(w: Fraction) -> Fraction:
    return 3 * w * w / (2 * w + 1)


def max_ratio(P: tuple[Fraction, ...], Q: tuple[Fraction, ...]) -> Fraction:
    return max(max(a / b, b / a) for a, b in zip(P, Q, strict=True))


def below(enc: Any, x: Fraction) -> bool:
    with mp.workdps(60):
        return bool(enc.lo <= num(x) + SLACK)


# ---- privacy of the wrapper -----------------------------------------------------------

@covers("CL23:LemE.1")
@given(ratios(), st.data())
def test_wrapped_test_privacy(w: Fraction, data: st.DataObject) -> None:
    """A wrapped ln w-DP test is t_test-DP: its likelihood ratios stay below e^{t_test}."""
    P, Q = data.draw(pair(w, 2))
    ratio = max_ratio(boundary_wrap(P), boundary_wrap(Q))
    enc = wrapped_test_privacy.certified(eps=log(w))
    with mp.workdps(60):
        assert log(ratio) <= enc.t.hi + SLACK
        assert abs(enc.t.mid - log(ratio_for_tests(w))) < SLACK


@covers("CL23:LemE.1")
@given(ratios(), st.integers(4, 30))
def test_wrapped_test_privacy_is_attained(w: Fraction, k: int) -> None:
    """Supremum: pi' = 1/2 against pi = 1/(2w) (case (3)), or pi -> 0 (case (4))."""
    crossing = max_ratio(boundary_wrap([1 - 1 / (2 * w), 1 / (2 * w)]),
                         boundary_wrap([F(1, 2), F(1, 2)]))
    pi = F(1, 2**k)
    small = max_ratio(boundary_wrap([1 - pi, pi]), boundary_wrap([1 - w * pi, w * pi]))
    best = max(crossing, small)
    assert best <= ratio_for_tests(w)
    assert ratio_for_tests(w) - best <= 4 * w * w * pi


@covers("CL23:Lem2.8")
@given(ratios(), st.integers(3, 5), st.data())
def test_wrapped_algorithm_privacy(w: Fraction, n: int, data: st.DataObject) -> None:
    """Any ln w-DP algorithm, wrapped, is t-DP with e^t = 3w^2/(2w+1) <= w^{4/3}."""
    P, Q = data.draw(pair(w, n))
    ratio = max_ratio(boundary_wrap(P), boundary_wrap(Q))
    enc = wrapped_privacy.certified(eps=log(w))
    assert ratio <= general_ratio(w)
    with mp.workdps(60):
        assert log(ratio) <= enc.t.hi + SLACK
        assert enc.t.hi <= 4 * log(w) / 3 + SLACK


@covers("CL23:Lem2.8", "CL23:LemE.1")
@given(ratios(), st.integers(10, 40))
def test_general_supremum_exceeds_test_value(w: Fraction, k: int) -> None:
    """A family of pairs attains e^t in the limit and beats the test value (an open question
    of CL23's reconstruction)."""
    s, r = F(1, 2**k), 1 / (2 * w)
    ratio = max_ratio(boundary_wrap([1 - s - r, s, r]),
                      boundary_wrap([F(1, 2) - s / w, s / w, F(1, 2)]))
    assert ratio <= general_ratio(w) and general_ratio(w) - ratio <= 4 * w**3 * s
    if k >= 20:
        assert ratio > ratio_for_tests(w)


# ---- the boundary target --------------------------------------------------------------

@covers("CL23:LemE.2-conservative", "CL23:LemE.2-exact")
@given(ratios(), st.data())
def test_boundary_target_of_tests(w: Fraction, data: st.DataObject) -> None:
    """E.2: {⊤} of a wrapped test is a q-target with t_test; both forms are valid."""
    P, Q = data.draw(pair(w, 2))
    opt = best_q(boundary_wrap(P), boundary_wrap(Q), [2], w=ratio_for_tests(w))
    assert opt.q > 0
    cons = wrapped_test_target.certified(eps=log(w))
    exact = wrapped_test_target_exact.certified(eps=log(w))
    assert below(cons.q, opt.q) and below(exact.q, opt.q)
    with mp.workdps(60):
        assert cons.q.hi <= exact.q.hi + SLACK


@covers("CL23:LemE.2-exact")
@given(ratios(), st.integers(8, 30))
def test_exact_boundary_q_is_approached(w: Fraction, k: int) -> None:
    """The exact form is the infimum: minority a -> 0 with ratio w approaches it."""
    a = F(1, 2**k)
    opt = best_q(boundary_wrap([1 - a, a]), boundary_wrap([1 - w * a, w * a]), [2],
                 w=ratio_for_tests(w))
    exact = wrapped_test_target_exact.certified(eps=log(w))
    with mp.workdps(60):
        assert exact.q.lo <= num(opt.q) + SLACK <= exact.q.hi + 8 * w**2 * num(a) + SLACK


@covers("CL23:Lem2.9-conservative", "CL23:Lem2.9-exact")
@given(ratios(), st.integers(3, 4), st.data())
def test_boundary_target_of_algorithms(w: Fraction, n: int, data: st.DataObject) -> None:
    """2.9: {⊤} of a wrapped algorithm, w.r.t. t = ln(3w^2/(2w+1)); the LP form too."""
    P, Q = data.draw(pair(w, n))
    opt = best_q(boundary_wrap(P), boundary_wrap(Q), [n], w=general_ratio(w))
    assert opt.q > 0
    assert below(wrapped_target.certified(eps=log(w)).q, opt.q)
    assert below(wrapped_target_exact.certified(eps=log(w)).q, opt.q)


@covers("CL23:Lem2.9-exact")
@given(ratios(), st.integers(6, 20), st.integers(0, 3), st.data())
def test_lp_form_near_the_extreme_classifiers(w: Fraction, k: int, j: int,
                                              data: st.DataObject) -> None:
    """An independent local-search optimum: small minorities moved by factors w or 1/w."""
    a = F(1, 2**k)
    b = a * data.draw(st.sampled_from([F(1), F(2), F(7)]))
    f: tuple[Fraction, Fraction] = [(w, w), (w, 1 / w), (1 / w, F(1)), (w, F(1))][j]
    P = (1 - a - b, a, b)
    Q = (1 - a * f[0] - b * f[1], a * f[0], b * f[1])
    opt = best_q(boundary_wrap(P), boundary_wrap(Q), [3], w=general_ratio(w))
    assert below(wrapped_target_exact.certified(eps=log(w)).q, opt.q)


@covers("CL23:LemF.1")
@given(ratios(), st.integers(2, 3), st.data())
def test_run_twice_target(w: Fraction, n: int, data: st.DataObject) -> None:
    """F.1: two independent runs are w^2-bounded and {y1 != y2} has q >= q_F."""
    P, Q = data.draw(pair(w, n))
    A, T = run_twice(P)
    B, _ = run_twice(Q)
    opt = best_q(A, B, T, w=w * w)
    enc = run_twice_target.certified(eps=log(w))
    assert opt.q > 0 and below(enc.q, opt.q)
    with mp.workdps(60):
        assert abs(enc.eps2.mid - 2 * log(w)) < SLACK
