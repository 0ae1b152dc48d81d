"""The peers' own test expectations against our certified enclosures.

Each case of :mod:`proofs_tests.peers.expectations` is a number asserted by the test suite
of another DP library (dp-accounting, OpenDP, diffprivlib, prv-accountant), with that test's
tolerance.  The expected numbers are independent of this project: they were produced by
other code and written into those test files (or derived there in closed form).  A case
agrees when every point of our enclosure lies within the peer's tolerance of the peer's
number (two-sided); a known disagreement is asserted as a certified disagreement, so the
test fails if it ever starts agreeing.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import mpmath
import pytest
from mpmath import mp

from proofs_tests.peers.expectations import CASES, Case
from reference import get
from reference.core.errors import DomainError
from reference.results import covers

_IDS = sorted({c.result for c in CASES})


@cache
def _certified(result: str, params: tuple[tuple[str, Any], ...]) -> Any:
    return get(result).certified(**dict(params))


def _enclosure(case: Case) -> tuple[Any, Any]:
    """(lo, hi) of our certified enclosure of the case's quantity."""

    def one(params: tuple[tuple[str, Any], ...]) -> tuple[Any, Any]:
        out = _certified(case.result, params)
        if case.field is not None:
            out = getattr(out, case.field)
        return out.lo, out.hi

    lo, hi = one(case.params)
    if case.both_orders:
        swap = {"P": "Q", "Q": "P"}
        lo2, hi2 = one(tuple((swap.get(k, k), v) for k, v in case.params))
        lo, hi = max(lo, lo2), max(hi, hi2)
    return lo, hi


def _expected(case: Case) -> Any:
    x = case.expected
    return mp.mpf(x) if isinstance(x, str) else mp.mpf(float(x))  # type: ignore[arg-type]


def discrepancy(case: Case) -> tuple[Any, Any]:
    """(largest, smallest) distance from the peer's number to a point of our enclosure."""
    lo, hi = _enclosure(case)
    x = _expected(case)
    if mpmath.isinf(x) or mpmath.isinf(hi):
        same = mpmath.isinf(x) and lo == hi == x
        gap = mp.zero if same else mp.inf
        return gap, gap
    far = max(abs(x - lo), abs(x - hi))
    near = mp.zero if lo <= x <= hi else min(abs(x - lo), abs(x - hi))
    return far, near


def _verdict(case: Case) -> tuple[bool, bool, str]:
    """(certainly agrees, certainly disagrees, message) within the peer's tolerance."""
    tol = mp.mpf(case.tol)
    if case.check == "upper":
        lo, hi = _enclosure(case)
        x = _expected(case)
        msg = f"{case.label}: ours [{lo}, {hi}] vs peer's upper bound {x} (+{tol})"
        return hi <= x + tol, lo > x + tol, msg
    far, near = discrepancy(case)
    lo, hi = _enclosure(case)
    msg = (f"{case.label}: peer {case.expected}, ours [{lo}, {hi}], discrepancy "
           f"{mpmath.nstr(far, 3)} vs tol {case.tol:g} ({case.tol_rule})")
    return far <= tol, near > tol, msg


@covers(*_IDS)
@pytest.mark.parametrize("case", CASES, ids=[c.label for c in CASES])
def test_peer_expectation(case: Case) -> None:
    if case.check == "refused":
        with pytest.raises(DomainError):
            get(case.result).certified(**case.kwargs)
        return
    agrees, disagrees, msg = _verdict(case)
    if case.expected_disagreement is None:
        assert agrees, msg
    else:
        assert disagrees, "expected a disagreement (" + case.expected_disagreement + "): " + msg
        lo, hi = _enclosure(case)
        x = _expected(case)
        assert (x > hi) if case.peer_above else (x < lo), msg


def test_every_case_has_a_source_and_a_registered_result() -> None:
    for case in CASES:
        s = case.source
        assert s.peer and s.repo and s.path and s.test and len(s.commit) == 40, case
        assert get(case.result).id == case.result
        assert case.mapping and case.tol_rule and case.tol >= 0
        assert (case.expected is None) == (case.check == "refused"), case


def test_no_duplicate_cases() -> None:
    counts = Counter(c.key for c in CASES)
    assert [k for k, n in counts.items() if n > 1] == []


def test_enough_cases_from_enough_peers() -> None:
    peers = Counter(c.source.peer for c in CASES)
    assert len(CASES) >= 40 and len(peers) >= 4, peers


def test_disagreements_are_explained() -> None:
    for case in CASES:
        if case.expected_disagreement is not None:
            assert len(case.expected_disagreement) > 40 and case.check == "close", case
            assert case.peer_above is not None, case


def test_opendp_numbers_are_never_below_the_exact_value() -> None:
    """OpenDP rounds its privacy maps outward: each of its numbers is at least the exact one.

    Checked against our certified upper end, so a peer number below the exact value (an
    unsound rounding) fails here even when it lies within the 4-ulp reading of equality.
    """
    for case in CASES:
        if case.source.peer == "opendp" and case.check == "close":
            _, hi = _enclosure(case)
            assert _expected(case) >= hi, case.label
