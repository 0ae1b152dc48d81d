"""Privacy odometers: running bounds on the privacy loss of adaptive compositions (RRUV16 §6).

Source: RRUV16: Definition 3.2 (with probability at most ``delta_g`` over
``v ~ V^0``, ``|Loss(v)| > COMP_{delta_g}(eps_1, 0, ..., eps_k, 0)``; the round-``k'``
bound pads the sequence with zeros, since stopping is a feasible adversary), Lemma 6.4
(fixed ``x``) and Theorem 6.5 (the advanced odometer, branches (11) and (12)).  The
basic odometer is ``RRUV16:Thm3.4`` (:mod:`reference.results.filters.rruv16`).  An odometer
fails iff
``|Loss|`` is strictly greater than its value.  Objects that record rounds one by one
are in :mod:`reference.results.odometers.objects`; the errata of §6 in
:mod:`reference.results.odometers.rruv16_errata`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
from mpmath import mp

from reference.core.errata import Check, Kind, erratum
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, log
from reference.core.params import (
    Param,
    all_of,
    inv_e_precondition,
    max_length,
    nonneg_seq,
    positive,
    unit_open,
)
from reference.results.concentration.rruv16 import half_drift, self_normalized
from reference.results.filters.rruv16 import MAX_ROUNDS
from reference.results.privacy_loss.lec11 import rr_expected_loss

#: ``110 e``: ``81/0.74 = 109.46 <= 110`` in the proof of (11).
LOG_110E_ARG = 110


class OdometerValue(NamedTuple):
    """Theorem 6.5: the odometer's value and the branch used, (11) or (12)."""

    value: MPF
    branch: int


def drift_and_square_sum(ctx: Ctx, eps: list[MPF]) -> tuple[MPF, MPF]:
    """``(sum eps_i (e^eps_i - 1)/2, sum eps_i^2)``: the two sums every bound here uses."""
    if not eps:
        return ctx.zero, ctx.zero
    return ctx.fsum(half_drift(ctx, e) for e in eps), ctx.fsum(e * e for e in eps)


def fixed_x_value(ctx: Ctx, drift: MPF, S: MPF, x: MPF, delta_g: MPF) -> MPF:
    """Lemma 6.4 from its sufficient statistics: drift plus Theorem 4.4 at ``delta_g/2``."""
    return drift + self_normalized(ctx, 4 * S, x, log(ctx, 2 / delta_g))


def log_term_11(ctx: Ctx, n: MPF, delta_g: MPF) -> MPF:
    """``log(110 e) + 2 log(log(n)/delta_g)``: RRUV16 Theorem 6.5 (11) is ``sqrt(2 S`` times
    this ``)``, the ``log(1/beta)`` of Theorem 4.5 at ``beta = delta_g^2/(110 e log(n)^2)``."""
    return log(ctx, LOG_110E_ARG) + 1 + 2 * log(ctx, log(ctx, n) / delta_g)


def conference_term(ctx: Ctx, S: MPF, n: MPF, delta_g: MPF) -> MPF:
    """Footnote 7's conference-version term that (11)'s replaced (not a registered
    result): ``2 sqrt(S (1 + log sqrt 3) log(4 log2(n)/delta_g))``."""
    return 2 * ctx.sqrt(S * (1 + log(ctx, 3) / 2)
                        * log(ctx, 4 * (log(ctx, n) / log(ctx, 2)) / delta_g))


def advanced_value(ctx: Ctx, drift: MPF, S: MPF, n: MPF, delta_g: MPF, branch: int) -> MPF:
    """Theorem 6.5 from its sufficient statistics, on the given branch."""
    if branch == 11:
        return drift + ctx.sqrt(2 * S * log_term_11(ctx, n, delta_g))
    inv_n2 = ctx.one / (n * n)
    log_arg = 4 * (log(ctx, n) / log(ctx, 2)) / delta_g
    return drift + self_normalized(ctx, 4 * S, inv_n2, log(ctx, log_arg))


def branch_of(S: Fraction, n: int) -> int:
    """(11) iff ``1/n^2 <= S <= 1`` (both ends inclusive), exactly; else (12)."""
    return 11 if Fraction(1, n * n) <= S <= 1 else 12


def _branch_decide(values: Mapping[str, Any], where: str) -> dict[str, int]:
    S = sum((e * e for e in values["eps"]), Fraction(0))
    return {"branch": branch_of(S, values["n"])}


@result("RRUV16:Lem6.4", title="Privacy odometer with a fixed x", kind="odometer",
        statement=r"\sum_j\varepsilon_j\tfrac{e^{\varepsilon_j}-1}{2}+\sqrt{2(\sum_i"
                  r"\varepsilon_i^2+x)(1+\tfrac12\log(\tfrac{\sum_i\varepsilon_i^2}{x}+1))"
                  r"\log(2/\delta_g)}",
        params=[nonneg_seq("eps", "0.01,0.01", "epsilons of the rounds run", default=()),
                positive("x", "0.1", "fixed x > 0, chosen before the interaction"),
                unit_open("delta_g", "0.001", "failure probability, below 1/e")],
        probabilistic=True,
        precondition=all_of(inv_e_precondition("delta_g"), max_length("eps", MAX_ROUNDS)),
        notes="x must not depend on the realised epsilons (x = sum eps_i^2 would be "
              "invalid, by (7)). The proof's 'for any beta > 0' means x.", balls=True)
def fixed_x_odometer(ctx: Ctx, eps: list[MPF], x: MPF, delta_g: MPF) -> MPF:
    """Lemma 6.4's odometer value for the realised epsilons.

    RRUV16 Lemma 6.4: for ``delta_g in (0, 1/e)`` and any fixed ``x > 0``, a valid
    privacy odometer.  Domain: ``eps_i >= 0`` (possibly none), ``x > 0``,
    ``delta_g in (0, 1/e)``.  Computed independently: 1000 rounds of 0.01, ``x = 0.1``,
    ``delta_g = 1e-3`` give 2.0736316215620523 (double precision: 13 digits agree).

    >>> print(mpmath.nstr(fixed_x_odometer(eps=["0.01"] * 1000, x="0.1", delta_g="1e-3"), 13))
    2.073631621562
    """
    drift, S = drift_and_square_sum(ctx, eps)
    return fixed_x_value(ctx, drift, S, x, delta_g)


@result("RRUV16:Thm6.5", title="Advanced privacy odometer", kind="odometer",
                statement=r"\sum_i\varepsilon_i\tfrac{e^{\varepsilon_i}-1}{2}+\begin{cases}"
                          r"\sqrt{2S(\log(110e)+2\log\frac{\log n}{\delta_g})}&S\in[n^{-2},1]"
                          r"\ (11)\\ \sqrt{2(n^{-2}+S)(1+\frac12\log(1+n^2S))\log\frac{4\log_2n}"
                          r"{\delta_g}}&\text{else (12)}\end{cases},\ S=\sum_i\varepsilon_i^2",
                params=[nonneg_seq("eps", "0.01,0.01", "epsilons of the rounds run",
                                   default=()),
                        Param("n", "int", lo=Fraction(2), example="1000",
                              doc="dataset size n >= 2 (enters through log n, 1/n^2)"),
                        unit_open("delta_g", "0.05", "failure probability, below 1/e")],
                prepare=_branch_decide, probabilistic=True,
                precondition=all_of(inv_e_precondition("delta_g"),
                                    max_length("eps", MAX_ROUNDS)),
                notes="Branch by S = sum eps_i^2, exactly, both ends of [1/n^2, 1] inclusive. "
                      "(12) as stated (log(4 log2(n)/delta_g)); its proof prints "
                      "log(2 log2(n)/delta_g) (erratum RRUV16:Thm6.5-proof12). Natural log; "
                      "log2 is base 2. Needs n >= 2 (log n > 0).", balls=True)
def advanced_odometer(ctx: Ctx, eps: list[MPF], n: int, delta_g: MPF,
                      branch: int) -> OdometerValue:
    """Theorem 6.5's odometer value for the realised epsilons, and its branch.

    RRUV16 Theorem 6.5: for ``delta_g in (0, 1/e)`` a valid privacy odometer, (11) when
    ``sum eps_i^2`` lies in ``[1/n^2, 1]`` and (12) otherwise.  Domain: ``eps_i >= 0``
    (possibly none), integer ``n >= 2``, ``delta_g in (0, 1/e)``.  Computed independently
    (``n = 10^4``, ``delta_g = 1e-3``): 1000 rounds of 0.01 give 2.239161273812178 by
    (11); 200 rounds of 0.1 give 22.48706441292712 and 10 rounds of 1e-6 give
    0.0004668450204048619, both by (12).

    >>> out = advanced_odometer(eps=["0.01"] * 1000, n=10**4, delta_g="1e-3")
    >>> print(mpmath.nstr(out.value, 13), out.branch)  # a double-precision evaluation agrees
    2.239161273812 11
    >>> print(mpmath.nstr(advanced_odometer(eps=["0.1"] * 200, n=10**4, delta_g="1e-3").value, 15))
    22.4870644129271
    >>> print(mpmath.nstr(advanced_odometer(eps=["1e-6"] * 10, n=10**4, delta_g="1e-3").value, 15))
    0.000466845020404862
    """
    drift, S = drift_and_square_sum(ctx, eps)
    return OdometerValue(advanced_value(ctx, drift, S, n, delta_g, branch), branch)


class LowerOrder(NamedTuple):
    """Theorem 6.1's two terms: the mean of the loss and the scale of its deviations."""

    mean: MPF
    scale: MPF


def lower_order_value(ctx: Ctx, eps: list[MPF], n: MPF, delta_g: MPF) -> LowerOrder:
    """``(sum eps_i tanh(eps_i/2), sqrt(sum eps_i^2 log(log(n)/delta_g)))``."""
    if not eps:
        return LowerOrder(ctx.zero, ctx.zero)
    mean = ctx.fsum(rr_expected_loss.core(ctx, e) for e in eps)
    S = ctx.fsum(e * e for e in eps)
    return LowerOrder(mean, order7_scale(ctx, S, n, delta_g))


def order7_scale(ctx: Ctx, S: MPF, n: MPF, delta_g: MPF) -> MPF:
    """``sqrt(S log(log(n)/delta_g))``, ``S = sum eps_i^2``: the scale of RRUV16 (7), Thm 6.1."""
    return ctx.sqrt(S * log(ctx, log(ctx, n) / delta_g))


@result("RRUV16:Thm6.1", title="The order no valid odometer can beat (impossibility)",
        kind="odometer",
        statement=r"\text{no valid odometer has }\mathtt{COMP}_{\delta_g}=\sum_i\varepsilon_i"
                  r"\tfrac{e^{\varepsilon_i}-1}{e^{\varepsilon_i}+1}+o\big(\sqrt{\sum_i"
                  r"\varepsilon_i^2\log(\log(n)/\delta_g)}\big)",
        params=[nonneg_seq("eps", "0.01,0.01", "epsilons of the rounds run", default=()),
                Param("n", "int", lo=Fraction(3), example="1000",
                      doc="dataset size n >= 3 (log(n)/delta_g > 1 below 1/e)"),
                unit_open("delta_g", "0.05", "failure probability, below 1/e")],
        precondition=all_of(inv_e_precondition("delta_g"), max_length("eps", MAX_ROUNDS)),
        probabilistic=True,
        notes="Equation (7). The two terms only: the theorem is asymptotic and the constants "
              "of its proof (Lemma 6.2's C_alpha, c_alpha; Lemma 6.3's C = C_1/(2 sqrt(C_2)), "
              "N, C_3) are not stated. delta_g in (0, O(1)) is read as (0, 1/e), the "
              "odometers' range.", balls=True)
def lower_order(ctx: Ctx, eps: list[MPF], n: MPF, delta_g: MPF) -> LowerOrder:
    """The mean and deviation scale of Equation (7), which no valid odometer can reach.

    RRUV16 Theorem 6.1: for ``delta_g in (0, O(1))`` there is no valid privacy odometer
    with ``COMP = mean + o(scale)``, ``mean = sum eps_i (e^eps_i - 1)/(e^eps_i + 1)`` (the
    exact mean ``eps tanh(eps/2)`` of randomized response's loss, ``LEC11:RRLoss``) and
    ``scale = sqrt(sum eps_i^2 log(log(n)/delta_g))``; the stopping adversary of Algorithm
    4 on ``RR_(1/n)`` crosses any such bound with probability above ``delta_g`` (Lemma 6.3).
    Theorem 6.5's odometer is above ``mean + 2 scale`` on branch (11) and ``mean + scale``
    on (12) (proved: the relations ``RRUV16:Thm6.5-(11)>=Thm6.1`` and ``-(12)``).  Domain:
    ``eps_i >= 0`` (possibly none), integer ``n >= 3``, ``delta_g in (0, 1/e)``.
    By hand at ``n = 1000``, ``delta_g = 0.05``, 100 rounds of ``0.1`` (``S = 1``): mean
    ``10 tanh(0.05)`` = 0.4995837, scale ``sqrt(log(20 log 1000))`` = 2.2199948.

    >>> out = lower_order(eps=["0.1"] * 100, n=1000, delta_g="0.05")
    >>> print(mpmath.nstr(out.mean, 7), mpmath.nstr(out.scale, 8))
    0.4995837 2.2199948
    """
    return lower_order_value(ctx, eps, n, delta_g)


def heuristic_value(ctx: Ctx, drift: MPF, S: MPF, delta_g: MPF) -> MPF:
    """The *invalid* "tempting heuristic": Theorem 2.10 on the realised parameters.

    ``sum eps_i (e^eps_i - 1) + sqrt(2 sum eps_i^2 log(1/delta_g))`` (RRUV16 §1.1,
    footnote 2's heterogeneous advanced composition, ``RRUV16:fn2-advanced``) used as an
    odometer.  Theorem 6.1 says no odometer of this order is valid; the stopping-time
    adversary exceeds it with probability about 0.2 at ``delta_g = 0.05`` (simulated
    in stats_tests/odometers).  Not registered: it exists to be rejected by the statistical tests.
    """
    return 2 * drift + ctx.sqrt(2 * S * log(ctx, 1 / delta_g))


# ---- errata of RRUV16 §6 (advanced composition for odometers) ------------------------

@erratum("RRUV16:Thm6.5-proof12", location="RRUV16 §6, proof of Theorem 6.5, (12)",
         printed=r"\log(2\log_2(n)/\delta_g)\ \text{(proof display, with a stray }\sum_{j=1}^k)",
         corrected=r"\log(4\log_2(n)/\delta_g)\ \text{as in the statement (12): Lemma 6.4 at }"
                   r"x=1/n^2,\ \delta_g/(2\log_2 n)", result="RRUV16:Thm6.5",
         kind=Kind.WRONG_CONSTANT,
         consequence="the proof's display gives a smaller threshold (21.793 against 22.487 in the "
                     "check); the statement (12), Lemma 6.4 at delta_g/(2 log2 n), is implemented")
def _check_proof_12() -> Check:
    """(12) equals Lemma 6.4 with x = 1/n^2 at delta_g/(2 log2 n); the proof's form is smaller."""
    n, dg = 10**4, Fraction(1, 1000)
    eps = ["0.1"] * 200  # S = 2 > 1: branch (12)
    with mp.workdps(50):
        stated = advanced_odometer(eps=eps, n=n, delta_g=dg)
        log2n = mp.log(n) / mp.log(2)
        # Lemma 6.4 at delta_g/(2 log2 n): log(2/that) = log(4 log2 n/delta_g), union bound
        # with the (11) case's delta_g/2 gives delta_g in total.
        d = mp.mpf(dg.numerator) / dg.denominator
        piece = fixed_x_odometer(eps=eps, x=Fraction(1, n * n), delta_g=d / 2 / log2n)
        proof = fixed_x_odometer(eps=eps, x=Fraction(1, n * n), delta_g=d / log2n)
        same = abs(stated.value - piece) < mp.mpf(10) ** -40
        ok = stated.branch == 12 and same and proof < stated.value
        detail = (f"200 x 0.1, n = 1e4, delta_g = 1e-3: (12) = {mpmath.nstr(stated.value, 12)} = "
                  f"Lemma 6.4(x = 1/n^2, delta_g/(2 log2 n)); the proof's log(2 log2 n/delta_g) "
                  f"gives {mpmath.nstr(proof, 12)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Thm6.5-granularity", location="RRUV16 §6, remark after Theorem 6.5",
         printed=r"\log_2(n^2)/\delta_g\text{ in (11) is replaced by }\log_2(1/\gamma)/\delta_g",
         corrected=r"(11)\text{ now reads }\log(\log(n)/\delta_g)\text{; the remark fits the "
                   r"conference form }4\log_2n=2\log_2(n^2)\text{; not implemented}", result=None,
         kind=Kind.AMBIGUITY,
         consequence="the remark cannot be applied to (11) as printed (no log2(n^2)/delta_g "
                     "term); it fits the conference version and is not implemented")
def _check_granularity() -> Check:
    """The printed (11) has no log2(n^2)/delta_g term; the old (conference) one had 4 log2 n."""
    n, dg = 10**4, mp.mpf("1e-3")
    with mp.workdps(30):
        old_arg = 4 * mp.log(n, 2) / dg
        remark_arg = 2 * mp.log(n**2, 2) / dg
        new_arg = mp.log(n) / dg
        ok = abs(old_arg - remark_arg) < mp.mpf(10) ** -20 and abs(new_arg - old_arg) > 1
        detail = (f"n = 1e4, delta_g = 1e-3: conference 4 log2(n)/delta_g = "
                  f"{mpmath.nstr(old_arg, 8)} = 2 log2(n^2)/delta_g; printed (11) uses "
                  f"log(n)/delta_g = {mpmath.nstr(new_arg, 8)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Eq7-proof", location="RRUV16 §6, proof of Equation (7)",
         printed=r"\sigma_n=1-\mu_n^2;\ \mathtt{COMP}_{\varepsilon_g}",
         corrected=r"\sigma_n^2=1-\mu_n^2\ \text{(variance of (8))};\ \mathtt{COMP}_{\delta_g}",
         kind=Kind.TYPO, result=None,
         consequence="none: sigma_n^2 and COMP_delta_g are evident from the variance of (8)")
def _check_eq7_sigma() -> Check:
    """Var[xi] of (8) at gamma = e^(1/n)/(1+e^(1/n)) is 1 - mu_n^2, so sigma_n = sqrt(that)."""
    n = 10
    with mp.workdps(40):
        g = mp.exp(mp.mpf(1) / n) / (1 + mp.exp(mp.mpf(1) / n))
        mu = 2 * g - 1
        var = g * (1 - mu) ** 2 + (1 - g) * (1 + mu) ** 2  # E[(xi - mu)^2]
        ok = abs(var - (1 - mu**2)) < mp.mpf(10) ** -35 and abs(mp.sqrt(var) - (1 - mu**2)) > 0
        detail = (f"n = 10: Var[xi] = {mpmath.nstr(var, 12)} = 1 - mu_n^2; sigma_n = "
                  f"{mpmath.nstr(mp.sqrt(var), 12)} differs from 1 - mu_n^2")
    return Check(bool(ok), detail)


@erratum("RRUV16:Lem6.4-proof", location="RRUV16 §6, proof of Lemma 6.4",
         printed=r"\text{for any }\beta>0", corrected=r"\text{for the fixed }x>0\ "
         r"\text{(Theorem 4.4 with }U_k^2=4\sum\varepsilon_i^2,\ \delta=\delta_g/2)",
         kind=Kind.AMBIGUITY, result="RRUV16:Lem6.4",
         consequence="the undefined beta leaves the proof's display unreadable; read with the "
                     "fixed x it is Theorem 4.4 and matches Lemma 6.4 exactly")
def _check_lemma_64() -> Check:
    """The proof's display is Theorem 4.4 with U_k^2 = 4 sum eps_i^2 and x, at delta_g/2."""
    from reference.results.concentration.rruv16 import loss_mean_bound, martingale_threshold

    eps = ["0.01"] * 1000
    with mp.workdps(50):
        lemma = fixed_x_odometer(eps=eps, x="0.1", delta_g="1e-3")
        drift = sum(loss_mean_bound(eps=e) for e in eps)
        via = drift + martingale_threshold(U2=4 * Fraction(1, 10), x="0.1", delta="5e-4")
        ok = abs(lemma - via) < mp.mpf(10) ** -40
        detail = (f"1000 x 0.01, x = 0.1, delta_g = 1e-3: Lemma 6.4 = {mpmath.nstr(lemma, 14)}, "
                  f"mean bound + Theorem 4.4 = {mpmath.nstr(via, 14)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Sec6-no-utility", location="RRUV16 §6, before Theorem 6.5",
         printed=r"\varepsilon_i<\tfrac1{10n}\Rightarrow e^{\varepsilon_i n}-1<0.1",
         corrected=r"e^{\varepsilon_i n}-1<e^{0.1}-1\approx0.10517\ \text{(slightly above 0.1)}",
         kind=Kind.WRONG_CONSTANT, result=None,
         consequence="the bound 0.1 should be e^0.1 - 1 = 0.10517; it sits in a remark before "
                     "Theorem 6.5 and no implemented result uses it")
def _check_no_utility() -> Check:
    """sup over eps_i < 1/(10 n) of e^{eps_i n} - 1 is e^0.1 - 1 > 0.1."""
    with mp.workdps(30):
        sup = mp.expm1(mp.mpf("0.1"))
        ok = sup > mp.mpf("0.1")
        detail = f"e^0.1 - 1 = {mpmath.nstr(sup, 10)} > 0.1 (approached as eps_i n -> 0.1)"
    return Check(bool(ok), detail)
