"""Zero-concentrated DP: Laplace and Gaussian mechanisms, zCDP <-> DP, zCDP composition.

Source: RSWR23 §2 and §7; the results there are cited to Dwork et al. and
Bun–Steinke (2016).  Units: a Gaussian of standard deviation ``sigma`` on a
sensitivity-``Delta`` statistic is ``Delta**2 / (2 sigma**2)``-zCDP.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, NamedTuple

from reference.core.errors import DomainError
from reference.core.model import inverse, result
from reference.core.numeric import MPF, Ctx, log
from reference.core.params import (
    Param,
    nonneg,
    nonneg_seq,
    positive,
    unit_closed_open,
    unit_open,
    unit_seq,
)


class ZCDP(NamedTuple):
    """A delta-approximate rho-zCDP guarantee."""

    rho: MPF
    delta: MPF


class DoublingBound(NamedTuple):
    """Worst-case overshoot ``eps_final / eps_star`` and spend ``sum eps_i^2 / eps_star^2``."""

    overshoot: MPF
    spend: MPF


@result("RSWR23:Lem2.1", title="Laplace mechanism privacy", kind="bound",
        statement=r"M(x)=f(x)+\mathrm{Lap}(1/\varepsilon)^d \text{ is } "
                  r"\Delta_1(f)\,\varepsilon\text{-DP}",
        params=[positive("eps", "0.5", "inverse Laplace scale"),
                nonneg("sensitivity", "1", "l1 sensitivity Delta_1(f)", default="1")])
def laplace_epsilon(ctx: Ctx, eps: MPF, sensitivity: MPF) -> MPF:
    """Privacy of the Laplace mechanism with scale ``1/eps``: ``Delta_1 * eps`` (pure DP).

    RSWR23 Lemma 2.1 (Dwork et al. 2006).  Domain: ``eps > 0``, ``sensitivity >= 0``.

    >>> laplace_epsilon(eps="0.5", sensitivity=3)
    mpf('1.5')
    """
    return sensitivity * eps


@result("RSWR23:Lem2.2", title="Gaussian mechanism zCDP", kind="bound",
        statement=r"M(x)=N(f(x),\rho^{-1}I_d) \text{ is } \Delta_2(f)^2\rho/2\text{-zCDP}",
        params=[positive("rho", "1", "precision of the noise (variance 1/rho), Def 2.5"),
                nonneg("sensitivity", "1", "l2 sensitivity Delta_2(f)", default="1")],
        notes="rho here is the *precision* of Definition 2.5, not a zCDP level.")
def gaussian_zcdp(ctx: Ctx, rho: MPF, sensitivity: MPF) -> MPF:
    """zCDP level ``Delta_2^2 * rho / 2`` of the Gaussian mechanism of precision ``rho``.

    RSWR23 Definition 2.5 and Lemma 2.2 (Bun–Steinke 2016).  The paper uses ``rho`` for
    the precision (variance ``1/rho``) here and for zCDP levels elsewhere: a Gaussian of
    standard deviation ``1/eps`` (precision ``eps**2``) is ``eps**2/2``-zCDP (RSWR23 §7.1).

    >>> gaussian_zcdp(rho="0.01")
    mpf('0.005')
    """
    return sensitivity**2 * rho / 2


@result("RSWR23:Lem2.3-i", title="(eps, delta)-DP implies delta-approximate eps^2/2-zCDP",
        kind="conversion",
        statement=r"(\varepsilon,\delta)\text{-DP} \Rightarrow \delta\text{-approximate }"
                  r"\tfrac{\varepsilon^2}{2}\text{-zCDP}",
        params=[nonneg("eps", "1"), unit_closed_open("delta", "1e-6", default="0")])
def dp_to_zcdp(ctx: Ctx, eps: MPF, delta: MPF) -> ZCDP:
    """The zCDP guarantee of an (eps, delta)-DP mechanism: ``(eps**2/2, delta)``.

    RSWR23 Lemma 2.3 (i) (Bun–Steinke 2016, Prop. 3.3).  Domain: ``eps >= 0``,
    ``delta in [0, 1)``.

    >>> dp_to_zcdp(eps=1)
    ZCDP(rho=mpf('0.5'), delta=mpf('0.0'))
    """
    return ZCDP(eps**2 / 2, delta)


@result("RSWR23:Lem2.3", title="zCDP to (eps, delta)-DP", kind="conversion",
        statement=r"\delta\text{-approx. }\rho\text{-zCDP} \Rightarrow "
                  r"\big(\rho+2\sqrt{\rho\log(1/\delta'')},\ \delta+\delta''\big)\text{-DP}",
        params=[nonneg("rho", "1.3527", "zCDP level"),
                unit_open("delta", "1e-6", "the conversion's slack delta'' (the DP delta "
                          "for pure zCDP)")],
        probabilistic=True, balls=True)
def zcdp_to_dp(ctx: Ctx, rho: MPF, delta: MPF) -> MPF:
    """The epsilon ``rho + 2 sqrt(rho log(1/delta))`` of a rho-zCDP mechanism at delta.

    RSWR23 Lemma 2.3 (ii) (Bun–Steinke 2016, Prop. 1.3).  For a delta0-approximate zCDP
    mechanism the DP delta is ``delta0 + delta``; ``delta`` here is the paper's delta''.
    Domain: ``rho >= 0``, ``delta in (0, 1)``.

    >>> import math
    >>> from reference import certified
    >>> enc = certified(zcdp_to_dp, rho="1.3527", delta="1e-6")
    >>> float_route = 1.3527 + 2 * math.sqrt(1.3527 * math.log(1e6))   # double precision
    >>> abs(float(enc.lo) - float_route) < 1e-12, float(enc.hi - enc.lo) < 1e-45
    (True, True)
    >>> print(enc)
    [9.9986796742204463, 9.9986796742204463]
    """
    return rho + 2 * ctx.sqrt(rho * log(ctx, 1 / delta))


@inverse("RSWR23:Lem2.3-inverse", title="zCDP budget for a target (eps, delta)",
         statement=r"\rho^\star(\varepsilon,\delta'')=\big(\sqrt{\log(1/\delta'')+\varepsilon}"
                   r"-\sqrt{\log(1/\delta'')}\big)^2",
         params=[nonneg("eps", "10", "target epsilon"),
                 unit_open("delta", "1e-6", "the conversion's slack delta''")],
         forward=zcdp_to_dp, unknown="rho", target="eps", increasing=True)
def zcdp_budget(ctx: Ctx, eps: MPF, delta: MPF) -> MPF:
    """Largest rho whose Lemma 2.3 conversion gives at most ``eps`` at ``delta``.

    RSWR23 §0 / Lemma 2.3 (ii) solved for rho:
    ``(sqrt(log(1/delta) + eps) - sqrt(log(1/delta)))**2``, returned with a certificate.
    RSWR23 §7.2 uses 1.353015 for ``(10, 1e-6)``, recomputed here with mpmath at 50 digits.

    >>> cert = zcdp_budget(eps=10, delta="1e-6")
    >>> print(cert.value)
    1.35301...
    >>> cert.holds
    True
    """
    log_term = log(ctx, 1 / delta)
    # eps / (sqrt(L + eps) + sqrt(L)) avoids the cancellation of the printed difference.
    return (eps / (ctx.sqrt(log_term + eps) + ctx.sqrt(log_term)))**2


def _same_length(rho_name: str, delta_name: str) -> Callable[[Mapping[str, Any], str], None]:
    def check(values: Mapping[str, Any], where: str) -> None:
        deltas = values[delta_name]
        if deltas and len(deltas) != len(values[rho_name]):
            raise DomainError(delta_name, len(deltas),
                              f"must have as many entries as {rho_name} "
                              f"({len(values[rho_name])}) or be omitted", where)
    return check


@result("RSWR23:Lem2.4", title="Adaptive composition of approximate zCDP", kind="composition",
        statement=r"(\rho_i,\delta_i)_{i} \Rightarrow (\textstyle\sum_i\rho_i,\ \sum_i\delta_i)",
        params=[nonneg_seq("rho", "0.1,0.2", "zCDP levels"),
                unit_seq("delta", "0,0", "approximation deltas (omit for pure zCDP)",
                         default=())],
        precondition=_same_length("rho", "delta"))
def compose_zcdp(ctx: Ctx, rho: list[MPF], delta: list[MPF]) -> ZCDP:
    """Adaptive composition of delta_i-approximate rho_i-zCDP mechanisms: the sums.

    RSWR23 Lemma 2.4 (Bun–Steinke 2016, Lemma 2.3), applied round by round.
    Domain: ``rho_i >= 0``, ``delta_i in [0, 1)``, equal lengths.

    >>> compose_zcdp(rho="0.1,0.2", delta="0.001,0.002")
    ZCDP(rho=mpf('0.3'), delta=mpf('0.003'))
    """
    return ZCDP(ctx.fsum(rho), ctx.fsum(delta) if delta else ctx.zero)


@result("RSWR23:Sec7.2-EM", title="Exponential mechanism is eps^2/8-zCDP", kind="bound",
        statement=r"\text{EM (Gumbel scale }1/\varepsilon\text{, monotone sensitivity-1 "
                  r"utilities) is }\varepsilon^2/8\text{-zCDP}",
        params=[nonneg("eps", "0.1", "exponential-mechanism parameter eps_EM")],
        notes="Valid for monotone (add/remove) neighbours, where the mechanism is eps-bounded "
              "range (Cesar–Rogers 2021); not for utilities that move in both directions.")
def exponential_mechanism_zcdp(ctx: Ctx, eps: MPF) -> MPF:
    """zCDP level ``eps**2 / 8`` of the exponential mechanism with parameter ``eps``.

    RSWR23 §7.2, citing Cesar–Rogers (2021): the Gumbel-max exponential mechanism with
    scale ``1/eps`` on sensitivity-1 utilities that all move in one direction between
    neighbours is eps-bounded-range, hence ``eps**2/8``-zCDP (RSWR23 §7.2).

    >>> exponential_mechanism_zcdp(eps="0.1")
    mpf('0.00125')
    """
    return eps**2 / 8


@result("RSWR23:Sec7.1-doubling", title="Doubling method: overshoot and total spend",
        kind="bound",
        statement=r"\varepsilon^{(m)}<r\varepsilon^\star,\quad \textstyle\sum_{i\le m}"
                  r"(\varepsilon^{(i)})^2<\frac{r^4}{r^2-1}(\varepsilon^\star)^2",
        params=[Param("ratio_sq", "real", lo=Fraction(1), lo_open=True, default="2",
                      example="2", doc="r^2, the growth of the squared parameter per step")],
        status="corrected",
        notes="The paper states r = sqrt(2) (spend < 4 eps*^2); the general ratio and the "
              "strictness are derived in the docstring, needing eps^(1) <= eps*.")
def doubling_bound(ctx: Ctx, ratio_sq: MPF) -> DoublingBound:
    """Worst case of the doubling method with squared-parameter ratio ``r**2``.

    RSWR23 §7.1: with ``eps^(i+1) = r eps^(i)`` and the first ``eps^(m) >= eps*``, the
    final parameter is below ``r eps*`` and the squares sum to less than
    ``r**4/(r**2 - 1) eps***2`` (geometric series; needs ``eps^(1) <= eps*``).  At the
    paper's ``r = sqrt(2)`` this is the stated 4 (RSWR23 §7.1).

    Proof note.  With ``eps^(i) = r^(i-1) eps^(1)`` and ``m`` the first index with
    ``eps^(m) >= eps*``: if ``m > 1``, ``eps^(m-1) < eps*`` so ``eps^(m) < r eps*``; if ``m
    = 1`` the assumption ``eps^(1) <= eps*`` gives ``eps^(1) = eps*``. The squares form a
    geometric series, ``sum_{i<=m} (eps^(i))^2 = (eps^(m))^2 sum_{j<m} r^(-2j) <
    (eps^(m))^2 r^2/(r^2 - 1) < r^4/(r^2 - 1) eps*^2``. The paper states only ``r =
    sqrt(2)``, where the bounds are 2 (squared overshoot) and 4.

    >>> bound = doubling_bound()
    >>> print(bound.overshoot, bound.spend)
    1.4142135623731 4.0
    """
    return DoublingBound(ctx.sqrt(ratio_sq), ratio_sq**2 / (ratio_sq - 1))
