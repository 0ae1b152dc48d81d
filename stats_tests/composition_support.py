"""The harness of the advanced-composition statistical tests (LEC11 N5/N22, RRUV16 Thm 2.10
and footnote 2), shared by ``stats_tests/composition/test_rruv16.py`` and ``test_lec11.py``.

The guarantee checked: for k-fold leaky randomized response (the LRR pair of LEC11 N18,
the worst case of (eps, delta)-DP by RRUV16 Thm 2.7), the summed privacy loss under
``U`` exceeds the composed ``eps_g`` with frequency at most ``k delta + delta'`` (the
tail bound that proves the guarantee, LEC11 N5 (b) and N22 (b)).  Outcomes are drawn
round by round from the LRR table and the loss of each is ``log P_U(o)/P_V(o)``
(``+inf`` on a leak), computed from the table, not from its law.

Every test rejects a true guarantee with probability at most ``ALPHA = 1e-6`` (one-sided
Clopper–Pearson); every power check states the exact probability, from the binomial law
of the number of ``+eps`` rounds, with which the same harness rejects its wrong variant.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import stats

from reference.sim.stats import check_rate, rng

# Homogeneous setting: bound k delta + delta' = 0.06.
EPS, K, DELTA, SLACK = 0.5, 100, 1e-4, 0.05
# Heterogeneous setting: 100 rounds of 0.1 and 100 of 0.3, bound 0.02 + 0.05 = 0.07.
HET_EPS = (0.1, 0.3) * 100
HET_DELTA = 1e-4
N_QUICK = 100_000


def lrr_table(eps: float, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """P_U and P_V over the outcomes (0, 1, "U", "V") of LEC11 N18."""
    p = np.exp(eps) / (1 + np.exp(eps))
    return (np.array([(1 - delta) * p, (1 - delta) * (1 - p), delta, 0.0]),
            np.array([(1 - delta) * (1 - p), (1 - delta) * p, 0.0, delta]))


@lru_cache(maxsize=4)
def lrr_losses(eps: tuple[float, ...], delta: float, n: int, label: str) -> np.ndarray:
    """Summed privacy loss of ``n`` runs of the LRR composition with these epsilons, under U."""
    g = rng(label)
    tables = [lrr_table(e, delta) for e in eps]
    cum = np.array([np.cumsum(pu)[:3] for pu, _ in tables])                # (k, 3)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = np.array([np.where(pu > 0, np.log(pu) - np.log(pv), 0.0) for pu, pv in tables])
    out = np.empty(n)
    rows = np.arange(len(eps))
    for start in range(0, n, 20_000):
        m = min(20_000, n - start)
        outcome = (g.random((m, len(eps), 1)) >= cum[None, :, :]).sum(axis=2)
        out[start:start + m] = loss[rows, outcome].sum(axis=1)
    return out


def exact_exceedance(eps: tuple[float, ...], delta: float, threshold: float) -> float:
    """P_U[summed loss > threshold], exactly: leaks, else +-eps_i with P[+eps_i] = p_i.

    Rounds are grouped by epsilon; within a group the number of ``+eps`` rounds is
    binomial, and the groups are convolved on the grid of counts.
    """
    values = sorted(set(eps))
    probs = np.ones(1)
    sums = np.zeros(1)
    for v in values:
        n_v = eps.count(v)
        x = np.arange(n_v + 1)
        pmf = stats.binom.pmf(x, n_v, np.exp(v) / (1 + np.exp(v)))
        probs = np.outer(probs, pmf).ravel()
        sums = np.add.outer(sums, v * (2 * x - n_v)).ravel()
    keep = (1 - delta) ** len(eps)
    # Guard: the threshold must not sit on an attainable value of the loss.
    assert np.min(np.abs(sums - threshold)) > 1e-9
    return float(1 - keep + keep * probs[sums > threshold].sum())


def run(eps: tuple[float, ...], delta: float, threshold: float, bound: float, n: int,
        label: str) -> tuple[bool, float]:
    losses = lrr_losses(eps, delta, n, label)
    result = check_rate(losses > threshold, None, bound)
    return result.rejected, float(result.rate)


def homogeneous(n: int) -> tuple[tuple[float, ...], str]:
    return (EPS,) * K, f"lrr-{EPS}-{K}-{DELTA}-{n}"
