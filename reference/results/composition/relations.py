"""Relations between the advanced-composition bounds, proved on whole domains.

Each is a :class:`~reference.core.relations.Relation` whose margin is written with the
results' own formulas (``.core``); ``python -m reference prove`` proves them and
``python -m reference check`` re-verifies the shipped certificates.  ``k`` ranges over
reals in the bounds (the formulas extend to real ``k``), so each holds for the integers in
its range; against the exact composition (a sum over ``k``) it is an integer of the proof.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from reference.core.numeric import exp, expm1, log1p, pos_part
from reference.core.relations import partial, relation
from reference.results.composition.kov15_heterogeneous import kov_forms
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


def pure_delta_formula(ctx: Any, eps: Any, k: int, eps_g: Any) -> Any:
    """Kairouz–Oh–Viswanath (2015) Theorem 3.3 at ``delta = 0`` as written, term by term:
    ``sum_{j < k/2} C(k,j) p^(k-j) (1-p)^j [1 - e^(eps_g - (k-2j) eps)]_+`` with ``p^(k-j)
    (1-p)^j = e^(-j eps) / (1 + e^-eps)^k``, no guard bits and no branch: the form the
    relations trace (``KOV15:Thm3.3-delta`` computes the same sum with a recurrence, from
    the term that vanishes last; the terms with ``j >= k/2`` are 0 for ``eps_g >= 0``)."""
    weight = exp(ctx, -k * log1p(ctx, exp(ctx, -eps)))
    return ctx.fsum(math.comb(k, j) * weight * exp(ctx, -j * eps)
                    * pos_part(ctx, -expm1(ctx, eps_g - (k - 2 * j) * eps))
                    for j in range((k + 1) // 2))


#: The exact composition is a sum of about k/2 terms, so k is an integer of the proof (each
#: value proved on its own, in a number of boxes that grows with k: k <= 10 takes 40-50 s).
_EXACT_K = 10
_EXACT_DOMAIN = {"eps": ("1e-6", "10"), "k": (1, _EXACT_K)}
_EXACT_CUT = ("eps < 1e-6: every term of the exact delta is at most its weight times its gap "
              "(k - 2j) eps - eps_g <= k eps and the weights sum to at most 1, so delta_opt <= "
              "k eps < 1e-5; a term is nonzero only where k - 2j > eps_g/eps >= sqrt(2k "
              "log(1/delta)), so only for delta > e^(-k/2) >= e^-5 > 1e-5.  eps > 10: eps_g >= "
              "k eps, the largest privacy loss, where delta_opt = 0 (the mean term is k eps "
              "(e^eps - 1) >= k eps in the Dwork-Rothblum-Vadhan form; in the tanh form it is "
              "k eps tanh(eps/2) > (1 - 10^-4) k eps, and eps sqrt(2k log 2) > 10^-4 k eps for "
              "k <= 10).  delta < 1e-15: sqrt(2k log(1/delta)) "
              "> k for k <= 10, the same.  k > 10, by hand (the argument of "
              "Dwork-Rothblum-Vadhan's proof; the boxes grow with k): with L = L_1 + ... + "
              "L_k the privacy loss of k-fold randomized response, L_i = +-eps independent "
              "with mean eps tanh(eps/2), the exact delta is E[1 - e^(eps_g - L)]_+ <= "
              "P[L > eps_g], strictly when that is positive (the integrand is below 1), and "
              "Hoeffding's inequality (Hoeffding 1963, Theorem 2; range 2 eps per term) gives "
              "P[L - k eps tanh(eps/2) >= t] <= e^(-t^2/(2k eps^2)) = delta at t = eps sqrt(2k "
              "log(1/delta)), the tanh form's eps_g; the Dwork-Rothblum-Vadhan eps_g is larger "
              "(LEC11:AdvComp<=RRUV16:Thm2.10) and the exact delta non-increasing in eps_g "
              "(each term is).  Not proved: delta > 1/2.")


@relation("KOV15:Thm3.3<=RRUV16:Thm2.10", kind="ordering",
          statement="optimal composition of k eps-DP mechanisms is below the "
                    "Dwork–Rothblum–Vadhan bound: at its eps_g the exact delta is below "
                    "delta_hat (k = 1, ..., 10)",
          uses=("KOV15:Thm3.3-delta", "RRUV16:Thm2.10"),
          source="KOV15 Theorem 3.3 and RRUV16 Theorem 2.10 (Dwork, Rothblum, Vadhan 2010)",
          domain={**_EXACT_DOMAIN, "delta_hat": ("1e-15", "1/2")}, integers=("k",),
          log_scale=("eps", "delta_hat"), cuts=_EXACT_CUT)
def optimal_below_drv(ctx: Any, eps: Any, k: int, delta_hat: Any) -> Any:
    return 1 - pure_delta_formula(ctx, eps, k, _drv(ctx, eps, k, delta_hat)) / delta_hat


@relation("KOV15:Thm3.3<=LEC11:AdvComp", kind="ordering",
          statement="optimal composition of k eps-DP mechanisms is below the tanh form of "
                    "advanced composition: at its eps_g the exact delta is below delta' "
                    "(k = 1, ..., 10)",
          uses=("KOV15:Thm3.3-delta", "LEC11:AdvComp"),
          source="KOV15 Theorem 3.3 and the lecture notes N5/N22",
          domain={**_EXACT_DOMAIN, "delta_prime": ("1e-15", "1/2")}, integers=("k",),
          log_scale=("eps", "delta_prime"), cuts=_EXACT_CUT)
def optimal_below_tanh(ctx: Any, eps: Any, k: int, delta_prime: Any) -> Any:
    return 1 - pure_delta_formula(ctx, eps, k, _tanh(ctx, eps, k, delta_prime)) / delta_prime


@relation("KOV15:Thm3.3-delta/nonincreasing-eps_g", kind="monotonicity",
          statement="the exact delta of optimal k-fold eps-DP composition is non-increasing "
                    "in eps_g (what the inverse KOV15:Thm3.3 relies on; k = 1, ..., 200)",
          uses=("KOV15:Thm3.3-delta", "KOV15:Thm3.3"), source="KOV15 Theorem 3.3",
          domain={"eps": (0, 10), "k": (1, 200), "eps_g": (0, 100)}, integers=("k",),
          strict=False,
          cuts="eps > 10 or eps_g > 100: the derivative in eps_g is a sum of terms "
               "-C(k,j) p^(k-j) (1-p)^j e^(eps_g - (k-2j) eps) times the slope of [.]_+ (1 or 0,"
               " [0, 1] at the kink), each <= 0 for every eps and eps_g.  k > 200: not proved "
               "here (one box per k of about k/2 terms; k <= 1000 took 212 s).  delta > 0: "
               "delta_g = 1 - (1-delta)^k + (1-delta)^k d0 is increasing in the delta = 0 "
               "value d0, so it inherits the monotonicity.")
def optimal_nonincreasing(ctx: Any, eps: Any, k: int, eps_g: Any) -> Any:
    return -partial(ctx, pure_delta_formula, "eps_g", eps=eps, k=k, eps_g=eps_g)


def subset_delta_formula(ctx: Any, eps: Sequence[Any], eps_g: Any) -> Any:
    """Murtagh–Vadhan (2016) Theorem 1.5 at ``delta_i = 0`` as written, subset by subset:
    ``sum_S [e^(sum_S eps_i) - e^eps_g e^(sum_(not S) eps_i)]_+ / prod (1 + e^eps_i)``, each
    term as ``w_S [1 - e^(eps_g - L_S)]_+`` with the loss ``L_S = sum_S eps_i - sum_(not S)
    eps_i`` and ``w_S = prod_(i in S) 1/(1 + e^-eps_i) prod_(i not in S) 1/(1 + e^eps_i)``
    (``MV16:Thm1.5-delta`` sums the same terms grouped by distinct epsilons)."""
    total = ctx.zero
    for signs in itertools.product((1, -1), repeat=len(eps)):
        loss = ctx.fsum(s * e for s, e in zip(signs, eps, strict=True))
        weight = exp(ctx, -ctx.fsum(log1p(ctx, exp(ctx, -s * e))
                                    for s, e in zip(signs, eps, strict=True)))
        total = total + weight * pos_part(ctx, -expm1(ctx, eps_g - loss))
    return total


@relation("MV16:Thm1.5<=KOV15:Thm3.5", kind="ordering",
          statement="the exact heterogeneous composition (Murtagh-Vadhan) is below "
                    "Kairouz-Oh-Viswanath's three-way bound: for two pure-DP mechanisms "
                    "eps_1, eps_2, at Theorem 3.5's eps~ the exact delta is below delta~ (k = 2)",
          uses=("MV16:Thm1.5-delta", "KOV15:Thm3.5"),
          source="MV16 Theorem 1.5 and KOV15 Theorem 3.5 (ICML 2015)",
          domain={"eps_1": (0, 10), "eps_2": (0, 10), "delta_tilde": ("1e-15", "1/2")},
          log_scale=("delta_tilde",),
          cuts="The margin is the smaller of 1 - delta(eps_g)/delta~ at Theorem 3.5's second "
               "and third forms (written a - [a - b]_+): eps~ is the least of sum eps_i and "
               "the two forms, the exact delta is non-increasing in eps_g (each term [1 - "
               "e^(eps_g - L)]_+ is) and 0 at eps_g = sum eps_i, the largest loss, so at eps~ "
               "it is the larger of the two.  delta~ < 1e-15 (indeed every delta~ <= 1/e): "
               "(eps_1 + eps_2)^2 <= 2S and both logarithms are >= 1, so both forms are >= D + "
               "eps_1 + eps_2, above every loss: the exact delta is 0.  An eps_i > 10: both "
               "forms are >= D + sqrt(2 S ln 2) >= D + 11.7, and sum eps_i - D = sum 2 eps_i/"
               "(e^eps_i + 1) <= 2 * 0.557: the exact delta is 0.  k >= 3: not proved by boxes "
               "(three epsilons were undecided after 400 s); at the third form the argument "
               "of KOV15:Thm3.3<=LEC11:AdvComp's cut holds for every k (Hoeffding's range 2 "
               "eps_i per term: P[L - D >= t] <= e^(-t^2/(2S)) = delta~ at t = sqrt(2 S "
               "ln(1/delta~))); the second form rests on KOV15's proof.")
def exact_below_kov_three_way(ctx: Any, eps_1: Any, eps_2: Any, delta_tilde: Any) -> Any:
    second, third = (1 - subset_delta_formula(ctx, (eps_1, eps_2), form) / delta_tilde
                     for form in kov_forms(ctx, (eps_1, eps_2), delta_tilde))
    return second - pos_part(ctx, second - third)
