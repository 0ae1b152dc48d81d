"""Markdown and JSON reports of a conformance run.

The markdown starts with the date, the command, the Python, mpmath and library versions,
then a library x capability table of severities (:mod:`.summary`, levels in
:mod:`.severity`) and how to read a verdict, then the findings grouped by severity
(under-reported values, rounding-size shortfalls, errors, loose bounds, composition
theorems used as filters, disagreeing entry points of one library), then every outcome
by capability and library.  It contains no interactive-session prompts, so the docs' doctest
collection finds nothing to run in it.
"""

from __future__ import annotations

import math
import platform
from typing import Any

import mpmath

from reference.tools.conformance import dpsgd_report
from reference.tools.conformance.cases import CAPABILITIES
from reference.tools.conformance.harness import Run
from reference.tools.conformance.model import Grade, Outcome
from reference.tools.conformance.severity import LOOSE, ROUNDING, Severity, severity
from reference.tools.conformance.summary import (
    anchor,
    capabilities,
    cell,
    findings,
    html_anchor,
    library_anchor,
    table,
)

LEGEND = f"""\
Each number a library returns is compared, exactly, with certified interval enclosures
(`reference.certified`) of registered results evaluated on the very floats the library
received. The *verdict* column says what is proven about the number:

* **sound**: at least the certified upper end of the best value we can prove valid;
  *tight-to* is its relative excess over that value (0 = as tight as the proof).
* **UNSOUND**: strictly below the certified lower end of the true value (an
  under-reported epsilon, or a filter admitting more rounds than even fixed parameters
  allow); *tight-to* is then minus the shortfall below the true value's lower end.
* **undecided**: neither, e.g. inside the enclosure, between the Gaussian floor and the best
  proven zCDP conversion, or a filter admitting more rounds than any proven *filter*
  theorem while a fixed-parameter *composition* theorem would allow them.
* **error**: an exception, NaN or an infinity. **no-reference**: the reference result is
  not registered. **skipped**: the library is not installed or does not import.

The *severity* column (and the summary table) adds how far off a number is, from its
verdict and *tight-to* only: UNSOUND is **unsound** when the shortfall exceeds {ROUNDING:g}
relative and **unsound within rounding** when it is at most that; sound is **loose** when
*tight-to* exceeds {LOOSE:.0%} and **tight** otherwise; error is **error**; undecided and
no-reference are **undecided**; skipped is **skipped**.

Composition theorems (parameters fixed in advance: `NonAdaptive`/`Adaptive`) and filter
theorems (parameters chosen adaptively: `FullyAdaptive`) are distinct types; a filter
case is judged against proven filters, with the fixed-parameter optimum as the line
past which a library is unsound. For filters, *tight-to* is the fraction of the proven
filter's rounds the library does not use (negative: it admits more), so a filter is
**tight** when it admits at least {1 - LOOSE:.0%} of the best proven filter's rounds and
**loose** when fewer; one admitting more rounds than the fixed-parameter optimum is
**unsound** (a whole round is never rounding); one admitting more than any proven filter
but no more than the fixed-parameter optimum is **undecided**, and listed under "filter
vs composition" with the theorem it applies.

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
    if severity(o) is Severity.UNSOUND_ROUNDING:
        return "UNSOUND (rounding)"
    return str(o.verdict)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _section(run: Run, cap: str) -> list[str]:
    """A capability's values, one table per library behind the anchor its cell links to
    (nothing when no library has a value in it)."""
    if not any(o.capability == cap for o in run.outcomes):
        return []
    out = [f"## {cap}", "", f"Capability: {CAPABILITIES.get(cap, '(not described)')}.", ""]
    for st in run.libraries:
        rows = [o for o in run.outcomes if o.capability == cap and o.library == st.name]
        if not rows:
            continue
        c = cell(run, st.name, cap)
        out += [f"{html_anchor(anchor(cap, st.name))}**{st.name}** ({cap}): worst "
                f"{c.level}, {c.count} of {c.total}.", "",
                "| entry point | case | value | verdict | severity | tight-to | reference | "
                "detail | implements |", "|---|---|---|---|---|---|---|---|---|"]
        for o in rows:
            out.append(f"| `{_cell(o.api)}` | {o.case} | {_value(o.value)} | {_verdict(o)} | "
                       f"{severity(o)} | {_tight(o)} | {_cell(o.reference)} | "
                       f"{_cell(o.detail)} | {_cell(o.formula) or '-'} |")
        out.append("")
    return out


def markdown(run: Run, command: str) -> str:
    """The whole report as markdown."""
    out = ["# Conformance report", "",
           f"Generated on {run.date} (UTC) by `{command}` with Python "
           f"{platform.python_version()} and mpmath {mpmath.__version__} "
           f"({len(run.outcomes)} outcomes in {run.seconds:.0f} s). To regenerate the copy "
           "in `docs/conformance-report.md`, install the libraries (`pip install -e "
           "'.[conformance]'`, and confseq as in the table), run `python -m reference "
           "conformance --out DIR` and copy `DIR/report.md`.", "",
           "| library | version | status | install |", "|---|---|---|---|"]
    for st in run.libraries:
        state = "ran" if st.available else f"skipped: {_cell(st.reason)}"
        out.append(f"| {html_anchor(library_anchor(st.name))}[{st.name}]({st.url}) | "
                   f"{st.version} | {state} | {_cell(st.hint)} |")
    out += ["", "## Summary", "", *table(run), "", "## How to read it", "", LEGEND, "",
            "## Findings", ""]
    found = findings(run)
    for heading, lines in found.items():
        out += [f"### {heading[0].upper()}{heading[1:]}", "", *(f"* {line}" for line in lines),
                ""]
    if not found:
        out += ["None.", ""]
    out += ["Verdicts: " + ", ".join(f"{k} {v}" for k, v in _counts(run).items() if v) + ". "
            "Severities: " + ", ".join(f"{k} {v}" for k, v in _levels(run).items() if v)
            + ".", ""]
    for cap in capabilities(run):
        out += dpsgd_report.section(run) if cap == "dpsgd" else \
            _section(run, cap)
    return "\n".join(out).rstrip() + "\n"


def _counts(run: Run) -> dict[str, int]:
    return {str(v): sum(o.verdict is v for o in run.outcomes) for v in Grade}


def _levels(run: Run) -> dict[str, int]:
    levels = [severity(o) for o in run.outcomes]
    return {str(s): levels.count(s) for s in Severity if s is not Severity.NO_CASE}


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
        "date": run.date,
        "counts": _counts(run),
        "severities": _levels(run),
        "findings": [{"heading": heading, "text": line}
                     for heading, lines in findings(run).items() for line in lines],
        "outcomes": [{"library": o.library, "version": o.version, "capability": o.capability,
                      "case": o.case, "api": o.api, "theorem": o.theorem,
                      "verdict": str(o.verdict), "severity": str(severity(o)),
                      "value": _json_number(o.value),
                      "tight_to": o.tight_to,
                      "reference": o.reference, "reference_ids": list(o.reference_ids),
                      "detail": o.detail, "formula": o.formula,
                      "seconds": round(o.seconds, 4)}
                     for o in run.outcomes],
    }
