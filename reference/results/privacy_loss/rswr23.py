"""Exact privacy quantities of finite distributions: the ground truth for closed forms.

Source: RSWR23 §2 — Definition 2.1 ((eps, delta)-DP, read as the hockey-stick
divergence of a pair of output laws), Definition 2.3 (privacy loss) and the Rényi
divergence of §2.1.  A pair of output distributions ``P`` (on ``x``) and ``Q`` (on ``x'``)
is given as two probability vectors over the same finite set of outcomes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    binary_order,
    endpoints,
    exp,
    expm1,
    extra_bits,
    is_interval,
    log,
    log1p,
    pos_part,
    to_ctx,
)
from reference.core.params import Param, distribution, real


class FinitePair(NamedTuple):
    """Two output distributions ``P``, ``Q`` on the outcomes named by ``labels``."""

    P: tuple[MPF, ...]
    Q: tuple[MPF, ...]
    labels: tuple[str, ...]


class LossDistribution(NamedTuple):
    """Atoms ``losses`` of a privacy-loss random variable and their probabilities."""

    losses: tuple[MPF, ...]
    probs: tuple[MPF, ...]


def same_length(values: Mapping[str, Any], where: str) -> None:
    """Precondition: ``P`` and ``Q`` are laws on the same outcomes (equal lengths)."""
    if len(values["P"]) != len(values["Q"]):
        raise DomainError("Q", values["Q"], f"must have as many entries as P ({len(values['P'])})",
                          where)


def is_zero(ctx: Ctx, x: MPF) -> bool:
    """True iff the (nonnegative, exactly converted) probability ``x`` is exactly 0."""
    if is_interval(ctx):
        return bool(endpoints(x).hi == 0)
    return bool(x == 0)


def _is_one(ctx: Ctx, x: MPF) -> bool:
    if is_interval(ctx):
        ends = endpoints(x)
        return bool(ends.lo == 1 and ends.hi == 1)
    return bool(x == 1)


def hockey_stick_divergence(ctx: Ctx, P: Sequence[MPF], Q: Sequence[MPF], eps: MPF) -> MPF:
    """``sum_y (p(y) - e^eps q(y))_+`` in context ``ctx`` (shared by several results)."""
    w = exp(ctx, eps)
    return ctx.fsum(pos_part(ctx, p - w * q) for p, q in zip(P, Q, strict=True))


_PAIR = [distribution("P", "0.5,0.5", "output law on x"),
         distribution("Q", "0.25,0.75", "output law on the neighbour x'")]


@result("RSWR23:Def2.1", title="Smallest delta of a pair at eps (hockey-stick divergence)",
        kind="definition",
        statement=r"\delta(\varepsilon)=\sup_E\big(P(E)-e^{\varepsilon}Q(E)\big)"
                  r"=\sum_y\big(p(y)-e^{\varepsilon}q(y)\big)_+",
        params=[*_PAIR, real("eps", "0.5", "any real eps (eps < 0: the curve of a "
                                           "privacy-loss distribution)")],
        precondition=same_length,
        notes="One direction only (P against Q); DP needs both, see RRUV16:Def2.1. "
              "Defined for every real eps; RSWR23 uses eps >= 0, privacy-loss-distribution "
              "accountants also use eps < 0.")
def hockey_stick(ctx: Ctx, P: Sequence[MPF], Q: Sequence[MPF], eps: MPF) -> MPF:
    """Smallest ``delta`` with ``P(E) <= e^eps Q(E) + delta`` for every event ``E``.

    RSWR23 Definition 2.1, eq. (1), for one ordered pair of output laws: the supremum over
    events is attained at ``E = {p > e^eps q}``, giving ``sum_y (p(y) - e^eps q(y))_+``.
    Domain: ``P``, ``Q`` probability vectors of equal length, ``eps`` any real number.

    The paper uses ``eps >= 0``; the supremum and the sum agree for every real eps (the
    argument uses only ``e^eps > 0``), and so does the privacy-loss form
    ``E_P[(1 - e^(eps - L))_+]`` of privacy-loss-distribution accountants (Koskela, Jälkö,
    Honkela 2020; Gopi, Lee, Wutschitz 2021), which has no sign condition on eps
    (dp-accounting's ``get_delta_for_epsilon`` accepts eps < 0).  For ``eps < 0``,
    ``delta(eps) = 1 - e^eps + e^eps delta_(Q,P)(-eps) >= 1 - e^eps``, and each term tends
    to ``p(y)``, so ``delta(eps) -> 1`` as ``eps -> -inf``.

    >>> hockey_stick(P="0.5,0.5", Q="0.25,0.75", eps=0)  # E = {first outcome}: 1/2 - 1/4
    mpf('0.25')
    >>> from mpmath import nstr
    >>> print(nstr(hockey_stick(P="0.5,0.5", Q="0.25,0.75", eps=-1), 30))  # E = all: 1 - 1/e
    0.632120558828557678404476229839
    """
    return hockey_stick_divergence(ctx, P, Q, eps)


def loss_atoms(ctx: Ctx, P: Sequence[MPF], Q: Sequence[MPF]) -> LossDistribution:
    """Privacy-loss atoms of ``(P, Q)`` under ``P`` (shared by several results)."""
    losses: list[MPF] = []
    probs: list[MPF] = []
    for p, q in zip(P, Q, strict=True):
        if is_zero(ctx, p):
            continue
        losses.append(ctx.inf if is_zero(ctx, q) else log(ctx, p / q))
        probs.append(p)
    return LossDistribution(tuple(losses), tuple(probs))


@result("RSWR23:Def2.3", title="Privacy-loss distribution of a finite pair", kind="definition",
        statement=r"\mathcal L(y)=\log\frac{p(y)}{q(y)},\quad y\sim P",
        params=_PAIR, precondition=same_length,
        notes="One atom per outcome of positive P-mass, in the input order (equal losses "
              "are not merged); +inf where q(y)=0.")
def privacy_loss_distribution(ctx: Ctx, P: Sequence[MPF], Q: Sequence[MPF]) -> LossDistribution:
    """Law of the privacy loss ``log(p(Y)/q(Y))`` with ``Y ~ P``: atoms and their P-masses.

    RSWR23 Definition 2.3 for finite outcome sets.  Outcomes with ``p(y) = 0`` carry no
    mass and are skipped; ``q(y) = 0 < p(y)`` gives the atom ``+inf``.  Atoms keep the
    order of the outcomes and equal losses are not merged, so the law is the same and
    the interval evaluation returns the atoms in the same order as the point one.
    Domain: ``P``, ``Q`` probability vectors of equal length.

    >>> pld = privacy_loss_distribution(P="0.5,0.5,0", Q="0.25,0.25,0.5")
    >>> pld.probs, [float(x) for x in pld.losses]  # log 2 = 0.6931...
    ((mpf('0.5'), mpf('0.5')), [0.6931471805599453, 0.6931471805599453])
    >>> import mpmath
    >>> [loss == mpmath.inf for loss in privacy_loss_distribution(P="1,0", Q="0,1").losses]
    [True]
    """
    return loss_atoms(ctx, P, Q)


def _ctx_max(ctx: Ctx, xs: Sequence[MPF]) -> MPF:
    """The largest of ``xs`` (non-empty), rigorous in both contexts."""
    if is_interval(ctx):
        ends = [endpoints(x) for x in xs]
        return ctx.mpf((max(e.lo for e in ends), max(e.hi for e in ends)))
    return max(xs)


def renyi_divergence(ctx: Ctx, P: Sequence[MPF], Q: Sequence[MPF], alpha: MPF | float,
                     mass_defect: MPF | None = None) -> MPF:
    """``D_alpha(P || Q)`` in context ``ctx``; ``alpha = math.inf`` gives ``log max p/q``.

    ``mass_defect`` is ``sum(P) - 1`` computed exactly from the exact inputs (the masses of
    a vector given in floating point may sum to 1 only within ``MASS_TOLERANCE``); without
    it the defect is summed from the rounded masses, and ``D_alpha(P || P)`` can come out as
    a rounding error of either sign instead of 0.
    """
    atoms = loss_atoms(ctx, P, Q)
    if any(not is_zero(ctx, p) and is_zero(ctx, q) for p, q in zip(P, Q, strict=True)):
        return ctx.inf
    if isinstance(alpha, float) and alpha == math.inf:  # Param(allow_inf=True) gives math.inf
        return _ctx_max(ctx, atoms.losses)  # D_inf = log max_{p(y) > 0} p(y)/q(y)
    if _is_one(ctx, alpha):
        return ctx.fsum(p * ell for ell, p in zip(atoms.losses, atoms.probs, strict=True))
    a = alpha - 1
    # sum_y p (p/q)^a = sum p + sum p expm1(a L): log1p keeps accuracy as alpha -> 1.
    excess = ctx.fsum(p * expm1(ctx, a * ell) for ell, p in zip(atoms.losses, atoms.probs,
                                                                  strict=True))
    defect = ctx.fsum(atoms.probs) - 1 if mass_defect is None else mass_defect
    return log1p(ctx, defect + excess) / a


@result("RSWR23:Renyi", title="Rényi divergence of a finite pair", kind="definition",
        statement=r"D_\alpha(P\|Q)=\frac1{\alpha-1}\log\mathbb E_{y\sim P}"
                  r"\Big[\Big(\tfrac{p(y)}{q(y)}\Big)^{\alpha-1}\Big],\ "
                  r"D_1=\mathrm{KL}(P\|Q),\ D_\infty=\log\max_{p(y)>0}\tfrac{p(y)}{q(y)}",
        params=[*_PAIR, Param("alpha", "real", lo=Fraction(1), example="2", allow_inf=True,
                              doc="order alpha >= 1 or inf (1 gives the KL divergence, "
                                  "inf the max-divergence)")],
        precondition=same_length, exact_inputs=True,
        prepare=lambda values, where: {"mass_defect": sum(values["P"], Fraction(0)) - 1},
        notes="+inf when P is not absolutely continuous with respect to Q. alpha = inf "
              "(passed as float('inf') or \"inf\"; this parameter alone opts in) is the "
              "limit alpha -> inf, the max-divergence.")
def renyi(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], alpha: Fraction | float,
          mass_defect: Fraction) -> MPF:
    """Rényi divergence ``D_alpha(P || Q)`` of order ``alpha >= 1`` or ``inf`` (``1``: KL).

    RSWR23 §2.1 (unnumbered definition).  ``+inf`` when some outcome has ``p > 0 = q``.
    Domain: ``P``, ``Q`` probability vectors of equal length, ``alpha >= 1`` or
    ``alpha = inf`` (``float("inf")``, ``mpmath.inf`` or the string ``"inf"``).  Order
    ``inf`` is the limit ``alpha -> inf`` (defined by continuity, as in Mironov 2017):
    the max-divergence ``log max_{p(y) > 0} p(y)/q(y)``, also ``+inf`` when some
    ``p(y) > 0 = q(y)``; ``D_alpha`` increases to it.

    The inputs are used exactly: each ratio ``p/q`` is formed as a fraction (``p = q`` gives
    the loss 0 exactly) and ``alpha - 1`` multiplies the losses with ``log2(alpha - 1)``
    guard bits, so huge orders keep their accuracy (``P = Q`` with masses 1e-300 at
    ``alpha = 1e300`` is 0, not the logarithm of an enclosure reaching below -1).

    >>> from mpmath import nstr
    >>> print(nstr(renyi(P="0.5,0.5", Q="0.25,0.75", alpha=2), 40))  # log(1/4/(1/4) + 1/4/(3/4))
    0.2876820724517809274392190059938274315035
    >>> print(nstr(renyi(P="0.5,0.5", Q="0.25,0.75", alpha=1), 40))  # (log 2 + log(2/3))/2
    0.1438410362258904637196095029969137157518
    >>> print(nstr(renyi(P="0.5,0.5", Q="0.25,0.75", alpha="inf"), 40))  # log((1/2)/(1/4))
    0.6931471805599453094172321214581765680755
    """
    if any(p and not q for p, q in zip(P, Q, strict=True)):
        return ctx.inf
    ratios = [(p, p / q) for p, q in zip(P, Q, strict=True) if p]
    if isinstance(alpha, float):  # alpha = inf (Param(allow_inf=True) gives math.inf)
        return log(ctx, to_ctx(ctx, max(r for _, r in ratios)))  # log max_{p > 0} p/q
    if alpha == 1:
        return ctx.fsum(to_ctx(ctx, p) * log(ctx, to_ctx(ctx, r)) for p, r in ratios if r != 1)
    guard = 20 + max(0, binary_order(alpha - 1))
    with extra_bits(ctx, guard):
        a = to_ctx(ctx, alpha - 1)
        # sum_y p (p/q)^a = sum p + sum p expm1(a L): log1p keeps accuracy as alpha -> 1.
        excess = ctx.fsum(to_ctx(ctx, p) * expm1(ctx, a * log(ctx, to_ctx(ctx, r)))
                          for p, r in ratios if r != 1)
        return log1p(ctx, to_ctx(ctx, mass_defect) + excess) / a


__all__ = ["FinitePair", "LossDistribution", "hockey_stick", "hockey_stick_divergence",
           "is_zero", "loss_atoms", "privacy_loss_distribution", "renyi", "renyi_divergence",
           "same_length"]
