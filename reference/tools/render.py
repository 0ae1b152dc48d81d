"""Turning results into text and JSON, with directed rounding for enclosures.

An enclosure printed in decimal must still enclose: its lower end is rounded down
and its upper end up (exact conversion through :class:`fractions.Fraction` and
:mod:`decimal` with ``ROUND_FLOOR`` / ``ROUND_CEILING``).
"""

from __future__ import annotations

import decimal
from fractions import Fraction
from typing import Any

import mpmath

from reference.core.certificates import Certificate
from reference.core.numeric import Interval, exact


def decimal_str(x: Any, digits: int, rounding: str = decimal.ROUND_HALF_EVEN) -> str:
    """``x`` (mpf, Fraction or int) as a decimal string of ``digits`` significant digits."""
    if isinstance(x, mpmath.mpf) and mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    q = x if isinstance(x, Fraction) else exact(x, "value", "rendering")
    with decimal.localcontext() as dctx:
        dctx.prec = digits
        dctx.rounding = rounding
        dctx.Emin, dctx.Emax = -999_999_999, 999_999_999
        d = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
    text = format(d, "f") if -30 < d.adjusted() < 30 else format(d, "e")
    return text


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
