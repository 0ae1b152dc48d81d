"""Result ids on the docs site are links, and the catalogue is read by topic and paper.

* Every result id that a hand-written page (``docs/*.md``) mentions in its text (outside
  code blocks and headings) is a link, in the built page, to that result's catalogue entry.
  A power check feeds the same checker a page whose link is missing.
* Every topic package has a reader-facing title; each topic page has one section per
  module (paper) defining its results, and the sources are linked to arXiv.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from proofs_tests.tools.test_docs_site import DOCS, _load, needs_mkdocs
from reference.core.catalogue import ALIASES, SOURCES
from reference.results import MODULES, catalogue

pytestmark = needs_mkdocs
links = _load(DOCS / "site_gen" / "links.py")
pages: Any = _load(DOCS / "site_gen" / "pages.py")
IDS = [r.id for r in catalogue()] + list(ALIASES)


def mentioned_ids(markdown: str) -> set[str]:
    """Ids that a page's Markdown mentions where the linker must link them."""
    pattern = links.id_pattern(IDS)
    found: set[str] = set()
    fenced = doctest_paragraph = False
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        doctest_paragraph = (doctest_paragraph and stripped != "") or stripped.startswith(">>>")
        if fenced or doctest_paragraph or stripped.startswith(("#", ":::", "<!--")):
            continue
        for m in pattern.finditer(line):
            skip = m.group("skip")
            if skip is None:
                found.add(m.group("id"))
            elif skip.startswith("`") and skip.strip("`").strip() in IDS:
                found.add(skip.strip("`").strip())
    return found


def unlinked(page_html: str, ids: set[str]) -> set[str]:
    """The ids of ``ids`` that have no ``<a href="...#anchor">`` to their entry in the page."""
    hrefs = {html.unescape(h) for h in re.findall(r'<a [^>]*href="([^"]*)"', page_html)}
    anchors = {h.rsplit("#", 1)[1] for h in hrefs if "#" in h}
    return {i for i in ids if pages.slug(ALIASES.get(i, i)) not in anchors}


def test_checker_finds_a_missing_link() -> None:
    md = "Compare with RSWR23:Lem2.3 and `KOV15:Thm3.3`; `value RRUV16:Thm2.9` is a command."
    assert mentioned_ids(md) == {"RSWR23:Lem2.3", "KOV15:Thm3.3"}
    first = '<a href="../catalogue/conversions/#rswr23-lem2-3">x</a>'
    second = '<a href="../catalogue/composition/#kov15-thm3-3">y</a>'
    assert unlinked(first + second, mentioned_ids(md)) == set()
    assert unlinked(first, mentioned_ids(md)) == {"KOV15:Thm3.3"}
    assert mentioned_ids(">>> f()\nRSWR23:Lem2.3\n\nKOV15:Thm3.3") == {"KOV15:Thm3.3"}


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_mentioned_id_links_to_its_entry(site: Path, page: str) -> None:
    ids = mentioned_ids((DOCS / page).read_text(encoding="utf-8"))
    built = site / ("index.html" if page == "index.md" else f"{page[:-3]}/index.html")
    assert unlinked(built.read_text(encoding="utf-8"), ids) == set()


def test_every_topic_has_a_title_and_a_page_per_topic(site: Path) -> None:
    topics = {r.function.split(".")[2] for r in catalogue()}
    assert topics <= set(pages.TOPICS)
    for topic in topics:
        text = (site / "catalogue" / topic / "index.html").read_text(encoding="utf-8")
        assert f">{pages.TOPICS[topic]}<" in text or f">{pages.TOPICS[topic]}\n" in text


def built(site: Path, page: str) -> str:
    """The HTML of a generated page (``catalogue/...md``)."""
    return (site / page.removesuffix(".md") / "index.html").read_text(encoding="utf-8")


def test_topic_pages_have_a_section_per_paper_with_its_source(site: Path) -> None:
    for res in catalogue():
        topic = res.function.split(".")[2]
        module = res.function.rsplit(".", 1)[0]
        assert module in MODULES
        assert f'id="{pages.slug(module)}"' in built(site, pages.family_page(topic)), module
        assert f'id="{pages.slug(res.id)}"' in built(site, pages.page_of(res)), res.id


def test_large_topics_have_a_page_per_paper(site: Path) -> None:
    """A topic of more than SPLIT_OVER results: an overview and one page per module, each
    holding exactly the entries of its module; smaller topics keep one page."""
    counts = Counter(r.function.split(".")[2] for r in catalogue())
    assert pages.split_topics() == {t for t, n in counts.items() if n > pages.SPLIT_OVER}
    assert pages.split_topics(), "no topic is large enough to test the split"
    for res in catalogue():
        topic = res.function.split(".")[2]
        overview = built(site, pages.family_page(topic))
        if topic in pages.split_topics():
            page = pages.module_page(res.function.rsplit(".", 1)[0])
            assert pages.page_of(res) == page
            assert f'id="{res.function}"' in built(site, page)
            assert f'id="{res.function}"' not in overview
        else:
            assert pages.page_of(res) == pages.family_page(topic)


def test_sources_link_to_arxiv() -> None:
    for prefix, text in SOURCES.items():
        arxiv = re.search(r"arXiv:(\d{4}\.\d{4,5})", text)
        md = pages.source_markdown(prefix)
        if arxiv:
            assert f"(https://arxiv.org/abs/{arxiv.group(1)})" in md, prefix
        else:
            assert "arxiv.org" not in md, prefix
