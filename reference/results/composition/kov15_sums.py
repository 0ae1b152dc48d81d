"""The binomial sums of KOV15 Theorem 3.3, one piece at a time, as two polynomials.

Kairouz–Oh–Viswanath (2015) Theorem 3.3: with ``w_j = C(k,j) p^(k-j) (1-p)^j``,
``p = e^eps / (1 + e^eps)``, the delta of k-fold ``RR_eps`` at ``eps_g`` is
``sum_j w_j [1 - e^(eps_g - (k-2j) eps)]_+``.  On the piece ``(k-2m-2) eps <= eps_g <=
(k-2m) eps`` exactly the terms ``j <= m`` count, and with ``g = (k-2m) eps - eps_g`` the sum
is ``D_m + (1 - e^-g) T_m``, where

    D_m = sum_{j<=m} w_j (1 - e^(-2(m-j) eps)),    T_m = sum_{j<=m} w_j e^(-2(m-j) eps)

(every term's factor splits as ``1 - e^(-2(m-j) eps) e^-g``).  Neither depends on ``eps_g``:
the forward value anywhere on the piece and the inverse's root on it
(``log((D_m + T_m - t) / T_m) + (k-2m) eps``) come from the same two numbers, so the
inverse's solver and the evaluations of its certificate share one computation
(:func:`piece_sums` keeps the last few).

The sums run outward from the largest weight: ``w_j = w_top c_j e^((top-j) eps)`` with the
rational ``c_j = C(k, j) / C(k, top)``, so with ``P(x) = sum_j c_j x^(high-j)`` over the
terms summed, ``sum w_j`` and ``sum w_j e^(-2(m-j) eps)`` are one polynomial evaluated at
``e^eps`` and at ``e^-eps``, times powers of ``e^eps``: its coefficients as integers
``c_j 2^shift`` rounded down, with a proved bound on what the rounding lost
(:func:`_ratios`, :func:`_poly`), evaluated by flint's integer polynomial in C on balls
(Horner's rule in ``mp``/``iv``).  Each side stops
where the geometric bound on what is left out (the ratio of consecutive weights only falls
going outward) is below ``2^-bits`` of ``D_m``; floats choose where, an interval context
checks the bound and adds it as ``[0, bound]``.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from mpmath import mp

from reference.core.caches import kept
from reference.core.numeric import MPF, Ctx, endpoints, exp, is_interval, log1p

#: How many pieces' sums are kept (an inverse uses one or two).
_KEEP = 8
_CACHE: OrderedDict[tuple[Any, ...], tuple[MPF, MPF]] = OrderedDict()


def forget() -> None:
    """Drop the kept sums (a benchmark's timed calls compute from scratch)."""
    _CACHE.clear()


kept(forget)


def log_binomial(ctx: Ctx, k: int, j: int) -> MPF:
    """``log C(k, j)`` from log-gamma (rigorous in ``iv``)."""
    return ctx.loggamma(ctx.mpf(k + 1)) - ctx.loggamma(ctx.mpf(j + 1)) \
        - ctx.loggamma(ctx.mpf(k - j + 1))


def largest_weight(k: int, eps: MPF) -> int:
    """An index near the largest weight ``C(k,j) p^(k-j) (1-p)^j``, ``(k+1)/(1+e^eps)``
    rounded down, in floats: the sums run outward from it, and any start is correct
    (only the number of terms depends on it)."""
    return _largest(k, float(endpoints(eps).lo))


def _largest(k: int, x: float) -> int:
    """:func:`largest_weight` at ``eps = x``."""
    return int((k + 1) / (1 + math.exp(min(x, 700.0))))


def log_weight(k: int, j: int, x: float) -> float:
    """``log w_j`` in floats at ``eps = x``."""
    return (math.lgamma(k + 1) - math.lgamma(j + 1) - math.lgamma(k - j + 1)
            - k * math.log1p(math.exp(-x)) - j * x)


def first_piece(k: int, eps: MPF, target: MPF, bits: int) -> int:
    """The largest ``m`` up to the largest weight with ``k w_m < 2^-(bits+8) target`` (in
    floats), 0 if none: the weights rise up to the largest, so the terms before ``m`` hold
    less than ``k w_m``, a ``2^-bits`` part of the target."""
    if not target > 0:
        return 0
    return _first_piece(k, float(endpoints(eps).lo), float(mp.log(endpoints(target).lo)), bits)


def _first_piece(k: int, x: float, log_target: float, bits: int) -> int:
    """:func:`first_piece` at ``eps = x`` and a target ``e^log_target > 0``, in floats."""
    limit = log_target - (bits + 8) * math.log(2) - math.log(k)
    if log_weight(k, 0, x) >= limit:
        return 0
    top = min(_largest(k, x), (k - 1) // 2)
    return _first(1, top + 1, lambda j: log_weight(k, j, x) >= limit) - 1


def float_piece(k: int, eps: MPF, target: MPF) -> int:
    """The piece ``m`` whose interval holds the root of ``delta(eps_g) = target``, in floats
    (a guess; the solver checks it): the first ``m`` with ``D_(m+1) = D_m + (1 - e^(-2 eps))
    T_m >= target`` (``D_(m+1)`` is the delta at the piece's left end; at ``m = (k-1)/2``,
    odd ``k``, the factor is ``1 - e^-eps``), walking up from :func:`first_piece` with
    weights relative to its own; the last piece if none.  (A loop in floats: numpy would
    take the walk in blocks, but the results import no numpy.)"""
    last = (k + 1) // 2 - 1
    x, ends = float(endpoints(eps).lo), endpoints(target)
    start = _first_piece(k, x, float(mp.log(ends.lo)), 40) if ends.lo > 0 else 0
    goal = math.exp(min(float(mp.log(ends.mid)) - log_weight(k, start, x), 700.0))
    shrink, rise, ratio = math.exp(-2 * x), -math.expm1(-2 * x), math.exp(-x)
    weight, d_sum, t_sum = 1.0, 0.0, 0.0
    for m in range(start, last):        # k - 2m >= 2 below the last piece
        t_sum = t_sum * shrink + weight
        d_sum += rise * t_sum           # D_(m+1)
        if d_sum >= goal:
            return m
        weight *= (k - m) * ratio / (m + 1)
    return last


def _key(x: MPF) -> tuple[Any, ...]:
    ends = endpoints(x)
    return ends.lo._mpf_, ends.hi._mpf_


def piece_sums(ctx: Ctx, eps: MPF, k: int, m: int, bits: int) -> tuple[MPF, MPF]:
    """``(D_m, T_m)`` (module doc) in ``ctx`` for ``0 <= m < k/2``, what is left out below
    ``2^-bits`` of ``D_m`` (in an interval context, added as ``[0, bound]`` to both).

    ``D_m = W - T_m`` with ``W = sum_{j<=m} w_j``: at most ``log2((k+1) / (1 - e^(-2 eps)))``
    bits cancel (``D_m >= (1 - e^(-2 eps)) (W - w_m)`` and ``w_m <= k w_(m-1)``), which
    the caller's guard bits cover; ``D_0 = 0`` exactly."""
    key = (id(ctx), ctx.prec, bits, k, m, _key(eps))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    x = max(float(endpoints(eps).lo), 1e-300)   # floats only choose where to stop
    top = min(m, _largest(k, x))
    below = min(m - 1, top)
    limit = (log_weight(k, below, x) + math.log(-math.expm1(-2 * x)) if m > 0 else 0.0) \
        - (bits + 4) * math.log(2)
    low, high = _down_end(k, top, x, limit), _up_end(k, top, m, x, limit)
    ratio, grow = exp(ctx, -eps), exp(ctx, eps)
    w_top = exp(ctx, log_binomial(ctx, k, top) - k * log1p(ctx, ratio) - top * eps)
    s_top = exp(ctx, -2 * (m - top) * eps)
    while True:
        coef = _coefficients(ctx, k, top, low, high)
        at_grow, at_ratio = _poly(ctx, coef, grow, ratio)
        weights = w_top * ratio ** (high - top) * at_grow
        t_sum = w_top * s_top * grow ** (high - top) * at_ratio
        d_sum = weights - t_sum if m > 0 else ctx.zero
        if low == 0 and high == m:      # every term summed
            break
        c_low, c_high = (_poly(ctx, coef._replace(ints=[c]), ctx.one)[0]
                         for c in (coef.ints[-1], coef.ints[0]))
        rest = _rest(ctx, k, m, low, high, w_top * c_low * grow ** (top - low),
                     w_top * c_high * ratio ** (high - top), ratio, grow)
        if rest is not None and rest <= mp.ldexp(endpoints(d_sum).lo, -bits):
            if is_interval(ctx):        # a plain sum leaves it out
                d_sum, t_sum = d_sum + ctx.mpf((0, rest)), t_sum + ctx.mpf((0, rest))
            break
        low, high = max(0, 2 * low - top - 64), min(m, 2 * high - top + 64)  # wider
    _CACHE[key] = d_sum, t_sum
    if len(_CACHE) > _KEEP:
        _CACHE.popitem(last=False)
    return d_sum, t_sum


class Coefficients(NamedTuple):
    """Integers ``C_i`` for ``c_i``, the coefficients of a window's polynomial (constant
    first), with ``X_i - n (1 + X_i 2^-shift) <= C_i <= X_i``, ``X_i = c_i 2^shift``, ``n =
    steps`` (:func:`_ratios`)."""

    ints: list[Any]
    shift: int
    steps: int


def _coefficients(ctx: Ctx, k: int, top: int, low: int, high: int) -> Coefficients:
    """:func:`_ratios` with a ``shift`` large enough that the least coefficient, ``C_low``
    (``C_top = 2^shift`` when ``low = top``), has at least ``prec + bits(n + 1) + 8`` bits,
    ``n = max(top - low, high - top)``: each coefficient then carries a relative error below
    ``2^-(prec+5)`` (:func:`_poly`).  The shift comes from ``log2(1 / c_low)`` in floats;
    if that falls short, once more with the bits missing."""
    steps = max(top - low, high - top)
    goal = ctx.prec + (steps + 1).bit_length() + 8
    log_inverse = (math.lgamma(low + 1) + math.lgamma(k - low + 1) - math.lgamma(top + 1)
                   - math.lgamma(k - top + 1)) / math.log(2)      # log2(1 / c_low)
    shift = goal + max(0, math.ceil(log_inverse)) + 2
    while True:
        coeffs = _ratios(ctx, k, top, low, high, shift)
        missing = goal - (int(coeffs[-1]).bit_length() - 1 if low < top else shift)
        if missing <= 0:
            return Coefficients(coeffs, shift, steps)
        shift += missing


def _poly(ctx: Ctx, coef: Coefficients, *points: MPF) -> list[MPF]:
    """``P(x) = sum c_i x^i`` at each of the (positive) ``points``, from the integers of
    ``coef`` (:class:`Coefficients`): the integer polynomial by Arb in C on balls (flint's
    ``fmpz_poly``), by Horner's rule in ``mp``/``iv``; in an interval context times
    ``2^-shift [1, 1 + 4 n 2^-t]`` with ``2^t <= min C_i`` (an end of the list: the
    coefficients rise to ``C_top`` and fall from it).

    Why: ``X_i >= C_i >= 2^t``, so ``X_i - C_i <= n X_i (2^-t + 2^-shift) <= rho X_i`` with
    ``rho = 2 n 2^-t`` (``t <= shift``: ``C_top = 2^shift``), hence ``C_i <= X_i <= C_i /
    (1 - rho) <= C_i (1 + 2 rho)`` for ``rho <= 1/2``; with positive ``x`` the same factor
    bounds the whole sum."""
    coeffs, shift, steps = coef
    if hasattr(ctx, "int_poly_evals"):
        values = list(ctx.int_poly_evals(coeffs, points))
    else:
        values = []
        for x in points:
            total = ctx.zero
            for c in reversed(coeffs):
                total = total * x + int(c)
            values.append(total)
    scale = ctx.mpf(mp.ldexp(1, -shift))
    if is_interval(ctx):
        t = min(int(c).bit_length() for c in (coeffs[0], coeffs[-1])) - 1
        if 4 * steps > 2 ** (t - 1):        # rho > 1/2: never, by _coefficients' shift
            raise ArithmeticError(f"coefficients of {t} bits for {steps} steps")
        scale = scale * (ctx.one + ctx.mpf((0, mp.ldexp(steps, 2 - t))))
    return [v * scale for v in values]


def _ratios(ctx: Ctx, k: int, top: int, low: int, high: int, shift: int) -> list[Any]:
    """``C_j``: ``c_j = C(k, j) / C(k, top)`` times ``2^shift``, rounded down step by step
    from ``C_top = 2^shift`` (integers: python-flint's ``fmpz`` on balls, else ``int``), for
    ``j = high, high-1, ..., low`` (``low <= top <= high <= (k-1)/2``): the coefficients of
    ``P(x) = sum_j c_j x^(high-j)``; the weights' sum is ``w_top e^(-(high-top) eps)
    P(e^eps)`` and the ``T`` sum ``w_top e^(-2(m-top) eps) e^((high-top) eps) P(e^-eps)``
    (module doc).

    Each step ``C' = floor(C r)``, ``r`` the exact ratio, leaves ``E = X - C`` with ``E r <=
    E' < E r + 1``: going down (``r = j / (k-j+1) < 1``) ``0 <= E <= i`` after ``i`` steps;
    going up (``r = (k-j+1) / j > 1``, ``X`` rising from ``2^shift``) ``0 <= E <= i X
    2^-shift``.  So ``X - n (1 + X 2^-shift) <= C <= X`` with ``n`` the longer side."""
    if 2 * high > k - 1:
        raise ValueError(f"high = {high} is above (k-1)/2 = {(k - 1) / 2}")
    one = getattr(ctx, "integer", int)(1) << shift
    c, up = one, []
    for j in range(top + 1, high + 1):
        c = c * (k - j + 1) // j
        up.append(c)
    c, down = one, [one]
    for j in range(top, low, -1):
        c = c * j // (k - j + 1)
        down.append(c)
    up.reverse()
    return up + down


def _rest(ctx: Ctx, k: int, m: int, low: int, high: int, w_low: MPF, w_high: MPF,
          ratio: MPF, grow: MPF) -> Any:
    """An upper bound (an exact ``mp`` number; in ``mp`` an estimate) on ``sum_{j<low} w_j
    + sum_{high<j<=m} w_j``: ``w r / (1 - r)`` on each side left out whose ratio ``r`` of
    the next weight to the last one summed is below 1 (it only falls further out); None if
    a side's ratio may reach 1."""
    total = ctx.zero
    for left_out, w, r in ((low > 0, w_low, low * grow / (k - low + 1)),
                           (high < m, w_high, (k - high) * ratio / (high + 1))):
        if left_out:
            if not endpoints(r).hi < 1:
                return None
            total = total + w * r / (1 - r)
    return endpoints(total).hi


def _first(lo: int, hi: int, done: Callable[[int], bool]) -> int:
    """The least ``j`` in ``[lo, hi]`` with ``done(j)``, for ``done`` false and then true
    (``done(hi)`` is taken as true, not evaluated): a bisection."""
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if done(mid) else (mid + 1, hi)
    return lo


def _rest_below(k: int, j: int, x: float, log_r: float, limit: float) -> bool:
    """Whether the weights beyond ``j`` (each ``r`` times the one before, ``log r =
    log_r``) add up to at most ``e^limit``, in floats: ``log w_j + log(r / (1 - r))``."""
    return log_r < 0 and log_weight(k, j, x) + log_r - math.log(-math.expm1(log_r)) <= limit


def _down_end(k: int, top: int, x: float, limit: float) -> int:
    """The largest ``j <= top`` where the weights below ``j`` add up to at most ``e^limit``
    (:func:`_rest_below`, ``r = j e^x / (k-j+1)``), else 0."""
    return _first(1, top + 1, lambda j: not _rest_below(
        k, j, x, math.log(j) + x - math.log(k - j + 1), limit)) - 1


def _up_end(k: int, top: int, m: int, x: float, limit: float) -> int:
    """The smallest ``j`` in ``[top, m]`` where the weights above ``j`` up to ``m`` add up
    to at most ``e^limit`` (:func:`_rest_below`, ``r = (k-j) e^-x / (j+1)``), else ``m``."""
    return _first(top, m, lambda j: _rest_below(
        k, j, x, math.log(k - j) - x - math.log(j + 1), limit))
