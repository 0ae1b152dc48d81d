"""Rigorous enclosures of ``expm1(v)`` and ``log1p(v)`` at a binary point ``0 < |v| < 2^-8``,
summed in integers.

Both are ``v S`` with a series ``S`` close to 1:

* ``expm1(v) = v sum_(n>=0) v^n / (n+1)!``,
* ``log1p(v) = v sum_(n>=0) (-v)^n / (n+1)``.

``v = (-1)^sign man 2^e`` is exact, so each term's magnitude is a chain of exact operations
(multiply by ``man``, divide by ``2^-e`` and by an integer): taken in fixed point with
``F = prec + 24`` fractional bits, once rounded down and once up at every step, the chains
give integers ``lo_n <= 2^F |term_n| <= hi_n``; the signed sums of the right ends are then
bounds on the partial sum.  Every term is at most ``|v| <= 2^-8`` times the one before, so
all terms after the ``N``-th add up to at most ``1/(1 - |v|) < 2`` times the next one, which
is added to both sides.  ``v`` times the two integers, shifted by ``e - F``, are exact binary
numbers, rounded outward to ``prec`` bits once.  Every step is an integer operation with
its rounding direction chosen, so no library's rounding is trusted (mpmath's own interval
``expm1`` at ``|v| < 2^-prec`` returns ``v + v^2/2`` with no remainder); the integers are
about ``prec`` bits, ten times faster than the same series in ``iv`` arithmetic.
"""

from __future__ import annotations

from typing import Any

import mpmath
from mpmath import iv, mp

#: Fractional bits of the fixed point beyond the precision asked for.
GUARD = 24


def _down(a: int, shift: int, d: int) -> int:
    """``floor(a / (d 2^shift))`` for ``a >= 0``, ``d >= 1``: Python's ``>>`` and ``//``
    both round down, and rounding twice down is rounding the quotient down."""
    return (a >> shift) // d


def _up(a: int, shift: int, d: int) -> int:
    """``ceil(a / (d 2^shift))`` for ``a >= 0``: the floor of the negative, negated."""
    return -((-a >> shift) // d)


def _sums(man: int, shift: int, terms: int, frac: int, log: bool,
          alternating: bool) -> tuple[int, int]:
    """Integers ``lo <= 2^frac S <= hi`` for ``S`` of the module doc, ``|v| = man 2^-shift``;
    ``alternating``: the terms' signs are ``+, -, +, ...``, else all ``+``."""
    low = high = 1 << frac                      # the term n = 0 is 1, exact
    total_lo = total_hi = low
    p_lo = p_hi = low                           # log1p: |v|^n; expm1: the term itself
    for n in range(1, terms + 2):               # the last one bounds the rest
        if log:
            p_lo, p_hi = _down(p_lo * man, shift, 1), _up(p_hi * man, shift, 1)
            low, high = p_lo // (n + 1), -(-p_hi // (n + 1))
        else:
            low, high = _down(low * man, shift, n + 1), _up(high * man, shift, n + 1)
        if n > terms:
            break
        if alternating and n % 2:
            total_lo, total_hi = total_lo - high, total_hi - low
        else:
            total_lo, total_hi = total_lo + low, total_hi + high
    return total_lo - 2 * high, total_hi + 2 * high


def series(v: Any, log: bool) -> Any:
    """An ``iv`` enclosure (at ``iv.prec``) of ``log1p(v)`` with ``log``, else ``expm1(v)``,
    at the ``mp`` number ``0 < |v| < 2^-8`` (the module doc)."""
    sign, man, e, bc = v._mpf_
    if not man or e + bc > -8:
        raise ValueError(f"the series needs 0 < |v| < 2^-8, got {v}")
    prec = iv.prec
    frac = prec + GUARD
    terms = frac // -(e + bc)           # |v| < 2^(e+bc): |v|^(terms+1) < 2^-frac, the rest
                                        # below 2 units of 2^-frac
    alternating = bool(sign) != log     # expm1: the signs of v^n; log1p: of (-v)^n
    lo, hi = _sums(man, -e, terms, frac, log, alternating)
    lib = mpmath.libmp
    if sign:                            # v S with v < 0: the upper S gives the lower end
        lo, hi = -man * hi, -man * lo
    else:
        lo, hi = man * lo, man * hi
    ends = (lib.from_man_exp(lo, e - frac, prec, lib.round_floor),
            lib.from_man_exp(hi, e - frac, prec, lib.round_ceiling))
    return iv.mpf((mp.make_mpf(ends[0]), mp.make_mpf(ends[1])))
