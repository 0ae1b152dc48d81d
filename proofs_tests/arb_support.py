"""Shared helpers for tests that compare enclosures with python-flint arb balls."""

from __future__ import annotations

from fractions import Fraction


def arb_ends(x: object) -> tuple[Fraction, Fraction]:
    """The exact ends of a python-flint arb ball as Fractions."""
    out = []
    for part in (x.mid(), x.rad()):  # type: ignore[attr-defined]
        man, exp = part.man_exp()
        out.append(Fraction(int(man)) * Fraction(2) ** int(exp))
    return out[0] - out[1], out[0] + out[1]
