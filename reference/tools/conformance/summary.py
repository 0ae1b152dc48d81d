"""The report's summary: a library x capability table of severities, and the findings
grouped by severity.

Every cell of the table is the worst :class:`~reference.tools.conformance.severity.Severity`
among one library's graded values in one capability, with how many values have it, and
links to the anchor (:func:`anchor`) in front of exactly those values in the
capability's section.  Anchors are inline ``<a id="..."></a>`` elements: they work in the
MkDocs site (whose link validation reads them) and in the plain ``report.md`` on a Git
host or in an editor, where attribute lists such as ``{#id}`` are not rendered.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from reference.tools.conformance.cases import CAPABILITIES
from reference.tools.conformance.harness import Run
from reference.tools.conformance.model import Grade, Measure, Outcome
from reference.tools.conformance.severity import MEANING, Severity, severity, worst


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def anchor(capability: str, library: str) -> str:
    """The id in front of ``library``'s values in the section of ``capability``."""
    return f"{_slug(capability)}--{_slug(library)}"


def library_anchor(library: str) -> str:
    """The id of ``library``'s row in the table of libraries and versions."""
    return f"library--{_slug(library)}"


def html_anchor(ident: str) -> str:
    return f'<a id="{ident}"></a>'


def capabilities(run: Run) -> list[str]:
    """The table's columns: every capability of the grid, in report order, then any other
    capability a value was graded in (by name)."""
    present = {o.capability for o in run.outcomes if o.verdict is not Grade.SKIPPED}
    return list(CAPABILITIES) + sorted(present - set(CAPABILITIES))


@dataclass(frozen=True)
class Cell:
    """One (library, capability): its worst level, how many values have it, of how many,
    how many are undecided, and where the values are listed (``None``: nowhere)."""

    level: Severity
    count: int
    total: int
    undecided: int
    link: str | None

    def text(self) -> str:
        if self.level in (Severity.SKIPPED, Severity.NO_CASE):
            shown = str(self.level)
        else:
            shown = f"{self.level} ({self.count} of {self.total})"
            if self.undecided and self.level is not Severity.UNDECIDED:
                shown += f", {self.undecided} undecided"
        return f"[{shown}](#{self.link})" if self.link else shown


def cell(run: Run, library: str, capability: str) -> Cell:
    """The summary of ``library``'s values in ``capability``."""
    if any(o.library == library and o.verdict is Grade.SKIPPED for o in run.outcomes):
        return Cell(Severity.SKIPPED, 0, 0, 0, library_anchor(library))
    levels = [severity(o) for o in run.outcomes
              if o.library == library and o.capability == capability]
    if not levels:
        return Cell(Severity.NO_CASE, 0, 0, 0, None)
    top = worst(levels)
    return Cell(top, levels.count(top), len(levels), levels.count(Severity.UNDECIDED),
                anchor(capability, library))


def table(run: Run) -> list[str]:
    """The library x capability table, then the legend of the levels."""
    caps = capabilities(run)
    out = ["| library | " + " | ".join(caps) + " |", "|---" * (len(caps) + 1) + "|"]
    for st in run.libraries:
        cells = [cell(run, st.name, cap).text() for cap in caps]
        out.append(f"| {st.name} | " + " | ".join(cells) + " |")
    out += ["", "Each cell is the worst level among the library's values in that capability, "
            "with how many of its values have that level (\"2 of 6\"; a case graded on "
            "several entry points counts once per entry point) and how many are undecided; "
            "it links to those values in the capability's section below. Levels, from "
            "worst to best:", ""]
    out += [f"* **{level}**: {MEANING[level]}." for level in Severity]
    return out


def _value(v: float | int | None) -> str:
    if v is None:
        return "-"
    return str(v) if isinstance(v, int) else repr(float(v))


def _by_api(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], list[Outcome]]:
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.library, o.api), []).append(o)
    return groups


def _unsound(outcomes: list[Outcome]) -> list[str]:
    lines = []
    ordered = sorted(outcomes, key=lambda o: o.tight_to if o.tight_to is not None else -1.0)
    for (lib, api), group in _by_api(ordered).items():
        shown = "; ".join(f"at {o.case} returned {_value(o.value)} against {o.reference}"
                          + (f" (shortfall {-o.tight_to:.3g} relative)"
                             if o.tight_to is not None and o.measure is Measure.UPPER else "")
                          + ("" if o.measure is Measure.UPPER else f": {o.detail}")
                          for o in group)
        lines.append(f"{lib} `{api}`: {shown}.")
    return lines


def _errors(outcomes: list[Outcome]) -> list[str]:
    return [f"{lib} `{api}` at {', '.join(o.case for o in group)}: {group[0].detail}."
            for (lib, api), group in _by_api(outcomes).items()]


def _loose(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for (lib, api), group in _by_api(outcomes).items():
        what = ("of the proven filter's rounds unused" if group[0].measure is Measure.COUNT
                else "above the best proven-valid value")
        shown = ", ".join(f"{o.case} ({o.tight_to:+.3g})" if o.tight_to is not None
                          else o.case for o in group)
        lines.append(f"{lib} `{api}` ({what}, relative): {shown}.")
    return lines


def _filter_vs_composition(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.library} `{o.api}` at {o.case}: {o.detail}. Reference: {o.reference}."
            for o in outcomes if o.measure is Measure.COUNT]


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
        nums = [float(o.value) for o in group if o.value is not None]
        spread = (max(nums) - min(nums)) / max(abs(max(nums)), 1e-300) if nums else 0.0
        mixed = len({o.verdict for o in group}) > 1
        if mixed and (spread > 1e-6 or any(o.verdict is Grade.ERROR for o in group)):
            shown = "; ".join(f"`{o.api}` -> {_value(o.value)} ({severity(o)})" for o in group)
            lines.append(f"{lib} at {case}: {shown}.")
    return lines


def findings(run: Run) -> dict[str, list[str]]:
    """Findings by heading, worst first: one heading per level that is a finding, then
    filters applying a composition theorem (undecided), then disagreeing entry points.
    Headings without findings are left out."""
    by_level: dict[Severity, list[Outcome]] = {}
    for o in run.outcomes:
        by_level.setdefault(severity(o), []).append(o)
    out = {
        "unsound": _unsound(by_level.get(Severity.UNSOUND, [])),
        "unsound within rounding": _unsound(by_level.get(Severity.UNSOUND_ROUNDING, [])),
        "error": _errors(by_level.get(Severity.ERROR, [])),
        "loose": _loose(by_level.get(Severity.LOOSE, [])),
        "undecided: filter vs composition": _filter_vs_composition(
            by_level.get(Severity.UNDECIDED, [])),
        "inconsistent entry points": _disagreements(run),
    }
    return {heading: lines for heading, lines in out.items() if lines}
