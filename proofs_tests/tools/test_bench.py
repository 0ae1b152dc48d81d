"""``python -m reference bench --quick --json`` runs in seconds and has the documented shape."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
from typing import Any

import mpmath

from reference.tools import bench

_QUICK: dict[str, Any] = {}


def test_quick_bench_json_shape() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = bench.run(argparse.Namespace(json=True, quick=True))
    assert code == 0
    data = json.loads(out.getvalue())
    _QUICK.update(data)
    assert set(data) == {"dps", "quick", "bounds", "composition", "pld", "target",
                         "entry_points"}
    entry = data["entry_points"]
    assert set(entry["median_s"]) == {"import mpmath", "import reference", "value"}
    assert entry["import_ratio"] > 0 and entry["value_ratio"] > 0   # no timing thresholds
    assert data["quick"] is True and data["dps"] == 50
    ids = {row["id"] for row in data["bounds"]}
    assert {"CKS20:Cor13", "BW18:Thm8", "KOV15:Thm3.3-delta"} <= ids
    for row in data["bounds"]:
        assert row["point_s"] > 0 and row["certified_s"] > 0
    [comp] = data["composition"]
    assert comp["k"] == 1000 and comp["holds"] is True and comp["bracket_width"] < 1e-40
    # independent route: dp-accounting's PLD accountant (interval 1e-3, tails 1e-15 and
    # 1e-30) gives 1.3654467108 and 1.36544670941 for this composition
    assert abs(mpmath.mpf(comp["epsilon"]) - mpmath.mpf("1.3654467101")) < 2e-9
    [pld] = data["pld"]
    assert pld["k"] == 1000
    if pld["available"]:
        for run in pld["runs"]:
            if "relative_error" in run:
                assert abs(run["relative_error"]) < 1e-6
    assert data["target"]["met"] in (True, False, None) and data["target"]["note"]


def test_bench_table_mentions_target() -> None:
    data = _QUICK or bench.measure(quick=True)
    text = bench._table(data)
    assert "Exact optimal composition" in text and "Target" in text and "Start-up" in text


def test_target_verdicts_on_synthetic_runs() -> None:
    comp = {"k": 10**4, "certified_s": 0.7}
    run = {"seconds": 0.02, "value_discretization_interval": 1e-3, "tail_mass_truncation": 1e-30}
    # no setting reaches 1e-9: "met" only vacuously, and the note says PLD was faster
    missed = bench._target(comp, {"available": True, "runs": [dict(run, relative_error=-2e-9)]})
    assert missed["met"] is True and missed["vacuous"] is True and "35x faster" in missed["note"]
    # a setting reaches it faster than the exact value: not met
    hit = bench._target(comp, {"available": True, "runs": [dict(run, relative_error=5e-10)]})
    assert hit["met"] is False and not hit.get("vacuous")
    # reached, but slower than the exact value: met
    slow = bench._target(comp, {"available": True,
                                "runs": [dict(run, seconds=2.0, relative_error=5e-10)]})
    assert slow["met"] is True and not slow.get("vacuous")
    assert bench._target(comp, {"available": False})["met"] is None
