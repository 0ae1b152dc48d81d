"""Statistical test of the upper end of DPSGD:delta-wor: the symmetric privacy-loss law
(``reference/results/dpsgd/wor.py``) sampled directly and composed over 10 steps, against
the certified bracket of its delta.

One draw of the law, in the grid's units (noise ``s = sigma/2``, ``P = (1-q) N(0, s^2) + q
N(1, s^2)``, ``Q = N(0, s^2)``, ``l(z) = ln(1 - q + q e^((2z-1)/(2 s^2)))``): with
probability ``P(Z > 1/2)`` the loss ``l(Z)`` of ``Z ~ P`` conditioned on ``Z > 1/2``; with
probability ``Q(Z > 1/2)`` the loss ``-l(Z)`` of ``Z ~ Q`` conditioned the same way; 0
otherwise.  Conditioning by rejection (each acceptance probability is above 0.3 here).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import erf, sqrt

import numpy as np
import pytest

from reference.results import covers
from reference.results.dpsgd import pld
from reference.sim.stats import rng
from stats_tests.mutants import line_with, mutant

Q, SIGMA, STEPS, EPS = 0.1, 2.0, 10, 0.5
S = SIGMA / 2
N = 2_000_000
A = 2.5e-7
GRID = "reference.results.dpsgd.pld_grid"


def _conditioned(gen: np.random.Generator, n: int, mixed: bool) -> np.ndarray:
    """``n`` draws of ``Z`` (``P`` when ``mixed``, else ``Q``) conditioned on ``Z > 1/2``."""
    out = np.empty(0)
    while out.size < n:
        z = gen.standard_normal(2 * n) * S
        if mixed:
            z += gen.random(2 * n) < Q
        out = np.concatenate([out, z[z > 0.5]])
    return out[:n]


def _loss(z: np.ndarray) -> np.ndarray:
    return np.log1p(Q * np.expm1((2 * z - 1) / (2 * S * S)))


def _weights() -> tuple[float, float]:
    """``(P(Z > 1/2), Q(Z > 1/2))``."""
    tail0 = 0.5 * (1 - erf(0.5 / (S * sqrt(2))))
    tail1 = 0.5 * (1 + erf(0.5 / (S * sqrt(2))))
    return (1 - Q) * tail0 + Q * tail1, tail0


def _draws(gen: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    a, b = _weights()
    u = gen.random(shape)
    x = np.zeros(shape)
    pos, neg = u < a, (u >= a) & (u < a + b)
    x[pos] = _loss(_conditioned(gen, int(pos.sum()), True))
    x[neg] = -_loss(_conditioned(gen, int(neg.sum()), False))
    return x


@lru_cache(maxsize=1)
def _interval() -> tuple[float, float]:
    """Empirical-Bernstein interval (Maurer, Pontil 2009) for ``E[(1 - e^(eps - S))_+]``."""
    gen = rng("dpsgd-wor")
    parts = [np.maximum(0.0, -np.expm1(EPS - _draws(gen, (N // 4, STEPS)).sum(axis=1)))
             for _ in range(4)]
    f = np.concatenate(parts)
    log_term = np.log(2 / A)
    radius = np.sqrt(2 * f.var(ddof=1) * log_term / N) + 7 * log_term / (3 * (N - 1))
    return float(f.mean() - radius), float(f.mean() + radius)


def _bracket() -> tuple[float, float]:
    lo, _, hi = pld.bracket("delta", Fraction(Q), Fraction(S), STEPS, Fraction(EPS),
                            symmetric=True)
    return float(lo), float(hi)


@covers("DPSGD:delta-wor")
def test_sampled_symmetric_law_meets_the_bracket() -> None:
    """The simulated delta of 10 draws of the law at ``q = 0.1, sigma = 2, eps = 0.5`` meets
    the certified bracket of the upper end.  False-failure probability at most ``2.5e-7``
    (the interval's two sides)."""
    lo, hi = _bracket()
    s_lo, s_hi = _interval()
    assert s_lo <= hi and lo <= s_hi, ((lo, hi), (s_lo, s_hi))
    assert hi - lo < 0.1 * hi  # the bracket is informative: under 10% wide


@pytest.mark.parametrize("original, wrong, text, meaning", [
    ("direction == ADD", "direction != ADD", "if direction == ADD:",
     "each half's variable drawn from the other's law (P and Q exchanged)"),
    ("-1", "1", "self.sign = 1 if direction", "the add half's losses counted positive"),
])
@covers("DPSGD:delta-wor")
def test_power_against_mutants(monkeypatch: pytest.MonkeyPatch, original: str, wrong: str,
                               text: str, meaning: str) -> None:
    """Power check: the harness rejects the bracket computed with a fault planted in one
    step's law by the project's mutation tool.  Their brackets (about ``[0.0156, 0.0172]``
    and ``[0.224, 0.236]``) lie far outside the sampled interval (checked below, not
    assumed): the harness rejects whenever the sampled interval covers the truth.  (Faults
    that change the law's mass are refused outright: ``pld`` checks that the grid law's mass
    is at most 1, and a deficit widens the bracket instead of moving it.)"""
    bad = mutant(GRID, original, wrong, line_with(GRID, text))
    monkeypatch.setattr(pld, "symmetric_step", bad.symmetric_step)
    pld.bracket.cache_clear()
    try:
        lo, hi = _bracket()
    finally:
        pld.bracket.cache_clear()
    s_lo, s_hi = _interval()
    assert hi < s_lo or lo > s_hi, (meaning, (lo, hi), (s_lo, s_hi))
    assert min(abs(hi - s_lo), abs(lo - s_hi)) > s_hi - s_lo  # far outside, not marginal
