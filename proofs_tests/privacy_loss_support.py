"""Shared helpers of the privacy-loss property tests (RRUV16 §2 and RSWR23's finite
ground truth): the tests' own 60-digit arithmetic and random finite distributions."""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends

#: Agreement required between a result (50 digits) and the tests' own arithmetic.
TOL = mpmath.mpf("1e-45")


def at60(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run the test's own arithmetic at 60 digits (results come at 50)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with mp.workdps(60):
            return fn(*args, **kwargs)
    return wrapper


def mpq(q: Fraction) -> mpmath.mpf:
    """A fraction at the current mpmath precision."""
    return mp.mpf(q.numerator) / q.denominator


def arb_shown(x: Any, digits: int) -> str:
    """``mpmath.nstr`` of an arb ball's value, asserted the same at both ends of the ball."""
    lo, hi = arb_ends(x)
    with mp.workdps(60):
        a, b = mpmath.nstr(mpq(lo), digits), mpmath.nstr(mpq(hi), digits)
    assert a == b
    return a


@st.composite
def dist(draw: st.DrawFn, n: int, allow_zero: bool = True) -> list[Fraction]:
    """A probability vector of length ``n`` with rational masses (zeros if allowed)."""
    lo = 0 if allow_zero else 1
    weights = draw(st.lists(st.integers(lo, 12), min_size=n, max_size=n)
                   .filter(lambda w: sum(w) > 0))
    return [Fraction(w, sum(weights)) for w in weights]


@st.composite
def pairs(draw: st.DrawFn, max_n: int = 6) -> tuple[list[Fraction], list[Fraction]]:
    """Two distributions on the same outcomes (1 to ``max_n`` of them)."""
    n = draw(st.integers(1, max_n))
    return draw(dist(n)), draw(dist(n))
