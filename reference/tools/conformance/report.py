"""Markdown and JSON reports of a conformance run.

The markdown starts with the command, the library versions and how to read a verdict,
then lists the findings the harness made (under-reported values, errors, disagreeing
entry points of one library, composition theorems used as filters), then every outcome
by capability.  It contains no interactive-session prompts, so the docs' doctest
collection finds nothing to run in it.
"""

from __future__ import annotations

import math
import platform
from typing import Any

import mpmath

from reference.tools.conformance.cases import CAPABILITIES
from reference.tools.conformance.harness import Run
from reference.tools.conformance.model import Grade, Outcome

#: Under-reports smaller than this (relative) are floating-point rounding.
ROUNDING = 1e-12

LEGEND = """\
Each number a library returns is compared, exactly, with certified interval enclosures
(`reference.certified`) of registered results evaluated on the very floats the library
received:

* **sound**: at least the certified upper end of the best value we can prove valid;
  *tight-to* is its relative excess over that value (0 = as tight as the proof).
* **UNSOUND**: strictly below the certified lower end of the true value (an
  under-reported epsilon, or a filter admitting more rounds than even fixed parameters
  allow). Shortfalls below 1e-12 relative are marked *(rounding)*.
* **undecided**: neither, e.g. inside the enclosure, between the Gaussian floor and the best
  proven zCDP conversion, or a filter admitting more rounds than any proven *filter*
  theorem while a fixed-parameter *composition* theorem would allow them.
* **error**: an exception, NaN or an infinity. **no-reference**: the reference result is
  not registered. **skipped**: the library is not installed or does not import.

Composition theorems (parameters fixed in advance: `NonAdaptive`/`Adaptive`) and filter
theorems (parameters chosen adaptively: `FullyAdaptive`) are distinct types; a filter
case is judged against proven filters, with the fixed-parameter optimum as the line
past which a library is unsound. For filters, *tight-to* is the fraction of the proven
filter's rounds the library does not use (negative: it admits more).

UNSOUND findings are results about other libraries, not failures of the harness: the
command exits 0 unless the harness itself fails."""


def _value(v: float | int | None) -> str:
    if v is None:
        return "-"
    return str(v) if isinstance(v, int) else repr(float(v))


def _tight(o: Outcome) -> str:
    if o.tight_to is None:
        return "-"
    return "0" if o.tight_to == 0 else f"{o.tight_to:+.3g}"


def _verdict(o: Outcome) -> str:
    if o.verdict is Grade.UNSOUND and o.tight_to is not None and abs(o.tight_to) < ROUNDING:
        return "UNSOUND (rounding)"
    return str(o.verdict)


def _shortfall(o: Outcome) -> str:
    if o.tight_to is None:
        return "-"
    return f"{-o.tight_to:.3g} relative" + (", rounding" if abs(o.tight_to) < ROUNDING else "")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def findings(run: Run) -> list[str]:
    """Bullet lines: what a reader should look at first."""
    lines: list[str] = []
    unsound: dict[tuple[str, str], list[Outcome]] = {}
    for o in sorted((o for o in run.outcomes if o.verdict is Grade.UNSOUND),
                    key=lambda o: o.tight_to if o.tight_to is not None else 0.0):
        unsound.setdefault((o.library, o.api), []).append(o)
    for (lib, api), group in unsound.items():
        shown = "; ".join(f"at {o.case} returned {_value(o.value)} against {o.reference} "
                          f"(shortfall {_shortfall(o)})" for o in group)
        lines.append(f"**UNSOUND** {lib} `{api}`: {shown}.")
    errors: dict[tuple[str, str], list[Outcome]] = {}
    for o in run.outcomes:
        if o.verdict is Grade.ERROR:
            errors.setdefault((o.library, o.api), []).append(o)
    for (lib, api), group in errors.items():
        where = ", ".join(o.case for o in group)
        lines.append(f"**error** {lib} `{api}` at {where}: {group[0].detail}.")
    for o in run.outcomes:
        if o.capability == "filter" and o.verdict is Grade.UNDECIDED:
            lines.append(f"**filter vs composition** {o.library} `{o.api}` at {o.case}: "
                         f"{o.detail}. Reference: {o.reference}.")
    lines.extend(_disagreements(run))
    return lines


def _disagreements(run: Run) -> list[str]:
    """One library, one case, several entry points that disagree (an error, or values
    more than 1e-6 apart relative)."""
    groups: dict[tuple[str, str, str], list[Outcome]] = {}
    for o in run.outcomes:
        if o.verdict is not Grade.SKIPPED:
            groups.setdefault((o.library, o.capability, o.case), []).append(o)
    lines = []
    for (lib, _cap, case), group in groups.items():
        if len(group) < 2:
            continue
        values = [o.value for o in group if o.verdict is not Grade.ERROR or o.value is not None]
        nums = [float(v) for v in values if v is not None]
        spread = (max(nums) - min(nums)) / max(abs(max(nums)), 1e-300) if nums else 0.0
        mixed = len({o.verdict for o in group}) > 1
        if mixed and (spread > 1e-6 or any(o.verdict is Grade.ERROR for o in group)):
            shown = "; ".join(f"`{o.api}` -> {_value(o.value)} ({_verdict(o)})" for o in group)
            lines.append(f"**inconsistent entry points** {lib} at {case}: {shown}.")
    return lines


def markdown(run: Run, command: str) -> str:
    """The whole report as markdown."""
    out = ["# Conformance report", "",
           f"Generated by `{command}` (Python {platform.python_version()}, mpmath "
           f"{mpmath.__version__}; "
           f"{len(run.outcomes)} outcomes in {run.seconds:.0f} s). To regenerate the copy in "
           "`docs/conformance-report.md`, install the libraries (`pip install -e "
           "'.[conformance]'`, and confseq as in the table), run `python -m reference "
           "conformance --out DIR` and copy `DIR/report.md`.", "",
           "| library | version | status | install |", "|---|---|---|---|"]
    for st in run.libraries:
        state = "ran" if st.available else f"skipped: {_cell(st.reason)}"
        out.append(f"| [{st.name}]({st.url}) | {st.version} | {state} | {_cell(st.hint)} |")
    out += ["", "## How to read it", "", LEGEND, "", "## Findings", ""]
    found = findings(run)
    out += [f"* {line}" for line in found] if found else ["None."]
    counts = _counts(run)
    out += ["", "Verdicts: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v) + ".", ""]
    for cap, text in CAPABILITIES.items():
        rows = [o for o in run.outcomes if o.capability == cap]
        if not rows:
            continue
        out += [f"## {cap}", "", f"Capability: {text}.", "",
                "| library | entry point | case | value | verdict | tight-to | reference | "
                "detail | implements |", "|---|---|---|---|---|---|---|---|---|"]
        for o in rows:
            out.append(f"| {o.library} | `{_cell(o.api)}` | {o.case} | {_value(o.value)} | "
                       f"{_verdict(o)} | {_tight(o)} | {_cell(o.reference)} | "
                       f"{_cell(o.detail)} | {_cell(o.formula) or '-'} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _counts(run: Run) -> dict[str, int]:
    return {str(v): sum(o.verdict is v for o in run.outcomes) for v in Grade}


def _json_number(v: float | int | None) -> float | int | str | None:
    """Numbers as JSON allows them: non-finite floats become strings ("inf", "nan")."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def as_json(run: Run, command: str) -> dict[str, Any]:
    """The run as JSON-ready data (stable keys)."""
    return {
        "command": command,
        "python": platform.python_version(),
        "mpmath": mpmath.__version__,
        "seconds": round(run.seconds, 3),
        "libraries": [{"name": s.name, "dist": s.dist, "version": s.version,
                       "available": s.available, "reason": s.reason} for s in run.libraries],
        "counts": _counts(run),
        "findings": findings(run),
        "outcomes": [{"library": o.library, "version": o.version, "capability": o.capability,
                      "case": o.case, "api": o.api, "theorem": o.theorem,
                      "verdict": str(o.verdict), "value": _json_number(o.value),
                      "tight_to": o.tight_to,
                      "reference": o.reference, "reference_ids": list(o.reference_ids),
                      "detail": o.detail, "formula": o.formula,
                      "seconds": round(o.seconds, 4)}
                     for o in run.outcomes],
    }
