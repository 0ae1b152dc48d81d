"""Relations of the target-charging results (CL23, reconstructed), proved on whole domains
(see :mod:`reference.core.relations`): the wrapper's privacy against ``4 eps/3`` and
against its value for tests, the paper's simplified Chernoff tail against the raw one, and
the boundary target's conservative q against the exact (LP) one."""

from __future__ import annotations

from typing import Any

from reference.core.numeric import log1p, pos_part
from reference.core.relations import relation
from reference.results.tct.wrappers import (
    conservative_q,
    exact_q,
    general_wrapper_t,
    wrapper_test_branch,
)


@relation("CL23:Lem2.8<=4eps/3", kind="ordering",
          statement="the boundary wrapper's privacy t(eps) = ln(3 e^(2 eps)/(2 e^eps + 1)) "
                    "(three or more outcomes) is below 4 eps/3, as Lemma 2.8 states",
          uses=("CL23:Lem2.8",), source="CL23 Lemma 2.8 (reconstructed); erratum CL23:Q1-Lem2.8",
          domain={"eps": ("1e-12", "1000")}, log_scale=("eps",),
          cuts="Every eps > 0, by hand (the result's proof note): with w = e^eps, 3 w^2/(2w + "
               "1) <= w^(4/3) is w^(2/3) <= (w + w + 1)/3, the AM-GM inequality, strict for "
               "w > 1.  The boxes stop at 1e-12 (the margin is about eps^2/9 there) and at "
               "1000 (the margin is eps/3 - ln(3/2) + O(e^-eps)).")
def wrapper_below_four_thirds(ctx: Any, eps: Any) -> Any:
    return 4 * eps / 3 - general_wrapper_t(ctx, eps)


@relation("CL23:LemE.1<CL23:Lem2.8", kind="ordering",
          statement="the wrapper's privacy for tests, max(eps, ln(3(2e^eps - 1)/(2e^eps + 1))) "
                    "(Lemma E.1), is strictly below its value for three or more outcomes, "
                    "ln(3 e^(2 eps)/(2 e^eps + 1)) (Lemma 2.8), at every eps > 0",
          uses=("CL23:LemE.1", "CL23:Lem2.8"),
          source="CL23 Lemmas E.1 and 2.8 (reconstructed); erratum CL23:Q1-Lem2.8",
          domain={"eps": ("1e-12", "1000")}, log_scale=("eps",),
          cuts="The margin is the smaller of t - eps and t - ln(3(2e^eps - 1)/(2e^eps + 1)), "
               "written a - [a - b]_+.  By hand for every eps > 0: t - eps = ln(3w/(2w + 1)) > "
               "0 for w = e^eps > 1, and t - ln(3(2w - 1)/(2w + 1)) = ln(w^2/(2w - 1)) > 0 as "
               "w^2 - 2w + 1 = (w - 1)^2 > 0; the boxes stop at 1e-12 (the second difference "
               "is about eps^2) and at 1000 (t - eps tends to ln(3/2), the other grows like "
               "eps - ln 2).")
def wrapped_test_below_general(ctx: Any, eps: Any) -> Any:
    t = general_wrapper_t(ctx, eps)
    first, second = t - eps, t - wrapper_test_branch(ctx, eps)
    return first - pos_part(ctx, first - second)


@relation("CL23:ThmB.4-tail/raw<=simplified", kind="ordering",
          statement="the raw Chernoff tail e^(-tau (alpha - ln(1 + alpha))) of the charging "
                    "bound is below the paper's simplified e^(-alpha^2 tau/(2(1 + alpha))): "
                    "alpha - ln(1 + alpha) > alpha^2/(2(1 + alpha)) (the exponents per unit tau)",
          uses=("CL23:ThmB.4-tail",),
          source="CL23 Theorem B.4, inequality (1) and Remark B.5 (reconstructed); erratum "
                 "CL23:R1-tail",
          domain={"alpha": ("1/1000", "1000")}, log_scale=("alpha",),
          cuts="alpha < 1/1000: the difference is sum_(n >= 3) (-1)^(n+1) (1/2 - 1/n) alpha^n, "
               "an alternating series whose terms fall for alpha <= 1/2 (consecutive "
               "terms have ratio alpha n(n-1)/((n+1)(n-2)) <= 3 alpha/2), so it is at least "
               "alpha^3/6 - alpha^4/4 > 0.  alpha > 1000: alpha - ln(1 + alpha) - alpha/2 > 0 "
               "already (alpha^2/(2(1 + alpha)) < alpha/2).  The exponents are written here: "
               "the result's rate alpha - ln(1 + alpha) carries guard bits that branch on the "
               "inputs, which the prover's tracer refuses.")
def raw_below_simplified(ctx: Any, alpha: Any) -> Any:
    return alpha - log1p(ctx, alpha) - alpha * alpha / (2 * (1 + alpha))


@relation("CL23:Lem2.9-conservative<CL23:Lem2.9-exact", kind="ordering",
          statement="the boundary target's conservative q = (e^t - 1)/(2(e^(eps + t) - 1)) of a "
                    "wrapped algorithm (t = t(eps) of Lemma 2.8) is strictly below the LP form "
                    "(e^t - 1)/(2 e^(t + eps) - e^t + e^eps - 2): valid, not tight",
          uses=("CL23:Lem2.9-conservative", "CL23:Lem2.9-exact"),
          source="CL23 Lemma 2.9 (reconstructed); erratum CL23:Q2-Lem2.9",
          domain={"eps": ("1e-12", "8")}, log_scale=("eps",),
          cuts="The margin is exact/conservative - 1.  By hand for every eps > 0: the two "
               "denominators differ by e^t - e^eps > 0 (t > eps, CL23:LemE.1<CL23:Lem2.8's "
               "first term), so the ratio is (e^t - e^eps)/(2 e^(t + eps) - e^t + e^eps - 2) "
               "> 0; it tends to 1/13 as eps -> 0 (q -> 2/7 and 4/13) and is about e^-eps/6 "
               "for large eps: beyond 8 the boxes would have to shrink fast, since the "
               "factor e^t - 1 the two forms share is enclosed in each separately.")
def conservative_below_exact(ctx: Any, eps: Any) -> Any:
    return _q_gain(ctx, eps, general_wrapper_t(ctx, eps))


def _q_gain(ctx: Any, eps: Any, t: Any) -> Any:
    """``exact/conservative - 1``, the two q forms of the boundary target at ``t``."""
    return exact_q(ctx, eps, t) / conservative_q(ctx, eps, t) - 1


@relation("CL23:LemE.2-conservative<CL23:LemE.2-exact", kind="ordering",
          statement="for a wrapped test, the conservative q of the boundary target is strictly "
                    "below the exact (LP) q while e^eps < 3/2, where Lemma E.1's t exceeds eps "
                    "(the two are equal from e^eps = 3/2 on, where t = eps)",
          uses=("CL23:LemE.2-conservative", "CL23:LemE.2-exact"),
          source="CL23 Lemma E.2 (reconstructed); erratum CL23:Q2-Lem2.9",
          domain={"eps": ("1e-12", "2/5")}, log_scale=("eps",),
          cuts="The margin is exact/conservative - 1 at t = ln(3(2e^eps - 1)/(2e^eps + 1)), "
               "the larger term of Lemma E.1's maximum below ln(3/2).  By hand: the ratio is "
               "(e^t - e^eps)/(2 e^(t + eps) - e^t + e^eps - 2), positive iff t > eps, i.e. "
               "iff 3(2w - 1)/(2w + 1) > w for w = e^eps, i.e. (2w - 3)(w - 1) < 0: for 1 < "
               "w < 3/2 (the box stops at 2/5 < ln(3/2) = 0.405465, where the margin "
               "vanishes).  eps < 1e-12: the ratio tends to 14/13 - 1 = 1/13.")
def wrapped_test_q_below_exact(ctx: Any, eps: Any) -> Any:
    return _q_gain(ctx, eps, wrapper_test_branch(ctx, eps))
