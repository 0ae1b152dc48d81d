"""Statistical test of the Brownian privacy loss's law at a fixed time (WRWR22 Thm 3.4,
RSWR23 Thm 4); the e-values of RSWR23 §6.1 are in ``test_evalues.py``.

The law is tested with a DKW bound (false failure <= 1e-6), and the power check computes
the sup-distance to the wrong law (variance halved) exactly.
"""

from __future__ import annotations

import math

import numpy as np
from mpmath import mp
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.brownian import brownian_loss
from reference.sim.stats import ALPHA, check_law, rng


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
def test_loss_law_at_a_fixed_time() -> None:
    """At fixed T the loss is N(c^2/(2T), c^2/T) (DKW test, false failure <= 1e-6); the
    power check: a N(c^2/(2T), c^2/(2T)) law (variance halved) is at sup-distance > 0.06,
    so the test rejects it with probability > 0.9999 (DKW lower bound)."""
    from reference.sim.stats import law_power

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
