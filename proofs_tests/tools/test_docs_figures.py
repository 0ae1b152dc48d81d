"""Every figure of the docs is shown with a description and a caption.

A ``docs/figures/*.png`` must appear on a hand-written page as
``<figure markdown="span">``, an image whose alt text describes it (a sentence or more, not
a file-name-like label), then a ``<figcaption>`` saying what to see.
"""

from __future__ import annotations

import re

from proofs_tests.tools.test_docs_site import DOCS

_FIGURE = re.compile(r'<figure markdown="span">\n!\[(?P<alt>[^\]]*)\]\(figures/(?P<png>[^)]+)\)\n'
                     r"<figcaption markdown>\n(?P<caption>.*?)\n</figcaption>\n</figure>", re.S)


def figures(text: str) -> dict[str, tuple[str, str]]:
    """``{png: (alt text, caption)}`` of the captioned figures of a page.

    >>> figures('<figure markdown="span">\\n![A chart.](figures/a.png)\\n'
    ...         '<figcaption markdown>\\nSee.\\n</figcaption>\\n</figure>')
    {'a.png': ('A chart.', 'See.')}
    """
    return {m["png"]: (m["alt"], m["caption"]) for m in _FIGURE.finditer(text)}


def problems(text: str) -> list[str]:
    """Images of ``figures/`` on a page that lack the figure markup, alt text or caption."""
    shown = figures(text)
    out = [f"{png}: not in a <figure> with a <figcaption>"
           for png in re.findall(r"\]\(figures/([^)]+\.png)\)", text) if png not in shown]
    for png, (alt, caption) in shown.items():
        if len(alt.split()) < 12:
            out.append(f"{png}: the alt text does not describe the figure: {alt!r}")
        if len(caption.split()) < 12:
            out.append(f"{png}: the caption is too short to say what to see: {caption!r}")
    return out


def test_every_figure_is_shown_with_alt_text_and_caption() -> None:
    pages = {p.name: p.read_text("utf-8") for p in DOCS.glob("*.md")}
    bad = {name: why for name, text in pages.items() for why in [problems(text)] if why}
    assert not bad, bad
    shown = {png for text in pages.values() for png in figures(text)}
    assert shown == {p.name for p in (DOCS / "figures").glob("*.png")}


def test_a_bare_image_is_reported() -> None:
    """Power check: an image without caption and a terse alt text are both reported."""
    assert problems("![odometer](figures/x.png)\n") == [
        "x.png: not in a <figure> with a <figcaption>"]
    terse = ('<figure markdown="span">\n![odometer vs heuristic](figures/x.png)\n'
             "<figcaption markdown>\nThe figure.\n</figcaption>\n</figure>")
    assert len(problems(terse)) == 2
