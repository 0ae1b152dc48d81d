"""Special functions with rigorous interval versions (mpmath's ``iv`` lacks them).

:func:`normal_sf` is the standard normal upper tail ``Q(x) = P[N(0, 1) > x]``.  With
``ctx = mp`` it is ``erfc(x / sqrt 2) / 2``; with ``ctx = iv`` it returns an interval
that provably contains ``Q`` of every point of the argument: at each end, Arb's ``erfc``
(python-flint, rigorous, 15 to 100 times faster) wherever its ball is accurate to the
precision asked (:func:`reference.core.fastballs.normal_tail`), else two series whose
truncation errors have explicit, proven bounds (see :func:`_sf_point`).  The point value
(``ctx = mp``) stays mpmath's ``erfc``: the two evaluators are independent.
"""

from __future__ import annotations

import math

import mpmath
from mpmath import iv, mp

from reference.core.numeric import MPF, Ctx, endpoints, is_interval
from reference.core.numeric import exp as rigorous_exp

#: Guard bits added to the working precision inside the series.
_GUARD = 30
#: Beyond this |x| the point evaluation uses the interval series (mpmath's erfc overflows).
_MP_ERFC_LIMIT = 10**6


def normal_sf(ctx: Ctx, x: MPF) -> MPF:
    """Standard normal upper tail ``Q(x) = erfc(x / sqrt 2) / 2``, rigorous when ``ctx`` is ``iv``.

    For an interval argument ``[a, b]`` the result is ``[Q(b), Q(a)]`` enlarged by the
    enclosure errors (``Q`` is decreasing).  Domain: any real ``x``; ``+-inf`` allowed.

    >>> from mpmath import mp
    >>> print(mpmath.nstr(normal_sf(mp, mp.mpf('1.959963984540054')), 10))  # 97.5% quantile
    0.025
    >>> enc = endpoints(normal_sf(iv, iv.mpf(1)))
    >>> print(mpmath.nstr(enc.lo, 15), mpmath.nstr(enc.hi, 15))  # A&S table 26.1: 0.158655253931457
    0.158655253931457 0.158655253931457

    A context with its own ``normal_sf`` method (the tracer, the dual numbers and the arb
    balls of the prover and checker; the fast evaluator's balls, which answer None for a
    ball their ``erfc`` does poorly, and then get the two ends' enclosure here, at their
    precision) gets the call passed on.
    """
    own = getattr(type(ctx), "normal_sf", None)
    value = own(ctx, x) if own is not None else None
    if value is not None:   # Arb's balls answer None where their erfc of the ball is poor
        return value
    if not is_interval(ctx):
        if mpmath.isnan(x):
            raise ValueError("normal_sf of NaN")
        if abs(x) > _MP_ERFC_LIMIT:  # erfc overflows from ~1e160 on; the series does not
            old = _with_prec(ctx.prec)
            try:
                return ctx.mpf(endpoints(_sf_point(x)).mid)
            finally:
                iv.prec = old
        # Q's relative condition number is about x^2 + 1: x / sqrt 2 rounded to prec bits
        # cost ~x^2 ulps (normal_sf(mp, 1000) at 53 bits was off by 1.1e6 ulps).
        with ctx.extraprec(10 + 2 * max(0, ctx.mag(x))):   # mag(0) = -inf
            q = ctx.erfc(x / ctx.sqrt(2)) / 2
        return +q
    ends = endpoints(x)
    old, iv.prec = iv.prec, ctx.prec        # the balls' precision (a no-op for iv)
    try:
        at_lo = endpoints(_sf_point(ends.lo))
        at_hi = at_lo if ends.hi == ends.lo else endpoints(_sf_point(ends.hi))
    finally:
        iv.prec = old
    return ctx.mpf((at_hi.lo, at_lo.hi))


def _sf_point(t: MPF) -> MPF:
    """An ``iv`` enclosure of ``Q(t)`` at the exact point ``t`` (an ``mp`` number): Arb's
    when its ball is accurate to the target (``|t| <= 65536``), else these series:

    * ``t < 0``: ``Q(t) = 1 - Q(-t)``.
    * ``0 <= t <= T``: Marsaglia's series ``Q(t) = 1/2 - phi(t) sum_n t^(2n+1)/(2n+1)!!``
      (all terms positive; once the term ratio ``t^2/(2n+3)`` is below 1/2, the tail after
      term ``N`` is at most ``term_{N+1} / (1 - t^2/(2N+5))``), evaluated with
      ``t^2 / (2 ln 2)`` extra bits to absorb the cancellation against 1/2.
    * ``t > T``: the asymptotic series ``Q(t) = phi(t)/t sum_n (-1)^n (2n-1)!!/t^(2n)``.
      ``Q(t)/phi(t) = int_0^inf exp(-t u) exp(-u^2/2) du`` and the partial sums of
      ``exp(-v)`` (``v >= 0``) alternately over- and under-estimate it, so ``Q(t)`` lies
      between any two consecutive partial sums (also DLMF 7.12(i)).  ``T`` is chosen so
      that the smallest term is below the target precision.
    """
    if mpmath.isnan(t):
        raise ValueError("normal_sf of NaN")
    if mpmath.isinf(t):
        return iv.mpf(0) if t > 0 else iv.mpf(1)
    target = iv.prec + _GUARD
    from reference.core.fastballs import normal_tail  # python-flint loads on first use
    fast = normal_tail(t, target)
    if fast is not None:
        return iv.mpf((fast.lo, fast.hi))
    if t < 0:  # -t exactly: mp's unary minus would round t to mp.prec, below iv.prec here
        return 1 - _sf_point(mp.make_mpf(mpmath.libmp.mpf_neg(t._mpf_)))
    switch = math.sqrt(2 * (target + 10) * math.log(2)) + 1
    if t <= switch:
        return _taylor(t, target)
    return _asymptotic(t, target)


def marsaglia_sum(man: int, exp: int, bits: int, frac: int) -> tuple[int, int]:
    """Integers ``lo <= S 2^frac <= hi`` for ``S = sum_n x^(2n+1)/(2n+1)!!``, ``x = man 2^exp``.

    The terms are carried as integers scaled by ``2^frac``, once rounded down and once up at
    every step (all terms are positive, so floor/ceil propagate); the sum stops once a term
    is below ``2^-bits`` of it and the term ratio ``x^2/(2n+3)`` is below 1/2, and the tail
    is bounded geometrically: ``sum_{m >= n} term_m <= term_n / (1 - x^2/(2n+3))`` (the
    ratios ``term_{m+1}/term_m = x^2/(2m+3)`` decrease in ``m``).  ``frac`` must give ``x``
    itself at least ``bits + 16`` fractional bits (see :func:`_taylor`).

    At ``x = 1``, ``S = 1 + 1/3 + 1/15 + 1/105 + ... = sqrt(pi e/2) erf(1/sqrt 2)``:

    >>> lo, hi = marsaglia_sum(1, 0, 40, 60)
    >>> print(mpmath.nstr(mpmath.mpf(lo) / 2**60, 12), mpmath.nstr(mpmath.mpf(hi) / 2**60, 12))
    1.41068613464 1.41068613464
    """
    # x^2 = sq_num / sq_den exactly
    sq_num, sq_den = (man * man << (2 * exp), 1) if exp >= 0 else (man * man, 1 << (-2 * exp))
    if exp + frac >= 0:
        lo = hi = man << (exp + frac)
    else:
        lo = (man << frac) >> -exp
        hi = -((-(man << frac)) >> -exp)
    total_lo, total_hi, n = lo, hi, 0
    while True:
        den = sq_den * (2 * n + 3)
        lo = lo * sq_num // den
        hi = -(-hi * sq_num // den)
        n += 1
        # term_n is in [lo, hi]; later ratios are below x^2/(2n+3), which decreases in n.
        small_ratio = 2 * sq_num < sq_den * (2 * n + 3)
        if small_ratio and hi <= (total_lo >> bits):
            break
        total_lo += lo
        total_hi += hi
    # Remainder: sum_{m >= n} term_m <= term_n / (1 - x^2/(2n+3)) (geometric).
    rden = sq_den * (2 * n + 3)
    remainder = -(-hi * rden // (rden - sq_num))
    return total_lo, total_hi + remainder


def _with_prec(bits: int) -> int:
    old: int = iv.prec
    iv.prec = bits
    return old


def _taylor(t: MPF, target: int) -> MPF:
    """Marsaglia's series for ``0 <= t <= T`` with the sum in exact integer arithmetic.

    ``t = man 2^exp`` exactly.  The terms ``x^(2n+1)/(2n+1)!!`` are carried as integers
    scaled by ``2^F`` twice, once rounded down and once up at every step (all terms are
    positive, so floor/ceil propagate to lower/upper bounds), which is rigorous and about
    a hundred times faster than the same recurrence in ``iv``.
    """
    extra = int(float(t) ** 2 / (2 * math.log(2))) + _GUARD
    bits = target + extra
    _, man, exp, bc = t._mpf_ if isinstance(t, mpmath.mpf) else mpmath.mpf(t)._mpf_  # exact
    if man == 0:
        return iv.mpf(1) / 2
    # fixed-point bits of the sums: t itself (the first term) has >= bits + 16 of them, so
    # the loop ends once a term is below 2^-bits of the sum (terms rounded up stay >= 1).
    frac = bits + 16 + max(0, -(exp + bc))
    total_lo, total_hi = marsaglia_sum(man, exp, bits, frac)
    old = _with_prec(bits)
    try:
        scale = iv.mpf(2) ** (-frac)
        series = iv.mpf((endpoints(iv.mpf(total_lo) * scale).lo,
                         endpoints(iv.mpf(total_hi) * scale).hi))
        x = iv.mpf(t)
        phi = rigorous_exp(iv, -(x * x) / 2) / iv.sqrt(2 * iv.pi)
        return iv.mpf(1) / 2 - phi * series
    finally:
        iv.prec = old


def mills_bracket(t: MPF, target: int) -> MPF:
    """An ``iv`` enclosure, at ``target`` bits, of the Mills ratio ``R(t) = Q(t)/phi(t)``.

    For ``t > 0`` the partial sums of ``1/t sum_n (-1)^n (2n-1)!!/t^(2n)`` alternately over-
    and under-estimate ``R(t)`` (``R(t) = int_0^inf exp(-t u - u^2/2) du``; DLMF 7.12(i)), so
    ``R`` lies between two consecutive ones: the sums stop once a term is below
    ``2^-target`` or the terms stop decreasing (``2n + 1 >= t^2``).  Call with ``iv.prec``
    at ``target`` (:func:`_asymptotic` does).

    ``Q(10) = 7.61985302416e-24`` (A&S table 26.1) and ``phi(10) = 7.69459862671e-23`` give
    ``R(10) = 0.0990285964717``:

    >>> print(mpmath.nstr(endpoints(mills_bracket(mpmath.mpf(10), iv.prec)).mid, 12))
    0.0990285964717
    """
    x = iv.mpf(t)
    inv_x2 = 1 / (x * x)
    term = iv.mpf(1)
    partial = iv.mpf(1)
    eps = iv.mpf(2) ** (-target)
    n = 0
    while True:
        nxt = -term * (2 * n + 1) * inv_x2
        nxt_partial = partial + nxt
        n += 1
        small = endpoints(abs(nxt)).hi <= endpoints(eps).lo
        growing = 2 * n + 1 >= endpoints(x * x).lo
        if small or growing:
            break
        term, partial = nxt, nxt_partial
    lo = min(endpoints(partial).lo, endpoints(nxt_partial).lo)
    hi = max(endpoints(partial).hi, endpoints(nxt_partial).hi)
    return iv.mpf((lo, hi)) / x


def _asymptotic(t: MPF, target: int) -> MPF:
    old = _with_prec(target)
    try:
        x = iv.mpf(t)
        phi = rigorous_exp(iv, -x * x / 2) / iv.sqrt(2 * iv.pi)
        return phi * mills_bracket(t, target)
    finally:
        iv.prec = old

__all__ = ["normal_sf"]
