"""The round-by-round odometers (``reference/results/odometers/objects.py``).

Expected values by hand in exact rationals: the basic odometer is ``sum eps_i``; the
running statistic is ``S = sum eps_i^2``; RRUV16 Theorem 6.5 takes branch (11) iff
``1/n^2 <= S <= 1``; the approximate odometer (Lemma 3.3) runs its inner odometer on
``2 eps_i``; ``exceeded_by`` is the failure event ``|loss| > bound`` (strict).  The
agreement with the registered results is in ``test_rruv16.py``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import mpmath
import pytest

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.odometers.objects import (
    AdvancedOdometer,
    ApproxOdometer,
    BasicOdometer,
    FixedXOdometer,
    HeuristicOdometer,
)


@covers("RRUV16:Thm3.4")
def test_basic_history_and_value() -> None:
    """Rounds 1/4, 1/8, 1/2: bounds 1/4, 3/8, 7/8, numbered 1, 2, 3; 0 before any round."""
    odo = BasicOdometer()
    assert odo.value == 0
    for e in ("0.25", "0.125", "0.5"):
        odo.record(e)
    assert [(r.round, r.eps, r.delta, r.bound) for r in odo.history] == [
        (1, Fraction(1, 4), 0, mpmath.mpf("0.25")), (2, Fraction(1, 8), 0, mpmath.mpf("0.375")),
        (3, Fraction(1, 2), 0, mpmath.mpf("0.875"))]
    assert odo.value == mpmath.mpf("0.875") and odo.eps == [Fraction(1, 4), Fraction(1, 8),
                                                            Fraction(1, 2)]
    assert odo.S == Fraction(1, 16) + Fraction(1, 64) + Fraction(1, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        odo.history[0].bound = mpmath.mpf(0)  # type: ignore[misc]


@covers("RRUV16:Thm3.4")
def test_pure_odometers_refuse_deltas() -> None:
    """A pure-DP odometer refuses delta != 0 (and delta = 1 outright), and a refused round
    leaves no trace: the next round of 1/4 reads 1/4.  (Regression: the refused epsilons
    were kept, so this read 3/4 and certified() disagreed with S.)"""
    odo = BasicOdometer()
    for d in ("0.5", "1e-30"):
        with pytest.raises(DomainError, match="pure-DP"):
            odo.record("0.25", d)
    with pytest.raises(DomainError, match="delta"):
        odo.record("0.25", 1)
    assert odo.history == [] and odo.eps == [] and odo.S == 0
    assert odo.record("0.25", 0) == mpmath.mpf("0.25") and odo.certified().hi == 0.25


@covers("RRUV16:Thm3.4")
def test_exceeded_by_is_strict_and_two_sided() -> None:
    """Bound 3/4 exactly (1/4 + 1/2): |loss| > 3/4 is the failure event."""
    odo = BasicOdometer()
    odo.record("0.25")
    odo.record("0.5")
    c = odo.certified()
    assert (c.lo, c.hi) == (mpmath.mpf("0.75"), mpmath.mpf("0.75"))
    for loss, out in (("0.75", False), ("-0.75", False), (0, False), ("0.1", False),
                      ("0.7500001", True), ("-0.76", True), (10, True)):
        assert odo.exceeded_by(loss) is out, loss


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
def test_square_sum_and_branch() -> None:
    """eps 1/2, 1/4 with n = 4: S = 5/16 in [1/16, 1], branch (11); one more round of 1
    makes S = 21/16 > 1, branch (12).  The fixed-x odometer keeps the same S."""
    adv, fx = AdvancedOdometer(n=4, delta_g="0.05"), FixedXOdometer(x="0.1", delta_g="0.05")
    for e in ("0.5", "0.25"):
        adv.record(e)
        fx.record(e)
    assert adv.S == fx.S == Fraction(5, 16) and adv.branch == 11
    adv.record(1)
    assert adv.S == Fraction(21, 16) and adv.branch == 12


@covers("RRUV16:Lem3.3")
def test_approx_odometer_doubles_and_lifts() -> None:
    """Inner basic odometer on 2 eps_i: rounds (1/4, 0), (1/8, 0) give 1/2, then 3/4."""
    inner = BasicOdometer()
    odo = ApproxOdometer(inner, delta_g_prime="0.01")
    assert odo.value == 0 and odo.certified().hi == 0
    assert odo.record("0.25") == mpmath.mpf("0.5")
    assert odo.record("0.125") == mpmath.mpf("0.75")
    assert inner.eps == [Fraction(1, 2), Fraction(1, 4)]
    assert odo.eps_so_far() == odo.eps == [Fraction(1, 4), Fraction(1, 8)]
    assert odo.deltas == [0, 0] and odo.certified().hi == mpmath.mpf("0.75")
    assert [r.round for r in odo.history] == [1, 2]


@covers("RRUV16:Lem3.3")
def test_approx_odometer_refusals() -> None:
    """delta_i must lie in [0, 1); a refused round changes nothing; the inner odometer
    must be fresh (the deltas of its earlier rounds are unknown)."""
    odo = ApproxOdometer(BasicOdometer(), delta_g_prime="0.5")
    with pytest.raises(DomainError, match="ApproxOdometer"):
        odo.record("0.5", 1)
    assert odo.history == [] and odo.inner.history == [] and odo.deltas == []
    assert odo.record("0.5", "0.5") == mpmath.inf   # one term 0.5 (1 + e^-1)/(1 - e^-1/2) > 1/2
    used = BasicOdometer()
    used.record("0.1")
    with pytest.raises(DomainError, match="fresh"):
        ApproxOdometer(used, delta_g_prime="0.5")


@covers("RRUV16:Lem3.3")
def test_infinite_bound_is_never_exceeded() -> None:
    """A round with eps = 0 < delta has an infinite failure term: the bound is +inf, which
    no loss exceeds."""
    odo = ApproxOdometer(BasicOdometer(), delta_g_prime="1e-3")
    odo.record("0.5", "1e-4")
    assert odo.exceeded_by(2) is True    # bound 1 = 2 * 0.5, and |2| > 1
    assert odo.record(0, "1e-4") == mpmath.inf
    c = odo.certified()
    assert c.lo == c.hi == mpmath.inf
    assert odo.exceeded_by(10**9) is False and odo.exceeded_by(0) is False


def test_heuristic_odometer_delta_range() -> None:
    """delta_g must lie in (0, 1)."""
    for bad in (0, 1, "1.5"):
        with pytest.raises(DomainError, match="delta_g"):
            HeuristicOdometer(delta_g=bad)
    h = HeuristicOdometer(delta_g="0.5")
    assert h.delta_g == Fraction(1, 2) and h.record("0.1") > 0
