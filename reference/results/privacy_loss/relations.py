"""Relations of the privacy-loss results, proved on whole domains (see
:mod:`reference.core.relations`): the corrected and printed constants of RRUV16 Lemma 2.3
(ii), the exact threshold where the printed one starts to fail on randomized response, and
the mean-loss bound of Lemma 4.6 against randomized response's exact mean, and the
lecture notes' Gaussian calibration under the condition the notes leave out."""

from __future__ import annotations

from typing import Any

from reference.core.numeric import log
from reference.core.relations import relation
from reference.results.concentration.rruv16 import loss_mean_bound
from reference.results.privacy_loss.lec11 import (
    gaussian_loss_tail,
    notes_gaussian_sigma,
    rr_expected_loss,
)
from reference.results.privacy_loss.rruv16 import (
    indistinguishable_to_pointwise,
    printed_pointwise_delta,
)

#: The printed threshold of RRUV16 Lemma 2.3 (ii): ``2 delta/(e^eps eps)``, per unit delta
#: (the erratum RRUV16:Lem2.3-ii).  Not a registered result: the paper's formula, false.
#: W(2) = 0.8526055020137254913...: the eps where ``eps e^eps = 2`` (Lambert W).
W2_BELOW, W2_ABOVE = "0.85260550201372", "0.85260550201373"


def printed_constant(ctx: Any, eps: Any) -> Any:
    """``2/(e^eps eps)``: the printed point-wise delta of RRUV16 Lemma 2.3 (ii) per unit delta."""
    return printed_pointwise_delta(ctx, eps, ctx.one)


def _corrected(ctx: Any, eps: Any) -> Any:
    return indistinguishable_to_pointwise.core(ctx, eps, ctx.one).delta


@relation("RRUV16:Lem2.3-ii/corrected>printed", kind="erratum",
          statement="the corrected point-wise delta (1 + e^-2eps)/(1 - e^-eps) (per unit "
                    "delta) is above the printed 2/(e^eps eps): the printed lemma understates it",
          uses=("RRUV16:Lem2.3-ii",), source="RRUV16 §2, Lemma 2.3 (ii); erratum RRUV16:Lem2.3-ii",
          domain={"eps": ("1/100", "50")}, log_scale=("eps",),
          cuts="eps < 1/100: the difference is 1 + O(eps) (corrected 2/eps - 1 + O(eps), "
               "printed 2/eps - 2 + O(eps)); the prover's boxes must shrink like eps there, so "
               "the small-eps end is left to that expansion. eps > 50: the printed constant "
               "is below 2e-20 and the corrected one above 1.")
def corrected_above_printed(ctx: Any, eps: Any) -> Any:
    return _corrected(ctx, eps) - printed_constant(ctx, eps)


@relation("RRUV16:Lem2.3-ii/printed-holds-for-RR-below-W(2)", kind="threshold",
          statement="on randomized response RR_(eps, delta), whose point-wise mass beyond 2 eps "
                    "is delta, the printed bound 2 delta/(e^eps eps) holds for eps <= "
                    f"{W2_BELOW} (strictly, per unit delta)",
          uses=("RRUV16:Lem2.3-ii", "RRUV16:Def2.6"),
          source="RRUV16 Lemma 2.3 (ii) on RR (Definition 2.6); erratum RRUV16:Lem2.3-ii",
          domain={"eps": ("1/100", W2_BELOW)}, log_scale=("eps",),
          cuts="eps < 1/100: 2/(e^eps eps) > 2/(1.02 eps) > 1 there.")
def printed_holds_below(ctx: Any, eps: Any) -> Any:
    return printed_constant(ctx, eps) - 1


@relation("RRUV16:Lem2.3-ii/printed-fails-for-RR-above-W(2)", kind="threshold",
          statement="on randomized response the printed bound fails for every eps >= "
                    f"{W2_ABOVE}: with the relation below, the exact threshold W(2) lies in "
                    f"[{W2_BELOW}, {W2_ABOVE}]",
          uses=("RRUV16:Lem2.3-ii", "RRUV16:Def2.6"),
          source="RRUV16 Lemma 2.3 (ii) on RR (Definition 2.6); erratum RRUV16:Lem2.3-ii",
          domain={"eps": (W2_ABOVE, "50")}, log_scale=("eps",),
          cuts="eps > 50: 2/(e^eps eps) is decreasing, below 2e-23 there.")
def printed_fails_above(ctx: Any, eps: Any) -> Any:
    return 1 - printed_constant(ctx, eps)


@relation("RRUV16:Lem4.6>=LEC11:RRLoss", kind="ordering",
          statement="the mean-loss bound eps(e^eps - 1)/2 of Lemma 4.6 is above the exact mean "
                    "eps tanh(eps/2) of randomized response's privacy loss",
          uses=("RRUV16:Lem4.6", "LEC11:RRLoss"),
          source="RRUV16 Lemma 4.6; lecture notes (mean privacy loss of RR)",
          domain={"eps": ("1/1000", "50")}, log_scale=("eps",),
          cuts="eps < 1/1000: the difference is about eps^2/4 (e^eps - 1 >= eps and "
               "tanh(eps/2) <= eps/2 give eps(e^eps - 1)/2 >= eps^2/2 >= eps tanh(eps/2)); both "
               "are 0 at eps = 0. The prover's boxes would have to shrink like eps there. "
               "eps > 50: the bound grows like e^eps, the mean stays below eps.")
def drift_above_rr_mean(ctx: Any, eps: Any) -> Any:
    return loss_mean_bound.core(ctx, eps) - rr_expected_loss.core(ctx, eps)


@relation("LEC11:Ex1/valid-under-the-condition", kind="erratum",
          statement="the notes' Gaussian sigma = 2 sqrt(ln(1/delta))/eps has P[I > eps] <= delta "
                    "at every eps up to 4(2 - sqrt 2) ln(1/delta), the condition the notes leave "
                    "out: eps = s 4(2 - sqrt 2) ln(1/delta), s in (0, 1]",
          uses=("LEC11:Ex1", "LEC11:GaussTail"),
          source="lecture notes, Example 1 (N13); erratum LEC11:N13",
          domain={"s": ("1/1000", "1"), "delta": ("1e-30", "99/100")}, log_scale=("s", "delta"),
          strict=False,
          cuts="the tail is Q(z), z = sqrt(L) (2 - s(2 - sqrt 2)), L = ln(1/delta): it depends "
               "on s and delta only, and grows with s. s < 1/1000: below its value at s = "
               "1/1000. delta < 1e-30 or > 0.99: z >= sqrt(2 L) at s <= 1, and Q(z) <= "
               "exp(-z^2/2) <= exp(-L) = delta for z >= 0 (the result's proof note).")
def notes_gaussian_valid(ctx: Any, s: Any, delta: Any) -> Any:
    eps = s * 4 * (2 - ctx.sqrt(2)) * log(ctx, 1 / delta)
    sigma = notes_gaussian_sigma.core(ctx, eps, delta)
    return delta - gaussian_loss_tail.core(ctx, sigma, eps, ctx.one)
