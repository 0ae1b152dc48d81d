"""Pytest-friendly assertions that judge another library's numbers against the oracle.

Each assertion evaluates a registered result (by catalogue id) in interval arithmetic,
so the comparison is with a *certified* enclosure ``[lo, hi]`` of the exact value, and
the library's number is converted exactly (a float is the binary number it holds):

* :func:`assert_sound_upper_bound` — the library claims an upper bound (an epsilon or a
  delta of a guarantee): it must be ``>= hi``.  Below ``lo`` it is *unsound*
  (under-reports the privacy loss).
* :func:`assert_sound_lower_bound` — the library claims a lower bound (an attack, an
  audit, a calibrated noise level that must not be too small ...): it must be ``<= lo``.
* :func:`assert_close_to` — the library claims the value itself, to a tolerance.

When the enclosure straddles the library's number the evaluation is repeated at 100, 200 and
400 digits (:func:`reference.core.decide.decide`) before the assertion fails as
undecided.  Hypothesis strategies for valid parameters are in
:mod:`reference.oracle.strategies`.

>>> assert_sound_upper_bound(9.2658, "CKS20:Cor13", rho="1.3527", delta="1e-6")
>>> assert_sound_upper_bound(9.0, "CKS20:Cor13", rho="1.3527", delta="1e-6")
Traceback (most recent call last):
...
AssertionError: 9.0 is below CKS20:Cor13(rho='1.3527', delta='1e-6') = 9.26576273374
(certified [9.26576273374, 9.26576273374]): not a sound upper bound, short by 0.26576273
(relative 0.02868)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import mpmath

from reference.core.certificates import Certificate
from reference.core.decide import FarEnd, Verdict, decide, exact_end, is_far, judge
from reference.core.errors import DomainError
from reference.core.numeric import Interval, exact, get_dps
from reference.results import get


@dataclass(frozen=True)
class Comparison:
    """A library's number against the certified enclosure of a registered result.

    ``excess`` is ``value - hi`` (>= 0 for a sound upper bound; exact, or rounded down
    where ``hi`` is too far from 1 for a Fraction, beyond ``2^(+-65536)``);
    ``relative_excess`` divides it by ``|hi|`` (``None`` when ``hi`` is 0).
    """

    result_id: str
    value: Fraction | float
    enclosure: Interval
    dps: int

    @property
    def excess(self) -> Fraction | float | mpmath.mpf:
        if isinstance(self.value, float):
            return self.value
        return self.value - _q(self.enclosure.hi)

    @property
    def relative_excess(self) -> float | None:
        if self.enclosure.hi == 0 or isinstance(self.value, float):
            return None
        return _ratio(self.value - _q(self.enclosure.hi), _q(self.enclosure.hi))

    def _verdict(self, relation: str) -> Verdict:
        if isinstance(self.value, float):  # +-inf: decided by its sign
            holds = (self.value > 0) == (relation == "<=")
            return Verdict.HOLDS if holds else Verdict.VIOLATED
        return judge(relation, _q(self.enclosure.lo), _q(self.enclosure.hi), self.value)[0]

    def upper_verdict(self) -> Verdict:
        """As a claimed upper bound (exact value <= value): ``holds`` (value >= hi),
        ``violated`` (value < lo: not sound) or ``undecided``."""
        return self._verdict("<=")

    def lower_verdict(self) -> Verdict:
        """As a claimed lower bound (exact value >= value): ``holds`` (value <= lo),
        ``violated`` (value > hi) or ``undecided``."""
        return self._verdict(">=")


def _q(x: Any) -> Fraction | FarEnd:
    return exact_end(x, "reference.oracle.testing")


def _ratio(gap: Fraction | mpmath.mpf, end: Fraction | FarEnd) -> float:
    """``gap / |end|`` as a float (in ``mp`` where ``end`` is far from 1)."""
    if isinstance(end, FarEnd):
        return float(mpmath.mpf(gap) / abs(end.x))
    return float(gap / abs(end))


def _number(x: Fraction | mpmath.mpf, digits: int) -> str:
    """``x`` to ``digits`` digits, as a float where one holds it (else ``mpmath.nstr``:
    a shortfall of ``e^(-5e1232)`` is not 0)."""
    f = float(x)
    if (f == 0 and x != 0) or math.isinf(f):
        return str(mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator if isinstance(
            x, Fraction) else x, digits))
    return f"{f:.{digits}g}"


def _value(value: object) -> Fraction | float:
    """The library's number exactly; ``+-inf`` kept as a float, NaN rejected."""
    try:
        f = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        f = 0.0
    if math.isnan(f):
        raise AssertionError(f"the library returned NaN ({value!r})")
    if math.isinf(f) and not isinstance(value, str):
        return f
    try:
        return exact(value, "value", "reference.oracle.testing")
    except DomainError as err:
        raise AssertionError(f"the library returned {value!r}, not a real number") from err


def enclosure(result_id: str, *, output: str | None = None, **params: Any) -> Interval:
    """Certified enclosure of result ``result_id`` at ``params`` (one output).

    For an inverse (a budget, an epsilon at a target delta ...) it is the certified
    bracket of the exact inverse; for a result with several outputs, ``output`` names
    one (default: the first).

    >>> print(enclosure("BS16:Prop1.4", eps="0.1"))
    [0.005, 0.005]
    """
    res = get(result_id)
    out = res.certified(**params)
    if isinstance(out, Certificate):
        return Interval(out.lo, out.hi)
    if isinstance(out, tuple):
        out = getattr(out, output) if output else out[0]
    if not isinstance(out, Interval):
        raise TypeError(f"{result_id} has no numeric output {output!r}")
    return out


def compare(value: object, result_id: str, /, *, output: str | None = None,
            verdict: Literal["upper", "lower"] = "upper", **params: Any) -> Comparison:
    """Compare ``value`` with the enclosure, raising the precision while undecided."""
    number = _value(value)

    def enclose() -> Interval:
        return enclosure(result_id, output=output, **params)

    if isinstance(number, float):            # +-inf: no enclosure can change the verdict
        return Comparison(result_id, number, enclose(), get_dps())
    j = decide(enclose, "<=" if verdict == "upper" else ">=", number,
               where="reference.oracle.testing")
    return Comparison(result_id, number, j.enclosure, j.dps)


def _call(result_id: str, params: dict[str, Any]) -> str:
    inner = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return f"{result_id}({inner})"


def _describe(cmp: Comparison) -> str:
    enc = cmp.enclosure
    return f"{mpmath.nstr(enc.mid, 12)} (certified [{mpmath.nstr(enc.lo, 12)}, " \
           f"{mpmath.nstr(enc.hi, 12)}])"


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def assert_sound_upper_bound(value: object, result_id: str, /, *, output: str | None = None,
                             **params: Any) -> None:
    """Pass iff ``value`` >= the certified upper end of ``result_id(**params)``.

    Use it where a library reports an epsilon (or delta) that it claims is enough: the
    oracle's result is the best valid value (or a valid bound it must not undercut).
    The message gives the shortfall, absolute and relative.
    """
    __tracebackhide__ = True
    cmp = compare(value, result_id, output=output, verdict="upper", **params)
    verdict = cmp.upper_verdict()
    if verdict is Verdict.HOLDS:
        return
    gap = _q(cmp.enclosure.hi) - cmp.value if not isinstance(cmp.value, float) else None
    rel = "" if gap is None or cmp.enclosure.hi == 0 else \
        f" (relative {_ratio(gap, _q(cmp.enclosure.hi)):.4g})"
    what = "not a sound upper bound" if verdict is Verdict.VIOLATED else \
        f"undecided at {cmp.dps} digits (within the enclosure)"
    short = "" if gap is None else f", short by {_number(gap, 8)}"
    raise AssertionError(f"{_shown(value)} is below {_call(result_id, params)} = "
                         f"{_describe(cmp)}: {what}{short}{rel}")


def assert_sound_lower_bound(value: object, result_id: str, /, *, output: str | None = None,
                             **params: Any) -> None:
    """Pass iff ``value`` <= the certified lower end of ``result_id(**params)``.

    Use it where a library reports a number that must not exceed the exact one (an
    empirical privacy lower bound, a noise scale calibrated from below ...).
    """
    __tracebackhide__ = True
    cmp = compare(value, result_id, output=output, verdict="lower", **params)
    verdict = cmp.lower_verdict()
    if verdict is Verdict.HOLDS:
        return
    what = "not a sound lower bound" if verdict is Verdict.VIOLATED else \
        f"undecided at {cmp.dps} digits (within the enclosure)"
    over = "" if isinstance(cmp.value, float) else \
        f", over by {_number(cmp.value - _q(cmp.enclosure.lo), 6)}"
    raise AssertionError(f"{_shown(value)} is above {_call(result_id, params)} = "
                         f"{_describe(cmp)}: {what}{over}")


def _exact_ends(enc: Interval, result_id: str) -> tuple[Fraction, Fraction]:
    """The enclosure's ends as Fractions; a value beyond ``2^(+-65536)`` is refused (its
    relative tolerance has no exact form: judge such a value as a bound instead)."""
    if is_far(enc.lo) or is_far(enc.hi):
        raise DomainError("value", f"{result_id} in [{mpmath.nstr(enc.lo, 5)}, "
                          f"{mpmath.nstr(enc.hi, 5)}]", "must lie within 2^(+-65536) for a "
                          "tolerance (use assert_sound_upper_bound or _lower_bound)",
                          "reference.oracle.testing.assert_close_to")
    return exact(enc.lo, "enclosure", "assert_close_to"), exact(enc.hi, "enclosure",
                                                                "assert_close_to")


def assert_close_to(value: object, result_id: str, /, *, rel: float = 1e-9, abs: float = 0.0,
                    output: str | None = None, **params: Any) -> None:
    """Pass iff ``|value - exact| <= rel * |exact| + abs`` for every point of the enclosure.

    ``rel`` and ``abs`` follow :func:`pytest.approx`.  A library that claims the value
    itself (not a bound) is checked in both directions.
    """
    __tracebackhide__ = True
    number = _value(value)

    def enclose() -> Interval:
        return enclosure(result_id, output=output, **params)

    enc = enclose()
    if isinstance(number, float):
        raise AssertionError(f"{number} is not close to {_call(result_id, params)} = "
                             f"{mpmath.nstr(enc.mid, 12)}")
    lo, hi = _exact_ends(enc, result_id)
    size = max(lo if lo > 0 else -lo, hi if hi > 0 else -hi)
    tol = Fraction(rel) * size + Fraction(abs)
    j = decide(enclose, "==", number, tol=tol, where="reference.oracle.testing")
    if j.verdict is Verdict.HOLDS:
        return
    lo, hi = _exact_ends(j.enclosure, result_id)
    worst = max(number - lo, hi - number, lo - number, number - hi)
    raise AssertionError(f"{_shown(value)} is not within rel={rel:g}, abs={abs:g} of "
                         f"{_call(result_id, params)} = {mpmath.nstr(enc.mid, 17)}: distance "
                         f"{float(worst):.6g} > tolerance {float(tol):.6g}"
                         + (f" (relative {float(worst / size):.3g})" if size else ""))


__all__ = ["Comparison", "assert_close_to", "assert_sound_lower_bound",
           "assert_sound_upper_bound", "compare", "enclosure"]
