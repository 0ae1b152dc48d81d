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
objective's log is itself convex.  So :func:`_certified_min` finds the order by a search in
plain arithmetic and proves the minimum from four points around it: a convex function lies
above each secant's extension outside the secant's interval, and a quasi-convex one is above
``f(p0)`` left of ``p0`` once ``f(p0) > f(p1)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    endpoints,
    exact,
    exp,
    extra_bits,
    is_interval,
    log1p,
    pos_part,
    to_ctx,
)
from reference.core.params import Param, count, nonneg, positive, unit_open
from reference.results.conversions.cks20 import _log_inv
from reference.results.dpsgd.mtz19 import log_moment

#: Orders searched: every fractional order up to this (the RDP is evaluated there).
MAX_SEARCH_ORDER = 256
#: Largest number of steps.
MAX_STEPS = 10**9
#: Bits of the plain search for the order: the scan and golden sections at 64, the Newton
#: steps at 128 (fixed, so the order does not depend on the working precision).
_SCAN_BITS = 64
_SEARCH_BITS = 128
#: The four points sit ``t * 2^-_SPACING`` apart around the order found (``t = alpha - 1``):
#: the enclosure is about ``2^(-2 _SPACING)`` wide (relative), second order in the spacing.
_SPACING = 40
#: Most bits of the interval evaluations (see :func:`_certified_min`).
_IV_BITS = 2 * _SPACING + 60
#: Closest order to 1 searched: ``1 + 2^-512``.  Below it lie the optima only of inputs whose
#: answer is within about ``2^-512`` of the trivial one: ``t* ~ sqrt(ln(1/delta) / (T rho))``
#: for eps (``delta`` within ``1e-300`` of 1), ``t* ~ e^-(T KL - eps)`` for delta (then
#: ``1 - delta`` is about ``t*``).
_MIN_LOG2_T = 512
#: Largest sigma: the fractional orders the search visits sum a series that cancels to about
#: ``q^2 / sigma^2`` (see ``MTZ19:rdp``).
MAX_SIGMA = 10**6
#: Smallest sigma and smallest positive q (see :func:`_limits`).
MIN_SIGMA = Fraction(1, 10)
MIN_Q = Fraction(1, 10**12)

Objective = Callable[[Ctx, Fraction], MPF]

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


def _search(objective: Callable[[Fraction], MPF], top: Fraction) -> Fraction:
    """The order minimising a quasi-convex objective on ``(1, top]``, approximately (plain
    arithmetic): a scan of ``t = 16^j`` (``-10 <= j <= 2``; a quasi-convex function's
    minimum lies between the neighbours of the least scanned value, however coarse the
    scan), golden sections in ``u = ln t`` down to ``2^-10`` (64 bits),
    then Newton steps on central differences (step ``2^-30``: the derivative's error is
    about ``2^-60``, the curvature's ``2^-68`` of the value at 128 bits)."""
    ts = [Fraction(2) ** j for j in range(-40, 9, 4) if 1 + Fraction(2) ** j < top] + [top - 1]
    values = [objective(1 + t) for t in ts]
    # Orders closer to 1 win when ln(1/delta) is tiny or the RDP huge (t* ~ sqrt(ln(1/delta)
    # / (T rho)) for eps, ~ e^-(T KL - eps) for delta): go down, the exponent's step doubling
    # (an order 1 + 2^-k costs k guard bits), until the objective turns up.
    drop = 8
    while values[0] <= values[1] and ts[0] > Fraction(2) ** -_MIN_LOG2_T:
        ts.insert(0, max(ts[0] / 2 ** drop, Fraction(2) ** -_MIN_LOG2_T))
        values.insert(0, objective(1 + ts[0]))
        drop *= 2
    best = min(range(len(ts)), key=lambda i: values[i])
    floor = Fraction(2) ** -_MIN_LOG2_T
    if best == 0:
        lo = mpmath.log(max(ts[0] / 4, floor))
    else:
        lo = mpmath.log(ts[best - 1])
    hi = mpmath.log(ts[min(best + 1, len(ts) - 1)])
    ratio, start, end = (mpmath.sqrt(5) - 1) / 2, lo, hi

    def at(u: MPF) -> MPF:
        return objective(1 + exact(mpmath.exp(u), "order", "DPSGD"))

    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = at(a), at(b)
    while hi - lo > mpmath.mpf(2) ** -10:
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = at(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = at(b)
    if best == len(ts) - 1 and hi == end:
        return top        # the bracket's top never moved: decreasing up to the top
    if best == 0 and ts[0] == floor and lo == start:
        return 1 + floor  # increasing from the lowest order searched
    u = (lo + hi) / 2
    with mpmath.workprec(_SEARCH_BITS):
        step = mpmath.mpf(2) ** -30
        for _ in range(8):
            left, mid, right = at(u - step), at(u), at(u + step)
            curve = left - 2 * mid + right
            if curve <= 0:
                break
            move = -(right - left) * step / (2 * curve)
            if not lo <= u + move <= hi:
                break
            u += move
            if abs(move) < mpmath.mpf(2) ** -(_SPACING + 12):
                break
    return min(1 + exact(mpmath.exp(u), "order", "DPSGD"), top)


def _line_min(h0: MPF, slope: MPF, p0: Fraction, ends: tuple[Fraction, Fraction],
              ratio: bool) -> MPF:
    """Lower end of ``min`` over ``[a, b]`` of the line ``h0 + slope (alpha - p0)``, divided by
    ``alpha - 1`` when ``ratio``: a line over ``alpha - 1`` is monotone, so the ends suffice."""
    outs = []
    for a in ends:
        value = h0 + slope * to_ctx(iv, a - p0)
        outs.append(endpoints(value / to_ctx(iv, a - 1) if ratio else value).lo)
    return min(outs)


def _lower(h: Objective, ratio: bool, a_hat: Fraction, top: Fraction) -> MPF | None:
    """A certified lower bound of the minimum near ``a_hat`` (see the module docstring), or
    None when the four points do not show the minimum between them."""
    t_hat = a_hat - 1
    for widen in range(6):
        w = t_hat * Fraction(2) ** (-_SPACING + 6 * widen)
        bottom = 1 + Fraction(2) ** -_MIN_LOG2_T
        if a_hat - 2 * w < bottom:
            return _lower_bottom(h, ratio, bottom, w)
        if a_hat + 2 * w <= top:
            ps = [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
        else:
            ps = [top - 2 * w, top - w, top]
        hs = [h(iv, p) for p in ps]
        fs = [endpoints(hv / to_ctx(iv, p - 1) if ratio else hv) for hv, p in
              zip(hs, ps, strict=True)]
        if not fs[0].lo > fs[1].hi:
            continue
        s01 = (hs[1] - hs[0]) / to_ctx(iv, ps[1] - ps[0])
        if len(ps) == 3:        # the minimum is at the top: ps[1], ps[2] = top
            s12 = (hs[2] - hs[1]) / to_ctx(iv, ps[2] - ps[1])
            return min(_line_min(hs[0], s01, ps[0], (ps[1], ps[2]), ratio),
                       _line_min(hs[1], s12, ps[1], (ps[0], ps[1]), ratio))
        if not fs[3].lo > fs[2].hi:
            continue
        s23 = (hs[3] - hs[2]) / to_ctx(iv, ps[3] - ps[2])
        mid = _mix(hs, s01, s23, ps, ratio)
        return min(mid, _line_min(hs[2], s23, ps[2], (ps[0], ps[1]), ratio),
                   _line_min(hs[0], s01, ps[0], (ps[2], ps[3]), ratio))
    return None


def _lower_bottom(h: Objective, ratio: bool, bottom: Fraction, w: Fraction) -> MPF | None:
    """:func:`_lower` when the order found is the lowest searched: points ``b, b + w, b + 2w``;
    right of the last the objective is above its value there once that is proved above the
    middle one; on each of the two pieces the other piece's secant, extended, lies below."""
    ps = [bottom, bottom + w, bottom + 2 * w]
    hs = [h(iv, p) for p in ps]
    fs = [endpoints(hv / to_ctx(iv, p - 1) if ratio else hv) for hv, p in
          zip(hs, ps, strict=True)]
    if not fs[2].lo > fs[1].hi:
        return None
    s01 = (hs[1] - hs[0]) / to_ctx(iv, ps[1] - ps[0])
    s12 = (hs[2] - hs[1]) / to_ctx(iv, ps[2] - ps[1])
    return min(_line_min(hs[1], s12, ps[1], (ps[0], ps[1]), ratio),
               _line_min(hs[0], s01, ps[0], (ps[1], ps[2]), ratio))


def _mix(hs: list[MPF], s01: MPF, s23: MPF, ps: list[Fraction], ratio: bool) -> MPF:
    """Lower bound on ``[p1, p2]`` from the convex combination of the two secants whose slope
    is the one a tangent at the minimum has (0, or the minimum itself for the eps form):
    any combination lies below ``max`` of the two, hence below the function."""
    s0, s1 = endpoints(s01).mid, endpoints(s23).mid
    target = endpoints(hs[1] / to_ctx(iv, ps[1] - 1)).mid if ratio else mp.zero
    share = Fraction(1, 2) if s1 == s0 else min(max((s1 - target) / (s1 - s0), 0), 1)
    lam = exact(share, "lambda", "DPSGD")
    out = []
    for a in (ps[1], ps[2]):
        line = (to_ctx(iv, lam) * (hs[0] + s01 * to_ctx(iv, a - ps[0]))
                + to_ctx(iv, 1 - lam) * (hs[2] + s23 * to_ctx(iv, a - ps[2])))
        out.append(endpoints(line / to_ctx(iv, a - 1) if ratio else line).lo)
    return min(out)


#: The order found for each objective (its inputs as the key): a plain value, its enclosure
#: and a value at another precision share the search.
_ORDERS: dict[tuple[object, ...], Fraction] = {}


def _certified_min(ctx: Ctx, h: Objective, ratio: bool, key: tuple[object, ...]) -> MPF:
    """``min`` over ``1 + 2^-512 <= alpha <= 256`` of ``h(alpha)/(alpha-1)`` (``ratio``) or
    ``h(alpha)``: in ``mp`` the value at the order found; in ``iv`` that value's upper end
    and a certified lower end, ``-inf`` if the points around the order prove nothing (an
    honest but wide enclosure; the callers' positive part and ``exp`` turn it into 0)."""
    top = Fraction(MAX_SEARCH_ORDER)

    def plain(alpha: Fraction) -> MPF:
        v = h(mp, alpha)
        return v / (alpha - 1) if ratio else v

    a_hat = _ORDERS.get(key)
    if a_hat is None:
        with mpmath.workprec(_SCAN_BITS):
            a_hat = _search(plain, top)
        if len(_ORDERS) > 1024:
            _ORDERS.clear()
        _ORDERS[key] = a_hat
    if not is_interval(ctx):
        value = h(ctx, a_hat)
        return value / to_ctx(ctx, a_hat - 1) if ratio else value
    # The enclosure is about 2^(-2 _SPACING) wide whatever the precision, and the secants
    # lose _SPACING bits: more than _IV_BITS would only cost time.
    with mpmath.workprec(min(iv.prec, _IV_BITS)):
        old, iv.prec = iv.prec, min(iv.prec, _IV_BITS)
        try:
            value = h(ctx, a_hat)
            ends = endpoints(value / to_ctx(ctx, a_hat - 1) if ratio else value)
            lower = _lower(h, ratio, a_hat, top)
        finally:
            iv.prec = old
    lo = mpmath.ninf if lower is None else min(lower, ends.lo)
    return iv.mpf((lo, ends.hi))


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
    with extra_bits(iv, 64 - iv.prec):  # iv at 64 bits: an upper bound needs no more
        logs = [endpoints(steps * log_moment(iv, q, sigma, Fraction(a))
                          - to_ctx(iv, (a - 1) * eps) + _order_terms(iv, Fraction(a))).hi
                for a in BOUND_ORDERS]
        return min(endpoints(exp(iv, iv.mpf(v))).hi for v in logs)


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
    return pos_part(ctx, _certified_min(ctx, _rdp_objective(q, sigma, steps, extra), True, key))


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
    log_delta = _certified_min(ctx, _rdp_objective(q, sigma, steps, extra), False, key)
    if not is_interval(ctx):
        out = exp(ctx, log_delta)
        return out if out < 1 else ctx.one
    e = endpoints(log_delta)
    hi = endpoints(exp(ctx, iv.mpf(e.hi))).hi
    lo = mp.zero if mpmath.isinf(e.lo) else endpoints(exp(ctx, iv.mpf(e.lo))).lo
    return iv.mpf((min(lo, 1), min(hi, 1)))

