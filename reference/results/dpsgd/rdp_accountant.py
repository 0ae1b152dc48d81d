"""DP-SGD accounting by Rényi DP: the Poisson-subsampled Gaussian mechanism composed over
``steps`` steps (Abadi et al. 2016, the moments accountant), its RDP from
:mod:`reference.results.dpsgd.mtz19`, converted to ``(eps, delta)``-DP by Canonne, Kamath,
Steinke (2020) Proposition 12 (the same bound is Balle et al. 2020, Theorem 21; Asoodeh et
al. 2021), optimised over the order.

At order ``alpha`` the composition is ``(alpha, T eps(alpha))``-RDP (``T`` steps), and

* ``eps(alpha) = T eps_1(alpha) + ln(1 - 1/alpha) - (ln delta + ln alpha)/(alpha - 1)``,
* ``ln delta(alpha) = (alpha-1)(T eps_1(alpha) - eps) - ln alpha + (alpha-1) ln(1 - 1/alpha)``.

Both are optimised over the real orders ``1 + 2^-512 <= alpha <= 256`` (:data:`MAX_SEARCH_ORDER`).
What makes a certified optimum possible (our addition, proved here): with ``t = alpha - 1``,
``H(alpha) = T ln A_alpha + ln(1/delta) - ln alpha - t ln(1 + 1/t)`` is convex (``ln A_alpha``
is a cumulant generating function of the privacy loss, ``-ln alpha`` is convex, and
``-t ln(1 + 1/t)`` has second derivative ``1/(alpha^2 t) > 0``), and the eps objective is
``H(alpha)/t``: the slope from ``(1, 0)`` to ``(alpha, H(alpha))``, with ``H(1+) = ln(1/delta) >
0``, so its sublevel sets ``{H(alpha) <= c t}`` are intervals (quasi-convex).  The delta
objective's log is itself convex.  So :mod:`reference.results.dpsgd.rdp_minimum` finds the
order by a search in plain arithmetic and proves the minimum from four points around it: a
convex function lies above each secant's extension outside the secant's interval, and a
quasi-convex one is above ``f(p0)`` left of ``p0`` once ``f(p0) > f(p1)``.  Both run on Arb's
balls (python-flint), on ``mp`` and ``iv`` where Arb fails.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.fastballs import FAST, at_bits
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    endpoints,
    exp,
    is_interval,
    log1p,
    pos_part,
    to_ctx,
)
from reference.core.params import Param, count, nonneg, positive, unit_open
from reference.results.conversions.cks20 import _log_inv
from reference.results.dpsgd.mtz19 import log_moment
from reference.results.dpsgd.rdp_minimum import (
    MAX_SEARCH_ORDER as MAX_SEARCH_ORDER,  # re-exported: the orders searched
)
from reference.results.dpsgd.rdp_minimum import Objective, certified_min

#: Largest number of steps.
MAX_STEPS = 10**9
#: Largest sigma: the fractional orders the search visits sum a series that cancels to about
#: ``q^2 / sigma^2`` (see ``MTZ19:rdp``).
MAX_SIGMA = 10**6
#: Smallest sigma and smallest positive q (see :func:`_limits`).
MIN_SIGMA = Fraction(1, 10)
MIN_Q = Fraction(1, 10**12)

_Q = Param("q", "real", lo=Fraction(0), hi=Fraction(1), example="0.01", doc="sampling probability")
_SIGMA = positive("sigma", "1", "noise multiplier (noise std / l2 sensitivity)")


def _limits(values: Mapping[str, Any], where: str) -> None:
    """Refuse inputs whose evaluation would take minutes (preconditions, not bounds of the
    parameters: an input next to a bound is evaluated with up to 3400 more bits): ``sigma >
    10^6`` (the fractional orders' series cancels to about ``q^2/sigma^2``), ``sigma < 1/10``
    (one step's RDP is then above 50 alpha, ``e^(1/sigma^2)`` terms), ``0 < q < 10^-12``
    (the series cancels to about ``q^2``, two bits per factor 2 of q)."""
    sigma, q = values["sigma"], values["q"]
    if sigma > MAX_SIGMA:
        raise DomainError("sigma", str(sigma), f"must be at most {MAX_SIGMA} (the fractional "
                          f"orders' series cancels to about q^2/sigma^2)", where)
    if sigma < MIN_SIGMA:
        raise DomainError("sigma", str(sigma), f"must be at least {MIN_SIGMA} (below, one "
                          f"step's RDP exceeds 50 alpha)", where)
    if 0 < q < MIN_Q:
        raise DomainError("q", str(q), f"must be 0 or at least {MIN_Q} (the series cancels "
                          f"to about q^2)", where)
_STEPS = count("steps", "1000", "number of steps (compositions)", hi=MAX_STEPS)


def _order_terms(ctx: Ctx, alpha: Fraction) -> MPF:
    """``-ln alpha - t ln(1 + 1/t)``, ``t = alpha - 1``: convex in alpha (``ln alpha`` as
    ``log1p(t)``: alpha lifted first would round ``1 + 2^-512`` to 1)."""
    t = alpha - 1
    return -log1p(ctx, to_ctx(ctx, t)) - to_ctx(ctx, t) * log1p(ctx, to_ctx(ctx, 1 / t))


def _rdp_objective(q: Fraction, sigma: Fraction, steps: int,
                   extra: Callable[[Ctx, Fraction], MPF]) -> Objective:
    def h(ctx: Ctx, alpha: Fraction) -> MPF:
        return steps * log_moment(ctx, q, sigma, alpha) + extra(ctx, alpha)
    return h


#: Integer orders at which :func:`delta_bound` reads the RDP conversion.
BOUND_ORDERS = (2, 4, 8, 16, 32, 64, 128, 256)


def delta_bound(q: Fraction, sigma: Fraction, steps: int, eps: Fraction) -> MPF:
    """A certified upper bound (an ``mp`` number) on the optimal delta at ``eps`` of ``steps``
    steps: the delta form of CKS20 Prop. 12 (see :func:`dpsgd_delta_rdp`) at each order of
    :data:`BOUND_ORDERS` (finite sums, interval arithmetic), the least upper end; tens of
    milliseconds.  Every order gives a valid bound, so no search and no proof of a minimum."""
    def bound(ctx: Ctx) -> MPF:
        with at_bits(ctx, 64):  # 64 bits: an upper bound needs no more
            logs = [endpoints(steps * log_moment(ctx, q, sigma, Fraction(a))
                              - to_ctx(ctx, (a - 1) * eps) + _order_terms(ctx, Fraction(a))).hi
                    for a in BOUND_ORDERS]
            return min(endpoints(exp(ctx, ctx.mpf(v))).hi for v in logs)
    try:        # on Arb's balls; on iv where they fail
        return bound(FAST)
    except Exception:
        return bound(iv)


@result("DPSGD:eps-rdp", title="DP-SGD epsilon by RDP at the optimal order",
        kind="composition",
        statement=r"\varepsilon=\Big[\inf_{1+2^{-512}\le\alpha\le 256}T\varepsilon_{\mathrm{SGM}}"
                  r"(\alpha)+\ln(1-\tfrac1\alpha)-\tfrac{\ln\delta+\ln\alpha}{\alpha-1}\Big]_+",
        params=[_Q, _SIGMA, _STEPS, unit_open("delta", "1e-5", "target delta")],
        precondition=_limits, exact_inputs=True)
def dpsgd_eps_rdp(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int,
                  delta: Fraction) -> MPF:
    """Epsilon of ``steps`` steps of the sampled Gaussian mechanism by RDP (add/remove).

    ``T`` steps are ``(alpha, T eps_SGM(alpha))``-RDP (Mironov, Talwar, Zhang 2019;
    composition, Mironov 2017 Prop. 1), converted by Canonne–Kamath–Steinke (2020) Prop. 12
    and minimised over the real orders in ``[1 + 2^-512, 256]``; negative infima are reported as 0.
    Domain: ``q = 0`` or ``10^-12 <= q <= 1``, ``1/10 <= sigma <= 10^6``, ``1 <= steps
    <= 10^9``, ``delta in (0, 1)``.
    The enclosure holds the exact infimum; it is about ``2^-80`` wide (relative), not the
    working precision (the minimum is proved from four orders ``2^-40 (alpha - 1)`` apart).

    At ``q = 1`` and one step this is the Gaussian mechanism's zCDP conversion (``rho =
    1/(2 sigma^2)``, CKS20 Corollary 13), 9.265762734 at ``rho = 1.3527``, ``delta = 1e-6``
    (``sigma = 0.60797...``); with ``q = 1/100``, ``sigma = 1``, ``10^4`` steps at ``delta =
    1e-5`` it is 6.712272 (dp-accounting 0.6.0's RDP accountant: 6.712757 on its default
    orders, 6.712297 on 200000 orders in ``[1.05, 60]``: its fractional-order RDP is an upper
    bound, see ``docs/dpsgd.md``):

    >>> print(mpmath.nstr(dpsgd_eps_rdp(q="0.01", sigma=1, steps=10000, delta="1e-5"), 7))
    6.712272
    """
    if q == 0:
        return ctx.zero

    def extra(c: Ctx, alpha: Fraction) -> MPF:
        return _log_inv(c, delta) + _order_terms(c, alpha)

    key = ("eps", q, sigma, steps, delta)
    return pos_part(ctx, certified_min(ctx, _rdp_objective(q, sigma, steps, extra), True, key))


@result("DPSGD:delta-rdp", title="DP-SGD delta by RDP at the optimal order",
        kind="composition",
        statement=r"\delta=\min\Big\{1,\inf_{1+2^{-512}\le\alpha\le 256}\frac{e^{(\alpha-1)"
                  r"(T\varepsilon_{\mathrm{SGM}}(\alpha)-\varepsilon)}}{\alpha}\big(1-\tfrac1\alpha\big)"
                  r"^{\alpha-1}\Big\}",
        params=[_Q, _SIGMA, _STEPS, nonneg("eps", "2", "target epsilon")],
        precondition=_limits, exact_inputs=True)
def dpsgd_delta_rdp(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int, eps: Fraction) -> MPF:
    """Delta at ``eps`` of ``steps`` steps of the sampled Gaussian mechanism by RDP.

    The converse of :func:`dpsgd_eps_rdp`: CKS20 Prop. 12 in its delta form,
    ``(alpha-1)(T eps_SGM(alpha) - eps) - ln alpha + (alpha-1) ln(1 - 1/alpha)`` minimised
    over the real orders in ``[1 + 2^-512, 256]`` (a convex function of alpha), then ``exp``, capped
    at 1.  ``q = 0`` gives 0.  Domain: ``q = 0`` or ``10^-12 <= q <= 1``, ``1/10 <= sigma <=
    10^6``, ``1 <= steps <= 10^9``, ``eps >= 0``.  Enclosure width as for :func:`dpsgd_eps_rdp`.

    It inverts the eps form: at the epsilon that form gives for ``delta = 1e-5`` the delta
    is ``1e-5`` again:

    >>> eps = dpsgd_eps_rdp(q="0.01", sigma=1, steps=10000, delta="1e-5")
    >>> print(mpmath.nstr(dpsgd_delta_rdp(q="0.01", sigma=1, steps=10000, eps=eps), 8))
    1.0e-5
    """
    if q == 0:
        return ctx.zero

    def extra(c: Ctx, alpha: Fraction) -> MPF:
        return -to_ctx(c, (alpha - 1) * eps) + _order_terms(c, alpha)

    key = ("delta", q, sigma, steps, eps)
    log_delta = certified_min(ctx, _rdp_objective(q, sigma, steps, extra), False, key)
    if not is_interval(ctx):
        out = exp(ctx, log_delta)
        return out if out < 1 else ctx.one
    e = endpoints(log_delta)
    hi = endpoints(exp(ctx, iv.mpf(e.hi))).hi
    lo = mp.zero if mpmath.isinf(e.lo) else endpoints(exp(ctx, iv.mpf(e.lo))).lo
    return iv.mpf((min(lo, 1), min(hi, 1)))

