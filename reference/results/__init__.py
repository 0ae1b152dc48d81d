"""Every result of the catalogue, one module per paper, grouped by topic.

:data:`MODULES` is the one explicit list of the modules that define results and errata;
:func:`catalogue` imports them (on first use) and collects what they define. Nothing is
registered as a side effect of importing a module. :func:`get` imports only the module that
:data:`reference.results.index.DEFINED_IN` names for the id (the whole catalogue if the id
is not there), so that evaluating one result does not load every paper.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, TypeVar

from reference.core.catalogue import ALIASES, Catalogue, collect
from reference.core.errata import Erratum
from reference.core.model import Result
from reference.core.relations import Relation
from reference.results.index import DEFINED_IN

F = TypeVar("F", bound=Callable[..., Any])

#: The modules that define results or errata, by topic.
MODULES: tuple[str, ...] = tuple(f"reference.results.{m}" for m in (
    "privacy_loss.rswr23", "privacy_loss.rruv16", "privacy_loss.lec11",
    "conversions.rswr23", "conversions.cks20", "conversions.bw18", "conversions.bs16",
    "conversions.mir17",
    "dpsgd.mtz19", "dpsgd.rdp_accountant", "dpsgd.pld", "dpsgd.wor",
    "composition.rruv16", "composition.lec11", "composition.kov15",
    "composition.kov15_heterogeneous", "composition.mv16",
    "concentration.rruv16",
    "filters.rruv16", "filters.rswr23", "filters.rswr23_brownian",
    "odometers.rruv16",
    "boundaries.wrwr22",
    "noise_reduction.brownian", "noise_reduction.evalues", "noise_reduction.ex_post",
    "noise_reduction.laplace", "noise_reduction.skellam", "noise_reduction.rat",
    "experiments.rswr23_sec7",
    "tct.targets", "tct.charging", "tct.multi_target", "tct.notprior", "tct.release",
    "tct.wrappers", "tct.selection", "tct.reconstructions",
))


@lru_cache(maxsize=1)
def load() -> Catalogue:
    """The catalogue of every module in :data:`MODULES` (imported on the first call)."""
    return collect(importlib.import_module(m) for m in MODULES)


def catalogue() -> list[Result[Any]]:
    """All results, sorted by id.

    >>> len(catalogue()) > 100
    True
    """
    return load().sorted_results()


@cache
def _module_catalogue(name: str) -> Catalogue:
    return collect([importlib.import_module(f"reference.results.{name}")])


def get(rid: str) -> Result[Any]:
    """The result ``rid`` (an earlier release's id is accepted); ``KeyError`` with hints.

    >>> get("RSWR23:Lem2.3") is load().get("RSWR23:Lem2.3")
    True
    """
    name = DEFINED_IN.get(ALIASES.get(rid, rid))
    if name is not None:
        found = _module_catalogue(name).results.get(ALIASES.get(rid, rid))
        if found is not None:
            return found
    return load().get(rid)


#: The modules that define relations between results (``reference.core.relations``).
RELATION_MODULES: tuple[str, ...] = tuple(f"reference.results.{m}.relations" for m in (
    "conversions", "composition", "privacy_loss", "concentration", "odometers",
    "noise_reduction", "tct"))


@lru_cache(maxsize=1)
def relations() -> dict[str, Relation]:
    """Every relation of :data:`RELATION_MODULES`, by id (each module imported once).

    >>> "LEC11:AdvComp<=RRUV16:Thm2.10" in relations()
    True
    """
    found: dict[str, Relation] = {}
    for name in RELATION_MODULES:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, Relation):
                if value.id in found and found[value.id] is not value:
                    raise ValueError(f"duplicate relation id {value.id}")
                found[value.id] = value
    return dict(sorted(found.items()))


def errata() -> list[Erratum]:
    """All errata of the sources, sorted by id."""
    return load().sorted_errata()


def covers(*ids: str) -> Callable[[F], F]:
    """Mark a test as checking the results ``ids`` (read by the catalogue's test index)."""
    for rid in ids:
        get(rid)

    def mark(fn: F) -> F:
        fn.__covers__ = ids  # type: ignore[attr-defined]
        return fn

    return mark
