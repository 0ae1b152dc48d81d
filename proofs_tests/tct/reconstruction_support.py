"""Helpers of the CL23 reconstruction-check tests (``test_reconstructions*.py``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction as F
from types import SimpleNamespace
from typing import Any

import mpmath
from mpmath import mp

from reference.core.numeric import Interval
from reference.results.tct.oracle import best_q
from reference.results.tct.wrappers import boundary_wrap

TINY = mp.mpf(10) ** -50   # used at 80 digits only


def up(x: Any) -> Any:
    """A number just above ``x`` at the default 53 bits (the checks compare there)."""
    return mp.mpf(x) * (1 + mp.mpf(2) ** -40) if x > 0 else mp.mpf(x) + mp.mpf(2) ** -40


def point(x: Any) -> Interval:
    """``[x, x]``, keeping every bit of an mpf (rounding it to 53 bits could move it)."""
    x = x if isinstance(x, mpmath.mpf) else mp.mpf(x)
    return Interval(x, x)


def confirmed(check: Any) -> bool:
    result = check.verify()
    assert result.detail.strip()
    return bool(result.confirmed)


def as_mpf(x: F) -> Any:
    """``x`` as the checks read an exact q: ``mp.mpf(numerator) / denominator`` (an integer
    divisor, one rounding: ``to_ctx`` rounds a large denominator first, other bits)."""
    return mp.mpf(x.numerator) / x.denominator


def exact_tail(q: F, tau: int, alpha: F) -> tuple[int, F]:
    """``m = floor((1 + alpha) tau / q)`` and ``P[Bin(m, q) <= tau - 1]``, exactly."""
    m = math.floor((1 + alpha) * tau / q)
    return m, sum((math.comb(m, i) * q**i * (1 - q) ** (m - i) for i in range(tau)), F(0))


def chernoff(tau: int, alpha: F) -> tuple[Any, Any]:
    """The raw and simplified Chernoff forms at 30 digits."""
    with mp.workdps(30):
        a = as_mpf(alpha)
        return mp.exp(-tau * (a - mp.log1p(a))), mp.exp(-a * a * tau / (2 * (1 + a)))


def fake_result(fn: Callable[..., Any]) -> SimpleNamespace:
    """A stand-in for a registered result: only ``certified`` is called by the checks."""
    return SimpleNamespace(certified=fn)


def wrapper_loss() -> Any:
    """The check's loss, recomputed: the largest ratio of the two wrapped 3-outcome laws."""
    w, s = F(11, 10), F(1, 10**6)
    A = boundary_wrap([1 - s - 1 / (2 * w), s, 1 / (2 * w)])
    B = boundary_wrap([F(1, 2) - s / w, s / w, F(1, 2)])
    ratio = max(max(a / b, b / a) for a, b in zip(A, B, strict=True))
    with mp.workdps(60):
        return mp.log(mp.mpf(ratio.numerator) / ratio.denominator)


def boundary_oracle_q() -> Any:
    """The oracle's q for the wrapped test of ``_check_boundary_q`` (e^eps = 11/10,
    minority 1e-5), as the check reads it (53 bits)."""
    w, a = F(11, 10), F(1, 10**5)
    W = max(w, 3 * (2 * w - 1) / (2 * w + 1))
    return as_mpf(best_q(boundary_wrap([1 - a, a]), boundary_wrap([1 - w * a, w * a]), [2],
                         w=W).q)
