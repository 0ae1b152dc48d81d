"""No timing of the bench got slower than the committed baseline (``docs/bench.json``).

Timings are compared as ratios, never as absolute times: each is a multiple of a fixed
mpmath workload timed in the same process (``bench.calibrate``), and may be at most
``bench.REGRESSION_FACTOR`` times its baseline multiple (timings on a shared 2-core machine
vary by up to 2x between runs).  Regenerate the baseline with
``python -m reference bench --out docs/bench.json`` after a change that is meant to cost time.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from reference.results import catalogue
from reference.tools import bench

DOCS = Path(__file__).resolve().parents[2] / "docs"
BASELINE = json.loads((DOCS / "bench.json").read_text(encoding="utf-8"))


def test_bounds_and_composition_are_no_slower_than_the_baseline() -> None:
    unit = bench.calibrate(5)
    current = {"bounds": bench.time_bounds(5, unit),
               "composition": [bench.exact_composition(k, unit, 3) for k in (10**3, 10**4)]}
    assert {row["id"] for row in current["bounds"]} <= {row["id"] for row in BASELINE["bounds"]}
    assert bench.regressions(current, BASELINE) == []


def test_a_slower_timing_is_reported() -> None:
    """Power check: 5x the baseline is reported for a bound and a composition, 3x is not."""
    row = BASELINE["bounds"][0]
    comp = BASELINE["composition"][0]
    slow = {"bounds": [dict(row, certified_units=5 * row["certified_units"])],
            "composition": [dict(comp, certified_units=5 * comp["certified_units"])]}
    found = bench.regressions(slow, BASELINE)
    assert len(found) == 2 and row["id"] in found[0] and "certified_units" in found[0]
    assert f"k={comp['k']}" in found[1]
    fine = {"bounds": [dict(row, point_units=3 * row["point_units"])],
            "composition": [dict(comp, certified_units=3 * comp["certified_units"])]}
    assert bench.regressions(fine, BASELINE) == []


def test_the_speed_page_shows_the_committed_numbers() -> None:
    """docs/speed.md's tables are those ``docs/make_bench_figure.py`` renders from
    docs/bench.json (run it after regenerating the JSON)."""
    spec = importlib.util.spec_from_file_location("make_bench_figure",
                                                  DOCS / "make_bench_figure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (DOCS / "speed.md").read_text(encoding="utf-8")
    assert module.page(text, BASELINE) == text, "run python docs/make_bench_figure.py"
    lines = module.series(BASELINE)
    assert {"ours: exact, certified (KOV15:Thm3.3)", "dp-accounting PLD, fastest setting"} <= set(
        lines)
    assert [k for k, _ in lines["ours: exact, certified (KOV15:Thm3.3)"]] == [
        10**3, 10**4, 10**5, 10**6, 10**7]


def test_the_speed_page_shows_the_committed_per_result_summary() -> None:
    """docs/speed.md's summary of every result against its class's target, and its list of
    the results that miss it, are those rendered from docs/bench-results.json (``python -m
    reference bench --results --out docs/bench-results.json``, then the figure script), and
    that JSON covers every registered result once."""
    spec = importlib.util.spec_from_file_location("make_bench_figure",
                                                  DOCS / "make_bench_figure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = json.loads((DOCS / "bench-results.json").read_text(encoding="utf-8"))
    text = (DOCS / "speed.md").read_text(encoding="utf-8")
    assert module.results_page(text, data) == text, "run python docs/make_bench_figure.py"
    assert sorted(row["id"] for row in data["rows"]) == sorted(r.id for r in catalogue())
