"""Which variable the prover splits when no split makes progress: the rule that keeps a
split lifting the bound by a hair from being repeated for ever.  Expected values are worked
out by hand (shares of ranges in log2 or linear measure, thresholds of 1/64)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest

from reference.core import prover
from reference.core.prover import _progress, _share, _split
from reference.core.relations import relation

F = Fraction


def _two(log_scale: tuple[str, ...] = (), **domain: tuple[object, object]) -> Any:
    return relation("TEST:two", kind="ordering", statement="s", uses=(), source="test",
                    domain=domain, log_scale=log_scale)(lambda ctx, x, y: x + y)


def test_share_of_a_range_linear_and_in_log2() -> None:
    rel = _two(("y",), x=(-1, 1), y=(1, 1024))
    box = {"x": (F(0), F(1, 2)), "y": (F(2), F(8))}
    assert _share(rel, box, "x") == 0.25                 # 1/2 of a range 2 wide
    assert _share(rel, box, "y") == pytest.approx(0.2, rel=1e-15)    # log2(4) / log2(1024)
    assert _share(rel, rel.box(), "x") == 1.0 and _share(rel, rel.box(), "y") == 1.0
    fine = _two(("y",), x=(0, 1), y=(F(1, 1024), 1))    # ends with denominators
    assert _share(fine, {"x": (F(0), F(1)), "y": (F(1, 8), F(1, 2))}, "y") == \
        pytest.approx(0.2, rel=1e-15)                       # log2(4) / log2(1024)
    assert _share(fine, {"x": (F(0), F(1)), "y": (F(3, 8), F(3, 4))}, "y") == \
        pytest.approx(0.1, rel=1e-15)                       # log2(2) / log2(1024)


def test_share_in_log2_of_huge_and_tiny_ends() -> None:
    """Ends far outside the float range: log2 is taken of the integers, not of a float."""
    rel = _two(("y",), x=(0, 1), y=(F(1, 10**400), F(10**400)))
    got = _share(rel, {"x": (F(0), F(1)), "y": (F(1), F(2))}, "y")
    with mpmath.workdps(30):
        want = 1 / (800 * mpmath.log(10, 2))             # log2(2) / log2(10^800)
    assert got == pytest.approx(float(want), rel=1e-12)


@pytest.mark.parametrize(("score", "bound", "expected"), [
    (None, F(-1), False), (None, None, False),            # an undefined half: no progress
    (F(-5), None, True),                                  # the box itself was undefined
    (F(-127), F(-64), False),                             # lifts by 1 = 64/64: not more
    (F(-127) + F(1, 10**9), F(-64), True),                # just more than 1/64 of it
    (F(0), F(0), False), (F(1, 10**30), F(0), True),      # a bound of 0: any lift counts
    (F(3), F(1), True), (F(2), F(1), False),              # positive bounds alike
])
def test_progress_is_a_lift_of_more_than_one_64th(score: Fraction | None,
                                                   bound: Fraction | None,
                                                   expected: bool) -> None:
    assert _progress(score, bound) is expected


def _patched(monkeypatch: pytest.MonkeyPatch, lower: Any) -> None:
    """Halves get the lower bound ``lower(box)`` and no proof."""
    monkeypatch.setattr(prover, "_attempt", lambda rel, box: (None, lower(box), {}))


def test_a_hair_of_progress_gives_way_to_the_widest_variable(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Splitting x lifts the bound -1 by 1/1000 per half, y lifts nothing: y, with all of
    its range left (x has half), is split; the sum-of-bounds rule alone picks x."""
    rel = _two(x=(0, 2), y=(0, 1))
    box = {"x": (F(0), F(1)), "y": (F(0), F(1))}
    _patched(monkeypatch, lambda b: F(-1) + (F(1, 1000) if b["x"][1] - b["x"][0] < 1 else 0))
    assert _split(rel, box, {}, F(-1))[0] == "y"
    assert _split(rel, box, {}, None)[0] == "x"          # no bound to compare: the best sum


def test_real_progress_keeps_the_best_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """x lifts the bound -1 by 1/32 per half (1/16 in all, more than 1/64): x is split even
    though y has more of its range left."""
    rel = _two(x=(0, 2), y=(0, 1))
    box = {"x": (F(0), F(1)), "y": (F(0), F(1))}
    _patched(monkeypatch, lambda b: F(-1) + (F(1, 32) if b["x"][1] - b["x"][0] < 1 else 0))
    assert _split(rel, box, {}, F(-1))[0] == "x"


def test_without_progress_equal_shares_split_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    rel = _two(x=(0, 1), y=(0, 1))
    _patched(monkeypatch, lambda b: F(-1))
    assert _split(rel, rel.box(), {}, F(-1))[0] == "x"
    box = {"x": (F(0), F(1, 2)), "y": (F(0), F(1))}
    assert _split(rel, box, {}, F(-1))[0] == "y"
    _patched(monkeypatch, lambda b: None)                 # undefined halves: the widest too
    assert _split(rel, box, {}, F(-1))[0] == "y"


def test_without_progress_a_monotone_variable_is_still_not_split(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback chooses among the variables the margin is not monotone in."""
    rel = _two(x=(0, 1), y=(0, 1))
    box = {"x": (F(0), F(1, 8)), "y": (F(0), F(1))}
    _patched(monkeypatch, lambda b: F(-1))
    assert _split(rel, box, {"y": "lo"}, F(-1))[0] == "x"


def test_the_later_variable_with_the_best_sum_is_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """y lifts the bound -1 by 1/32 per half, x lifts nothing: y, the second variable tried,
    has the best sum and real progress, and is split (a rule that kept the first option,
    or compared badly, would split x: both have all of their ranges left)."""
    rel = _two(x=(0, 1), y=(0, 1))
    _patched(monkeypatch, lambda b: F(-1) + (F(1, 32) if b["y"][1] - b["y"][0] < 1 else 0))
    assert _split(rel, rel.box(), {}, F(-1))[0] == "y"
    assert _split(rel, rel.box(), {}, None)[0] == "y"
