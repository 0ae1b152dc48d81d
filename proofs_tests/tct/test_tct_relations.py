"""The target-charging relations (``reference.results.tct.relations``) tied to the registered
results they compare: each margin, evaluated at 40 digits, is the difference of the results'
certified values (so a proof of the margin is a proof about the results), across both sides
of the point ``e^eps = 3/2`` where Lemma E.1's maximum changes branch; and the hand
arguments of the cuts at their ends (AM-GM, the alternating series) in exact rationals."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.privacy_loss_support import mpq
from reference.core.numeric import Interval, endpoints, exact, working
from reference.results import relations
from reference.results.tct.charging import raw_tail, simplified_tail
from reference.results.tct.wrappers import (
    wrapped_privacy,
    wrapped_target,
    wrapped_target_exact,
    wrapped_test_privacy,
    wrapped_test_target,
    wrapped_test_target_exact,
)

RELS = relations()
#: ln(3/2), where Lemma E.1's maximum switches from its second term to eps.
SWITCH = mp.log(mp.mpf(3) / 2)

epsilons = st.fractions(Fraction(1, 10**6), 50, max_denominator=10**6)


def _within(x: Any, enclosure: Interval, slack: Any) -> bool:
    return bool(enclosure.lo - slack <= x <= enclosure.hi + slack)


@given(eps=epsilons)
@example(eps=Fraction(1, 10))           # e^eps < 3/2: E.1 takes its second term
@example(eps=Fraction(2, 5))            # just below ln(3/2) = 0.405465
@example(eps=Fraction(41, 100))         # just above: E.1 is eps
def test_the_margins_are_differences_of_the_results(eps: Fraction) -> None:
    """``4 eps/3 - t`` with t = CL23:Lem2.8; ``t - t_test`` with t_test = CL23:LemE.1."""
    with mp.workdps(40):
        e = mpq(eps)
        t = wrapped_privacy.certified(eps=str(eps)).t
        t_test = wrapped_test_privacy.certified(eps=str(eps)).t
        slack = mp.mpf(10) ** -35
        four_thirds = RELS["CL23:Lem2.8<=4eps/3"].margin(mp, e)
        assert _within(4 * e / 3 - four_thirds, t, slack)
        gap = RELS["CL23:LemE.1<CL23:Lem2.8"].margin(mp, e)
        assert t.lo - t_test.hi - slack <= gap <= t.hi - t_test.lo + slack
        assert gap > 0 and four_thirds > 0
        if e > SWITCH:     # E.1 is eps there: the margin is t - eps = ln(3w/(2w + 1))
            assert abs(gap - mp.log(3 * mp.exp(e) / (2 * mp.exp(e) + 1))) <= slack


def _ratio_range(num: Interval, den: Interval) -> tuple[Any, Any]:
    return num.lo / den.hi - 1, num.hi / den.lo - 1


@given(eps=st.fractions(Fraction(1, 10**6), 8, max_denominator=10**6))
@example(eps=Fraction(2, 5))
@example(eps=Fraction(41, 100))         # past ln(3/2): the tests' two forms are equal
def test_the_q_margins_are_ratios_of_the_results(eps: Fraction) -> None:
    """``exact/conservative - 1`` of the registered boundary targets: Lemma 2.9 (every eps)
    and Lemma E.2 (below ln(3/2); equal to 0 above it, where t_test = eps)."""
    with mp.workdps(40):
        e = mpq(eps)
        slack = mp.mpf(10) ** -35
        lo, hi = _ratio_range(wrapped_target_exact.certified(eps=str(eps)).q,
                              wrapped_target.certified(eps=str(eps)).q)
        got = RELS["CL23:Lem2.9-conservative<CL23:Lem2.9-exact"].margin(mp, e)
        assert lo - slack <= got <= hi + slack and got > 0
        lo, hi = _ratio_range(wrapped_test_target_exact.certified(eps=str(eps)).q,
                              wrapped_test_target.certified(eps=str(eps)).q)
        if e < SWITCH:
            got = RELS["CL23:LemE.2-conservative<CL23:LemE.2-exact"].margin(mp, e)
            assert lo - slack <= got <= hi + slack and got > 0
        else:
            assert lo - slack <= 0 <= hi + slack


@given(alpha=st.fractions(Fraction(1, 10**3), 10**3, max_denominator=10**4),
       tau=st.integers(1, 50))
def test_the_tail_margin_is_the_results_exponents(alpha: Fraction, tau: int) -> None:
    """``-ln(raw)/tau + ln(simplified)/tau`` from the charging module's two tails."""
    with working(iv, 60):
        a = iv.mpf(alpha.numerator) / alpha.denominator
        raw, simple = raw_tail(iv, tau, a), simplified_tail(iv, tau, a)
        diff = endpoints((iv.log(simple) - iv.log(raw)) / tau)
    with mp.workdps(40):
        got = RELS["CL23:ThmB.4-tail/raw<=simplified"].margin(mp, mpq(alpha))
    width = exact(diff.hi, "hi", "t") - exact(diff.lo, "lo", "t")
    slack = Fraction(1, 10**30) + width
    assert exact(diff.lo, "lo", "t") - slack <= exact(got, "m", "t") <= \
        exact(diff.hi, "hi", "t") + slack
    assert got > 0


@given(w=st.fractions(1, 10**6, max_denominator=10**6))
def test_am_gm_of_the_cut(w: Fraction) -> None:
    """The cut's ``3 w^2/(2w + 1) <= w^(4/3)``, cubed: ``27 w^6/(2w + 1)^3 <= w^4``, i.e.
    ``27 w^2 <= (2w + 1)^3``, in exact rationals; equality only at ``w = 1``."""
    lhs, rhs = 27 * w**2, (2 * w + 1) ** 3
    assert lhs <= rhs
    assert (lhs == rhs) == (w == 1)


@given(alpha=st.fractions(Fraction(1, 10**9), Fraction(1, 1000), max_denominator=10**12))
def test_alternating_series_of_the_cut(alpha: Fraction) -> None:
    """Below the box (alpha < 1/1000): the exact difference lies between the series' first
    two partial sums, ``alpha^3/6 - alpha^4/4 <= d <= alpha^3/6``, at 60 digits."""
    with mp.workdps(60):
        a = mpq(alpha)
        d = a - mp.log1p(a) - a * a / (2 * (1 + a))
        assert a**3 / 6 - a**4 / 4 <= d <= a**3 / 6
