"""Where the outward sums of ``KOV15:Thm3.3`` stop, against the weights.

:func:`reference.results.composition.kov15_sums.piece_sums` chooses in floats how far each
side runs, and then proves (in the ball or interval context) that what it left out is below
``2^-bits`` of ``D_m``, widening the window if not. The enclosures are checked elsewhere
against every term; here the window itself, against the smallest one that leaves out at
most ``2^-bits D_m`` on each side (the weights summed in mpmath at 120 digits). The one
chosen holds it (no widening: one computation of the coefficients) and is at most 40 terms
wider on each side (between 100 and 900 terms are summed at these inputs), so that a
stopping rule that sums far more than it needs, or too little, fails here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mpmath import mp

from reference.core.fastballs import FAST
from reference.core.numeric import to_ctx, working
from reference.results import covers
from reference.results.composition import kov15, kov15_sums

F = Fraction


def spy_ratios(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """Record ``(top, low, high)`` of every computation of the coefficients (the window
    summed), and drop the kept sums so that each piece is computed afresh."""
    calls: list[tuple[int, int, int]] = []
    real = kov15_sums._ratios

    def spy(ctx: Any, k: int, top: int, low: int, high: int, shift: int) -> Any:
        calls.append((top, low, high))
        return real(ctx, k, top, low, high, shift)

    monkeypatch.setattr(kov15_sums, "_ratios", spy)
    kov15_sums.forget()
    return calls


def _needed(eps: Fraction, k: int, m: int, bits: int) -> tuple[int, int]:
    """The least ``low`` and the greatest ``high`` with ``sum_{j < low} w_j`` and ``sum_{high
    < j <= m} w_j`` each at most ``2^-bits D_m``: the weights from ``w_0`` by their exact
    ratios, in mpmath at 120 digits (relative error below 10^-110 here)."""
    with mp.workdps(120):
        e = mp.mpf(eps.numerator) / eps.denominator
        ws, shrink = [1 / (1 + mp.exp(-e)) ** k], mp.exp(-e)
        for j in range(m):                  # w_(j+1) / w_j = (k - j) e^-eps / (j + 1)
            ws.append(ws[-1] * (k - j) * shrink / (j + 1))
        cut = mp.ldexp(mp.fsum(w * -mp.expm1(-2 * (m - j) * e) for j, w in enumerate(ws)),
                       -bits)
        return _first_over(ws, cut), m - _first_over(ws[::-1], cut)


def _first_over(ws: list[Any], cut: Any) -> int:
    """The least ``j`` with ``ws[0] + ... + ws[j] > cut``."""
    total = mp.zero
    for j, w in enumerate(ws):
        total += w
        if total > cut:
            return j
    raise AssertionError("the weights add up to at most the cut")


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "k", "m"), [
    (F(1, 50), 4000, 1700),         # below the largest weight (1980): down only
    (F(1, 50), 4000, 1999),         # above it: up and down
    (F(3), 400, 190),               # largest weight near 19: up, every term below it
    (F(1, 10**9), 300, 149),        # tiny eps
    (F(1, 100), 10**4, 4755),       # the bench's piece (delta_g = 1e-6)
    (F(1), 4000, 1000),             # a large eps: the weights fall by e^eps a term, more
    (F(2), 4000, 600),              # up and down
])
def test_the_window_is_the_needed_one_within_forty_terms(
        monkeypatch: pytest.MonkeyPatch, eps: Fraction, k: int, m: int) -> None:
    calls = spy_ratios(monkeypatch)
    with mp.workdps(50):
        bits = mp.prec
    with working(FAST), kov15._guard(FAST, k, to_ctx(FAST, eps)):
        kov15_sums.piece_sums(FAST, to_ctx(FAST, eps), k, m, bits)
    need_low, need_high = _needed(eps, k, m, bits)
    assert len(calls) == 1
    _, low, high = calls[0]
    assert need_low - 40 <= low <= need_low
    assert need_high <= high <= need_high + 40


@covers("KOV15:Thm3.3")
def test_the_last_eight_pieces_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sums of the last 8 pieces asked for are kept (an inverse's solver and its
    certificate reuse them), the least recently used one is dropped first."""
    calls = spy_ratios(monkeypatch)
    with working(FAST):
        eps, bits = to_ctx(FAST, F(1, 50)), FAST.prec
        for m in [*range(1700, 1709), *range(1701, 1709)]:   # 9 pieces, then the last 8
            kov15_sums.piece_sums(FAST, eps, 4000, m, bits)
        assert len(calls) == 9
        kov15_sums.piece_sums(FAST, eps, 4000, 1700, bits)   # the first: dropped
        assert len(calls) == 10
