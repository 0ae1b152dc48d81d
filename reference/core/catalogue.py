"""The catalogue as data: result id -> :class:`~reference.core.model.Result`, and the errata.

It imports no result module. :func:`collect` builds a :class:`Catalogue` from the modules
it is handed (the explicit list lives in :mod:`reference.results`), taking every
``Result`` and ``Erratum`` that a module defines at its top level.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from reference.core.errata import Erratum
from reference.core.model import Result

#: Id prefixes: one per paper, with author, year, title and arXiv id or venue.
SOURCES: dict[str, str] = {
    "RSWR23": "Rogers, Samorodnitsky, Wu, Ramdas (2023): Adaptive privacy composition for "
              "accuracy-first mechanisms. NeurIPS 2023; arXiv:2306.13824",
    "WRWR22": "Whitehouse, Ramdas, Wu, Rogers (2022): Brownian noise reduction: maximizing "
              "privacy subject to accuracy constraints. NeurIPS 2022; arXiv:2206.07234",
    "LEC11": "Lecture 11: Advanced composition (course lecture notes; the notes name no "
             "author or course)",
    "RRUV16": "Rogers, Roth, Ullman, Vadhan (2016): Privacy odometers and filters: "
              "pay-as-you-go composition. NeurIPS 2016; arXiv:1605.08294",
    "CL23": "Cohen, Lyu (2023): The target-charging technique for privacy analysis across "
            "interactive computations. NeurIPS 2023; arXiv:2302.11044",
    "KOV15": "Kairouz, Oh, Viswanath (2015): The composition theorem for differential "
             "privacy. ICML 2015; arXiv:1311.0776",
    "CKS20": "Canonne, Kamath, Steinke (2020): The discrete Gaussian for differential "
             "privacy. NeurIPS 2020; arXiv:2004.00010",
    "BW18": "Balle, Wang (2018): Improving the Gaussian mechanism for differential privacy: "
            "analytical calibration and optimal denoising. ICML 2018; arXiv:1805.06530",
    "BS16": "Bun, Steinke (2016): Concentrated differential privacy: simplifications, "
            "extensions, and lower bounds. TCC 2016; arXiv:1605.02065",
    "MIR17": "Mironov (2017): Rényi differential privacy. CSF 2017; arXiv:1702.07476",
    "DPSGD": "Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar, Zhang (2016): Deep learning "
             "with differential privacy. CCS 2016; arXiv:1607.00133 (DP-SGD, accounted here "
             "by RDP: Mironov, Talwar, Zhang 2019 and Canonne, Kamath, Steinke 2020 Prop. 12; "
             "exactly: Zhu, Dong, Wang 2022, arXiv:2106.08567; batches without replacement: "
             "Dong, Roth, Su 2022, arXiv:1905.02383, Thm 4.2)",
    "MTZ19": "Mironov, Talwar, Zhang (2019): Rényi differential privacy of the sampled "
             "Gaussian mechanism. arXiv:1908.10530",
    "MV16": "Murtagh, Vadhan (2016): The complexity of computing the optimal composition of "
            "differential privacy. TCC 2016; arXiv:1507.03113",
}

#: Ids that earlier releases used, kept working: old id -> current id.
ALIASES: dict[str, str] = {
    "KOV:optimal": "KOV15:Thm3.3",
    "KOV:optimal-delta": "KOV15:Thm3.3-delta",
}


@dataclass
class Catalogue:
    """Every result and erratum, by id."""

    results: dict[str, Result[Any]] = field(default_factory=dict)
    errata: dict[str, Erratum] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=lambda: dict(ALIASES))

    def add(self, res: Result[Any]) -> None:
        if res.id in self.results:
            raise ValueError(f"duplicate result id {res.id}")
        if res.source not in SOURCES:
            raise ValueError(f"unknown source prefix in {res.id}")
        self.results[res.id] = res

    def add_erratum(self, e: Erratum) -> None:
        if e.id in self.errata:
            raise ValueError(f"duplicate erratum id {e.id}")
        self.errata[e.id] = e

    def get(self, rid: str) -> Result[Any]:
        """The result ``rid`` (or its current id, for an alias); ``KeyError`` with hints."""
        rid = self.aliases.get(rid, rid)
        if rid not in self.results:
            close = difflib.get_close_matches(rid, list(self.results), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise KeyError(f"no result {rid!r}{hint}")
        return self.results[rid]

    def sorted_results(self) -> list[Result[Any]]:
        return [self.results[k] for k in sorted(self.results)]

    def sorted_errata(self) -> list[Erratum]:
        return [self.errata[k] for k in sorted(self.errata)]


def collect(modules: Iterable[ModuleType]) -> Catalogue:
    """The results and errata defined at the top level of ``modules``."""
    cat = Catalogue()
    for module in modules:
        for value in list(vars(module).values()):
            if isinstance(value, Result) and value.core.__module__ == module.__name__:
                if value.id not in cat.results:
                    cat.add(value)
            elif isinstance(value, Erratum) and value.module == module.__name__:
                if value.id not in cat.errata:
                    cat.add_erratum(value)
    return cat
