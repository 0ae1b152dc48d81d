"""Shared helpers of the tests of numbers too far from 1 for a Fraction (printing and
deciding at binary exponents beyond ``2^16`` in size)."""

from __future__ import annotations

import resource
from fractions import Fraction

import mpmath


def exact_mpf(negative: bool, man: int, exp: int) -> mpmath.mpf:
    """``(-1)^negative man 2^exp`` exactly, at any exponent (the raw triple, normalised)."""
    return mpmath.mp.make_mpf(mpmath.libmp.from_man_exp(-man if negative else man, exp))


def limit_address_space() -> None:
    """``preexec_fn`` of a subprocess: 2 GB of address space, so a runaway allocation ends
    in MemoryError instead of taking the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


def order_key(text: str) -> tuple[int, int, Fraction]:
    """A printed number (fixed-point or ``d.ddd e E``, any exponent) as ``(sign, +-E, +-m)``
    with ``1 <= m < 10``: ordered as the numbers are (``decimal.Decimal`` cannot compare
    exponents past 10^18). For a positive number that is ``(1, E, m)``."""
    body, _, power = text.partition("e")
    m, e10 = Fraction(body), int(power or 0)
    if m == 0:
        return 0, 0, Fraction(0)
    sign, m = (1 if m > 0 else -1), abs(m)
    while m >= 10:
        m, e10 = m / 10, e10 + 1
    while m < 1:
        m, e10 = m * 10, e10 - 1
    return sign, sign * e10, sign * m
