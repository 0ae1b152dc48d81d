"""Shared helpers for tests that compare enclosures with exact values and python-flint arb balls."""

from __future__ import annotations

from fractions import Fraction


def arb_ends(x: object) -> tuple[Fraction, Fraction]:
    """The exact ends of a python-flint arb ball as Fractions."""
    out = []
    for part in (x.mid(), x.rad()):  # type: ignore[attr-defined]
        man, exp = part.man_exp()
        out.append(Fraction(int(man)) * Fraction(2) ** int(exp))
    return out[0] - out[1], out[0] + out[1]


def frac(x: object) -> Fraction:
    """The exact value of an mpf (all its bits, not rounded to the current mp precision)."""
    sign, man, exp, _ = x._mpf_  # type: ignore[attr-defined]
    q = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -q if sign else q
