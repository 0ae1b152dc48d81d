"""Basic and advanced composition of (eps, delta)-DP mechanisms.

Sources: RRUV16 Thm 2.9, Thm 2.10 and footnote 2; the lecture notes on
advanced composition (LEC11) N5/N22.  The exact optimal composition they are
held against, and the errata of the notes, are in :mod:`reference.results.composition.kov15`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import mpmath  # noqa: F401  (used by the doctests)

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, expm1, log
from reference.core.params import count, nonneg, nonneg_seq, unit_closed_open, unit_open, unit_seq


class DPGuarantee(NamedTuple):
    """An (eps, delta)-DP guarantee."""

    eps: MPF
    delta: MPF


def _same_length(eps_name: str, delta_name: str) -> Callable[[Mapping[str, Any], str], None]:
    def check(values: Mapping[str, Any], where: str) -> None:
        deltas = values[delta_name]
        if deltas and len(deltas) != len(values[eps_name]):
            raise DomainError(delta_name, len(deltas),
                              f"must have as many entries as {eps_name} "
                              f"({len(values[eps_name])}) or be omitted", where)
    return check


def _tanh_half(ctx: Ctx, x: MPF) -> MPF:
    """``tanh(x/2) = (e^x - 1)/(e^x + 1)``, written without overflow for large ``x``."""
    down = expm1(ctx, -x)
    return -down / (2 + down)


@result("RRUV16:Thm2.9", title="Basic composition", kind="composition",
        statement=r"\varepsilon_g=\textstyle\sum_{i=1}^k\varepsilon_i,\quad "
                  r"\delta_g=\sum_{i=1}^k\delta_i",
        params=[nonneg_seq("eps", "0.1,0.2", "epsilons of the k mechanisms"),
                unit_seq("delta", "0,0", "deltas of the k mechanisms (omit for pure DP)",
                         default=())],
        precondition=_same_length("eps", "delta"))
def basic_composition(ctx: Ctx, eps: list[MPF], delta: list[MPF]) -> DPGuarantee:
    """Adaptive composition of (eps_i, delta_i)-DP mechanisms is (sum eps_i, sum delta_i)-DP.

    RRUV16 Theorem 2.9 (Dwork et al. 2006; Dwork–Lei 2009); LEC11 N4.  Domain:
    ``eps_i >= 0``, ``delta_i in [0, 1)``, equal lengths (``delta`` may be omitted).

    >>> g = basic_composition(eps="0.1,0.2,0.3", delta="1e-6,0,1e-6")
    >>> print(mpmath.nstr(g.eps, 30), mpmath.nstr(g.delta, 30))
    0.6 0.000002
    """
    return DPGuarantee(ctx.fsum(eps), ctx.fsum(delta) if delta else ctx.zero)


@result("RRUV16:Thm2.10", title="Advanced composition (Dwork–Rothblum–Vadhan form)",
        kind="composition",
        statement=r"\varepsilon_g=\varepsilon(e^\varepsilon-1)k+\varepsilon\sqrt{2k\log"
                  r"(1/\hat\delta)},\quad\delta_g=k\delta+\hat\delta",
        params=[nonneg("eps", "0.1", "epsilon of each mechanism"),
                count("k", "100", "number of mechanisms"),
                unit_open("delta_hat", "1e-5", "slack hat-delta of the concentration step"),
                unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
        probabilistic=True,
        notes="As printed (Dwork–Rothblum–Vadhan 2010). The mean term eps(e^eps-1) is "
              "looser than eps*tanh(eps/2) of LEC11:AdvComp; either may exceed basic "
              "composition k*eps (e.g. k=1), and the valid guarantee is the smaller one.",
        balls=True)
def advanced_composition(ctx: Ctx, eps: MPF, k: int, delta_hat: MPF, delta: MPF,
                         ) -> DPGuarantee:
    """k-fold adaptive composition of (eps, delta)-DP is (eps_g, k delta + delta_hat)-DP.

    RRUV16 Theorem 2.10 (Dwork–Rothblum–Vadhan 2010), with
    ``eps_g = eps (e^eps - 1) k + eps sqrt(2 k log(1/delta_hat))``.  Domain:
    ``eps >= 0``, integer ``k >= 1``, ``delta_hat in (0, 1)``, ``delta in [0, 1)``.

    >>> g = advanced_composition(eps="0.1", k=100, delta_hat="1e-5")
    >>> print(mpmath.nstr(g.eps, 15), g.delta)  # 10 (e^0.1 - 1) + sqrt(200 ln 1e5)/10
    5.85023509294456 1.0e-5
    """
    eps_g = eps * expm1(ctx, eps) * k + eps * ctx.sqrt(2 * k * log(ctx, 1 / delta_hat))
    return DPGuarantee(eps_g, k * delta + delta_hat)


@result("RRUV16:fn2-advanced", title="Advanced composition, heterogeneous fixed parameters",
        kind="composition",
        statement=r"\varepsilon_g=\textstyle\sum_i\varepsilon_i(e^{\varepsilon_i}-1)+"
                  r"\sqrt{2\sum_i\varepsilon_i^2\log(1/\hat\delta)},\quad"
                  r"\delta_g=\sum_i\delta_i+\hat\delta",
        params=[nonneg_seq("eps", "0.1,0.2", "epsilons of the k mechanisms (fixed in advance)"),
                unit_open("delta_hat", "1e-5", "slack hat-delta of the concentration step"),
                unit_seq("delta", "0,0", "deltas of the k mechanisms (omit for pure DP)",
                         default=())],
        status="reconstructed", probabilistic=True,
        precondition=_same_length("eps", "delta"),
        notes="Footnote 2 states only that eps*sqrt(k) becomes sqrt(sum eps_i^2); the mean "
              "term sum eps_i(e^eps_i - 1) is the natural generalisation of Thm 2.10 (the "
              "Azuma step with per-round range eps_i and mean <= eps_i(e^eps_i - 1)). "
              "Checked against exact enumeration of heterogeneous randomized response.", balls=True)
def advanced_composition_heterogeneous(ctx: Ctx, eps: list[MPF], delta_hat: MPF,
                                       delta: list[MPF]) -> DPGuarantee:
    """Composition of (eps_i, delta_i)-DP with parameters fixed in advance.

    RRUV16 footnote 2 applied to Thm 2.10:
    ``eps_g = sum eps_i (e^eps_i - 1) + sqrt(2 sum eps_i^2 log(1/delta_hat))``,
    ``delta_g = sum delta_i + delta_hat``.  Domain: ``eps_i >= 0``,
    ``delta_hat in (0, 1)``, ``delta_i in [0, 1)`` (equal lengths, or omitted).

    Proof note.  The footnote says only that ``eps sqrt(k)`` becomes
    ``sqrt(sum eps_i^2)`` for heterogeneous parameters fixed in advance; the mean term is
    reconstructed.  The proof of Thm 2.10 runs per round: except with probability
    ``delta_i`` (simulation lemma, union bound: ``sum delta_i``) round ``i``'s privacy loss
    lies in ``[-eps_i, eps_i]`` with conditional mean at most ``eps_i (e^eps_i - 1)``.
    Azuma–Hoeffding with per-round ranges ``2 eps_i`` gives
    ``P[sum (L_i - mu_i) > t] <= exp(-t^2/(2 sum eps_i^2))``, equal to ``delta_hat`` at
    ``t = sqrt(2 sum eps_i^2 log(1/delta_hat))``; adding the means gives ``eps_g``.  Equal
    ``eps_i`` give Thm 2.10 exactly; the property tests compare with exact enumeration of
    heterogeneous randomized response.

    Equal epsilons reduce to Thm 2.10:

    >>> g = advanced_composition_heterogeneous(eps=["0.1"] * 100, delta_hat="1e-5")
    >>> print(mpmath.nstr(g.eps, 15))  # 10 (e^0.1 - 1) + sqrt(200 ln 1e5)/10 = 5.8502350929...
    5.85023509294456
    """
    mean = ctx.fsum(e * expm1(ctx, e) for e in eps)
    spread = ctx.sqrt(2 * ctx.fsum(e * e for e in eps) * log(ctx, 1 / delta_hat))
    return DPGuarantee(mean + spread, (ctx.fsum(delta) if delta else ctx.zero) + delta_hat)
