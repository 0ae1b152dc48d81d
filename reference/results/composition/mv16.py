"""Exact optimal composition of heterogeneous (eps_i, delta_i)-DP mechanisms (Murtagh–Vadhan).

Murtagh–Vadhan (TCC 2016; Theory of Computing 14(8), 2018), Theorem 1.5 ("optimal
composition", extending KOV15 Thm 3.3 to differing parameters): k-fold adaptive
composition of ``(eps_i, delta_i)``-DP mechanisms is ``(eps_g, delta_g)``-DP exactly when

    delta_g >= 1 - prod(1 - delta_i) + prod(1 - delta_i) / prod(1 + e^{eps_i}) *
               sum_{S subset [k]} max(e^{sum_{i in S} eps_i} - e^{eps_g} e^{sum_{i not in S}
               eps_i}, 0).

The sum is over ``2^k`` subsets (computing it is #P-complete in general, MV16 Thm 1.7),
but it only depends on how many mechanisms of each *distinct* epsilon lie in ``S``: with
``m`` distinct values of multiplicities ``k_1..k_m`` it has ``prod (k_j + 1)`` terms
``C(k_j, s_j) p_j^s_j q_j^(k_j - s_j) [1 - e^(eps_g - L)]_+`` with privacy loss
``L = sum_j (2 s_j - k_j) eps_j`` (``p_j = e^eps_j/(1+e^eps_j)``).  That is exact and
feasible while the product is at most :data:`MAX_TERMS`.  Equal epsilons reduce to
``KOV15:Thm3.3-delta``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath  # noqa: F401  (used by the doctests)
from mpmath import mp

from reference.core.errors import DomainError
from reference.core.model import Result, inverse
from reference.core.numeric import (
    MPF,
    Ctx,
    exact,
    exp,
    expm1,
    log1p,
    to_ctx,
)
from reference.core.params import nonneg, nonneg_seq, unit_open, unit_seq
from reference.results.composition.kov15 import check_above_floor, log_keep, with_leak

#: Largest number of distinct privacy-loss values enumerated (``prod (k_j + 1)``).
MAX_TERMS = 200_001

Groups = tuple[tuple[Fraction, int], ...]


def groups_of(eps: tuple[Fraction, ...]) -> Groups:
    """Distinct positive epsilons with their multiplicities (zero-eps mechanisms drop out)."""
    counts = Counter(e for e in eps if e > 0)
    return tuple(sorted(counts.items(), reverse=True))


def terms_of(groups: Groups) -> int:
    size = 1
    for _, n in groups:
        size *= n + 1
    return size


def _check(values: Mapping[str, Any], where: str) -> None:
    eps, deltas = values["eps"], values["delta"]
    if deltas and len(deltas) != len(eps):
        raise DomainError("delta", len(deltas), f"must have as many entries as eps ({len(eps)}) "
                          "or be omitted", where)
    size = terms_of(groups_of(eps))
    if size > MAX_TERMS:
        raise DomainError("eps", f"{len(eps)} values", "must have prod(multiplicity+1) over "
                          f"distinct values <= {MAX_TERMS} for exact enumeration (here "
                          f"{size})", where)
    if "delta_g" in values and deltas:
        check_above_floor(values["delta_g"], deltas, 1, where, "1-prod(1-delta_i)")


def _prepare(values: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Regroup the epsilons; the exact complements ``1 - delta_i`` (see ``log_keep``)."""
    return {"eps": groups_of(values["eps"]), "keep": tuple(1 - d for d in values["delta"])}


def _support(ctx: Ctx, groups: Groups, floor: Fraction | None = None,
             ) -> list[tuple[Fraction, MPF]]:
    """``(loss, probability)`` pairs of the privacy loss of the composed randomized responses,
    each loss exact (a sum of the exact epsilons: a term ``1 - e^(eps_g - L)`` with ``eps_g``
    just below ``L`` reads its gap from the inputs, not from their rounding).

    With ``floor``, pairs whose loss cannot exceed it (even with the remaining groups at
    their largest) are dropped: their terms ``[1 - e^(floor - L)]_+`` are 0.
    """
    rest = [Fraction(0)] * (len(groups) + 1)
    for j in range(len(groups) - 1, -1, -1):
        rest[j] = rest[j + 1] + groups[j][1] * groups[j][0]
    pairs: list[tuple[Fraction, MPF]] = [(Fraction(0), ctx.one)]
    for j, (e, n) in enumerate(groups):
        lifted = to_ctx(ctx, e)
        weight = exp(ctx, -n * log1p(ctx, exp(ctx, -lifted)))     # s = n: p^n
        down = exp(ctx, -lifted)
        row: list[tuple[Fraction, MPF]] = []
        for s in range(n, -1, -1):                          # losses (2s - n) e, descending
            row.append(((2 * s - n) * e, weight))
            weight = weight * (s * down) / (n - s + 1)
        merged: list[tuple[Fraction, MPF]] = []
        for loss, w in pairs:
            for step, v in row:
                total = loss + step
                if floor is not None and total + rest[j + 1] <= floor:
                    break                                   # the rest of the row is lower still
                merged.append((total, w * v))
        pairs = merged
    return pairs


def hetero_delta(ctx: Ctx, eps: Groups, eps_g: Fraction, delta: tuple[Fraction, ...],
                 keep: tuple[Fraction, ...]) -> MPF:
    """Smallest ``delta_g`` for composing ``(eps_i, delta_i)``-DP mechanisms at ``eps_g``.

    Murtagh–Vadhan (2016) Theorem 1.5, summed over the distinct privacy-loss values
    (module docstring).  Domain: ``eps_i >= 0``, ``eps_g >= 0``, ``delta_i in [0, 1)``;
    ``prod (k_j + 1) <= MAX_TERMS``; ``keep`` holds the ``1 - delta_i``.  The inputs come
    exact (``exact_inputs``): every gap ``L - eps_g`` is exact before it is lifted.

    Two mechanisms ``(ln 3, ln 2)`` at ``eps_g = 0``: by hand the loss is ``ln 6`` with
    probability ``3/4 * 2/3 = 1/2`` and ``ln(3/2)`` with probability ``3/4 * 1/3 = 1/4``,
    so delta = ``1/2 (1 - 1/6) + 1/4 (1 - 2/3) = 1/2``:

    >>> print(hetero_delta_result(eps=[mpmath.log(3), mpmath.log(2)], eps_g=0))
    0.5
    """
    pure = ctx.zero
    for loss, w in _support(ctx, eps, eps_g):
        if loss > eps_g:                               # [1 - e^(eps_g - loss)]_+, exactly
            pure += w * -expm1(ctx, to_ctx(ctx, eps_g - loss))
    if not delta:
        return pure
    log_all = ctx.fsum(log_keep(ctx, to_ctx(ctx, d), to_ctx(ctx, q))
                       for d, q in zip(delta, keep, strict=True))
    return with_leak(ctx, log_all, pure)


_PARAMS = [nonneg_seq("eps", "0.1,0.2,0.2", "epsilons of the k mechanisms"),
           unit_seq("delta", "0,0,0", "deltas of the k mechanisms (omit for pure DP)",
                    default=())]

hetero_delta_result = Result(
    "MV16:Thm1.5-delta", "Exact optimal heterogeneous composition: delta at eps_g",
    "composition",
    r"\delta_g=1-\prod(1-\delta_i)+\prod(1-\delta_i)\sum_{S}\frac{\big[e^{\sum_{S}\varepsilon_i}"
    r"-e^{\varepsilon_g}e^{\sum_{\bar S}\varepsilon_i}\big]_+}{\prod(1+e^{\varepsilon_i})}",
    (_PARAMS[0], nonneg("eps_g", "0.3", "composed epsilon"), _PARAMS[1]), hetero_delta,
    precondition=_check, prepare=_prepare, exact_inputs=True, balls=True,
    notes=f"Exact by enumeration over distinct epsilons, limited to {MAX_TERMS} loss values "
          "(MV16 show the general problem is #P-complete).")


def hetero_epsilon(ctx: Ctx, eps: Any, delta_g: MPF, delta: list[MPF]) -> MPF:
    """Smallest ``eps_g`` with the composition ``(eps_g, delta_g)``-DP (MV16 Thm 1.5 inverted).

    Point solution: on each interval between consecutive loss values ``delta(x)`` is
    ``A - e^x B`` (sums over the losses above ``x``), solved in closed form; the registry
    then certifies it with the forward enclosure.  Domain: as ``MV16:Thm1.5-delta``, with
    ``delta_g in (0, 1)`` above ``1 - prod(1 - delta_i)``.

    Equal epsilons agree with ``KOV15:Thm3.3`` (0.0797888542 for 500 x 0.001, mpmath at 50 digits):

    >>> print(mpmath.nstr(hetero_epsilon_result(eps=["0.001"] * 500, delta_g="1e-6").value, 9))
    0.0797888542
    """
    groups = groups_of(tuple(exact(e, "eps", "MV16:Thm1.5") for e in eps))
    log_all = mp.fsum(log1p(mp, -d) for d in delta) if delta else mp.zero
    keep = mp.exp(log_all)
    if keep < 0.5:   # 1 - delta_g is exact in mp there; expm1(log_all) would cancel with it
        target = 1 - (1 - delta_g) / keep                           # the pure part
    else:
        target = (delta_g + expm1(mp, log_all)) / keep
    pairs = sorted(((to_ctx(mp, loss), w) for loss, w in _support(mp, groups)),
                   key=lambda lw: -lw[0])
    heads = tails = mp.zero
    for idx, (loss, w) in enumerate(pairs):
        if loss <= 0:
            break
        heads += w
        tails += w * mp.exp(-loss)
        nxt = pairs[idx + 1][0] if idx + 1 < len(pairs) else mp.zero
        if heads - mp.exp(max(nxt, mp.zero)) * tails >= target:   # delta at the next loss
            return mp.log((heads - target) / tails)
    return mp.zero


hetero_epsilon_result = inverse(
    "MV16:Thm1.5", title="Exact optimal heterogeneous composition: eps_g at delta_g",
    statement=r"\varepsilon_g^\star=\min\{\varepsilon_g\ge0:\ \delta_{\rm MV}"
              r"(\varepsilon_g)\le\delta_g\}",
    params=[_PARAMS[0], unit_open("delta_g", "1e-6", "target composed delta"), _PARAMS[1]],
    forward=hetero_delta_result, unknown="eps_g", target="delta_g", increasing=False,
    precondition=_check)(hetero_epsilon)
