"""OpenDP: zCDP -> approx-DP cast, compositions, fully adaptive odometer and filter.

How each number is obtained.  OpenDP rounds every step outward, so its values should
never fall below ours.  ``make_fully_adaptive_composition`` / ``make_privacy_filter``
are OpenDP's odometer and filter (``FullyAdaptive``): the basic sum for pure DP and zCDP.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reference.tools.conformance.adapters.base import Adapter, imported
from reference.tools.conformance.model import (
    CompositionTheorem,
    FilterTheorem,
    Formula,
    Measure,
    Method,
)


class OpenDP(Adapter):
    name = "opendp"
    module = "opendp.prelude"
    dist = "opendp"
    url = "https://github.com/opendp/opendp"

    def methods(self) -> list[Method]:
        return [
            Method("zcdp-to-dp", "make_zCDP_to_approxDP(m).map(1.0).epsilon(delta)", _zcdp,
                   CompositionTheorem("CKS20 Cor 13 (cdp_delta, outward rounding)"),
                   implements="CKS20 by bisection on the optimal order"),
            Method("optimal-composition",
                   "make_pureDP_to_zCDP + make_composition + make_zCDP_to_approxDP", _zcdp_route,
                   CompositionTheorem("BS16 Prop 3.3 + zCDP composition + CKS20"),
                   implements="eps0-DP -> eps0^2/2-zCDP, summed, converted by CKS20",
                   formula=Formula("CKS20:Cor13", lambda p: {
                       "rho": Fraction(p["eps0"]) ** 2 / 2 * p["k"], "delta": p["delta"]}),
                   applies=lambda p: p["k"] <= 10_000),
            Method("heterogeneous-composition",
                   "make_pureDP_to_zCDP per round + make_composition + make_zCDP_to_approxDP",
                   _zcdp_route_list, CompositionTheorem("BS16 Prop 3.3 + zCDP composition + CKS20"),
                   implements="eps_i-DP -> eps_i^2/2-zCDP, summed, converted by CKS20"),
            Method("composition-delta0", "make_composition([m] * k).map(1.0)", _basic,
                   CompositionTheorem("basic composition"), implements="sum with upward rounding"),
            Method("filter", "make_privacy_filter(max_divergence odometer, d_in=1, d_out=eps_g)",
                   _filter, FilterTheorem("basic pure-DP filter (RRUV16 Thm 3.4)"),
                   measure=Measure.COUNT, implements="HALT when the summed eps exceeds eps_g "
                   "(pure DP, so delta_g is not used)"),
            Method("odometer", "make_fully_adaptive_composition(..., zero_concentrated_divergence)"
                   ".privacy_loss(1.0)", _odometer,
                   FilterTheorem("fully adaptive zCDP composition (WRRW23)"),
                   implements="sum of the rounds' rho"),
        ]


def _dp() -> Any:
    dp = imported("opendp.prelude")
    dp.enable_features("contrib", "honest-but-curious")
    return dp


def _user(dp: Any, measure: Any, value: float) -> Any:
    return dp.m.make_user_measurement(dp.atom_domain(T=float, nan=False),
                                      dp.absolute_distance(T=float), measure,
                                      lambda x: x, lambda d_in: value)


def _zcdp(p: Mapping[str, Any]) -> float:
    dp = _dp()
    m = _user(dp, dp.zero_concentrated_divergence(), p["rho"])
    return float(dp.c.make_zCDP_to_approxDP(m).map(1.0).epsilon(p["delta"]))


def _zcdp_route(p: Mapping[str, Any]) -> float:
    dp = _dp()
    z = dp.c.make_pureDP_to_zCDP(_user(dp, dp.max_divergence(), p["eps0"]))
    composed = dp.c.make_composition([z] * p["k"])
    return float(dp.c.make_zCDP_to_approxDP(composed).map(1.0).epsilon(p["delta"]))


def _zcdp_route_list(p: Mapping[str, Any]) -> float:
    dp = _dp()
    rounds = [dp.c.make_pureDP_to_zCDP(_user(dp, dp.max_divergence(), e)) for e in p["eps"]]
    composed = dp.c.make_composition(rounds)
    return float(dp.c.make_zCDP_to_approxDP(composed).map(1.0).epsilon(p["delta"]))


def _basic(p: Mapping[str, Any]) -> float:
    dp = _dp()
    m = _user(dp, dp.max_divergence(), p["eps0"])
    return float(dp.c.make_composition([m] * p["k"]).map(1.0))


def _vec(dp: Any) -> Any:
    return dp.vector_domain(dp.atom_domain(T=float, nan=False))


def _filter(p: Mapping[str, Any]) -> int:
    dp = _dp()
    odometer = dp.c.make_fully_adaptive_composition(_vec(dp), dp.l1_distance(T=float),
                                                     dp.max_divergence())
    queryable = dp.c.make_privacy_filter(odometer, d_in=1.0, d_out=p["eps_g"])([0.0])
    laplace = dp.m.make_laplace(_vec(dp), dp.l1_distance(T=float), 1 / p["eps0"])
    admitted = 0
    while admitted < p["limit"]:
        try:
            queryable(laplace)
        except dp.OpenDPException as err:
            if "exceed" not in str(err):
                raise
            break
        admitted += 1
    return admitted


def _odometer(p: Mapping[str, Any]) -> float:
    dp = _dp()
    odometer = dp.c.make_fully_adaptive_composition(_vec(dp), dp.l2_distance(T=float),
                                                     dp.zero_concentrated_divergence())
    queryable = odometer([0.0])
    for scale in p["sigmas"]:
        queryable(dp.m.make_gaussian(_vec(dp), dp.l2_distance(T=float), scale))
    return float(queryable.privacy_loss(1.0))
