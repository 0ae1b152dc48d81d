"""``python -m reference bench --results``: every result classified, every call from scratch,
the targets judged on both sides of their limits (made-up times: no timing thresholds)."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

from reference.core import caches
from reference.results import catalogue, get
from reference.tools import bench_results as br
from reference.tools import cli
from reference.tools.cost_classes import COST_CLASSES


def test_every_registered_result_has_one_cost_class() -> None:
    ids = [res.id for res in catalogue()]
    assert sorted(COST_CLASSES) == sorted(ids)
    for rid, (cost, why) in COST_CLASSES.items():
        assert cost in br.TARGETS, rid
        assert len(why) > 10, rid


def test_inverses_are_solved_and_the_pld_results_composed() -> None:
    for res in catalogue():
        if res.inverse is not None:
            assert COST_CLASSES[res.id][0] == "solved", res.id
    for rid in ("DPSGD:eps", "DPSGD:delta", "DPSGD:eps-wor", "DPSGD:delta-wor"):
        assert COST_CLASSES[rid][0] == "composed"


@pytest.mark.parametrize(("cost", "plain", "certified", "met"), [
    ("closed", 50e-6, 200e-6, True),
    ("closed", 50.001e-6, 1e-6, False),
    ("closed", 1e-6, 200.001e-6, False),
    ("solved", 5.0, 1e-3, True),          # no plain target: an inverse's plain call certifies
    ("solved", 1e-6, 1.001e-3, False),
    ("optimised", 1e-6, 1e-3, True),
    ("optimised", 1e-6, 1.001e-3, False),
    ("sized", 9.0, 1.0, True),
    ("sized", 1e-6, 1.001, False),
    ("composed", 1e-6, 1.001, False),
])
def test_judge_at_and_past_each_limit(cost: str, plain: float, certified: float,
                                      met: bool) -> None:
    assert br.judge(cost, plain, certified) is met


def test_from_scratch_drops_the_tables_before_every_call(monkeypatch: Any) -> None:
    monkeypatch.setattr(caches, "_CLEARS", [])
    table: dict[str, int] = {}
    seen: list[int] = []
    caches.kept(table.clear)

    def call() -> None:
        seen.append(len(table))   # what the call finds kept
        table["x"] = 1
    br.from_scratch(call, least=3, most=50, budget=0.0)
    assert seen == [0, 0, 0]      # exactly `least` calls when the budget is spent
    seen.clear()
    br.from_scratch(call, least=2, most=7, budget=1e9)
    assert seen == [0] * 7        # at most `most`


def test_from_scratch_is_the_median() -> None:
    ticks = iter([0.0, 1.0, 10.0, 13.0, 20.0, 20.5])   # calls of 1, 3 and 0.5 s

    def clock() -> float:
        return next(ticks)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(br.time, "perf_counter", clock)
        assert br.from_scratch(lambda: None, least=3, most=3, budget=0.0) == 1.0


def test_forget_all_empties_the_results_memo_tables() -> None:
    from reference.results.composition import kov15_sums
    from reference.results.dpsgd import mtz19, rdp_minimum
    get("KOV15:Thm3.3")(eps="0.01", k=1000, delta_g="1e-6")
    get("MTZ19:rdp")(q="0.01", sigma="1", alpha="2.5")
    get("DPSGD:eps-rdp")(q="0.01", sigma="1", steps=10, delta="1e-5")
    assert kov15_sums._CACHE and mtz19._left_tail.cache_info().currsize > 0
    assert rdp_minimum._ORDERS
    caches.forget_all()
    assert not kov15_sums._CACHE and not rdp_minimum._ORDERS
    for table in (mtz19._left_tail, mtz19._z0_at, mtz19.cvz_weights):
        assert table.cache_info().currsize == 0


def test_rows_summary_and_table_of_two_results() -> None:
    data = br.measure(["RSWR23:Lem2.3", "KOV15:Thm3.3"])
    rows = {row["id"]: row for row in data["rows"]}
    assert set(rows) == {"RSWR23:Lem2.3", "KOV15:Thm3.3"}
    for row in rows.values():
        assert row["plain_s"] > 0 and row["certified_s"] > 0
        assert row["met"] is br.judge(row["class"], row["plain_s"], row["certified_s"])
        assert row["class"] == COST_CLASSES[row["id"]][0]
    counts = data["summary"]
    assert sum(c["results"] for c in counts.values()) == 2
    assert counts[rows["KOV15:Thm3.3"]["class"]]["results"] >= 1
    text = br.table(data)
    assert "| KOV15:Thm3.3 | solved |" in text and "| RSWR23:Lem2.3 |" in text


def test_summary_counts_errors_and_misses() -> None:
    rows = [{"id": "a", "class": "closed", "met": True},
            {"id": "b", "class": "closed", "met": False},
            {"id": "c", "class": "sized", "error": "DomainError: x"}]
    counts = br.summary(rows)
    assert counts["closed"] == {"results": 2, "met": 1, "errors": 0}
    assert counts["sized"] == {"results": 1, "met": 0, "errors": 1}
    assert "DomainError: x" in br.table({"dps": 50, "rows": rows[2:], "summary": counts})


def test_the_command_line_runs_it(monkeypatch: Any) -> None:
    real = br.measure
    monkeypatch.setattr(br, "measure", lambda: real(["BS16:Prop1.4"]))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["bench", "--results", "--json"]) == 0
    data = json.loads(out.getvalue())
    assert [row["id"] for row in data["rows"]] == ["BS16:Prop1.4"]
