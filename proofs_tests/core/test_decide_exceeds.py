"""``decide.exceeds`` (a filter's strict ``stat > budget``) and ``decide.below_inv_e``.

Expected answers are exact by construction: statistics whose exact value is a rational
(an exact point enclosure), or ``1/3 +- 10^-k`` against the budget ``1/3`` (decided once
the enclosure of ``1/3`` is narrower than ``10^-k``, i.e. at about ``k`` digits, so the
precision ladder ``50, 100, ..., 3200`` is pinned), or infinite enclosure ends.  ``1/e``
against rationals: ``e = 2.718281828459045235360287...`` (the convergents of its continued
fraction ``[2; 1, 2, 1, 1, 4, 1, 1, 6, ...]``, Euler; they alternate around ``e``:
``2721/1001`` below, ``23225/8544`` above) put ``q`` just on either side of ``1/e``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx, fmpq
from mpmath import iv

from reference.core.decide import INV_E_ABOVE, INV_E_BELOW, MAX_DPS, below_inv_e, exceeds
from reference.core.numeric import Ctx, get_dps, precision

THIRD = Fraction(1, 3)


def _third_plus(k: int, sign: int, seen: list[int] | None = None):  # type: ignore[no-untyped-def]
    """The statistic ``1/3 + sign 10^-k`` in interval arithmetic (recording each trial dps)."""
    def stat(ctx: Ctx):  # type: ignore[no-untyped-def]
        if seen is not None:
            seen.append(get_dps())
        return iv.mpf(1) / 3 + sign * iv.mpf(10) ** -k
    return stat


@pytest.mark.parametrize("sign", [1, -1])
def test_the_ladder_doubles_up_to_max_dps(sign: int) -> None:
    """From 50 digits: 50, 100, ..., 1600, 3200 (= MAX_DPS, included).  At ``10^-2000`` the
    answer needs the 3200-digit step; at ``10^-90`` the 100-digit step."""
    assert get_dps() == 50 and MAX_DPS == 3200
    seen: list[int] = []
    assert exceeds(_third_plus(2000, sign, seen), THIRD, "t") is (sign > 0)
    assert seen == [50, 100, 200, 400, 800, 1600, 3200]
    seen.clear()
    assert exceeds(_third_plus(90, sign, seen), THIRD, "t") is (sign > 0)
    assert seen == [50, 100]


def test_undecided_after_max_dps_raises() -> None:
    """``1/3 + 10^-5000`` cannot be told from ``1/3`` at 3200 digits; from 30 digits the
    ladder is 30, ..., 1920 (the next, 3840, is above MAX_DPS)."""
    seen: list[int] = []
    with pytest.raises(RuntimeError, match="cannot decide"):
        exceeds(_third_plus(5000, 1, seen), THIRD, "t")
    assert seen == [50, 100, 200, 400, 800, 1600, 3200]
    seen.clear()
    with precision(30), pytest.raises(RuntimeError, match="1920 digits"):
        exceeds(_third_plus(5000, 1, seen), THIRD, "t")
    assert seen == [30, 60, 120, 240, 480, 960, 1920]


def test_a_working_precision_above_max_dps_is_still_tried() -> None:
    """At 3201 and 4000 digits the working precision decides ``1/3 + 10^-3100 > 1/3`` (it
    used to raise without evaluating), and nothing above it is tried."""
    for dps in (3201, 4000):
        seen: list[int] = []
        with precision(dps):
            assert exceeds(_third_plus(3100, 1, seen), THIRD, "t") is True
            assert exceeds(_third_plus(3100, -1, seen), THIRD, "t") is False
        assert seen == [dps, dps]


@pytest.mark.parametrize(("value", "budget", "expected"), [
    (Fraction(2), Fraction(2), False),          # equal: not strictly greater
    (Fraction(2), Fraction(3), False),
    (Fraction(3), Fraction(2), True),
    (Fraction(1, 2), Fraction(1), False),       # positive but below the budget
    (Fraction(-1, 2), Fraction(-1), True),      # negative but above it
    (Fraction(0), Fraction(0), False),
    (Fraction(-3), Fraction(-3), False),
])
def test_exact_point_statistics(value: Fraction, budget: Fraction, expected: bool) -> None:
    """A point enclosure is decided at once, equality included (``stat == budget`` does not
    exceed it)."""
    seen: list[int] = []

    def stat(ctx: Ctx):  # type: ignore[no-untyped-def]
        seen.append(get_dps())
        return iv.mpf(value.numerator) / value.denominator if value.denominator > 1 \
            else iv.mpf(value.numerator)

    assert exceeds(stat, budget, "t") is expected
    assert seen == [50]


@pytest.mark.parametrize(("ends", "budget", "expected"), [
    (("inf", "inf"), Fraction(10**100), True),
    (("1", "inf"), Fraction(0), True),          # finite lower end above the budget
    (("1", "inf"), Fraction(1), None),          # touches the budget, never decided
    (("-inf", "-inf"), Fraction(-(10**100)), False),
    (("-inf", "-1"), Fraction(0), False),       # finite upper end below the budget
    (("-inf", "-1"), Fraction(-1), False),      # upper end at the budget: not greater
    (("-inf", "-2"), Fraction(-1), False),
])
def test_infinite_enclosure_ends(ends: tuple[str, str], budget: Fraction,
                                 expected: bool | None) -> None:
    def stat(ctx: Ctx):  # type: ignore[no-untyped-def]
        return iv.mpf(ends)

    if expected is None:
        with pytest.raises(RuntimeError):
            exceeds(stat, budget, "t")
    else:
        assert exceeds(stat, budget, "t") is expected


@pytest.mark.parametrize(("q", "below"), [
    (Fraction(1001, 2721), False),      # 2721/1001 < e: 1001/2721 > 1/e
    (Fraction(8544, 23225), True),      # 23225/8544 > e: 8544/23225 < 1/e
    (Fraction(0), True),
    (Fraction(1, 3), True),             # 3 > e
    (Fraction(1, 2), False),            # 2 < e
    (Fraction(-1), True),
])
def test_below_inv_e(q: Fraction, below: bool) -> None:
    """``q < 1/e`` iff ``q e < 1``; the convergents ``2721/1001`` (below ``e``, by
    ``1.1e-7``) and ``23225/8544`` (above, by ``6.7e-9``) of Euler's continued fraction
    put ``q`` on either side of ``1/e``, closer than a wrong comparison could hide."""
    assert below_inv_e(q) is below


def test_the_rational_bounds_of_one_over_e_and_the_band_between() -> None:
    """The two rationals around ``1/e`` that decide most inputs in rationals hold it (by
    Arb's ``e`` at 300 bits); inside the band between them, ``1e-11`` wide, the interval
    route decides inputs ``1e-30`` either side of ``1/e`` (expected values from Arb)."""
    old = ctx.prec
    ctx.prec = 300
    try:
        inv_e = 1 / arb.const_e()

        def side(q: Fraction) -> bool:   # q < 1/e, decided by Arb
            d = inv_e - arb(fmpq(q.numerator, q.denominator))
            assert d > 0 or d < 0
            return bool(d > 0)
        assert side(INV_E_BELOW) and not side(INV_E_ABOVE)
        assert INV_E_ABOVE - INV_E_BELOW == Fraction(1, 10**11)
        mid = Fraction(36787944117144232159552377016146, 10**32)   # 1/e to 32 digits
        for q in (mid - Fraction(1, 10**30), mid + Fraction(1, 10**30), mid,
                  INV_E_BELOW + Fraction(1, 10**40), INV_E_ABOVE - Fraction(1, 10**40)):
            assert INV_E_BELOW < q < INV_E_ABOVE
            assert below_inv_e(q) is side(q), q
        assert below_inv_e(INV_E_BELOW) and not below_inv_e(INV_E_ABOVE)
    finally:
        ctx.prec = old


def test_a_rational_statistic_decides_a_tie_exactly() -> None:
    """A rational statistic can equal the budget; its enclosure then straddles it at every
    precision, so ``exact_value`` decides it once the working precision has not: 1/3 does
    not exceed 1/3 (strict), and without ``exact_value`` the tie is an error after the
    whole ladder.  An enclosure that never narrows ([0, 1]) is decided by the exact value
    alone, on both sides; one that decides at the working precision never calls it."""
    seen: list[int] = []
    assert exceeds(_third_plus(0, 0, seen), THIRD, "t", exact_value=lambda: THIRD) is False
    assert seen == [get_dps()]                     # no ladder: exact after the first try
    assert exceeds(_third_plus(0, 0), Fraction(1, 4), "t", exact_value=lambda: 1 / 0) is True
    with pytest.raises(RuntimeError, match="cannot decide"):
        exceeds(_third_plus(0, 0), THIRD, "t")

    def wide(ctx: Ctx):  # type: ignore[no-untyped-def]
        return iv.mpf((0, 1))

    assert exceeds(wide, Fraction(1, 2), "t", exact_value=lambda: Fraction(3, 4)) is True
    assert exceeds(wide, Fraction(3, 4), "t", exact_value=lambda: Fraction(3, 4)) is False
    above = Fraction(3, 4) + Fraction(1, 10**60)
    assert exceeds(wide, Fraction(3, 4), "t", exact_value=lambda: above) is True


# ---- with balls=True: Arb's balls first, iv where they fail or do not decide ---------------

def _generic_third_plus(k: int, sign: int, seen: list[object]):  # type: ignore[no-untyped-def]
    """``1/3 + sign 10^-k`` in whatever context it is called with (recording the context)."""
    def stat(c: Ctx):  # type: ignore[no-untyped-def]
        seen.append(c)
        return c.mpf(1) / 3 + sign * c.mpf(10) ** -k
    return stat


@pytest.mark.parametrize("sign", [1, -1])
def test_balls_decide_at_the_working_precision(sign: int) -> None:
    """``1/3 +- 10^-40`` against ``1/3`` at 50 digits: decided by the balls alone, with the
    exact answer; ``10^-90`` is not (the balls are at 60 digits), so iv's ladder decides at
    100 digits, after one iv trial at the working precision."""
    from reference.core.fastballs import FAST
    seen: list[object] = []
    assert exceeds(_generic_third_plus(40, sign, seen), THIRD, "test", balls=True) == (sign > 0)
    assert seen == [FAST]
    seen.clear()
    assert exceeds(_generic_third_plus(90, sign, seen), THIRD, "test", balls=True) == (sign > 0)
    assert seen == [FAST, iv, iv]
    seen.clear()
    assert exceeds(_generic_third_plus(40, sign, seen), THIRD, "test") == (sign > 0)
    assert seen == [iv]                                       # without balls: iv only


def test_balls_that_fail_leave_the_decision_to_iv() -> None:
    """A statistic that raises on balls (beyond Arb's range, say) is decided by iv; an
    exception in iv itself still propagates (no swallowing beyond the balls)."""
    seen: list[object] = []

    def stat(c: Ctx):  # type: ignore[no-untyped-def]
        seen.append(c)
        if c is not iv:
            raise OverflowError("no ball for this (a test)")
        return iv.mpf(2)

    assert exceeds(stat, Fraction(1), "test", balls=True) is True
    assert len(seen) == 2 and seen[1] is iv

    def broken(c: Ctx):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("in every context")

    with pytest.raises(ZeroDivisionError):
        exceeds(broken, Fraction(1), "test", balls=True)


@pytest.mark.parametrize(("value", "budget", "expected"), [
    ("0.5", Fraction(1, 2), False), ("0.5", Fraction(1, 3), True), ("1e-300", Fraction(0), True),
    ("-1e-300", Fraction(0), False), ("7", Fraction(7), False)])
def test_balls_and_iv_agree_on_exact_points(value: str, budget: Fraction,
                                            expected: bool) -> None:
    """A statistic exact in both contexts (a decimal that is a binary fraction, or one whose
    rounding cannot reach the budget): the same strict answer either way, ties included."""
    def stat(c: Ctx):  # type: ignore[no-untyped-def]
        return c.mpf(Fraction(value)) if c is not iv else iv.mpf(value)

    assert exceeds(stat, budget, "test", balls=True) is expected
    assert exceeds(stat, budget, "test") is expected
