"""Shared helpers for the TCT property tests that hold closed forms against the exact
q-target oracle: ``ln w`` at 60 digits and certified-versus-exact comparisons."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp

SLACK = mp.mpf(10) ** -40


def log(w: Fraction, up: bool = False) -> mpmath.mpf:
    """``ln w`` at 60 digits; ``up`` adds 1e-55 so that ``e^eps > w`` certainly."""
    with mp.workdps(60):
        x = mp.log(mp.mpf(w.numerator) / w.denominator)
        return x + mp.mpf(10) ** -55 if up else x


def num(x: Fraction) -> mpmath.mpf:
    with mp.workdps(60):
        return mp.mpf(x.numerator) / x.denominator


def at_most(enc: Any, x: Fraction) -> bool:
    """The certified closed form is at most the exact ``x`` (up to the rounding of ln w)."""
    with mp.workdps(60):
        return bool(enc.lo <= num(x) + SLACK)


def equal(enc: Any, x: Fraction) -> bool:
    with mp.workdps(60):
        return bool(abs(enc.mid - num(x)) <= SLACK)
