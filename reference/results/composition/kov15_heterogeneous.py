"""Kairouz–Oh–Viswanath (ICML 2015) composition bounds as libraries implement them.

* Theorem 3.5 (heterogeneous, parameters fixed in advance): k mechanisms
  ``(eps_l, delta_l)`` compose to ``(eps~, 1 - (1 - delta~) prod_l (1 - delta_l))``-DP with
  ``eps~`` the least of ``sum eps_l``,
  ``D + sqrt(2 S ln(e + sqrt(S)/delta~))`` and ``D + sqrt(2 S ln(1/delta~))``, where
  ``D = sum eps_l (e^eps_l - 1)/(e^eps_l + 1)`` and ``S = sum eps_l^2``.  This is autodp's
  ``DP_acct.get_eps`` and diffprivlib's ``BudgetAccountant.total``.
* Theorem 3.3 on its lattice: the optimal composition evaluated only at
  ``eps_g = (k - 2i) eps``, i.e. dp-accounting's ``pld.accountant.advanced_composition``
  (the smallest lattice point whose exact delta is at most the target).  The continuous
  optimum between lattice points is ``KOV15:Thm3.3`` (:mod:`reference.results.composition.kov15`).

(:mod:`reference.results.composition.kov15` holds the exact Theorem 3.3 of the same paper;
this module the forms the libraries use.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mpmath  # noqa: F401  (used by the doctests)
from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.fastballs import FAST
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    compare,
    ctx_min,
    endpoints,
    exp,
    is_interval,
    log,
    log1p,
    to_ctx,
    working,
)
from reference.core.params import count, nonneg, nonneg_seq, unit_closed_open, unit_open, unit_seq
from reference.results.composition.kov15 import (
    MAX_ROUNDS,
    _floor_check,
    optimal_delta,
    optimal_epsilon,
)
from reference.results.composition.rruv16 import DPGuarantee, _tanh_half


def _same_length(values: Mapping[str, Any], where: str) -> None:
    deltas = values["delta"]
    if deltas and len(deltas) != len(values["eps"]):
        raise DomainError("delta", len(deltas), f"must have as many entries as eps "
                          f"({len(values['eps'])}) or be omitted", where)


@result("KOV15:Thm3.5", title="Heterogeneous composition, three-way minimum (KOV15 Thm 3.5)",
        kind="composition",
        statement=r"\tilde\varepsilon=\min\Big\{\sum\varepsilon_l,\ D+\sqrt{2S\ln\big(e+"
                  r"\tfrac{\sqrt S}{\tilde\delta}\big)},\ D+\sqrt{2S\ln\tfrac1{\tilde\delta}}"
                  r"\Big\},\ \delta_g=1-(1-\tilde\delta)\prod(1-\delta_l)",
        params=[nonneg_seq("eps", "0.1,0.2", "epsilons of the k mechanisms (fixed in advance)"),
                unit_open("delta_tilde", "1e-6", "slack delta~ of the theorem"),
                unit_seq("delta", "0,0", "deltas of the k mechanisms (omit for pure DP)",
                         default=())],
        precondition=_same_length,
        notes="Theorem number of the ICML 2015 paper (arXiv 1311.0776); the libraries map it to "
              "autodp DP_acct.get_eps and diffprivlib BudgetAccountant.total. Valid for "
              "parameters fixed in advance (a composition theorem, not a filter).")
def kov_heterogeneous(ctx: Ctx, eps: list[MPF], delta_tilde: MPF, delta: list[MPF],
                      ) -> DPGuarantee:
    """KOV15 Theorem 3.5: composition of ``(eps_l, delta_l)``-DP mechanisms.

    ``eps~ = min(sum eps_l, D + sqrt(2 S ln(e + sqrt(S)/delta~)), D + sqrt(2 S ln(1/delta~)))``
    with ``D = sum eps_l tanh(eps_l/2)``, ``S = sum eps_l^2``; the composed delta is
    ``1 - (1 - delta~) prod (1 - delta_l)``.  Domain: ``eps_l >= 0``,
    ``delta~ in (0, 1)``, ``delta_l in [0, 1)`` (same length as eps, or omitted).

    Computed with mpmath at 50 digits: 500 x eps0 = 0.001 at delta~ = 1e-6 gives 0.100325876
    (autodp and diffprivlib agree):

    >>> g = kov_heterogeneous(eps=["0.001"] * 500, delta_tilde="1e-6")
    >>> print(mpmath.nstr(g.eps, 9), g.delta)
    0.100325876 1.0e-6
    """
    total = ctx.fsum(eps)
    second, third = kov_forms(ctx, eps, delta_tilde)
    keep = ctx.fsum(log1p(ctx, -d) for d in delta) if delta else ctx.zero
    delta_g = 1 - (1 - delta_tilde) * exp(ctx, keep)
    return DPGuarantee(ctx_min(ctx, total, ctx_min(ctx, second, third)), delta_g)


def kov_forms(ctx: Ctx, eps: Sequence[MPF], delta_tilde: MPF) -> tuple[MPF, MPF]:
    """The second and third terms of Theorem 3.5's minimum, ``D + sqrt(2 S ln(e +
    sqrt(S)/delta~))`` and ``D + sqrt(2 S ln(1/delta~))`` (the relations trace them)."""
    drift = ctx.fsum(e * _tanh_half(ctx, e) for e in eps)
    spread = ctx.fsum(e * e for e in eps)
    second = drift + ctx.sqrt(2 * spread * log(ctx, ctx.e + ctx.sqrt(spread) / delta_tilde))
    return second, drift + ctx.sqrt(2 * spread * -log(ctx, delta_tilde))


def _lattice_delta(ctx: Ctx, eps: MPF, k: int, i: int, delta: MPF, keep: MPF) -> MPF:
    """At the lattice point ``eps_g = (k - 2i) eps`` the last positive term is ``i - 1``, its
    gap ``2 eps`` (as ``optimal_delta``'s ``prepare`` hook would find from exact inputs)."""
    return optimal_delta.core(ctx, eps=eps, k=k, eps_g=(k - 2 * i) * eps, delta=delta, keep=keep,
                              last=i - 1, last_gap=2 * eps)


def _search(decide: Callable[[int], bool | None], top: int,
            guess: int | None = None) -> tuple[int, int]:
    """Largest ``i`` in ``[0, top]`` with ``decide(i)`` true (monotone), as a bracket.

    A ``guess`` decided true, with ``guess + 1`` decided false (or past ``top``), is the
    answer (two decisions instead of a bisection's ``log2(top)``); otherwise the bisection
    below runs.

    ``decide`` answers True/False, or None when it cannot decide; the bracket ``(lo, hi)``
    holds the exact answer: ``lo`` only moves to points decided feasible and ``hi`` only
    below points decided infeasible.  A first bisection reads None as infeasible; if it met
    one, a second bisection over ``[lo, hi]`` reads None as feasible, so an undecided point
    with feasible points above it cannot cut them off.

    >>> truth = lambda i: i <= 7
    >>> _search(truth, 10)
    (7, 7)
    >>> _search(lambda i: None if i in (5, 6, 7, 8) else truth(i), 10)  # undecided near 7
    (4, 8)
    >>> _search(truth, 10, guess=7), _search(truth, 10, guess=6)
    ((7, 7), (7, 7))
    """
    if guess is not None and decide(guess) and (guess == top or decide(guess + 1) is False):
        return guess, guess
    lo, hi, sound_hi, met_none = 0, top, top, False
    while lo < hi:
        mid = (lo + hi + 1) // 2
        verdict = decide(mid)
        if verdict:
            lo = mid
        else:
            hi = mid - 1
            met_none = met_none or verdict is None
            if verdict is False:
                sound_hi = mid - 1
    if not met_none:
        return lo, sound_hi
    a, b = lo, sound_hi
    while a < b:
        mid = (a + b + 1) // 2
        if decide(mid) is False:
            b = mid - 1
        else:
            a = mid
    return lo, b


def _lattice_bracket(values: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``prepare`` hook of ``KOV15:Thm3.3-grid``: the bracket of :func:`_search` over the
    lattice indices, each enclosure of a lattice delta (on Arb's balls,
    :mod:`reference.core.fastballs`) compared exactly with the exact ``delta_g``.  An
    enclosure end equal to ``delta_g`` decides: for ``i >= 1`` and
    ``eps > 0`` the lattice delta is a non-constant rational function of the transcendental
    ``e^eps`` (Lindemann), so irrational and strictly inside its enclosure; at ``i = 0`` or
    ``eps = 0`` it is the floor ``1-(1-delta)^k``, which the domain keeps below ``delta_g``.
    """
    k, target = values["k"], values["delta_g"]
    with working(FAST):
        eps, delta, keep = (to_ctx(FAST, values["eps"]), to_ctx(FAST, values["delta"]),
                            to_ctx(FAST, 1 - values["delta"]))

        def decide(i: int) -> bool | None:
            value = endpoints(_lattice_delta(FAST, eps, k, i, delta, keep))
            if compare(value.hi, target) <= 0:
                return True
            if compare(value.lo, target) >= 0:
                return False
            return None

        return {"bracket": _search(decide, k // 2, _lattice_guess(values))}


def _lattice_guess(values: Mapping[str, Any]) -> int | None:
    """The lattice index just above the continuous optimum ``KOV15:Thm3.3`` (its solver, on
    balls; the midpoint): the largest ``i`` with ``(k - 2i) eps`` at least that ``eps_g``.
    Only a guess, which the search checks with two decisions."""
    k: int = values["k"]
    if values["eps"] == 0:
        return None
    with working(FAST):
        best = endpoints(optimal_epsilon.core(FAST, **{
            n: to_ctx(FAST, values[n]) if n != "k" else k
            for n in ("eps", "k", "delta_g", "delta")})).mid
        return min(max(int(mp.floor((k - best / to_ctx(mp, values["eps"])) / 2)), 0), k // 2)


@result("KOV15:Thm3.3-grid", title="Optimal composition on the lattice (dp-accounting form)",
        kind="composition",
        statement=r"\varepsilon_g=\min\{(k-2i)\varepsilon:\ 0\le i\le\lfloor k/2\rfloor,\ "
                  r"\delta_{\rm opt}((k-2i)\varepsilon)\le\delta_g\}",
        params=[nonneg("eps", "0.001", "epsilon of each of the k mechanisms"),
                count("k", "500", "number of mechanisms", hi=MAX_ROUNDS),
                unit_open("delta_g", "1e-6", "target composed delta"),
                unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
        precondition=_floor_check, prepare=_lattice_bracket,
        notes="dp-accounting's advanced_composition returns this lattice value (and overflows "
              "for k >= 1024 in dp-accounting 0.6.0). It is valid but not optimal between lattice "
              "points; KOV15:Thm3.3 gives the continuous optimum.")
def kov_grid(ctx: Ctx, eps: MPF, k: int, delta_g: MPF, delta: MPF,
             bracket: tuple[int, int]) -> MPF:
    """The smallest ``(k - 2i) eps`` whose exact k-fold delta is at most ``delta_g``.

    KOV15 Theorem 3.3 (the exact delta at the lattice points, computed by
    ``KOV15:Thm3.3-delta``), searched by bisection over ``i`` (delta increases with ``i``).
    The search runs once, in interval arithmetic on the exact inputs
    (:func:`_lattice_bracket`), so the plain value (the sound end) and the enclosure carry
    the same decisions; a lattice point whose comparison cannot be decided widens the
    enclosure to the neighbouring candidates.  Domain: ``eps >= 0``,
    ``1 <= k <= 10**7``, ``delta_g in (0, 1)`` above ``1-(1-delta)^k``, ``delta in [0, 1)``.

    dp-accounting 0.6.0 ("KOV grid") reports 0.08 for 500 x 0.001 at 1e-6, 12.6 for 500 x 0.1:

    >>> print(mpmath.nstr(kov_grid(eps="0.001", k=500, delta_g="1e-6"), 10))
    0.08
    >>> print(mpmath.nstr(kov_grid(eps="0.1", k=500, delta_g="1e-6"), 10))
    12.6
    """

    lo, hi = bracket
    best, worst = (k - 2 * hi) * eps, (k - 2 * lo) * eps
    if is_interval(ctx):
        return iv.mpf((endpoints(best).lo, endpoints(worst).hi))
    return worst
