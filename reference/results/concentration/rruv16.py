"""Concentration bounds for the privacy-loss martingale (RRUV16 §4).

Source: RRUV16 §4: Theorems 4.1–4.5 and Lemma 4.6, with the canonical
assumption (2) ``E exp(lambda A - lambda^2 B^2/2) <= 1`` for all real ``lambda``, the
martingale (3) ``M_k = sum X_i``, its range sum (4) ``U_k^2 = sum (D_i - C_i)^2`` and the
privacy-loss martingale (5) ``M_k = sum (Loss_i - mu_i)``.  The assumptions (2), (3) and
(5) are properties of random variables, not formulas: the property tests check them on
Gaussian, Rademacher and randomized-response examples.  The shared pieces (the mean
bound of Lemma 4.6 and the self-normalised threshold of Theorem 4.4) are used by the
filters and odometers of :mod:`reference.results.filters.rruv16` and
:mod:`reference.results.odometers.rruv16`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import mpmath  # noqa: F401  (the doctests use it)

from reference.core.model import result
from reference.core.numeric import MPF, Ctx, exp, expm1, log, to_ctx
from reference.core.params import Param, inv_e_precondition, nonneg, nonneg_seq, positive, unit_open

_ONE = Fraction(1)
#: The constant 0.74 = 2 x 0.37 of Theorem 4.5 (0.37 >= max_x x log(1/x) = 1/e).
C074 = Fraction(74, 100)


class RangeSum(NamedTuple):
    """``U_k^2 = sum (D_i - C_i)^2`` and the ``B^2 = U_k^2/4`` for which (2) holds."""

    U2: MPF
    B2: MPF


class WindowBound(NamedTuple):
    """Theorem 4.5: the probability bound and the threshold ``sqrt(U_k^2/2 log(1/beta))``."""

    bound: MPF
    threshold: MPF


def half_drift(ctx: Ctx, eps: MPF) -> MPF:
    """``eps (e^eps - 1)/2``: Lemma 4.6's bound on the mean privacy loss of one round."""
    return eps * expm1(ctx, eps) / 2


def self_normalized(ctx: Ctx, U2: MPF, x: MPF, log_inv_delta: MPF) -> MPF:
    """``sqrt((U2/4 + x)(2 + log(U2/(4x) + 1)) log(1/delta))``, written once (Thm 4.4).

    With ``U2 = 4 sum eps_i^2`` this is the square-root term of RRUV16 (6), Lemma 6.4
    and (12): ``sqrt(2 (S + x)(1 + log(S/x + 1)/2) log(1/delta))``.
    """
    b2 = U2 / 4
    return ctx.sqrt((b2 + x) * (2 + log(ctx, b2 / x + 1)) * log_inv_delta)


@result("RRUV16:Thm4.1", title="Self-normalised bound (de la Peña–Klass–Lai)", kind="bound",
        statement=r"\mathbb P\Big[|A|\ge\sqrt{(B^2+\beta)\big(2+\log(\tfrac{B^2}{\beta}+1)"
                  r"\big)\log(1/\delta)}\Big]\le\delta",
        params=[nonneg("B2", "1", "B^2 (B > 0 in the source; 0 allowed as a limit)"),
                positive("beta", "1", "the free parameter beta > 0"),
                unit_open("delta", "0.1", "tail probability, at most 1/e")],
        probabilistic=True, precondition=inv_e_precondition("delta"), balls=True)
def self_normalized_threshold(ctx: Ctx, B2: MPF, beta: MPF, delta: MPF) -> MPF:
    """Threshold that ``|A|`` exceeds with probability at most ``delta`` under (2).

    RRUV16 Theorem 4.1 (de la Peña–Klass–Lai, Cor. 2.2): if
    ``E exp(lambda A - lambda^2 B^2/2) <= 1`` for all ``lambda``, then
    ``P[|A| >= sqrt((B^2+beta)(2+log(B^2/beta+1)) log(1/delta))] <= delta``.
    Domain: ``B^2 >= 0``, ``beta > 0``, ``delta in (0, 1/e)``.  With ``beta = B^2 = 1``
    the threshold is ``sqrt(2 (2 + log 2) log(1/delta))`` (the text's remark; constant
    2.3208): at ``delta = 0.1`` that is 3.5217043 (computed in floating point).

    >>> print(mpmath.nstr(self_normalized_threshold(B2=1, beta=1, delta="0.1"), 8))
    3.5217043
    """
    return self_normalized(ctx, 4 * B2, beta, log(ctx, 1 / delta))


@result("RRUV16:Thm4.2", title="Self-normalised bound on a window (Chen–Wang–Xu–Miao)",
        kind="bound",
        statement=r"\mathbb P[|A|\ge sB,\ c\le B\le tc]\le2\sqrt e\,(1+2s\log t)\,e^{-s^2/2}",
        params=[Param("s", "real", lo=_ONE, example="2", doc="multiple of B, s >= 1"),
                Param("t", "real", lo=_ONE, example="10", doc="window ratio, t >= 1")],
        probabilistic=True,
        notes="Footnote 5: the source [2] prints sqrt(B); RRUV16 states the corrected B. "
              "The bound does not depend on c > 0.", balls=True)
def window_tail(ctx: Ctx, s: MPF, t: MPF) -> MPF:
    """``2 sqrt(e) (1 + 2 s log t) e^{-s^2/2}``: bound on ``P[|A| >= s B, c <= B <= t c]``.

    RRUV16 Theorem 4.2 (Chen et al. Thm 2.4 as corrected in footnote 5), for (A, B)
    satisfying (2), any ``c > 0``.  Domain: ``s >= 1``, ``t >= 1``.  At ``s = t = 1`` it
    is ``2 sqrt(e) e^{-1/2} = 2`` exactly.

    >>> window_tail(s=1, t=1)
    mpf('2.0')
    """
    return 2 * ctx.sqrt(ctx.e) * (1 + 2 * s * log(ctx, t)) * exp(ctx, -s * s / 2)


@result("RRUV16:Thm4.3", title="Bounded increments give the canonical assumption (Hoeffding)",
        kind="bound",
        statement=r"C_i\le X_i\le D_i\Rightarrow\exp[\lambda M_k-\tfrac{\lambda^2}{8}U_k^2]"
                  r"\text{ supermartingale},\ U_k^2=\textstyle\sum_i(D_i-C_i)^2",
        params=[nonneg_seq("width", "2,2", "range widths D_i - C_i of the increments")])
def range_sum(ctx: Ctx, width: list[MPF]) -> RangeSum:
    """``U_k^2 = sum (D_i - C_i)^2`` of (4) and ``B^2 = U_k^2/4`` for which (2) holds.

    RRUV16 Theorem 4.3 (Lemma 2.4 of the missing reference [16]; Hoeffding's lemma
    applied round by round): ``exp(lambda M_k - lambda^2 U_k^2/8)`` is a supermartingale,
    so ``(A, B) = (M_k, U_k/2)`` satisfies (2).  Domain: widths ``>= 0`` (the source
    asks ``C_i < D_i``; width 0 is the degenerate limit).  For the privacy loss,
    ``C_i = -eps_i - mu_i``, ``D_i = eps_i - mu_i``: widths ``2 eps_i`` (Thm 5.1's proof).

    >>> range_sum(width="0.2,0.2")
    RangeSum(U2=mpf('0.08'), B2=mpf('0.02'))
    """
    u2 = ctx.fsum(w * w for w in width)
    return RangeSum(u2, u2 / 4)


@result("RRUV16:Thm4.4", title="Self-normalised martingale bound with a fixed x", kind="bound",
        statement=r"\mathbb P\Big[|M_k|\ge\sqrt{(\tfrac{U_k^2}{4}+x)(2+\log(\tfrac{U_k^2}{4x}"
                  r"+1))\log(1/\delta)}\Big]\le\delta",
        params=[nonneg("U2", "0.4", "U_k^2 of (4)"), positive("x", "0.1", "fixed x > 0"),
                unit_open("delta", "0.0005", "tail probability, at most 1/e")],
        probabilistic=True, precondition=inv_e_precondition("delta"), balls=True)
def martingale_threshold(ctx: Ctx, U2: MPF, x: MPF, delta: MPF) -> MPF:
    """Threshold that ``|M_k|`` exceeds with probability at most ``delta``.

    RRUV16 Theorem 4.4 (Theorem 4.1 with Theorem 4.3): for every fixed ``k``, ``x > 0``
    and ``delta <= 1/e``.  Domain: ``U2 >= 0``, ``x > 0``, ``delta in (0, 1/e)``.
    It is Lemma 6.4's square-root term at ``U2 = 4 sum eps_i^2``, ``delta = delta_g/2``:
    Computed independently, Lemma 6.4 = 2.0736316215620523 for 1000 rounds of 0.01,
    ``x = 0.1``, ``delta_g = 1e-3``, whose mean term is 1000 * 0.01 (e^0.01 - 1)/2 =
    0.0502508354...; the difference is 2.0233808:

    >>> print(mpmath.nstr(martingale_threshold(U2="0.4", x="0.1", delta="5e-4"), 8))
    2.0233808
    """
    return self_normalized(ctx, U2, x, log(ctx, 1 / delta))


@result("RRUV16:Thm4.5", title="Martingale bound on a window of U_k", kind="bound",
        statement=r"\mathbb P\Big[|M_k|\ge\sqrt{\tfrac{U_k^2}{2}\log\tfrac1\beta},\ c\le"
                  r"\tfrac{U_k}{2}\le tc\Big]\le2\sqrt e\big(\beta+2\log(t)\sqrt{0.74\beta}"
                  r"\big)",
        params=[unit_open("beta", "0.1", "beta in (0, 1)"),
                Param("t", "real", lo=_ONE, example="10", doc="window ratio, t >= 1"),
                nonneg("U2", "1", "U_k^2 (only for the threshold)", default="1")],
        probabilistic=True,
        notes="The proof uses max x log(1/x) = 1/e <= 0.37. It is Theorem 4.2 at "
              "s = sqrt(2 log(1/beta)), which needs beta <= e^-1/2; above that the bound "
              "exceeds 2 and holds trivially.", balls=True)
def window_bound(ctx: Ctx, beta: MPF, t: MPF, U2: MPF) -> WindowBound:
    """``2 sqrt(e) (beta + 2 log(t) sqrt(0.74 beta))`` and the threshold it bounds.

    RRUV16 Theorem 4.5: for fixed ``k``, ``0 < beta < 1``, ``c > 0``, ``t >= 1``,
    ``P[|M_k| >= sqrt(U_k^2/2 log(1/beta)) and c <= U_k/2 <= t c]`` is at most the bound.
    Domain: ``beta in (0, 1)``, ``t >= 1``, ``U2 >= 0``.  At ``t = 1`` the bound is
    ``2 sqrt(e) beta`` (0.32974425 at ``beta = 0.1``).

    >>> print(mpmath.nstr(window_bound(beta="0.1", t=1).bound, 8))
    0.32974425
    """
    c074 = to_ctx(ctx, C074)
    bound = 2 * ctx.sqrt(ctx.e) * (beta + 2 * log(ctx, t) * ctx.sqrt(c074 * beta))
    return WindowBound(bound, ctx.sqrt(U2 / 2 * log(ctx, 1 / beta)))


@result("RRUV16:Lem4.6", title="Mean privacy loss of an eps-DP round (Dwork–Rothblum)",
        kind="bound",
        statement=r"\mu_i=\mathbb E[\mathtt{Loss}_i\mid V_{<i}]\le\varepsilon_i"
                  r"(e^{\varepsilon_i}-1)/2",
        params=[nonneg("eps", "0.01", "the round's epsilon")])
def loss_mean_bound(ctx: Ctx, eps: MPF) -> MPF:
    """Bound ``eps (e^eps - 1)/2`` on the conditional mean ``mu_i`` of the privacy loss.

    RRUV16 Lemma 4.6 (Dwork–Rothblum 2016, a factor 2 better than Dwork–Rothblum–Vadhan):
    ``mu_i``, a KL divergence of two ``eps_i``-indistinguishable laws, is at most
    ``eps_i (e^eps_i - 1)/2``.  Domain: ``eps >= 0``.  At ``eps = 0.01``:
    ``0.01 * 0.0100501670841680575.../2``.

    >>> print(mpmath.nstr(loss_mean_bound(eps="0.01"), 12))
    5.02508354208e-5
    """
    return half_drift(ctx, eps)
