"""Relations between the advanced-composition bounds, proved on whole domains.

Each is a :class:`~reference.core.relations.Relation` whose margin is written with the
results' own formulas (``.core``); ``python -m reference prove`` proves them and
``python -m reference check`` re-verifies the shipped certificates.  ``k`` ranges over
reals (the formulas extend to real ``k``), so each holds for the integers in its range.
"""

from __future__ import annotations

from typing import Any

from reference.core.relations import partial, relation
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.results.composition.rruv16 import advanced_composition

_DOMAIN = {"eps": ("1e-12", "10"), "k": (1, 10**6), "delta_hat": ("1e-15", "1/2")}
_CUT = ("eps < 1e-12: both sides are k eps m(eps) + eps sqrt(2k log(1/delta_hat)) with mean "
        "terms m = e^eps - 1 and tanh(eps/2); e^eps - 1 >= eps >= tanh(eps/2) for every "
        "eps >= 0, with equality only at eps = 0. delta_hat < 1e-15 and k > 10^6: the "
        "shared term cancels exactly, so delta_hat does not enter the margin, and the "
        "margin k eps (e^eps - 1 - tanh(eps/2)) is linear in k.")


def _drv(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return advanced_composition.core(ctx, eps, k, delta_hat, ctx.zero).eps


def _tanh(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return advanced_composition_tanh.core(ctx, eps, k, delta_hat, ctx.zero).eps


@relation("LEC11:AdvComp<=RRUV16:Thm2.10", kind="ordering",
          statement="the tanh form of advanced composition is never above the "
                    "Dwork–Rothblum–Vadhan form (same k, eps, slack)",
          uses=("LEC11:AdvComp", "RRUV16:Thm2.10"),
          source="Lecture notes N5/N22 and RRUV16 Theorem 2.10 (Dwork, Rothblum, Vadhan 2010)",
          domain=_DOMAIN, log_scale=("eps", "k", "delta_hat"), strict=False, cuts=_CUT)
def tanh_below_drv(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return _drv(ctx, eps, k, delta_hat) - _tanh(ctx, eps, k, delta_hat)


@relation("RRUV16:Thm2.10/increasing-eps", kind="monotonicity",
          statement="advanced composition (Theorem 2.10) is increasing in eps",
          uses=("RRUV16:Thm2.10",), source="RRUV16 Theorem 2.10",
          domain={"eps": (0, 10), "k": (1, 10**6), "delta_hat": ("1e-15", "1/2")},
          log_scale=("k", "delta_hat"),
          cuts="delta_hat < 1e-15, k > 10^6: d/d eps = k(e^eps - 1 + eps e^eps) + "
               "sqrt(2k log(1/delta_hat)) is a sum of terms increasing in k and in "
               "log(1/delta_hat).")
def drv_increasing_eps(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return partial(ctx, _drv, "eps", eps=eps, k=k, delta_hat=delta_hat)


@relation("RRUV16:Thm2.10/increasing-k", kind="monotonicity",
          statement="advanced composition (Theorem 2.10) is increasing in k (eps > 0)",
          uses=("RRUV16:Thm2.10",), source="RRUV16 Theorem 2.10",
          domain=_DOMAIN, log_scale=("eps", "k", "delta_hat"),
          cuts="eps < 1e-12 (at eps = 0 the bound is 0 for every k); d/dk = eps(e^eps - 1) "
               "+ eps sqrt(log(1/delta_hat)/(2k)) > 0 for eps > 0.")
def drv_increasing_k(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return partial(ctx, _drv, "k", eps=eps, k=k, delta_hat=delta_hat)


@relation("RRUV16:Thm2.10/decreasing-delta_hat", kind="monotonicity",
          statement="advanced composition (Theorem 2.10) is decreasing in its slack "
                    "delta_hat (eps > 0)",
          uses=("RRUV16:Thm2.10",), source="RRUV16 Theorem 2.10",
          domain=_DOMAIN, log_scale=("eps", "k", "delta_hat"),
          cuts="eps < 1e-12 (at eps = 0 the bound is 0); d/d delta_hat = "
               "-eps sqrt(2k) / (2 delta_hat sqrt(log(1/delta_hat))) < 0.")
def drv_decreasing_slack(ctx: Any, eps: Any, k: Any, delta_hat: Any) -> Any:
    return -partial(ctx, _drv, "delta_hat", eps=eps, k=k, delta_hat=delta_hat)


@relation("LEC11:AdvComp/increasing-eps", kind="monotonicity",
          statement="the tanh form of advanced composition is increasing in eps",
          uses=("LEC11:AdvComp",), source="Lecture notes N5/N22",
          domain={"eps": (0, 10), "k": (1, 10**6), "delta_prime": ("1e-15", "1/2")},
          log_scale=("k", "delta_prime"),
          cuts="delta' < 1e-15, k > 10^6: the derivative k(tanh(eps/2) + eps/(2 cosh^2(eps/2)))"
               " + sqrt(2k log(1/delta')) grows with k and log(1/delta').")
def tanh_increasing_eps(ctx: Any, eps: Any, k: Any, delta_prime: Any) -> Any:
    return partial(ctx, _tanh, "eps", eps=eps, k=k, delta_hat=delta_prime)


@relation("LEC11:AdvComp/increasing-k", kind="monotonicity",
          statement="the tanh form of advanced composition is increasing in k (eps > 0)",
          uses=("LEC11:AdvComp",), source="Lecture notes N5/N22",
          domain={"eps": ("1e-12", "10"), "k": (1, 10**6), "delta_prime": ("1e-15", "1/2")},
          log_scale=("eps", "k", "delta_prime"),
          cuts="eps < 1e-12 (at eps = 0 the bound is 0); d/dk = eps tanh(eps/2) + "
               "eps sqrt(log(1/delta')/(2k)) > 0 for eps > 0.")
def tanh_increasing_k(ctx: Any, eps: Any, k: Any, delta_prime: Any) -> Any:
    return partial(ctx, _tanh, "k", eps=eps, k=k, delta_hat=delta_prime)


@relation("LEC11:AdvComp/decreasing-delta_prime", kind="monotonicity",
          statement="the tanh form of advanced composition is decreasing in its slack delta'",
          uses=("LEC11:AdvComp",), source="Lecture notes N5/N22",
          domain={"eps": ("1e-12", "10"), "k": (1, 10**6), "delta_prime": ("1e-15", "1/2")},
          log_scale=("eps", "k", "delta_prime"),
          cuts="eps < 1e-12 (at eps = 0 the bound is 0); the derivative "
               "-eps sqrt(2k) / (2 delta' sqrt(log(1/delta'))) is negative for eps > 0.")
def tanh_decreasing_slack(ctx: Any, eps: Any, k: Any, delta_prime: Any) -> Any:
    return -partial(ctx, _tanh, "delta_hat", eps=eps, k=k, delta_hat=delta_prime)
