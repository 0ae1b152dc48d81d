"""Skellam noise reduction: a difference of Poisson processes (WRWR22 §4, last paragraph).

``X_t = P_1(t) - P_2(t)`` with independent homogeneous Poisson processes of rates
``lam1, lam2`` is Markov with independent increments and ``X_t ~ Skell(t lam1, t lam2)``;
releasing ``f(x) + X_{T_n}`` at non-increasing times is a noise reduction mechanism.  The
privacy analysis is in a missing appendix ("Appendix ??"); only the noise-reduction
property (the path's log-likelihood ratio is its last release's) is implemented, derived in
the proof note of :func:`skellam_path_loss`: the joint pmf telescopes as for the Brownian
mechanism.

Decisions and errata: the text calls the Poisson variables "independent Laplace random
variables" (erratum ``WRWR22:Sec4-Skellam-wording``); ``f`` must be **integer-valued**,
otherwise neighbouring outputs live on disjoint lattices and the loss is infinite
(erratum ``WRWR22:Sec4-Skellam-integer``); ``lam1 != lam2`` is allowed (the noise then
has mean ``t (lam1 - lam2)``; Agarwal et al. use ``lam1 = lam2``).  Time ``t`` scales the
variance ``t (lam1 + lam2)``: noise reduction moves to smaller ``t``.

Sampler :func:`reference.sim.skellam_paths.skellam_paths`: backwards,
``P_i(s) | P_i(t) ~ Binomial(P_i(t), s/t)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp

from reference.core.errata import Check, Kind, erratum
from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    endpoints,
    exp,
    extra_bits,
    is_interval,
    log,
    to_ctx,
)
from reference.core.params import (
    Param,
    all_of,
    equal_lengths,
    max_length,
    positive,
)
from reference.results.noise_reduction.brownian import MAX_DIM, TIMES_DECREASE

#: Largest Poisson mean ``t * lam`` accepted (the series has about ``2 sqrt(mu1 mu2)`` terms).
MAX_MEAN = 1000
MAX_K = 10_000


def _hi(x: MPF) -> MPF:
    return endpoints(x).hi


def _terms_needed(k: int, prod: float, bits: int) -> int:
    """How many terms after the first :func:`_series` takes, estimated in floats (logarithms:
    the terms reach ``e^2000``): until the ratio is at most ``1/2`` and the term at most
    ``2^-bits`` of the sum.  An estimate only: the series checks its stopping rule itself."""
    need, log_term, log_total, j = bits * math.log(2), 0.0, 0.0, 0
    while True:
        den = (j + k + 1) * (j + 1)     # (k is unbounded in the loss: releases of 10^400)
        ratio = prod / den if den.bit_length() <= 1000 else 0.0
        j += 1
        if ratio == 0:          # below the doubles' range: the next term is negligible
            return j
        log_term += math.log(ratio)
        log_total = max(log_total, log_term) + math.log1p(math.exp(-abs(log_total - log_term)))
        if ratio <= 0.5 and log_term <= log_total - need:
            return j


def _series(ctx: Ctx, k: int, m1: MPF, m2: MPF) -> MPF:
    """``sum_j m1^(j+k) m2^j / ((j+k)! j!)`` for ``k >= 0``; enclosing (``iv``, balls) with a
    rigorous tail.

    Successive terms have ratio ``r_j = m1 m2 / ((j+k+1)(j+1))``, decreasing in ``j``; once
    ``r_j <= 1/2`` the tail after term ``j`` is at most term ``j`` itself.  The terms are
    summed without a check up to the float estimate :func:`_terms_needed` (a check reads a
    ball's ends: ten times a term's cost), then one at a time until the rule holds.
    """
    prod = m1 * m2
    term = m1**k / ctx.factorial(k)
    total = term
    eps = mp.mpf(2) ** (-(ctx.prec + 20))
    j, n = 0, _terms_needed(k, float(_hi(prod)), ctx.prec + 20)
    while True:
        for _ in range(n):
            term = term * prod / ((j + k + 1) * (j + 1))
            total += term
            j += 1
        if 2 * _hi(prod) <= (j + k) * j and _hi(term) <= eps * endpoints(total).lo:
            break
        n = 1
    if is_interval(ctx):
        total += ctx.mpf((0, _hi(term)))
    return total


def skellam_pmf_core(ctx: Ctx, k: int, m1: MPF, m2: MPF) -> MPF:
    """``P[Y_1 - Y_2 = k]`` for independent ``Y_i ~ Poisson(m_i)``, ``m_i > 0``."""
    if k < 0:
        k, m1, m2 = -k, m2, m1
    return exp(ctx, -m1 - m2) * _series(ctx, k, m1, m2)


def _means(values: Mapping[str, Any], where: str, t: Fraction) -> None:
    for name in ("lam1", "lam2"):
        if t * values[name] > MAX_MEAN:
            raise DomainError(name, str(values[name]), f"times t must keep t * {name} <= "
                              f"{MAX_MEAN} (series length)", where)


_LAMS = [positive("lam1", "1.5", "rate of P_1"), positive("lam2", "0.8", "rate of P_2")]


@result("WRWR22:Sec4-Skellam", title="Skellam law of the Poisson-difference process",
        kind="definition",
        statement=r"X_t=P_1(t)-P_2(t)\sim\mathrm{Skell}(t\lambda_1,t\lambda_2),\quad"
                  r"\mathbb P[X_t=k]=e^{-t(\lambda_1+\lambda_2)}\sum_j\frac{(t\lambda_1)^{j+k}"
                  r"(t\lambda_2)^j}{(j+k)!\,j!}",
        params=[Param("k", "int", lo=Fraction(-MAX_K), hi=Fraction(MAX_K), example="1",
                      doc="integer value"),
                positive("t", "2", "time"), *_LAMS],
        precondition=lambda v, w: _means(v, w, v["t"]), probabilistic=True, balls=True,
        notes="The text says the Poisson variables are 'independent Laplace random variables' "
              "(erratum WRWR22:Sec4-Skellam-wording).")
def skellam_pmf(ctx: Ctx, k: int, t: MPF, lam1: MPF, lam2: MPF) -> MPF:
    """``P[X_t = k]`` for ``X_t = P_1(t) - P_2(t) ~ Skell(t lam1, t lam2)``.

    WRWR22 §4 (Skellam noise reduction).  Domain: integer ``|k| <= 10^4``, ``t, lam > 0``,
    ``t lam <= 1000``.  Equals ``scipy.stats.skellam.pmf(1, 3, 1.6)`` = 0.190145...:

    >>> print(mpmath.nstr(skellam_pmf(k=1, t=2, lam1="1.5", lam2="0.8"), 10))
    0.1901452749
    """
    return skellam_pmf_core(ctx, k, t * lam1, t * lam2)


def _int_path(values: Mapping[str, Any], where: str) -> None:
    _means(values, where, values["times"][-1])


@result("WRWR22:Sec4-Skellam-NR", title="Skellam noise reduction: loss of the released path",
        kind="mechanism",
        statement=r"\mathcal L_{1:n}=\log\frac{\mathbb P[X_{T_n}=y_n-f(x)]}"
                  r"{\mathbb P[X_{T_n}=y_n-f(x')]},\quad f\text{ integer-valued}",
        params=[Param("times", "seq", lo=Fraction(0), lo_open=True, example="4,2,1",
                      doc="release times T_1 >= ... >= T_n"),
                Param("y", "intseq", example="3,1,2", doc="released values f(x) + X_{T_k}"),
                Param("fx", "int", example="1", doc="f(x) (an integer)"),
                Param("fxp", "int", example="0", doc="f(x') (an integer)"), *_LAMS],
        precondition=all_of(equal_lengths("times", "y"), TIMES_DECREASE,
                            max_length("times", MAX_DIM), _int_path),
        status="reconstructed", exact_inputs=True, balls=True,
        notes="No privacy analysis survives (the appendix is missing); the noise-reduction "
              "identity is derived here (see the proof note). Integer f is required (erratum "
              "WRWR22:Sec4-Skellam-integer).")
def skellam_path_loss(ctx: Ctx, times: list[Fraction], y: tuple[int, ...], fx: int, fxp: int,
                      lam1: Fraction, lam2: Fraction) -> MPF:
    """The privacy loss of the released path: the Skellam log-pmf ratio at the last release.

    WRWR22 §4 (Skellam noise reduction; reconstructed).

    The joint pmf of ``y_1..y_n`` is ``P[X_{T_n} = y_n - f] prod_k P[increment = y_k -
    y_{k+1}]`` and only the first factor depends on ``f``.  Domain: non-increasing positive
    times, integer releases and statistics, ``lam > 0``.

    Each log-pmf is about ``|k| log |k|`` at ``k = y_n - f``, and ``m^|k|`` multiplies the
    relative error of the mean ``m = T_n lam`` by ``|k|``; the loss is their difference,
    of order ``|f(x) - f(x')| log |k|``.  So the means are formed exactly and both log-pmfs
    get twice the bits of ``|k|`` as guard bits: the loss keeps the working precision
    (at ``|k| = 10^30`` it was known to 1e-29 only).

    Proof note.  ``X_t = P_1(t) - P_2(t)`` has independent increments. Read at ``T_1 >= ...
    >= T_n``, ``X_{T_k} = X_{T_n} + (X_{T_k} - X_{T_n})`` with increments over disjoint
    intervals independent of ``X_{T_n}``, so ``P[y_{1:n}] = P[X_{T_n} = y_n - f] *
    prod_{k<n} P[X_{T_k} - X_{T_{k+1}} = y_k - y_{k+1}]``: only the first factor depends on
    ``f`` and the path's log-likelihood ratio is the Skellam log-pmf ratio at the last
    release. ``f`` must be integer-valued, else the pmf is 0 (erratum
    WRWR22:Sec4-Skellam-integer). No privacy bound survives (the appendix is missing).

    >>> print(mpmath.nstr(skellam_path_loss(times="4,2,1", y="3,1,2", fx=1, fxp=0,
    ...                                     lam1=1, lam2=1), 10))
    0.8367233062
    """
    k1, k2 = y[-1] - fx, y[-1] - fxp
    with extra_bits(ctx, 2 * max(abs(k1), abs(k2)).bit_length() + 16):
        m1, m2 = to_ctx(ctx, times[-1] * lam1), to_ctx(ctx, times[-1] * lam2)
        return (log(ctx, skellam_pmf_core(ctx, k1, m1, m2))
                - log(ctx, skellam_pmf_core(ctx, k2, m1, m2)))


@erratum("WRWR22:Sec4-Skellam-wording", location="WRWR22 §4, Skellam noise reduction",
         result="WRWR22:Sec4-Skellam",
         printed="Y_1 ~ Poisson(lam1) and Y_2 ~ Poisson(lam2) are independent Laplace random "
                 "variables", corrected="independent Poisson random variables",
         kind=Kind.TYPO,
         consequence="none: Y_1, Y_2 are Poisson (Skell(1, 2) has an atom 0.211712 at 0, which no "
                     "difference of Laplace variables has)")
def _wording_check() -> Check:
    with mp.workdps(30):
        conv = mp.fsum(mp.exp(-3) * mp.mpf(2) ** j / mp.factorial(j) / mp.factorial(j)
                       for j in range(80))              # P[Y1 = Y2], Y1, Y2 ~ Poisson(1), (2)
        pmf0 = skellam_pmf(k=0, t=1, lam1=1, lam2=2)
        ok = abs(conv - pmf0) < mp.mpf(10) ** -25 and pmf0 > 0
    return Check(bool(ok), f"Skell(1, 2) has an atom P[X = 0] = {mpmath.nstr(pmf0, 6)} (Poisson "
                 "convolution); a difference of Laplace variables is continuous, no atom")


@erratum("WRWR22:Sec4-Skellam-integer", location="WRWR22 §4, Skellam noise reduction",
         result="WRWR22:Sec4-Skellam-NR",
         printed="release (f(x) + X_{T_n(x)}) for some time functions (no condition on f)",
         corrected="f must be integer-valued (counts); otherwise the loss is infinite",
         kind=Kind.AMBIGUITY,
         consequence="for non-integer f the privacy loss is infinite (f(x) = 1/2, f(x') = 0: the "
                     "release 5/2 is impossible under x')")
def _integer_check() -> Check:
    y, fx, fxp = Fraction(5, 2), Fraction(1, 2), Fraction(0)
    # Under x the release is y = f(x) + X, on the lattice 1/2 + Z; under x' it lies in Z.
    p_x = (y - fx).denominator == 1
    p_xp = (y - fxp).denominator == 1
    return Check(p_x and not p_xp, "f(x) = 1/2, f(x') = 0: the release 5/2 has positive "
                 "probability under x and probability 0 under x' (infinite privacy loss)")
