"""``python -m reference bench --results [--json] [--out FILE]``: every registered result at
its example inputs, plain and certified, each call from scratch, against the speed issue's
target for its cost class.

Each call is timed after :func:`reference.core.caches.forget_all` has dropped every memo
table, so a result that keeps what it computed (the DP-SGD PLD brackets, say) is timed at
its first call, not at a lookup.  The time reported is the median of at least
:data:`LEAST_CALLS` such calls (more while they fit in :data:`BUDGET_S`, at most
:data:`MOST_CALLS`), at the working precision (50 digits).

The cost classes (:mod:`reference.tools.cost_classes`) and their targets, from the speed
issue ("Certified answers at the speed of float libraries"):

- ``closed``: at most ``50 µs`` plain and ``200 µs`` certified;
- ``solved`` and ``optimised`` (a root or an extremum found by search): at most ``1 ms``
  certified;
- ``sized`` (work growing with an input: a list's length, ``k``, a series' length set by the
  inputs) and ``composed`` (a privacy-loss law composed on a grid): the issue asks at most
  ``1 s`` certified at every input of the documented domain, which one example cannot show;
  the table judges the example only (:mod:`reference.tools.sweep` draws inputs).

Absolute times on one machine, reported, never asserted in tests (a test checks the
judging on made-up rows).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from reference.core.caches import forget_all
from reference.core.numeric import get_dps
from reference.results import catalogue
from reference.tools.bench import emit
from reference.tools.cost_classes import COST_CLASSES

#: ``class: (plain, certified)`` upper limits in seconds (None: no target of that kind).
TARGETS: dict[str, tuple[float | None, float | None]] = {
    "closed": (50e-6, 200e-6),
    "solved": (None, 1e-3),
    "optimised": (None, 1e-3),
    "sized": (None, 1.0),
    "composed": (None, 1.0),
}
LEAST_CALLS, MOST_CALLS, BUDGET_S = 3, 41, 0.25


def from_scratch(call: Callable[[], Any], least: int = LEAST_CALLS, most: int = MOST_CALLS,
                 budget: float = BUDGET_S) -> float:
    """Median seconds of ``call()``, every memo table dropped before each call (not timed):
    at least ``least`` calls, then more while the total stays within ``budget`` seconds, at
    most ``most``."""
    times: list[float] = []
    while len(times) < least or (len(times) < most and sum(times) < budget):
        forget_all()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def judge(cost: str, plain_s: float, certified_s: float) -> bool:
    """Whether the times meet the target of ``cost`` (a key of :data:`TARGETS`)."""
    plain, certified = TARGETS[cost]
    return (plain is None or plain_s <= plain) and (certified is None or certified_s <= certified)


def time_results(ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One row per result (all registered ones by default): its cost class, the times of a
    plain and a certified call from scratch at its example inputs, and whether they meet the
    class's target; a result whose example raises gets the error instead of times."""
    wanted = None if ids is None else set(ids)
    rows = []
    for res in catalogue():
        if wanted is not None and res.id not in wanted:
            continue
        cost, why = COST_CLASSES[res.id]
        params = {p.name: p.example for p in res.params}
        row: dict[str, Any] = {"id": res.id, "class": cost, "why": why}
        try:
            row["plain_s"] = from_scratch(functools.partial(res, **params))
            row["certified_s"] = from_scratch(functools.partial(res.certified, **params))
        except Exception as err:  # reported, not raised: the table is about times
            row["error"] = f"{type(err).__name__}: {err}"[:200]
        else:
            row["met"] = judge(cost, row["plain_s"], row["certified_s"])
        rows.append(row)
    return rows


def summary(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per class: how many results, how many meet the target, how many raised."""
    out: dict[str, dict[str, int]] = {c: {"results": 0, "met": 0, "errors": 0} for c in TARGETS}
    for row in rows:
        counts = out[row["class"]]
        counts["results"] += 1
        counts["met"] += bool(row.get("met"))
        counts["errors"] += "error" in row
    return out


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs" if seconds < 0.1 else f"{seconds:.3g} s"


def _limit(seconds: float | None) -> str:
    return "-" if seconds is None else _us(seconds)


def _summary(data: dict[str, Any]) -> list[str]:
    lines = ["| class | target plain | target certified | results | met |",
             "|---|---|---|---|---|"]
    for cost, counts in data["summary"].items():
        plain, certified = TARGETS[cost]
        lines.append(f"| {cost} | {_limit(plain)} | {_limit(certified)} | "
                     f"{counts['results']} | {counts['met']} |")
    return lines


def _rows(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One line per row, by class (in :data:`TARGETS` order), slowest certified first."""
    lines = ["| id | class | plain | certified | target | what costs |",
             "|---|---|---|---|---|---|"]
    order = list(TARGETS)
    for row in sorted(rows, key=lambda r: (order.index(r["class"]),
                                           -r.get("certified_s", float("inf")))):
        if "error" in row:
            lines.append(f"| {row['id']} | {row['class']} | {row['error']} | | | |")
            continue
        verdict = "met" if row["met"] else "**not met**"
        lines.append(f"| {row['id']} | {row['class']} | {_us(row['plain_s'])} | "
                     f"{_us(row['certified_s'])} | {verdict} | {row['why']} |")
    return lines


def table(data: dict[str, Any]) -> str:
    """Markdown: the summary per class, then every result."""
    return "\n".join([f"# Every result at its example, from scratch ({data['dps']} digits)",
                      "", *_summary(data), "", *_rows(data["rows"])])


def misses(data: dict[str, Any]) -> str:
    """Markdown for the docs: the summary per class, then the results that miss their
    class's target or raised."""
    missed = [row for row in data["rows"] if not row.get("met")]
    return "\n".join([*_summary(data), "", *_rows(missed)])


def measure(ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The rows and their summary, JSON-ready."""
    rows = time_results(ids)
    return {"dps": get_dps(), "rows": rows, "summary": summary(rows)}


def run(args: argparse.Namespace) -> int:
    """``python -m reference bench --results``."""
    data = measure()
    return emit(args, data, lambda: table(data), indent=1)
