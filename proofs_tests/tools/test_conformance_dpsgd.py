"""The DP-SGD part of the conformance harness: verdicts against a bracket (synthetic, worked
out by hand), the report's DP-SGD table, and one live case at 10^3 steps per installed
library (the 45-case grid runs only in ``python -m reference conformance``)."""

from __future__ import annotations

import mpmath
import pytest

from reference.core.numeric import Interval
from reference.tools.conformance import dpsgd_report, harness
from reference.tools.conformance.adapters import by_name
from reference.tools.conformance.adapters.base import quiet
from reference.tools.conformance.dpsgd_cases import grid, quick
from reference.tools.conformance.harness import LibraryStatus, Run
from reference.tools.conformance.model import Grade, Outcome, Reference
from reference.tools.conformance.severity import DPSGD_LOOSE, Severity, severity
from reference.tools.conformance.verdicts import judge_upper

#: A bracket [2, 2.02] of an exact epsilon, as DPSGD:eps gives (about 1% wide).
BRACKET = Reference(Interval(mpmath.mpf(2), mpmath.mpf("2.02")),
                    Interval(mpmath.mpf(2), mpmath.mpf("2.02")), "DPSGD:eps", "DPSGD:eps",
                    bracket=True, loose=DPSGD_LOOSE)


def _level(x: float) -> tuple[Grade, Severity]:
    grade, tight, _ = judge_upper(x, BRACKET)
    return grade, severity(Outcome("l", "1", "dpsgd", "c", "a", grade, value=x,
                                   tight_to=tight, loose=BRACKET.loose))


def test_bracket_verdicts_and_the_five_percent_threshold() -> None:
    """Below 2: unsound; in [2, 2.02): inside; from 2.02 on, sound with the excess over 2.02
    (not over the middle): 2.121 is +5.0% (tight), 2.1211 is +5.005% (loose)."""
    assert _level(1.999) == (Grade.UNSOUND, Severity.UNSOUND)
    assert _level(2.01)[0] is Grade.UNDECIDED
    grade, tight, _ = judge_upper(2.0402, BRACKET)
    assert grade is Grade.SOUND and tight == pytest.approx(0.01)
    assert _level(2.12) == (Grade.SOUND, Severity.TIGHT)
    assert _level(2.1211) == (Grade.SOUND, Severity.LOOSE)


def test_grid_covers_every_value_of_every_parameter() -> None:
    cases = grid()
    assert len(cases) == 45 and len({c.id for c in cases}) == 45
    for key, values in (("q", {1e-3, 1e-2, 0.1}), ("sigma", {0.5, 0.8, 1.0, 2.0, 4.0}),
                        ("steps", {1000, 10_000, 100_000}), ("delta", {1e-5, 1e-9})):
        assert {c.params[key] for c in cases} == values
    assert all(c.params["steps"] == 1000 for c in quick())


def _outcome(lib: str, short: str, value: float | None, grade: Grade,
             tight: float | None = None, detail: str = "") -> Outcome:
    return Outcome(lib, "1", "dpsgd", "q=0.01,sigma=1,steps=1000,delta=1e-05", f"{lib}.api",
                   grade, value=value, tight_to=tight, short=short, detail=detail,
                   reference="DPSGD:eps [2.0, 2.02]")


def test_section_table_and_tracker_lines() -> None:
    run = Run(libraries=[LibraryStatus("opacus", "opacus", "1", True)], outcomes=[
        _outcome("opacus", "opacus GDP", 1.5, Grade.UNSOUND, -0.25),
        _outcome("opacus", "opacus RDP", 2.2, Grade.SOUND, 0.089),
    ])
    text = "\n".join(dpsgd_report.section(run))
    row = next(line for line in text.splitlines() if line.startswith("| 0.01 "))
    assert "[2.0, 2.02]" in row and "1.5 **UNSOUND** -25.00%" in row
    assert "2.2 +8.90% loose" in row
    assert '<a id="dpsgd--opacus"></a>' in text
    assert "opacus#384" in text and "Reproduced at 1 case(s)" in text
    assert "prv_accountant#17 (prv-accountant)" in text and "Not run" in text


def test_live_case_at_1000_steps() -> None:
    """q = 0.001, sigma = 2, 10^3 steps, delta = 1e-9 (measured with dp-accounting 0.6.0 and
    prv-accountant 0.2.0): the RDP accountant is sound, at least DPSGD:eps-rdp, and loose
    (0.3026 against an exact epsilon near 0.09); the PLD accountant is not below the
    bracket; prv-accountant's upper end is sound."""
    pytest.importorskip("dp_accounting")
    (case,) = [c for c in quick() if c.params["delta"] == 1e-9]
    with quiet():
        out = harness.run([by_name("dp-accounting")], cases=[case])
    got = {o.short: o for o in out.outcomes}
    rdp = got["dp-acc RDP"]
    assert rdp.verdict is Grade.SOUND and severity(rdp) is Severity.LOOSE
    assert rdp.formula.startswith("DPSGD:eps-rdp") and "-" not in rdp.formula.split(":")[-1]
    assert got["dp-acc PLD 1e-4"].verdict is not Grade.UNSOUND
    pytest.importorskip("prv_accountant")
    with quiet():
        prv = harness.run([by_name("prv-accountant")], cases=[case])
    upper = next(o for o in prv.outcomes if o.short == "prv upper")
    assert upper.verdict is Grade.SOUND


def test_opacus_gdp_under_reports() -> None:
    """meta-pytorch/opacus#384: at q = 0.01, sigma = 0.8, 10^3 steps, delta = 1e-5 Opacus
    1.6.0's GDP accountant returns 2.5095, below the exact epsilon's bracket (about
    [3.14, 3.16]); its RDP accountant is sound.  Skipped without Opacus (it needs torch)."""
    pytest.importorskip("opacus")
    (case,) = [c for c in quick() if c.params["delta"] == 1e-5]
    with quiet():
        out = harness.run([by_name("opacus")], cases=[case])
    got = {o.short: o for o in out.outcomes}
    assert got["opacus GDP"].verdict is Grade.UNSOUND
    assert isinstance(got["opacus GDP"].value, float) and 2.50 < got["opacus GDP"].value < 2.52
    assert got["opacus RDP"].verdict is Grade.SOUND
