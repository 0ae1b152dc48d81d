"""Exact pins of RSWR23 §7's closed forms at their boundaries.

Independent routes: the printed stopping condition evaluated in exact rationals at and
next to the thresholds, the relative error of the worst accepted count computed by hand,
and the doubling schedule's precondition checked at the 2^4000 limit it documents.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.errors import DomainError
from reference.core.numeric import exact
from reference.results import covers
from reference.results.experiments.rswr23_sec7 import acceptance, doubling_run

_alphas = st.fractions(Fraction(1, 1000), Fraction(999, 1000), max_denominator=1000)


def _printed(y: Fraction, s: Fraction, alpha: Fraction) -> bool:
    """RSWR23 §7.2 as printed: 1 - alpha < |(y + s)/(y - s)| <= 1 + alpha and |y| > s."""
    if abs(y) <= s:
        return False
    ratio = abs((y + s) / (y - s))
    return 1 - alpha < ratio <= 1 + alpha


def _q(x: object) -> Fraction:
    return exact(x, "x", "test")


@covers("RSWR23:Sec7.2-accept")
@given(alpha=_alphas, s=st.fractions(Fraction(1, 100), 10, max_denominator=100))
def test_thresholds_are_the_exact_ends_of_the_printed_condition(alpha: Fraction,
                                                                s: Fraction) -> None:
    """y = upper s is accepted and y just below it is not; y = -lower s is refused (the
    strict side) and y just below it is accepted: in exact rationals, so the thresholds are
    pinned to the working precision, not only up to a floating-point margin."""
    th = acceptance(alpha=alpha)
    up, low = _q(th.upper), _q(th.lower)
    tol = Fraction(1, 10**40)
    assert abs(up - (2 + alpha) / alpha) <= tol * up   # the proof note's closed form
    assert abs(low - (2 - alpha) / alpha) <= tol * low
    hi_end, lo_end = (2 + alpha) / alpha * s, -(2 - alpha) / alpha * s
    step = s * Fraction(1, 10**6)
    assert _printed(hi_end, s, alpha) and not _printed(hi_end - step, s, alpha)
    assert not _printed(lo_end, s, alpha) and _printed(lo_end - step, s, alpha)
    assert _printed(up * s + step, s, alpha) and not _printed(up * s - step, s, alpha)
    assert _printed(-low * s - step, s, alpha) and not _printed(-low * s + step, s, alpha)


@covers("RSWR23:Sec7.2-accept")
@given(alpha=_alphas)
def test_guarantee_is_attained(alpha: Fraction) -> None:
    """The worst accepted count: y = upper (s = 1) with truth c = y - 1 has relative error
    |y - c|/c = 1/(y - 1) = alpha/2 exactly (by hand: y - 1 = 2/alpha), and every other
    accepted y > 0 within 1 of c does no worse; so the guarantee is alpha/2, no looser."""
    y = (2 + alpha) / alpha
    assert _printed(y, Fraction(1), alpha)
    worst = abs(y - (y - 1)) / (y - 1)
    assert worst == alpha / 2
    g = _q(acceptance(alpha=alpha).guarantee)
    assert abs(g - worst) <= worst * Fraction(1, 10**40)


@covers("RSWR23:Sec7.1-doubling-run")
@pytest.mark.parametrize("ratio", [Fraction(2) ** 4000 * (1 + Fraction(1, 10**9)),
                                   Fraction(2) ** 4001, Fraction(3) ** 4000])
def test_doubling_run_refuses_ratios_beyond_two_to_the_4000(ratio: Fraction) -> None:
    """The precondition's limit is the ratio 2^4000 exactly (accepted, see
    test_doubling_run_exact_at_the_edges); anything above it is a DomainError."""
    with pytest.raises(DomainError, match="2\\^4000"):
        doubling_run(eps1_sq=Fraction(1, 3), target_sq=Fraction(1, 3) * ratio)


@covers("RSWR23:Sec7.1-doubling-run")
def test_doubling_run_refuses_a_first_attempt_above_the_target() -> None:
    """eps1_sq = target_sq is allowed (no doubling); one part in 10^30 above is refused."""
    t = Fraction(1, 10)
    assert doubling_run(eps1_sq=t, target_sq=t).overshoot_sq == 1
    with pytest.raises(DomainError, match="eps1_sq"):
        doubling_run(eps1_sq=t * (1 + Fraction(1, 10**30)), target_sq=t)
