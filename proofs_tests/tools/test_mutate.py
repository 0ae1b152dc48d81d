"""The mutation tester itself (reference.tools.mutate): the mutants it plants in a small
snippet, what it skips, and a toy project where a weak test lets a mutant survive and a
strong one kills it."""

from __future__ import annotations

import ast
from pathlib import Path

from reference.tools.mutate import run_module
from reference.tools.mutation_report import load_equivalent, summarise
from reference.tools.mutation_sites import mutants, mutated_source

SNIPPET = '''"""Docstring 1 < 2 is not code."""
def f(x: int = 3, y: float = 0.5) -> bool:
    """Doc."""
    if x > 0 and not y:
        raise ValueError(f"bad {x + 1}")
    return min(x, 2) * -y == 1.0 or True
'''


def test_snippet_mutants_are_the_expected_ones() -> None:
    got = {(m.line, m.original, m.mutated) for m in mutants("snippet.py", SNIPPET)}
    expected = {
        (2, "3", "4"), (2, "0.5", "1.5"),      # defaults are code; annotations are not
        (4, "x > 0 and not y", "x > 0 or not y"),
        (4, "x > 0", "x >= 0"), (4, "x > 0", "x < 0"), (4, "x > 0", "x > 1"),
        (4, "not y", "y"),
        (6, "min(x, 2) * -y == 1.0 or True", "min(x, 2) * -y == 1.0 and True"),
        (6, "min(x, 2) * -y == 1.0 or True", "min(x, 2) * -y == 1.0 or False"),
        (6, "min(x, 2) * -y == 1.0", "min(x, 2) * -y != 1.0"),
        (6, "min(x, 2) * -y == 1.0", "min(x, 2) * -y == 0.0"),
        (6, "min(x, 2) * -y", "min(x, 2) / -y"),
        (6, "min(x, 2)", "max(x, 2)"), (6, "min(x, 2)", "min(x, 3)"),
        (6, "-y", "y"),
    }
    assert got == expected, (got - expected, expected - got)
    assert len(mutants("snippet.py", SNIPPET)) == len(expected)
    # skipped: both docstrings, the annotations, the raise with its f-string
    assert not any(m.line in (1, 3, 5) for m in mutants("snippet.py", SNIPPET))


def test_each_mutant_changes_only_its_site() -> None:
    reference = ast.dump(ast.parse(SNIPPET))
    for m in mutants("snippet.py", SNIPPET):
        text = mutated_source(SNIPPET, m)
        assert ast.dump(ast.parse(text)) != reference
        assert m.mutated in " ".join(text.split()) or m.line == 2


TOY = "def below(x):\n    return x < 10\n"
WEAK = "from reference.toy import below\n\ndef test_below():\n    assert below(3)\n"
STRONG = WEAK + "    assert below(9) and not below(10)\n"
#: pytest without the plugins this toy does not need (keeps the eight runs quick)
FAST = ["-p", "no:hypothesispytest", "-p", "no:doctest"]


def _statuses(root: Path, test: str, toy: str = TOY, select: bool = True) -> dict[str, str]:
    (root / "reference").mkdir(parents=True)
    (root / "reference" / "__init__.py").write_text("")
    (root / "reference" / "toy.py").write_text(toy)
    (root / "proofs_tests").mkdir()
    (root / "proofs_tests" / "test_toy.py").write_text(test)
    outcomes, _, _ = run_module("reference/toy.py", [["proofs_tests/test_toy.py", *FAST]],
                                root=root, select=select)
    assert [m.original for m, _ in outcomes].count("x < 10") == 3
    return {m.mutated: status for m, status in outcomes}


def test_weak_test_lets_a_mutant_survive_and_a_strong_one_kills_it(tmp_path: Path) -> None:
    """At 3 only ``x > 10`` differs; ``below(10)`` tells ``x <= 10`` and ``x < 11`` apart."""
    weak = _statuses(tmp_path / "weak", WEAK)
    assert weak == {"x <= 10": "survived", "x > 10": "killed", "x < 11": "survived"}
    strong = _statuses(tmp_path / "strong", STRONG)
    assert strong == {"x <= 10": "killed", "x > 10": "killed", "x < 11": "killed"}
    # the listing mechanism: a survivor listed (module, line, texts) counts as equivalent
    listed = [{"module": "reference/toy.py", "line": 2, "original": "x < 10",
               "mutated": "x <= 10", "reason": "(mechanism test only)"}]
    outcomes = [(m, weak[m.mutated]) for m in mutants("reference/toy.py", TOY)]
    summary = summarise("reference/toy.py", outcomes, listed, 1.0, 1.0, [])
    assert summary.counts == {"killed": 1, "error": 0, "timeout": 0, "equivalent": 1,
                              "survived": 1}
    assert summary.score == 0.5


#: ``never`` is called by no test; ``square`` only by a test that cannot tell x ** 2 from x * 2
TOY_REACH = TOY + "def never(x):\n    return x - 1\n\ndef square(x):\n    return x ** 2\n"
TEST_REACH = STRONG + "\ndef test_square():\n    from reference.toy import square\n" \
    "    assert square(2) == 4\n"


def test_coverage_selection_runs_only_tests_that_reach_the_line(tmp_path: Path) -> None:
    """Same verdicts with and without the selection; a line no test runs is ``unreached``
    (a survivor without a run), one a test runs is judged by running that test."""
    chosen = _statuses(tmp_path / "select", TEST_REACH, TOY_REACH)
    everything = _statuses(tmp_path / "all", TEST_REACH, TOY_REACH, select=False)
    assert chosen == {"x <= 10": "killed", "x > 10": "killed", "x < 11": "killed",
                      "x + 1": "unreached", "x - 0": "unreached",
                      "x * 2": "survived", "x ** 3": "killed"}
    assert everything == {**chosen, "x + 1": "survived", "x - 0": "survived"}
    summary = summarise("reference/toy.py", [(m, chosen[m.mutated]) for m in
                                             mutants("reference/toy.py", TOY_REACH)],
                        [], 1.0, 1.0, [])
    assert summary.counts["survived"] == 3
    assert sum("no mapped test runs this line" in line for line in summary.lines()) == 2


TOY_CONT = TOY + "def pair():\n    return sum((1,\n                5))\n"
TEST_CONT = STRONG + "\ndef test_pair():\n    from reference.toy import pair\n" \
    "    assert pair() == 6\n"


def test_a_mutant_on_a_continuation_line_is_reached_through_its_statement(
        tmp_path: Path) -> None:
    """Coverage records the constant tuple ``(1,\\n 5)`` under the statement's first line only;
    the mutant of ``5`` on the next line is still run against the test that reaches it."""
    found = _statuses(tmp_path / "cont", TEST_CONT, TOY_CONT)
    assert found["(1, 6)"] == "killed" and found["(0, 5)"] == "killed"
    first = TOY_CONT.splitlines().index("    return sum((1,") + 1
    assert [(m.line, m.stmt_line) for m in mutants("reference/toy.py", TOY_CONT)
            if m.mutated == "(1, 6)"] == [(first + 1, first)]


def test_equivalent_list_parses_and_names_its_fields() -> None:
    """Each entry names an existing module whose listed line holds the original text: an
    edit that moves the code leaves no entry pointing at another line (a pair occurring
    twice in its module matches by line only, so a stale line would silently unlist it)."""
    for entry in load_equivalent():
        assert {"module", "line", "original", "mutated", "reason"} <= set(entry), entry
        module = Path(__file__).parents[2] / str(entry["module"])
        lines = module.read_text().splitlines()
        line = int(str(entry["line"]))
        assert 1 <= line <= len(lines) and str(entry["original"]) in lines[line - 1], entry


def test_a_listed_pair_survives_line_shifts_unless_it_is_ambiguous() -> None:
    """A listed (original, mutated) pair unique in its module matches at any line (edits
    above it move it); one that occurs twice matches only at its listed line."""
    from reference.tools.mutation_report import is_listed
    from reference.tools.mutation_sites import Mutant

    entry = [{"module": "m.py", "line": 2, "original": "x < 10", "mutated": "x <= 10"}]
    moved = Mutant("m.py", 0, 0, 7, "x < 10", "x <= 10")
    assert is_listed(moved, entry, unique=True)
    assert not is_listed(moved, entry, unique=False)
    assert is_listed(Mutant("m.py", 0, 0, 2, "x < 10", "x <= 10"), entry, unique=False)
    assert not is_listed(Mutant("m.py", 0, 0, 2, "x < 10", "x > 10"), entry, unique=True)
    assert not is_listed(Mutant("n.py", 0, 0, 2, "x < 10", "x <= 10"), entry, unique=True)


def test_a_record_of_an_older_module_text_is_stale(tmp_path: Path) -> None:
    from reference.tools.mutation_report import Summary, source_hash, stale

    (tmp_path / "reference").mkdir()
    module = tmp_path / "reference" / "toy.py"
    module.write_text(TOY)
    counts = {"killed": 3, "error": 0, "timeout": 0, "equivalent": 0, "survived": 0}
    record = Summary("reference/toy.py", counts, [], 1.0, 1.0, [], "now", source_hash(TOY))
    assert stale(record, tmp_path) == ""
    module.write_text(TOY.replace("10", "12"))
    assert stale(record, tmp_path) == "the module changed since this run"
    old = Summary("reference/toy.py", counts, [], 1.0, 1.0, [], "then")  # no fingerprint
    assert stale(old, tmp_path) == ""  # same number of mutants (3)
    module.write_text(TOY + "def g(y):\n    return y + 1\n")
    assert stale(old, tmp_path) == "the module now has 5 mutants"
    module.unlink()
    assert stale(old, tmp_path) == "the module no longer exists"


def test_a_survivor_listed_after_its_run_counts_as_equivalent(tmp_path: Path) -> None:
    """The page applies the current list to a current record both ways: listing a survivor
    makes it equivalent, unlisting makes it a survivor again; a stale record is left as run."""
    from reference.tools.mutation_report import Summary, relist, source_hash, write_report

    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "toy.py").write_text(TOY)
    counts = {"killed": 2, "error": 0, "timeout": 0, "equivalent": 0, "survived": 1}
    survivor = {"line": 2, "original": "x < 10", "mutated": "x <= 10", "equivalent": False}
    record = Summary("reference/toy.py", counts, [survivor], 1.0, 1.0, [], "now",
                     source_hash(TOY))
    entry = {"module": "reference/toy.py", "line": 7, "original": "x < 10",
             "mutated": "x <= 10", "reason": "(mechanism test only)"}   # unique pair: any line
    listed = relist(record, [entry], tmp_path)
    assert listed.counts == {**counts, "equivalent": 1, "survived": 0}
    assert listed.survivors == [{**survivor, "equivalent": True}] and listed.score == 1.0
    assert relist(listed, [], tmp_path) == record
    assert relist(record, [{**entry, "mutated": "x > 10"}], tmp_path) == record
    # through the page: a record of the current text is re-judged, a stale one is not
    page = tmp_path / "docs" / "report.md"
    write_report(page, record, ("reference/toy.py",), tmp_path)
    assert "| 2 | 0 | 0 | 0 | 1 |" in page.read_text()   # nothing listed for the toy
    (tmp_path / "reference" / "toy.py").write_text(TOY.replace("10", "12"))
    write_report(page, None, ("reference/toy.py",), tmp_path)
    assert "**Stale:**" in page.read_text() and "**survived** line 2" in page.read_text()
    assert "Stale (the module changed since its run; its row is the old run): " \
           "`reference/toy.py`." in page.read_text()
