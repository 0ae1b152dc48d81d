"""Markdown of the pages generated from the catalogue when the docs site is built.

Everything here is read from the live package: ``reference.catalogue()`` (the
results, their statements, parameters and notes), ``reference.tools.testindex.test_index()``
(the tests tagged ``@covers``), ``reference.errata()`` (re-verified while the site
is built) and ``reference.tools.audit.load_claims()`` (the shipped claims, audited while the site
is built).  ``hooks.py`` turns the strings returned here into pages of the site.

A *family* is a topic package under ``reference.results`` (``reference.results.conversions``,
``reference.results.tct``, ...); its page lists every result whose function lives there.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reference.core.catalogue import ALIASES, SOURCES
from reference.core.errata import Erratum, Kind, by_kind, kind_counts
from reference.core.model import Result
from reference.core.params import REQUIRED
from reference.results import MODULES, catalogue, errata
from reference.tools.audit import audit, load_claims
from reference.tools.render import decimal_str, lower_str, upper_str
from reference.tools.testindex import test_index

# The helpers of the sibling module mdtext are part of this module's interface
# (``pages.esc``, ``pages.slug``, ...); the folder is put on the path as the hooks do.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from mdtext import esc, prose, rel, slug, text_or_math

CATALOGUE_DIR = "catalogue"

#: Reader-facing title of each topic package under ``reference.results``, in reading order.
TOPICS: dict[str, str] = {
    "conversions": "Conversions", "composition": "Composition", "filters": "Filters",
    "odometers": "Odometers", "boundaries": "Time-uniform boundaries",
    "noise_reduction": "Noise reduction", "tct": "Target charging",
    "privacy_loss": "Privacy loss", "concentration": "Concentration",
    "experiments": "Experiments", "dpsgd": "DP-SGD accounting",
}

_ARXIV = re.compile(r"arXiv:(\d{4}\.\d{4,5})")


def source_markdown(prefix: str) -> str:
    """A paper's citation with its arXiv id as a link (the id prefix if it is unknown).

    >>> print(source_markdown("MIR17"))
    Mironov (2017): Rényi differential privacy. CSF 2017; [arXiv:1702.07476](https://arxiv.org/abs/1702.07476)
    """
    text = esc(SOURCES.get(prefix, prefix))
    return _ARXIV.sub(lambda m: f"[arXiv:{m.group(1)}](https://arxiv.org/abs/{m.group(1)})", text)


def family_of(res: Result[Any]) -> str:
    """The topic package under ``reference.results`` that holds the result's function."""
    return res.function.split(".")[2]


def family_title(family: str) -> str:
    """Reader-facing title of a topic (its package name if it has none)."""
    return TOPICS.get(family, family)


def module_title(module: str) -> str:
    """First paragraph of a module's docstring, on one line."""
    doc = importlib.import_module(module).__doc__ or module
    return " ".join(doc.strip().split("\n\n")[0].split())


def link_targets(by_id: dict[str, Result[Any]]) -> dict[str, str]:
    """Every result id and alias -> ``catalogue/<topic>.md#<anchor>`` of its entry."""
    out = {rid: f"{page_of(r)}#{slug(rid)}" for rid, r in by_id.items()}
    out.update({old: out[new] for old, new in ALIASES.items() if new in out})
    return out


def family_page(family: str) -> str:
    """Path (relative to the docs folder) of a family's generated page."""
    return f"{CATALOGUE_DIR}/{family}.md"


#: A topic with more results than this gets an overview page and one page per paper.
SPLIT_OVER = 20


@cache
def split_topics() -> frozenset[str]:
    """The topics whose results are spread over one page per module (paper)."""
    counts = Counter(family_of(r) for r in catalogue())
    return frozenset(t for t, n in counts.items() if n > SPLIT_OVER)


def module_page(module: str) -> str:
    """Page of a module of a split topic: ``catalogue/<topic>/<paper>.md``."""
    topic, paper = module.split(".")[2:4]
    return f"{CATALOGUE_DIR}/{topic}/{paper}.md"


def page_of(res: Result[Any]) -> str:
    """The generated page that holds a result's entry."""
    family = family_of(res)
    return module_page(module_of(res)) if family in split_topics() else family_page(family)


def result_link(rid: str, from_dir: str, by_id: dict[str, Result[Any]]) -> str:
    """Markdown link to a result's section, relative to a page in ``from_dir``."""
    if rid not in by_id:
        return f"`{rid}`"
    target = f"{page_of(by_id[rid])}#{slug(rid)}"
    return f"[`{rid}`]({rel(target, from_dir + '/index.md' if from_dir else 'index.md')})"


@dataclass(frozen=True)
class Verified:
    """An erratum with the outcome of its live re-verification."""

    erratum: Erratum
    confirmed: bool
    detail: str


def verified_errata() -> list[Verified]:
    out = []
    for e in errata():
        chk = e.verify()
        out.append(Verified(e, chk.confirmed, chk.detail))
    return out


def families() -> dict[str, list[Result[Any]]]:
    """Results grouped by family, families and results sorted."""
    groups: dict[str, list[Result[Any]]] = {}
    for res in catalogue():
        groups.setdefault(family_of(res), []).append(res)
    slugs = [slug(r.id) for r in catalogue()]
    dupes = {s for s in slugs if slugs.count(s) > 1}
    if dupes:
        raise ValueError(f"result ids with the same anchor: {sorted(dupes)}")
    order = list(TOPICS)
    return dict(sorted(groups.items(), key=lambda g: (order.index(g[0]) if g[0] in order
                                                      else len(order), g[0])))


def _param_rows(res: Result[Any]) -> list[str]:
    rows = ["| parameter | domain | default | meaning |", "|---|---|---|---|"]
    for p in res.params:
        default = "required" if p.default is REQUIRED else f"`{p.default}`"
        rows.append(f"| `{p.name}` | {esc(p.condition())} | {default} | {esc(p.doc)} |")
    return rows


def _example_command(res: Result[Any]) -> str:
    args = " ".join(f"{p.name}={p.example}" for p in res.params if p.required)
    return f"python -m reference value {res.id} {args}".rstrip()


def _tests(names: Iterable[str]) -> list[str]:
    return [f"    - `{n}`" for n in names] or ["    - none"]


def result_section(res: Result[Any], tests: dict[str, list[str]],
                   errs: list[Verified], page: str) -> list[str]:
    """The section of one result on its family's page."""
    lines = [f"### `{res.id}` {esc(res.title)} {{#{slug(res.id)}}}", ""]
    lines += [f"**Kind** {res.kind} · **status** `{res.status}` · "
              f"**source** `{res.source}`: {source_markdown(res.source)}", ""]
    if res.inverse is not None:
        lines += [f"Certified inverse of `{res.inverse.forward.id}`: returns a `Certificate` for "
                  f"`{res.inverse.unknown}` whose forward evaluation proves the bound.", ""]
    lines += [r"\[", res.statement, r"\]", ""]
    lines += [*_param_rows(res), ""]
    if res.notes:
        lines += [f"**Notes.** {prose(res.notes)}", ""]
    if res.probabilistic:
        lines += ["*Probabilistic guarantee*: checked by Monte Carlo tests (below).", ""]
    lines += ["```sh", _example_command(res), "```", ""]
    lines += ["**Tests**", "", "- property tests (`proofs_tests/`):"]
    lines += _tests(tests.get("property", []))
    lines += ["- statistical tests (`stats_tests/`):"]
    lines += [*_tests(tests.get("stats", [])), ""]
    mine = [v for v in errs if v.erratum.result == res.id]
    if mine:
        lines += ["**Errata**", ""]
        lines += [erratum_bullet(v, page)
                  for v in sorted(mine, key=lambda v: v.erratum.kind.severity)]
        lines += [""]
    lines += [f"::: {res.function}", ""]
    return lines


def module_of(res: Result[Any]) -> str:
    """The module that defines a result (``reference.results.<topic>.<paper>``)."""
    return res.function.rsplit(".", 1)[0]


def by_module(results: list[Result[Any]]) -> list[tuple[str, list[Result[Any]]]]:
    """``results`` grouped by the module (one paper each) that defines them, in catalogue
    order."""
    modules: dict[str, list[Result[Any]]] = {}
    for res in results:
        modules.setdefault(module_of(res), []).append(res)
    order = list(MODULES)
    return sorted(modules.items(), key=lambda m: (order.index(m[0]) if m[0] in order
                                                   else len(order), m[0]))


_CALL = ("Call a result with keyword arguments for a value at the working precision (50 "
         "digits), or `reference.certified(f, ...)` for an interval enclosing the exact value; "
         "an inverse returns a `Certificate` (see [the numeric contract]({})).")


def _module_head(module: str, members: list[Result[Any]], page: str) -> list[str]:
    """A module's source line and the table of its results, linked from ``page``."""
    sources = sorted({r.source for r in members})
    lines = [f"Module `{module}`. " + ("Source: " if len(sources) == 1 else "Sources: ")
             + "; ".join(source_markdown(src) for src in sources) + ".", "",
             "| id | kind | status | title |", "|---|---|---|---|"]
    lines += [f"| [`{r.id}`]({rel(f'{page_of(r)}#{slug(r.id)}', page)}) | {r.kind} "
              f"| {r.status} | {esc(r.title)} |" for r in members]
    return [*lines, ""]


def family_markdown(family: str, results: list[Result[Any]], errs: list[Verified]) -> str:
    """A topic's page: one section per module (paper); the entries themselves too, unless
    the topic is split over one page per module (:func:`module_markdown`)."""
    index = test_index()
    page = family_page(family)
    split = family in split_topics()
    lines = [f"# {esc(family_title(family))}", "",
             f"The results of `reference.results.{family}`, one "
             + ("page" if split else "section") + " per module (one paper each), generated "
             "from the catalogue when the site is built. "
             + _CALL.format(rel("numeric-contract.md", page)), ""]
    for module, members in by_module(results):
        target = module_page(module) if split else f"{page}#{slug(module)}"
        lines += [f"- [{prose(module_title(module))}]({rel(target, page)}): "
                  + ", ".join(f"[`{r.id}`]({rel(f'{page_of(r)}#{slug(r.id)}', page)})"
                              for r in members)]
    lines.append("")
    for module, members in by_module(results):
        lines += [f"## {prose(module_title(module))} {{#{slug(module)}}}", ""]
        lines += _module_head(module, members, page)
        if not split:
            for res in members:
                lines += result_section(res, index.get(res.id, {}), errs, page)
    return "\n".join(lines)


def module_markdown(module: str, members: list[Result[Any]], errs: list[Verified]) -> str:
    """The page of one module (paper) of a split topic, with the entries of its results."""
    index = test_index()
    page = module_page(module)
    family = module.split(".")[2]
    lines = [f"# {prose(module_title(module))}", "",
             f"Part of [{esc(family_title(family))}]({rel(family_page(family), page)}), "
             "generated from the catalogue when the site is built. "
             + _CALL.format(rel("numeric-contract.md", page)), ""]
    lines += _module_head(module, members, page)
    for res in members:
        lines += result_section(res, index.get(res.id, {}), errs, page)
    return "\n".join(lines)


def catalogue_markdown(groups: dict[str, list[Result[Any]]]) -> str:
    index = test_index()
    results = [r for rs in groups.values() for r in rs]
    by_status = {s: sum(r.status == s for r in results)
                 for s in ("stated", "corrected", "reconstructed")}
    lines = ["# The catalogue", "",
             f"{len(results)} results ({by_status['stated']} stated, "
             f"{by_status['corrected']} corrected where the source is wrong, "
             f"{by_status['reconstructed']} reconstructed) in {len(groups)} topics, "
             "generated from the catalogue (what `python -m reference catalog` lists) when the "
             "site is built. A result's id names its paper and the paper's numbering "
             "(`RSWR23:Lem2.3` is Lemma 2.3 of RSWR23).", "",
             "| topic | results | papers (one section each) |", "|---|---|---|"]
    here = f"{CATALOGUE_DIR}/index.md"
    for f, rs in groups.items():
        links = [f"[{esc(m.rsplit('.', 1)[1])}]("
                 + rel(module_page(m) if f in split_topics() else f"{family_page(f)}#{slug(m)}",
                       here) + ")" for m, _ in by_module(rs)]
        lines.append(f"| [{esc(family_title(f))}]({f}.md) | {len(rs)} | {', '.join(links)} |")
    lines += ["", "| source | paper |", "|---|---|"]
    lines += [f"| `{k}` | {source_markdown(k)} |" for k in SOURCES]
    lines += ["", "## All results", "",
              "| id | kind | status | title | tests (property / stats) |", "|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: r.id):
        t = index.get(r.id, {"property": [], "stats": []})
        lines.append(f"| [`{r.id}`]({rel(f'{page_of(r)}#{slug(r.id)}', here)}) | {r.kind} "
                     f"| {r.status} "
                     f"| {esc(r.title)} | {len(t['property'])} / {len(t['stats'])} |")
    return "\n".join(lines) + "\n"


def kind_anchor(kind: Kind) -> str:
    """Anchor of a kind's section on the errata page: ``kind-false-as-stated``."""
    return f"kind-{kind.value}"


def erratum_bullet(v: Verified, page: str) -> str:
    """The line of an erratum in the section of the result it corrects (on ``page``)."""
    e = v.erratum
    state = "re-verified" if v.confirmed else "NOT re-verified"
    link = rel(f"{CATALOGUE_DIR}/errata.md#{slug(e.id)}", page)
    return (f"- [`{e.id}`]({link}) (**{e.kind.label}**, {state}): "
            f"{esc(e.consequence)}. {esc(e.location)}. Printed: {text_or_math(e.printed)}. "
            f"Implemented: {text_or_math(e.corrected)}.")


def errata_markdown(errs: list[Verified], by_id: dict[str, Result[Any]]) -> str:
    """The errata page: a line counting each kind, then one section per kind, most serious
    first, each entry with its consequence and the live re-verification."""
    ok = sum(v.confirmed for v in errs)
    verified = {v.erratum.id: v for v in errs}
    groups = by_kind([v.erratum for v in errs])
    lines = ["# Errata of the sources", "",
             f"{kind_counts([v.erratum for v in errs])}.", "",
             "Each entry says what the source prints, what goes wrong for someone who uses the "
             "printed form, and what is implemented instead; its counterexample was recomputed "
             f"from the library's exact routes while this page was built ({ok} of {len(errs)} "
             "confirmed). `python -m reference errata` re-verifies them on your machine. The "
             "kinds, most serious first:", "",
             "| kind | entries | meaning |", "|---|---|---|"]
    lines += [f"| [{k.label}](#{kind_anchor(k)}) | {len(es)} | {esc(k.description)} |"
              for k, es in groups.items() if es]
    lines.append("")
    for kind, es in groups.items():
        if not es:
            continue
        lines += [f"## {kind.label.capitalize()} ({len(es)}) {{#{kind_anchor(kind)}}}", "",
                  f"{esc(kind.description[:1].upper() + kind.description[1:])}.", ""]
        for e in es:
            v = verified[e.id]
            state = "confirmed" if v.confirmed else "**NOT confirmed**"
            lines += [f"### `{e.id}` {{#{slug(e.id)}}}", "",
                      f"**{kind.label}** at {esc(e.location)} · re-verification: {state}", "",
                      f"**Consequence.** {esc(e.consequence)}", "",
                      f"- printed: {text_or_math(e.printed)}",
                      f"- implemented: {text_or_math(e.corrected)}",
                      f"- check: {esc(v.detail)}"]
            if e.result is not None:
                lines.append(f"- result: {result_link(e.result, CATALOGUE_DIR, by_id)}")
            lines.append("")
    return "\n".join(lines)


def claims_markdown(by_id: dict[str, Result[Any]]) -> str:
    outcomes = audit(load_claims())
    counts = {v: sum(o.verdict == v for o in outcomes) for v in ("holds", "violated",
                                                                 "undecided")}
    unexpected = [o.claim.id for o in outcomes if o.unexpected]
    lines = ["# The shipped claims", "",
             f"The {len(outcomes)} numeric claims shipped in "
             "`reference/tools/audit/claims/*.toml` (those of the source documents, and "
             "[parameters published by real deployments](../deployments.md)), audited while "
             "this page was built "
             f"({counts['holds']} hold, {counts['violated']} violated, {counts['undecided']} "
             f"undecided; unexpected violations: {', '.join(unexpected) or 'none'}). "
             "`python -m reference audit` repeats the audit; "
             "[Audit a published claim](../audit-a-claim.md) explains the verdicts.", "",
             "| claim | result | claimed | verdict | certified value | margin |",
             "|---|---|---|---|---|---|"]
    for o in outcomes:
        c = o.claim
        rel = esc(c.relation)
        tol = f" ± {decimal_str(c.tolerance, 6)}" if c.relation == "==" else ""
        verdict = o.verdict + (" (known false)" if c.expect == "violated" else "")
        if o.unexpected:
            verdict = f"**{o.verdict.upper()} (unexpected)**"
        enc = "" if o.enclosure is None else (
            f"[{lower_str(o.enclosure.lo, 10)}, {upper_str(o.enclosure.hi, 10)}]")
        margin = "" if o.margin is None else decimal_str(o.margin, 4)
        lines.append(f"| `{c.id}` | {result_link(c.result, CATALOGUE_DIR, by_id)} | "
                     f"{rel} {decimal_str(c.value, 12)}{tol} | {verdict} | {enc} | "
                     f"{margin} |")
    lines += ["", "## What the claims say", ""]
    lines += [f"- `{o.claim.id}` ({esc(o.claim.source)}): {esc(o.claim.text)}"
              for o in outcomes]
    return "\n".join(lines) + "\n"
