"""The report's DP-SGD section: one row per case, one column per library entry point, and
the issue-tracker defects this run reproduced (or did not).

Each cell is the library's value, then its verdict against the certified bracket of the
exact epsilon: ``UNSOUND`` with its shortfall, ``inside`` (undecided), or its excess over the
bracket's upper end, marked *loose* past :data:`~.severity.DPSGD_LOOSE`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from reference.tools.conformance.dpsgd_cases import CAPABILITY, DESCRIPTION
from reference.tools.conformance.harness import Run
from reference.tools.conformance.model import Grade, Outcome
from reference.tools.conformance.severity import DPSGD_LOOSE, Severity, severity
from reference.tools.conformance.summary import anchor, html_anchor


def _mark(o: Outcome) -> str:
    if o.verdict is Grade.ERROR:
        return f"error: {o.detail[:60]}"
    value = f"{float(o.value or 0):.5g}"
    if o.tight_to is None:
        return f"{value} {o.verdict}"
    if o.verdict is Grade.UNSOUND:
        return f"{value} **UNSOUND** {o.tight_to:+.2%}"
    if o.verdict is Grade.UNDECIDED:
        return f"{value} inside"
    loose = " loose" if severity(o) is Severity.LOOSE else ""
    return f"{value} {o.tight_to:+.2%}{loose}"


def _bracket(o: Outcome) -> str:
    found = re.search(r"\[([^\]]+)\]", o.reference)
    return f"[{found.group(1)}]" if found else "-"


def _rdp(rows: list[Outcome]) -> str:
    for o in rows:
        found = re.match(r"DPSGD:eps-rdp \[([0-9.e+-]+)", o.formula)
        if found:
            return f"{float(found.group(1)):.6g}"
    return "-"


def section(run: Run) -> list[str]:
    """The DP-SGD table, its column legend (with each library's anchor) and timings."""
    rows = [o for o in run.outcomes if o.capability == CAPABILITY]
    if not rows:
        return []
    columns: dict[str, Outcome] = {}
    for o in rows:
        columns.setdefault(o.short or o.api, o)
    out = [f"## {CAPABILITY}", "", f"Capability: {DESCRIPTION}.", "",
           f"Each cell: the value, then *inside* (undecided: within the bracket), **UNSOUND** "
           f"with its shortfall (below the bracket's lower end: the exact epsilon is larger), "
           f"or its excess over the bracket's upper end, *loose* past {DPSGD_LOOSE:.0%}. "
           f"`eps-rdp` is `DPSGD:eps-rdp`, the RDP route's infimum over all real orders: an RDP "
           f"accountant evaluating its RDP correctly reports at least it. prv-accountant's "
           f"*lower* end and *estimate* are not claimed upper bounds (its docs call them a "
           f"lower bound and an estimate): they are judged as the brief of this table asks, and "
           f"an UNSOUND there is expected.", "", "Columns:", ""]
    seen = set()
    for short, o in columns.items():
        tag = ""
        if o.library not in seen:
            seen.add(o.library)
            tag = html_anchor(anchor(CAPABILITY, o.library))
        total = sum(r.seconds for r in rows if (r.short or r.api) == short)
        out.append(f"* {tag}**{short}** ({o.library} {o.version}): `{o.api}`; {o.theorem}; "
                   f"{total:.0f} s in all.")
    ref_total = sum(o.ref_seconds for o in rows)
    out += ["", f"Our brackets (and `eps-rdp`) took {ref_total:.0f} s in all.", "",
            "| q | sigma | steps | delta | DPSGD:eps [lo, hi] | eps-rdp | "
            + " | ".join(columns) + " |", "|---" * (6 + len(columns)) + "|"]
    cases: dict[str, list[Outcome]] = {}
    for o in rows:
        cases.setdefault(o.case, []).append(o)
    for case, group in cases.items():
        params = dict(part.split("=", 1) for part in case.split(","))
        cells = {(o.short or o.api): _mark(o) for o in group}
        first = next((o for o in group if o.reference), group[0])
        out.append(f"| {params['q']} | {params['sigma']} | {params['steps']} | "
                   f"{params['delta']} | {_bracket(first)} | {_rdp(group)} | "
                   + " | ".join(cells.get(c, "-") for c in columns) + " |")
    return [*out, "", *tracker_lines(run), ""]


@dataclass(frozen=True)
class Defect:
    """A defect documented in a library's issue tracker, and how to see it in outcomes."""

    reference: str
    library: str
    what: str
    shows: Callable[[Outcome], bool]


DEFECTS = [
    Defect("meta-pytorch/opacus#384 (warning added by #400)", "opacus",
           "the GDP accountant can under-report epsilon",
           lambda o: o.short == "opacus GDP" and o.verdict is Grade.UNSOUND),
    Defect("microsoft/prv_accountant#36, meta-pytorch/opacus#601", "prv-accountant/opacus",
           "\"Discrete mean differs significantly from continuous mean\" at large epsilon",
           lambda o: "Discrete mean" in o.detail),
    Defect("meta-pytorch/opacus#775 (and #844)", "opacus",
           "GDP's root search on [0, 500] fails for large epsilon (no sign change)",
           lambda o: o.short == "opacus GDP" and o.verdict is Grade.ERROR),
    Defect("meta-pytorch/opacus#585 (and #844)", "opacus",
           "negative epsilon", lambda o: o.value is not None and float(o.value) < 0),
    Defect("microsoft/prv_accountant#17", "prv-accountant",
           "wrong epsilon (0.156 at delta 1.1e-18, 3.9 at 1.13e-18) for q = 0.00033, sigma "
           "= 4, 10^4 steps", lambda o: o.library == "prv-accountant"
           and "prv_accountant#17" in o.case and o.verdict is not Grade.ERROR),
]


def tracker_lines(run: Run) -> list[str]:
    """Each tracked defect: reproduced (how often, the worst instance) or not."""
    out = ["### Defects from the issue trackers", ""]
    ran = {st.name for st in run.libraries if st.available}
    for d in DEFECTS:
        hits = [o for o in run.outcomes if o.capability.startswith(CAPABILITY) and d.shows(o)]
        head = f"* {d.reference} ({d.library}): {d.what}."
        if not any(lib in ran for lib in d.library.split("/")):
            out.append(f"{head} Not run: the library is not installed here.")
        elif not hits:
            out.append(f"{head} Not reproduced in this run.")
        else:
            worst = min(hits, key=lambda o: o.tight_to if o.tight_to is not None else 0.0)
            shown = (worst.detail if worst.verdict is Grade.ERROR
                     else f"{worst.value!r} ({worst.verdict}; {worst.detail})")
            out.append(f"{head} Reproduced at {len(hits)} case(s); e.g. `{worst.api}` at "
                       f"{worst.case}: {shown}; reference {worst.reference}.")
    issue = [o for o in run.outcomes if o.capability == "dpsgd-issues"]
    out += [""] + [f"* Issue input {o.case}, `{o.api}`: "
                   + (o.detail if o.value is None else f"{o.value!r}, {o.verdict} ({o.detail})")
                   + f"; reference {o.reference}." for o in issue]
    return out
