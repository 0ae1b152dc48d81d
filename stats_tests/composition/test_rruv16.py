"""Statistical tests of advanced composition (LEC11 N5/N22, RRUV16 Thm 2.10 and footnote 2).

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
import pytest
from scipy import stats

from reference.results import covers
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.results.composition.rruv16 import (
    advanced_composition,
    advanced_composition_heterogeneous,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng

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


@covers("LEC11:AdvComp")
def test_lec11_tail_within_bound() -> None:
    """Frequency of loss > eps~ (LEC11:AdvComp) is <= k delta + delta' = 0.06.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.0147.)"""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition_tanh(eps=EPS, k=K, delta_prime=SLACK, delta=DELTA)
    rejected, rate = run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)
    assert not rejected, rate
    assert exact_exceedance(eps, DELTA, float(g.eps)) <= float(g.delta)


@covers("LEC11:AdvComp")
def test_power_lec11_without_mean_term() -> None:
    """Power check: eps' = eps sqrt(2k ln(1/delta')) (the mean term k eps tanh(eps/2)
    dropped, the "sqrt(k) eps" heuristic of N1) must be rejected against 0.06.

    Its exact exceedance is 0.488 (binomial law); with n = 1e5 the harness rejects with
    probability 1.0 (computed below by ``rejection_probability``); false-failure 1e-6."""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition_tanh(eps=EPS, k=K, delta_prime=SLACK, delta=DELTA)
    wrong = EPS * np.sqrt(2 * K * np.log(1 / SLACK))
    p_true = exact_exceedance(eps, DELTA, wrong)
    assert p_true == pytest.approx(0.488, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    rejected, _ = run(eps, DELTA, wrong, float(g.delta), N_QUICK, label)
    assert rejected


@covers("RRUV16:Thm2.10")
def test_thm210_tail_within_bound() -> None:
    """Frequency of loss > eps_g (RRUV16:Thm2.10) is <= k delta + delta_hat = 0.06.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.00995, the leaks.)"""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition(eps=EPS, k=K, delta_hat=SLACK, delta=DELTA)
    rejected, rate = run(eps, DELTA, float(g.eps), float(g.delta), N_QUICK, label)
    assert not rejected, rate


@covers("RRUV16:Thm2.10")
def test_power_thm210_half_sqrt_term_no_mean() -> None:
    """Power check: eps' = eps sqrt(k log(1/delta_hat)) (no factor 2, no mean term) must be
    rejected against 0.06.

    Its exact exceedance is 0.783; with n = 1e5 the harness rejects with probability 1.0
    (computed below); false-failure probability 1e-6."""
    eps, label = homogeneous(N_QUICK)
    g = advanced_composition(eps=EPS, k=K, delta_hat=SLACK, delta=DELTA)
    wrong = EPS * np.sqrt(K * np.log(1 / SLACK))
    p_true = exact_exceedance(eps, DELTA, wrong)
    assert p_true == pytest.approx(0.783, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(eps, DELTA, wrong, float(g.delta), N_QUICK, label)[0]


@covers("RRUV16:fn2-advanced")
def test_fn2_tail_within_bound() -> None:
    """Heterogeneous rounds (100 x 0.1, 100 x 0.3, delta_i = 1e-4): frequency of loss >
    eps_g (RRUV16:fn2-advanced) is <= sum delta_i + delta_hat = 0.07.

    False-failure probability <= 1e-6.  (True rate, exactly: 0.0198.)"""
    g = advanced_composition_heterogeneous(eps=HET_EPS, delta_hat=SLACK,
                                           delta=[HET_DELTA] * len(HET_EPS))
    rejected, rate = run(HET_EPS, HET_DELTA, float(g.eps), float(g.delta), N_QUICK, "lrr-het")
    assert not rejected, rate
    assert exact_exceedance(HET_EPS, HET_DELTA, float(g.eps)) <= float(g.delta)


@covers("RRUV16:fn2-advanced")
def test_power_fn2_without_mean_term() -> None:
    """Power check: eps' = sqrt(2 sum eps_i^2 log(1/delta_hat)) (mean term dropped) must be
    rejected against 0.07.

    Its exact exceedance is 0.208; with n = 1e5 the harness rejects with probability 1.0
    (computed below); false-failure probability 1e-6."""
    g = advanced_composition_heterogeneous(eps=HET_EPS, delta_hat=SLACK,
                                           delta=[HET_DELTA] * len(HET_EPS))
    wrong = float(np.sqrt(2 * np.sum(np.square(HET_EPS)) * np.log(1 / SLACK)))
    p_true = exact_exceedance(HET_EPS, HET_DELTA, wrong)
    assert p_true == pytest.approx(0.208, abs=1e-3)
    assert rejection_probability(p_true, N_QUICK, float(g.delta), ALPHA) > 0.999999
    assert run(HET_EPS, HET_DELTA, wrong, float(g.delta), N_QUICK, "lrr-het")[0]


@pytest.mark.slow
@covers("LEC11:AdvComp")
def test_lec11_tail_thorough() -> None:
    """Thorough size: eps=0.2, k=400, delta=1e-5, delta'=0.01 (bound 0.014), n = 1e6.

    True rate, exactly: 0.00498.  False-failure probability <= 1e-6; the variant without
    the mean term (exact rate 0.147) is rejected with probability > 1 - 1e-9 (computed
    below)."""
    eps, delta, k, slack, n = 0.2, 1e-5, 400, 0.01, 1_000_000
    seq = (eps,) * k
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)
    rejected, rate = run(seq, delta, float(g.eps), float(g.delta), n, "lrr-thorough")
    assert not rejected, rate
    wrong = eps * np.sqrt(2 * k * np.log(1 / slack))
    p_true = exact_exceedance(seq, delta, wrong)
    assert rejection_probability(p_true, n, float(g.delta), ALPHA) > 1 - 1e-9, p_true
    assert run(seq, delta, wrong, float(g.delta), n, "lrr-thorough")[0]
