"""diffprivlib (IBM): ``BudgetAccountant``, KOV15 Thm 3.5 used as a total and as a filter.

``total`` applies the fixed-parameter composition theorem to a list of spends (sound);
``spend`` refuses a spend when that total would exceed the budget, i.e. the same theorem
is used as a privacy filter on adaptively chosen spends, which no filter theorem covers
.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import KOV15_THM35, Adapter, imported
from reference.tools.conformance.model import CompositionTheorem, Formula, Measure, Method


class DiffPrivLib(Adapter):
    name = "diffprivlib"
    module = "diffprivlib.accountant"
    dist = "diffprivlib"
    url = "https://github.com/IBM/differential-privacy-library"
    hint = "pip install -e '.[conformance]' (pins scikit-learn<1.8: 1.8 breaks its import)"

    def methods(self) -> list[Method]:
        kov = CompositionTheorem("KOV15 Thm 3.5 (heterogeneous three-way minimum)")
        return [
            Method("advanced-composition", "BudgetAccountant(slack=delta).total(spent_budget="
                   "[(eps0, 0)] * k, slack=delta)[0]", _total, kov,
                   implements="KOV15 Thm 3.5",
                   formula=KOV15_THM35),
            Method("heterogeneous-composition", "BudgetAccountant(slack=delta).total(spent_budget="
                   "[(eps_i, 0), ...], slack=delta)[0]", _total_list, kov,
                   implements="KOV15 Thm 3.5",
                   formula=Formula("KOV15:Thm3.5", lambda p: {"eps": p["eps"],
                                                              "delta_tilde": p["delta"]}, "eps")),
            Method("composition-delta0", "BudgetAccountant().total(spent_budget=[(eps0, 0)] * k,"
                   " slack=0)[0]", lambda p: _total({**p, "delta": 0}), kov,
                   implements="KOV15 Thm 3.5 at slack 0 (the sum)"),
            Method("filter", "BudgetAccountant(eps_g, delta_g, slack=delta_g).spend(eps0, 0) "
                   "until BudgetError", _filter, kov, measure=Measure.COUNT,
                   implements="refuse a spend once KOV15 Thm 3.5 on all spends exceeds eps_g"),
        ]


def _accountant() -> Any:
    return imported("diffprivlib.accountant").BudgetAccountant


def _total(p: Mapping[str, Any]) -> float:
    cls = _accountant()
    spends = [(p["eps0"], 0)] * p["k"]
    total = cls(slack=p["delta"]).total(spent_budget=spends, slack=p["delta"])
    return float(total[0])  # Budget is an (epsilon, delta) tuple


def _total_list(p: Mapping[str, Any]) -> float:
    cls = _accountant()
    spends = [(e, 0) for e in p["eps"]]
    return float(cls(slack=p["delta"]).total(spent_budget=spends, slack=p["delta"])[0])


def _filter(p: Mapping[str, Any]) -> int:
    budget_error = imported("diffprivlib.utils").BudgetError
    acc = _accountant()(epsilon=p["eps_g"], delta=p["delta_g"], slack=p["delta_g"])
    admitted = 0
    while admitted < p["limit"]:
        try:
            acc.spend(p["eps0"], 0)
        except budget_error:
            break
        admitted += 1
    return admitted
