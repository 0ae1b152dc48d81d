"""The certified minimum over the Rényi order of a DP-SGD objective (used by
:mod:`reference.results.dpsgd.rdp_accountant`, whose docstring proves the convexity this
relies on).

``h(alpha)`` is convex in ``alpha`` (the delta form) or ``h(alpha)/(alpha - 1)`` quasi-convex
(the eps form).  :func:`_search` finds the order approximately in plain arithmetic;
:func:`_lower` proves a lower bound of the minimum from four points around it (a convex
function lies above each secant's extension outside the secant's interval, and a
quasi-convex one is above ``f(p0)`` left of ``p0`` once ``f(p0) > f(p1)``).  Both run on Arb's
balls (python-flint): the search's values and the plain value are their midpoints where a
ball pins a faithful rounding, the enclosure is rigorous on balls as in ``iv``; where Arb
fails (a number beyond its range) ``mp`` and ``iv`` do the same work.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath
from mpmath import iv, mp

from reference.core.caches import kept
from reference.core.fastballs import FAST, at_bits, ends_on_balls, point
from reference.core.numeric import MPF, Ctx, Interval, endpoints, exact, is_interval, to_ctx

#: Orders searched: every fractional order up to this (the RDP is evaluated there).
MAX_SEARCH_ORDER = 256
#: Bits of the plain search for the order: the scan and golden sections at 64, the Newton
#: steps at 128 (fixed, so the order does not depend on the working precision).
_SCAN_BITS = 64
_SEARCH_BITS = 128
#: The four points sit ``t * 2^-_SPACING`` apart around the order found (``t = alpha - 1``):
#: the enclosure is about ``2^(-2 _SPACING)`` wide (relative), second order in the spacing.
_SPACING = 40
#: Most bits of the interval evaluations (see :func:`certified_min`).
_IV_BITS = 2 * _SPACING + 60
#: Closest order to 1 searched: ``1 + 2^-512``.  Below it lie the optima only of inputs whose
#: answer is within about ``2^-512`` of the trivial one: ``t* ~ sqrt(ln(1/delta) / (T rho))``
#: for eps (``delta`` within ``1e-300`` of 1), ``t* ~ e^-(T KL - eps)`` for delta (then
#: ``1 - delta`` is about ``t*``).
_MIN_LOG2_T = 512
Objective = Callable[[Ctx, Fraction], MPF]


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


def _line_min(ctx: Ctx, h0: MPF, slope: MPF, p0: Fraction, ends: tuple[Fraction, Fraction],
              ratio: bool) -> MPF:
    """Lower end of ``min`` over ``[a, b]`` of the line ``h0 + slope (alpha - p0)``, divided by
    ``alpha - 1`` when ``ratio``: a line over ``alpha - 1`` is monotone, so the ends suffice."""
    outs = []
    for a in ends:
        value = h0 + slope * to_ctx(ctx, a - p0)
        outs.append(endpoints(value / to_ctx(ctx, a - 1) if ratio else value).lo)
    return min(outs)


def _lower(ctx: Ctx, h: Objective, ratio: bool, a_hat: Fraction, top: Fraction) -> MPF | None:
    """A certified lower bound of the minimum near ``a_hat`` (see the module docstring), or
    None when the four points do not show the minimum between them (``ctx``: ``iv`` or
    balls)."""
    t_hat = a_hat - 1
    for widen in range(6):
        w = t_hat * Fraction(2) ** (-_SPACING + 6 * widen)
        bottom = 1 + Fraction(2) ** -_MIN_LOG2_T
        if a_hat - 2 * w < bottom:
            return _lower_bottom(ctx, h, ratio, bottom, w)
        if a_hat + 2 * w <= top:
            ps = [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
        else:
            ps = [top - 2 * w, top - w, top]
        hs = [h(ctx, p) for p in ps]
        fs = [endpoints(hv / to_ctx(ctx, p - 1) if ratio else hv) for hv, p in
              zip(hs, ps, strict=True)]
        if not fs[0].lo > fs[1].hi:
            continue
        s01 = (hs[1] - hs[0]) / to_ctx(ctx, ps[1] - ps[0])
        if len(ps) == 3:        # the minimum is at the top: ps[1], ps[2] = top
            s12 = (hs[2] - hs[1]) / to_ctx(ctx, ps[2] - ps[1])
            return min(_line_min(ctx, hs[0], s01, ps[0], (ps[1], ps[2]), ratio),
                       _line_min(ctx, hs[1], s12, ps[1], (ps[0], ps[1]), ratio))
        if not fs[3].lo > fs[2].hi:
            continue
        s23 = (hs[3] - hs[2]) / to_ctx(ctx, ps[3] - ps[2])
        mid = _mix(ctx, hs, s01, s23, ps, ratio)
        return min(mid, _line_min(ctx, hs[2], s23, ps[2], (ps[0], ps[1]), ratio),
                   _line_min(ctx, hs[0], s01, ps[0], (ps[2], ps[3]), ratio))
    return None


def _lower_bottom(ctx: Ctx, h: Objective, ratio: bool, bottom: Fraction, w: Fraction) -> MPF | None:
    """:func:`_lower` when the order found is the lowest searched: points ``b, b + w, b + 2w``;
    right of the last the objective is above its value there once that is proved above the
    middle one; on each of the two pieces the other piece's secant, extended, lies below."""
    ps = [bottom, bottom + w, bottom + 2 * w]
    hs = [h(ctx, p) for p in ps]
    fs = [endpoints(hv / to_ctx(ctx, p - 1) if ratio else hv) for hv, p in
          zip(hs, ps, strict=True)]
    if not fs[2].lo > fs[1].hi:
        return None
    s01 = (hs[1] - hs[0]) / to_ctx(ctx, ps[1] - ps[0])
    s12 = (hs[2] - hs[1]) / to_ctx(ctx, ps[2] - ps[1])
    return min(_line_min(ctx, hs[1], s12, ps[1], (ps[0], ps[1]), ratio),
               _line_min(ctx, hs[0], s01, ps[0], (ps[1], ps[2]), ratio))


def _mix(ctx: Ctx, hs: list[MPF], s01: MPF, s23: MPF, ps: list[Fraction], ratio: bool) -> MPF:
    """Lower bound on ``[p1, p2]`` from the convex combination of the two secants whose slope
    is the one a tangent at the minimum has (0, or the minimum itself for the eps form):
    any combination lies below ``max`` of the two, hence below the function."""
    s0, s1 = endpoints(s01).mid, endpoints(s23).mid
    target = endpoints(hs[1] / to_ctx(ctx, ps[1] - 1)).mid if ratio else mp.zero
    share = Fraction(1, 2) if s1 == s0 else min(max((s1 - target) / (s1 - s0), 0), 1)
    lam = exact(share, "lambda", "DPSGD")
    out = []
    for a in (ps[1], ps[2]):
        line = (to_ctx(ctx, lam) * (hs[0] + s01 * to_ctx(ctx, a - ps[0]))
                + to_ctx(ctx, 1 - lam) * (hs[2] + s23 * to_ctx(ctx, a - ps[2])))
        out.append(endpoints(line / to_ctx(ctx, a - 1) if ratio else line).lo)
    return min(out)


def _value(h: Objective, ratio: bool, alpha: Fraction, bits: int) -> MPF:
    """``h(alpha)`` (over ``alpha - 1`` when ``ratio``) at ``bits`` bits: the midpoint of Arb's
    ball rounded, where the ball is narrower than ``2^-(bits+8)`` of it (a faithful rounding,
    :func:`reference.core.fastballs.point`); else, and where Arb fails, ``mp`` at ``bits``."""
    try:
        with at_bits(FAST, bits + 16):
            ball = h(FAST, alpha)
            ball = ball / to_ctx(FAST, alpha - 1) if ratio else ball
        with at_bits(mp, bits):
            out = point(ball, bits + 8)
    except Exception:   # beyond Arb's range, say
        out = None
    if out is None:
        with at_bits(mp, bits):
            out = h(mp, alpha)
            out = out / to_ctx(mp, alpha - 1) if ratio else out
    return out


def _enclose(ctx: Ctx, h: Objective, ratio: bool, a_hat: Fraction) -> tuple[MPF, MPF]:
    """The ends of the enclosure of the minimum (see :func:`certified_min`) in ``ctx``."""
    value = h(ctx, a_hat)
    ends = endpoints(value / to_ctx(ctx, a_hat - 1) if ratio else value)
    lower = _lower(ctx, h, ratio, a_hat, Fraction(MAX_SEARCH_ORDER))
    return (mpmath.ninf if lower is None else min(lower, ends.lo)), ends.hi


#: The order found for each objective (its inputs as the key): a plain value, its enclosure
#: and a value at another precision share the search.
_ORDERS: dict[tuple[object, ...], Fraction] = {}
kept(_ORDERS.clear)


def certified_min(ctx: Ctx, h: Objective, ratio: bool, key: tuple[object, ...]) -> MPF:
    """``min`` over ``1 + 2^-512 <= alpha <= 256`` of ``h(alpha)/(alpha-1)`` (``ratio``) or
    ``h(alpha)``: in ``mp`` the value at the order found; in ``iv`` that value's upper end
    and a certified lower end, ``-inf`` if the points around the order prove nothing (an
    honest but wide enclosure; the callers' positive part and ``exp`` turn it into 0).
    Evaluated on Arb's balls (the search's values and the plain value as :func:`_value`; the
    enclosure rigorous on balls as in ``iv``), on ``mp`` and ``iv`` where Arb fails."""
    a_hat = _ORDERS.get(key)
    if a_hat is None:
        with mpmath.workprec(_SCAN_BITS):
            a_hat = _search(lambda a: _value(h, ratio, a, mp.prec), Fraction(MAX_SEARCH_ORDER))
        if len(_ORDERS) > 1024:
            _ORDERS.clear()
        _ORDERS[key] = a_hat
    if not is_interval(ctx):
        return _value(h, ratio, a_hat, ctx.prec)
    # The enclosure is about 2^(-2 _SPACING) wide whatever the precision, and the secants
    # lose _SPACING bits: more than _IV_BITS would only cost time.
    bits = min(ctx.prec, _IV_BITS)

    def enclose(c: Ctx) -> Interval:
        with at_bits(c, bits):
            return Interval(*_enclose(c, h, ratio, a_hat))

    out = ends_on_balls(enclose)    # on balls; iv where Arb fails
    return iv.mpf((out.lo, out.hi))
