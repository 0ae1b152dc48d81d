"""dp-accounting (Google): RDP zCDP conversion, Gaussian curve, KOV grid, PLD.

How each number is obtained.  ``advanced_composition`` evaluates KOV15 Thm 3.3 on the grid
``(k - 2i) eps0`` in floating point and overflows for k >= 1024.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import Adapter, imported, quiet
from reference.tools.conformance.adapters.dpsgd_common import EPS_RDP, PLD, RDP, dpsgd_methods
from reference.tools.conformance.cases import groups
from reference.tools.conformance.model import CompositionTheorem, Formula, Method


class DpAccounting(Adapter):
    name = "dp-accounting"
    module = "dp_accounting"
    dist = "dp-accounting"
    url = "https://github.com/google/differential-privacy/tree/main/python"

    def methods(self) -> list[Method]:
        return [
            Method("zcdp-to-dp", "RdpAccountant().compose(ZCDpEvent(rho)).get_epsilon(delta)",
                   _rdp_zcdp, CompositionTheorem("CKS20 Prop 12 on a fixed order grid"),
                   implements="CKS20/BBGHS conversion minimised over 156 orders in [1.1, 1024]"),
            Method("gaussian-curve", "get_epsilon_gaussian(sigma, delta)", _gaussian,
                   CompositionTheorem("Balle–Wang 2018 Thm 8"),
                   implements="exact Gaussian curve, binary search with tol = 1e-12"),
            Method("gaussian-curve", "pld.from_gaussian_mechanism(sigma).get_epsilon_for_delta",
                   _pld_gaussian, CompositionTheorem("PLD (pessimistic discretisation)"),
                   implements="privacy loss distribution, pessimistic estimate"),
            Method("advanced-composition",
                   "pld.accountant.advanced_composition(DifferentialPrivacyParameters(eps0, 0),"
                   " k, delta)", _advanced,
                   CompositionTheorem("KOV15 Thm 3.3 on the grid (k-2i) eps0"),
                   implements="KOV15 Thm 3.3, smallest grid point with delta <= target",
                   formula=Formula("KOV15:Thm3.3-grid", lambda p: None if p["k"] > 2000 else
                                   {"eps": p["eps0"], "k": p["k"], "delta_g": p["delta"]})),
            Method("optimal-composition",
                   "pld.from_privacy_parameters(...).self_compose(k).get_epsilon_for_delta",
                   _pld_pure, CompositionTheorem("PLD (pessimistic discretisation)"),
                   implements="privacy loss distribution of eps0-DP, self-composed by FFT"),
            Method("heterogeneous-composition", "pld.from_privacy_parameters(eps_i).self_compose("
                   "count_i), composed, .get_epsilon_for_delta(delta)", _pld_list,
                   CompositionTheorem("PLD (pessimistic discretisation)"),
                   implements="privacy loss distributions, composed by FFT"),
            *dpsgd_methods("RdpAccountant().compose(SelfComposedDpEvent(PoissonSampledDpEvent("
                           "q, GaussianDpEvent(sigma)), steps)).get_epsilon(delta)", "dp-acc RDP",
                           _dpsgd_rdp, RDP, "RDP at 156 default orders in [1.1, 1024], CKS20 "
                           "conversion", formula=EPS_RDP),
            *dpsgd_methods("PLDAccountant().compose(the same event).get_epsilon(delta)  "
                           "(value_discretization_interval 1e-4, the default)",
                           "dp-acc PLD 1e-4", lambda p: _dpsgd_pld(p, 1e-4), PLD,
                           "pessimistic PLD of the sampled Gaussian, self-composed by FFT"),
            *dpsgd_methods("PLDAccountant(value_discretization_interval=1e-5)"
                           ".compose(the same event).get_epsilon(delta)", "dp-acc PLD 1e-5",
                           lambda p: _dpsgd_pld(p, 1e-5), PLD,
                           "the same on a 10x finer grid", applies=_fine_pld_fits),
        ]


def _dp() -> Any:
    return imported("dp_accounting")


def _rdp_zcdp(p: Mapping[str, Any]) -> float:
    dp = _dp()
    acc = dp.rdp.RdpAccountant()
    acc.compose(dp.ZCDpEvent(p["rho"]))
    return float(acc.get_epsilon(p["delta"]))


def _gaussian(p: Mapping[str, Any]) -> float:
    return float(_dp().get_epsilon_gaussian(p["sigma"], p["delta"]))


def _pld() -> Any:
    return imported("dp_accounting.pld.privacy_loss_distribution")


def _params(eps0: float) -> Any:
    return imported("dp_accounting.pld.common").DifferentialPrivacyParameters(eps0, 0.0)


def _pld_gaussian(p: Mapping[str, Any]) -> float:
    with quiet():
        return float(_pld().from_gaussian_mechanism(p["sigma"]).get_epsilon_for_delta(p["delta"]))


def _advanced(p: Mapping[str, Any]) -> float:
    acc = imported("dp_accounting.pld.accountant")
    out = acc.advanced_composition(_params(p["eps0"]), p["k"], p["delta"])
    if out is None:
        raise ValueError("returned None (documented for an infeasible delta only)")
    return float(out)


def _pld_list(p: Mapping[str, Any]) -> float:
    with quiet():
        total = None
        for eps, count in groups(p["eps"]):
            part = _pld().from_privacy_parameters(_params(eps)).self_compose(count)
            total = part if total is None else total.compose(part)
        assert total is not None
        return float(total.get_epsilon_for_delta(p["delta"]))


def _pld_pure(p: Mapping[str, Any]) -> float:
    with quiet():
        dist = _pld().from_privacy_parameters(_params(p["eps0"])).self_compose(p["k"])
        return float(dist.get_epsilon_for_delta(p["delta"]))


def _event(p: Mapping[str, Any]) -> Any:
    dp = _dp()
    step = dp.PoissonSampledDpEvent(p["q"], dp.GaussianDpEvent(p["sigma"]))
    return dp.SelfComposedDpEvent(step, p["steps"])


def _dpsgd_rdp(p: Mapping[str, Any]) -> float:
    acc = _dp().rdp.RdpAccountant()
    with quiet():
        acc.compose(_event(p))
        return float(acc.get_epsilon(p["delta"]))


def _dpsgd_pld(p: Mapping[str, Any], interval: float) -> float:
    acc = _dp().pld.PLDAccountant(value_discretization_interval=interval)
    with quiet():
        acc.compose(_event(p))
        return float(acc.get_epsilon(p["delta"]))


def _fine_pld_fits(p: Mapping[str, Any]) -> bool:
    """The 1e-5 grid on a part of the grid only: its cost grows with the loss range over
    the interval (7-11 s a case at 10^4 steps, sigma >= 0.8; minutes at sigma = 0.5, q =
    0.1, measured here), so at most 10^4 steps, sigma >= 0.8 and delta = 1e-5."""
    return bool(p["steps"] <= 10_000 and p["sigma"] >= 0.8 and p["delta"] == 1e-5)
