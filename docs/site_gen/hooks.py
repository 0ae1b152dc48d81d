"""MkDocs hooks of the documentation site (``docs/mkdocs.yml``).

The Markdown pages live in ``docs/`` itself, next to ``mkdocs.yml`` (the README links to
them and pytest runs them as doctests).  MkDocs refuses a ``docs_dir`` that contains its
configuration file, so ``mkdocs.yml`` names a placeholder child folder and
:func:`on_config` points ``docs_dir`` at ``docs/`` once the configuration is validated
(``exclude_docs`` keeps the scripts, this folder and ``mkdocs.yml`` out of the site).

The hooks also

* build the navigation from the pages present at build time (pages written later, such
  as the conformance report, join it when they exist; none is ever left out);
* add the pages generated from the live catalogue (:mod:`pages`): one per family, the
  catalogue, the errata (re-verified during the build), the shipped claims (audited
  during the build) and the figure gallery;
* leave MathJax (the one script loaded from a CDN) out of the pages without math;
* render bare doctest paragraphs (``>>>`` lines outside a fenced block, which doctest
  runs but Markdown would show as nested quotes) as ``pycon`` code blocks, as
  :mod:`griffe_doctest` does for the docstrings shown by mkdocstrings;
* link every result id mentioned on a page to its catalogue entry (:mod:`links`);
* render the math as MathML while the site is built (:mod:`mathml`): no page loads a
  renderer (or anything else) from outside the site.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

DOCS = Path(__file__).resolve().parent.parent
# The generator next to this file, and the package of this checkout (documented from its
# source, whether or not that is the installed copy).
sys.path[:0] = [str(Path(__file__).resolve().parent), str(DOCS.parent)]

import pages  # noqa: E402
from griffe_doctest import fence_doctests  # noqa: E402
from links import link_ids  # noqa: E402
from mathml import render_html  # noqa: E402
from mdtext import figures_markdown, heading, heading_of  # noqa: E402
from relations_page import PAGE as RELATIONS_PAGE  # noqa: E402
from relations_page import relations_markdown  # noqa: E402

#: Hand-written pages, in navigation order: (section, file, title).  A page that does not
#: exist when the site is built is skipped; a ``docs/*.md`` page missing here is added
#: under "Topics".
KNOWN: list[tuple[str, str, str]] = [
    ("", "index.md", "Home"),
    ("Using the oracle", "audit-a-claim.md", "Audit a published claim"),
    ("Using the oracle", "claims.md", "Claims files"),
    ("Using the oracle", "deployments.md", "Audited deployments"),
    ("Using the oracle", "testing-your-library.md", "Test your library against the oracle"),
    ("Using the oracle", "conformance-report.md", "Conformance report"),
    ("Using the oracle", "numeric-contract.md", "The numeric contract"),
    ("Using the oracle", "speed.md", "Speed against the peers"),
    ("Topics", "conversions.md", "Conversions"),
    ("Topics", "filters-odometers.md", "Filters and odometers"),
    ("Topics", "boundaries-brownian.md", "Boundaries and Brownian noise reduction"),
    ("Topics", "noise-reduction.md", "Noise reduction"),
    ("Topics", "target-charging.md", "Target charging"),
    ("Topics", "dpsgd.md", "DP-SGD accounting"),
    ("Development", "architecture.md", "Architecture"),
    ("Development", "mutation-report.md", "Mutation testing report"),
]

#: Marker in ``index.md`` replaced by the list of the site's pages.
PAGES_MARKER = "<!-- site-pages -->"

_generated: dict[str, str] = {}
#: Result id (or alias) -> the catalogue entry its mentions link to.
_targets: dict[str, str] = {}
_nav_titles: dict[str, str] = {}


def _generate() -> dict[str, str]:
    """``{path relative to docs/: markdown}`` of every generated page."""
    groups = pages.families()
    by_id = {r.id: r for rs in groups.values() for r in rs}
    errs = pages.verified_errata()
    _targets.clear()
    _targets.update(pages.link_targets(by_id))
    out = {f"{pages.CATALOGUE_DIR}/index.md": pages.catalogue_markdown(groups),
           f"{pages.CATALOGUE_DIR}/errata.md": pages.errata_markdown(errs, by_id),
           f"{pages.CATALOGUE_DIR}/claims.md": pages.claims_markdown(by_id),
           RELATIONS_PAGE: relations_markdown()}
    for family, results in groups.items():
        out[pages.family_page(family)] = pages.family_markdown(family, results, errs)
        if family in pages.split_topics():
            for module, members in pages.by_module(results):
                out[pages.module_page(module)] = pages.module_markdown(module, members, errs)
    if (DOCS / "figures").is_dir() and not (DOCS / "figures" / "index.md").exists():
        out["figures/index.md"] = figures_markdown(DOCS)
    clash = [p for p in out if (DOCS / p).exists()]
    if clash:
        raise ValueError(f"generated pages would hide files of docs/: {clash}")
    return out


def _nav(generated: dict[str, str]) -> list[Any]:
    present = {p.name for p in DOCS.glob("*.md")}
    sections: dict[str, list[Any]] = {}
    nav: list[Any] = []
    listed = set()
    for section, path, title in KNOWN:
        if path not in present:
            continue
        listed.add(path)
        _nav_titles[path] = title
        if section:
            sections.setdefault(section, []).append({title: path})
        else:
            nav.append({title: path})
    for path in sorted(present - listed):
        _nav_titles[path] = heading(DOCS / path)
        sections.setdefault("Topics", []).append({_nav_titles[path]: path})
    cat = pages.CATALOGUE_DIR
    families = [p for p in generated if p.count("/") == 1 and p.startswith(cat + "/")
                and p.rsplit("/", 1)[1] not in ("index.md", "errata.md", "claims.md",
                                                "relations.md")]
    catalogue: list[Any] = [{"All results": f"{cat}/index.md"}]
    for page in families:                                   # in reading order
        topic = Path(page).stem
        title = pages.family_title(topic)
        modules = [p for p in generated if p.startswith(f"{cat}/{topic}/")]
        for m in modules:
            _nav_titles[m] = heading_of(generated[m])
        catalogue.append({title: [{"Overview": page}, *({_nav_titles[m]: m} for m in modules)]}
                         if modules else {title: page})
    catalogue += [{"Errata": f"{cat}/errata.md"}, {"Shipped claims": f"{cat}/claims.md"},
                  {"Proved relations": RELATIONS_PAGE}]
    for title, path in (("Catalogue", f"{cat}/index.md"), ("Errata", f"{cat}/errata.md"),
                        ("Shipped claims", f"{cat}/claims.md"),
                        ("Proved relations", RELATIONS_PAGE)):
        _nav_titles[path] = title
    nav += [{s: items} for s, items in sections.items()]
    nav.append({"Catalogue": catalogue})
    if "figures/index.md" in generated:
        nav.append({"Figures": "figures/index.md"})
        _nav_titles["figures/index.md"] = "Figures"
    return nav


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config["docs_dir"] = str(DOCS)
    _generated.clear()
    _generated.update(_generate())
    _nav_titles.clear()
    config["nav"] = _nav(_generated)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path, text in _generated.items():
        files.append(File.generated(config, path, content=text))
    return files


def _pages_list(page: Page) -> str:
    items = [f"- [{title}]({path})" for path, title in _nav_titles.items()
             if path != page.file.src_uri]
    return "\n".join(items)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    markdown = fence_doctests(markdown)
    if PAGES_MARKER in markdown:
        markdown = markdown.replace(PAGES_MARKER, _pages_list(page))
    return link_ids(markdown, page.file.src_uri, _targets)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return render_html(html, page.file.src_uri)
