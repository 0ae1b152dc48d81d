"""Privacy of target charging: CL23 Lemma 2.2, Theorem B.4, Remark B.5.

CL23 is Cohen and Lyu (2023), *The target-charging technique for privacy analysis across
interactive computations*, arXiv:2302.11044.  TCT (its Algorithm 1 and, for approximate-DP
calls, Algorithm 6 of Appendix B; both boxes were lost and are rebuilt here from the
paper's prose) runs adaptively chosen
``(eps, delta_i)``-DP calls, each with a q-target, and halts at the ``tau``-th target hit
(or when the accumulated delta would exceed ``Delta``).  Theorem B.4's simulator calls the
data holder only on the ``B``-part of each decomposition, and each such call hits with
probability at least ``q``; so the number of holder calls exceeds ``m`` with probability at
most ``beta_m = P[Bin(m, q) <= tau - 1]``, and otherwise at most ``m`` eps-DP calls are
composed.  Hence, for every integer ``m >= tau``: ``(eps m, Delta + beta_m)``-DP and
``(eps sqrt(2m ln(1/delta*)) + m eps (e^eps - 1), delta* + Delta + beta_m)``-DP.

The paper bounds ``beta_m`` at ``m = floor((1 + alpha) tau / q)`` by the simplified
Chernoff bound ``e^{-alpha^2 tau/(2(1+alpha))}``; the raw Chernoff bound
``e^{-tau(alpha - ln(1+alpha))}`` and the exact binomial tail are smaller (the paper's
footnote to the proof of Theorem B.4: "Bound can be tightened when using precise tail
probability values").  The available text of CL23 lost every formula: these forms were
reconstructed by this project from its prose and proof outlines.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, endpoints, exp, expm1, extra_bits, log, log1p, to_ctx
from reference.core.params import Param, count, nonneg, positive, unit_closed_open, unit_open
from reference.results.tct.base import exact_result, label_note

#: Largest hit budget accepted (the exact tail sums tau terms).
MAX_HITS = 10**5
_Q = Param("q", "real", lo=Fraction(0), lo_open=True, hi=Fraction(1), example="0.475",
           doc="q of every target (the smallest, for mixed targets)")
_TAU = count("tau", "20", "target-hit budget: TCT halts at the tau-th hit", hi=MAX_HITS)
_ALPHA = positive("alpha", "1", "slack of the Chernoff step: m = floor((1+alpha) tau/q)")
_EPS = nonneg("eps", "0.1", "privacy parameter of every call (the largest, if mixed)")
_DELTA_STAR = unit_open("delta_star", "1e-6", "slack of advanced composition")
_BUDGET = unit_closed_open("Delta", "0", "budget of the summed deltas of the calls (Alg. 6)",
                           default="0")


class TCTBound(NamedTuple):
    """``(eps, delta)``-DP of target charging, and the number ``m`` of composed calls."""

    eps: MPF
    delta: MPF
    m: MPF


class TailBounds(NamedTuple):
    """``P[Bin(m, q) <= tau - 1]`` at ``m = floor((1+alpha) tau/q)``: exact and two bounds."""

    m: MPF
    exact: MPF
    raw: MPF
    simplified: MPF


class TauBounds(NamedTuple):
    """Smallest real ``tau`` making the tail at most ``delta`` (simplified / raw Chernoff)."""

    simplified: MPF
    raw: MPF


def calls(q: Fraction, tau: int, alpha: Fraction) -> int:
    """``m_alpha = floor((1 + alpha) tau / q)`` (exact; at least ``tau + 1`` when ``q <= 1``)."""
    return math.floor((1 + alpha) * tau / q)


def _guard(ctx: Ctx, terms: int) -> contextlib.AbstractContextManager[None]:
    """Guard bits for a sum of ``terms`` terms."""
    return extra_bits(ctx, 20 + 2 * max(terms, 1).bit_length())


def binomial_lower_tail(ctx: Ctx, m: int, q: MPF, tau: int) -> MPF:
    """``P[Bin(m, q) <= tau - 1]`` summed term by term (rigorous in ``iv``)."""
    if endpoints(q).lo >= 1:
        return ctx.zero
    with _guard(ctx, tau):
        term = exp(ctx, m * log1p(ctx, -q))       # j = 0
        odds = q / (1 - q)
        total = ctx.zero
        for j in range(min(tau, m + 1)):
            total += term
            term = term * (m - j) / (j + 1) * odds
        return +total


def simplified_tail(ctx: Ctx, tau: int, alpha: MPF) -> MPF:
    """``exp(-alpha^2 tau / (2 (1 + alpha)))``."""
    return exp(ctx, -alpha * alpha * tau / (2 * (1 + alpha)))


def chernoff_rate(ctx: Ctx, alpha: MPF) -> MPF:
    """``alpha - ln(1 + alpha)``, with guard bits against its cancellation (~ alpha^2/2)."""
    ends = endpoints(alpha)
    extra = 20 + (max(0, -2 * int(mpmath.mag(ends.hi))) if ends.hi > 0 else 0)
    with _guard(ctx, 1), extra_bits(ctx, extra):
        if ctx is mpmath.mp or ends.lo == ends.hi:      # a point context, or a point
            return +(alpha - log1p(ctx, alpha))
        # Increasing: at alpha's ends (the interval's or ball's: [a,b] - log1p([a,b]) < 0 at 1e-300)
        lo, hi = (ctx.mpf(x) - log1p(ctx, ctx.mpf(x)) for x in (ends.lo, ends.hi))
        return ctx.mpf((endpoints(lo).lo, endpoints(hi).hi))


def raw_tail(ctx: Ctx, tau: int, alpha: MPF) -> MPF:
    """``exp(-tau (alpha - ln(1 + alpha)))``."""
    return exp(ctx, -tau * chernoff_rate(ctx, alpha))


def advanced_eps(ctx: Ctx, eps: MPF, m: int, delta_star: MPF) -> MPF:
    """``eps sqrt(2 m ln(1/delta*)) + m eps (e^eps - 1)`` (Dwork, Rothblum, Vadhan 2010;
    CL23 Lemma A.4, whose statement was lost)."""
    return eps * ctx.sqrt(2 * m * log(ctx, 1 / delta_star)) + m * eps * expm1(ctx, eps)


_LABEL = label_note("reconstructed and numerically verified",
                    "m = floor((1+alpha) tau/q) (verified safe); the paper's display may "
                    "write eps (1+alpha) tau/q, the rounding and the advanced term "
                    "(k eps (e^eps-1) or 2 k eps^2) are uncertain (open question 5).")


@exact_result("CL23:ThmB.4-tail", title="TCT failure probability: exact, raw and simplified",
              kind="bound",
              statement=r"P[\mathrm{Bin}(m,q)\le\tau-1]\le e^{-\tau(\alpha-\ln(1+\alpha))}\le "
                        r"e^{-\alpha^2\tau/(2(1+\alpha))},\ m=\lfloor(1+\alpha)\tau/q\rfloor",
              params=[_Q, _TAU, _ALPHA], status="reconstructed", probabilistic=True,
              notes=_LABEL, balls=True)
def tct_tail(ctx: Ctx, q: Fraction, tau: int, alpha: Fraction) -> TailBounds:
    """The tail ``P[NB(tau, q) > m] = P[Bin(m, q) <= tau - 1]`` and its Chernoff bounds.

    CL23 Theorem B.4, inequality (1) and its Chernoff chain (label *reconstructed and
    numerically verified*): at ``m = floor((1+alpha) tau/q)`` the exact
    binomial tail is at most ``e^{-tau(alpha - ln(1+alpha))}`` (raw) and at most
    ``e^{-alpha^2 tau/(2(1+alpha))}`` (simplified, the paper's).  Domain: ``q in (0, 1]``,
    integer ``1 <= tau <= 10**5``, ``alpha > 0``.

    Proof note.  CL23's proof of Theorem B.4 survives in prose: the number ``N`` of
    data-holder calls before the ``tau``-th hit is dominated by ``NB(tau, q)`` (every holder
    call hits with probability at least ``q``), and its inequality (1), whose display was
    lost, bounds ``P[N > m]`` "using multiplicative Chernoff bounds", in "the simpler form".
    Implemented: the exact tail and both bounds.  (i) ``NB(tau, q) > m`` iff the first ``m``
    Bernoulli(q) trials have at most ``tau - 1`` successes: ``P[Bin(m, q) <= tau - 1]``.
    (ii) For ``lam > 0``, Markov on ``e^{-lam X}``: the tail is at most
    ``e^{lam (tau-1)} (1 - q(1 - e^{-lam}))^m <= e^{lam (tau-1) - m q (1 - e^{-lam})}``; take
    ``e^lam = 1 + alpha``.  The floor gives ``m q > (1+alpha) tau - q``, so the tail is below
    ``e^{-tau(alpha - ln(1+alpha))} e^{q alpha/(1+alpha)}/(1+alpha)``, and the last factor is
    at most 1 because ``q <= 1`` and ``alpha/(1+alpha) <= ln(1+alpha)``: the raw bound.
    (iii) ``phi(a) = a - ln(1+a) - a^2/(2(1+a))`` has ``phi(0) = 0`` and
    ``phi'(a) = a^2/(2(1+a)^2) >= 0``, so raw <= simplified.

    Computed independently with mpmath at 40 digits at ``q = 1/(e^0.1+1)``: 3.845e-3, 0.151,
    0.1889; ``scipy.stats.binom.cdf(19, 63, 0.475)`` gives 0.0038492:

    >>> b = tct_tail(q="0.475", tau=20, alpha="0.5")
    >>> print(b.m, mpmath.nstr(b.exact, 5), mpmath.nstr(b.raw, 3), mpmath.nstr(b.simplified, 4))
    63.0 0.0038492 0.151 0.1889
    """
    m = calls(q, tau, alpha)
    a = to_ctx(ctx, alpha)
    return TailBounds(ctx.mpf(m), binomial_lower_tail(ctx, m, to_ctx(ctx, q), tau),
                      raw_tail(ctx, tau, a), simplified_tail(ctx, tau, a))


@exact_result("CL23:ThmB.4", title="Privacy of target charging (basic composition)",
              kind="composition",
              statement=r"\big(\varepsilon m,\ \Delta+e^{-\alpha^2\tau/(2(1+\alpha))}\big),\ "
                        r"m=\lfloor(1+\alpha)\tau/q\rfloor",
              params=[_EPS, _Q, _TAU, _ALPHA, _BUDGET], status="reconstructed",
              probabilistic=True, notes=_LABEL)
def tct_basic(ctx: Ctx, eps: Fraction, q: Fraction, tau: int, alpha: Fraction,
              Delta: Fraction) -> TCTBound:
    """Algorithm 6 is ``(eps m, Delta + e^{-alpha^2 tau/(2(1+alpha))})``-DP.

    CL23 Theorem B.4, first line (label *reconstructed and numerically verified*), with
    ``m = floor((1+alpha) tau/q)``.  Domain: ``eps >= 0``,
    ``q in (0, 1]``, integer ``1 <= tau <= 10**5``, ``alpha > 0``, ``Delta in [0, 1)``.

    Proof note.  What survives of CL23 Theorem B.4 is that Algorithm 6 satisfies a
    basic-composition and an advanced-composition bound "for any" ``alpha``, "where ...
    [``Delta``] is as computed by the algorithm"; the display is lost.  Implemented:
    ``(eps m, Delta + e^{-alpha^2 tau/(2(1+alpha))})``.  The steps, from the paper's proof
    outline: (1) by Definition B.2 each call's law on ``D^b`` is
    ``(1-delta_i)(p C + (1-p) B^b) + delta_i E^b``; the simulator (Algorithm 7) designates
    the ``delta_i`` branch a failure (total at most ``sum delta_i <= Delta``), samples ``C``
    itself, and calls the data holder only for ``B^b``, which is eps-DP in ``b`` and hits
    ``T`` with probability at least ``q``.  (2) It also fails when the holder is called more
    than ``m`` times, with probability at most ``e^{-alpha^2 tau/(2(1+alpha))}``
    (CL23:ThmB.4-tail).  (3) Without failure at most ``m`` eps-DP holder calls are composed,
    ``eps m`` by basic composition; failure events (Lemma A.6) add the failure probability
    to delta, and the simulation lemma (A.5) carries the bound to Algorithm 6.  The paper's
    display may write ``eps (1+alpha) tau/q``, which is at least ``eps m``.

    >>> b = tct_basic(eps="0.1", q="0.475", tau=20, alpha=1)   # m = floor(40/0.475) = 84
    >>> print(mpmath.nstr(b.eps, 6), mpmath.nstr(b.delta, 3), b.m)
    8.4 0.00674 84.0
    """
    m = calls(q, tau, alpha)
    e = to_ctx(ctx, eps)
    return TCTBound(e * m, to_ctx(ctx, Delta) + simplified_tail(ctx, tau, to_ctx(ctx, alpha)),
                    ctx.mpf(m))


@exact_result("CL23:ThmB.4-advanced", title="Privacy of target charging (advanced composition)",
              kind="composition",
              statement=r"\big(\varepsilon\sqrt{2m\ln(1/\delta^*)}+m\varepsilon(e^\varepsilon-1),"
                        r"\ \delta^*+\Delta+e^{-\alpha^2\tau/(2(1+\alpha))}\big)",
              params=[_EPS, _Q, _TAU, _ALPHA, _DELTA_STAR, _BUDGET], status="reconstructed",
              probabilistic=True, notes=_LABEL)
def tct_advanced(ctx: Ctx, eps: Fraction, q: Fraction, tau: int, alpha: Fraction,
                 delta_star: Fraction, Delta: Fraction) -> TCTBound:
    """Algorithm 6 with advanced composition of the ``m`` holder calls.

    CL23 Theorem B.4, second line (label *reconstructed and numerically verified*):
    ``eps' = eps sqrt(2m ln(1/delta*)) + m eps (e^eps - 1)``,
    ``delta' = delta* + Delta + e^{-alpha^2 tau/(2(1+alpha))}``.  Domain as CL23:ThmB.4 and
    ``delta* in (0, 1)``.

    Proof note.  The paper's proof says the second bound of Theorem B.4 follows "using
    advanced composition [DRV10]"; the display is lost.  Implemented: steps (1)-(2) of
    CL23:ThmB.4 unchanged (failure probability at most
    ``Delta + e^{-alpha^2 tau/(2(1+alpha))}``, at most ``m = floor((1+alpha) tau/q)``
    eps-DP holder calls otherwise), then the advanced composition theorem of Dwork,
    Rothblum and Vadhan (2010) for ``m`` eps-DP calls, ``(eps sqrt(2m ln(1/delta*)) +
    m eps (e^eps - 1), delta*)``, whose ``delta*`` adds to the failure probability (Lemma
    A.6).  The paper may print the second term as ``2 m eps^2`` (valid for ``eps <= 1``,
    where ``e^eps - 1 <= 2 eps``); ``m eps (e^eps - 1)`` is valid for every eps.

    >>> b = tct_advanced(eps="0.1", q="0.475", tau=20, alpha=1, delta_star="1e-6")
    >>> print(mpmath.nstr(b.eps, 4), b.m)  # mpmath at 50 digits: 5.7011
    5.701 84.0
    """
    m = calls(q, tau, alpha)
    e, ds = to_ctx(ctx, eps), to_ctx(ctx, delta_star)
    delta = ds + to_ctx(ctx, Delta) + simplified_tail(ctx, tau, to_ctx(ctx, alpha))
    return TCTBound(advanced_eps(ctx, e, m, ds), delta, ctx.mpf(m))


def _m_check(values: Mapping[str, Any], where: str) -> None:
    if values["m"] < values["tau"]:
        raise DomainError("m", values["m"], f"must be at least tau ({values['tau']})", where)


@exact_result("CL23:ThmB.4-exact", title="Privacy of target charging with the exact tail",
              kind="composition",
              statement=r"\big(\varepsilon m,\ \Delta+P[\mathrm{Bin}(m,q)\le\tau-1]\big)\ "
                        r"\text{for every integer }m\ge\tau",
              params=[_EPS, _Q, _TAU, count("m", "84", "number of holder calls composed",
                                            hi=10**7), _BUDGET],
              precondition=_m_check, status="reconstructed", probabilistic=True,
              notes=label_note("reconstructed and numerically verified", "The stronger "
                               "form the proof of Theorem B.4 gives directly: a strict "
                               "improvement over both Chernoff bounds."))
def tct_exact(ctx: Ctx, eps: Fraction, q: Fraction, tau: int, m: int,
              Delta: Fraction) -> TCTBound:
    """Algorithm 6 is ``(eps m, Delta + P[Bin(m, q) <= tau - 1])``-DP for every ``m >= tau``.

    CL23 Theorem B.4 in the form its proof gives (label *reconstructed and numerically
    verified*): the binomial tail itself instead of a Chernoff bound on it.
    Domain: ``eps >= 0``, ``q in (0, 1]``, integers ``1 <= tau <= m``, ``Delta in [0, 1)``.

    Proof note.  CL23's proof of Theorem B.4 declares a failure when the data holder is
    called more than a limit of times, and a footnote to it says the bound "can be
    tightened when using precise tail probability values".  Implemented: the proof with
    any integer limit ``m >= tau`` and the tail kept exact.  Steps (1) and (3) of
    CL23:ThmB.4 are unchanged (failure from the ``delta_i`` branches at most ``Delta``; at
    most ``m`` eps-DP holder calls composed without failure, ``eps m``); the second failure
    has probability at most ``P[NB(tau, q) > m] = P[Bin(m, q) <= tau - 1]`` (CL23:ThmB.4-tail,
    step (i)), so Lemma A.6 gives delta ``Delta + P[Bin(m, q) <= tau - 1]``.  At
    ``m = floor((1+alpha) tau/q)`` this is below both Chernoff forms.

    >>> b = tct_exact(eps="0.1", q="0.475", tau=20, m=84)
    >>> print(mpmath.nstr(b.delta, 4))  # scipy.stats.binom.cdf(19, 84, 0.475) = 2.2238e-6
    2.224e-6
    """
    return TCTBound(to_ctx(ctx, eps) * m,
                    to_ctx(ctx, Delta) + binomial_lower_tail(ctx, m, to_ctx(ctx, q), tau),
                    ctx.mpf(m))


@exact_result("CL23:Lem2.2", title="Simplified meta privacy cost of target charging",
              kind="composition",
              statement=r"\varepsilon'=(1+\alpha)\frac{\tau}{q}\varepsilon,\ \ \delta=e^{-"
                        r"\alpha^2\tau/(2(1+\alpha))}",
              params=[_EPS, _Q, _TAU, _ALPHA], status="reconstructed", probabilistic=True,
              notes=label_note("reconstructed and numerically verified",
                               "Theorem B.4 with Delta = 0 and the unrounded (1+alpha) tau/q; "
                               "the paper's exact display (= or ~, e^-Omega(tau)) is uncertain."))
def tct_simple(ctx: Ctx, eps: Fraction, q: Fraction, tau: int, alpha: Fraction) -> TCTBound:
    """TCT with eps-DP calls and q-targets, halted at ``tau`` hits, is
    ``((1+alpha) tau eps / q, e^{-alpha^2 tau/(2(1+alpha))})``-DP.

    CL23 Lemma 2.2 (label *reconstructed and numerically verified*); the
    unrounded ``(1+alpha) tau/q`` is at least Theorem B.4's ``m``.  Domain: ``eps >= 0``,
    ``q in (0, 1]``, integer ``1 <= tau <= 10**5``, ``alpha > 0``.

    Proof note.  The surviving text reads "The privacy parameters of Algorithm 1 (applied
    with [eps]-DP algorithms and [q]-targets until targets are hit [tau] times) is [lost]
    where [lost] and [lost]", and defers the proof to Theorem B.4, its "precise and more
    general statement".  Implemented: ``eps' = (1+alpha) tau eps/q``,
    ``delta = e^{-alpha^2 tau/(2(1+alpha))}``.  Derivation: Algorithm 1 is Algorithm 6 with
    every ``delta_i = 0`` and ``Delta = 0``, so CL23:ThmB.4 gives
    ``(eps m, e^{-alpha^2 tau/(2(1+alpha))})`` with ``m = floor((1+alpha) tau/q)``; since
    ``m <= (1+alpha) tau/q`` and an ``(eps1, delta)``-DP algorithm is ``(eps2, delta)``-DP
    for every ``eps2 >= eps1``, the unrounded value is valid too.  Whether the paper writes
    ``=``, ``~`` or ``delta = e^{-Omega(tau)}`` is uncertain.

    >>> b = tct_simple(eps="0.1", q="0.5", tau=10, alpha=1)
    >>> print(b.eps, mpmath.nstr(b.delta, 6))  # 2 * 10 * 0.1 / 0.5; e^-2.5
    4.0 0.082085
    """
    a = to_ctx(ctx, alpha)
    return TCTBound(to_ctx(ctx, (1 + alpha) * tau * eps / q), simplified_tail(ctx, tau, a),
                    ctx.mpf(calls(q, tau, alpha)))


@exact_result("CL23:Lem2.2-advanced", title="Meta privacy cost of TCT, advanced composition",
              kind="composition",
              statement=r"\big(\varepsilon\sqrt{2m\ln(1/\delta^*)}+m\varepsilon(e^\varepsilon-1),\ "
                        r"\delta^*+e^{-\alpha^2\tau/(2(1+\alpha))}\big)",
              params=[_EPS, _Q, _TAU, _ALPHA, _DELTA_STAR], status="reconstructed",
              probabilistic=True,
              notes=label_note("reconstructed and numerically verified",
                               "Advanced composition [DRV10] of m = floor((1+alpha) tau/q) "
                               "eps-DP calls; Theorem B.4 with Delta = 0."), balls=True)
def tct_simple_advanced(ctx: Ctx, eps: Fraction, q: Fraction, tau: int, alpha: Fraction,
                        delta_star: Fraction) -> TCTBound:
    """Lemma 2.2's alternative: advanced composition of ``floor((1+alpha) tau/q)`` calls.

    CL23 Lemma 2.2, second sentence (label *reconstructed and numerically verified*).
    Domain as CL23:Lem2.2 and ``delta* in (0, 1)``.

    Proof note.  The surviving sentence (``...`` marks a lost formula): "Alternatively, we
    obtain parameter values ... where ... and ... are privacy parameter values for advanced
    composition (DRV10) of ... eps-DP computations."  Implemented: ``(eps', delta' + delta)`` with
    ``(eps', delta') = (eps sqrt(2m ln(1/delta*)) + m eps (e^eps - 1), delta*)`` the advanced
    composition (Dwork, Rothblum, Vadhan 2010) of ``m = floor((1+alpha) tau/q)`` eps-DP
    calls and ``delta = e^{-alpha^2 tau/(2(1+alpha))}``.  Derivation: this is
    CL23:ThmB.4-advanced for Algorithm 1, i.e. with every ``delta_i = 0`` and ``Delta = 0``
    (the function returns exactly that).

    >>> b = tct_simple_advanced(eps="0.1", q="0.475", tau=20, alpha=1, delta_star="1e-6")
    >>> print(mpmath.nstr(b.eps, 4), mpmath.nstr(b.delta, 3))
    5.701 0.00674
    """
    out: TCTBound = tct_advanced.core(ctx, eps=eps, q=q, tau=tau, alpha=alpha,
                                      delta_star=delta_star, Delta=Fraction(0))
    return out


@result("CL23:RemB.5", title="Number of target hits for a given failure probability",
        kind="bound",
        statement=r"\tau\ge\frac{2(1+\alpha)}{\alpha^2}\ln\frac1\delta\ \text{(simplified)},\ "
                  r"\tau\ge\frac{\ln(1/\delta)}{\alpha-\ln(1+\alpha)}\ \text{(raw)}",
        params=[unit_open("delta", "1e-6", "target failure probability"),
                positive("alpha", "1")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Coefficients at alpha = 0.5, 1, 2: 12, 4, 1.5 (simplified) and "
                         "10.58, 3.26, 1.11 (raw). Which alpha the paper's three examples use "
                         "is uncertain (open question 6)."), balls=True)
def hits_for_delta(ctx: Ctx, delta: MPF, alpha: MPF) -> TauBounds:
    """Smallest real ``tau`` with tail at most ``delta``, by either Chernoff bound.

    CL23 Remark B.5 (label *reconstructed and numerically verified*):
    ``2(1+alpha)/alpha^2 ln(1/delta)`` and ``ln(1/delta)/(alpha - ln(1+alpha))``; take the
    ceiling for an integer budget.  Domain: ``delta in (0, 1)``, ``alpha > 0``.

    Proof note.  The surviving text: "For a given [delta], we can calculate a bound on the
    smallest value of [tau] that works. We get [lost] (simplified Chernoff) [lost] (raw
    Chernoff)", then three examples "For [lost] we get [lost]", all lost.  Implemented:
    the two thresholds obtained by solving each bound of CL23:ThmB.4-tail for ``tau``:
    ``e^{-alpha^2 tau/(2(1+alpha))} <= delta`` iff ``tau >= 2(1+alpha) ln(1/delta)/alpha^2``,
    and ``e^{-tau(alpha - ln(1+alpha))} <= delta`` iff
    ``tau >= ln(1/delta)/(alpha - ln(1+alpha))`` (the rate is positive for ``alpha > 0``,
    since ``ln(1+alpha) < alpha``).  The raw threshold is the smaller one, because
    ``alpha - ln(1+alpha) >= alpha^2/(2(1+alpha))`` (CL23:ThmB.4-tail, step (iii)).  Which
    ``alpha`` the three lost examples use is unknown; this project tabulates 0.5, 1 and 2.

    >>> t = hits_for_delta(delta=mpmath.exp(-1), alpha=1)  # the coefficients at alpha = 1
    >>> print(t.simplified, mpmath.nstr(t.raw, 4))
    4.0 3.259
    """
    log_term = log(ctx, 1 / delta)
    return TauBounds(2 * (1 + alpha) / (alpha * alpha) * log_term,
                     log_term / chernoff_rate(ctx, alpha))


__all__ = ["TCTBound", "TailBounds", "TauBounds", "advanced_eps", "binomial_lower_tail", "calls",
           "raw_tail", "simplified_tail"]
