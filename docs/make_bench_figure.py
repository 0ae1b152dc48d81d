"""Regenerate docs/figures/bench-composition.png and the tables of docs/speed.md from the
bench's JSON (needs the ``docs`` extra: matplotlib).

    python -m reference bench --out docs/bench.json     # one run, all peers installed
    python -m reference bench --results --out docs/bench-results.json
    python docs/make_bench_figure.py

The figure plots the time of exact optimal composition of k x 0.01-DP at delta = 1e-6
against k: ours (certified), and each peer on the same inputs in the same run (for
dp-accounting's PLD, its fastest setting within 1e-8 of the exact value and its fastest
setting overall).  The tables are written between the markers of docs/speed.md, so that
the page always shows the numbers of the committed JSON (a test checks it); so are the
summary of every result against its class's target and the results that miss it (from
``docs/bench-results.json``, between their own markers).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from reference.tools.bench import TARGET_MILLION_S, TARGET_REL
from reference.tools.bench_results import misses

HERE = Path(__file__).resolve().parent
DATA = HERE / "bench.json"
OUT = HERE / "figures" / "bench-composition.png"
PAGE = HERE / "speed.md"
START, END = "<!-- bench-tables -->", "<!-- /bench-tables -->"
RESULTS = HERE / "bench-results.json"
RESULTS_START, RESULTS_END = "<!-- results-tables -->", "<!-- /results-tables -->"


def series(data: dict[str, Any]) -> dict[str, list[tuple[int, float]]]:
    """``{label: [(k, seconds), ...]}`` of every timed line of the figure."""
    out: dict[str, list[tuple[int, float]]] = {
        "ours: exact, certified (KOV15:Thm3.3)": [(c["k"], c["certified_s"])
                                                  for c in data["composition"]]}
    within, fastest = [], []
    for pld in data["pld"]:
        done = [r for r in pld.get("runs", []) if "seconds" in r]
        good = [r["seconds"] for r in done if abs(r["relative_error"]) <= TARGET_REL]
        if good:
            within.append((pld["k"], min(good)))
        if done:
            fastest.append((pld["k"], min(r["seconds"] for r in done)))
    out[f"dp-accounting PLD, fastest within {TARGET_REL:g}"] = within
    out["dp-accounting PLD, fastest setting"] = fastest
    for row in data["peers"]:
        if "seconds" in row:
            out.setdefault(row["peer"], []).append((row["k"], row["seconds"]))
    return {label: points for label, points in out.items() if points}


def tables(data: dict[str, Any]) -> str:
    """The Markdown tables of the page: time and relative error per k and peer."""
    lines = ["| k | ours (certified) | peer | setting | peer time | peer / ours | "
             "peer's relative error |", "|---|---|---|---|---|---|---|"]
    ours = {c["k"]: c["certified_s"] for c in data["composition"]}
    for pld in data["pld"]:
        for r in pld.get("runs", []):
            if "seconds" in r:
                lines.append(f"| {pld['k']:,} | {ours[pld['k']] * 1e3:.3g} ms | dp-accounting "
                             f"PLD | {r['value_discretization_interval']:g}, "
                             f"{r['tail_mass_truncation']:g} | {r['seconds'] * 1e3:.3g} ms | "
                             f"{r['ratio']:.3g} | {r['relative_error']:+.1e} |")
    for row in data["peers"]:
        if "seconds" in row:
            lines.append(f"| {row['k']:,} | {ours[row['k']] * 1e3:.3g} ms | {row['peer']} | | "
                         f"{row['seconds'] * 1e3:.3g} ms | {row['ratio']:.3g} | "
                         f"{row['relative_error']:+.1e} |")
    target = data["target"]
    lines += ["", f"At k = 10,000: {target['note']}."]
    if "million_s" in target:
        lines.append(f"At k = 1,000,000: {target['million_s'] * 1e3:.3g} ms (the target is "
                     f"under {TARGET_MILLION_S * 1e3:.0f} ms).")
    return "\n".join(lines)


def page(text: str, data: dict[str, Any]) -> str:
    """``text`` with the tables between the markers replaced by those of ``data``."""
    return _splice(text, START, END, tables(data))


def results_page(text: str, data: dict[str, Any]) -> str:
    """``text`` with the every-result summary replaced by that of ``data``
    (``python -m reference bench --results`` JSON)."""
    return _splice(text, RESULTS_START, RESULTS_END, misses(data))


def _splice(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.loads(DATA.read_text(encoding="utf-8"))
    fig, ax = plt.subplots(figsize=(7.5, 4.6))
    for label, points in series(data).items():
        ks, secs = zip(*points, strict=True)
        within = "within" in label              # drawn over "fastest setting" where they agree
        ax.plot(ks, secs, marker="s" if within else "o", ls="--" if within else "-",
                mfc="none" if within else None, ms=9 if within else 6,
                lw=2.2 if label.startswith("ours") else 1.2, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("k (number of 0.01-DP mechanisms composed)")
    ax.set_ylabel("seconds (one run)")
    ax.set_title("Optimal composition at delta = 1e-6: time against k")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(OUT, dpi=110)
    text = page(PAGE.read_text(encoding="utf-8"), data)
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    PAGE.write_text(results_page(text, results), encoding="utf-8")
    print(f"wrote {OUT} and the tables of {PAGE}", file=sys.stderr)


if __name__ == "__main__":
    main()
