"""autodp: zCDP conversion, analytic Gaussian, KOV15 Thm 3.5 accountant, RDP composition.

How each number is obtained.  ``DP_acct.get_eps`` tests ``delta is 0`` (identity with a
literal): ``get_eps(0)`` and ``get_eps(0.0)`` disagree for pure-DP spends;
both calls are run as separate methods so the report shows the inconsistency.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import KOV15_THM35, Adapter, imported, quiet
from reference.tools.conformance.adapters.dpsgd_common import EPS_RDP, RDP, dpsgd_methods
from reference.tools.conformance.cases import groups
from reference.tools.conformance.model import CompositionTheorem, Formula, Method


class AutoDP(Adapter):
    name = "autodp"
    module = "autodp"
    dist = "autodp"
    url = "https://github.com/yuxiangw/autodp"

    def load(self) -> Any:
        imported("autodp.mechanism_zoo")
        return imported("autodp")

    def methods(self) -> list[Method]:
        kov = CompositionTheorem("KOV15 Thm 3.5 (heterogeneous three-way minimum)")
        return [
            Method("zcdp-to-dp", "mechanism_zoo.zCDP_Mechanism(rho).get_approxDP(delta)", _zcdp,
                   CompositionTheorem("BBGHS Thm 21 (= CKS20), Brent minimiser"),
                   implements="CKS20/BBGHS minimised by scipy's Brent"),
            Method("gaussian-curve",
                   "mechanism_zoo.ExactGaussianMechanism(sigma).get_approxDP(delta)", _gaussian,
                   CompositionTheorem("Balle–Wang 2018 (analytic Gaussian)"),
                   implements="analytic Gaussian curve, numerically inverted"),
            Method("advanced-composition", "dp_acct.DP_acct: update_DPlosses(eps0, 0) x k; "
                   "get_eps(delta)", _acct, kov, implements="KOV15 Thm 3.5",
                   formula=KOV15_THM35),
            Method("optimal-composition",
                   "transformer_zoo.Composition()([PureDP_Mechanism(eps0)], [k]).get_approxDP",
                   _rdp, CompositionTheorem("RR Renyi curve + BBGHS conversion"),
                   implements="exact RDP of eps0-DP, composed, converted"),
            Method("heterogeneous-composition", "dp_acct.DP_acct: update_DPlosses(eps_i, 0) for "
                   "each i; get_eps(delta)", _acct_list, kov, implements="KOV15 Thm 3.5",
                   formula=Formula("KOV15:Thm3.5", lambda p: {"eps": p["eps"],
                                                              "delta_tilde": p["delta"]}, "eps")),
            Method("heterogeneous-composition", "transformer_zoo.Composition()([PureDP_Mechanism("
                   "eps_i), ...], [count_i, ...]).get_approxDP(delta)", _rdp_list,
                   CompositionTheorem("RR Renyi curve + BBGHS conversion"),
                   implements="exact RDP of each eps_i-DP, composed, converted"),
            Method("composition-delta0", "dp_acct.DP_acct ... get_eps(0)  (int zero)",
                   lambda p: _acct({**p, "delta": 0}), kov, implements="KOV15 Thm 3.5 at delta=0"),
            Method("composition-delta0", "dp_acct.DP_acct ... get_eps(0.0)  (float zero)",
                   lambda p: _acct({**p, "delta": 0.0}), kov,
                   implements="KOV15 Thm 3.5 at delta=0"),
            *dpsgd_methods("transformer_zoo.Composition()([AmplificationBySampling(PoissonSampling"
                           "=True)(GaussianMechanism(sigma), q, improved_bound_flag=True)], "
                           "[steps]).get_approxDP(delta)", "autodp RDP", _dpsgd, RDP,
                           "the README's DP-SGD recipe: RDP of the Poisson-sampled Gaussian, "
                           "composed, converted", formula=EPS_RDP),
        ]


def _zoo() -> Any:
    return imported("autodp.mechanism_zoo")


def _zcdp(p: Mapping[str, Any]) -> float:
    with quiet():
        return float(_zoo().zCDP_Mechanism(p["rho"]).get_approxDP(p["delta"]))


def _gaussian(p: Mapping[str, Any]) -> float:
    with quiet():
        return float(_zoo().ExactGaussianMechanism(p["sigma"]).get_approxDP(p["delta"]))


def _acct(p: Mapping[str, Any]) -> float:
    acct = imported("autodp.dp_acct").DP_acct()
    with quiet():
        for _ in range(p["k"]):
            acct.update_DPlosses(p["eps0"], 0)
        return float(acct.get_eps(p["delta"]))


def _acct_list(p: Mapping[str, Any]) -> float:
    acct = imported("autodp.dp_acct").DP_acct()
    with quiet():
        for eps in p["eps"]:
            acct.update_DPlosses(eps, 0)
        return float(acct.get_eps(p["delta"]))


def _rdp_list(p: Mapping[str, Any]) -> float:
    composition = imported("autodp.transformer_zoo").Composition()
    parts = groups(p["eps"])
    with quiet():
        mech = composition([_zoo().PureDP_Mechanism(e) for e, _ in parts], [n for _, n in parts])
        return float(mech.get_approxDP(p["delta"]))


def _rdp(p: Mapping[str, Any]) -> float:
    composition = imported("autodp.transformer_zoo").Composition()
    with quiet():
        mech = composition([_zoo().PureDP_Mechanism(p["eps0"])], [p["k"]])
        return float(mech.get_approxDP(p["delta"]))


def _dpsgd(p: Mapping[str, Any]) -> float:
    zoo = imported("autodp.transformer_zoo")
    with quiet():
        subsample = zoo.AmplificationBySampling(PoissonSampling=True)
        step = subsample(_zoo().GaussianMechanism(sigma=p["sigma"]), p["q"],
                         improved_bound_flag=True)
        return float(zoo.Composition()([step], [p["steps"]]).get_approxDP(p["delta"]))
