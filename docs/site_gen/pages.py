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

import html
import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
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

CATALOGUE_DIR = "catalogue"

#: Reader-facing title of each topic package under ``reference.results``, in reading order.
TOPICS: dict[str, str] = {
    "conversions": "Conversions", "composition": "Composition", "filters": "Filters",
    "odometers": "Odometers", "boundaries": "Time-uniform boundaries",
    "noise_reduction": "Noise reduction", "tct": "Target charging",
    "privacy_loss": "Privacy loss", "concentration": "Concentration",
    "experiments": "Experiments",
}

_ARXIV = re.compile(r"arXiv:(\d{4}\.\d{4,5})")


def source_markdown(prefix: str) -> str:
    """A paper's citation with its arXiv id as a link (the id prefix if it is unknown).

    >>> print(source_markdown("MIR17"))
    Mironov (2017): Rényi differential privacy. CSF 2017; [arXiv:1702.07476](https://arxiv.org/abs/1702.07476)
    """
    text = esc(SOURCES.get(prefix, prefix))
    return _ARXIV.sub(lambda m: f"[arXiv:{m.group(1)}](https://arxiv.org/abs/{m.group(1)})", text)


def esc(text: str) -> str:
    """Plain text made inert for Markdown: every character keeps its meaning as text."""
    out = html.escape(text, quote=False)
    return "".join(f"&#{ord(c)};" if c in "\\`*_[]|{}$#" else c for c in out)


_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")


def text_or_math(text: str) -> str:
    """A field that is either plain text or LaTeX (it holds a TeX command): inline math.

    >>> text_or_math(r"\\approx\\frac{\\varepsilon}{2}")
    '\\\\(\\\\approx\\\\frac{\\\\varepsilon}{2}\\\\)'
    >>> text_or_math("e^eps <= 1 + 2eps")
    'e^eps &lt;= 1 + 2eps'
    """
    if _TEX_COMMAND.search(text):
        return r"\(" + text + r"\)"
    return esc(text)


def prose(text: str) -> str:
    """Like :func:`esc`, but ````code```` and ```code``` spans stay code spans."""
    parts = re.split(r"``(.+?)``|`([^`]+)`", text)
    out = []
    for i, part in enumerate(parts):
        if i % 3 == 0:
            out.append(esc(part))
        elif part is not None:
            out.append(f"`{part}`")
    return "".join(out)


def slug(rid: str) -> str:
    """HTML anchor of a result id: ``RSWR23:Lem2.3-i`` -> ``rswr23-lem2-3-i``."""
    return re.sub(r"[^a-z0-9]+", "-", rid.lower()).strip("-")


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
    out = {rid: f"{family_page(family_of(r))}#{slug(rid)}" for rid, r in by_id.items()}
    out.update({old: out[new] for old, new in ALIASES.items() if new in out})
    return out


def family_page(family: str) -> str:
    """Path (relative to the docs folder) of a family's generated page."""
    return f"{CATALOGUE_DIR}/{family}.md"


def result_link(rid: str, from_dir: str, by_id: dict[str, Result[Any]]) -> str:
    """Markdown link to a result's section, relative to a page in ``from_dir``."""
    if rid not in by_id:
        return f"`{rid}`"
    page = family_page(family_of(by_id[rid]))
    rel = page[len(from_dir) + 1:] if from_dir and page.startswith(from_dir + "/") else page
    return f"[`{rid}`]({rel}#{slug(rid)})"


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
                   errs: list[Verified]) -> list[str]:
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
        lines += [erratum_bullet(v) for v in sorted(mine, key=lambda v: v.erratum.kind.severity)]
        lines += [""]
    lines += [f"::: {res.function}", ""]
    return lines


def module_of(res: Result[Any]) -> str:
    """The module that defines a result (``reference.results.<topic>.<paper>``)."""
    return res.function.rsplit(".", 1)[0]


def family_markdown(family: str, results: list[Result[Any]], errs: list[Verified]) -> str:
    """A topic's page: its results grouped by the module (one per paper) that defines them."""
    index = test_index()
    modules: dict[str, list[Result[Any]]] = {}
    for res in results:
        modules.setdefault(module_of(res), []).append(res)
    order = list(MODULES)
    ordered = sorted(modules.items(), key=lambda m: (order.index(m[0]) if m[0] in order
                                                      else len(order), m[0]))
    lines = [f"# {esc(family_title(family))}", "",
             f"The results of `reference.results.{family}`, one section per module (one "
             "paper each), generated from the catalogue when the site is built. Call a "
             "result with keyword arguments for a value at the working precision (50 "
             "digits), or `reference.certified(f, ...)` for an interval enclosing the exact "
             "value; an inverse returns a `Certificate` (see [the numeric contract]"
             "(../numeric-contract.md)).", ""]
    for module, members in ordered:
        lines += [f"- [{prose(module_title(module))}](#{slug(module)}): "
                  + ", ".join(f"[`{r.id}`](#{slug(r.id)})" for r in members)]
    lines.append("")
    for module, members in ordered:
        sources = sorted({r.source for r in members})
        lines += [f"## {prose(module_title(module))} {{#{slug(module)}}}", "",
                  f"Module `{module}`. "
                  + ("Source: " if len(sources) == 1 else "Sources: ")
                  + "; ".join(source_markdown(src) for src in sources) + ".", "",
                  "| id | kind | status | title |", "|---|---|---|---|"]
        lines += [f"| [`{r.id}`](#{slug(r.id)}) | {r.kind} | {r.status} | {esc(r.title)} |"
                  for r in members]
        lines.append("")
        for res in members:
            lines += result_section(res, index.get(res.id, {}), errs)
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
    for f, rs in groups.items():
        mods = sorted({module_of(r) for r in rs}, key=lambda m: MODULES.index(m)
                      if m in MODULES else len(MODULES))
        lines.append(f"| [{esc(family_title(f))}]({f}.md) | {len(rs)} | "
                     + ", ".join(f"[{esc(m.rsplit('.', 1)[1])}]({f}.md#{slug(m)})" for m in mods)
                     + " |")
    lines += ["", "| source | paper |", "|---|---|"]
    lines += [f"| `{k}` | {source_markdown(k)} |" for k in SOURCES]
    lines += ["", "## All results", "",
              "| id | kind | status | title | tests (property / stats) |", "|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: r.id):
        t = index.get(r.id, {"property": [], "stats": []})
        lines.append(f"| [`{r.id}`]({family_of(r)}.md#{slug(r.id)}) | {r.kind} | {r.status} "
                     f"| {esc(r.title)} | {len(t['property'])} / {len(t['stats'])} |")
    return "\n".join(lines) + "\n"


def kind_anchor(kind: Kind) -> str:
    """Anchor of a kind's section on the errata page: ``kind-false-as-stated``."""
    return f"kind-{kind.value}"


def erratum_bullet(v: Verified) -> str:
    """The line of an erratum in the section of the result it corrects (a family page)."""
    e = v.erratum
    state = "re-verified" if v.confirmed else "NOT re-verified"
    return (f"- [`{e.id}`](errata.md#{slug(e.id)}) (**{e.kind.label}**, {state}): "
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
             f"The {len(outcomes)} numeric claims of the source documents shipped in "
             "`reference/audit/claims/*.toml`, audited while this page was built "
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


def heading(page: Path) -> str:
    """The first-line ``# heading`` of a Markdown page, else its file name."""
    first = page.read_text("utf-8").lstrip().split("\n", 1)[0]
    return first.lstrip("#").strip() if first.startswith("#") else page.stem


def figures_markdown(docs: Path) -> str:
    """A gallery of ``docs/figures/*.png``: where each is shown and which script makes it."""
    lines = ["# Figures", "", "The figures of the documentation (PNG, in `docs/figures/`). "
             "They are regenerated by the scripts named below (`pip install -e '.[docs]'`).",
             ""]
    pages = sorted(docs.glob("*.md"))
    scripts = sorted(docs.glob("*.py"))
    for png in sorted((docs / "figures").glob("*.png")):
        shown = [p for p in pages if f"figures/{png.name}" in p.read_text("utf-8")]
        made = [s for s in scripts if png.name in s.read_text("utf-8")]
        lines += [f"## {esc(png.stem)}", "", f"![{esc(png.stem)}]({png.name})", ""]
        if shown:
            lines.append("Shown in " + ", ".join(f"[{esc(heading(p))}](../{p.name})"
                                                 for p in shown) + ".")
        if made:
            lines.append("Made by " + ", ".join(f"`docs/{s.name}`" for s in made) + ".")
        lines.append("")
    return "\n".join(lines)
