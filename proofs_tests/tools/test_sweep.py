"""``python -m reference bench --sweep``: each call's status (ok, refused, timeout, error) and
time, derandomised draws of the oracle's strategies, and the rows and table built from them."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import time
from typing import Any

from reference.core import caches
from reference.core.errors import DomainError
from reference.results import get
from reference.tools import cli, sweep


class _Stub:
    """A stand-in for a result: ``certified`` does what the test asks."""

    def __init__(self, action: Any) -> None:
        self.action = action

    def certified(self, **params: Any) -> Any:
        return self.action(**params)


def _call(action: Any, alarm: float = 5.0) -> dict[str, Any]:
    return sweep.timed_call(_Stub(action), {"x": 1}, alarm)  # type: ignore[arg-type]


def test_each_status() -> None:
    def refuse(x: int) -> None:
        raise DomainError("x", x, "must be 2", "stub")

    def fail(x: int) -> None:
        raise ZeroDivisionError("deep inside")

    ok = _call(lambda x: x + 1)
    assert ok["status"] == "ok" and "detail" not in ok and 0 <= ok["seconds"] < 5
    refused = _call(refuse)
    assert refused["status"] == "refused" and "must be 2" in refused["detail"]
    error = _call(fail)
    assert error["status"] == "error" and error["detail"] == "ZeroDivisionError: deep inside"
    start = time.perf_counter()
    stopped = _call(lambda x: time.sleep(3), alarm=0.2)
    assert stopped["status"] == "timeout" and "0.2 s" in stopped["detail"]
    assert 0.2 <= stopped["seconds"] < 2 and time.perf_counter() - start < 2


def test_the_alarm_is_cleared_after_each_call() -> None:
    """A call that finishes, or is stopped, leaves no timer armed and the previous SIGALRM
    handler back in place."""
    before = signal.getsignal(signal.SIGALRM)
    for action in (lambda x: None, lambda x: time.sleep(1)):
        _call(action, alarm=0.1)
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is before


def test_every_call_starts_from_scratch(monkeypatch: Any) -> None:
    monkeypatch.setattr(caches, "_CLEARS", [])
    kept: dict[str, int] = {}
    caches.kept(kept.clear)
    seen = []

    def remember(x: int) -> None:
        seen.append(dict(kept))
        kept["x"] = x
    for _ in range(3):
        _call(remember)
    assert seen == [{}, {}, {}]


def test_draws_are_derandomised_valid_and_extreme() -> None:
    res = get("RSWR23:Lem2.3")
    first, second = sweep.draws_of(res, 12), sweep.draws_of(res, 12)
    assert first == second and len(first) == 12
    assert all(set(d) == {"rho", "delta"} for d in first)
    assert len({str(d) for d in first}) > 6       # not one input repeated


def test_seeded_draws_are_reproducible_and_differ() -> None:
    res = get("RSWR23:Lem2.3")
    a, b, c = (sweep.draws_of(res, 12, seed) for seed in (1, 1, 2))
    assert a == b and len(a) == 12 and a != c and a != sweep.draws_of(res, 12)


def test_rows_list_the_slow_and_the_failing(monkeypatch: Any) -> None:
    rows = sweep.sweep(["BS16:Prop1.4"], draws=4, alarm=10)
    [row] = rows
    assert row["id"] == "BS16:Prop1.4" and row["draws"] == 4 and row["listed"] == []
    assert 0 < row["slowest_s"] < sweep.SLOW_S and set(row["slowest"]) == {"eps"}
    monkeypatch.setattr(sweep, "SLOW_S", -1.0)     # every draw is "slow" now
    [row] = sweep.sweep(["BS16:Prop1.4"], draws=4, alarm=10)
    assert len(row["listed"]) == 4 and all(item["status"] in ("ok", "refused")
                                          for item in row["listed"])
    text = sweep.table([row], 4, 10)
    assert "| BS16:Prop1.4 | 4 |" in text and "stopped or failing: 4" in text


def test_the_command_line_runs_it() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["bench", "--sweep", "BS16:Prop1.4", "--draws", "2", "--json"]) == 0
    data = json.loads(out.getvalue())
    assert data["draws"] == 2 and [row["id"] for row in data["rows"]] == ["BS16:Prop1.4"]
