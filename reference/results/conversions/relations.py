"""Relations of the zCDP conversions, proved on whole domains (see
:mod:`reference.core.relations`; ``python -m reference prove`` / ``check``)."""

from __future__ import annotations

from typing import Any

from reference.core.relations import partial, relation
from reference.results.conversions.rswr23 import zcdp_budget, zcdp_to_dp

_RHO_DELTA = {"rho": ("1e-12", "10000"), "delta": ("1e-30", "1/2")}


def _eps(ctx: Any, rho: Any, delta: Any) -> Any:
    return zcdp_to_dp.core(ctx, rho, delta)


def _budget(ctx: Any, eps: Any, delta: Any) -> Any:
    return zcdp_budget.core(ctx, eps, delta)


@relation("RSWR23:Lem2.3/increasing-rho", kind="monotonicity",
          statement="the zCDP to (eps, delta) conversion rho + 2 sqrt(rho log(1/delta)) is "
                    "increasing in rho",
          uses=("RSWR23:Lem2.3",), source="RSWR23 Lemma 2.3 (ii) (Bun, Steinke 2016, Prop. 1.3)",
          domain=_RHO_DELTA, log_scale=("rho", "delta"),
          cuts="rho < 1e-12: the derivative 1 + sqrt(log(1/delta)/rho) only grows as rho -> 0; "
               "rho > 10^4 and delta < 1e-30: it stays above 1.")
def conversion_increasing_rho(ctx: Any, rho: Any, delta: Any) -> Any:
    return partial(ctx, _eps, "rho", rho=rho, delta=delta)


@relation("RSWR23:Lem2.3/decreasing-delta", kind="monotonicity",
          statement="the zCDP to (eps, delta) conversion is decreasing in delta",
          uses=("RSWR23:Lem2.3",), source="RSWR23 Lemma 2.3 (ii)",
          domain=_RHO_DELTA, log_scale=("rho", "delta"),
          cuts="rho < 1e-12 (at rho = 0 the conversion is 0 for every delta); the derivative "
               "-sqrt(rho / log(1/delta)) / delta is negative for rho > 0 and delta < 1.")
def conversion_decreasing_delta(ctx: Any, rho: Any, delta: Any) -> Any:
    return -partial(ctx, _eps, "delta", rho=rho, delta=delta)


@relation("RSWR23:Lem2.3-inverse/increasing-eps", kind="monotonicity",
          statement="the zCDP budget (sqrt(log(1/delta) + eps) - sqrt(log(1/delta)))^2 of a "
                    "target (eps, delta) is increasing in eps",
          uses=("RSWR23:Lem2.3-inverse",), source="RSWR23 §0 / Lemma 2.3 (ii) solved for rho",
          domain={"eps": ("1e-12", "1000"), "delta": ("1e-30", "1/2")},
          log_scale=("eps", "delta"),
          cuts="eps < 1e-12 and eps > 1000: the budget is the square of the increasing "
               "eps/(sqrt(L + eps) + sqrt(L)), L = log(1/delta) > 0.")
def budget_increasing_eps(ctx: Any, eps: Any, delta: Any) -> Any:
    return partial(ctx, _budget, "eps", eps=eps, delta=delta)
