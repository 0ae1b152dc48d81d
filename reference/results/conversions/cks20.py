"""zCDP -> (eps, delta)-DP at the optimal Rényi order (Canonne–Kamath–Steinke 2020).

CKS20 §2.3 (arXiv 2004.00010, Proposition 12 and Corollary 13): a rho-zCDP mechanism is
(eps, delta)-DP with, for every order ``a > 1``,

    delta = exp((a-1)(a rho - eps)) / (a-1) * (1 - 1/a)^a,

equivalently (solving for eps) ``eps = a rho + ln(1 - 1/a) - (ln delta + ln a)/(a - 1)``.
The same bound is Balle et al. (2020) Thm 21 / Asoodeh et al.; dp-accounting evaluates it
on a fixed order grid, OpenDP and autodp minimise it numerically.

The optimal orders are roots of increasing functions, so they are bracketed by certified
safeguarded regula falsi (:mod:`._roots`) and the bound is evaluated on the bracket: the
enclosure then contains the exact infimum over all orders.

* eps form: ``d/da eps_a = rho + ln(delta a)/(a-1)^2`` (derivation in ``docs/conversions.md``),
  so the optimal order is the unique root of ``(a-1)^2 rho + ln a = ln(1/delta)`` — the
  first-order condition of the infimum over orders in CKS20 Corollary 13, confirmed
  (no erratum).
* delta form: ``d/da ln delta_a = (2a-1) rho - eps + ln(1 - 1/a)``, the sign test of the
  authors' code (IBM discrete-gaussian ``cdp2adp.cdp_delta``) and of OpenDP.

Both are written in ``t = a - 1 > 0`` so orders close to 1 keep full relative precision.
"""

from __future__ import annotations

import mpmath

from reference.core.model import result
from reference.core.numeric import MPF, Ctx, endpoints, log1p, pos_part
from reference.core.params import nonneg, positive, unit_open
from reference.core.roots import bracket

_STATEMENT = (r"\rho\text{-zCDP}\Rightarrow(\varepsilon,\delta)\text{-DP},\ \varepsilon="
              r"\inf_{a>1}\Big[a\rho+\ln(1-\tfrac1a)-\tfrac{\ln\delta+\ln a}{a-1}\Big]_+")


def _is_zero(x: MPF) -> bool:
    return bool(endpoints(x).hi <= 0)


def _eps_order_gap(ctx: Ctx, t: MPF, rho: MPF, log_inv: MPF) -> MPF:
    """``(a-1)^2 rho + ln a - ln(1/delta)`` at ``a = 1 + t``: increasing in ``t``."""
    return t * t * rho + log1p(ctx, t) - log_inv


def _eps_order_t(ctx: Ctx, rho: MPF, delta: MPF) -> MPF:
    """``t* = a* - 1`` for the eps form (bracket in ``iv``), ``rho > 0``."""
    log_inv = -ctx.log(delta)
    ratio = endpoints(log_inv).hi / endpoints(rho).lo
    hi = min(max(mpmath.mpf(1), ratio), endpoints(1 / delta).hi)  # h > 0 there (see notes)
    return bracket(ctx, lambda c, t: _eps_order_gap(c, t, rho, log_inv), ctx.zero, ctx.mpf(hi))


def _eps_at(ctx: Ctx, t: MPF, rho: MPF, delta: MPF) -> MPF:
    """``a rho + ln(1 - 1/a) - (ln delta + ln a)/(a-1)`` at ``a = 1 + t``."""
    a = 1 + t
    return a * rho + ctx.log(t / a) - (ctx.log(delta) + log1p(ctx, t)) / t


@result("CKS20:Cor13", title="zCDP to (eps, delta)-DP at the optimal order (CKS20)",
        kind="conversion", statement=_STATEMENT,
        params=[nonneg("rho", "1.3527", "zCDP level"),
                unit_open("delta", "1e-6", "target delta")],
        notes="Optimal order = root of (a-1)^2 rho + ln a = ln(1/delta) (derivative of the "
              "objective; checked). Negative infima are reported as 0 (then (0, delta) "
              "holds).")
def cks_epsilon(ctx: Ctx, rho: MPF, delta: MPF) -> MPF:
    """Smallest eps that CKS20 Cor. 13 gives for a rho-zCDP mechanism at ``delta``.

    Canonne–Kamath–Steinke (2020) Proposition 12 / Corollary 13 solved for eps and
    minimised over the order: ``inf_{a>1} a rho + ln(1-1/a) - (ln delta + ln a)/(a-1)``,
    at the root ``a*`` of ``(a-1)^2 rho + ln a = ln(1/delta)``; ``rho = 0`` gives 0.
    Domain: ``rho >= 0``, ``delta in (0, 1)``.

    Computed with mpmath at 50 digits (OpenDP and autodp agree): 9.265762734 for ``(1.3527, 1e-6)``:

    >>> print(mpmath.nstr(cks_epsilon(rho="1.3527", delta="1e-6"), 10))
    9.265762734
    """
    if _is_zero(rho):
        return ctx.zero
    t = _eps_order_t(ctx, rho, delta)
    return pos_part(ctx, _eps_at(ctx, t, rho, delta))


@result("CKS20:Cor13-order", title="Optimal Rényi order of the CKS20 conversion",
        kind="conversion",
        statement=r"a^\star:\ (a^\star-1)^2\rho+\ln a^\star=\ln(1/\delta)",
        params=[positive("rho", "1", "zCDP level"), unit_open("delta", "1e-6", "target delta")])
def cks_order(ctx: Ctx, rho: MPF, delta: MPF) -> MPF:
    """The order ``a* > 1`` at which CKS20's eps is smallest (for :func:`cks_epsilon`).

    Root of ``(a-1)^2 rho + ln a = ln(1/delta)`` (CKS20 Cor. 13, derivative set to 0).
    Domain: ``rho > 0``, ``delta in (0, 1)``.  The optimal order is 4.51 at ``(1, 1e-6)``.

    >>> print(mpmath.nstr(cks_order(rho=1, delta="1e-6"), 3))
    4.51
    """
    return 1 + _eps_order_t(ctx, rho, delta)


def _delta_order_gap(ctx: Ctx, t: MPF, rho: MPF, eps: MPF) -> MPF:
    """``(2a-1) rho - eps + ln(1 - 1/a)`` at ``a = 1 + t``: increasing in ``t``."""
    return (1 + 2 * t) * rho - eps + ctx.log(t / (1 + t))


@result("CKS20:Cor13-delta", title="zCDP to delta(eps) at the optimal order (CKS20)",
        kind="conversion",
        statement=r"\delta(\varepsilon)=\min\Big\{1,\inf_{a>1}\frac{e^{(a-1)(a\rho-\varepsilon)}}"
                  r"{a-1}\big(1-\tfrac1a\big)^a\Big\}",
        params=[nonneg("rho", "1", "zCDP level"), nonneg("eps", "7.766", "target epsilon")])
def cks_delta(ctx: Ctx, rho: MPF, eps: MPF) -> MPF:
    """Smallest delta that CKS20 Cor. 13 gives for a rho-zCDP mechanism at ``eps``.

    ``inf_{a>1} exp((a-1)(a rho - eps)) (1-1/a)^a / (a-1)`` (capped at 1), at the root of
    ``(2a-1) rho - eps + ln(1-1/a) = 0`` (the form OpenDP's ``.delta(eps)`` computes).
    ``rho = 0`` gives 0.  Domain: ``rho >= 0``, ``eps >= 0``.

    It inverts :func:`cks_epsilon`: at ``rho = 1`` and eps = 7.766216625 (OpenDP and autodp)
    delta is 1e-6:

    >>> print(mpmath.nstr(cks_delta(rho=1, eps="7.766216625"), 6))
    1.0e-6
    """
    if _is_zero(rho):
        return ctx.zero
    reach = max(mpmath.mpf(1), (endpoints(eps).hi + 1) / (2 * endpoints(rho).lo))
    t = bracket(ctx, lambda c, s: _delta_order_gap(c, s, rho, eps), ctx.zero, ctx.mpf(reach))
    a = 1 + t
    log_delta = t * (a * rho - eps) + a * ctx.log(t / a) - ctx.log(t)
    value = ctx.exp(log_delta)
    if endpoints(value).lo >= 1:
        return ctx.one
    if endpoints(value).hi <= 1:
        return value
    return ctx.mpf((endpoints(value).lo, mpmath.mpf(1)))
