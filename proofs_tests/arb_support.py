"""Shared helpers for tests that compare enclosures with exact values and python-flint arb balls."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import strategies as st

from reference.core import fastballs


def arb_ends(x: object) -> tuple[Fraction, Fraction]:
    """The exact ends of a python-flint arb ball as Fractions."""
    out = []
    for part in (x.mid(), x.rad()):  # type: ignore[attr-defined]
        man, exp = part.man_exp()
        out.append(Fraction(int(man)) * Fraction(2) ** int(exp))
    return out[0] - out[1], out[0] + out[1]


def arb_mp_ends(x: object) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The exact ends of an arb ball as mp numbers (for exponents no Fraction can hold:
    ``e^(2^5000)``)."""
    lib = mpmath.libmp
    mid, rad = (lib.from_man_exp(int(m), int(e)) for m, e in
                (x.mid().man_exp(), x.rad().man_exp()))  # type: ignore[attr-defined]
    return mpmath.mp.make_mpf(lib.mpf_sub(mid, rad, 0)), mpmath.mp.make_mpf(
        lib.mpf_add(mid, rad, 0))


def arb_q(x: Fraction) -> flint.arb:
    """The rational ``x`` as an arb ball (exact when it fits the precision, else rounded)."""
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def frac(x: object) -> Fraction:
    """The exact value of an mpf (all its bits, not rounded to the current mp precision)."""
    sign, man, exp, _ = x._mpf_  # type: ignore[attr-defined]
    q = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -q if sign else q


def arb_normal_sf(x: Fraction, bits: int) -> flint.arb:
    """``Q(x)`` as an arb ball with relative radius below ``2^-(bits + 90)`` (the working
    precision is doubled until it is: arb's incomplete gamma loses bits with ``x^2``)."""
    if x == 0:
        return flint.arb(flint.fmpq(1, 2))
    old = flint.ctx.prec
    # enough bits to see x^2 / 2 next to 1 (tiny x) and 1 - Q(-x) next to 1 (x < 0)
    size = x.numerator.bit_length() + x.denominator.bit_length()
    flint.ctx.prec = bits + 2 * size + (int(x * x) if x < 0 else 0) + 200
    try:
        for _ in range(8):
            z = flint.arb(flint.fmpq(x.numerator**2, 2 * x.denominator**2))
            tail = z.gamma_upper(flint.fmpq(1, 2), 1) / 2
            value = tail if x >= 0 else 1 - tail
            if value > 0 and value.rad() < value.mid() * flint.arb(2) ** (-bits - 90):
                return value
            flint.ctx.prec *= 2
    finally:
        flint.ctx.prec = old
    raise AssertionError(f"no tight reference for Q({x})")


@st.composite
def dyadic_points(draw: st.DrawFn, max_bits: int, log2s: tuple[int, int],
                  cap: int) -> tuple[int, int]:
    """``x = man 2^exp`` (odd ``man`` of 1 to ``max_bits`` bits, ``x < 2^log2`` for a drawn
    ``log2`` in ``log2s``), at most ``cap``: exact points for the series tests of
    ``reference.core.special``."""
    width = draw(st.integers(1, max_bits), label="mantissa bits")
    man = draw(st.integers(2 ** (width - 1), 2 ** width - 1), label="mantissa") | 1
    log2 = draw(st.integers(*log2s), label="log2 x")
    exp = log2 - man.bit_length()
    while man * 2.0 ** exp > cap:
        exp -= 1
    return man, exp


@pytest.fixture(scope="module", autouse=True, params=["arb", "series"])
def normal_tail_routes(request: pytest.FixtureRequest) -> Iterator[str]:
    """Imported into a test module, every test there runs twice: on the fast route (Arb's
    ``erfc``, which ``normal_sf(iv, .)`` takes wherever Arb's ball is accurate) and with Arb
    refused, on the series of :mod:`reference.core.special`."""
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "series":
            patch.setattr(fastballs, "normal_tail", lambda t, bits: None)
        yield request.param


class BrokenBalls:
    """A balls context that fails at first use, as Arb does beyond its range: patched in
    for ``FAST`` to test the ``iv``/``mp`` fallbacks."""

    interval = True

    def __getattr__(self, name: str) -> object:
        raise OverflowError("beyond Arb's range (a test)")
