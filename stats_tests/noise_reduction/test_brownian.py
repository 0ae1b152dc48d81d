"""Statistical test of the Brownian privacy loss's law at a fixed time (WRWR22 Thm 3.4,
RSWR23 Thm 4); the e-values of RSWR23 §6.1 are in ``test_evalues.py``.

The law is tested with a DKW bound (false failure <= 1e-6), and the power check computes
the sup-distance to the wrong law (variance halved) exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mp
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.brownian import brownian_loss
from reference.sim.adversaries import NP
from reference.sim.stats import ALPHA, check_law, dkw_radius, law_power, rng
from stats_tests.mutants import mutant


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
def test_loss_law_at_a_fixed_time() -> None:
    """At fixed T the loss is N(c^2/(2T), c^2/T) (DKW test, false failure <= 1e-6); the
    power check: a N(c^2/(2T), c^2/(2T)) law (variance halved) is at sup-distance > 0.06,
    so the test rejects it with probability > 0.9999 (DKW lower bound)."""
    fx, fxp, t, n = np.array([1.0, 2.0, 0.0]), np.array([0.0, 1.0, 0.5]), 0.8, 50_000
    c2 = float(np.sum((fx - fxp) ** 2))
    b = math.sqrt(t) * rng("thm3.4").standard_normal((n, 3))
    u = fx - fxp
    loss = u @ u / (2 * t) + b @ u / t
    with mp.workdps(20):
        assert abs(float(brownian_loss(fx=fx.tolist(), fxp=fxp.tolist(), b=b[0].tolist(), t=t))
                   - loss[0]) < 1e-9
    right = stats.norm(c2 / (2 * t), math.sqrt(c2 / t)).cdf
    assert not check_law(loss, right).rejected
    wrong = stats.norm(c2 / (2 * t), math.sqrt(c2 / (2 * t))).cdf
    xs = np.linspace(-5, 8, 2001)
    assert law_power(n, float(np.max(np.abs(right(xs) - wrong(xs)))), ALPHA) > 0.9999
    assert check_law(loss, wrong).rejected


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
def test_power_mutant_loss_with_a_changed_constant() -> None:
    """Power check on a mutant of the loss formula (``_loss``, behind ``brownian_loss``)
    planted by the mutation tool: ``|u|^2 / (2 T)`` turned into ``|u|^2 / (3 T)``.  The
    losses are computed by the formula itself (float64, through ``NP``) on the main test's
    noise sample (n = 5e4); the real formula reproduces the hand-computed losses, and the
    mutant's, of law N(c^2/(3T), c^2/T), are tested against the stated N(c^2/(2T), c^2/T).

    The two laws are at sup-distance 2 Phi(c/(12 sqrt T)) - 1 = 0.1111 (exact), so the DKW
    test rejects with probability >= 1 - 2 exp(-2 n (0.1111 - radius)^2) = 1 - 1e-420 or
    closer (:func:`law_power`; exponent computed below); false failure <= 1e-6."""
    fx, fxp, t, n = np.array([1.0, 2.0, 0.0]), np.array([0.0, 1.0, 0.5]), 0.8, 50_000
    c2 = float(np.sum((fx - fxp) ** 2))
    b = math.sqrt(t) * rng("thm3.4").standard_normal((n, 3))
    u = fx - fxp
    by_hand = u @ u / (2 * t) + b @ u / t
    cols = [b[:, k] for k in range(3)]
    real = np.asarray(brownian_loss.core(NP, fx.tolist(), fxp.tolist(), cols, t))
    assert np.max(np.abs(real - by_hand)) < 1e-12
    wrong = mutant("reference.results.noise_reduction.brownian", "2 * t", "3 * t", line=57)
    loss = np.asarray(wrong.brownian_loss.core(NP, fx.tolist(), fxp.tolist(), cols, t))
    assert np.max(np.abs(loss - (by_hand - c2 / (6 * t)))) < 1e-12
    distance = float(2 * stats.norm.cdf(c2 / (6 * t) / 2 / math.sqrt(c2 / t)) - 1)
    assert distance == pytest.approx(0.1111, abs=1e-4)
    gap = distance - dkw_radius(n, ALPHA)
    assert 2 * n * gap**2 / math.log(10) > 420 and law_power(n, distance, ALPHA) == 1.0
    right = stats.norm(c2 / (2 * t), math.sqrt(c2 / t)).cdf
    assert check_law(loss, right).rejected
