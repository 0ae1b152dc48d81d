"""Certificates of the certified inverses (:meth:`reference.core.model.Result.certify`):
a point with the proof that it satisfies its inequality and an enclosure of the exact
inverse; and the grid of ``mp.prec``-bit points the search for them steps on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath
from mpmath import mp

from reference.core.numeric import MPF, Interval, exact


@dataclass(frozen=True)
class Certificate:
    """A point returned by an inverse, with the proof that it satisfies its inequality.

    ``value`` satisfies ``forward(value) <= target``, shown by ``forward_at_value``
    (an interval-arithmetic enclosure whose upper end is <= ``target``).  ``lo, hi``
    enclose the exact inverse (the boundary point of the feasible set).
    """

    id: str
    value: MPF
    lo: MPF
    hi: MPF
    forward_id: str
    forward_at_value: Interval
    target: Fraction
    unknown: str

    @property
    def holds(self) -> bool:
        return exact(self.forward_at_value.hi, "forward", self.id) <= self.target

    def tight(self, bits: int) -> bool:
        """The enclosure of the exact inverse is as narrow as ``bits`` warrant (:func:`tight`)."""
        return tight(exact(self.lo, "lo", self.id), exact(self.hi, "hi", self.id), bits)

    def __str__(self) -> str:
        return (f"{self.unknown} = {mpmath.nstr(self.value, 20)}  ({self.forward_id} there lies"
                f" in {self.forward_at_value} <= {float(self.target):.17g}; exact inverse in "
                f"[{mpmath.nstr(self.lo, 20)}, {mpmath.nstr(self.hi, 20)}])")


def on_grid(x: Fraction, up: bool) -> Fraction:
    """``x`` rounded up or down to ``mp.prec`` bits (rounding to nearest lost validity), in
    integers: the quotient ``|x| 2^s`` with ``prec + 1`` or ``prec + 2`` bits, cut to
    ``prec`` bits and stepped outward where anything was cut (mpmath's division rounded
    the same way, through two conversions, cost about 10 us a call)."""
    num, den = x.numerator, x.denominator
    if not num:
        return x
    prec, size = mp.prec, abs(num)
    s = prec + 1 - size.bit_length() + den.bit_length()
    q, r = divmod(size << s if s >= 0 else size, den if s >= 0 else den << -s)
    cut = q.bit_length() - prec                     # 1 or 2 bits
    inexact = bool(r) or bool(q & ((1 << cut) - 1))
    q >>= cut
    if inexact and up == (num > 0):                 # away from zero: up for x > 0
        q += 1
    scale = cut - s                                 # |x| on the grid is q 2^scale
    value = Fraction(q << scale) if scale >= 0 else Fraction(q, 1 << -scale)
    return value if num > 0 else -value


def base_step(u: Fraction) -> Fraction:
    """A step a few hundred ulps wide at the working precision (absolute near zero)."""
    scale = abs(u) if u else Fraction(1)
    return scale * Fraction(1, 2 ** (mp.prec - 8))


def least_step(ok: Callable[[int], bool], fast: int, limit: int, what: str) -> int:
    """The least ``e >= 0`` with ``ok(e)``, for ``ok`` false then true (a step ``base 2^e``
    that reaches far enough); ``RuntimeError(what)`` if none up to ``limit``.

    Up to ``fast`` the exponents tried grow as 0, 1, 3, 7, 15, ..., ``fast`` and the last
    gap is then bisected, about ``2 log2 e`` calls instead of ``e``; beyond ``fast`` (steps above
    ``2^-8`` of the point) one at a time, as a plain doubling walk, so that no step tried
    is more than twice the one needed (an inverse solved at 800 digits whose forward value
    is resolved only to 2^-2660 absolutely needed 1800 doubling steps from its relative
    start).  Every ``e`` returned was tested: ``ok`` need not be exactly monotone.
    """
    known_bad, e = -1, 0
    while not ok(e):
        if e >= limit:
            raise RuntimeError(f"{what} (no step up to base 2^{limit} reaches)")
        known_bad = e
        e = min(2 * e + 1 if 2 * e + 1 <= fast else max(e + 1, fast), limit)
    while e - known_bad > 1:
        mid = (known_bad + e) // 2
        if ok(mid):
            e = mid
        else:
            known_bad = mid
    return e


def tight(lo: Fraction, hi: Fraction, bits: int) -> bool:
    """``[lo, hi]`` is at most ``2^(16 - bits)`` wide relative to its larger end: what a
    result asked for at ``bits`` bits may carry (the usual certificate is ``2^(8 - bits)``
    wide; ``[0, 0]``, an inverse at its floor, is tight)."""
    return hi - lo <= max(abs(lo), abs(hi)) * Fraction(2) ** (16 - bits)
