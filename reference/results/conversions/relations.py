"""Relations of the zCDP conversions, proved on whole domains (see
:mod:`reference.core.relations`; ``python -m reference prove`` / ``check``)."""

from __future__ import annotations

from typing import Any

from reference.core.numeric import log
from reference.core.relations import partial, relation
from reference.results.conversions.bs16 import puredp_to_zcdp
from reference.results.conversions.rswr23 import (
    exponential_mechanism_zcdp,
    zcdp_budget,
    zcdp_to_dp,
)

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


@relation("RSWR23:Lem2.3-inverse/increasing-delta", kind="monotonicity",
          statement="the zCDP budget of a target (eps, delta) grows with delta",
          uses=("RSWR23:Lem2.3-inverse",), source="RSWR23 §0 / Lemma 2.3 (ii) solved for rho",
          domain={"eps": ("1e-12", "1000"), "delta": ("1e-30", "1/2")},
          log_scale=("eps", "delta"),
          cuts="eps < 1e-12 and eps > 1000: the budget is eps^2/(sqrt(L + eps) + sqrt(L))^2, "
               "decreasing in L = log(1/delta) for every eps > 0.")
def budget_increasing_delta(ctx: Any, eps: Any, delta: Any) -> Any:
    return partial(ctx, _budget, "delta", eps=eps, delta=delta)


#: RSWR23 Theorem 6 as printed: ``rho + 2 sqrt(2 rho log(1/delta''))`` (erratum
#: RSWR23:Thm6-constant; the implemented Theorem 6 uses Lemma 2.3's ``2 sqrt(rho log)``).
def printed_theorem6_epsilon(ctx: Any, rho: Any, delta: Any) -> Any:
    """The epsilon printed in the conclusion of RSWR23 Theorem 6 (valid but loose)."""
    return rho + 2 * ctx.sqrt(2 * rho * log(ctx, 1 / delta))


@relation("RSWR23:Thm6-constant/printed>corrected", kind="erratum",
          statement="the printed constant of Theorem 6, rho + 2 sqrt(2 rho log(1/delta'')), is "
                    "above the corrected rho + 2 sqrt(rho log(1/delta'')) of Lemma 2.3: valid "
                    "but loose",
          uses=("RSWR23:Lem2.3", "RSWR23:Thm6"),
          source="RSWR23 Theorem 6, conclusion; erratum RSWR23:Thm6-constant",
          domain=_RHO_DELTA, log_scale=("rho", "delta"),
          cuts="rho < 1e-12 (both are 0 at rho = 0): the difference is "
               "2 (sqrt 2 - 1) sqrt(rho log(1/delta'')) > 0 for every rho > 0, delta'' < 1.")
def printed_theorem6_above(ctx: Any, rho: Any, delta: Any) -> Any:
    return printed_theorem6_epsilon(ctx, rho, delta) - _eps(ctx, rho, delta)


@relation("RSWR23:Sec7.2-EM<BS16:Prop1.4", kind="ordering",
          statement="the exponential mechanism's eps^2/8-zCDP is below the eps^2/2-zCDP that "
                    "its eps-DP alone gives",
          uses=("RSWR23:Sec7.2-EM", "BS16:Prop1.4"),
          source="RSWR23 §7.2 (Cesar, Rogers 2021) and Bun, Steinke (2016) Proposition 1.4",
          domain={"eps": ("1e-12", "1000")}, log_scale=("eps",),
          cuts="eps < 1e-12 and eps > 1000: the difference is 3 eps^2/8 > 0 for eps > 0.")
def em_below_pure(ctx: Any, eps: Any) -> Any:
    return puredp_to_zcdp.core(ctx, eps) - exponential_mechanism_zcdp.core(ctx, eps)
