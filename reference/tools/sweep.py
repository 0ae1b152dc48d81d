"""``python -m reference bench --sweep [ID ...] [--draws N] [--alarm S] [--seed N] [--json]
[--out FILE]``:
certified evaluation of each result at drawn inputs of its documented domain, timed, to find
the inputs where a result is slow, fails or runs away (the speed issue asks at most 1 s
certified at every input; examples alone cannot show it).

Each result gets ``draws`` inputs, each from :func:`reference.oracle.strategies.valid_params`
(the middle of the domain) or :func:`~reference.oracle.strategies.extreme_params` (its
ends: 1e-300, next to 1, huge counts), drawn by Hypothesis derandomised (the same
inputs on every run of the same code; simple values first) or, with ``--seed``, at random
from that seed (larger counts, more of the middle), every memo table dropped before each
call (:func:`reference.core.caches.forget_all`).  A call that takes longer than ``alarm``
seconds is stopped (``SIGALRM``: POSIX, main thread) and reported as ``timeout``; a
``DomainError`` is a refusal (``refused``: the documented behaviour at a size limit); any
other exception is an ``error``.  The report lists, per result, the slowest draw and every
draw above :data:`SLOW_S` or not ``ok``/``refused``.  Needs the ``test`` extra
(Hypothesis).  Every result at 20 derandomised draws took about a minute here; random draws
meet the slow sizes more often and take longer (pass ids to look at a few).
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from reference.core.caches import forget_all
from reference.core.errors import DomainError
from reference.core.model import Result
from reference.results import catalogue, get
from reference.tools.bench import emit

#: A certified call slower than this is listed (the speed issue's "every input: <= 1 s").
SLOW_S = 1.0


class _Alarm(Exception):
    """Raised in the main thread when a call's alarm fires."""


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def fire(signum: int, frame: FrameType | None) -> None:
        raise _Alarm
    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def timed_call(res: Result[Any], params: dict[str, Any], alarm: float) -> dict[str, Any]:
    """One certified call from scratch: ``{"seconds", "status"}`` (``ok``, ``refused``,
    ``timeout`` or ``error``, the last two with ``detail``)."""
    forget_all()
    start = time.perf_counter()
    out: dict[str, Any] = {"status": "ok"}
    try:
        with _alarm(alarm):
            res.certified(**params)
    except _Alarm:
        out = {"status": "timeout", "detail": f"stopped after {alarm:g} s"}
    except DomainError as err:
        out = {"status": "refused", "detail": str(err)[:200]}
    except Exception as err:   # what the sweep looks for: reported, not raised
        out = {"status": "error", "detail": f"{type(err).__name__}: {err}"[:200]}
    out["seconds"] = time.perf_counter() - start
    return out


def draws_of(res: Result[Any], draws: int, seed: int | None = None) -> list[dict[str, Any]]:
    """``draws`` inputs of ``res``, valid or extreme: derandomised (Hypothesis starts from
    simple values: small counts, domain ends), or random from ``seed`` (reproducible; it
    reaches larger counts and more of the middle)."""
    from hypothesis import HealthCheck, Phase, given, settings  # the test extra, lazily
    from hypothesis import seed as seeded
    from hypothesis import strategies as st

    from reference.oracle.strategies import extreme_params, valid_params

    found: list[dict[str, Any]] = []
    kinds = st.sampled_from([valid_params(res), extreme_params(res)])

    @settings(max_examples=draws, derandomize=seed is None, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data: st.DataObject) -> None:
        if len(found) < draws:
            found.append(data.draw(data.draw(kinds)))
    (collect if seed is None else seeded(seed)(collect))()
    return found


def _shown(params: dict[str, Any]) -> dict[str, str]:
    """The draw as strings, in full (a draw to reproduce: ``python -m reference value``)."""
    return {k: str(v) for k, v in params.items()}


def _short(params: dict[str, str]) -> str:
    return ", ".join(f"{k}={v if len(v) <= 40 else v[:37] + '...'}" for k, v in params.items())


def sweep(ids: Iterable[str] | None = None, draws: int = 10, alarm: float = 30.0,
          seed: int | None = None) -> list[dict[str, Any]]:
    """One row per result: its draws, the slowest one, and the listed ones (above
    :data:`SLOW_S` or neither ``ok`` nor ``refused``)."""
    chosen = [get(rid) for rid in ids] if ids else list(catalogue())
    rows = []
    for res in chosen:
        calls = [(params, timed_call(res, params, alarm))
                 for params in draws_of(res, draws, seed)]
        if not calls:
            rows.append({"id": res.id, "draws": 0, "listed": []})
            continue
        slowest = max(calls, key=lambda c: c[1]["seconds"])
        listed = [{"params": _shown(p), **out} for p, out in calls
                  if out["seconds"] > SLOW_S or out["status"] not in ("ok", "refused")]
        rows.append({"id": res.id, "draws": len(calls),
                     "refused": sum(out["status"] == "refused" for _, out in calls),
                     "slowest_s": slowest[1]["seconds"], "slowest": _shown(slowest[0]),
                     "listed": listed})
    return rows


def table(rows: list[dict[str, Any]], draws: int, alarm: float) -> str:
    """Markdown: per result its slowest draw, then every listed draw."""
    lines = [f"# Sweep: {draws} draws a result, certified, from scratch (alarm {alarm:g} s)",
             "", "| id | draws | refused | slowest | at |", "|---|---|---|---|---|"]
    for row in rows:
        if not row["draws"]:
            lines.append(f"| {row['id']} | 0 | | | |")
            continue
        lines.append(f"| {row['id']} | {row['draws']} | {row['refused']} | "
                     f"{row['slowest_s']:.3g} s | {_short(row['slowest'])} |")
    listed = [(row["id"], item) for row in rows for item in row["listed"]]
    lines += ["", f"## Draws above {SLOW_S:g} s, stopped or failing: {len(listed)}", ""]
    lines += [f"- {rid} {item['status']} {item['seconds']:.3g} s at {_short(item['params'])}"
              + (f": {item['detail']}" if "detail" in item else "") for rid, item in listed]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """``python -m reference bench --sweep``."""
    draws, alarm = int(args.draws), float(args.alarm)
    seed = getattr(args, "seed", None)
    rows = sweep(getattr(args, "ids", None) or None, draws, alarm, seed)
    return emit(args, {"draws": draws, "alarm_s": alarm, "seed": seed, "rows": rows},
                lambda: table(rows, draws, alarm), indent=1)
