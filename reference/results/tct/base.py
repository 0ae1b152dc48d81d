"""Shared machinery of the target-charging family: Cohen and Lyu (2023), *The
target-charging technique for privacy analysis across interactive computations*,
arXiv:2302.11044 (CL23).

* :func:`exact_result` makes a result whose formula receives the **exact** inputs
  (``Fraction`` and tuples of them) instead of context numbers: the finite q-target
  oracle decides exact linear programs and must see the probabilities themselves.
* :func:`ratio_bracket` encloses ``e^eps`` between two short rationals, so quantities
  that are monotone in ``e^eps`` are enclosed by two exact computations.
* :func:`label_note` formats a result's confidence label for ``notes``: the text of CL23
  available to this project kept the prose and proof outlines but lost every formula, so
  a result says which kind of reconstruction it is (labels ``recovered``,
  ``reconstructed and numerically verified``, ``uncertain``) and never presents a
  reconstructed constant as the paper's.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeVar

from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.fastballs import FAST
from reference.core.model import Result, ResultKind, Status, result
from reference.core.numeric import (
    MPF,
    Ctx,
    endpoints,
    exact,
    exp,
    get_dps,
    is_interval,
    to_ctx,
    working,
)
from reference.core.params import Param

R = TypeVar("R")

Label = Literal["recovered", "reconstructed and numerically verified", "uncertain"]

#: Guard digits of the rational bracket of ``e^eps`` beyond the working precision.
BRACKET_GUARD = 10


def label_note(label: Label, detail: str = "") -> str:
    """``notes`` text carrying the result's confidence label (shown by ``catalog --json``)."""
    if label == "recovered":
        text = "Confidence label: recovered from surviving text. The available text of CL23 " \
               "lost every formula; its surviving prose fixes this statement, whose symbols " \
               "were filled in by this project (not the paper's printed display)."
    else:
        text = f"Confidence label: {label}. The available text of CL23 lost every formula; " \
               "this form was reconstructed by this project from the paper's surviving " \
               "prose and proof outlines, not the paper's printed display."
    return f"{text} {detail}".strip()


def exact_result(rid: str, *, title: str, kind: ResultKind, statement: str, params: list[Param],
                 status: Status, notes: str, probabilistic: bool = False,
                 precondition: Callable[[Mapping[str, Any], str], None] | None = None,
                 balls: bool = False) -> Callable[[Callable[..., R]], Result[R]]:
    """:func:`reference.core.model.result` with ``exact_inputs=True`` (the formula gets the
    exact ``Fraction`` inputs: the finite q-target oracle decides exact linear programs)."""
    return result(rid, title=title, kind=kind, statement=statement, params=params,
                  status=status, notes=notes, probabilistic=probabilistic,
                  precondition=precondition, exact_inputs=True, balls=balls)


# ---- rational brackets of e^eps ---------------------------------------------------------

def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in ``[lo, hi]`` (``0 <= lo <= hi``).

    Continued-fraction (Stern–Brocot) descent; short rationals keep the exact linear
    programs fast.

    >>> simplest_between(Fraction(314, 100), Fraction(315, 100))
    Fraction(22, 7)
    """
    if lo > hi:
        raise ValueError("empty interval")
    # lo = a/b, hi = c/d in integers (Fraction arithmetic here cost ~1 ms per bracket).
    a, b, c, d = lo.numerator, lo.denominator, hi.numerator, hi.denominator
    terms: list[int] = []   # continued-fraction terms (a loop: 200-digit ends recursed too deep)
    while True:
        floor = a // b
        if floor * b == a or (floor + 1) * d <= c:
            terms.append(floor if floor * b == a else floor + 1)
            break
        # lo, hi in (floor, floor + 1): continue on the reciprocals of the fractional parts.
        terms.append(floor)
        a, b, c, d = d, c - floor * d, b, a - floor * b
    num, den = terms[-1], 1
    for term in reversed(terms[:-1]):
        num, den = term * num + den, num
    return Fraction(num, den)


#: The largest eps of a result that carries ``e^eps`` as an exact rational (the q-target
#: oracle, the exact charging sums): ``e^1000`` has 435 digits; ``e^(10^15)`` would have
#: 4e14, which no exact computation finishes.  Far above any privacy parameter in use.
EXACT_EPS_MAX = Fraction(1000)


def exact_eps(example: str, doc: str = "") -> Param:
    """The privacy parameter ``eps`` of an exact result: ``0 <= eps <= EXACT_EPS_MAX``."""
    return Param("eps", "real", lo=Fraction(0), hi=EXACT_EPS_MAX, example=example,
                 doc=doc or "privacy parameter (at most 1000: e^eps is carried exactly)")


def ratio_bracket(eps: Fraction, digits: int | None = None) -> tuple[Fraction, Fraction]:
    """Short rationals ``w_lo <= e^eps <= w_hi``, relative width about ``10**-digits``.

    The default is the working precision plus guard digits.  ``eps = 0`` gives ``(1, 1)``.

    >>> lo, hi = ratio_bracket(Fraction(1), digits=6)
    >>> lo < Fraction(27182818, 10**7) < hi, float(hi - lo) < 1e-5
    (True, True)
    """
    if eps == 0:
        return Fraction(1), Fraction(1)
    dps = (get_dps() + BRACKET_GUARD) if digits is None else digits
    with working(FAST, dps + 5):    # Arb's exp: 20 times faster than iv's here
        enc = endpoints(exp(FAST, to_ctx(FAST, eps)))
    lo = exact(enc.lo, "e^eps", "ratio_bracket")
    hi = exact(enc.hi, "e^eps", "ratio_bracket")
    # a ball around e^eps for a tiny eps reaches across 1, where e^eps is not (exactly)
    lo, hi = (max(lo, Fraction(1)), hi) if eps > 0 else (lo, min(hi, Fraction(1)))
    slack = hi * Fraction(1, 10**dps)
    return simplest_between(max(Fraction(0), lo - slack), lo), simplest_between(hi, hi + slack)


def fraction_to_ctx(ctx: Ctx, lo: Fraction, hi: Fraction | None = None) -> MPF:
    """``[lo, hi]`` (or the point ``lo``) as a context number; outward-rounded for ``iv``."""
    if not is_interval(ctx):
        return to_ctx(ctx, lo)
    a = endpoints(to_ctx(iv, lo)).lo
    b = endpoints(to_ctx(iv, lo if hi is None else hi)).hi
    return iv.mpf((a, b))


def check_target(target: Sequence[int], size: int, name: str, where: str) -> frozenset[int]:
    """Outcome indices of a target set, each in ``[0, size)``."""
    for t in target:
        if not 0 <= t < size:
            raise DomainError(name, list(target), f"must hold outcome indices in [0, {size})",
                              where)
    return frozenset(target)


def mp_value(x: Fraction) -> MPF:
    """The rational ``x`` at the working precision (for doctests and messages)."""
    return to_ctx(mp, x)


def require_pure_pair(P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction, name: str,
                      where: str) -> None:
    """DomainError unless ``P ~_eps Q`` (pointwise ratios within ``e^eps``), decided exactly
    on a rational bracket of ``e^eps``; a pair whose every ratio is far inside passes on
    floats first (:func:`_far_inside`; the bracket costs about 85 us)."""
    if _far_inside(P, Q, eps):
        return
    lo, hi = ratio_bracket(eps)
    worst_hi = any(max(p, q) > hi * min(p, q) for p, q in zip(P, Q, strict=True))
    if worst_hi:
        raise DomainError(name, [float(x) for x in Q], "must be eps-indistinguishable from the "
                          "other law (every ratio within e^eps)", where)
    if any(max(p, q) > lo * min(p, q) for p, q in zip(P, Q, strict=True)):
        raise DomainError(name, [float(x) for x in Q], "has a ratio within the working "
                          "precision of e^eps; raise reference.precision", where)


def _far_inside(P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction) -> bool:
    """Every ratio ``max(p, q) / min(p, q)`` at most ``e^eps (1 - 10^-9)``, in floats; False
    (decide exactly) for a zero, subnormal or otherwise doubtful pair.  Each mass's double is
    within ``2^-53`` of it, ``exp(float(eps))`` within about ``eps 2^-53 <= 10^-13`` of
    ``e^eps`` (``eps <= 1000``; past the doubles, exactly), the product a few ulps off: so
    the exact ratio is below ``e^eps (1 - 10^-9 / 2)``, below the lower end of the bracket
    (within ``10^-(dps+10) <= 10^-11`` of ``e^eps`` at any working precision), and
    ``require_pure_pair`` accepts it."""
    try:
        bound = math.exp(float(eps)) * (1 - 1e-9)
    except OverflowError:
        return False
    for p, q in zip(P, Q, strict=True):
        a, b = float(p), float(q)
        small, big = (a, b) if a <= b else (b, a)
        if small < sys.float_info.min or big > bound * small:
            return False
    return True
