"""The generated errata page: counts per kind, sections in severity order, every erratum once.

:func:`page_problems` reads the Markdown that ``docs/site_gen/pages.errata_markdown`` writes
and compares it with the errata it should show; the power checks at the end feed it pages
with a missing entry, a wrong kind, a wrong count or sections out of order, and require it
to notice each.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from reference.core.errata import Erratum, Kind
from reference.results import catalogue, errata

PAGES_PY = Path(__file__).resolve().parents[2] / "docs" / "site_gen" / "pages.py"
_SECTION = re.compile(r"^## (.+) \((\d+)\) \{#kind-([a-z-]+)\}$")
_ENTRY = re.compile(r"^### `([^`]+)` \{#([a-z0-9-]+)\}$")


def _pages() -> ModuleType:
    spec = importlib.util.spec_from_file_location("errata_site_pages", PAGES_PY)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


PAGES = _pages()


def render(es: list[Erratum]) -> str:
    """The page for ``es`` (checks not run: every entry shown as confirmed)."""
    by_id = {r.id: r for r in catalogue()}
    return str(PAGES.errata_markdown([PAGES.Verified(e, True, "detail") for e in es], by_id))


def _heading_counts(line: str) -> dict[Kind, int]:
    words = {k.counted(2)[2:]: k for k in Kind} | {k.label: k for k in Kind}
    out = {}
    for part in line.split(": ", 1)[1].rstrip(".").split(", "):
        n, word = part.split(" ", 1)
        out[words[word]] = int(n)
    return out


def page_problems(md: str, truth: list[Erratum]) -> list[str]:
    """What is wrong with the errata page ``md`` for the errata ``truth`` (empty if nothing)."""
    problems = []
    kinds = {e.id: e.kind for e in truth}
    want = {k: sum(e.kind is k for e in truth) for k in Kind}
    lines = md.split("\n")
    head = next((ln for ln in lines if re.match(r"^\d+ entries: ", ln)), None)
    if head is None:
        return ["no heading line counting the entries"]
    if int(head.split()[0]) != len(truth):
        problems.append(f"heading counts {head.split()[0]} entries, not {len(truth)}")
    counted = _heading_counts(head)
    if {k: n for k, n in want.items() if n} != counted:
        problems.append(f"heading counts {counted}, not {want}")
    order: list[Kind] = []
    seen: dict[str, int] = {}
    section: Kind | None = None
    in_section: dict[Kind, int] = {}
    announced: dict[Kind, int] = {}
    for ln in lines:
        if m := _SECTION.match(ln):
            section = Kind(m.group(3))
            order.append(section)
            announced[section] = int(m.group(2))
            in_section[section] = 0
            if m.group(1) != section.label.capitalize():
                problems.append(f"section {m.group(1)!r} is anchored as {section.value}")
        elif m := _ENTRY.match(ln):
            eid = m.group(1)
            seen[eid] = seen.get(eid, 0) + 1
            if m.group(2) != PAGES.slug(eid):
                problems.append(f"{eid}: anchor {m.group(2)}, not {PAGES.slug(eid)}")
            if section is None:
                problems.append(f"{eid} is outside every kind's section")
                continue
            in_section[section] += 1
            if kinds.get(eid) is not section:
                problems.append(f"{eid} is under {section.value}, its kind is {kinds.get(eid)}")
    if order != sorted(order, key=lambda k: k.severity) or len(set(order)) != len(order):
        problems.append(f"sections not in severity order: {[k.value for k in order]}")
    for k in Kind:
        if announced.get(k, 0) != want[k] or in_section.get(k, 0) != want[k]:
            problems.append(f"{k.value}: section says {announced.get(k, 0)}, lists "
                            f"{in_section.get(k, 0)}, expected {want[k]}")
    problems += [f"{eid} appears {n} times" for eid, n in seen.items() if n != 1]
    problems += [f"{e.id} is missing" for e in truth if e.id not in seen]
    problems += [f"{eid} is not an erratum" for eid in seen if eid not in kinds]
    return problems


def test_the_errata_page_is_consistent() -> None:
    es = errata()
    md = render(es)
    assert page_problems(md, es) == []
    for e in es:   # the anchors other pages link to are kept
        assert f"{{#{PAGES.slug(e.id)}}}" in md, e.id
        assert f"**Consequence.** {PAGES.esc(e.consequence)}" in md, e.id
    assert sum(f"{{#kind-{k.value}}}" in md for k in Kind) == len({e.kind for e in es})


def test_result_sections_show_kind_and_consequence() -> None:
    es = errata()
    for e in es:
        line = PAGES.erratum_bullet(PAGES.Verified(e, True, "detail"), "catalogue/tct.md")
        assert f"**{e.kind.label}**" in line and PAGES.esc(e.consequence) in line, e.id
        assert f"(errata.md#{PAGES.slug(e.id)})" in line, e.id
        deeper = PAGES.erratum_bullet(PAGES.Verified(e, True, "detail"), "catalogue/tct/x.md")
        assert f"(../errata.md#{PAGES.slug(e.id)})" in deeper, e.id


# ---- power checks: each broken page is noticed -----------------------------------------

def _retyped(e: Erratum) -> Erratum:
    other = Kind.TYPO if e.kind is not Kind.TYPO else Kind.AMBIGUITY
    return dataclasses.replace(e, kind=other)


@pytest.mark.parametrize("tamper", ["drop", "duplicate", "retype", "recount", "reorder"])
def test_page_problems_notices_a_broken_page(tamper: str) -> None:
    es = errata()
    target = next(e for e in es if e.kind is Kind.FALSE_AS_STATED)
    md: Any
    if tamper == "drop":
        md = render([e for e in es if e is not target])
    elif tamper == "duplicate":
        md = render(es)
        i = md.index(f"### `{target.id}`")
        block = md[i:md.index("\n### ", i) + 1]
        md = md.replace(block, block + block, 1)
    elif tamper == "retype":
        md = render([_retyped(e) if e is target else e for e in es])
    elif tamper == "recount":
        md = render(es)
        n = sum(e.kind is Kind.FALSE_AS_STATED for e in es)
        md = md.replace(f"{n} false as stated", f"{n + 1} false as stated", 1)
    else:   # the typo section moved to the front
        md = render(es)
        start = md.index("## Typo (")
        typo = md[start:]
        md = md[:start].replace("## False as stated (", typo + "\n## False as stated (", 1)
    assert page_problems(md, es), tamper
