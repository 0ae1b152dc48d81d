"""The catalogue tables of the topic pages list exactly the results of their family.

``docs/filters-odometers.md``, ``docs/boundaries-brownian.md`` and
``docs/noise-reduction.md`` each have a table ``| id | kind | status | result | function |``
of the registered results of their family.  The catalogue (``reference.catalogue()``) is
the independent side: every result whose function lives in the family's modules must have
a row, with its kind, status and function, and no other row may be there.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from proofs_tests.tools.test_docs_site import DOCS
from reference import catalogue

_ROW = re.compile(r"^\| `([^`]+)` \| (\w+) \| (\w+) \|.*\| `([^`]+)` \|$", re.M)


def _modules(*names: str) -> Callable[[str], bool]:
    """Whether a function path ``reference.results.<topic>.<module>.f`` is in ``names``
    (``topic.module``, or a whole ``topic``)."""
    def inside(function: str) -> bool:
        topic, module = function.split(".")[2:4]
        return topic in names or f"{topic}.{module}" in names
    return inside


FAMILIES: dict[str, Callable[[str], bool]] = {
    "filters-odometers.md": _modules("filters.rruv16", "filters.rswr23", "odometers.rruv16",
                                     "concentration.rruv16"),
    "boundaries-brownian.md": _modules("boundaries", "experiments", "noise_reduction.brownian",
                                       "noise_reduction.evalues", "filters.rswr23_brownian"),
    "noise-reduction.md": _modules("noise_reduction.laplace", "noise_reduction.skellam",
                                   "noise_reduction.rat", "noise_reduction.ex_post"),
}


def table(text: str) -> dict[str, tuple[str, str, str]]:
    """``{id: (kind, status, function)}`` of the catalogue table of a page.

    >>> table("| `A:1` | bound | stated | Title | `reference.results.x.y.f` |")
    {'A:1': ('bound', 'stated', 'reference.results.x.y.f')}
    """
    return {i: (k, s, f) for i, k, s, f in _ROW.findall(text)}


def family(inside: Callable[[str], bool]) -> dict[str, tuple[str, str, str]]:
    return {r.id: (r.kind, r.status, r.function) for r in catalogue() if inside(r.function)}


def drift(page: str, text: str) -> dict[str, object]:
    """The rows where the page and the catalogue differ (empty when they agree)."""
    shown, registered = table(text), family(FAMILIES[page])
    return {i: (shown.get(i, "missing on the page"), registered.get(i, "not in the family"))
            for i in shown.keys() | registered.keys() if shown.get(i) != registered.get(i)}


@pytest.mark.parametrize("page", sorted(FAMILIES))
def test_table_matches_the_catalogue(page: str) -> None:
    text = (DOCS / page).read_text("utf-8")
    assert len(table(text)) >= 10, "the table was not found"
    assert not drift(page, text), drift(page, text)


def test_drift_is_reported() -> None:
    """Power check: a removed row, a changed status and an extra row are each reported."""
    page = "filters-odometers.md"
    text = (DOCS / page).read_text("utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `RRUV16:Thm5.1` |"))
    assert set(drift(page, text.replace(row + "\n", ""))) == {"RRUV16:Thm5.1"}
    restated = row.replace("| stated |", "| corrected |")
    assert set(drift(page, text.replace(row, restated))) == {"RRUV16:Thm5.1"}
    extra = "| `RRUV16:Thm9.9` | filter | stated | x | `reference.results.filters.rruv16.f` |"
    assert set(drift(page, text.replace(row, f"{row}\n{extra}"))) == {"RRUV16:Thm9.9"}


def test_the_results_on_balls_are_named_in_the_numeric_contract() -> None:
    """numeric-contract.md ("Two enclosing evaluators") names every result certified on
    Arb's balls and says how many there are (the ids themselves are pinned in
    proofs_tests/test_contract_balls.py)."""
    on_balls = [r.id for r in catalogue() if r.balls]
    text = " ".join((DOCS / "numeric-contract.md").read_text().split())
    section = text[text.index("### Two enclosing evaluators"):text.index("Not the finite-pair")]
    assert [rid for rid in on_balls if f"`{rid}`" not in section] == []
    assert len(on_balls) == 53 and "Fifty-three results do so." in section
