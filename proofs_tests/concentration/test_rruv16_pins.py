"""Two-sided pins of RRUV16 §4's bounds: each returned value equals the printed formula
of its statement, evaluated independently in python-flint arb (or exact rationals for
the range sum), at random inputs; plus the s, t >= 1 domain edges of Theorems 4.2/4.5.

The property tests in test_rruv16.py check that the bounds hold (one-sided); these
check that they are the stated bounds and not looser ones.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import arb_q, frac
from reference import DomainError
from reference.core.model import Result
from reference.results import covers
from reference.results.concentration import rruv16
from reference.results.concentration.rruv16 import (
    loss_mean_bound,
    martingale_threshold,
    range_sum,
    self_normalized_threshold,
    window_bound,
    window_tail,
)

TOL = Fraction(1, 10**40)
pos = st.fractions(Fraction(1, 1000), 50, max_denominator=1000)
small_delta = st.fractions(Fraction(1, 10**9), Fraction(36, 100), max_denominator=10**9)
unit = st.fractions(Fraction(1, 10**6), Fraction(999, 1000), max_denominator=10**6)
at_least_one = st.fractions(1, 100, max_denominator=1000)


def _pinned(value: object, want: arb) -> bool:
    """The mpf ``value`` lies within a relative 1e-40 of the arb ball ``want``."""
    got = arb_q(frac(value))
    slack = abs(want) * arb_q(TOL)
    return bool(want - slack <= got) and bool(got <= want + slack)


@covers("RRUV16:Thm4.1")
@given(B2=st.fractions(0, 50, max_denominator=1000), beta=pos, delta=small_delta)
def test_thm41_is_the_printed_threshold(B2: Fraction, beta: Fraction, delta: Fraction) -> None:
    """sqrt((B^2 + beta)(2 + log(B^2/beta + 1)) log(1/delta))."""
    got = self_normalized_threshold(B2=B2, beta=beta, delta=delta)
    with ctx.workprec(300):
        b, be = arb_q(B2), arb_q(beta)
        want = ((b + be) * (2 + (b / be + 1).log()) * (1 / arb_q(delta)).log()).sqrt()
        assert _pinned(got, want)


@covers("RRUV16:Thm4.4")
@given(U2=st.fractions(0, 50, max_denominator=1000), x=pos, delta=small_delta)
def test_thm44_is_the_printed_threshold(U2: Fraction, x: Fraction, delta: Fraction) -> None:
    """sqrt((U^2/4 + x)(2 + log(U^2/(4x) + 1)) log(1/delta))."""
    got = martingale_threshold(U2=U2, x=x, delta=delta)
    with ctx.workprec(300):
        u, xx = arb_q(U2), arb_q(x)
        want = ((u / 4 + xx) * (2 + (u / (4 * xx) + 1).log()) * (1 / arb_q(delta)).log()).sqrt()
        assert _pinned(got, want)


@covers("RRUV16:Thm4.2")
@given(s=at_least_one, t=at_least_one)
def test_thm42_is_the_printed_bound(s: Fraction, t: Fraction) -> None:
    """2 sqrt(e) (1 + 2 s log t) e^{-s^2/2}."""
    got = window_tail(s=s, t=t)
    with ctx.workprec(300):
        ss = arb_q(s)
        want = 2 * arb(1).exp().sqrt() * (1 + 2 * ss * arb_q(t).log()) * (-ss * ss / 2).exp()
        assert _pinned(got, want)


@covers("RRUV16:Thm4.5")
@given(beta=unit, t=at_least_one, U2=st.fractions(Fraction(1, 1000), 50, max_denominator=1000))
def test_thm45_is_the_printed_bound(beta: Fraction, t: Fraction, U2: Fraction) -> None:
    """2 sqrt(e) (beta + 2 log(t) sqrt(0.74 beta)) and sqrt(U^2/2 log(1/beta))."""
    got = window_bound(beta=beta, t=t, U2=U2)
    with ctx.workprec(300):
        b = arb_q(beta)
        root = (arb_q(Fraction(74, 100)) * b).sqrt()
        want = 2 * arb(1).exp().sqrt() * (b + 2 * arb_q(t).log() * root)
        assert _pinned(got.bound, want)
        assert _pinned(got.threshold, (arb_q(U2) / 2 * (1 / b).log()).sqrt())


@covers("RRUV16:Thm4.3")
@given(width=st.lists(st.fractions(0, 10, max_denominator=1000), min_size=1, max_size=6))
def test_thm43_range_sum_exact(width: list[Fraction]) -> None:
    """U_k^2 = sum (D_i - C_i)^2 and B^2 = U_k^2/4, in exact rationals."""
    got = range_sum(width=width)
    u2 = sum((w * w for w in width), Fraction(0))
    for value, want in ((got.U2, u2), (got.B2, u2 / 4)):
        assert abs(frac(value) - want) <= TOL * want


@covers("RRUV16:Lem4.6")
@given(eps=st.fractions(0, 10, max_denominator=10**6))
def test_lem46_is_the_printed_bound(eps: Fraction) -> None:
    """eps (e^eps - 1)/2."""
    got = loss_mean_bound(eps=eps)
    with ctx.workprec(300):
        e = arb_q(eps)
        assert _pinned(got, e * (e.exp() - 1) / 2)


@covers("RRUV16:Thm4.2", "RRUV16:Thm4.5")
def test_window_parameters_start_at_one() -> None:
    """s = t = 1 are in the domain (Thm 4.2 at s = t = 1 is 2 sqrt(e) e^-1/2 = 2 exactly;
    Thm 4.5 at t = 1 is 2 sqrt(e) beta); 1 - 10^-30 is not."""
    assert window_tail(s=1, t=1) == 2
    below = 1 - Fraction(1, 10**30)
    for call in (lambda: window_tail(s=below, t=1), lambda: window_tail(s=1, t=below),
                 lambda: window_bound(beta="0.1", t=below)):
        with pytest.raises(DomainError):
            call()
    # t = 1 drops the log t term: 2 sqrt(e) beta (not merely positive), and the default
    # U^2 = 1 gives the threshold sqrt(log(10)/2)
    at_one = window_bound(beta="0.1", t=1)
    with ctx.workprec(300):
        assert _pinned(at_one.bound, 2 * arb(1).exp().sqrt() / 10)
        assert _pinned(at_one.threshold, (arb_q(Fraction(10)).log() / 2).sqrt())


@covers("RRUV16:Thm4.1", "RRUV16:Thm4.2", "RRUV16:Thm4.3", "RRUV16:Thm4.4", "RRUV16:Thm4.5",
        "RRUV16:Lem4.6")
def test_probabilistic_flags() -> None:
    """Theorems 4.1, 4.2, 4.4 and 4.5 bound a probability (P[|A| >= ...] <= delta, P[|M_k|
    >= ...] <= ...); Theorem 4.3 states a supermartingale property (the range sum is a
    deterministic function of the widths) and Lemma 4.6 a bound on a conditional mean."""
    found = {v.id: v.probabilistic for v in vars(rruv16).values()
             if isinstance(v, Result) and v.core.__module__ == rruv16.__name__}
    assert found == {"RRUV16:Thm4.1": True, "RRUV16:Thm4.2": True, "RRUV16:Thm4.3": False,
                     "RRUV16:Thm4.4": True, "RRUV16:Thm4.5": True, "RRUV16:Lem4.6": False}
