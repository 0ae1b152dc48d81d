"""What a reader of the shipped code can follow.

* Every ``corrected`` or ``reconstructed`` result carries a proof note: a paragraph headed
  ``Proof note.`` in its formula's docstring (the derivation a reader needs to check it), or
  a link from the docstring to a section of a page under ``docs/`` that holds one.
* Nothing shipped (``reference/``, ``docs/``, ``README.md``, the tests) cites working
  material that is not in the repository ("catalog-00X", "seed 00X", "anchors §", "audit
  A5", ...): papers are cited by authors, year, title, numbering and arXiv id.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference import catalogue
from reference.core.model import Result

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = re.compile(r"catalog-?00[0-9]|seed ?00[0-9]|anchors §|anchors\.md|catalog's"
                       r"|\bthe catalog\b|\baudit A[0-9]", re.IGNORECASE)
NOTE = re.compile(r"Proof note\.")
DOC_LINK = re.compile(r"docs/([\w\-]+\.md)#([\w\-]+)")


def forbidden_citations(text: str) -> list[str]:
    """The forbidden citations in ``text`` (one string per hit)."""
    return [m.group(0) for m in FORBIDDEN.finditer(text)]


def has_proof_note(doc: str, docs_dir: Path = ROOT / "docs") -> bool:
    """``doc`` holds a proof note, or links ``docs/<page>.md#<anchor>`` whose section has one."""
    if NOTE.search(doc):
        return True
    for page, anchor in DOC_LINK.findall(doc):
        path = docs_dir / page
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for section in re.split(r"\n(?=#)", text):
            heading = section.split("\n", 1)[0]
            if f"{{#{anchor}}}" in heading and NOTE.search(section):
                return True
    return False


def test_checkers_can_fail(tmp_path: Path) -> None:
    assert forbidden_citations("as in catalog-003 §6 and seed 002") == ["catalog-003", "seed 002"]
    assert forbidden_citations("RRUV16 Theorem 6.5 (arXiv:1605.08294)") == []
    assert not has_proof_note("The corrected constant.", tmp_path)
    (tmp_path / "page.md").write_text("# Page\n\n## A {#a}\n\nProof note. Because.\n\n## B {#b}\n")
    assert has_proof_note("See docs/page.md#a.", tmp_path)
    assert not has_proof_note("See docs/page.md#b.", tmp_path)


NOT_STATED = [r for r in catalogue() if r.status != "stated"]


@pytest.mark.parametrize("res", NOT_STATED, ids=[r.id for r in NOT_STATED])
def test_corrected_and_reconstructed_results_carry_a_proof_note(res: Result[object]) -> None:
    assert has_proof_note(res.core.__doc__ or ""), (
        f"{res.id} ({res.status}): its docstring ({res.function}) has no 'Proof note.' "
        "paragraph and links no docs section with one")


def _shipped() -> list[Path]:
    """Everything a reader gets: the package, the docs, the README, and the tests (which
    document where their expected values come from); this file names the patterns."""
    files = [p for p in (ROOT / "reference").rglob("*") if p.suffix in (".py", ".toml")]
    files += [p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".py", ".yml")]
    files += [p for d in ("proofs_tests", "stats_tests") for p in (ROOT / d).rglob("*.py")
              if p.resolve() != Path(__file__).resolve()]
    return [*sorted(files), ROOT / "README.md"]


def test_nothing_shipped_cites_documents_outside_the_repository() -> None:
    hits = {str(p.relative_to(ROOT)): forbidden_citations(p.read_text(encoding="utf-8"))
            for p in _shipped()}
    assert {p: h for p, h in hits.items() if h} == {}
