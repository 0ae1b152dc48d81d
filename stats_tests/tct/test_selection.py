"""Statistical test of one-shot top-1 selection (CL23 Algorithm 3, Theorem I.1), run through
:func:`reference.sim.tct_selection.one_shot_top_k`.

Candidates: ``m`` randomized-response scores, ``P[score 0] = w/(w+1)`` on D and ``1/(w+1)``
on D' (``w = 3/2``), each ``ln w``-DP; ties go to the smaller index.  The output is the
first candidate scoring 1 (loss ``(i - 2) ln w`` at index ``i``, 1-based) or "none" (loss
``m ln w``), the Liu–Talwar-type example where a single selection leaks far more than one
candidate.  Checked: freq(loss > eps') <= delta for Theorem I.1's explicit bound (the
exact law confirms it); false-failure probability <= ``ALPHA = 1e-6``; the power check's
rejection probability is computed exactly and asserted.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pytest
from mpmath import mp

from reference.results import covers
from reference.results.tct.selection import top_one
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from reference.sim.tct_selection import one_shot_top_k
from stats_tests.mutants import mutant

W = 1.5
P0 = W / (W + 1)               # P[score 0] on D
EPS = math.log(W)
with mp.workdps(60):
    LOG_W = mp.log(mp.mpf(3) / 2)


def rr_candidate(index: int):  # type: ignore[no-untyped-def]
    def run(data: object, g: np.random.Generator) -> tuple[int, float]:
        return index, float(g.random() >= P0)
    return run


@lru_cache(maxsize=2)
def losses(m: int, n: int, label: str) -> np.ndarray:
    """Privacy loss (D against D') of ``n`` top-1 selections among ``m`` candidates (cached:
    the power check on a mutant reuses the main sample)."""
    g = rng(label)
    cands = [rr_candidate(i) for i in range(m)]
    out = np.empty(n)
    for r in range(n):
        (i, _, score), = one_shot_top_k(cands, [], 1, g)
        out[r] = m * EPS if score == 0 else (i - 1) * EPS
    return out


def exact_exceed(m: int, eps_prime: float) -> float:
    """Exact P[loss > eps'] on D: first 1 at index i (0-based) has loss (i - 1) ln w."""
    p = sum(P0**i * (1 - P0) for i in range(m) if (i - 1) * EPS > eps_prime + 1e-9)
    return p + (P0**m if m * EPS > eps_prime + 1e-9 else 0.0)


@covers("CL23:ThmI.1")
def test_top_one_within_theorem_i1() -> None:
    """freq(loss > 2 eps m') <= delta for delta in {0.05, 1e-3}.  False-failure <= 1e-6."""
    m = 24
    sample = losses(m, 5_000, "top1")
    for delta in ("0.05", "0.001"):
        b = top_one(eps=LOG_W, delta=delta)
        assert exact_exceed(m, float(b.eps)) <= float(b.delta)
        assert not check_rate(sample > float(b.eps) + 1e-9, None, float(b.delta)).rejected


@covers("CL23:ThmI.1")
def test_power_selection_charged_as_one_candidate() -> None:
    """POWER CHECK: charging a top-1 selection as one eps-DP call ((eps, 0)) is false:
    the loss exceeds ln w whenever the first 1 is at index >= 3 or there is none."""
    m = 24
    p_true = exact_exceed(m, EPS)
    assert abs(p_true - P0**3) < 1e-12        # = P[first three candidates score 0] = 0.216
    n = 500
    assert rejection_probability(p_true, n, 0.0, ALPHA) > 0.9999
    assert check_rate(losses(m, n, "top1-power") > EPS + 1e-9, None, 0.0).rejected


@covers("CL23:ThmI.1")
def test_power_mutant_top_one_calls_multiplied() -> None:
    """POWER CHECK on a mutant of ``top_one`` planted by the mutation tool: the number of
    calls ``ceil(ln(1/delta) / ln(1 + e^{-2 eps}))`` turned into
    ``ceil(ln(1/delta) * ln(1 + e^{-2 eps}))`` (m' = 3 instead of 19 at delta = 1e-3: eps' =
    6 ln w = 2.433), on the main test's sample (5000 selections among 24).  The loss
    exceeds it exactly when the first 8 candidates score 0: P0^8 = 0.01680 > 1e-3, so the
    harness rejects with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    m = 24
    b = mutant("reference.results.tct.selection",
               "log(ctx, 1 / delta) / log1p(ctx, exp(ctx, -2 * eps))",
               "log(ctx, 1 / delta) * log1p(ctx, exp(ctx, -2 * eps))").top_one(
        eps=LOG_W, delta="0.001")
    assert b.m == 3 and float(b.eps) == pytest.approx(6 * EPS, rel=1e-12)
    p_true = exact_exceed(m, float(b.eps))
    assert p_true == pytest.approx(P0**8, rel=1e-12)
    assert rejection_probability(p_true, 5_000, float(b.delta), ALPHA) > 1 - 1e-9
    sample = losses(m, 5_000, "top1")
    assert check_rate(sample > float(b.eps) + 1e-9, None, float(b.delta)).rejected
