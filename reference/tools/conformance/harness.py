"""Run adapters on the grid and judge every returned number.

A library that does not import gives one ``skipped`` outcome with the reason; a call
that raises gives ``error`` with the exception; a reference result that is not
registered gives ``no-reference``.  None of these is a failure of the harness.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction

from reference.core.numeric import Interval, exact
from reference.tools.conformance import references
from reference.tools.conformance.adapters import ADAPTERS, Adapter
from reference.tools.conformance.adapters.base import quiet
from reference.tools.conformance.cases import grid
from reference.tools.conformance.model import (
    Case,
    FilterReference,
    Grade,
    Measure,
    Method,
    Outcome,
    Reference,
)
from reference.tools.conformance.verdicts import finite_number, judge_count, judge_upper, relative
from reference.tools.render import lower_str, upper_str


@dataclass(frozen=True)
class LibraryStatus:
    """Whether a library ran here, its version, and why not."""

    name: str
    dist: str
    version: str
    available: bool
    reason: str = ""
    url: str = ""
    hint: str = ""


@dataclass
class Run:
    """Everything the report needs."""

    libraries: list[LibraryStatus] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    date: str = field(default_factory=lambda: datetime.now(UTC).date().isoformat())


def _show(enc: Interval) -> str:
    """17 digits, rounded outward, so the printed interval still contains the value."""
    lo, hi = lower_str(enc.lo, 17), upper_str(enc.hi, 17)
    return f"[{lo}]" if lo == hi else f"[{lo}, {hi}]"


def reference_text(ref: Reference | FilterReference) -> tuple[str, tuple[str, ...]]:
    """A short description of the enclosures used, and the ids behind them."""
    if isinstance(ref, FilterReference):
        counts = ", ".join(f"{rid}: {n}" for rid, n in ref.counts.items())
        return (f"proven filters admit {counts}; fixed parameters admit {ref.fixed} "
                f"({ref.fixed_id})", (*ref.counts, ref.fixed_id))
    if ref.exact and ref.valid is not None:
        return f"{ref.valid_id} {_show(ref.valid)}", (str(ref.valid_id),)
    parts, ids = [], []
    if ref.valid is not None:
        parts.append(f"valid {ref.valid_id} {_show(ref.valid)}")
        ids.append(str(ref.valid_id))
    if ref.floor is not None:
        parts.append(f"floor {ref.floor_id} {_show(ref.floor)}")
        ids.append(str(ref.floor_id))
    if ref.valid is None or ref.floor is None:
        missing = "floor" if ref.valid is not None else "valid bound"
        parts.append(f"no registered {missing}")
    return "; ".join(parts), tuple(ids)


def judge(method: Method, case: Case, value: float | int,
          ref: Reference | FilterReference) -> tuple[Grade, float | None, str]:
    """The verdict for one returned value (see :mod:`reference.tools.conformance.verdicts`)."""
    if method.measure is Measure.COUNT:
        assert isinstance(ref, FilterReference)
        p = case.params
        unsafe = (isinstance(value, int) and not isinstance(value, bool)
                  and value > ref.proven and references.fixed_exceeds(
                      p["eps0"], value, p["eps_g"], p["delta_g"]))
        return judge_count(value, ref, method.theorem, bool(unsafe))
    assert isinstance(ref, Reference)
    verdict, tight, detail = judge_upper(value, ref)
    if verdict is Grade.SOUND and not method.theorem.covers(case.setting):
        return (Grade.UNDECIDED, tight, f"{detail}, but {method.theorem.name} is a "
                f"{method.theorem.kind} and the case needs {case.setting.value}")
    return verdict, tight, detail


def run_method(adapter: Adapter, version: str, method: Method, case: Case) -> Outcome:
    """Call one library entry point on one case and judge the result."""
    start = time.perf_counter()
    try:
        with quiet():
            value = method.call(case.params)
    except Exception as err:  # a library's exception is a finding, not a harness failure
        first = str(err).splitlines()[0] if str(err) else ""
        return Outcome(adapter.name, version, case.capability, case.label, method.api,
                       Grade.ERROR, detail=f"raised {type(err).__name__}: {first}"[:300],
                       theorem=method.theorem.name, seconds=time.perf_counter() - start,
                       measure=method.measure, short=method.short)
    seconds = time.perf_counter() - start
    ref_start = time.perf_counter()
    ref = case.reference()
    ref_seconds = time.perf_counter() - ref_start
    text, ids = reference_text(ref)
    verdict, tight, detail = judge(method, case, value, ref)
    return Outcome(adapter.name, version, case.capability, case.label, method.api, verdict,
                   value=value, reference=text, reference_ids=ids, tight_to=tight,
                   detail=detail, theorem=method.theorem.name, seconds=seconds,
                   formula=formula_check(method, case, value), measure=method.measure,
                   loose=ref.loose if isinstance(ref, Reference) else None,
                   short=method.short, ref_seconds=ref_seconds)


def formula_check(method: Method, case: Case, value: float | int) -> str:
    """How the value compares with the registered formula the library implements."""
    f = method.formula
    if f is None or finite_number(value) is not None:
        return ""
    params = f.params(case.params)
    if params is None:
        return ""
    enc = references.enclosure(f.id, f.output, **params)
    if enc is None:
        return f"{f.id}: not registered"
    x = Fraction(float(value))
    inside = exact(enc.lo, "formula", f.id) <= x <= exact(enc.hi, "formula", f.id)
    rel = relative(x, enc)
    return f"{f.id} {_show(enc)}: " + ("equal" if inside else f"{rel:+.2g} relative")


def status(adapter: Adapter) -> LibraryStatus:
    ok, why = adapter.available()
    return LibraryStatus(adapter.name, adapter.dist, adapter.version(), ok, why, adapter.url,
                         adapter.hint)


def run(adapters: Iterable[Adapter] | None = None, cases: list[Case] | None = None,
        keep: Callable[[Case], bool] | None = None, quick: bool = False) -> Run:
    """Run ``adapters`` (default: all) on ``cases`` (default: the grid, or with ``quick`` its
    short DP-SGD variant, filtered by keep)."""
    start = time.perf_counter()
    out = Run()
    chosen = list(ADAPTERS if adapters is None else adapters)
    all_cases = grid(quick) if cases is None else cases
    selected = [c for c in all_cases if keep is None or keep(c)]
    for adapter in chosen:
        st = status(adapter)
        out.libraries.append(st)
        if not st.available:
            out.outcomes.append(Outcome(adapter.name, st.version, "-", "-", "-",
                                        Grade.SKIPPED, detail=f"{st.reason} ({st.hint})"))
            continue
        for method in adapter.methods():
            for case in selected:
                if case.capability != method.capability:
                    continue
                if method.applies is not None and not method.applies(case.params):
                    continue
                if case.params.get("library", adapter.name) != adapter.name:
                    continue  # an issue-tracker case is run by its own library only
                out.outcomes.append(run_method(adapter, st.version, method, case))
    out.seconds = time.perf_counter() - start
    return out
