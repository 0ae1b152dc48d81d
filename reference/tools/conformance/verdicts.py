"""Grades: a library's number against our certified enclosures, decided exactly.

Every comparison is between rationals: the library's float is converted exactly
(``Fraction(x)``) and so are the endpoints of our interval enclosures.

For an epsilon (or a boundary) the library guarantees (:attr:`Measure.UPPER`):

* ``error`` if it raised, or returned NaN or an infinity;
* ``UNSOUND`` if it lies strictly below ``floor.lo`` (the true value is larger: the
  library under-reports);
* ``sound`` if it is at least ``valid.hi`` (a bound we have proven valid is no larger),
  with ``tight_to`` its relative excess over the middle of ``valid``;
* ``undecided`` otherwise (inside the enclosures, or between the proven floor and the
  best proven-valid bound), and ``no-reference`` when neither enclosure exists.

>>> from fractions import Fraction
>>> from reference.core.numeric import Interval
>>> import mpmath
>>> ref = Reference(Interval(mpmath.mpf(2), mpmath.mpf(2)), Interval(mpmath.mpf(1), mpmath.mpf(1)),
...                 "V", "F")
>>> [judge_upper(x, ref)[0].value for x in (2.5, 1.5, 0.5, float("nan"))]
['sound', 'undecided', 'UNSOUND', 'error']
>>> judge_upper(2.5, ref)[1]
0.25
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

from reference.core.decide import Verdict, judge
from reference.core.numeric import Interval, exact
from reference.tools.conformance.model import (
    Adaptivity,
    FilterReference,
    Grade,
    Reference,
    Theorem,
)


def _q(x: object) -> Fraction:
    return exact(x, "enclosure", "conformance")


def widened(enc: Interval, slack: float) -> tuple[Fraction, Fraction]:
    """The rational endpoints of ``enc`` widened by the relative ``slack``."""
    lo, hi = _q(enc.lo), _q(enc.hi)
    s = Fraction(slack)
    return lo - abs(lo) * s, hi + abs(hi) * s


def finite_number(value: object) -> str | None:
    """Why ``value`` is not a finite real number, or None if it is."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return f"returned {value!r}, not a number"
    f = float(value)
    if math.isnan(f):
        return "returned NaN"
    if math.isinf(f):
        return f"returned {f} (overflow or an unhandled edge case)"
    return None


def relative(value: Fraction, enc: Interval) -> float:
    """``(value - mid)/mid`` for the enclosure's middle (absolute if the middle is 0)."""
    lo, hi = _q(enc.lo), _q(enc.hi)
    mid = (lo + hi) / 2
    return float((value - mid) / mid) if mid else float(value - mid)


def above_hi(value: Fraction, enc: Interval) -> float:
    """``(value - hi)/hi``: the excess over a bracket's upper end, the least value proven
    valid (absolute if ``hi`` is 0)."""
    hi = _q(enc.hi)
    return float((value - hi) / hi) if hi else float(value - hi)


def judge_upper(value: object, ref: Reference) -> tuple[Grade, float | None, str]:
    """Grade, relative excess over the best valid value, and a sentence of detail."""
    bad = finite_number(value)
    if bad is not None:
        return Grade.ERROR, None, bad
    if ref.valid is None and ref.floor is None:
        return Grade.NO_REFERENCE, None, "no registered reference result"
    x = Fraction(float(value))  # type: ignore[arg-type]
    # The library claims ``true value <= x``; decided by the one rule of core.decide on the
    # enclosure of the true value (floor) and on that of the best proven-valid bound.
    if ref.floor is not None:
        if judge("<=", *widened(ref.floor, ref.slack), x)[0] is Verdict.VIOLATED:
            short = relative(x, ref.floor)
            # the shortfall is measured against the true value's floor, not the valid bound
            # above it (else a rounding-size shortfall below the Gaussian floor would show as
            # the floor-to-CKS20 gap and never be labelled "rounding")
            return (Grade.UNSOUND, short,
                    f"below the true value (from {ref.floor_id}) by {-short:.3g} relative")
    if ref.valid is not None:
        excess = above_hi(x, ref.valid) if ref.bracket else relative(x, ref.valid)
        if judge("<=", *widened(ref.valid, ref.slack), x)[0] is Verdict.HOLDS:
            return Grade.SOUND, excess, f"at least the proven-valid {ref.valid_id}"
        where = ("inside the enclosure" if ref.exact
                 else f"between the proven floor ({ref.floor_id or 'none'}) and "
                      f"{ref.valid_id}")
        return Grade.UNDECIDED, excess, where
    return Grade.UNDECIDED, None, f"above the floor {ref.floor_id}; no proven-valid bound"


def judge_count(count: object, ref: FilterReference, theorem: Theorem,
                fixed_unsafe: bool) -> tuple[Grade, float | None, str]:
    """Grade on the number of equal rounds a library filter admits.

    ``fixed_unsafe`` says whether ``count`` rounds fixed in advance already exceed the
    budget (exact optimal composition, decided by the caller).  ``tight_to`` is the
    fraction of the proven filter's rounds the library does not use (0 = as many).

    >>> from reference.tools.conformance.model import CompositionTheorem, FilterTheorem
    >>> ref = FilterReference(proven=436, proven_id="RSWR23:Thm2", fixed=909,
    ...                       fixed_id="KOV15:Thm3.3")
    >>> judge_count(595, ref, CompositionTheorem("KOV15 Thm 3.5"), False)[0].value
    'undecided'
    >>> judge_count(110, ref, FilterTheorem("basic"), False)[0].value
    'sound'
    >>> judge_count(1000, ref, FilterTheorem("basic"), True)[0].value
    'UNSOUND'
    """
    if isinstance(count, bool) or not isinstance(count, int):
        return Grade.ERROR, None, f"returned {count!r}, not a count"
    unused = (ref.proven - count) / ref.proven if ref.proven else 0.0
    if fixed_unsafe:
        return (Grade.UNSOUND, unused, f"{count} rounds exceed the budget even with "
                f"parameters fixed in advance (exact optimum admits {ref.fixed}, {ref.fixed_id})")
    if count <= ref.proven:
        return Grade.SOUND, unused, (f"no more than the {ref.proven} rounds of the proven "
                                       f"filter {ref.proven_id}")
    if not theorem.covers(Adaptivity.FULLY_ADAPTIVE):
        return Grade.UNDECIDED, unused, (
            f"admits {count} > {ref.proven} ({ref.proven_id}): applies a {theorem.kind} "
            f"({theorem.name}; {theorem.adaptivity.value}: valid only for parameters fixed in "
            f"advance, where up to {ref.fixed} rounds are admissible) where a filter theorem "
            f"(FullyAdaptive) is needed; no proven filter admits this many")
    return Grade.UNDECIDED, unused, (f"admits {count} > {ref.proven} ({ref.proven_id}); "
                                       f"claims a filter theorem we do not have ({theorem.name})")
