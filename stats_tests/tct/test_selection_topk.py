"""Statistical test of one-shot top-k selection (CL23 Algorithm 3, Theorem I.3), run through
:func:`reference.sim.tct_selection.one_shot_top_k`.

Candidates: ``M = 200`` randomized-response scores, each ``eps``-DP with ``eps = 2/5``:
``P[score 0] = P0 = w/(w+1)`` on D and ``1/(w+1)`` on D' (``w = e^eps``); ties go to the
smaller index, so the output is the first ``k`` candidates scoring 1, with their scores.
Its privacy loss (D against D') is exact:

* at least ``k`` ones: the output shows the ``k``-th one at index ``f + k - 1`` with ``f``
  zeros before it and nothing after it; ``P_D / P_D' = w^(f - k)``, loss ``(f - k) eps``,
  and ``f`` is negative-binomial (``k`` successes of probability ``1 - P0``);
* ``j < k`` ones: the output shows every score; loss ``(M - 2j) eps``.

Checked: freq(loss > eps') <= delta' for Theorem I.3's explicit bound at ``k = 40``,
``alpha = 15/16``, ``delta* = 10^-3`` (the sufficient, stronger form of (eps', delta')-DP;
the exact law above confirms it as a second route: the bound is loose, P[loss > eps'] is
about 1e-120).  False-failure probability <= ``ALPHA = 1e-6`` per check; the power check
runs the same harness on a mutant of ``top_k`` planted by the mutation tool and its
rejection probability is computed exactly and asserted.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy import stats

from reference.results import covers
from reference.results.tct.selection import top_k
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from reference.sim.tct_selection import one_shot_top_k
from stats_tests.mutants import line_in, mutant

EPS = Fraction(2, 5)
W = math.exp(float(EPS))
P0 = W / (W + 1)                 # P[score 0] on D
M, K, ALPHA_TCT, DELTA_STAR = 200, 40, Fraction(15, 16), "0.001"
N_RUNS = 2_000


def rr_candidate(index: int):  # type: ignore[no-untyped-def]
    def run(data: object, g: np.random.Generator) -> tuple[int, float]:
        return index, float(g.random() >= P0)
    return run


def loss_of(output: list[tuple[int, object, float]]) -> float:
    """The exact privacy loss of one top-k output (module docstring), in units of eps."""
    ones = [i for i, _, score in output if score == 1.0]
    if len(ones) == K:
        f = max(ones) + 1 - K             # zeros before the k-th one
        return float(f - K)
    return float(M - 2 * len(ones))


@lru_cache(maxsize=1)
def losses() -> np.ndarray:
    """Losses (in units of eps) of ``N_RUNS`` top-k selections on D (cached: the power
    check reuses the main sample)."""
    g = rng("topk")
    cands = [rr_candidate(i) for i in range(M)]
    return np.array([loss_of(one_shot_top_k(cands, [], K, g)) for _ in range(N_RUNS)])


def exact_exceed(eps_prime: float) -> float:
    """Exact ``P_D[loss > eps']`` from the law in the module docstring."""
    t = eps_prime / float(EPS)            # loss threshold in units of eps
    f = np.arange(0, M - K + 1)           # k-th one at index f + k - 1 <= M - 1
    case_a = stats.nbinom.pmf(f, K, 1 - P0)[(f - K) > t + 1e-9].sum()
    j = np.arange(0, K)
    case_b = stats.binom.pmf(j, M, 1 - P0)[(M - 2 * j) > t + 1e-9].sum()
    return float(case_a + case_b)


def test_loss_law_matches_the_sample_mean() -> None:
    """The loss formula against the simulation: the sample mean of ``f - k`` is within 6
    standard errors of its exact mean ``k P0/(1-P0) - k`` (false failure < 2e-9)."""
    sample = losses()
    mean = K * P0 / (1 - P0) - K
    sd = math.sqrt(K * P0) / (1 - P0)
    assert abs(sample.mean() - mean) < 6 * sd / math.sqrt(N_RUNS)


@covers("CL23:ThmI.3")
def test_top_k_within_theorem_i3() -> None:
    """freq(loss > eps') <= delta'; the exact law agrees.  False-failure <= 1e-6."""
    b = top_k(eps=EPS, k=K, alpha=ALPHA_TCT, delta_star=DELTA_STAR)
    assert int(b.m) == math.floor((1 + ALPHA_TCT) * K * (math.exp(2 * float(EPS)) + 1))
    assert exact_exceed(float(b.eps)) <= float(b.delta)
    assert not check_rate(losses() * float(EPS) > float(b.eps) + 1e-9, None,
                          float(b.delta)).rejected


@covers("CL23:ThmI.3")
def test_power_mutant_top_k_with_one_minus_alpha() -> None:
    """POWER CHECK on a mutant of ``top_k`` planted by the mutation tool: ``(1 + alpha) k``
    turned into ``(1 - alpha) k`` in the number of calls, ``m' = floor(k/16 (e^0.8 + 1))
    = 8`` instead of 249: eps' = 16.25.  The loss exceeds it when ``f > 80``:
    P = 0.0521 (exact law) against delta' = 0.00111, so the harness rejects with
    probability > 1 - 1e-9 (exact binomial computation); false failure <= 1e-6."""
    planted = mutant("reference.results.tct.selection", "1 + alpha", "1 - alpha",
                     line=line_in("reference.results.tct.selection", "top_k", "(1 + alpha) * k"))
    b = planted.top_k(eps=EPS, k=K, alpha=ALPHA_TCT, delta_star=DELTA_STAR)
    assert int(b.m) == 8
    p_true = exact_exceed(float(b.eps))
    assert 0.05 < p_true < 0.055 and float(b.delta) < 0.0012
    assert rejection_probability(p_true, N_RUNS, float(b.delta), ALPHA) > 1 - 1e-9
    assert check_rate(losses() * float(EPS) > float(b.eps) + 1e-9, None,
                      float(b.delta)).rejected
