"""Certified brackets of the root of an increasing function (shared by the conversions).

``bracket(ctx, h, lo, hi)`` returns, for ``ctx = iv``, an interval that provably contains
the unique root of an increasing ``h`` on ``[lo, hi]``: every step keeps a left end where
``h < 0`` and a right end where ``h > 0``, both decided in interval arithmetic.  For
``ctx = mp`` it returns a point within a few ulps of the root.

The steps are Illinois (modified regula falsi) steps on the midpoints of the function
values, safeguarded: a geometric bisection while the bracket spans orders of magnitude, and
a bisection whenever three steps have not halved the bracket, so the worst case is four
steps per halving and the usual case is superlinear (15 to 23 evaluations at 50 digits
instead of ~200, 20 to 26 at 200 digits).  Three, not two: Illinois moves the far end
only after two steps on the same side, and a bisection after every second step had kept
it from ever doing so (sqrt 2 at 200 digits took 139 evaluations, one end never moved).
From a left end at 0, once a step has landed above the root (or at once when ``b > 1``
and ``h(b) > -4 h(0)``), the steps are ``b 2^-1, b 2^-2, b 2^-4, ...`` (the exponent
doubles) until the left end is positive, so a root ``2^-n`` below ``b`` costs ``O(log n)``
steps, not ``n``.  (Before, a step that exactly halved the bracket did not count as slow,
so a root 1e-300 from [0, 1] took 1000 halvings, and a root 1e-5000 ran out of steps and
came back as the bracket [0, 2^-4053] with its midpoint as the point value.)
When the sign at a step cannot be decided (the value's enclosure contains 0), the step is
within evaluation error of the root and the bracket is closed around it from both sides.
"""

from __future__ import annotations

from collections.abc import Callable

from mpmath import iv, mp

from reference.core.numeric import MPF, Ctx, endpoints, is_interval

#: Steps allowed beyond the working precision (geometric phase included).
_EXTRA_STEPS = 4000


def _eval(ctx: Ctx, h: Callable[[Ctx, MPF], MPF], x: MPF) -> tuple[int, MPF]:
    """Decided sign of ``h(x)`` (-1, +1, or 0 when undecided) and a point estimate of it."""
    value = h(ctx, ctx.mpf(x))
    ends = endpoints(value)
    mid = (mp.mpf(ends.lo) + mp.mpf(ends.hi)) / 2
    if ends.hi < 0:
        return -1, mid
    if ends.lo > 0:
        return 1, mid
    return (0 if is_interval(ctx) else (1 if value >= 0 else -1)), mid


def _close(ctx: Ctx, h: Callable[[Ctx, MPF], MPF], x: MPF, a: MPF, b: MPF,
           tol: MPF) -> tuple[MPF, MPF]:
    """Narrow ``[a, b]`` around ``x``, where the sign of ``h`` is undecided."""
    step = tol * abs(x) if x else tol * (b - a)  # relative: tiny roots stay tight
    lo_done = hi_done = False
    while not (lo_done and hi_done):
        if not lo_done:
            left = x - step
            if left <= a:
                lo_done = True
            elif _eval(ctx, h, left)[0] < 0:
                a, lo_done = left, True
        if not hi_done:
            right = x + step
            if right >= b:
                hi_done = True
            elif _eval(ctx, h, right)[0] > 0:
                b, hi_done = right, True
        step *= 4
    return a, b


def bracket(ctx: Ctx, h: Callable[[Ctx, MPF], MPF], lo: MPF, hi: MPF) -> MPF:
    """Enclosure (``iv``) or approximation (``mp``) of the root of increasing ``h`` in ``[lo, hi]``.

    Raises ``RuntimeError`` if the signs at the ends are not ``h(lo) < 0 < h(hi)`` (a
    wrong starting bracket is a bug of the caller, never an input error).

    >>> from mpmath import mp
    >>> with mp.workdps(30):  # within 2^8 ulps of sqrt(2) = 1.41421356237309504880168872421
    ...     print(mp.nstr(bracket(mp, lambda c, x: x * x - 2, mp.mpf(1), mp.mpf(2)), 27))
    1.41421356237309504880168872
    >>> from mpmath import iv
    >>> from reference.core.numeric import working
    >>> with working(iv, 30):
    ...     enc = endpoints(bracket(iv, lambda c, x: x * x - 2, iv.mpf(1), iv.mpf(2)))
    >>> with mp.workdps(80):
    ...     print(enc.lo < mp.sqrt(2) < enc.hi, enc.hi - enc.lo < mp.mpf("1e-35"))
    True True
    """
    a, b = mp.mpf(endpoints(lo).lo), mp.mpf(endpoints(hi).hi)
    sa, fa = _eval(ctx, h, a)
    sb, fb = _eval(ctx, h, b)
    if sa >= 0 or sb <= 0:
        raise RuntimeError(f"internal error: no certified sign change on [{a}, {b}]")
    tol = mp.mpf(2) ** (8 - mp.prec)
    last, width_before, since_halved, from_zero = 0, b - a, 0, 0
    for _ in range(4 * mp.prec + _EXTRA_STEPS):
        if b - a <= tol * abs(b):
            break
        if a > 0 and b > 4 * a:
            x = mp.sqrt(a * b)
        elif a == 0 and (last > 0 or (b > 1 and fb > -4 * fa)):
            x = mp.ldexp(b, -(2**from_zero))  # from 0: b/2, b/4, b/16, ... (orders fast)
            from_zero += 1
        elif since_halved >= 3 or not fa < 0 < fb:
            x = (a + b) / 2
        else:
            x = b - fb * (b - a) / (fb - fa)
        nudge = tol * abs(x) / 4  # never step closer than this to an end (as in Brent)
        x = min(max(x, a + nudge), b - nudge)
        if not a < x < b:
            x = (a + b) / 2
            if not a < x < b:
                break
        s, fx = _eval(ctx, h, x)
        if s == 0:
            a, b = _close(ctx, h, x, a, b, tol)
            break
        if fx == 0 and not is_interval(ctx):
            return ctx.mpf(x)
        if s < 0:
            a, fa = x, fx
            if last < 0:
                fb /= 2
            last = -1
        else:
            b, fb = x, fx
            if last > 0:
                fa /= 2
            last = 1
        if b - a <= width_before / 2:
            width_before, since_halved = b - a, 0
        else:
            since_halved += 1
    if is_interval(ctx):
        return iv.mpf((a, b))
    return ctx.mpf((a + b) / 2)
