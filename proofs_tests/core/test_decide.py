"""The one decision path (reference.core.decide): verdicts, margins, precision escalation,
and the three users (oracle assertions, claims audit, conformance) agreeing on it."""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.decide import RELATIONS, Verdict, decide, judge
from reference.core.numeric import Interval, endpoints, exact, get_dps, precision, working
from reference.oracle.testing import compare, enclosure
from reference.tools.audit import Claim, audit_claim
from reference.tools.conformance.model import Grade, Reference
from reference.tools.conformance.verdicts import judge_upper

OPS: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}

small = st.fractions(-4, 4, max_denominator=4)


def _truth(relation: str, x: Fraction, v: Fraction, tol: Fraction) -> bool:
    return abs(x - v) <= tol if relation == "==" else OPS[relation](x, v)


@given(st.sampled_from(RELATIONS), small, small, small, st.fractions(0, 2, max_denominator=4))
def test_judge_is_the_relation_for_all_or_no_point(relation: str, a: Fraction, b: Fraction,
                                                    v: Fraction, tol: Fraction) -> None:
    """holds iff every point of [lo, hi] satisfies the relation, violated iff none does
    (the set of satisfying points is an interval, so its ends and v, v -+ tol decide it)."""
    lo, hi = min(a, b), max(a, b)
    t = tol if relation == "==" else Fraction(0)
    points = [lo, hi, *(p for p in (v, v - t, v + t) if lo <= p <= hi)]
    truths = [_truth(relation, p, v, t) for p in points]
    verdict, margin = judge(relation, lo, hi, v, t)
    expected = (Verdict.HOLDS if all(truths) else Verdict.VIOLATED if not any(truths)
                else Verdict.UNDECIDED)
    assert verdict is expected
    assert (margin is None) == (verdict is Verdict.UNDECIDED)
    if margin is not None:
        assert margin >= 0


@pytest.mark.parametrize(("relation", "v", "verdict", "margin"), [
    ("<=", Fraction(2), Verdict.HOLDS, Fraction(0)),      # claim exactly at the value
    ("<", Fraction(2), Verdict.VIOLATED, Fraction(0)),
    (">=", Fraction(2), Verdict.HOLDS, Fraction(0)),
    (">", Fraction(2), Verdict.VIOLATED, Fraction(0)),
    ("<=", Fraction(201, 100), Verdict.HOLDS, Fraction(1, 100)),    # just above
    ("<=", Fraction(199, 100), Verdict.VIOLATED, Fraction(1, 100)),  # just below
    ("==", Fraction(201, 100), Verdict.VIOLATED, Fraction(1, 100)),
])
def test_exact_point_enclosure(relation: str, v: Fraction, verdict: Verdict,
                               margin: Fraction) -> None:
    two = Interval(mpmath.mpf(2), mpmath.mpf(2))
    j = decide(lambda: two, relation, v)
    assert (j.verdict, j.margin, j.dps) == (verdict, margin, get_dps())


def _third() -> Interval:
    """An enclosure of 1/3 about as wide as the working precision."""
    with working(mpmath.iv):
        return endpoints(mpmath.iv.mpf(1) / 3)


def test_escalates_until_decided() -> None:
    """1/3 against 0.333...3 (70 threes): undecided at 50 digits, decided at 100."""
    claim = Fraction(int("3" * 70), 10**70)
    j = decide(_third, ">", claim)
    assert j.verdict is Verdict.HOLDS and j.dps == 100
    assert j.margin is not None and 0 < j.margin < Fraction(1, 10**70)


def test_an_exact_tie_stays_undecided_at_the_top_of_the_ladder() -> None:
    j = decide(_third, "<=", Fraction(1, 3))
    assert j.verdict is Verdict.UNDECIDED and j.dps == 400 and j.margin is None
    lo, hi = exact(j.enclosure.lo, "lo", "t"), exact(j.enclosure.hi, "hi", "t")
    assert lo < Fraction(1, 3) < hi and hi - lo < Fraction(1, 10**390)


def test_bad_relation_is_refused() -> None:
    with pytest.raises(ValueError, match="relation"):
        judge("=<", Fraction(0), Fraction(1), Fraction(0))


@pytest.mark.parametrize(("value", "sound"), [(9.2658, True), (9.0, False),
                                              (9.998679674220447, True)])
def test_the_three_users_agree(value: float, sound: bool) -> None:
    """CKS20:Cor13 at rho = 1.3527, delta = 1e-6 (exact epsilon 9.26579...): the oracle's
    comparison, a claims-file audit and a conformance grade give the same answer."""
    params = {"rho": "1.3527", "delta": "1e-6"}
    cmp = compare(value, "CKS20:Cor13", **params)
    claim = Claim("c", "test", "", "CKS20:Cor13", params, "<=", Fraction(value))
    audited = audit_claim(claim)
    enc = enclosure("CKS20:Cor13", **params)
    grade = judge_upper(value, Reference(enc, enc, "CKS20:Cor13", "CKS20:Cor13"))[0]
    expected = Verdict.HOLDS if sound else Verdict.VIOLATED
    assert cmp.upper_verdict() is expected and audited.verdict is expected
    assert grade is (Grade.SOUND if sound else Grade.UNSOUND)


def test_margins_are_exact_distances() -> None:
    """The margin of a decided claim is the exact distance to the nearer enclosure end."""
    for a, b, v in itertools.product(range(3), range(3), range(-1, 4)):
        lo, hi = Fraction(min(a, b)), Fraction(max(a, b))
        verdict, margin = judge("<=", lo, hi, Fraction(v))
        if verdict is Verdict.HOLDS:
            assert margin == v - hi
        elif verdict is Verdict.VIOLATED:
            assert margin == lo - v


#: The set of values satisfying ``X relation v`` (tolerance ``t`` for ``==``), as
#: ``(left end, right end)`` with None for an infinite end; open or closed does not change
#: distances.
def _satisfying(relation: str, v: Fraction, t: Fraction) -> tuple[Fraction | None,
                                                                  Fraction | None]:
    return {"<=": (None, v), "<": (None, v), ">=": (v, None), ">": (v, None),
            "==": (v - t, v + t)}[relation]


@given(st.sampled_from(RELATIONS), small, small, small, st.fractions(0, 2, max_denominator=4))
def test_margins_are_distances_to_the_satisfying_set(relation: str, a: Fraction, b: Fraction,
                                                     v: Fraction, tol: Fraction) -> None:
    """Every relation: a claim that holds has the margin by which ``[lo, hi]`` sits inside
    the satisfying set (the distance from its ends to the set's ends); a violated one the
    gap between ``[lo, hi]`` and the set."""
    lo, hi = min(a, b), max(a, b)
    t = tol if relation == "==" else Fraction(0)
    left, right = _satisfying(relation, v, t)
    verdict, margin = judge(relation, lo, hi, v, t)
    if verdict is Verdict.HOLDS:
        inside = [d for d in (None if left is None else lo - left,
                              None if right is None else right - hi) if d is not None]
        assert margin == min(inside)
    elif verdict is Verdict.VIOLATED:
        gaps = [d for d in (None if left is None else left - hi,
                            None if right is None else lo - right) if d is not None]
        assert margin == max(gaps)


@pytest.mark.parametrize(("start", "k", "tried"), [
    (50, 70, [50, 100]), (50, 150, [50, 100, 200]), (50, 300, [50, 100, 200, 400]),
    (100, 150, [100, 200]), (200, 300, [200, 400]), (400, 1000, [400]),
])
def test_each_rung_of_the_ladder_is_tried_once(start: int, k: int, tried: list[int]) -> None:
    """1/3 against ``1/3 - 10^-k`` is decided once the enclosure of 1/3 is narrower than
    ``10^-k``: at the first rung of ``[start, *LADDER above start]`` with more than ``k``
    digits; each precision is tried once, in order (at 400 and above: only the start)."""
    seen: list[int] = []

    def third() -> Interval:
        seen.append(get_dps())
        return _third()

    with precision(start):
        j = decide(third, ">", Fraction(1, 3) - Fraction(1, 10**k))
    assert j.verdict is (Verdict.HOLDS if k < tried[-1] else Verdict.UNDECIDED)
    assert seen == tried and j.dps == tried[-1]


def test_judge_defaults_to_no_tolerance_and_judgements_are_frozen() -> None:
    """``==`` without a tolerance is exact equality; a Judgement cannot be altered."""
    assert judge("==", Fraction(2), Fraction(2), Fraction(2)) == (Verdict.HOLDS, 0)
    assert judge("==", Fraction(2), Fraction(2), Fraction(3)) == (Verdict.VIOLATED, 1)
    j = decide(lambda: Interval(mpmath.mpf(2), mpmath.mpf(2)), "<=", 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        j.verdict = Verdict.VIOLATED  # type: ignore[misc]


@pytest.mark.parametrize(("lo", "hi", "v", "verdict", "margin"), [
    (3, 4, 2, Verdict.UNDECIDED, None),     # lo = v + tol: 3 is within 1 of 2, 4 is not
    (0, 1, 2, Verdict.UNDECIDED, None),     # hi = v - tol
    (0, 2, 2, Verdict.UNDECIDED, None),     # hi inside the band, lo below it
    (2, 4, 2, Verdict.UNDECIDED, None),     # lo inside the band, hi above it
    (1, 3, 2, Verdict.HOLDS, 0),            # exactly the band [v - tol, v + tol]
    (Fraction(7, 2), 5, 2, Verdict.VIOLATED, Fraction(1, 2)),   # 1/2 above the band
    (-1, Fraction(1, 2), 2, Verdict.VIOLATED, Fraction(1, 2)),  # 1/2 below it
])
def test_equality_within_a_tolerance_at_the_band_ends(lo: Fraction, hi: Fraction, v: Fraction,
                                                      verdict: Verdict,
                                                      margin: Fraction | None) -> None:
    """``X == v`` within ``tol = 1`` holds for ``X`` in the closed band ``[v - 1, v + 1]``:
    an enclosure touching the band at one end and leaving it at the other is undecided."""
    assert judge("==", Fraction(lo), Fraction(hi), Fraction(v), Fraction(1)) == (verdict, margin)
