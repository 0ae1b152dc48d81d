"""Privacy filters for approximate zCDP and ex-post private mechanisms (RSWR23 §3, §5).

Source: RSWR23: Theorem 2 (the zCDP filter of Whitehouse et al. 2023),
Lemma 5.2 (the ex-post filter) and Theorem 3 (both at once, by concurrent composition).
Each rule is evaluated on the parameters chosen so far *including* the proposed next
round (the sums over ``m <= n + 1``), before that round runs, as in RRUV16 Algorithm 3.
Decisions are exact (:mod:`reference.core.decide`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath

from reference.core.decide import exceeds
from reference.core.errors import DomainError
from reference.core.model import lift, result
from reference.core.numeric import MPF, Ctx
from reference.core.params import (
    all_of,
    max_length,
    nonneg,
    nonneg_seq,
    positive,
    unit_open,
    unit_seq,
)
from reference.results.conversions.rswr23 import zcdp_to_dp
from reference.results.filters.rruv16 import MAX_ROUNDS


class ZCDPFilterDecision(NamedTuple):
    """Theorem 2: the prefix's DP epsilon ``rho + 2 sqrt(rho log(1/delta''))``, its summed
    delta, and the decision."""

    eps_spent: MPF
    delta_spent: MPF
    halt: bool


class ExPostDecision(NamedTuple):
    """Lemma 5.2: the summed realised ex-post bounds, the summed deltas, the decision."""

    expost_spent: MPF
    delta_spent: MPF
    halt: bool


class ConcurrentDecision(NamedTuple):
    """Theorem 3: both rules' statistics and the decision ``N = min(N_zCDP, N_post)``."""

    eps_spent: MPF
    delta_spent: MPF
    expost_spent: MPF
    delta_post_spent: MPF
    halt: bool


def _total(values: Mapping[str, Any], name: str) -> Fraction:
    return sum(values[name], Fraction(0))


def _zcdp_eps(ctx: Ctx, rho: list[MPF], delta_pp: MPF) -> MPF:
    total = ctx.fsum(rho) if rho else ctx.zero
    return zcdp_to_dp.core(ctx, total, delta_pp)


def zcdp_rule(values: Mapping[str, Any], where: str, rho: str = "rho", deltas: str = "deltas",
              eps: str = "eps", delta: str = "delta") -> bool:
    """Theorem 2's stopping condition on the prefix: ``eps < eps(sum rho)`` or
    ``delta < sum delta_m`` (exact)."""
    if values[delta] < _total(values, deltas):
        return True
    rhos, dpp = values[rho], values["delta_pp"]
    return exceeds(lambda ctx: _zcdp_eps(ctx, lift(ctx, {"r": rhos})["r"], lift(
        ctx, {"d": dpp})["d"]), values[eps], where, balls=True)


def expost_rule(values: Mapping[str, Any], expost: str = "expost", deltas: str = "deltas",
                eps: str = "eps", delta: str = "delta") -> bool:
    """Lemma 5.2's stopping condition: ``eps == sum E_i`` or ``delta < sum delta_i``."""
    return bool(_total(values, expost) == values[eps] or values[delta] < _total(values, deltas))


def _lengths(seq: str, deltas: str, extra: bool) -> Any:
    def check(values: Mapping[str, Any], where: str) -> None:
        n, m = len(values[seq]), len(values[deltas])
        allowed = (n, n + 1) if extra else (n,)
        if m and m not in allowed:
            raise DomainError(deltas, m, f"must have {' or '.join(map(str, allowed))} entries "
                              f"(as {seq}{', plus the proposal' if extra else ''}) or be omitted",
                              where)
    return check


def _budget_condition(expost: str, eps: str) -> Any:
    def check(values: Mapping[str, Any], where: str) -> None:
        if _total(values, expost) > values[eps]:
            total = _total(values, expost)   # not float(): it overflows above 1e308
            raise DomainError(expost, "sum " + mpmath.nstr(mpmath.mpf(total.numerator) /
                                                          total.denominator, 8),
                              f"must not exceed the budget {eps} (Lemma 5.2's hypothesis: "
                              f"each ex-post bound fits the remaining budget)", where)
    return check


def _sum(ctx: Ctx, xs: list[MPF]) -> MPF:
    return ctx.fsum(xs) if xs else ctx.zero


@result("RSWR23:Thm2", title="zCDP privacy filter (Whitehouse et al.)", kind="filter",
                statement=r"N=\inf\Big\{n:\epsilon<2\sqrt{\log\tfrac1{\delta''}\sum_{m\le n+1}"
                          r"\rho_m}+\sum_{m\le n+1}\rho_m\ \text{or}\ \delta<\sum_{m\le n+1}"
                          r"\delta_m\Big\}\Rightarrow(\epsilon,\delta+\delta'')\text{-DP}",
                params=[nonneg_seq("rho", "0.1,0.2", "zCDP levels so far, including the "
                                   "proposal", default=()),
                        unit_seq("deltas", "0,0", "approximation deltas (same length as rho, "
                                 "or omitted)", default=()),
                        positive("eps", "10", "the epsilon budget"),
                        nonneg("delta", "0", "the budget for the summed deltas", default="0"),
                        unit_open("delta_pp", "1e-6", "the conversion's slack delta''")],
                prepare=lambda values, where: {"halt": zcdp_rule(values, where)},
                probabilistic=True,
                precondition=all_of(_lengths("rho", "deltas", extra=False),
                                    max_length("rho", MAX_ROUNDS)),
                notes="The transcript up to N is (eps, delta + delta'')-DP (the printed "
                      "closing sentence says (eps, delta)). HALT iff "
                      "a condition holds for the prefix including the proposal.", balls=True)
def zcdp_filter(ctx: Ctx, rho: list[MPF], deltas: list[MPF], eps: MPF, delta: MPF,
                delta_pp: MPF, halt: bool) -> ZCDPFilterDecision:
    """The zCDP filter's statistics on the prefix and its decision (HALT before the round).

    RSWR23 Theorem 2 (Whitehouse et al. 2023): stop before the round whose predictable
    ``rho_{n+1}`` makes ``sum rho + 2 sqrt(log(1/delta'') sum rho) > eps`` or
    ``sum delta_m > delta``; the stopped transcript is ``(eps, delta + delta'')``-DP.
    Equivalently ``sum rho <= rho*(eps, delta'')`` (RSWR23:Lem2.3-inverse).  Domain:
    ``rho_m >= 0``, ``delta_m in [0, 1)``, ``eps > 0``, ``delta >= 0``,
    ``delta'' in (0, 1)``.  RSWR23 §7.2: ``sum rho = 1.3525`` fits ``(10, 1e-6)``
    (epsilon 9.9978), 1.3531 does not (the budget is 1.353015):

    >>> d = zcdp_filter(rho=["1.3525"], eps=10, delta_pp="1e-6")
    >>> print(mpmath.nstr(d.eps_spent, 5), d.halt)
    9.9978 False
    >>> zcdp_filter(rho=["1.3", "0.0531"], eps=10, delta_pp="1e-6").halt
    True
    """
    return ZCDPFilterDecision(_zcdp_eps(ctx, rho, delta_pp), _sum(ctx, deltas), halt)


@result("RSWR23:Lem5.2", title="Ex-post privacy filter", kind="filter",
                statement=r"N=\inf\Big\{n:\varepsilon=\sum_{i\le n}\mathcal E_i(y_i)\ \text{or}\ "
                          r"\delta<\sum_{i\le n+1}\delta_i\Big\}\Rightarrow(\varepsilon,\delta)"
                          r"\text{-DP}",
                params=[nonneg_seq("expost", "0.5,0.25", "realised ex-post bounds E_i(y_i) of "
                                   "the rounds run", default=()),
                        unit_seq("deltas", "0,0,0", "deltas of those rounds, plus the "
                                 "proposal's (or omitted)", default=()),
                        positive("eps", "1", "the epsilon budget"),
                        nonneg("delta", "0", "the delta budget", default="0")],
                prepare=lambda values, where: {"halt": expost_rule(values)},
                probabilistic=True,
                precondition=all_of(_lengths("expost", "deltas", extra=True),
                                    _budget_condition("expost", "eps"),
                                    max_length("expost", MAX_ROUNDS)),
                notes="Stops on *equality* with the budget, which the hypothesis (every "
                      "ex-post bound fits the remaining budget) makes reachable; sums above "
                      "the budget are outside the lemma (DomainError). N may be infinite.",
        balls=True)
def expost_filter(ctx: Ctx, expost: list[MPF], deltas: list[MPF], eps: MPF,
                  delta: MPF, halt: bool) -> ExPostDecision:
    """The ex-post filter's spend and its decision.

    RSWR23 Lemma 5.2: with ``(E_n, delta_n)``-ex-post private rounds whose bounds never
    exceed the remaining budget, stopping at the first ``n`` with ``sum_{i<=n} E_i = eps``
    or ``sum_{i<=n+1} delta_i > delta`` makes the transcript ``(eps, delta)``-DP.
    Domain: ``E_i >= 0`` with ``sum E_i <= eps``, ``delta_i in [0, 1)`` (as many as the
    ``E_i``, or one more: the proposal), ``eps > 0``, ``delta >= 0``.

    >>> expost_filter(expost="0.5,0.25", eps=1).halt   # 0.25 of the budget left
    False
    >>> expost_filter(expost="0.5,0.5", eps=1).halt    # exhausted: stop
    True
    """
    return ExPostDecision(_sum(ctx, expost), _sum(ctx, deltas), halt)


def _concurrent_decide(values: Mapping[str, Any], where: str) -> dict[str, bool]:
    zcdp = zcdp_rule(values, where)
    post = expost_rule(values, "expost", "deltas_post", "eps_post", "delta_post")
    return {"halt": zcdp or post}


@result("RSWR23:Thm3", title="Filter for mixed zCDP and ex-post rounds (concurrent "
                "composition)", kind="filter",
                statement=r"N=\min\{N_{\rm zCDP}(\epsilon,\delta,\delta''),\ N_{\rm post}"
                          r"(\epsilon',\delta')\}\Rightarrow(\epsilon+\epsilon',\ \delta+\delta'+"
                          r"\delta'')\text{-DP}",
                params=[nonneg_seq("rho", "0.1,0.2", "zCDP rounds' levels, including a zCDP "
                                   "proposal", default=()),
                        unit_seq("deltas", "0,0", "zCDP rounds' deltas", default=()),
                        nonneg_seq("expost", "0.5", "realised ex-post bounds", default=()),
                        unit_seq("deltas_post", "0,0", "ex-post rounds' deltas (plus an "
                                 "ex-post proposal's)", default=()),
                        positive("eps", "10", "zCDP epsilon budget"),
                        positive("delta", "1e-6", "zCDP delta budget"),
                        unit_open("delta_pp", "1e-6", "the conversion's slack delta''"),
                        positive("eps_post", "1", "ex-post epsilon budget eps'"),
                        positive("delta_post", "1e-6", "ex-post delta budget delta'")],
                prepare=_concurrent_decide, probabilistic=True,
                precondition=all_of(_lengths("rho", "deltas", extra=False),
                                    _lengths("expost", "deltas_post", extra=True),
                                    _budget_condition("expost", "eps_post"),
                                    max_length("rho", MAX_ROUNDS),
                                    max_length("expost", MAX_ROUNDS)),
                notes="The printed N is garbled; implemented as the "
                      "minimum of the two rules, each on its own subsequence. The later text's "
                      "'as in Lemma 5.2' means this theorem.", balls=True)
def concurrent_filter(ctx: Ctx, rho: list[MPF], deltas: list[MPF], expost: list[MPF],
                      deltas_post: list[MPF], eps: MPF, delta: MPF, delta_pp: MPF,
                      eps_post: MPF, delta_post: MPF, halt: bool) -> ConcurrentDecision:
    """Both filters' statistics and HALT iff either rule stops (``N = min``).

    RSWR23 Theorem 3: zCDP rounds follow Theorem 2 with ``(eps, delta, delta'')``, ex-post
    rounds Lemma 5.2 with ``(eps', delta')``; the interaction stopped at the first of the
    two stopping times is ``(eps + eps', delta + delta' + delta'')``-DP (Lyu's concurrent
    composition, RSWR23 Theorem 1, with basic composition).  Domain: as Theorem 2 and
    Lemma 5.2; ``eps, eps', delta, delta' > 0``.

    >>> concurrent_filter(rho="1", expost="0.5", eps=10, delta="1e-6", delta_pp="1e-6",
    ...                   eps_post=1, delta_post="1e-6").halt
    False
    >>> concurrent_filter(rho="1", expost="1", eps=10, delta="1e-6", delta_pp="1e-6",
    ...                   eps_post=1, delta_post="1e-6").halt   # ex-post budget exhausted
    True
    """
    return ConcurrentDecision(_zcdp_eps(ctx, rho, delta_pp), _sum(ctx, deltas),
                              _sum(ctx, expost), _sum(ctx, deltas_post), halt)
