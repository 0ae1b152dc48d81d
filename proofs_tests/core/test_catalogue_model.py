"""The catalogue as data and the one result model (reference.core.catalogue, core.model)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from reference import catalogue, get
from reference.core.catalogue import ALIASES, SOURCES, collect
from reference.core.model import Result
from reference.results import MODULES, load


def test_one_result_class() -> None:
    """Every entry is a plain Result: variations are hooks, never subclasses."""
    assert {type(r) for r in catalogue()} == {Result}
    hooks = {
        "inverse": [r.id for r in catalogue() if r.inverse is not None],
        "prepare": [r.id for r in catalogue() if r.prepare is not None],
        "exact_inputs": [r.id for r in catalogue() if r.exact_inputs],
    }
    # each hook is in use (so the model's hook paths are exercised by the contract tests)
    assert "RSWR23:Lem2.3-inverse" in hooks["inverse"]
    assert "RRUV16:Thm5.1" in hooks["prepare"] and "MV16:Thm1.5-delta" in hooks["prepare"]
    assert "CL23:Def2.1" in hooks["exact_inputs"]


def test_every_prefix_names_one_paper_with_a_citation() -> None:
    prefixes = {r.source for r in catalogue()}
    assert prefixes == set(SOURCES)
    for prefix, text in SOURCES.items():
        assert re.search(r"arXiv:\d{4}\.\d{4,5}", text) or "lecture notes" in text, prefix
        assert re.search(r"\(\d{4}\)", text) or "lecture notes" in text, prefix


@pytest.mark.parametrize(("old", "new"), sorted(ALIASES.items()))
def test_earlier_ids_resolve(old: str, new: str) -> None:
    assert get(old) is get(new)
    assert old not in {r.id for r in catalogue()}


def test_aliased_id_gives_the_same_numbers() -> None:
    a = get("KOV:optimal")(eps="0.001", k=500, delta_g="1e-6")
    b = get("KOV15:Thm3.3")(eps="0.001", k=500, delta_g="1e-6")
    assert a == b and str(a.value)[:12] == "0.0797888541"


def test_unknown_id_suggests_close_ids() -> None:
    with pytest.raises(KeyError, match=r"did you mean .*RSWR23:Lem2\.3"):
        get("RSWR23:Lem2.33")


def test_a_hint_names_at_most_three_ids() -> None:
    """``RSWR23:Lem2.`` is close to the four ``RSWR23:Lem2.1`` ... ``Lem2.4`` (and more): the
    message names three of them, not a list to scan."""
    with pytest.raises(KeyError) as info:
        get("RSWR23:Lem2.")
    named = re.findall(r"RSWR23:Lem[0-9A-Z.]+[0-9](?:-\w+)?", str(info.value).split("mean", 1)[1])
    assert len(named) == 3 and set(named) <= {r.id for r in catalogue()}


def test_collection_is_explicit_and_repeatable() -> None:
    """Collecting the listed modules twice gives the same catalogue; nothing else is in it."""
    import importlib

    again = collect(importlib.import_module(m) for m in MODULES)
    assert set(again.results) == set(load().results)
    assert set(again.errata) == set(load().errata)
    for r in catalogue():
        assert r.core.__module__ in MODULES, r.id


def test_duplicate_ids_are_refused() -> None:
    first: Any = get("RSWR23:Lem2.2")
    clone = Result(first.id, first.title, first.kind, first.statement, first.params, first.core)
    clone2 = Result(first.id, first.title, first.kind, first.statement, first.params, first.core)
    cat = collect([])
    cat.add(clone)
    with pytest.raises(ValueError, match="duplicate result id"):
        cat.add(clone2)


def test_formula_doctests_are_collected_without_the_catalogue() -> None:
    """Importing a results module alone lists its formulas in ``__test__``, so that
    ``pytest --doctest-modules`` runs their examples (a Result is not a function, and
    doctest skips it otherwise; they were silently skipped once the catalogue became lazy)."""
    import json
    import subprocess
    import sys

    code = ("import importlib, json, sys; m = importlib.import_module(sys.argv[1]); "
            "print(json.dumps(sorted(getattr(m, '__test__', {}))))")
    for module in ("reference.results.conversions.cks20", "reference.results.tct.charging"):
        out = subprocess.run([sys.executable, "-c", code, module], capture_output=True,
                             text=True, check=True).stdout
        listed = set(json.loads(out))
        defined = {r.core.__name__ for r in catalogue() if r.core.__module__ == module}
        assert defined and defined <= listed, (module, defined - listed)
