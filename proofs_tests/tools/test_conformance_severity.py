"""The conformance report's severity scale and its library x capability table.

Expected levels come from the definitions (a shortfall of at most 1e-12 relative is
rounding; a sound value more than 1 % above the best proven-valid value is loose; a filter
is loose when it leaves more than 1 % of the proven filter's rounds unused), worked out by
hand for each synthetic value, never by calling the code under test twice.
"""

from __future__ import annotations

import re
from pathlib import Path

import mpmath
import pytest

from reference.core.numeric import Interval
from reference.tools.conformance import report
from reference.tools.conformance.cases import CAPABILITIES
from reference.tools.conformance.harness import LibraryStatus, Run
from reference.tools.conformance.model import (
    CompositionTheorem,
    FilterReference,
    FilterTheorem,
    Grade,
    Measure,
    Outcome,
    Reference,
)
from reference.tools.conformance.report import markdown
from reference.tools.conformance.severity import LOOSE, ROUNDING, Severity, severity, worst
from reference.tools.conformance.verdicts import judge_count, judge_upper

SNAPSHOT = Path(__file__).resolve().parents[2] / "docs" / "conformance-report.md"


def _o(grade: Grade, tight: float | None = None, measure: Measure = Measure.UPPER,
       lib: str = "lib", cap: str = "zcdp-to-dp", case: str = "c", api: str = "api",
       value: float | int | None = 1.0) -> Outcome:
    return Outcome(lib, "1", cap, case, api, grade, value=value, tight_to=tight,
                   measure=measure)


# ---- the scale ---------------------------------------------------------------------------


def test_scale_order_and_thresholds() -> None:
    assert [str(s) for s in Severity] == ["unsound", "unsound within rounding", "error",
                                          "loose", "tight", "undecided", "skipped", "no case"]
    assert (ROUNDING, LOOSE) == (1e-12, 0.01)
    assert worst([Severity.TIGHT, Severity.UNDECIDED, Severity.LOOSE]) is Severity.LOOSE
    assert worst([Severity.ERROR, Severity.UNSOUND_ROUNDING]) is Severity.UNSOUND_ROUNDING
    assert worst([]) is Severity.NO_CASE


@pytest.mark.parametrize(("tight", "expected"), [
    (-0.28, Severity.UNSOUND),                 # prv-accountant-size under-report
    (-1.42e-10, Severity.UNSOUND),
    (-2e-12, Severity.UNSOUND),
    (-1.0000001e-12, Severity.UNSOUND),        # just past the tolerance
    (-1e-12, Severity.UNSOUND_ROUNDING),       # at the tolerance: "at most"
    (-9.59e-13, Severity.UNSOUND_ROUNDING),
    (-1e-16, Severity.UNSOUND_ROUNDING),
    (None, Severity.UNSOUND),                  # no shortfall known: not excused as rounding
])
def test_unsound_epsilon_either_side_of_rounding(tight: float | None,
                                                 expected: Severity) -> None:
    assert severity(_o(Grade.UNSOUND, tight)) is expected


@pytest.mark.parametrize(("tight", "expected"), [
    (0.0, Severity.TIGHT), (2.4e-16, Severity.TIGHT), (0.0099, Severity.TIGHT),
    (0.01, Severity.TIGHT),                    # within the threshold
    (0.0100001, Severity.LOOSE), (0.25, Severity.LOOSE),
    (None, Severity.LOOSE),                    # excess unknown: not shown tight
])
def test_sound_epsilon_either_side_of_loose(tight: float | None, expected: Severity) -> None:
    assert severity(_o(Grade.SOUND, tight)) is expected


def test_non_findings_and_errors() -> None:
    assert severity(_o(Grade.ERROR, value=None)) is Severity.ERROR
    assert severity(_o(Grade.UNDECIDED, -1e-16)) is Severity.UNDECIDED
    assert severity(_o(Grade.NO_REFERENCE)) is Severity.UNDECIDED
    assert severity(_o(Grade.SKIPPED, value=None)) is Severity.SKIPPED


def test_filter_levels() -> None:
    """tight-to of a filter is the unused fraction of the proven filter's rounds."""
    assert severity(_o(Grade.SOUND, 0.0, Measure.COUNT)) is Severity.TIGHT
    assert severity(_o(Grade.SOUND, 0.01, Measure.COUNT)) is Severity.TIGHT
    assert severity(_o(Grade.SOUND, 0.75, Measure.COUNT)) is Severity.LOOSE
    # more rounds than the fixed-parameter optimum: a whole round is never rounding, even
    # when the unused fraction happens to be tiny
    assert severity(_o(Grade.UNSOUND, -1e-13, Measure.COUNT)) is Severity.UNSOUND
    # filter vs composition: more than any proven filter, within the fixed optimum
    assert severity(_o(Grade.UNDECIDED, -0.365, Measure.COUNT)) is Severity.UNDECIDED


def test_levels_of_real_verdicts() -> None:
    """Through the grading functions: an exact reference 2 and a filter proven to 436."""
    two = mpmath.mpf(2)
    exact = Reference(Interval(two, two), Interval(two, two), "X", "X")

    def upper(x: float) -> Severity:
        grade, tight, _ = judge_upper(x, exact)
        return severity(_o(grade, tight))

    assert upper(2 * (1 - 1e-13)) is Severity.UNSOUND_ROUNDING   # 1e-13 short
    assert upper(2 * (1 - 1e-11)) is Severity.UNSOUND            # 1e-11 short
    assert upper(2.019) is Severity.TIGHT                        # +0.95 %
    assert upper(2.021) is Severity.LOOSE                        # +1.05 %
    ref = FilterReference(436, "P", 908, "F")

    def count(n: int, unsafe: bool = False) -> Severity:
        grade, tight, _ = judge_count(n, ref, FilterTheorem("f"), unsafe)
        return severity(_o(grade, tight, Measure.COUNT, value=n))

    # 99 % of 436 is 431.64: 432 rounds are tight, 431 loose
    assert (count(436), count(432), count(431), count(109)) == (
        Severity.TIGHT, Severity.TIGHT, Severity.LOOSE, Severity.LOOSE)
    assert count(1000, unsafe=True) is Severity.UNSOUND
    grade, tight, _ = judge_count(595, ref, CompositionTheorem("C"), False)
    assert severity(_o(grade, tight, Measure.COUNT, value=595)) is Severity.UNDECIDED


# ---- the table ---------------------------------------------------------------------------

_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
_LINK = re.compile(r"\]\(#([^)]+)\)")


def table_cells(text: str) -> dict[tuple[str, str], str]:
    """(library, capability) -> the cell's text, read from the Summary table."""
    lines = text.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    assert header[0] == "library"
    cells = {}
    for line in lines[2:]:
        row = [c.strip() for c in line.strip("|").split("|")]
        assert len(row) == len(header), line
        for cap, cell in zip(header[1:], row[1:], strict=True):
            cells[(row[0], cap)] = cell
    return cells


def broken_links(text: str) -> list[str]:
    """Links of the Summary table whose anchor is not in the report."""
    anchors = set(_ANCHOR.findall(text))
    return [link for cell in table_cells(text).values() for link in _LINK.findall(cell)
            if link not in anchors]


def rows_behind(text: str, ident: str) -> int:
    """How many value rows the table right after anchor ``ident`` has."""
    after = text.split(f'<a id="{ident}"></a>', 1)[1].split("\n\n", 2)[1]
    return len([line for line in after.splitlines() if line.startswith("| `")])


def _run() -> Run:
    libs = [LibraryStatus(n, n, "1", True) for n in ("a-lib", "b-lib")]
    libs.append(LibraryStatus("c-lib", "c-lib", "not installed", False, "ImportError"))
    z, f = "zcdp-to-dp", "filter"
    outcomes = [
        _o(Grade.SOUND, 0.0, lib="a-lib", cap=z, case="1"),          # tight
        _o(Grade.SOUND, 0.5, lib="a-lib", cap=z, case="2"),          # loose
        _o(Grade.UNSOUND, -1e-16, lib="a-lib", cap=z, case="3"),     # rounding
        _o(Grade.SOUND, 0.5, Measure.COUNT, lib="a-lib", cap=f, value=218),  # loose
        _o(Grade.SOUND, 0.001, lib="b-lib", cap=z, case="1"),        # tight
        _o(Grade.UNDECIDED, -1e-16, lib="b-lib", cap=z, case="2"),
        _o(Grade.NO_REFERENCE, lib="b-lib", cap=z, case="3"),
        _o(Grade.UNSOUND, -0.28, lib="b-lib", cap="optimal-composition"),   # unsound
        _o(Grade.ERROR, lib="b-lib", cap="optimal-composition", api="other", value=None),
        Outcome("c-lib", "not installed", "-", "-", "-", Grade.SKIPPED, detail="ImportError"),
    ]
    return Run(libraries=libs, outcomes=outcomes, date="2026-01-02")


def test_table_cells_are_the_worst_level_with_counts() -> None:
    text = markdown(_run(), "cmd")
    cells = table_cells(text)
    libs = ("a-lib", "b-lib", "c-lib")
    assert set(cells) == {(lib, cap) for lib in libs for cap in CAPABILITIES}
    assert cells[("a-lib", "zcdp-to-dp")] == \
        "[unsound within rounding (1 of 3)](#zcdp-to-dp--a-lib)"
    assert cells[("a-lib", "filter")] == "[loose (1 of 1)](#filter--a-lib)"
    assert cells[("b-lib", "zcdp-to-dp")] == "[tight (1 of 3), 2 undecided](#zcdp-to-dp--b-lib)"
    assert cells[("b-lib", "optimal-composition")] == \
        "[unsound (1 of 2)](#optimal-composition--b-lib)"
    assert cells[("b-lib", "filter")] == cells[("a-lib", "odometer")] == "no case"
    assert {cells[("c-lib", cap)] for cap in CAPABILITIES} == {"[skipped](#library--c-lib)"}
    assert broken_links(text) == []
    # behind each anchor: exactly that library's values in that capability
    assert [rows_behind(text, i) for i in ("zcdp-to-dp--a-lib", "zcdp-to-dp--b-lib",
                                           "filter--a-lib", "optimal-composition--b-lib")] \
        == [3, 3, 1, 2]


def test_report_is_dated_with_versions_and_findings_by_level() -> None:
    text = markdown(_run(), "cmd")
    assert ("Generated on 2026-01-02 (UTC) by `cmd` with Python "
            in text) and f"mpmath {mpmath.__version__}" in text
    findings = text.split("## Findings\n", 1)[1].split("\nVerdicts:", 1)[0]
    headings = re.findall(r"^### (.+)$", findings, re.M)
    assert headings == ["Unsound", "Unsound within rounding", "Error", "Loose",
                        "Inconsistent entry points"]  # b-lib: unsound and error at c
    rounding = findings.split("### Unsound within rounding", 1)[1].split("###", 1)[0]
    assert "a-lib `api`: at 3 returned 1.0" in rounding and "**" not in findings
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", Run().date)


def test_a_broken_link_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Power check: a table link to a missing anchor, and sections whose anchors drift
    from the table's, are both reported."""
    text = markdown(_run(), "cmd")
    assert broken_links(text.replace("](#filter--a-lib)", "](#filter--a-lbi)")) == \
        ["filter--a-lbi"]
    monkeypatch.setattr(report, "anchor", lambda cap, lib: f"{cap}-{lib}")
    assert len(broken_links(markdown(_run(), "cmd"))) == 4


def test_committed_snapshot_table_is_complete_and_linked() -> None:
    """The committed report: one cell per library and capability, every link resolves,
    and no findings heading shows a rounding shortfall as unsound."""
    text = SNAPSHOT.read_text("utf-8")
    assert re.search(r"^Generated on \d{4}-\d\d-\d\d \(UTC\)", text, re.M)
    cells = table_cells(text)
    libraries = {lib for lib, _cap in cells}
    assert len(libraries) == 7 and {cap for _lib, cap in cells} >= set(CAPABILITIES)
    assert len(cells) == len(libraries) * len({cap for _lib, cap in cells})
    assert broken_links(text) == []
    unsound = text.split("### Unsound\n", 1)[1].split("###", 1)[0]
    shortfalls = [float(x) for x in re.findall(r"shortfall ([0-9.e+-]+) relative", unsound)]
    assert shortfalls and min(shortfalls) > ROUNDING
