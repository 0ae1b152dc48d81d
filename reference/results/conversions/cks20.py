"""zCDP -> (eps, delta)-DP at the optimal Rényi order (Canonne–Kamath–Steinke 2020).

CKS20 §2.3 (arXiv 2004.00010, Proposition 12 and Corollary 13): a rho-zCDP mechanism is
(eps, delta)-DP with, for every order ``a > 1``,

    delta = exp((a-1)(a rho - eps)) / (a-1) * (1 - 1/a)^a,

equivalently (solving for eps) ``eps = a rho + ln(1 - 1/a) - (ln delta + ln a)/(a - 1)``.
The same bound is Balle et al. (2020) Thm 21 / Asoodeh et al.; dp-accounting evaluates it
on a fixed order grid, OpenDP and autodp minimise it numerically.

The optimal orders are roots of increasing functions, so they are bracketed in interval
arithmetic and the bound is evaluated on the bracket: the enclosure then contains the exact
infimum over all orders.  The bracket is first tried around a Newton point (in ``ln t``,
floats then ``mp``, from an upper bound of the root; then in ``t``), by two certified signs
(:func:`reference.core.roots.bracket_near`); where those are not decided, safeguarded
regula falsi brackets the root from the range's ends.

* eps form: ``d/da eps_a = rho + ln(delta a)/(a-1)^2`` (derivation in ``docs/conversions.md``),
  so the optimal order is the unique root of ``(a-1)^2 rho + ln a = ln(1/delta)`` — the
  first-order condition of the infimum over orders in CKS20 Corollary 13, confirmed
  (no erratum).
* delta form: ``d/da ln delta_a = (2a-1) rho - eps + ln(1 - 1/a)``, the sign test of the
  authors' code (IBM discrete-gaussian ``cdp2adp.cdp_delta``) and of OpenDP.  At its root
  ``ln delta = -((a-1)^2 rho + ln a)``, which is evaluated on the bracket: it keeps
  ``1 - delta ~ e^(eps - rho)`` to full relative precision when rho >> eps (the objective
  itself is a difference of terms of size rho there, and ``a - 1`` is below any fixed floor).

Both are written in ``t = a - 1 > 0`` so orders close to 1 keep full relative precision.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import fp, iv, mp

from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    ctx_min,
    endpoints,
    exp,
    extra_bits,
    is_interval,
    log,
    log1p,
    pos_part,
    to_ctx,
)
from reference.core.params import nonneg, positive, unit_open
from reference.core.roots import bracket_near, newton

_STATEMENT = (r"\rho\text{-zCDP}\Rightarrow(\varepsilon,\delta)\text{-DP},\ \varepsilon="
              r"\inf_{a>1}\Big[a\rho+\ln(1-\tfrac1a)-\tfrac{\ln\delta+\ln a}{a-1}\Big]_+")


@dataclass(frozen=True)
class _Exact:
    """An exact input kept out of the lifting to the context (``prepare`` hands it over;
    a Fraction or a tuple of them would be lifted): the formula forms ``1 - delta``
    exactly."""

    value: Fraction


def _is_zero(x: MPF) -> bool:
    return bool(endpoints(x).hi <= 0)


def _eps_order_gap(ctx: Ctx, t: MPF, rho: MPF, log_inv: MPF) -> MPF:
    """``(a-1)^2 rho + ln a - ln(1/delta)`` at ``a = 1 + t``: increasing in ``t``."""
    return t * t * rho + log1p(ctx, t) - log_inv


def _log_inv(ctx: Ctx, delta: Fraction) -> MPF:
    """``ln(1/delta)`` from the exact delta: ``-log1p(-(1 - delta))`` near 1, so that
    ``delta = 1 - 1e-300`` keeps ``ln(1/delta) = 1e-300`` (lifting delta first rounds it
    to 1 and the log to an enclosure of 0)."""
    if delta < Fraction(1, 2):
        return -log(ctx, to_ctx(ctx, delta))
    return -log1p(ctx, -to_ctx(ctx, 1 - delta))


def _guess(gap: Callable[[Ctx, MPF, MPF, MPF], MPF], slope: Callable[[MPF, MPF, MPF], MPF],
           p: MPF, q: MPF, lo: MPF, hi: MPF, start: MPF, spread: int = 0) -> MPF | None:
    """The solver's point for the order gap ``gap(ctx, t, p, q)`` (untrusted:
    :func:`bracket_near` decides the signs around it): Newton in ``y = ln t`` from ``ln t =
    start`` (the root spans orders of magnitude: ``e^(eps - rho)``, ``sqrt(L / rho)``), in
    floats where the numbers are floats, then in ``t`` itself in ``mp``, since ``|y|`` ulps
    of ``y`` are as many relative ulps of ``t`` (``2^10`` at ``t = e^-900``); ``spread``
    as in :func:`newton`."""
    def in_y(c: Ctx, pc: MPF, qc: MPF) -> tuple[Any, Any]:
        return (lambda _, v: gap(c, exp(c, v), pc, qc),
                lambda _, v: exp(c, v) * slope(exp(c, v), pc, qc))

    y = None
    with contextlib.suppress(ArithmeticError, ValueError):  # out of float range
        floats = [float(v) for v in (p, q, lo, hi, start)]
        if all(math.isfinite(v) for v in floats):  # (a 0 lower end: ValueError in log)
            y = newton(fp, *in_y(fp, floats[0], floats[1]), fp.log(floats[2]),
                       fp.log(floats[3]), floats[4], absolute=True, spread=spread)
    if y is None:
        y = newton(mp, *in_y(mp, p, q), mp.log(lo), mp.log(hi), start, absolute=True,
                   spread=spread)
    return None if y is None else newton(mp, lambda c, v: gap(c, v, p, q),
                                         lambda c, v: slope(v, p, q), lo, hi, mp.exp(y),
                                         spread=spread)


def _eps_order_t(ctx: Ctx, rho: MPF, delta: Fraction, log_inv: MPF) -> MPF:
    """``t* = a* - 1`` for the eps form (bracket in ``iv``), ``rho > 0``.

    Left end ``t0/2``, ``t0 = 2L/(1 + sqrt(1 + 4 rho L))`` the root of ``t^2 rho + t = L``
    (``L = ln(1/delta)``, taken low, rho high): ``ln(1+t) <= t`` puts the gap below
    ``rho t0^2/4 + t0/2 - L < 0`` there.  Right end ``min(max(1, L/rho), 2/delta)``: the gap
    is at least ``ln 2`` there (``2/delta`` gives ``ln(1 + 2/delta) - L > ln 2``; ``1/delta``
    left only ``ln(1 + delta) ~ delta``, which tiny rho and delta = 1.8e-59 could not certify:
    RuntimeError).  The root is bracketed
    in ``u = t/s`` with ``s`` the lower end of L: ``t*`` is about L when ``delta -> 1``
    (1e-300 at ``delta = 1 - 1e-300``), below the absolute floor (``mp.eps``) with which
    :func:`reference.core.roots.bracket` closes an undecided step, which left a bracket a
    factor 2 wide; in u the root is of order 1 there.
    """
    ell, r = endpoints(log_inv), endpoints(rho)
    hi = min(max(mpmath.mpf(1), ell.hi / r.lo), endpoints(2 / to_ctx(ctx, delta)).hi)
    lo = ell.lo / (1 + mpmath.sqrt(1 + 4 * r.hi * ell.lo))
    s = ctx.mpf(ell.lo)  # an exact point in both contexts
    r_mid, l_mid = mpmath.mpf(r.mid), mpmath.mpf(ell.mid)
    # the solver's guess, from above: t^2 rho = L and ln(1 + t) = L bound t* above, and the
    # gap is convex in ln t, so Newton steps from there do not overshoot
    t = _guess(_eps_order_gap, lambda v, r, _: 2 * v * r + 1 / (1 + v), r_mid, l_mid, lo, hi,
               min(mpmath.log(l_mid / r_mid) / 2, mpmath.log(mpmath.expm1(l_mid))))
    u_lo, u_hi = lo / ell.lo, hi / ell.lo
    u = bracket_near(ctx, lambda c, v: _eps_order_gap(c, s * v, rho, log_inv), ctx.mpf(u_lo),
                     ctx.mpf(u_hi), None if t is None else t / ell.lo)
    return s * u


def eps_at_order(ctx: Ctx, t: MPF, rho: MPF, log_inv: MPF) -> MPF:
    """``a rho + ln(1 - 1/a) - (ln delta + ln a)/(a-1)`` at ``a = 1 + t``.

    ``ln(1 - 1/a) = -ln(1 + 1/t)``: ``ln(t/a)`` rounds ``t/a`` to 1 for huge ``t`` (tiny rho,
    ``t* ~ sqrt(ln(1/delta)/rho)``), which lost the whole value ``~ 2 sqrt(rho ln(1/delta))``
    (an enclosure [0, 4e-59] at rho = delta = 5e-324)."""
    return (1 + t) * rho - log1p(ctx, 1 / t) + (log_inv - log1p(ctx, t)) / t


@result("CKS20:Cor13", title="zCDP to (eps, delta)-DP at the optimal order (CKS20)",
        kind="conversion", statement=_STATEMENT,
        params=[nonneg("rho", "1.3527", "zCDP level"),
                unit_open("delta", "1e-6", "target delta")],
        prepare=lambda values, where: {"delta": _Exact(values["delta"])},
        notes="Optimal order = root of (a-1)^2 rho + ln a = ln(1/delta) (derivative of the "
              "objective; checked). Negative infima are reported as 0 (then (0, delta) "
              "holds).")
def cks_epsilon(ctx: Ctx, rho: MPF, delta: _Exact) -> MPF:
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
    log_inv = _log_inv(ctx, delta.value)
    t = _eps_order_t(ctx, rho, delta.value, log_inv)
    return pos_part(ctx, eps_at_order(ctx, t, rho, log_inv))


@result("CKS20:Cor13-order", title="Optimal Rényi order of the CKS20 conversion",
        kind="conversion",
        statement=r"a^\star:\ (a^\star-1)^2\rho+\ln a^\star=\ln(1/\delta)",
        params=[positive("rho", "1", "zCDP level"), unit_open("delta", "1e-6", "target delta")],
        prepare=lambda values, where: {"delta": _Exact(values["delta"])})
def cks_order(ctx: Ctx, rho: MPF, delta: _Exact) -> MPF:
    """The order ``a* > 1`` at which CKS20's eps is smallest (for :func:`cks_epsilon`).

    Root of ``(a-1)^2 rho + ln a = ln(1/delta)`` (CKS20 Cor. 13, derivative set to 0).
    Domain: ``rho > 0``, ``delta in (0, 1)``.  The optimal order is 4.51 at ``(1, 1e-6)``.

    >>> print(mpmath.nstr(cks_order(rho=1, delta="1e-6"), 3))
    4.51
    """
    return 1 + _eps_order_t(ctx, rho, delta.value, _log_inv(ctx, delta.value))


def _delta_order_gap(ctx: Ctx, t: MPF, rho: MPF, eps: MPF) -> MPF:
    """``(2a-1) rho - eps + ln(1 - 1/a)`` at ``a = 1 + t``: increasing in ``t``.

    ``ln(1 - 1/a) = -ln(1 + 1/t)`` keeps its relative precision for huge ``t`` too (small
    rho and eps, where ``ln(t/(1+t))`` would round to 0 and the root would be lost)."""
    return (1 + 2 * t) * rho - eps - log1p(ctx, 1 / t)


def _delta_order_t(ctx: Ctx, rho: MPF, eps: MPF) -> MPF:
    """``t* = a* - 1`` for the delta form (bracket in ``iv``), ``rho > 0``.

    Left end ``e^u`` with ``u = min(-1, eps - rho - 2, -ln rho - 1)``: there ``rho e^u <= 1/e``
    and the gap is at most ``rho + 2 rho e^u - eps + u <= 2/e - 2 < 0``.  (The root is about
    ``e^(eps - rho)``, below any fixed floor when rho is large: from 0, bisection could not
    reach it.)  Right end ``e^(eps - rho + 1)`` when that is at most 1: for ``t <= 1`` the gap
    is at least ``rho - eps + ln t - ln 2``, positive there (so the bracket spans a factor
    ``e^3`` however large rho is); otherwise ``max(1, (eps + 1) / (2 rho))``: there
    ``2 t rho >= eps + 1`` and ``t >= 1``, so the gap is at least ``rho + 1 - ln 2 > 0``.
    """
    r, e = endpoints(rho), endpoints(eps)
    u = min(mpmath.mpf(-1), e.lo - r.hi - 2, -mpmath.log(r.hi) - 1)
    lo = mpmath.exp(u)
    near = e.hi - r.lo + 1
    reach = mpmath.exp(near) if near <= 0 else max(mpmath.mpf(1), (e.hi + 1) / (2 * r.lo))
    # the solver's guess from an upper bound of t*, with d = eps - rho: the gap is at least
    # (1 + 2t) rho - eps - 1/t, positive above the root t_up of 2 rho t^2 - d t - 1 (both
    # forms of that root, the one without cancellation).  Where t* ~ e^d is far below it
    # (rho >> eps), the gap is nearly linear in ln t and Newton gets there in a step or two.
    r_mid, e_mid = mpmath.mpf(r.mid), mpmath.mpf(e.mid)
    d = e_mid - r_mid
    root = mpmath.sqrt(d * d + 8 * r_mid)
    t_up = 2 / (root - d) if d < 0 else (d + root) / (4 * r_mid)
    # the gap's terms are of size rho + eps + |ln t| ~ 2 (rho + eps) where it cancels to 0:
    # that many bits of it are noise (cks_delta's guard bits pay for them)
    spread = max(0, int(mpmath.mag(r.hi + e.hi)) + 1)
    guess = _guess(_delta_order_gap, lambda v, r, _: 2 * r + 1 / (v * (1 + v)), r_mid, e_mid,
                   lo, reach, mpmath.log(t_up), spread)
    return bracket_near(ctx, lambda c, s: _delta_order_gap(c, s, rho, eps), ctx.mpf(lo),
                        ctx.mpf(reach), guess, spread)


@contextlib.contextmanager
def _guard_bits(ctx: Ctx, bits: int) -> Iterator[None]:
    """``bits`` more bits in ``mp`` and, for intervals, in ``iv`` (the bracket steps in ``mp``)."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(extra_bits(mp, bits))
        if is_interval(ctx):
            stack.enter_context(extra_bits(iv, bits))
        yield


@result("CKS20:Cor13-delta", title="zCDP to delta(eps) at the optimal order (CKS20)",
        kind="conversion",
        statement=r"\delta(\varepsilon)=\min\Big\{1,\inf_{a>1}\frac{e^{(a-1)(a\rho-\varepsilon)}}"
                  r"{a-1}\big(1-\tfrac1a\big)^a\Big\}",
        params=[nonneg("rho", "1", "zCDP level"), nonneg("eps", "7.766", "target epsilon")],
        exact_inputs=True)
def cks_delta(ctx: Ctx, rho: Fraction, eps: Fraction) -> MPF:
    """Smallest delta that CKS20 Cor. 13 gives for a rho-zCDP mechanism at ``eps``.

    ``inf_{a>1} exp((a-1)(a rho - eps)) (1-1/a)^a / (a-1)`` (capped at 1), at the root of
    ``(2a-1) rho - eps + ln(1-1/a) = 0`` (the form OpenDP's ``.delta(eps)`` computes).
    ``rho = 0`` gives 0.  Domain: ``rho >= 0``, ``eps >= 0``.

    With ``t = a - 1`` the log of the objective is ``t((1+t) rho - eps + ln t) - (1+t) ln(1+t)``
    and the root condition reads ``(1+t) rho - eps + ln t = ln(1+t) - t rho``, so at the
    optimum ``ln delta = -(t^2 rho + ln(1+t)) < 0``: delta < 1 (the cap never binds), and this
    expression has no cancellation, which keeps full relative precision in ``1 - delta``
    ``= t + O(t^2)`` when ``t* ~ e^(eps - rho)`` is tiny (rho >> eps).  The enclosure is this
    expression on the certified bracket of ``t*``.  The inputs are used exactly and the work
    is done with guard bits for the conditioning (``ln t*`` moves by rho times a relative
    change of rho; ``|ln delta|`` is up to ``eps^2 / rho``).

    It inverts :func:`cks_epsilon`: at ``rho = 1`` and eps = 7.766216625 (OpenDP and autodp)
    delta is 1e-6:

    >>> print(mpmath.nstr(cks_delta(rho=1, eps="7.766216625"), 6))
    1.0e-6

    Near 1 the enclosure is as narrow as the precision allows, and raising the precision
    resolves ``1 - delta ~ e^(eps - rho)`` (here about ``e^-900``):

    >>> from reference import certified, precision
    >>> enc = certified(cks_delta, rho=1000, eps=100)
    >>> print(enc.hi == 1, 1 - enc.lo < mpmath.mpf(10) ** -59)
    True True
    >>> with precision(450):
    ...     enc = certified(cks_delta, rho=1000, eps=100)
    >>> with mpmath.workdps(500):
    ...     print(mpmath.nstr(1 - enc.hi, 15), mpmath.nstr(1 - enc.lo, 15))
    1.36447721236568e-391 1.36447721236568e-391
    """
    if rho == 0:
        return ctx.zero
    extra = 10 + max(0, int(mpmath.mag(rho)), int(mpmath.mag(eps)) if eps else 0,
                     int(mpmath.mag(eps * eps / rho)) if eps else 0)
    with _guard_bits(ctx, extra):
        r, e = to_ctx(ctx, rho), to_ctx(ctx, eps)
        t = _delta_order_t(ctx, r, e)
        log_delta = -(t * t * r + log1p(ctx, t))
    return ctx_min(ctx, exp(ctx, log_delta), ctx.one)
