"""Relations of the zCDP conversions, proved on whole domains (see
:mod:`reference.core.relations`; ``python -m reference prove`` / ``check``)."""

from __future__ import annotations

from typing import Any

from reference.core.numeric import exp, log, log1p
from reference.core.relations import partial, relation
from reference.core.special import normal_sf
from reference.results.conversions.bs16 import puredp_to_zcdp
from reference.results.conversions.bw18 import gauss_delta_formula
from reference.results.conversions.cks20 import _delta_order_gap, _eps_order_gap, eps_at_order
from reference.results.conversions.mir17 import rr_renyi_formula
from reference.results.conversions.rswr23 import (
    exponential_mechanism_zcdp,
    zcdp_budget,
    zcdp_to_dp,
)
from reference.results.filters.rswr23_brownian import printed_epsilon
from reference.results.privacy_loss.lec11 import rr_expected_loss

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
    return printed_epsilon(ctx, rho, delta) - _eps(ctx, rho, delta)


@relation("RSWR23:Sec7.2-EM<BS16:Prop1.4", kind="ordering",
          statement="the exponential mechanism's eps^2/8-zCDP is below the eps^2/2-zCDP that "
                    "its eps-DP alone gives",
          uses=("RSWR23:Sec7.2-EM", "BS16:Prop1.4"),
          source="RSWR23 §7.2 (Cesar, Rogers 2021) and Bun, Steinke (2016) Proposition 1.4",
          domain={"eps": ("1e-12", "1000")}, log_scale=("eps",),
          cuts="eps < 1e-12 and eps > 1000: the difference is 3 eps^2/8 > 0 for eps > 0.")
def em_below_pure(ctx: Any, eps: Any) -> Any:
    return puredp_to_zcdp.core(ctx, eps) - exponential_mechanism_zcdp.core(ctx, eps)


@relation("CKS20:Cor13<=RSWR23:Lem2.3", kind="ordering",
          statement="the CKS20 conversion is never worse than Bun-Steinke's rho + 2 sqrt(rho "
                    "log(1/delta)): its objective a rho + ln(1 - 1/a) - (ln delta + ln a)/(a "
                    "- 1), which CKS20:Cor13 minimises over the order a, is already below it "
                    "at Bun-Steinke's order a = 1 + sqrt(log(1/delta)/rho)",
          uses=("CKS20:Cor13", "RSWR23:Lem2.3"),
          source="Canonne, Kamath, Steinke 2020, Prop. 12 / Cor. 13; RSWR23 Lemma 2.3 (ii)",
          domain={"rho": ("1e-4", "100"), "delta": ("1e-12", "1/2")},
          log_scale=("rho", "delta"),
          cuts="outside the box: at t = a - 1 = sqrt(L/rho) (L = log(1/delta)) the objective "
               "is rho + 2 sqrt(rho L) - log1p(1/t) - log1p(t)/t, below Bun-Steinke's by "
               "log1p(1/t) + log1p(t)/t > 0 for every t > 0.")
def cks_below_bun_steinke(ctx: Any, rho: Any, delta: Any) -> Any:
    log_inv = log(ctx, 1 / delta)
    t = ctx.sqrt(log_inv / rho)
    return _eps(ctx, rho, delta) - eps_at_order(ctx, t, rho, log_inv)


def _renyi(ctx: Any, eps: Any, alpha: Any) -> Any:
    return rr_renyi_formula(ctx, eps, alpha - 1)


_EPS_ALPHA = {"eps": ("1/100", "4"), "alpha": ("101/100", "20")}


@relation("MIR17:RR-renyi<eps", kind="ordering",
          statement="an eps-DP mechanism's Rényi divergence (randomized response's, the "
                    "largest) is below eps at every finite order: eps-DP is (alpha, eps)-RDP",
          uses=("MIR17:RR-renyi",), source="Mironov 2017, Table II and Proposition 3",
          domain=_EPS_ALPHA, log_scale=("eps", "alpha"),
          cuts="eps outside [1/100, 4], alpha outside [1.01, 20]: D_alpha = eps - "
               "log((1 + e^-eps)/(1 + e^-(2 alpha - 1) eps))/(alpha - 1) (the formula), and "
               "the logarithm is of a number above 1 for every eps > 0, alpha > 1; it tends "
               "to 0 as alpha -> inf (D_inf = eps).")
def renyi_below_eps(ctx: Any, eps: Any, alpha: Any) -> Any:
    return eps - _renyi(ctx, eps, alpha)


@relation("MIR17:RR-renyi<=BS16:Prop1.4", kind="ordering",
          statement="randomized response's Rényi divergence is at most alpha eps^2/2: the "
                    "eps^2/2-zCDP of pure eps-DP (Bun-Steinke) holds at every order",
          uses=("MIR17:RR-renyi", "BS16:Prop1.4"),
          source="Mironov 2017 Table II; Bun, Steinke 2016 Proposition 1.4",
          domain={"eps": ("1/2", "4"), "alpha": ("101/100", "20")},
          log_scale=("eps", "alpha"), strict=False,
          cuts="eps < 1/2: both sides are alpha eps^2/2 + O(eps^4) and the boxes would have "
               "to shrink with eps (the inequality is Bun-Steinke's Proposition 1.4 there); "
               "eps > 4 or alpha > 20: alpha eps^2/2 >= eps > D_alpha (relation "
               "MIR17:RR-renyi<eps) once alpha eps >= 2.")
def renyi_below_zcdp(ctx: Any, eps: Any, alpha: Any) -> Any:
    return alpha * puredp_to_zcdp.core(ctx, eps) - _renyi(ctx, eps, alpha)


@relation("MIR17:RR-renyi/increasing-alpha", kind="monotonicity",
          statement="randomized response's Rényi divergence is increasing in the order alpha",
          uses=("MIR17:RR-renyi",), source="Mironov 2017, Proposition 9 (monotonicity in the "
          "order) on RR", domain={"eps": ("1/100", "4"), "alpha": (2, 20)},
          log_scale=("eps", "alpha"),
          cuts="outside the box: Rényi divergences are non-decreasing in the order for every "
               "pair (van Erven, Harremoës 2014, Theorem 3), strictly for RR (not uniform).")
def renyi_increasing_alpha(ctx: Any, eps: Any, alpha: Any) -> Any:
    return partial(ctx, _renyi, "alpha", eps=eps, alpha=alpha)


@relation("LEC11:RRLoss<=BS16:Prop1.4", kind="ordering",
          statement="the mean privacy loss eps tanh(eps/2) of randomized response (its KL "
                    "divergence) is below eps^2/2",
          uses=("LEC11:RRLoss", "BS16:Prop1.4"),
          source="Lecture notes N14; Bun, Steinke 2016 Proposition 1.4 at alpha -> 1",
          domain={"eps": ("1/100", "50")}, log_scale=("eps",),
          cuts="eps < 1/100: eps^2/2 - eps tanh(eps/2) = eps^4/24 + O(eps^6) (tanh(x) < x "
               "for x > 0) and the boxes would have to shrink like eps; eps > 50: eps "
               "tanh(eps/2) < eps < eps^2/2.")
def rr_loss_below_zcdp(ctx: Any, eps: Any) -> Any:
    return puredp_to_zcdp.core(ctx, eps) - rr_expected_loss.core(ctx, eps)


@relation("LEC11:RRLoss/increasing-eps", kind="monotonicity",
          statement="randomized response's mean privacy loss eps tanh(eps/2) is increasing "
                    "in eps", uses=("LEC11:RRLoss",), source="Lecture notes N14",
          domain={"eps": ("1e-12", "50")}, log_scale=("eps",),
          cuts="the derivative tanh(eps/2) + eps/(2 cosh(eps/2)^2) is positive for every "
               "eps > 0; outside the box its two terms stay positive.")
def rr_loss_increasing(ctx: Any, eps: Any) -> Any:
    return partial(ctx, rr_expected_loss.core, "eps", eps=eps)


_BS_GAUSS = ("BW18:Thm8-rho", "RSWR23:Lem2.3")
_BS_GAUSS_SOURCE = ("Balle, Wang 2018, Theorem 8; RSWR23 Lemma 2.3 (ii) (Bun, Steinke 2016, "
                    "Prop. 1.3)")


@relation("BW18:Thm8-rho<=RSWR23:Lem2.3", kind="ordering",
          statement="Bun-Steinke's conversion is sound for the Gaussian, at no less than its "
                    "exact epsilon: at eps = rho + 2 sqrt(rho L) the rho-zCDP Gaussian's exact "
                    "delta (Balle-Wang) is at most delta = e^-L",
          uses=_BS_GAUSS, source=_BS_GAUSS_SOURCE,
          domain={"rho": ("1/10", "10"), "L": ("69/100", "28")}, log_scale=("rho", "L"),
          cuts="L = ln(1/delta), delta from e^-28 = 6.9e-13 to e^-0.69 = 0.5016; the margin "
               "is 1 - e^L delta_N(eps), mu = sqrt(2 rho). Outside the box: the exact delta is a "
               "difference of two normal tails that cancel about log2(b/mu) bits (b = eps/mu "
               "+ mu/2), so the prover's boxes must shrink like mu/(a b) and the time grows "
               "quickly with L and 1/rho; BW18:Thm8-rho<=RSWR23:Lem2.3/Mills-bound proves the "
               "claim on rho from 1e-12 to 1e4, L from 1e-12 to 1e4 through an upper bound on "
               "the curve instead.")
def gaussian_below_bun_steinke(ctx: Any, rho: Any, L: Any) -> Any:
    eps = _eps(ctx, rho, exp(ctx, -L))
    return 1 - exp(ctx, L) * gauss_delta_formula(ctx, ctx.sqrt(2 * rho), eps)


#: The left Riemann sum of the CKS20 relation below: 16 steps, each 6/5 of the one before.
_STEPS = 16
#: The two Mills-ratio inequalities the bound rests on (both re-proved in the cut).
_MILLS_SOURCES = ("Gordon 1941, Ann. Math. Statist. 12(3), 'Values of Mills' ratio of area to "
                  "bounding ordinate and of the normal probability integral for large values "
                  "of the argument' (R > x/(1 + x^2)); Birnbaum 1942, Ann. Math. "
                  "Statist. 13(2), 'An inequality for Mills' ratio' (R > (sqrt(x^2 + 4) - "
                  "x)/2)")


def mills_square(ctx: Any, x: Any) -> Any:
    """``f(x)^2 = 4 / (x + sqrt(x^2 + 4))^2``, ``f(x) = (sqrt(x^2 + 4) - x) / 2`` the lower
    bound on the Mills ratio ``R(x) = Q(x) / phi(x)`` of Birnbaum (1942, Ann. Math. Statist.
    13): at ``x >= 0`` an upper bound on ``g(x) = 1 - x R(x)`` (the relation's cut), with no
    cancellation."""
    s = x + ctx.sqrt(x * x + 4)
    return 4 / (s * s)


def riemann_steps(mu: Any) -> list[Any]:
    """The steps ``h_i = mu 5^(15-i) 6^i / (6^16 - 5^16)``, ``i < 16``: geometric (ratio
    6/5), summing to ``mu`` exactly."""
    return [mu * (5 ** (_STEPS - 1 - i) * 6 ** i) / (6 ** _STEPS - 5 ** _STEPS)
            for i in range(_STEPS)]


def riemann_mills(ctx: Any, a: Any, mu: Any) -> Any:
    """``sum_i h_i f(x_i)^2`` over :func:`riemann_steps` ``(mu)``, ``x_i = a + h_0 + ... +
    h_(i-1)``: for ``a >= 0`` at least ``R(a) - R(a + mu)``, ``R`` the Mills ratio (the cut
    of ``BW18:Thm8-rho<=CKS20:Cor13``)."""
    total, x = ctx.zero, a
    for h in riemann_steps(mu):
        total = total + h * mills_square(ctx, x)
        x = x + h
    return total


def cks_gaussian_ratio(ctx: Any, rho: Any, u: Any) -> Any:
    """An upper bound on ``e^L delta_N(eps)``: the rho-zCDP Gaussian's exact delta at
    CKS20's epsilon for ``delta = e^-L``, at its order ``t = sqrt(u / rho)``, ``L = u +
    ln(1 + t)``, for ``u >= 1/2`` (the relation's cut gives the proof):
    ``e^(L - a^2/2) / sqrt(2 pi) * sum_i h_i f(x_i)^2``, ``x_i = a + h_0 + ... + h_(i-1)``,
    with ``a mu = 2 rho t - c`` and ``L - a^2/2 = ln(1 + t) + t c - c^2 / (4 rho)``, ``c =
    ln(1 + 1/t)``, ``mu = sqrt(2 rho)``."""
    t = ctx.sqrt(u / rho)
    c = log1p(ctx, 1 / t)
    mu = ctx.sqrt(2 * rho)
    return exp(ctx, log1p(ctx, t) + t * c - c * c / (4 * rho)) / ctx.sqrt(2 * ctx.pi) \
        * riemann_mills(ctx, (2 * rho * t - c) / mu, mu)


@relation("BW18:Thm8-rho<=CKS20:Cor13", kind="ordering",
          statement="CKS20's conversion is sound for the Gaussian, at no less than its exact "
                    "epsilon: at the eps of CKS20:Cor13 for rho and delta = e^-L (its order t, "
                    "rho t^2 + ln(1 + t) = L), the rho-zCDP Gaussian's exact delta "
                    "(Balle-Wang) is below delta; the variables are rho and u = rho t^2 (L = "
                    "u + ln(1 + t)), and the margin 1 - B is below 1 - e^L delta_N(eps) for a "
                    "bound B worked out by hand (the cut). The same pairs (eps, delta) are "
                    "CKS20:Cor13-delta's at its order t (eps = rho (1 + 2t) - ln(1 + 1/t), "
                    "delta = e^-u/(1 + t)): the Gaussian's exact delta at eps is below "
                    "CKS20:Cor13-delta(rho, eps) wherever that order has rho t^2 >= 1/2",
          uses=("BW18:Thm8-rho", "CKS20:Cor13", "CKS20:Cor13-delta"),
          source="Balle, Wang 2018, Theorem 8; Canonne, Kamath, Steinke 2020, Proposition 12 "
                 "/ Corollary 13; " + _MILLS_SOURCES,
          domain={"rho": ("1e-12", "10000"), "u": ("1/2", "10000")}, log_scale=("rho", "u"),
          cuts="the bound: with mu = sqrt(2 rho), a = eps/mu - mu/2, b = a + mu, e^eps phi(b) "
               "= phi(a), so delta_N = phi(a) (R(a) - R(b)) = phi(a) * integral of g over [a, "
               "b], R = Q/phi the Mills ratio, g = 1 - x R = -R' (R' = x R - 1). g decreases "
               "(g' = x - (1 + x^2) R < 0: Gordon's R > x/(1 + x^2) for x > 0), so the left "
               "Riemann sum over 16 steps h_i (ratio 6/5, summing to mu) is above the "
               "integral, and g <= f^2 at x >= 0 for f = (sqrt(x^2 + 4) - x)/2 (Birnbaum: "
               "f < R for every real x, since f' - (x f - 1) = f^3/sqrt(x^2 + 4) > 0, so (R - "
               "f) e^(-x^2/2) decreases to 0). At CKS20's order eps - rho = 2 rho t - c, c = "
               "ln(1 + 1/t) <= 1/t, so a mu >= (2u - 1)/t >= 0 for u >= 1/2, and L - a^2/2 = "
               "ln(1 + t) + t c - c^2/(4 rho): u cancels by hand, not in the boxes. The box "
               "is rho from 1e-12 to 1e4, delta = e^-u/(1 + t) from about 0.6/(1 + t) down "
               "to e^-10^4/(1 + t); u < 1/2 is left out (a may be negative there, where f^2 "
               "< g). The exact curve itself, Q(a) - e^eps Q(b), cancels about log2(b/mu) "
               "bits and left 4989 boxes undecided after 300 s (BW18:Thm8-rho<=RSWR23:Lem2.3 "
               "is proved that way on a small box).")
def gaussian_below_cks(ctx: Any, rho: Any, u: Any) -> Any:
    return 1 - cks_gaussian_ratio(ctx, rho, u)


@relation("BW18:Thm8-rho<=RSWR23:Lem2.3/Mills-bound", kind="ordering",
          statement="Bun-Steinke's conversion is sound for the Gaussian on a wide box: at eps "
                    "= rho + 2 sqrt(rho L) the rho-zCDP Gaussian's exact delta (Balle-Wang) is "
                    "below delta = e^-L; the margin 1 - B is below 1 - e^L delta_N(eps) for the "
                    "bound B of BW18:Thm8-rho<=CKS20:Cor13, which here is sum_i h_i f(x_i)^2 / "
                    "sqrt(2 pi) from x_0 = sqrt(2L)",
          uses=_BS_GAUSS, source=_BS_GAUSS_SOURCE + "; " + _MILLS_SOURCES,
          domain={"rho": ("1e-12", "10000"), "L": ("1e-12", "10000")}, log_scale=("rho", "L"),
          cuts="at eps = rho + 2 sqrt(rho L), a = eps/mu - mu/2 = sqrt(2L) >= 0 and L - a^2/2 "
               "= 0 by hand (mu = sqrt(2 rho)), so the bound of BW18:Thm8-rho<=CKS20:Cor13 "
               "(its cut gives the proof: the Riemann sum of Birnbaum's f^2 >= g = 1 - x R(x) "
               "over [a, a + mu], valid for a >= 0) is the sum alone, with no cancellation "
               "left; BW18:Thm8-rho<=RSWR23:Lem2.3 proves the same claim from the exact curve "
               "on a smaller box. Outside: rho < 1e-12 or > 1e4, and delta = e^-L above "
               "e^-(1e-12) or below e^-10^4.")
def gaussian_below_bun_steinke_wide(ctx: Any, rho: Any, L: Any) -> Any:
    return 1 - riemann_mills(ctx, ctx.sqrt(2 * L), ctx.sqrt(2 * rho)) / ctx.sqrt(2 * ctx.pi)


_BW18_DOMAIN = {"rho": ("1e-16", "1e16"), "eps": ("-1e12", "1e12")}
_BW18_CUT = ("With mu = sqrt(2 rho), a = eps/mu - mu/2, b = eps/mu + mu/2, the curve is Q(a) - "
             "e^eps Q(b) and e^eps phi(b) = phi(a) (b^2 - a^2 = (b - a)(b + a) = 2 eps), so "
             "its forward-mode derivative has two terms that cancel exactly, which interval "
             "arithmetic cannot see (1123 boxes were left after 60 s); the margin is the "
             "derivative after that cancellation, derived by hand here and tested: the "
             "identity in exact rationals, the closed form inside the enclosure of the "
             "formula's own forward-mode derivative at drawn points. The box is the result's "
             "whole domain; the closed form is positive for every real eps and rho > 0.")


@relation("BW18:Thm8-rho/decreasing-eps", kind="monotonicity",
          statement="the rho-zCDP Gaussian's exact delta (Balle-Wang) is decreasing in eps, "
                    "what its eps inverse relies on: d delta/d eps = -e^eps Q(eps/mu + mu/2), "
                    "mu = sqrt(2 rho); the margin is e^eps Q(eps/mu + mu/2)",
          uses=("BW18:Thm8-rho",), source="Balle, Wang 2018, Theorem 8",
          domain=_BW18_DOMAIN, log_scale=("rho",),
          cuts="d/d eps [Q(a) - e^eps Q(b)] = -phi(a)/mu - e^eps Q(b) + e^eps phi(b)/mu = "
               "-e^eps Q(b). " + _BW18_CUT)
def gaussian_decreasing_eps(ctx: Any, rho: Any, eps: Any) -> Any:
    mu = ctx.sqrt(2 * rho)
    return exp(ctx, eps) * normal_sf(ctx, eps / mu + mu / 2)


@relation("BW18:Thm8-rho/increasing-rho", kind="monotonicity",
          statement="the rho-zCDP Gaussian's exact delta (Balle-Wang) is increasing in rho, "
                    "what its rho inverse relies on: d delta/d rho = phi(eps/mu - mu/2)/mu, mu "
                    "= sqrt(2 rho), phi the standard normal density; the margin is that",
          uses=("BW18:Thm8-rho",), source="Balle, Wang 2018, Theorem 8",
          domain=_BW18_DOMAIN, log_scale=("rho",),
          cuts="d/d mu [Q(a) - e^eps Q(b)] = phi(a) (eps/mu^2 + 1/2) - e^eps phi(b) (eps/mu^2 "
               "- 1/2) = phi(a), and d mu/d rho = 1/mu. " + _BW18_CUT)
def gaussian_increasing_rho(ctx: Any, rho: Any, eps: Any) -> Any:
    mu = ctx.sqrt(2 * rho)
    a = eps / mu - mu / 2
    return exp(ctx, -(a * a) / 2) / (ctx.sqrt(2 * ctx.pi) * mu)


def _order_gap(ctx: Any, t: Any, rho: Any, delta: Any) -> Any:
    return _eps_order_gap(ctx, t, rho, log(ctx, 1 / delta))


@relation("CKS20:Cor13-order/gap-increasing", kind="inverse",
          statement="the stationarity gap rho t^2 + ln(1 + t) - ln(1/delta), whose root t = "
                    "a - 1 gives the order CKS20:Cor13 uses, is increasing in t: the root is "
                    "unique and bracketing finds it",
          uses=("CKS20:Cor13", "CKS20:Cor13-order"),
          source="Canonne, Kamath, Steinke 2020, Proposition 12 / Corollary 13 (the order)",
          domain={"t": ("1e-12", "1e12"), "rho": ("1e-12", "1e4"), "delta": ("1e-30", "1/2")},
          log_scale=("t", "rho", "delta"),
          cuts="outside the box the t-derivative 2 rho t + 1/(1 + t) is still positive "
               "(t > 0, rho >= 0).")
def cks_order_gap_increasing(ctx: Any, t: Any, rho: Any, delta: Any) -> Any:
    return partial(ctx, _order_gap, "t", t=t, rho=rho, delta=delta)


@relation("CKS20:Cor13-delta/gap-increasing", kind="inverse",
          statement="the gap (1 + 2t) rho - eps - ln(1 + 1/t), whose root t = a - 1 gives the "
                    "order CKS20:Cor13-delta uses, is increasing in t: the root is unique",
          uses=("CKS20:Cor13-delta",),
          source="Canonne, Kamath, Steinke 2020, Proposition 12 (delta at the optimal order)",
          domain={"t": ("1e-12", "1e12"), "rho": ("1e-12", "1e4"), "eps": (0, 1000)},
          log_scale=("t", "rho"),
          cuts="outside the box the t-derivative 2 rho + 1/(t (1 + t)) is still positive "
               "(t > 0, rho >= 0); eps does not enter it.")
def cks_delta_gap_increasing(ctx: Any, t: Any, rho: Any, eps: Any) -> Any:
    return partial(ctx, _delta_order_gap, "t", t=t, rho=rho, eps=eps)
