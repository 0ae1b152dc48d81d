"""Every erratum of the sources is re-confirmed by its live check (catalogue-wide).

Each ``@erratum`` carries a ``check()`` that recomputes its counterexample; ``python -m
reference errata`` runs them for users, and this test runs them in the default suite, one
test per erratum id (the mutation tool maps a module's errata to these tests by id).
"""

from __future__ import annotations

import pytest

from reference.core.errata import Erratum
from reference.results import errata

ERRATA = sorted(errata(), key=lambda e: e.id)


def test_errata_are_collected() -> None:
    ids = [e.id for e in ERRATA]
    assert len(ids) == len(set(ids)) and len(ids) >= 40


@pytest.mark.parametrize("entry", ERRATA, ids=[e.id for e in ERRATA])
def test_erratum_is_confirmed(entry: Erratum) -> None:
    check = entry.verify()
    assert check.confirmed is True, (entry.id, check.detail)
    assert check.detail.strip(), entry.id
