"""The four-point proof of a minimum (:func:`rdp_minimum._lower`) on convex functions whose
minimum is known exactly: a V (``m + K |alpha - c|``, linear arms, so a secant extended along
an arm is the arm itself and a bound that takes the wrong end of it exceeds ``m``), placed in
each piece the proof covers, and the ends of the search range (the top, where the minimum
over the range is at 256, and the bottom ``1 + 2^-512``).  The functions are evaluated
exactly (rationals lifted to the context), so every expected value is a rational."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mpmath import iv

from proofs_tests.arb_support import frac
from reference.core.fastballs import FAST
from reference.core.numeric import to_ctx
from reference.results import covers
from reference.results.dpsgd import rdp_minimum as rm

F = Fraction
#: The documented search range [1 + 2^-512, 256] (literals: a changed constant shows).
TOP = F(256)
BOTTOM = 1 + F(2) ** -512


def _vee(c: Fraction, m: Fraction, left: Fraction, right: Fraction) -> rm.Objective:
    """``m + left (c - alpha)`` left of ``c``, ``m + right (alpha - c)`` right of it."""
    def h(ctx: Any, alpha: Fraction) -> Any:
        return to_ctx(ctx, m + (left * (c - alpha) if alpha < c else right * (alpha - c)))
    return h


def _lowers(h: rm.Objective, a_hat: Fraction, ratio: bool = False) -> list[Fraction]:
    """The proved lower bound of ``h`` (of ``h/(alpha - 1)`` with ``ratio``) on balls and in
    iv (their roundings differ)."""
    out = []
    for ctx in (FAST, iv):
        with rm.at_bits(ctx, rm._IV_BITS):
            got = rm._lower(ctx, h, ratio, a_hat, TOP)
        assert got is not None
        out.append(frac(got))
    return out


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize("s", [F(-4, 5), F(-3, 5), F(-3, 10), F(0), F(3, 10), F(3, 5), F(4, 5)])
@pytest.mark.parametrize(("left", "right"), [(F(1), F(1)), (F(1), F(9)), (F(7), F(1, 2))])
def test_a_vee_anywhere_between_the_four_points(s: Fraction, left: Fraction,
                                                right: Fraction) -> None:
    """The minimum ``m`` at ``c = a_hat + s w`` (``w`` the points' spacing: the points sit at
    ``-3/2, -1/2, 1/2, 3/2`` w): in the left piece for ``s`` in (-1, -1/2), the middle one
    for |s| < 1/2, the right one for ``s`` in (1/2, 1).  The bound is at most ``m`` and
    within the arms' rise over two spacings of it, or over two of the next spacing (64 w:
    a steep arm puts the first four points on one side of the proof's conditions)."""
    a_hat, m = F(17, 2), F(5, 3)
    w = (a_hat - 1) * F(2) ** -rm._SPACING
    c = a_hat + s * w
    for got in _lowers(_vee(c, m, left, right), a_hat):
        assert got <= m
        assert m - got <= 2 * 64 * w * max(left, right)


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_a_minimum_beyond_the_top() -> None:
    """Decreasing up to the top (the minimum over the range is at 256): three points
    ``top - 2w, top - w, top``; the bound is at most the value at the top and close to it."""
    h = _vee(TOP + 1, F(2), F(3), F(3))
    w = (TOP - 1) * F(2) ** -rm._SPACING
    at_top = F(2) + F(3)
    for got in _lowers(h, TOP):
        assert got <= at_top and at_top - got <= 6 * w


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize("slope", [F(1), F(10**6)])
def test_a_minimum_below_the_bottom(slope: Fraction) -> None:
    """Increasing from the bottom ``1 + 2^-512`` (the minimum over the range is there): the
    points ``b, b + w, b + 2w``; the bound is at most the value at the bottom, close to it."""
    h = _vee(F(1), F(0), slope, slope)      # values of size 2^-512: resolved at 140 bits
    a_hat = BOTTOM + F(2) ** -600
    at_bottom = slope * (BOTTOM - 1)
    for got in _lowers(h, a_hat):
        assert got <= at_bottom
        assert at_bottom - got <= slope * (a_hat - 1) * F(2) ** (-rm._SPACING + 4)


def _bowl(t0: Fraction, K: Fraction, b: Fraction) -> rm.Objective:
    """``h(alpha) = K t^2 + b t + K t0^2`` (``t = alpha - 1``): convex, and ``h/t = K t + b +
    K t0^2/t`` is least at ``t = t0``, where it is ``b + 2 K t0`` exactly."""
    def h(ctx: Any, alpha: Fraction) -> Any:
        t = alpha - 1
        return to_ctx(ctx, K * t * t + b * t + K * t0 * t0)
    return h


@covers("DPSGD:eps-rdp")
@pytest.mark.parametrize("s", [F(-4, 5), F(-3, 5), F(-1, 4), F(0), F(1, 4), F(3, 5), F(4, 5),
                               F(-30), F(30)])
@pytest.mark.parametrize(("t0", "K", "b"), [(F(15, 2), F(1, 100), F(1)),
                                            (F(1, 8), F(40), F(-3)), (F(100), F(3), F(0))])
def test_the_ratio_form_around_its_minimum(s: Fraction, t0: Fraction, K: Fraction,
                                           b: Fraction) -> None:
    """The eps form (``h/(alpha - 1)``, quasi-convex) with its least value ``b + 2 K t0`` at
    ``t0 + s w`` off the order given (in each piece, and 30 spacings either side): the proved
    bound is at most the least value and close to it."""
    w = t0 * F(2) ** -rm._SPACING
    a_hat = 1 + t0 - s * w          # the minimum sits at a_hat + s w
    least = b + 2 * K * t0
    for got in _lowers(_bowl(t0, K, b), a_hat, ratio=True):
        assert got <= least
        assert least - got <= (abs(least) + K * t0) * F(2) ** -30
