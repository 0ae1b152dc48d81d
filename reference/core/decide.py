"""Certified decisions: the one place an enclosure becomes a verdict.

* :func:`decide` — is a relation (``<=``, ``<``, ``>=``, ``>``, ``==`` within a tolerance)
  between the exact value of a result and a claimed number true?  The claim is converted
  exactly; the result is enclosed in interval arithmetic; the answer is a :class:`Verdict`
  (``holds`` when the whole enclosure satisfies the relation, ``violated`` when none of
  it does), with the exact margin (rounded down where an end of the enclosure is too far
  from 1 for a Fraction: :class:`FarEnd`).  While the enclosure straddles the claim the
  precision is raised along a ladder (the working precision, then 100, 200, 400 digits)
  before the answer is ``undecided``.  The oracle's assertions
  (:mod:`reference.oracle.testing`), the claims audit and the conformance harness all
  decide through it.
* :func:`exceeds` — the same idea for the rules of filters and odometers: a filter halts
  when a statistic *exceeds* its budget (strictly), so equality matters; the precision is
  doubled until the enclosure is on one side.

A filter halts when a statistic *exceeds* its budget (strictly), so equality matters.
The statistic is evaluated in interval arithmetic on the exact inputs and its enclosure
compared with the exact budget; if the enclosure straddles the budget the precision is
doubled.  A result whose output carries such a decision computes it in its ``prepare``
hook (:class:`reference.core.model.Result`) from the exact parameter values *before* the
formula runs, so the point value and the certified enclosure carry the same decision.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import mpmath
from mpmath import iv

from reference.core.numeric import (
    MPF,
    Ctx,
    Interval,
    compare,
    endpoints,
    exact,
    get_dps,
    precision,
    to_ctx,
    working,
)

R = TypeVar("R")
#: Highest precision (decimal digits) tried before a comparison is declared undecidable.
MAX_DPS = 3200


def exceeds(stat: Callable[[Ctx], MPF], budget: Fraction, where: str,
            exact_value: Callable[[], Fraction] | None = None, balls: bool = False) -> bool:
    """Whether the exact value of ``stat`` is strictly greater than ``budget``.

    ``stat(iv)`` must return an enclosure of the exact value (it is called inside the
    interval context at the trial precision: the working one, then doubled while at most
    :data:`MAX_DPS`).  Raises ``RuntimeError`` if the enclosure still straddles ``budget``
    at the last of them (an exact tie of a transcendental statistic with a rational budget,
    which does not happen in practice).  A rational statistic can tie with the budget: with
    ``exact_value`` (its exact value) an enclosure that straddles the budget at the working
    precision is decided exactly instead of along the doubling ladder.  With ``balls``
    (for a statistic built from the generic rigorous functions, as the results on balls
    are), ``stat`` first runs on Arb's balls at the working precision, as rigorous as
    ``iv`` and several times faster; where that fails or does not decide, ``iv`` as above.
    """
    dps = get_dps()
    if balls:
        from reference.core.fastballs import FAST  # python-flint loads on first use
        try:
            with working(FAST):
                enc = endpoints(stat(FAST))
        except Exception:   # (beyond Arb's range, say): iv decides
            pass
        else:
            side = _side(enc, budget)
            if side is not None:
                return side
    while True:   # the working precision always, even above MAX_DPS; then doubled up to it
        with precision(dps), working(iv):
            enc = endpoints(stat(iv))
        side = _side(enc, budget)
        if side is not None:
            return side
        if exact_value is not None:
            return exact_value() > budget
        dps *= 2
        if dps > MAX_DPS:
            break
    raise RuntimeError(f"{where}: cannot decide whether the statistic exceeds "
                       f"{budget} at {dps // 2} digits")


def _side(enc: Interval, budget: Fraction) -> bool | None:
    """True when the enclosure lies above ``budget``, False when at or below, else None."""
    if mpmath.isinf(enc.lo) and enc.lo > 0:
        return True
    if mpmath.isinf(enc.hi) and enc.hi < 0:
        return False
    if not mpmath.isinf(enc.lo) and compare(enc.lo, budget) > 0:
        return True
    if not mpmath.isinf(enc.hi) and compare(enc.hi, budget) <= 0:
        return False
    return None


#: Rationals just below and above ``1/e = 0.36787944117144...``: outside them ``q < 1/e`` is
#: decided in rationals (a precondition of several results, on every call).
INV_E_BELOW, INV_E_ABOVE = Fraction(36787944117, 10**11), Fraction(36787944118, 10**11)


def below_inv_e(q: Fraction) -> bool:
    """``q < 1/e`` exactly (``e`` is irrational, so ``q e = 1`` never happens)."""
    if q <= INV_E_BELOW or q >= INV_E_ABOVE:
        return q <= INV_E_BELOW
    return not exceeds(lambda ctx: ctx.e * to_ctx(ctx, q), Fraction(1), "1/e comparison")


# ---- verdicts on claims ------------------------------------------------------------------

#: Relations a claim can state between the exact value ``X`` and the claimed number ``v``.
RELATIONS = ("<=", "<", ">=", ">", "==")
#: Precisions (decimal digits) tried after the working precision while undecided.
LADDER = (100, 200, 400)


class Verdict(enum.StrEnum):
    """The one verdict vocabulary of the package (a ``str``: ``Verdict.HOLDS == "holds"``)."""

    HOLDS = "holds"
    VIOLATED = "violated"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Judgement:
    """A verdict, the enclosure ``[lo, hi]`` of the exact value it rests on, the precision
    reached and the margin (>= 0: how far the decided side is from the claim): exact, or,
    where an end of the enclosure is a :class:`FarEnd`, rounded down to an ``mp`` number."""

    verdict: Verdict
    enclosure: Interval
    margin: Fraction | MPF | None
    dps: int


#: An end whose binary exponent has more than ``FAR_BITS`` bits (``|x| > 2^65536`` or
#: ``< 2^-65536``) is not converted to a Fraction (``e^(-5e1232)`` would need ``10^1232`` bits).
FAR_BITS = 16


def is_far(x: MPF) -> bool:
    """Whether the finite nonzero ``mp`` number ``x`` has an exponent beyond ``2^FAR_BITS``."""
    return bool(x) and bool(mpmath.isfinite(x)) and abs(int(x._mpf_[2])).bit_length() > FAR_BITS


@dataclass(frozen=True)
class FarEnd:
    """An enclosure end too far from 1 for a Fraction: ordered against rationals exactly
    (:func:`reference.core.numeric.compare` reads the exponents), and subtracted from or by
    one rounded down (a margin that is a lower bound). Nothing else is defined on it.

    >>> tiny = FarEnd(mpmath.exp(-mpmath.mpf(10) ** 30))
    >>> tiny > 0, tiny < Fraction(1, 10**1000), Fraction(1, 2) - tiny < 0.5
    (True, True, True)
    """

    x: MPF

    def _cmp(self, q: Fraction) -> int:
        return compare(self.x, q)

    def __lt__(self, q: Fraction) -> bool:
        return self._cmp(Fraction(q)) < 0

    def __le__(self, q: Fraction) -> bool:
        return self._cmp(Fraction(q)) <= 0

    def __gt__(self, q: Fraction) -> bool:
        return self._cmp(Fraction(q)) > 0

    def __ge__(self, q: Fraction) -> bool:
        return self._cmp(Fraction(q)) >= 0

    def __sub__(self, q: Fraction) -> MPF:  # x - q, rounded down
        return _down(self.x._mpf_, _rational(Fraction(q), "c"))

    def __rsub__(self, q: Fraction) -> MPF:  # q - x, rounded down
        return _down(_rational(Fraction(q), "f"), self.x._mpf_)


def _rational(q: Fraction, rnd: str) -> tuple[int, int, int, int]:
    raw: tuple[int, int, int, int] = mpmath.libmp.from_rational(
        q.numerator, q.denominator, mpmath.mp.prec + 16, rnd)
    return raw


def _down(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> MPF:
    return mpmath.mp.make_mpf(mpmath.libmp.mpf_sub(a, b, mpmath.mp.prec + 16, "f"))


def exact_end(x: MPF, where: str) -> Fraction | FarEnd:
    """An enclosure end exactly as a Fraction, or as a :class:`FarEnd` where it is far."""
    return FarEnd(x) if is_far(x) else exact(x, "enclosure", where)


def _alike(a: Fraction | MPF, b: Fraction | MPF) -> tuple[Fraction | MPF, Fraction | MPF]:
    """Two margins of one type, for their minimum or maximum: as they are if both are
    Fractions, else both as ``mp`` numbers rounded down (mpmath cannot compare a Fraction)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a, b
    low = [mpmath.mp.make_mpf(_rational(m, "f")) if isinstance(m, Fraction) else m
           for m in (a, b)]
    return low[0], low[1]


def judge(relation: str, lo: Fraction | FarEnd, hi: Fraction | FarEnd, v: Fraction,
          tol: Fraction = Fraction(0)) -> tuple[Verdict, Fraction | MPF | None]:
    """Verdict and margin of ``X relation v`` for every ``X`` in ``[lo, hi]`` (exact; each
    margin is one subtraction ``end - c`` or ``c - end``, rounded down for a :class:`FarEnd`).

    >>> judge("<=", Fraction(1), Fraction(2), Fraction(2))
    (<Verdict.HOLDS: 'holds'>, Fraction(0, 1))
    >>> judge("<", Fraction(1), Fraction(2), Fraction(2))[0]
    <Verdict.UNDECIDED: 'undecided'>
    >>> judge(">=", Fraction(1), Fraction(2), Fraction(3))
    (<Verdict.VIOLATED: 'violated'>, Fraction(1, 1))
    >>> judge("==", Fraction(1), Fraction(2), Fraction(3, 2), Fraction(1, 2))
    (<Verdict.HOLDS: 'holds'>, Fraction(0, 1))
    """
    H, V, U = Verdict.HOLDS, Verdict.VIOLATED, Verdict.UNDECIDED
    if relation == "<=":
        return (H, v - hi) if hi <= v else (V, lo - v) if lo > v else (U, None)
    if relation == "<":
        return (H, v - hi) if hi < v else (V, lo - v) if lo >= v else (U, None)
    if relation == ">=":
        return (H, lo - v) if lo >= v else (V, v - hi) if hi < v else (U, None)
    if relation == ">":
        return (H, lo - v) if lo > v else (V, v - hi) if hi <= v else (U, None)
    if relation != "==":
        raise ValueError(f"relation must be one of {', '.join(RELATIONS)}, got {relation!r}")
    if lo >= v - tol and hi <= v + tol:
        return H, min(*_alike(lo - (v - tol), (v + tol) - hi))
    if hi < v - tol or lo > v + tol:
        return V, max(*_alike((v - tol) - hi, lo - (v + tol)))
    return U, None


def decide(enclose: Callable[[], Interval], relation: str, claim: object, *,
           tol: object = 0, ladder: Sequence[int] = LADDER, where: str = "claim",
           ) -> Judgement:
    """Decide ``X relation claim`` for the exact value ``X`` that ``enclose()`` encloses.

    ``enclose()`` is called at the working precision and then, while undecided, at each
    precision of ``ladder`` above it (inside :func:`reference.core.numeric.precision`).
    ``claim`` and ``tol`` are converted exactly (a float is the binary number it holds).

    >>> from mpmath import mpf
    >>> third = lambda: Interval(mpf("0.333"), mpf("0.334"))   # encloses 1/3
    >>> decide(third, "<=", "0.34").verdict, decide(third, ">", "0.34").verdict
    (<Verdict.HOLDS: 'holds'>, <Verdict.VIOLATED: 'violated'>)
    >>> j = decide(third, "==", "1/3")           # no enclosure of this width can pin it
    >>> j.verdict, j.dps
    (<Verdict.UNDECIDED: 'undecided'>, 400)
    """
    v = exact(claim, "claim", where)
    t = exact(tol, "tolerance", where)
    start = get_dps()
    steps = [start, *(d for d in ladder if d > start)]
    for dps in steps:
        with precision(dps):
            enc = enclose()
        verdict, margin = judge(relation, exact_end(enc.lo, where), exact_end(enc.hi, where),
                                v, t)
        if verdict is not Verdict.UNDECIDED:
            return Judgement(verdict, enc, margin, dps)
    return Judgement(Verdict.UNDECIDED, enc, None, steps[-1])
