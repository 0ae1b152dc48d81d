"""Every erratum of the catalogue has a kind of the fixed classification and a consequence.

The kinds (:class:`reference.core.errata.Kind`) are ordered by severity; an erratum without
a kind of the enum or without a one-line consequence cannot be made.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json

import pytest

from reference.core.errata import (
    Check,
    Erratum,
    Kind,
    by_kind,
    erratum,
    in_severity_order,
    kind_counts,
)
from reference.results import errata, load
from reference.tools.cli import main


def test_every_erratum_has_a_kind_and_a_consequence() -> None:
    found = load().errata
    assert len(found) == len(errata()) > 0
    for e in found.values():
        assert isinstance(e.kind, Kind), e.id
        assert e.consequence.strip() and "\n" not in e.consequence, e.id


def test_kinds_are_ordered_by_severity() -> None:
    assert [k.severity for k in Kind] == list(range(len(Kind)))
    assert next(iter(Kind)) is Kind.FALSE_AS_STATED and list(Kind)[-1] is Kind.TYPO
    assert all(k.description and k.label == k.value.replace("-", " ") for k in Kind)


def test_grouping_keeps_every_erratum_once_in_severity_order() -> None:
    es = errata()
    ordered = in_severity_order(es)
    assert sorted(e.id for e in ordered) == sorted(e.id for e in es)
    assert [e.kind.severity for e in ordered] == sorted(e.kind.severity for e in es)
    assert sum(len(g) for g in by_kind(es).values()) == len(es)


def _ok() -> Check:
    return Check(True, "")


def test_a_kind_must_be_a_kind_and_a_consequence_one_line() -> None:
    with pytest.raises(ValueError, match="consequence"):
        erratum("X:1", location="l", printed="p", corrected="c", kind=Kind.TYPO,
                consequence=" ")(_ok)
    with pytest.raises(ValueError, match="consequence"):
        erratum("X:1", location="l", printed="p", corrected="c", kind=Kind.TYPO,
                consequence="a\nb")(_ok)
    with pytest.raises(TypeError, match="kind"):
        Erratum("X:1", "l", "p", "c", "error", "none", None, _ok)  # type: ignore[arg-type]


def test_cli_json_keeps_the_field_kind_with_the_new_values() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["errata", "--json"])
    rows = json.loads(out.getvalue())
    assert code == 0 and len(rows) == len(errata())
    assert {r["kind"] for r in rows} <= {k.value for k in Kind}
    assert all(r["consequence"] for r in rows)
    sev = [Kind(r["kind"]).severity for r in rows]
    assert sev == sorted(sev)


def test_kind_counts_in_words_and_records_are_immutable() -> None:
    """Three made-up entries (two typos, one ambiguity): the words a reader sees, written
    out by hand; an erratum and its check cannot be changed after the catalogue holds them."""
    made = [erratum(f"X:{i}", location="l", printed="p", corrected="c", kind=k,
                    consequence="none")(_ok)
            for i, k in enumerate((Kind.TYPO, Kind.AMBIGUITY, Kind.TYPO))]
    assert kind_counts(made) == "3 entries: 1 ambiguity, 2 typos"
    assert kind_counts(made[:1]) == "1 entries: 1 typo"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].kind = Kind.FALSE_AS_STATED  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        _ok().confirmed = False  # type: ignore[misc]
