"""KOV15:Thm3.3-grid with ``delta_g`` closer to a lattice delta than the working precision.

The grid answer is ``(k - 2i) eps`` for the largest lattice index ``i`` whose exact k-fold
delta is at most ``delta_g``.  With ``delta_g = delta(i) +- 2^-230`` (about 2^-27 of the
203-bit resolution) the enclosure of ``delta(i)`` cannot be compared with ``delta_g``;
the certified answer must still contain the exact one, which is known independently:
KOV15 Theorem 3.3's sum for pure eps-DP mechanisms,
``delta(eps_g) = sum_m C(k, m) [e^((k-m) eps) - e^(eps_g + m eps)]_+ / (1 + e^eps)^k``,
at 300 digits, with the neighbouring lattice deltas checked to lie far on either side.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import pytest

from proofs_tests.arb_support import frac
from reference import get
from reference.core.numeric import endpoints, is_interval
from reference.results import covers
from reference.results.composition import kov15_heterogeneous as grid_module

CASES = [(Fraction(1, 8), 4, 1), (Fraction(1, 2), 6, 2), (Fraction(1, 16), 10, 3)]


def _kov_sum(eps: Fraction, k: int, eps_g: Fraction) -> Fraction:
    with mpmath.workdps(300):
        e = mpmath.mpf(eps.numerator) / eps.denominator
        g = mpmath.mpf(eps_g.numerator) / eps_g.denominator
        total = mpmath.fsum(mpmath.binomial(k, m) * max(0, mpmath.exp((k - m) * e)
                                                        - mpmath.exp(g + m * e))
                            for m in range(k + 1))
        return frac(+(total / (1 + mpmath.exp(e)) ** k))


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("eps", "k", "i"), CASES)
@pytest.mark.parametrize("above", [True, False])
def test_target_within_the_precision_of_a_lattice_delta(eps: Fraction, k: int, i: int,
                                                        above: bool) -> None:
    exact_i = _kov_sum(eps, k, (k - 2 * i) * eps)
    delta_g = exact_i + (Fraction(1, 2**230) if above else -Fraction(1, 2**230))
    # the neighbours are decided: delta(i - 1) well below, delta(i + 1) well above
    assert _kov_sum(eps, k, (k - 2 * i + 2) * eps) < exact_i / 2
    assert _kov_sum(eps, k, (k - 2 * i - 2) * eps) > 2 * exact_i
    answer = (k - 2 * i) * eps if above else (k - 2 * i + 2) * eps
    got = get("KOV15:Thm3.3-grid").certified(eps=eps, k=k, delta_g=delta_g)
    assert frac(got.lo) <= answer <= frac(got.hi)
    assert frac(got.lo) >= (k - 2 * i) * eps and frac(got.hi) <= (k - 2 * i + 2) * eps


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("eps", "k", "i"), CASES)
@pytest.mark.parametrize("end", ["hi", "lo"])
def test_target_equal_to_an_enclosure_end_decides_the_point(
        monkeypatch: pytest.MonkeyPatch, eps: Fraction, k: int, i: int, end: str) -> None:
    """``delta_g`` set to an end of the enclosure of ``delta(i)``: the lattice delta is
    irrational (strictly inside), so the end decides the point, and the answer is one
    lattice point: ``(k - 2i) eps`` at the upper end (feasible), one step up at the lower.
    The enclosure is read by a spy on the lattice evaluation, and the second run must meet
    the same enclosure (else the tie was not made and the test says so)."""
    seen: dict[int, tuple[Fraction, Fraction]] = {}
    evaluate = grid_module._lattice_delta

    def spy(ctx: Any, *args: Any) -> Any:
        out = evaluate(ctx, *args)
        if is_interval(ctx):                    # the search decides on balls
            ends = endpoints(out)
            seen[args[2]] = (frac(ends.lo), frac(ends.hi))
        return out

    monkeypatch.setattr(grid_module, "_lattice_delta", spy)
    grid = get("KOV15:Thm3.3-grid")
    exact_i = _kov_sum(eps, k, (k - 2 * i) * eps)
    grid.certified(eps=eps, k=k, delta_g=exact_i + Fraction(1, 2**230))
    lo, hi = seen[i]
    assert lo < exact_i - Fraction(1, 2**800) and exact_i + Fraction(1, 2**800) < hi
    delta_g = hi if end == "hi" else lo
    seen.clear()
    got = grid.certified(eps=eps, k=k, delta_g=delta_g)
    assert seen[i] == (lo, hi), "the second run evaluated delta(i) differently: no tie"
    answer = (k - 2 * i) * eps if end == "hi" else (k - 2 * i + 2) * eps
    assert frac(got.lo) == answer == frac(got.hi)
    assert frac(grid(eps=eps, k=k, delta_g=delta_g)) == answer
