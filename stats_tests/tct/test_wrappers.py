"""Statistical tests of the boundary wrapper (CL23 Algorithm 4; Lemmas E.1, 2.8, E.2).

All laws are exact rationals at ``e^eps = w = 5/4``: then ``e^{t_test} = 9/7`` and
``e^{t} = 3w^2/(2w+1) = 75/56``.  Sampled outputs give privacy losses (log-likelihood
ratios of the two wrapped laws at the sampled outcome); a pure t-DP claim is checked as
"freq(loss > t) <= 0" (any exceedance refutes it), a TCT bound as freq(loss > eps') <=
delta' (the sufficient form; the exact multinomial law of the loss confirms it).
False-failure probability <= ``ALPHA = 1e-6`` per check; every power check computes its
rejection probability exactly and asserts it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from mpmath import mp
from scipy.special import gammaln

from reference.results import covers
from reference.results.tct.accountant import TCTAccountant
from reference.results.tct.wrappers import (
    boundary_wrap,
    wrapped_privacy,
    wrapped_test_privacy,
    wrapped_test_target,
)
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

WRAPPERS = "reference.results.tct.wrappers"

F = Fraction
W = F(5, 4)
with mp.workdps(60):
    LOG_W = mp.log(mp.mpf(5) / 4)


def losses_of(A: tuple[Fraction, ...], B: tuple[Fraction, ...]) -> np.ndarray:
    return np.array([math.log(a / b) for a, b in zip(A, B, strict=True)])


def sample_losses(A: tuple[Fraction, ...], B: tuple[Fraction, ...], n: int,
                  label: str) -> np.ndarray:
    """Losses of ``n`` outputs of the wrapped algorithm on D (law ``A``) against D' (``B``)."""
    ys = rng(label).choice(len(A), size=n, p=[float(a) for a in A])
    return losses_of(A, B)[ys]


def exceed(A: tuple[Fraction, ...], B: tuple[Fraction, ...], t: float) -> float:
    """Exact ``P_A[loss > t]``."""
    return float(sum((a for a, b in zip(A, B, strict=True) if math.log(a / b) > t + 1e-12),
                     F(0)))


# ---- one call -------------------------------------------------------------------------

CROSSING = (boundary_wrap([1 - 1 / (2 * W), 1 / (2 * W)]), boundary_wrap([F(1, 2), F(1, 2)]))
S = F(1, 50)
R = 1 / (2 * W)
CLASSIFIER = (boundary_wrap([1 - S - R, S, R]), boundary_wrap([F(1, 2) - S / W, S / W, F(1, 2)]))


@covers("CL23:LemE.1")
def test_wrapped_test_is_t_test_private() -> None:
    """A wrapped ln(5/4)-DP test at the crossing pair of case (3): no loss above t_test.
    False-failure probability 0 (exact route: the largest ratio is 9/7)."""
    t = float(wrapped_test_privacy.certified(eps=LOG_W).t.hi)
    assert max(max(a / b, b / a) for a, b in zip(*CROSSING, strict=True)) == F(9, 7)
    for A, B, label in ((*CROSSING, "wrap-test-0"), (CROSSING[1], CROSSING[0], "wrap-test-1")):
        assert exceed(A, B, t) == 0
        assert not check_rate(sample_losses(A, B, 20_000, label) > t + 1e-12, None, 0.0).rejected


@covers("CL23:LemE.1")
def test_power_wrapper_as_private_as_the_test() -> None:
    """POWER CHECK: claiming the wrapped test is eps-DP (t = eps) is false at the crossing
    pair: the majority outcome (probability 3/7) has loss ln(9/7) > ln(5/4)."""
    p_true = exceed(*CROSSING, float(LOG_W))
    assert abs(p_true - 3 / 7) < 1e-12
    n = 200
    assert rejection_probability(p_true, n, 0.0, ALPHA) > 0.9999
    assert check_rate(sample_losses(*CROSSING, n, "wrap-power-eps") > float(LOG_W) + 1e-12,
                      None, 0.0).rejected


@covers("CL23:Lem2.8")
def test_wrapped_classifier_is_t_private() -> None:
    """Lemma 2.8's t = ln(3w^2/(2w+1)): no loss above it for the extreme three-outcome
    family (s = 1/50), in either direction.  False-failure probability 0 (exact route)."""
    t = float(wrapped_privacy.certified(eps=LOG_W).t.hi)
    assert max(max(a / b, b / a) for a, b in zip(*CLASSIFIER, strict=True)) <= F(75, 56)
    for A, B, label in ((*CLASSIFIER, "wrap-cls-0"), (CLASSIFIER[1], CLASSIFIER[0], "wrap-cls-1")):
        assert exceed(A, B, t) == 0
        assert not check_rate(sample_losses(A, B, 20_000, label) > t + 1e-12, None, 0.0).rejected


@covers("CL23:Lem2.8", "CL23:LemE.1")
def test_power_test_wrapper_value_on_a_classifier() -> None:
    """POWER CHECK: the test-only t_test(eps) applied to a three-outcome classifier is
    false (open question 1): outcome 1 (probability s/(1+s+r) = 1/71) has loss
    ln(1.5 w/(1+s+r)) > ln(9/7); 2000 samples reject with the probability below."""
    t_test = float(wrapped_test_privacy.certified(eps=LOG_W).t.hi)
    p_true = exceed(*CLASSIFIER, t_test)
    assert abs(p_true - 1 / 71) < 1e-12
    n = 2_000
    assert rejection_probability(p_true, n, 0.0, ALPHA) > 0.9999
    assert check_rate(sample_losses(*CLASSIFIER, n, "wrap-power-cls") > t_test + 1e-12,
                      None, 0.0).rejected


def _pure_harness_rejects(t: float, pair: Any, p_exact: float, label: str) -> None:
    """The exact rate of loss > ``t`` on ``pair`` is ``p_exact``; with the main test's 20 000
    outputs the pure-bound harness rejects with probability 1.0 (computed), and does."""
    p_true = exceed(*pair, t)
    assert p_true == pytest.approx(p_exact, rel=1e-12)
    assert rejection_probability(p_true, 20_000, 0.0, ALPHA) == 1.0
    losses = sample_losses(*pair, 20_000, label)
    assert check_rate(losses > t + 1e-12, None, 0.0).rejected


@covers("CL23:LemE.1")
def test_power_mutant_test_wrapper_value() -> None:
    """POWER CHECK on a mutant of ``wrapper_test_t`` planted by the mutation tool: the
    denominator ``2 grow + 3`` turned into ``2 grow + 4`` (so ln(1 + 4 grow/(2 grow + 4)) =
    0.2007 < eps and t_test = max(...) = eps = ln(5/4)), on the main test's sample
    (20 000 outputs at the crossing pair).  The majority outcome (probability 3/7, exact)
    has loss ln(9/7) > t, so the pure-bound harness rejects with probability
    1 - (4/7)^20000 = 1.0 (computed below); false failure 0 (exact route)."""
    t = float(mutant(WRAPPERS, "2 * grow + 3", "2 * grow + 4").wrapped_test_privacy.certified(
        eps=LOG_W).t.hi)
    assert t == pytest.approx(float(LOG_W), rel=1e-15)
    _pure_harness_rejects(t, CROSSING, 3 / 7, "wrap-test-0")


@covers("CL23:Lem2.8")
def test_power_mutant_general_wrapper_value() -> None:
    """POWER CHECK on a mutant of ``general_wrapper_t`` planted by the mutation tool:
    ``2 eps - ln(1 + 2 (e^eps - 1)/3)`` with ``2 expm1(eps)`` turned into ``3 expm1(eps)``,
    which gives t = eps exactly (the wrapper would cost nothing), on the main test's sample
    (20 000 outputs of the extreme classifier).  Outputs with loss above ln(5/4) have
    probability 30/71 = 0.4225 (exact), so the pure-bound harness rejects with probability
    1.0 (computed below); false failure 0 (exact route)."""
    t = float(mutant(WRAPPERS, "2 * expm1(ctx, eps)", "3 * expm1(ctx, eps)")
              .wrapped_privacy.certified(eps=LOG_W).t.hi)
    assert t == pytest.approx(float(LOG_W), rel=1e-12)
    _pure_harness_rejects(t, CLASSIFIER, 30 / 71, "wrap-cls-0")


# ---- wrapped tests under TCT ------------------------------------------------------------

TEST = (boundary_wrap([F(4, 5), F(1, 5)]), boundary_wrap([F(3, 4), F(1, 4)]))  # ⊤ is index 2


def tct_losses(tau: int, n: int, label: str) -> np.ndarray:
    """Halted at the tau-th ⊤ (at most 2000 calls): loss of each run's transcript on D^0."""
    g = rng(label)
    probs = [float(p) for p in TEST[0]]
    step = losses_of(*TEST)
    counts = np.zeros((n, 3), dtype=np.int64)
    live = np.ones(n, dtype=bool)
    for _ in range(2_000):
        if not live.any():
            break
        ys = g.choice(3, size=n, p=probs)
        counts[np.arange(n), ys] += live
        live &= counts[:, 2] < tau
    return np.asarray(counts @ step, dtype=float)


def tct_exceed(tau: int, eps_prime: float) -> float:
    """Exact P[loss > eps']: k majority and j minority outputs before the tau-th ⊤ have
    probability (k+j+tau-1)!/(k! j! (tau-1)!) p_maj^k p_min^j p_top^tau."""
    lp = [math.log(float(p)) for p in TEST[0]]
    step = losses_of(*TEST)
    k = np.arange(0, 600)[:, None]
    j = np.arange(0, 600)[None, :]
    logp = (gammaln(k + j + tau) - gammaln(k + 1) - gammaln(j + 1) - gammaln(tau)
            + k * lp[0] + j * lp[1] + tau * lp[2])
    loss = k * step[0] + j * step[1] + tau * step[2]
    return float(np.exp(logp)[loss > eps_prime + 1e-9].sum())


@covers("CL23:LemE.2-conservative", "CL23:LemE.1")
def test_wrapped_tests_within_the_tct_bound() -> None:
    """Wrapped ln(5/4)-DP tests charged only on ⊤ (t_test-DP calls, q of Lemma E.2):
    freq(loss > eps') <= delta' with the exact tail.  False-failure probability <= 1e-6."""
    tau = 3
    t = wrapped_test_privacy.certified(eps=LOG_W).t.hi
    q = wrapped_test_target.certified(eps=LOG_W).q.lo
    with mp.workdps(60):
        acc = TCTAccountant(tau=tau, eps=Fraction(str(mp.nstr(t * (1 + mp.mpf(10) ** -30), 45))),
                            q=Fraction(str(mp.nstr(q * (1 - mp.mpf(10) ** -30), 45))))
    losses = tct_losses(tau, 20_000, "wrap-tct")
    for g in (acc.guarantee(1, tail="exact"), acc.guarantee("0.25", tail="exact")):
        assert tct_exceed(tau, float(g.eps)) <= float(g.delta)
        assert not check_rate(losses > float(g.eps) + 1e-9, None, float(g.delta)).rejected
