"""Relations of the concentration bounds and boundaries, proved on whole domains (see
:mod:`reference.core.relations`): the monotonicities their uses rely on."""

from __future__ import annotations

from typing import Any

from reference.core.relations import partial, relation
from reference.results.boundaries.wrwr22 import linear_boundary, mixture_boundary
from reference.results.concentration.rruv16 import (
    martingale_threshold,
    self_normalized_threshold,
    window_bound,
)
from reference.results.tct.notprior import notprior_value


def _threshold(ctx: Any, B2: Any, beta: Any, delta: Any) -> Any:
    return self_normalized_threshold.core(ctx, B2, beta, delta)


_THM41 = {"B2": ("1e-6", "1e6"), "beta": ("1e-6", "1e6"), "delta": ("1e-30", "1/2")}


@relation("RRUV16:Thm4.1/increasing-B2", kind="monotonicity",
          statement="the self-normalised threshold sqrt((B^2 + beta)(2 + log(B^2/beta + 1)) "
                    "log(1/delta)) is increasing in the variance proxy B^2",
          uses=("RRUV16:Thm4.1",), source="RRUV16 Theorem 4.1 (de la Peña, Klass, Lai)",
          domain=_THM41, log_scale=("B2", "beta", "delta"),
          cuts="outside the box every factor under the root is still increasing in B^2 "
               "(B^2 + beta and log(B^2/beta + 1)) and positive.")
def threshold_increasing_variance(ctx: Any, B2: Any, beta: Any, delta: Any) -> Any:
    return partial(ctx, _threshold, "B2", B2=B2, beta=beta, delta=delta)


@relation("RRUV16:Thm4.1/decreasing-delta", kind="monotonicity",
          statement="the self-normalised threshold is decreasing in delta",
          uses=("RRUV16:Thm4.1",), source="RRUV16 Theorem 4.1",
          domain=_THM41, log_scale=("B2", "beta", "delta"),
          cuts="outside the box: the threshold is sqrt(positive factor times log(1/delta)).")
def threshold_decreasing_delta(ctx: Any, B2: Any, beta: Any, delta: Any) -> Any:
    return -partial(ctx, _threshold, "delta", B2=B2, beta=beta, delta=delta)


@relation("WRWR22:Thm3.6-linear/decreasing-t", kind="monotonicity",
          statement="the linear privacy boundary (Delta/t)(Delta/2 + b) + Delta a is "
                    "decreasing in the time t",
          uses=("WRWR22:Thm3.6-linear",), source="WRWR22 Theorem 3.6 (linear boundary)",
          domain={"t": ("1e-6", "1e6"), "a": (0, 100), "b": (0, 100),
                  "sensitivity": ("1e-6", "1e6")},
          log_scale=("t", "sensitivity"),
          cuts="outside the box: the derivative -(Delta/t^2)(Delta/2 + b) is negative for "
               "Delta > 0, b >= 0.")
def linear_boundary_decreasing(ctx: Any, t: Any, a: Any, b: Any, sensitivity: Any) -> Any:
    return -partial(ctx, linear_boundary.core, "t", t=t, a=a, b=b, sensitivity=sensitivity)


@relation("CL23:Lem2.3/decreasing-eps", kind="monotonicity",
          statement="the NotPrior target value q = 1/(e^eps + 1) is decreasing in eps",
          uses=("CL23:Lem2.3",), source="Cohen, Lyu (2023), Lemma 2.3 (reconstructed)",
          domain={"eps": (0, 100)},
          cuts="eps > 100: -e^eps/(e^eps + 1)^2 stays negative.")
def notprior_decreasing(ctx: Any, eps: Any) -> Any:
    return -partial(ctx, notprior_value, "eps", eps=eps)


@relation("WRWR22:Thm3.6-linear/increasing-sensitivity", kind="monotonicity",
          statement="the linear privacy boundary is increasing in the sensitivity Delta",
          uses=("WRWR22:Thm3.6-linear",), source="WRWR22 Theorem 3.6 (linear boundary)",
          domain={"t": ("1e-6", "1e6"), "a": (0, 100), "b": (0, 100),
                  "sensitivity": ("1e-6", "1e6")},
          log_scale=("t", "sensitivity"),
          cuts="outside the box: the derivative (Delta + b)/t + a is positive for Delta > 0.")
def linear_boundary_increasing(ctx: Any, t: Any, a: Any, b: Any, sensitivity: Any) -> Any:
    return partial(ctx, linear_boundary.core, "sensitivity", t=t, a=a, b=b,
                   sensitivity=sensitivity)


@relation("CL23:Lem2.3/at-most-half", kind="ordering",
          statement="the NotPrior target value q = 1/(e^eps + 1) is at most 1/2 (equal at "
                    "eps = 0)",
          uses=("CL23:Lem2.3",), source="Cohen, Lyu (2023), Lemma 2.3 (reconstructed)",
          domain={"eps": (0, 100)}, strict=False,
          cuts="eps > 100: q is decreasing (CL23:Lem2.3/decreasing-eps) and positive.")
def notprior_at_most_half(ctx: Any, eps: Any) -> Any:
    return 1 / ctx.mpf(2) - notprior_value(ctx, eps)


def _thm44(ctx: Any, U2: Any, x: Any, delta: Any) -> Any:
    return martingale_threshold.core(ctx, U2, x, delta)


_THM44 = {"U2": ("1e-8", "1e8"), "x": ("1e-8", "1e8"), "delta": ("1e-30", "36/100")}


@relation("RRUV16:Thm4.4/increasing-U2", kind="monotonicity",
          statement="the martingale threshold sqrt((U^2/4 + x)(2 + log(U^2/(4x) + 1)) "
                    "log(1/delta)) is increasing in U^2",
          uses=("RRUV16:Thm4.4",), source="RRUV16 Theorem 4.4", domain=_THM44,
          log_scale=("U2", "x", "delta"),
          cuts="outside the box both factors under the root stay increasing in U^2 and "
               "positive (U^2 = 0 included: the derivative is finite there, x > 0).")
def thm44_increasing_U2(ctx: Any, U2: Any, x: Any, delta: Any) -> Any:
    return partial(ctx, _thm44, "U2", U2=U2, x=x, delta=delta)


@relation("RRUV16:Thm4.4/decreasing-delta", kind="monotonicity",
          statement="the martingale threshold of Theorem 4.4 is decreasing in delta",
          uses=("RRUV16:Thm4.4",), source="RRUV16 Theorem 4.4", domain=_THM44,
          log_scale=("U2", "x", "delta"),
          cuts="outside the box: the threshold is a positive factor times sqrt(log(1/delta)), "
               "decreasing in delta for every delta in (0, 1).")
def thm44_decreasing_delta(ctx: Any, U2: Any, x: Any, delta: Any) -> Any:
    return -partial(ctx, _thm44, "delta", U2=U2, x=x, delta=delta)


def _thm45(ctx: Any, beta: Any, t: Any) -> Any:
    return window_bound.core(ctx, beta, t, ctx.one).bound


_THM45 = {"beta": ("1e-30", "99/100"), "t": (1, 10**12)}


@relation("RRUV16:Thm4.5/increasing-t", kind="monotonicity",
          statement="Theorem 4.5's bound 2 sqrt(e)(beta + 2 log(t) sqrt(0.74 beta)) grows with "
                    "the window ratio t", uses=("RRUV16:Thm4.5",), source="RRUV16 Theorem 4.5",
          domain=_THM45, log_scale=("beta", "t"),
          cuts="outside the box: the derivative 4 sqrt(e) sqrt(0.74 beta)/t is positive for "
               "every beta > 0, t > 0.")
def thm45_increasing_t(ctx: Any, beta: Any, t: Any) -> Any:
    return partial(ctx, _thm45, "t", beta=beta, t=t)


@relation("RRUV16:Thm4.5/increasing-beta", kind="monotonicity",
          statement="Theorem 4.5's bound grows with beta", uses=("RRUV16:Thm4.5",),
          source="RRUV16 Theorem 4.5", domain=_THM45, log_scale=("beta", "t"),
          cuts="outside the box: the derivative 2 sqrt(e)(1 + log(t) sqrt(0.74/beta)) is "
               "positive for every beta > 0, t >= 1.")
def thm45_increasing_beta(ctx: Any, beta: Any, t: Any) -> Any:
    return partial(ctx, _thm45, "beta", beta=beta, t=t)


def _mixture(ctx: Any, t: Any, rho: Any, delta: Any) -> Any:
    return mixture_boundary.core(ctx, t, rho, delta, ctx.one)


@relation("WRWR22:Thm3.6-mixture/decreasing-t", kind="monotonicity",
          statement="the mixture privacy boundary Delta^2/(2t) + (Delta/t) sqrt(2(t + rho) "
                    "log(sqrt((t + rho)/rho)/delta)) is decreasing in the time t (Delta = 1; "
                    "every Delta by scaling): the root that WRWR22:Cor3.7-Gamma returns is "
                    "the only one",
          uses=("WRWR22:Thm3.6-mixture", "WRWR22:Cor3.7-Gamma"),
          source="WRWR22 Theorem 3.6 (mixture boundary), Corollary 3.7 (its inverse)",
          domain={"t": ("1/100", "100"), "rho": ("1/100", "100"), "delta": ("1e-12", "1/2")},
          log_scale=("t", "rho", "delta"),
          cuts="Delta: psi_Delta(t; rho) = psi_1(t/Delta^2; rho/Delta^2) exactly. Outside the "
               "box, for every t, rho > 0, delta in (0, 1): with x = t/rho and g = "
               "log(1/delta) + log(1 + x)/2, the square of the second term, 2 (t + rho) g/t^2, "
               "has t-derivative 2 (t/2 - t g - 2 rho g)/t^3 < 0, as g > log(1 + x)/2 >= "
               "x/(2 + x) > x/(2(x + 2)) = t/(2(t + 2 rho)) (log(1 + x) >= 2x/(2 + x)); the "
               "first term decreases too.")
def mixture_boundary_decreasing(ctx: Any, t: Any, rho: Any, delta: Any) -> Any:
    return -partial(ctx, _mixture, "t", t=t, rho=rho, delta=delta)
