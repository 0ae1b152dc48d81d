"""Statistical test of DP-SGD's bracketed privacy profile (``DPSGD:delta``): the privacy
loss of ``T`` steps sampled directly, against the certified bracket.

For each direction the privacy loss ``L = sum_i X_i`` is simulated from its definition
(remove: ``X = l(Z)``, ``Z ~ (1-q) N(0, sigma^2) + q N(1, sigma^2)``; add: ``X = -l(Z)``,
``Z ~ N(0, sigma^2)``; ``l(z) = ln(1 - q + q e^((2z-1)/(2 sigma^2)))``), and ``delta(eps) =
E[(1 - e^(eps - L))_+]`` is estimated by the sample mean of a ``[0, 1]`` variable with a
two-sided empirical-Bernstein interval (Maurer, Pontil 2009, Thm 4: with probability at
least ``1 - a`` the mean is below ``mean + sqrt(2 V ln(2/a) / n) + 7 ln(2/a) / (3 (n-1))``,
``V`` the sample variance; the same for the lower side).  The exact ``max`` of the two
directions then lies in ``[max of lower ends, max of upper ends]`` except with probability
``4 a``; the certified bracket contains it, so the two intervals must meet.  With ``a =
1.25e-7`` the false-failure probability is at most ``5e-7``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from reference.results import covers
from reference.results.dpsgd import pld
from reference.sim.stats import rng
from stats_tests.mutants import mutant

Q, SIGMA, STEPS, EPS = 0.1, 1.0, 10, 0.5
N = 2_000_000
A = 1.25e-7
GRID = "reference.results.dpsgd.pld_grid"


def _sampled(direction: str, n: int, label: str) -> tuple[float, float]:
    """Empirical-Bernstein interval for ``E[(1 - e^(eps - L))_+]`` in one direction."""
    gen = rng(f"{label}/{direction}")
    parts = []
    for _ in range(4):
        z = gen.standard_normal((n // 4, STEPS)) * SIGMA
        if direction == "remove":
            z += gen.random((n // 4, STEPS)) < Q
        x = np.log1p(Q * np.expm1((2 * z - 1) / (2 * SIGMA**2))).sum(axis=1)
        loss = x if direction == "remove" else -x
        parts.append(np.maximum(0.0, -np.expm1(EPS - loss)))
    f = np.concatenate(parts)
    log_term = np.log(2 / A)
    radius = np.sqrt(2 * f.var(ddof=1) * log_term / n) + 7 * log_term / (3 * (n - 1))
    return float(f.mean() - radius), float(f.mean() + radius)


@lru_cache(maxsize=2)
def _interval(label: str) -> tuple[float, float]:
    rem, add = _sampled("remove", N, label), _sampled("add", N, label)
    return max(rem[0], add[0]), max(rem[1], add[1])


def _bracket() -> tuple[float, float]:
    lo, _, hi = pld.bracket("delta", Fraction(Q), Fraction(SIGMA), STEPS, Fraction(EPS))
    return float(lo), float(hi)


@covers("DPSGD:delta")
def test_sampled_privacy_loss_meets_the_bracket() -> None:
    """The simulated ``max(delta_remove, delta_add)`` at ``q = 0.1, sigma = 1, T = 10, eps =
    0.5`` meets the certified bracket (about ``[0.0328, 0.0354]``; the sampled interval is
    about ``0.0341 +- 0.0005``).  False-failure probability at most ``5e-7``."""
    lo, hi = _bracket()
    s_lo, s_hi = _interval("dpsgd-pld")
    assert s_lo <= hi and lo <= s_hi, ((lo, hi), (s_lo, s_hi))
    assert hi - lo < 0.1 * hi  # the bracket is informative: under 10% wide


@pytest.mark.parametrize("original, wrong, meaning", [
    ("(_arb(1 - q), 0)", "(_arb(1 - q), 1)", "no subsampling: every step sees the record"),
    ("(self.qa, 1)", "(self.qa, 0)", "the remove direction's loss taken under Q"),
])
@covers("DPSGD:delta")
def test_power_against_mutants(monkeypatch: pytest.MonkeyPatch, original: str, wrong: str,
                               meaning: str) -> None:
    """Power check: the same harness rejects the bracket computed with a fault planted in
    the law of one step (the project's mutation tool's text).  The mutants' brackets (about
    ``[0.465, 0.484]`` and ``[0.0123, 0.0131]``) lie far outside the sampled interval
    (checked below, not assumed): the harness rejects
    whenever the sampled interval covers the truth, with probability at least
    ``1 - 5e-7``."""
    bad = mutant(GRID, original, wrong)
    monkeypatch.setattr(pld, "single_step", bad.single_step)
    pld.bracket.cache_clear()
    try:
        lo, hi = _bracket()
    finally:
        pld.bracket.cache_clear()
    s_lo, s_hi = _interval("dpsgd-pld")
    assert hi < s_lo or lo > s_hi, (meaning, (lo, hi), (s_lo, s_hi))
    assert min(abs(hi - s_lo), abs(lo - s_hi)) > s_hi - s_lo  # far outside, not marginal
