"""Turning results into text and JSON, with directed rounding for enclosures.

An enclosure printed in decimal must still enclose: its lower end is rounded down
and its upper end up (exact conversion through :class:`fractions.Fraction` and
:mod:`decimal` with ``ROUND_FLOOR`` / ``ROUND_CEILING``). A binary number whose exponent
is beyond ``2^16`` in size (:func:`reference.core.decide.is_far`: ``e^(-5e1232)``, say; no
Fraction or Decimal can hold it) is rounded the same way by interval arithmetic instead
(:func:`_far_str`).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import Any

import mpmath

from reference.core.certificates import Certificate
from reference.core.decide import is_far
from reference.core.numeric import Interval, endpoints, exact, extra_bits, log
from reference.core.numeric import exp as num_exp


def decimal_str(x: Any, digits: int, rounding: str = decimal.ROUND_HALF_EVEN) -> str:
    """``x`` (mpf, Fraction or int) as a decimal string of ``digits`` significant digits."""
    if isinstance(x, mpmath.mpf) and mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, mpmath.mpf) and is_far(x):
        return _far_str(x._mpf_, digits, rounding)
    q = x if isinstance(x, Fraction) else exact(x, "value", "rendering")
    with decimal.localcontext() as dctx:
        dctx.prec = digits
        dctx.rounding = rounding
        dctx.Emin, dctx.Emax = -999_999_999, 999_999_999
        d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
    text = format(d, "f") if -30 < d.adjusted() < 30 else format(d, "e")
    return text


def _far_str(raw: tuple[int, int, int, int], digits: int, rounding: str) -> str:
    """``(-1)^sign man 2^exp`` rounded to ``digits`` significant decimal digits, for any exponent.

    ``log10 |x| = (ln man + exp ln 2) / ln 10`` and the scaled mantissa
    ``10^(digits - 1 + log10 |x| - e10)`` are enclosed in ``iv`` (the rigorous ``exp`` and
    ``log`` of :mod:`reference.core.numeric`) at a precision above the exponent's own bits;
    the digits are taken once both ends of the enclosure round to the
    same integer (the precision doubles until they do). That ends unless ``x`` is a decimal tie
    or has at most ``digits`` significant digits, which with ``|exp| > 2^16`` needs over 40000
    digits or mantissa bits: after six doublings this gives up with a ValueError.
    """
    sign, man, exp, _ = raw
    iv = mpmath.iv
    away = {decimal.ROUND_FLOOR: bool(sign), decimal.ROUND_CEILING: not sign}.get(rounding)
    prec = start = abs(exp).bit_length() + 4 * digits + 64
    while prec <= 64 * start:
        with extra_bits(iv, prec - iv.prec):
            lg = (log(iv, iv.mpf(int(man))) + exp * log(iv, iv.mpf(2))) / log(iv, iv.mpf(10))
            lg_ends = endpoints(lg)
            e10 = int(mpmath.floor(lg_ends.lo))
            scaled = endpoints(num_exp(iv, (lg - e10 + digits - 1) * log(iv, iv.mpf(10))))
            n = _round(scaled.lo, away)
            if int(mpmath.floor(lg_ends.hi)) == e10 and _round(scaled.hi, away) == n:
                if n == 10**digits:  # rounded up to the next power of ten
                    n, e10 = 10 ** (digits - 1), e10 + 1
                text = str(n)
                body = text[0] + ("." + text[1:] if digits > 1 else "")
                return f"{'-' if sign else ''}{body}e{'+' if e10 >= 0 else ''}{e10}"
        prec *= 2
    raise ValueError(f"no {digits}-digit rounding of a number with exponent {exp} found")


def _round(v: Any, away: bool | None) -> int:
    """``v`` (an mpf, positive) to an integer: up if ``away``, down if not, to nearest if None."""
    if away is None:
        return int(mpmath.floor(mpmath.fadd(v, 0.5, exact=True)))
    return int(mpmath.ceil(v) if away else mpmath.floor(v))


def lower_str(x: Any, digits: int) -> str:
    return decimal_str(x, digits, decimal.ROUND_FLOOR)


def upper_str(x: Any, digits: int) -> str:
    return decimal_str(x, digits, decimal.ROUND_CEILING)


def to_jsonable(out: Any, digits: int) -> Any:
    """Numbers as decimal strings, intervals as ``[lo, hi]``, named tuples as objects."""
    if isinstance(out, Certificate):
        return {"value": decimal_str(out.value, digits),
                "enclosure": [lower_str(out.lo, digits), upper_str(out.hi, digits)],
                "forward": out.forward_id,
                "forward_at_value": [lower_str(out.forward_at_value.lo, digits),
                                     upper_str(out.forward_at_value.hi, digits)],
                "target": decimal_str(out.target, digits)}
    if isinstance(out, Interval):
        return [lower_str(out.lo, digits), upper_str(out.hi, digits)]
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return {k: to_jsonable(v, digits) for k, v in zip(out._fields, out, strict=True)}
    if isinstance(out, tuple | list):
        return [to_jsonable(v, digits) for v in out]
    if isinstance(out, mpmath.mpf | Fraction | int) and not isinstance(out, bool):
        return decimal_str(out, digits)
    return out


def primary(out: Any) -> Any:
    """The primary value of a result's output (first field of a named tuple)."""
    if isinstance(out, Certificate):
        return out.value
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return out[0]
    return out


def to_text(out: Any, digits: int) -> str:
    """Human-readable rendering (one line per named output)."""
    js = to_jsonable(out, digits)
    if isinstance(js, dict):
        return "\n".join(f"{k} = {_flat(v)}" for k, v in js.items())
    return _flat(js)


def _flat(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_flat(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flat(x)}" for k, x in v.items()) + "}"
    return str(v)
