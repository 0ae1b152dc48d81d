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

``bracket_near(ctx, h, lo, hi, guess)`` tries the short cut first: two evaluations that
decide ``h < 0`` and ``h > 0`` at ``guess (1 -+ 2^(7 - prec))``, the width ``bracket``
stops at, and :func:`bracket` only when they do not.  The guess is untrusted; callers make
it with :func:`newton` (safeguarded Newton steps, in floats then ``mp``): CKS20's
certified optimal orders then cost 4 to 9 evaluations in ``mp`` and ``iv`` (and a few in
floats) instead of regula falsi's 15 to 23.
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


#: Most steps of :func:`newton` (it only makes a starting point: giving up costs speed).
_NEWTON_STEPS = 64


def newton(ctx: Ctx, h: Callable[[Ctx, MPF], MPF], slope: Callable[[Ctx, MPF], MPF], lo: MPF,
           hi: MPF, start: MPF, absolute: bool = False, spread: int = 0) -> MPF | None:
    """A point near the root of increasing ``h`` in ``(lo, hi)``: safeguarded Newton steps in
    ``ctx`` (``mp``, or ``fp`` for a cheap first approximation) from ``start`` (``slope``
    approximates ``h'``; a step that leaves the bracket of the signs seen so far bisects
    it, geometrically across orders of magnitude), stopped once a step moves less than
    ``2^(4 + spread - prec)`` relatively (``absolute``: less than that number, for a root
    in a logarithmic variable; ``spread``: the bits ``h`` cancels near the root, whose
    rounding noise moves the steps by that much more); None after ``_NEWTON_STEPS``.

    Nothing relies on its accuracy: :func:`bracket_near` decides the signs around it.

    >>> with mp.workdps(30):
    ...     x = newton(mp, lambda c, x: x * x - 2, lambda c, x: 2 * x, 1, 2, 1)
    ...     print(mp.nstr(x, 25))
    1.414213562373095048801689
    """
    a, b, x = ctx.mpf(lo), ctx.mpf(hi), ctx.mpf(start)
    tol = ctx.ldexp(ctx.mpf(1), 4 + spread - ctx.prec)
    for _ in range(_NEWTON_STEPS):
        if not a < x < b:
            x = ctx.sqrt(a * b) if a > 0 and b > 4 * a else (a + b) / 2
        fx = h(ctx, x)
        if fx == 0:
            return x
        if fx < 0:
            a = x
        else:
            b = x
        d = slope(ctx, x)
        if d > 0 and not ctx.isinf(d):  # (NaN > 0 is false)
            y = x - fx / d
            if abs(y - x) <= tol * (1 if absolute else abs(x)):
                return y
        else:
            y = b + 1
        if not a < y < b:
            y = ctx.sqrt(a * b) if a > 0 and b > 4 * a else (a + b) / 2
        x = y
    return None


def bracket_near(ctx: Ctx, h: Callable[[Ctx, MPF], MPF], lo: MPF, hi: MPF,
                 guess: MPF | None, spread: int = 0) -> MPF:
    """:func:`bracket` of the root of increasing ``h`` in ``[lo, hi]``, first tried as the
    interval ``guess (1 +- 2^(7 + spread - prec))``: where ``h`` is decided negative at its
    left end and positive at its right end (two evaluations, ``iv``: certified), that
    interval (or, in ``mp``, the guess) is the answer, as tight as :func:`bracket`'s
    (``2^(8 - prec)``) for ``spread = 0``; a caller whose ``h`` cancels ``spread`` bits
    near the root (and carries that many guard bits) widens it by ``2^spread``.
    Otherwise :func:`bracket` runs on the whole ``[lo, hi]``.  The guess is untrusted (a
    solver's point, :func:`newton`): only decided signs are used, so the answer holds the
    root whatever the guess.

    >>> from reference.core.numeric import working
    >>> with working(iv, 30):
    ...     enc = endpoints(bracket_near(iv, lambda c, x: x * x - 2, iv.mpf(1), iv.mpf(2),
    ...                                  mp.sqrt(2)))
    >>> with mp.workdps(80):
    ...     print(enc.lo < mp.sqrt(2) < enc.hi, enc.hi - enc.lo < mp.mpf("1e-35"))
    True True
    """
    a, b = mp.mpf(endpoints(lo).lo), mp.mpf(endpoints(hi).hi)
    if guess is None or not a < guess < b:
        return bracket(ctx, h, lo, hi)
    x = mp.mpf(guess)
    w = mp.ldexp(abs(x), 7 + spread - mp.prec)
    left, right = x - w, x + w
    if a < left and right < b and _eval(ctx, h, left)[0] < 0 < _eval(ctx, h, right)[0]:
        return iv.mpf((left, right)) if is_interval(ctx) else ctx.mpf(x)
    return bracket(ctx, h, lo, hi)
