"""The point-wise events |L(a)| > eps of RRUV16 Definition 2.2, decided on exact inputs.

Independent route: python-flint arb balls for ``log(ratio) - eps`` at a precision raised
until the ball excludes 0 (never 0 exactly for rational ``eps != 0``: e^eps is irrational).
"""

from __future__ import annotations

from fractions import Fraction

import flint
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import arb_ends
from reference.results import covers, get
from reference.results.privacy_loss.rruv16 import exceeds_exp


def _arb_says(ratio: Fraction, eps: Fraction) -> bool:
    """ratio > e^eps by arb: the sign of log(ratio) - eps, precision doubled until certain."""
    if ratio <= 0:
        return False
    prec = 64
    while True:
        old = flint.ctx.prec
        flint.ctx.prec = prec
        try:
            d = (flint.arb(ratio.numerator) / ratio.denominator).log() \
                - flint.arb(eps.numerator) / eps.denominator
            lo, hi = arb_ends(d)
        finally:
            flint.ctx.prec = old
        if lo > 0 or hi < 0:
            return lo > 0
        if eps == 0 and ratio == 1:
            return False
        prec *= 2


positive_rationals = st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(10**6),
                                  max_denominator=10**12)


@covers("RRUV16:Def2.2")
@given(ratio=positive_rationals, eps=st.fractions(min_value=0, max_value=20,
                                                  max_denominator=10**12))
def test_exceeds_exp_agrees_with_arb(ratio: Fraction, eps: Fraction) -> None:
    assert exceeds_exp(ratio, eps) == _arb_says(ratio, eps)


@covers("RRUV16:Def2.2")
@given(eps=st.fractions(min_value=Fraction(1, 10**9), max_value=30, max_denominator=10**9),
       digits=st.integers(20, 120), side=st.sampled_from([-1, 1]))
def test_exceeds_exp_next_to_the_tie(eps: Fraction, digits: int, side: int) -> None:
    """A ratio within 10^-digits (relative) of e^eps, on either side: still decided right."""
    old = flint.ctx.prec
    flint.ctx.prec = 4 * digits + 64
    try:
        lo, hi = arb_ends((flint.arb(eps.numerator) / eps.denominator).exp())
    finally:
        flint.ctx.prec = old
    step = Fraction(1, 10**digits) * hi
    ratio = hi + step if side > 0 else lo - step
    assert exceeds_exp(ratio, eps) == (side > 0)


@covers("RRUV16:Def2.2")
def test_pointwise_delta_exact_at_heterogeneous_laws() -> None:
    """Three outcomes with losses log 2, -log 2 and log(3/4): the delta is the exact mass of
    the outcomes with |L| > eps, the larger of the two laws' (all masses dyadic here)."""
    P, Q = "1/2,1/8,3/8", "1/4,1/4,1/2"   # losses log 2, -log 2, log(3/4)
    r = get("RRUV16:Def2.2")
    # eps between log(4/3) = 0.2877 and log 2 = 0.6931: outcomes 1 and 2 count.
    assert r.certified(P=P, Q=Q, eps="0.5").lo == r.certified(P=P, Q=Q, eps="0.5").hi
    assert r(P=P, Q=Q, eps="0.5") == 0.625  # max(1/2 + 1/8, 1/4 + 1/4)
    # eps below log(4/3): all three count (both masses 1); above log 2: none.
    assert r(P=P, Q=Q, eps="0.28") == 1
    assert r(P=P, Q=Q, eps="0.7") == 0
