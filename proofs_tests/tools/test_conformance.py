"""Conformance harness: verdict logic on synthetic adapters (no library needed), and the
known defects of each library (reproduced independently), found by the harness itself when
installed.

Expected numbers in the per-library tests are computed independently (with
mpmath, independently of this code) or are worked out by hand below.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import mpmath
import pytest

from reference.core.numeric import Interval
from reference.tools.conformance import cli, harness, references
from reference.tools.conformance.adapters import ADAPTERS, Adapter, by_name
from reference.tools.conformance.adapters.base import quiet
from reference.tools.conformance.cases import filter_limit
from reference.tools.conformance.model import (
    Adaptivity,
    Case,
    CompositionTheorem,
    FilterReference,
    FilterTheorem,
    Formula,
    Grade,
    Measure,
    Method,
    Outcome,
    Reference,
)
from reference.tools.conformance.report import as_json, markdown
from reference.tools.conformance.verdicts import judge_count, judge_upper

# ---- synthetic references ---------------------------------------------------------------


def _iv(lo: float, hi: float | None = None) -> Interval:
    return Interval(mpmath.mpf(lo), mpmath.mpf(lo if hi is None else hi))


EXACT = Reference(_iv(2.0), _iv(2.0), "X", "X")
GAP = Reference(_iv(2.0), _iv(1.0), "VALID", "FLOOR")


def test_upper_verdicts_on_an_exact_reference() -> None:
    """Exact reference 2: above is sound (excess by hand), below unsound, equal sound."""
    assert judge_upper(2.5, EXACT)[:2] == (Grade.SOUND, 0.25)
    assert judge_upper(2.0, EXACT)[0] is Grade.SOUND      # at the upper end: valid
    verdict, short, detail = judge_upper(1.5, EXACT)
    assert verdict is Grade.UNSOUND and short == -0.25 and "0.25" in detail


def test_comparisons_are_exact_at_one_ulp() -> None:
    """A float one ulp below the exact value is unsound; one ulp above is sound."""
    below, above = math.nextafter(2.0, 0.0), math.nextafter(2.0, 4.0)
    assert judge_upper(below, EXACT)[0] is Grade.UNSOUND
    assert judge_upper(above, EXACT)[0] is Grade.SOUND
    # An enclosure of width 2**-60 around 2: the float 2.0 is inside it, so undecided.
    with mpmath.workprec(200):
        enc = Interval(2 - mpmath.mpf(2) ** -60, 2 + mpmath.mpf(2) ** -60)
    wide = Reference(enc, enc, "X", "X")
    assert judge_upper(2.0, wide)[0] is Grade.UNDECIDED


def test_between_floor_and_valid_is_undecided() -> None:
    """Floor 1, best valid 2: 1.5 is neither proven valid nor proven too small."""
    assert judge_upper(1.5, GAP)[0] is Grade.UNDECIDED
    assert judge_upper(0.5, GAP)[0] is Grade.UNSOUND
    assert judge_upper(3.0, GAP)[:2] == (Grade.SOUND, 0.5)
    only_valid = Reference(_iv(2.0), None, "VALID", None)
    assert judge_upper(0.5, only_valid)[0] is Grade.UNDECIDED  # no floor: never unsound
    only_floor = Reference(None, _iv(1.0), None, "FLOOR")
    assert judge_upper(5.0, only_floor)[0] is Grade.UNDECIDED  # no valid: never sound


def test_slack_widens_both_ends() -> None:
    """With relative slack 1e-3 around 2: 2.001 is sound only just, 1.999 undecided."""
    ref = Reference(_iv(2.0), _iv(2.0), "X", "X", slack=1e-3)
    assert judge_upper(2.0021, ref)[0] is Grade.SOUND
    assert judge_upper(2.0019, ref)[0] is Grade.UNDECIDED
    assert judge_upper(1.9981, ref)[0] is Grade.UNDECIDED
    assert judge_upper(1.9979, ref)[0] is Grade.UNSOUND


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), None, "1.0",
                                 True])
def test_non_numbers_are_errors(bad: object) -> None:
    assert judge_upper(bad, EXACT)[0] is Grade.ERROR


def test_missing_reference() -> None:
    assert judge_upper(1.0, Reference(None, None, None, None))[0] is Grade.NO_REFERENCE


def test_count_verdicts() -> None:
    """The filter/composition distinction: the same count is undecided for a composition
    theorem and for a claimed filter theorem, sound below the proven filter, unsound
    past the fixed-parameter optimum."""
    ref = FilterReference(proven=436, proven_id="P", fixed=908, fixed_id="F")
    comp, filt = CompositionTheorem("C"), FilterTheorem("Φ")
    assert judge_count(436, ref, comp, False)[:2] == (Grade.SOUND, 0.0)
    assert judge_count(109, ref, filt, False)[0] is Grade.SOUND
    v, unused, detail = judge_count(595, ref, comp, False)
    assert v is Grade.UNDECIDED and "composition theorem" in detail and "908" in detail
    assert unused == pytest.approx((436 - 595) / 436)
    assert "filter theorem we do not have" in judge_count(595, ref, filt, False)[2]
    assert judge_count(1000, ref, comp, True)[0] is Grade.UNSOUND
    assert judge_count(1.5, ref, comp, False)[0] is Grade.ERROR


def test_theorem_types() -> None:
    """Composition theorems cannot claim FullyAdaptive; filters cover every setting."""
    with pytest.raises(ValueError, match="FilterTheorem"):
        CompositionTheorem("x", Adaptivity.FULLY_ADAPTIVE)
    fixed = CompositionTheorem("x", Adaptivity.NON_ADAPTIVE)
    assert fixed.covers(Adaptivity.NON_ADAPTIVE) and not fixed.covers(Adaptivity.ADAPTIVE)
    assert all(FilterTheorem("f").covers(a) for a in Adaptivity)


# ---- synthetic adapters through the harness and the report ---------------------------


def _raise(p: Mapping[str, Any]) -> float:
    raise OverflowError("math range error")


class Fake(Adapter):
    name = "fake"
    module = "math"
    dist = "fake-dist-not-installed"

    def methods(self) -> list[Method]:
        comp = CompositionTheorem("fake theorem")
        return [
            Method("demo", "good", lambda p: 2.5, comp),
            Method("demo", "low", lambda p: 1.0, comp),
            Method("demo", "nan", lambda p: float("nan"), comp),
            Method("demo", "raises", _raise, comp),
            Method("demo", "skipped-case", lambda p: 9.0, comp, applies=lambda p: False),
            Method("filter", "filter", lambda p: 595, comp, measure=Measure.COUNT),
            Method("demo", "adaptive-needed", lambda p: 3.0, comp),
        ]


class Missing(Adapter):
    name = "missing"
    module = "no_such_library_for_conformance_tests"
    dist = "no-such-library-for-conformance-tests"

    def methods(self) -> list[Method]:  # pragma: no cover - never reached
        raise AssertionError("a missing library must not be asked for methods")


CASES = [
    Case("demo", "fixed", {}, Adaptivity.ADAPTIVE, lambda: EXACT),
    Case("filter", "budget", {"eps0": 0.001, "eps_g": 0.11, "delta_g": 1e-6},
         Adaptivity.FULLY_ADAPTIVE,
         lambda: FilterReference(436, "P", 908, "F", {"P": 436})),
]


def _run() -> harness.Run:
    return harness.run([Fake(), Missing()], cases=CASES)


def test_harness_on_synthetic_adapters() -> None:
    out = _run()
    got = {o.api: o for o in out.outcomes}
    assert got["good"].verdict is Grade.SOUND and got["good"].tight_to == 0.25
    assert got["low"].verdict is Grade.UNSOUND
    assert got["nan"].verdict is Grade.ERROR
    assert got["raises"].verdict is Grade.ERROR and "OverflowError" in got["raises"].detail
    assert "skipped-case" not in got
    assert got["filter"].verdict is Grade.UNDECIDED
    skipped = [o for o in out.outcomes if o.library == "missing"]
    assert len(skipped) == 1 and skipped[0].verdict is Grade.SKIPPED
    assert "ModuleNotFoundError" in skipped[0].detail
    assert [s.available for s in out.libraries] == [True, False]


def test_sound_needs_a_theorem_covering_the_setting() -> None:
    """A composition theorem's value on a FullyAdaptive case is at best undecided."""
    case = Case("demo", "adaptive", {}, Adaptivity.FULLY_ADAPTIVE, lambda: EXACT)
    method = Method("demo", "m", lambda p: 3.0, CompositionTheorem("C"))
    outcome = harness.run_method(Fake(), "0", method, case)
    assert outcome.verdict is Grade.UNDECIDED and "FullyAdaptive" in outcome.detail


def test_an_error_keeps_the_entry_points_short_name() -> None:
    """A raising entry point's outcome carries the method's short name, so the DP-SGD table
    puts its errors in the same column as its values (the full run had split them)."""
    case = Case("demo", "c", {}, Adaptivity.ADAPTIVE, lambda: EXACT)

    def boom(p: object) -> float:
        raise OverflowError("x")
    method = Method("demo", "m", boom, CompositionTheorem("C"), short="m short")
    outcome = harness.run_method(Fake(), "0", method, case)
    assert outcome.verdict is Grade.ERROR and outcome.short == "m short"


def test_formula_check_against_a_registered_result() -> None:
    """Basic composition of 0.5 and 0.25 is 0.75 (by hand): equal, or off by +1/3."""
    case = Case("demo", "f", {"e": [0.5, 0.25]}, Adaptivity.ADAPTIVE, lambda: EXACT)

    def method(value: float, rid: str = "RRUV16:Thm2.9") -> Method:
        return Method("demo", "m", lambda p: value, CompositionTheorem("C"),
                      formula=Formula(rid, lambda p: {"eps": p["e"]}, "eps"))

    assert harness.formula_check(method(0.75), case, 0.75).endswith(": equal")
    assert "+0.33 relative" in harness.formula_check(method(1.0), case, 1.0)
    assert "not registered" in harness.formula_check(method(1.0, "NOPE:x"), case, 1.0)
    assert harness.formula_check(method(1.0), case, float("nan")) == ""


def test_report_markdown_and_json() -> None:
    out = _run()
    text = markdown(out, "python -m reference conformance")
    assert ">>>" not in text
    assert "### Unsound\n\n* fake `low`: at fixed returned 1.0" in text
    assert "### Error\n\n* fake `nan` at fixed: returned NaN.\n* fake `raises`" in text
    assert "### Undecided: filter vs composition\n\n* fake `filter`" in text
    assert "skipped: ModuleNotFoundError" in text
    assert "**UNSOUND**" not in text.split("## Findings")[1]
    data = json.loads(json.dumps(as_json(out, "cmd")))
    nan = next(o for o in data["outcomes"] if o["api"] == "nan")
    assert nan["value"] == "nan" and nan["verdict"] == "error" and nan["severity"] == "error"
    assert data["counts"]["UNSOUND"] == 1 and data["severities"]["unsound"] == 1
    assert {"heading": "unsound", "text": "fake `low`: at fixed returned 1.0 against X [2] "
            "(shortfall 0.5 relative)."} in data["findings"]


def test_cli_writes_both_files_and_exits_zero(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """UNSOUND findings do not change the exit status (they are results)."""
    monkeypatch.setattr(cli, "by_name", lambda name: Fake())
    monkeypatch.setattr(cli, "run_harness",
                        lambda adapters, quick=False: harness.run(adapters, CASES))
    args = argparse.Namespace(library="fake", json=False, out=str(tmp_path / "r"))
    assert cli.run(args) == 0
    md = (tmp_path / "r" / "report.md").read_text()
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    assert "--library fake --out DIR" in md and data["counts"]["UNSOUND"] == 1


def test_cli_unknown_library() -> None:
    args = argparse.Namespace(library="nope", json=False, out=None)
    assert cli.run(args) == 2
    with pytest.raises(KeyError):
        by_name("nope")
    assert by_name("dp_accounting").name == "dp-accounting"
    assert len({a.name for a in ADAPTERS}) == 7


def test_filter_reference_counts_match_anchors() -> None:
    """Independently computed (mpmath): the WRRW23 zCDP filter admits 436 rounds of
    eps0 = 0.001 at (0.11, 1e-6) and the exact optimum about 909 fixed rounds; with
    the float inputs (0.001 is a little above 1/1000) the last fixed round is 908."""
    ref = references.filter_counts(0.001, 0.11, 1e-6, filter_limit(0.001, 0.11))
    assert ref.counts["RSWR23:Thm2"] == 436 and ref.proven == 436
    assert ref.counts["RRUV16:Thm3.4"] == 109          # float 0.001 * 110 > float 0.11
    assert ref.fixed == 908                              # the docstring derives 908 by hand
    assert references.fixed_exceeds(0.001, ref.fixed + 1, 0.11, 1e-6)
    assert not references.fixed_exceeds(0.001, ref.fixed, 0.11, 1e-6)


def test_references_fall_back_when_new_ids_are_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without CKS20/BW18 the zCDP case uses BS16 (RSWR23:Lem2.3) as its valid bound and
    has no floor; the Gaussian curve has no reference at all."""
    real = references.registered
    monkeypatch.setattr(references, "registered",
                        lambda rid: not rid.startswith(("CKS20", "BW18")) and real(rid))
    z = references.zcdp_to_dp(1.3527, 1e-6)
    assert z.valid_id == "RSWR23:Lem2.3" and z.floor is None and z.valid is not None
    assert abs(float(z.valid.lo) - 9.998679674) < 1e-8      # independent mpmath value (BS16)
    g = references.gaussian_curve(0.5, 1e-6)
    assert judge_upper(1.0, g)[0] is Grade.NO_REFERENCE


# ---- the libraries themselves (skipped when not installed) ---------------------------


def _outcomes(name: str, keep: set[str]) -> dict[tuple[str, str], Outcome]:
    with quiet():
        out = harness.run([by_name(name)], keep=lambda c: c.id in keep)
    return {(o.case, o.api): o for o in out.outcomes}


def test_prv_accountant_under_reports_pure_dp_composition() -> None:
    """eps0 = 2, k = 50, delta = 1e-6 gives an upper end ~72.01 against the
    exact 99.9994 (mpmath, computed independently)."""
    pytest.importorskip("prv_accountant")
    got = _outcomes("prv-accountant", {"optimal-composition/eps0=2,k=50,delta=1e-6"})
    (o,) = got.values()
    assert o.verdict is Grade.UNSOUND
    assert isinstance(o.value, float) and 71.9 < o.value < 72.1
    assert "99.99942" in o.reference


def test_dp_accounting_advanced_composition_overflows_at_1024() -> None:
    """k = 1023 works (a grid point >= the exact optimum), k = 1024 raises."""
    pytest.importorskip("dp_accounting")
    keep = {"advanced-composition/eps0=0.001,k=1023,delta=1e-6",
            "advanced-composition/eps0=0.001,k=1024,delta=1e-6"}
    got = {case: o for (case, api), o in _outcomes("dp-accounting", keep).items()
           if api.startswith("pld.accountant.advanced_composition")}
    assert got["eps0=0.001,k=1023,delta=1e-6"].verdict is Grade.SOUND
    err = got["eps0=0.001,k=1024,delta=1e-6"]
    assert err.verdict is Grade.ERROR and "OverflowError" in err.detail


def test_autodp_get_eps_zero_inconsistency() -> None:
    """get_eps(0) returns 0 (below the exact k eps0 = 10) and get_eps(0.0)
    returns inf, for ten 1-DP spends."""
    pytest.importorskip("autodp")
    got = _outcomes("autodp", {"composition-delta0/eps0=1,k=10,delta=0"})
    by_api = {api: o for (_case, api), o in got.items()}
    int_zero = next(o for api, o in by_api.items() if "get_eps(0)" in api)
    float_zero = next(o for api, o in by_api.items() if "get_eps(0.0)" in api)
    assert int_zero.verdict is Grade.UNSOUND and int_zero.value == 0.0
    assert float_zero.verdict is Grade.ERROR and float_zero.value == math.inf


def test_diffprivlib_admits_more_than_the_proven_filter() -> None:
    """BudgetAccountant admits 595 spends of 0.001 at (0.11, 1e-6) where the
    WRRW23 filter admits 436; fixed parameters would allow about 909."""
    pytest.importorskip("diffprivlib.accountant")
    got = _outcomes("diffprivlib", {"filter/eps0=0.001,budget=(0.11,1e-06)"})
    (o,) = got.values()
    assert o.value == 595 and o.verdict is Grade.UNDECIDED
    assert "composition theorem" in o.detail and "FullyAdaptive" in o.detail


def test_opendp_filter_and_odometer_are_sound() -> None:
    """OpenDP's basic filter admits at most the basic count; its zCDP odometer reports
    0.5 + 0.125 + 2 = 2.625 for scales 1, 2, 0.5 (computed by hand)."""
    pytest.importorskip("opendp")
    got = _outcomes("opendp", {"filter/eps0=0.001,budget=(0.11,1e-06)",
                               "odometer/sigmas=1,2,0.5"})
    by_case = {case: o for (case, _api), o in got.items()}
    filt = by_case["eps0=0.001,budget=(0.11,1e-06)"]
    assert filt.verdict is Grade.SOUND and isinstance(filt.value, int) and filt.value <= 110
    odo = by_case["sigmas=1,2,0.5"]
    assert odo.verdict is Grade.SOUND and odo.value == 2.625


def test_zcdp_conversions_between_gaussian_floor_and_cks20() -> None:
    """Independently computed (mpmath): at rho = 1, delta = 1e-6 CKS20 is 7.766216625311720...,
    OpenDP returns 7.7662166253117215 (>= it: sound) and autodp one ulp below
    (7.766216625311721): not proven valid, yet far above the Gaussian floor 7.286."""
    pytest.importorskip("opendp")
    pytest.importorskip("autodp")
    if not (references.registered("CKS20:Cor13") and references.registered("BW18:Thm8-rho-eps")):
        pytest.skip("CKS20/BW18 references not registered")
    keep = {"zcdp-to-dp/rho=1,delta=1e-06"}
    (opendp,) = _outcomes("opendp", keep).values()
    (autodp,) = _outcomes("autodp", keep).values()
    assert opendp.verdict is Grade.SOUND and opendp.value == 7.7662166253117215
    assert autodp.verdict is Grade.UNDECIDED and autodp.value == 7.766216625311721
    assert "7.28608096641860" in autodp.reference


def test_confseq_two_sided_mixture_agrees() -> None:
    """Measured independently: confseq's two-sided bound equals the closed form to ~1e-16, so it
    sits inside the (1e-13-widened) enclosure."""
    pytest.importorskip("confseq.boundaries")
    got = _outcomes("confseq", {"mixture-boundary/rho=1,alpha=0.05,v=1"})
    (o,) = got.values()
    assert o.verdict is Grade.UNDECIDED and o.tight_to is not None
    assert abs(o.tight_to) < 1e-14
    assert isinstance(o.value, float) and abs(o.value - 3.656394871) < 1e-9
