"""Relations of the filters and odometers (RRUV16 §5-§6), proved on whole domains (see
:mod:`reference.core.relations`): Theorem 6.5 above the order that Theorem 6.1 says no
odometer can beat, the validity condition of (11) through Theorem 4.5, footnote 7's
improvement, the monotonicities of each branch and of Lemma 6.4, and the exact threshold
ln(1.1) where the remark before Theorem 6.5 starts to fail.

``n`` ranges over reals (the formulas extend to real ``n``).  Where a term is ``sqrt(S)``
times a function of ``(n, delta_g)`` the relation is stated per unit ``S`` (``S = 1``):
it then holds for every ``S > 0`` by homogeneity.
"""

from __future__ import annotations

from typing import Any

from reference.core.numeric import exp, expm1, log, to_ctx
from reference.core.relations import partial, relation
from reference.results.concentration.rruv16 import window_bound
from reference.results.filters.rruv16 import C2804, filter_statistic
from reference.results.odometers.rruv16 import (
    advanced_value,
    conference_term,
    fixed_x_value,
    log_term_11,
    order7_scale,
)

_N = (3, 10**12)
_DELTA = ("1e-15", "36/100")
_CUT_ND = ("n > 10^12, delta_g < 1e-15: every term grows like a power of log(log(n)/"
           "delta_g); delta_g in (36/100, 1/e): the last 0.8% of the range up to 1/e, where "
           "log(log(n)/delta_g) >= log(log 3 e) > 1.09 still.")


def _dev(ctx: Any, S: Any, n: Any, delta_g: Any, branch: int) -> Any:
    return advanced_value(ctx, ctx.zero, S, n, delta_g, branch)


@relation("RRUV16:Thm6.5-(11)>=Thm6.1", kind="ordering",
          statement="the deviation term sqrt(2 S (log(110 e) + 2 log(log(n)/delta_g))) of "
                    "(11) is at least twice Theorem 6.1's scale sqrt(S log(log(n)/delta_g)); "
                    "with the drift above the mean round by round (RRUV16:Lem4.6>=LEC11:"
                    "RRLoss), Theorem 6.5 >= mean + 2 scale on branch (11): it is not of the "
                    "order (7) forbids",
          uses=("RRUV16:Thm6.5", "RRUV16:Thm6.1"),
          source="RRUV16 Theorem 6.1 (Equation (7)) and Theorem 6.5 (11)",
          domain={"n": _N, "delta_g": _DELTA}, log_scale=("n", "delta_g"),
          cuts="per unit S (both terms are sqrt(S) times a function of n and delta_g). "
               + _CUT_ND)
def thm65_11_above_order7(ctx: Any, n: Any, delta_g: Any) -> Any:
    return _dev(ctx, ctx.one, n, delta_g, 11) - 2 * order7_scale(ctx, ctx.one, n, delta_g)


@relation("RRUV16:Thm6.5-(12)>=Thm6.1", kind="ordering",
          statement="the deviation term of (12) is at least Theorem 6.1's scale "
                    "sqrt(S log(log(n)/delta_g)): with the drift above the mean, Theorem 6.5 "
                    ">= mean + scale on branch (12)",
          uses=("RRUV16:Thm6.5", "RRUV16:Thm6.1"),
          source="RRUV16 Theorem 6.1 (Equation (7)) and Theorem 6.5 (12)",
          domain={"S": ("1e-12", "1e4"), "n": _N, "delta_g": _DELTA},
          log_scale=("S", "n", "delta_g"),
          cuts="S < 1e-12 or S > 1e4: 2(1/n^2 + S)(1 + log(1 + n^2 S)/2) >= 2 S and "
               "log(4 log2(n)/delta_g) > log(log(n)/delta_g) for every S > 0, so the square "
               "of the deviation term is above twice the scale's square. (The factor 2 is "
               "the room the prover needs: boxes in S must be narrow enough for sqrt(S) to "
               "vary less than the margin.) " + _CUT_ND)
def thm65_12_above_order7(ctx: Any, S: Any, n: Any, delta_g: Any) -> Any:
    return _dev(ctx, S, n, delta_g, 12) - order7_scale(ctx, S, n, delta_g)


@relation("RRUV16:Thm6.5-(11)/valid-by-Thm4.5", kind="validity",
          statement="(11) is valid: its threshold is Theorem 4.5's at beta = e^-(log(110 e) + "
                    "2 log(log(n)/delta_g)) = delta_g^2/(110 e log(n)^2) with window t = n, "
                    "and Theorem 4.5's bound 2 sqrt(e)(beta + 2 log(n) sqrt(0.74 beta)) there "
                    "is below delta_g/2 (the other half goes to branch (12))",
          uses=("RRUV16:Thm6.5", "RRUV16:Thm4.5"),
          source="RRUV16 proof of Theorem 6.5 (11), through Theorem 4.5 (c = 1/n, t = n)",
          domain={"n": (2, 10**12), "delta_g": ("1e-15", "0.3678794411")},
          log_scale=("n", "delta_g"),
          cuts="n > 10^12, delta_g < 1e-15: the bound is 4 sqrt(e) sqrt(0.74/(110 e)) delta_g "
               "+ 2 sqrt(e) delta_g^2/(110 e log(n)^2) <= 0.33 delta_g + 0.011 delta_g^2 for "
               "every n >= 2 (log(n) >= 0.69), below delta_g/2 for every delta_g < 1; "
               "0.3678794411 < 1/e, and the margin is increasing in delta_g up to 1/e.")
def thm65_11_valid(ctx: Any, n: Any, delta_g: Any) -> Any:
    beta = exp(ctx, -log_term_11(ctx, n, delta_g))
    return delta_g / 2 - window_bound.core(ctx, beta, n, ctx.one).bound


@relation("RRUV16:Thm6.5-fn7/new<=conference", kind="erratum",
          statement="footnote 7: the new term of (11) is below the conference version's "
                    "2 sqrt(S (1 + log sqrt 3) log(4 log2(n)/delta_g)) for every n >= 2 and "
                    "delta_g <= 1/2 (the paper claims it for n >= 10)",
          uses=("RRUV16:Thm6.5",), source="RRUV16 Theorem 6.5, footnote 7",
          domain={"n": (2, 10**12), "delta_g": ("1e-15", "1/2")}, log_scale=("n", "delta_g"),
          cuts="per unit S (both terms are sqrt(S) times a function of n and delta_g). "
               "n > 10^12, delta_g < 1e-15: the squared terms differ by 4(1 + log sqrt 3) "
               "log(4/(ln 2)) - 2 log(110 e) + (4 log sqrt 3) log(log(n)/delta_g) > 0, "
               "increasing in log(log(n)/delta_g).")
def footnote7_improves(ctx: Any, n: Any, delta_g: Any) -> Any:
    return conference_term(ctx, ctx.one, n, delta_g) - _dev(ctx, ctx.one, n, delta_g, 11)


def _display_12(ctx: Any, S: Any, n: Any, delta_g: Any) -> Any:
    """The square-root term of (12) as the proof of Theorem 6.5 displays it: Lemma 6.4 at
    ``x = 1/n^2`` and ``delta_g/log2(n)``, whose ``log(2/.)`` is the display's ``log(2
    log2(n)/delta_g)`` (erratum RRUV16:Thm6.5-proof12; its check reads it the same way)."""
    log2_n = log(ctx, n) / log(ctx, 2)
    return fixed_x_value(ctx, ctx.zero, S, ctx.one / (n * n), delta_g / log2_n)


@relation("RRUV16:Thm6.5-(12)/stated>proof-display", kind="erratum",
          statement="the deviation term of (12) as stated, with log(4 log2(n)/delta_g), is "
                    "above the proof's display with log(2 log2(n)/delta_g) at every S, n and "
                    "delta_g: the display is Lemma 6.4 at delta_g/log2(n), which with the "
                    "(11) case's delta_g/2 would spend more than delta_g; the implemented "
                    "statement is the larger, valid threshold",
          uses=("RRUV16:Thm6.5", "RRUV16:Lem6.4"),
          source="RRUV16 Theorem 6.5 (12) and its proof; erratum RRUV16:Thm6.5-proof12",
          domain={"n": _N, "delta_g": _DELTA}, log_scale=("n", "delta_g"),
          cuts="at S = 2 (branch (12) for every n >= 3): both terms are sqrt(2 (S + 1/n^2)"
               "(1 + log(S n^2 + 1)/2)) times sqrt(log(c log2(n)/delta_g)), c = 4 and 2, so "
               "S enters only through a positive common factor and the relation at one S is "
               "the relation at every S > 0. " + _CUT_ND)
def thm65_12_above_display(ctx: Any, n: Any, delta_g: Any) -> Any:
    S = ctx.mpf(10**12)
    return _dev(ctx, S, n, delta_g, 12) - _display_12(ctx, S, n, delta_g)


@relation("RRUV16:Lem6.4>Thm5.1-K/same-x", kind="ordering",
          statement="Lemma 6.4's odometer is above Theorem 5.1's filter statistic K after "
                    "the same epsilons and at the same x: the odometer, which must hold at "
                    "every round without a budget fixed in advance, pays log(2/delta_g) "
                    "under the root where the filter pays log(1/delta_g)",
          uses=("RRUV16:Lem6.4", "RRUV16:Thm5.1"),
          source="RRUV16 Lemma 6.4 and Theorem 5.1 (6)",
          domain={"delta_g": ("1e-15", "0.3678794411")}, log_scale=("delta_g",),
          cuts="at S = x = 1, with Theorem 5.1's x = eps_g^2/(28.04 log(1/delta_g)) made 1 by "
               "eps_g = sqrt(28.04 log(1/delta_g)), and without the drift (the same sum "
               "eps_i (e^eps_i - 1)/2 in both): both are sqrt(2 (S + x)(1 + log(S/x + 1)/2)) "
               "times sqrt(log(2/delta_g)), resp. sqrt(log(1/delta_g)), so (S, x) enter only "
               "through a positive common factor and the relation at one (S, x) is the "
               "relation at every S >= 0, x > 0. delta_g < 1e-15: log(2/delta_g) - "
               "log(1/delta_g) = log 2 > 0; 0.3678794411 < 1/e, the end of both domains.")
def lem64_above_filter(ctx: Any, delta_g: Any) -> Any:
    log_inv = log(ctx, 1 / delta_g)
    eps_g = ctx.sqrt(to_ctx(ctx, C2804) * log_inv)
    return fixed_x_value(ctx, ctx.zero, ctx.one, ctx.one, delta_g) - \
        filter_statistic(ctx, ctx.zero, ctx.one, eps_g, delta_g)


def _mono(name: str, branch: int, increasing: bool, cuts: str, dom: dict[str, Any]) -> Any:
    verb = "increasing" if increasing else "decreasing"
    rid = f"RRUV16:Thm6.5-({branch})/{verb}-{name}"

    @relation(rid, kind="monotonicity",
              statement=f"Theorem 6.5's branch ({branch}) is {verb} in {name}",
              uses=("RRUV16:Thm6.5",), source=f"RRUV16 Theorem 6.5 ({branch})",
              domain=dom, log_scale=tuple(dom), cuts=cuts)
    def margin(ctx: Any, S: Any, n: Any, delta_g: Any) -> Any:
        d = partial(ctx, lambda c, S, n, delta_g: _dev(c, S, n, delta_g, branch), name,
                    S=S, n=n, delta_g=delta_g)
        return d if increasing else -d

    return margin


_BOX = {"S": ("1e-12", "1e4"), "n": _N, "delta_g": _DELTA}
_MONO_CUT = ("S outside [1e-12, 1e4]: the derivative is a positive power of S times the "
             "same function of (n, delta_g). " + _CUT_ND)
thm65_11_increasing_S = _mono("S", 11, True, _MONO_CUT, _BOX)
thm65_11_increasing_n = _mono("n", 11, True, _MONO_CUT, _BOX)
thm65_11_decreasing_delta = _mono("delta_g", 11, False, _MONO_CUT, _BOX)
thm65_12_increasing_S = _mono("S", 12, True, _MONO_CUT, _BOX)
thm65_12_decreasing_delta = _mono("delta_g", 12, False, _MONO_CUT, _BOX)


@relation("RRUV16:Lem6.4/decreasing-delta_g", kind="monotonicity",
          statement="Lemma 6.4's odometer is decreasing in delta_g",
          uses=("RRUV16:Lem6.4",), source="RRUV16 Lemma 6.4",
          domain={"S": ("1e-12", "1e4"), "x": ("1e-12", "1e4"), "delta_g": _DELTA},
          log_scale=("S", "x", "delta_g"),
          cuts="outside the box: d/d delta_g = -sqrt(2(S + x)(1 + log(S/x + 1)/2)) / "
               "(2 delta_g sqrt(log(2/delta_g))) < 0 for every S >= 0, x > 0.")
def lem64_decreasing_delta(ctx: Any, S: Any, x: Any, delta_g: Any) -> Any:
    return -partial(ctx, lambda c, S, x, delta_g: fixed_x_value(c, c.zero, S, x, delta_g),
                    "delta_g", S=S, x=x, delta_g=delta_g)


@relation("RRUV16:Lem6.4/increasing-S", kind="monotonicity",
          statement="Lemma 6.4's odometer is increasing in S = sum eps_i^2",
          uses=("RRUV16:Lem6.4",), source="RRUV16 Lemma 6.4",
          domain={"S": ("1e-12", "1e4"), "x": ("1e-12", "1e4"), "delta_g": _DELTA},
          log_scale=("S", "x", "delta_g"),
          cuts="outside the box: (S + x)(2 + log(S/x + 1)) is a product of two functions "
               "increasing in S.")
def lem64_increasing_S(ctx: Any, S: Any, x: Any, delta_g: Any) -> Any:
    return partial(ctx, lambda c, S, x, delta_g: fixed_x_value(c, c.zero, S, x, delta_g),
                   "S", S=S, x=x, delta_g=delta_g)


#: ln(1.1) = 0.09531017980432486...: where e^x - 1 reaches 0.1.
LN11_BELOW, LN11_ABOVE = "0.0953101798", "0.0953101799"


@relation("RRUV16:Sec6-no-utility/printed-holds-below-ln(1.1)", kind="threshold",
          statement="the remark before Theorem 6.5, 'eps_i < 1/(10 n) gives statistical "
                    f"distance e^(eps_i n) - 1 < 0.1', holds for eps_i n <= {LN11_BELOW}: with "
                    "the relation below, it fails exactly above ln(1.1) = 0.09531017980..., "
                    "inside the range eps_i n < 0.1 it claims",
          uses=("RRUV16:Thm6.5",), source="RRUV16 §6, the remark before Theorem 6.5; "
          "erratum RRUV16:Sec6-no-utility", domain={"eps_n": (0, LN11_BELOW)},
          cuts="none below: e^x - 1 is increasing, 0 at x = 0.")
def no_utility_holds_below(ctx: Any, eps_n: Any) -> Any:
    return ctx.mpf("0.1") - expm1(ctx, eps_n)


@relation("RRUV16:Sec6-no-utility/printed-fails-above-ln(1.1)", kind="threshold",
          statement=f"the remark's bound 0.1 fails for every eps_i n in [{LN11_ABOVE}, 0.1): "
                    f"the exact threshold ln(1.1) lies in [{LN11_BELOW}, {LN11_ABOVE}]",
          uses=("RRUV16:Thm6.5",), source="RRUV16 §6, the remark before Theorem 6.5; "
          "erratum RRUV16:Sec6-no-utility", domain={"eps_n": (LN11_ABOVE, "0.1")},
          cuts="none: the remark's range ends at eps_i n = 0.1.")
def no_utility_fails_above(ctx: Any, eps_n: Any) -> Any:
    return expm1(ctx, eps_n) - ctx.mpf("0.1")
