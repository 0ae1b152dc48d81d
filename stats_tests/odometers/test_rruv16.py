"""Statistical tests of the odometers (RRUV16 Lemma 6.4, Theorem 6.5), simulated with
numpy; the concentration bounds behind them (Theorems 4.1, 4.2, 4.4, 4.5) are tested in
``stats_tests/concentration/test_rruv16.py``.

Guarantee checked: an odometer's bound is exceeded (at any round) with frequency at most
``delta_g`` under a constant-eps adversary, Algorithm 4's stopping-time adversary and a
bold adaptive adversary.  Each check rejects a true guarantee with probability at most
``ALPHA = 1e-6`` (one-sided Clopper–Pearson).  The power check runs the same harness on
the "tempting heuristic" (advanced composition on the realised parameters) under the
stopping-time adversary; its true rate comes from the exact first-passage dynamic
programme, and the exact rejection probability is asserted.  Further power checks run
the constant-adversary harness on mutants of ``reference.results.odometers.rruv16``
planted by the mutation tool, with exact first-passage rates.  The simulated rates are
also compared with the exact ones.
"""

from __future__ import annotations

import math
import types
from fractions import Fraction

import numpy as np
import pytest

from reference.results import covers
from reference.results.odometers.rruv16 import (
    advanced_value,
    fixed_x_value,
    heuristic_value,
    lower_order_value,
)
from reference.sim.adversaries import (
    NP,
    algorithm4_stop,
    bold_policy,
    crossing_probability,
    simulate_constant,
    simulate_filter,
    stopped_violation,
)
from reference.sim.stats import ALPHA, check_rate, cp_lower, cp_upper, rejection_probability, rng
from stats_tests.mutants import line_in, mutant

DG = 0.05
ODOMETERS = "reference.results.odometers.rruv16"
N_POWER = 20_000


def thm65_bounds(eps: float, T: int, n: int, dg: float = DG,
                 module: types.ModuleType | None = None) -> np.ndarray:
    """Theorem 6.5's bound after each of ``T`` rounds of ``eps`` (``module``: a mutant)."""
    value = advanced_value if module is None else module.advanced_value
    t = np.arange(1, T + 1)
    S, drift = t * eps * eps, t * eps * math.expm1(eps) / 2
    b11 = value(NP, drift, S, n, dg, 11)
    b12 = value(NP, drift, S, n, dg, 12)
    return np.asarray(np.where((S >= 1 / n**2) & (S <= 1), b11, b12))


def order7_bounds(eps: float, T: int, n: int, module: types.ModuleType | None = None
                  ) -> np.ndarray:
    """Equation (7)'s order with constant 1 after each of ``T`` rounds of ``eps``: mean +
    scale of ``RRUV16:Thm6.1`` (``module``: a mutant), from one round's terms (the mean
    grows like ``t``, the scale like ``sqrt(t)``)."""
    value = lower_order_value if module is None else module.lower_order_value
    one = value(NP, [eps], n, DG)
    t = np.arange(1, T + 1)
    return np.asarray(t * float(one.mean) + np.sqrt(t) * float(one.scale))


def heuristic_bounds(eps: float, T: int, dg: float = DG) -> np.ndarray:
    t = np.arange(1, T + 1)
    return np.asarray(heuristic_value(NP, t * eps * math.expm1(eps) / 2, t * eps * eps, dg))


def consistent(hits: int, n: int, p_exact: float) -> bool:
    """The exact rate lies in the two-sided 1 - 2e-6 Clopper–Pearson interval."""
    return cp_lower(hits, n, ALPHA) <= p_exact <= cp_upper(hits, n, ALPHA)


@covers("RRUV16:Thm6.5")
@pytest.mark.parametrize("eps,n", [(0.01, 1000), (0.1, 100)])
def test_advanced_odometer_constant_adversary(eps: float, n: int) -> None:
    """2e5 runs x 1000 rounds: P[exists t: |Loss_t| > bound_t] <= delta_g (false-failure
    probability <= 1e-6), and the count agrees with the exact first-passage rate."""
    bounds = thm65_bounds(eps, 1000, n)
    run = simulate_constant(eps, bounds, 200_000, rng(f"thm6.5-const-{eps}"))
    assert not check_rate(run.crossed, None, DG).rejected
    assert consistent(int(run.crossed.sum()), run.crossed.size,
                      crossing_probability(eps, bounds))


@covers("RRUV16:Thm6.5")
@pytest.mark.parametrize("eps,n,rate", [(0.01, 1000, 0.1012), (0.1, 100, 0.0852)])
def test_power_mutant_advanced_odometer_log_argument(eps: float, n: int, rate: float) -> None:
    """Power check on a mutant of ``advanced_value`` planted by the mutation tool: branch
    (11)'s ``log(log n / delta_g)`` turned into ``log(log n * delta_g)``, with the
    constant-adversary harness (1000 rounds, 2e4 runs).  Its exact first-passage rate is
    0.1012 (eps = 0.01, n = 1000) or 0.0852 (eps = 0.1, n = 100) against delta_g = 0.05
    (the real bound's: 4.6e-7 and 5.6e-8), so the harness rejects with probability 1.0
    (exact, computed below: > 1 - 1e-9); false failure <= 1e-6."""
    wrong = mutant(ODOMETERS, "log(ctx, n) / delta_g", "log(ctx, n) * delta_g",
                   line=line_in(ODOMETERS, "log_term_11", "log(ctx, n) / delta_g"))
    bounds = thm65_bounds(eps, 1000, n, module=wrong)
    p_true = crossing_probability(eps, bounds)
    assert p_true == pytest.approx(rate, abs=1e-4)
    assert rejection_probability(p_true, N_POWER, DG, ALPHA) > 1 - 1e-9
    run = simulate_constant(eps, bounds, N_POWER, rng(f"thm6.5-mutant-{eps}"))
    assert check_rate(run.crossed, None, DG).rejected
    assert consistent(int(run.crossed.sum()), N_POWER, p_true)


def fixed_x_bounds(eps: float, T: int, x: float, module: types.ModuleType) -> np.ndarray:
    """Lemma 6.4's bound after each of ``T`` rounds of ``eps``, by ``module``."""
    t = np.arange(1, T + 1)
    return np.asarray(module.fixed_x_value(NP, t * eps * math.expm1(eps) / 2, t * eps * eps,
                                           x, DG))


@covers("RRUV16:Lem6.4")
def test_fixed_x_odometer_constant_adversary_and_power_on_a_mutant() -> None:
    """Lemma 6.4 (x = 1e-3) against the constant adversary eps = 0.1, 1000 rounds, 2e4
    runs: exceeded with frequency <= delta_g (exact first-passage rate 2.7e-8; false
    failure <= 1e-6).

    Power check on a mutant of ``fixed_x_value`` planted by the mutation tool: ``4 * S``
    turned into ``4 / S`` (U_k^2 = 4 / sum eps_i^2).  Its exact first-passage rate is 0.4556,
    so the harness rejects with probability 1.0 (exact, > 1 - 1e-9); false failure
    <= 1e-6."""
    eps, x = 0.1, 1e-3
    real = types.ModuleType("real")
    real.fixed_x_value = fixed_x_value  # type: ignore[attr-defined]
    bounds = fixed_x_bounds(eps, 1000, x, real)
    assert crossing_probability(eps, bounds) == pytest.approx(2.69e-8, rel=1e-2)
    run = simulate_constant(eps, bounds, N_POWER, rng("lem6.4-const"))
    assert not check_rate(run.crossed, None, DG).rejected

    wrong = mutant(ODOMETERS, "4 * S", "4 / S", line=line_in(ODOMETERS, "fixed_x_value", "4 * S"))
    bounds = fixed_x_bounds(eps, 1000, x, wrong)
    p_true = crossing_probability(eps, bounds)
    assert p_true == pytest.approx(0.4556, abs=1e-4)
    assert rejection_probability(p_true, N_POWER, DG, ALPHA) > 1 - 1e-9
    run = simulate_constant(eps, bounds, N_POWER, rng("lem6.4-mutant"))
    assert check_rate(run.crossed, None, DG).rejected
    assert consistent(int(run.crossed.sum()), N_POWER, p_true)


@covers("RRUV16:Thm6.5")
def test_power_heuristic_under_stopping_adversary() -> None:
    """Power check: the heuristic odometer against the adversary that stops at its first
    crossing (eps = 1/n, n = 1000 rounds, delta_g = 0.05).  Exact DP rate 0.195
    (computed independently; RRUV16 §6); with 2e4 runs the harness rejects with the exact
    probability below.
    The same adversary against Theorem 6.5 stays within delta_g."""
    n = 1000
    eps = 1 / n
    h = heuristic_bounds(eps, n)
    p_true = crossing_probability(eps, h)
    assert abs(p_true - 0.195) < 0.001
    runs = 20_000
    assert rejection_probability(p_true, runs, DG, ALPHA) > 0.9999
    run = simulate_constant(eps, h, runs, rng("heuristic-first-crossing"))
    assert check_rate(run.crossed, None, DG).rejected
    assert consistent(int(run.crossed.sum()), runs, p_true)
    valid = simulate_constant(eps, thm65_bounds(eps, n, n), runs, rng("thm6.5-first-crossing"))
    assert not check_rate(valid.crossed, None, DG).rejected


@covers("RRUV16:Thm6.1", "RRUV16:Thm6.5")
def test_an_odometer_of_the_order_of_theorem_6_1_is_crossed() -> None:
    """Theorem 6.1: an odometer ``mean + scale`` (Equation (7)'s order, constant 1) is not
    valid.  Constant adversary eps = 1/n, n = 1000 rounds, delta_g = 0.05: the exact
    first-passage rate is 0.3312 (dynamic programme), and 2e4 runs reject validity with
    probability > 1 - 1e-9 (exact, computed below).  Theorem 6.5, above ``mean + 2 scale`` on
    this branch, is not rejected.  Power check: a mutant of the registered terms planted by
    the mutation tool (``S = sum eps_i^2`` turned into ``sum eps_i/eps_i``, a scale ``1/eps``
    times too large) has exact rate below 1e-6, and the same harness does not reject it: the
    test finds the odometer invalid only where the terms are right.  False-failure
    probability: below 1e-9 + 3 x 1e-6 (the rejection, the two non-rejections and the
    consistency check with the exact rate)."""
    n = 1000
    eps = 1 / n
    bounds = order7_bounds(eps, n, n)
    p_true = crossing_probability(eps, bounds)
    assert p_true == pytest.approx(0.3312, abs=1e-4)
    assert rejection_probability(p_true, N_POWER, DG, ALPHA) > 1 - 1e-9
    run = simulate_constant(eps, bounds, N_POWER, rng("thm6.1-order"))
    assert check_rate(run.crossed, None, DG).rejected
    assert consistent(int(run.crossed.sum()), N_POWER, p_true)
    valid = simulate_constant(eps, thm65_bounds(eps, n, n), N_POWER, rng("thm6.1-thm6.5"))
    assert not check_rate(valid.crossed, None, DG).rejected
    wrong = mutant(ODOMETERS, "e * e", "e / e",
                   line=line_in(ODOMETERS, "lower_order_value", "e * e"))
    loose = order7_bounds(eps, n, n, module=wrong)
    assert crossing_probability(eps, loose) < 1e-6
    run = simulate_constant(eps, loose, N_POWER, rng("thm6.1-mutant"))
    assert not check_rate(run.crossed, None, DG).rejected


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
def test_algorithm4_adversary() -> None:
    """Algorithm 4 literally (one-sided stop at C eps sqrt(t log(log n/delta)), C chosen so
    the stop lies just above the heuristic's bound): the heuristic fails at the stop with
    exact probability > delta_g (power, asserted exactly); Theorem 6.5 and Lemma 6.4
    (x = 1e-3, fixed in advance) do not (false-failure probability <= 1e-6 each)."""
    n = 1000
    eps = 1 / n
    C = math.sqrt(2 * math.log(1 / DG) / math.log(math.log(n) / DG)) * 1.02
    stop = algorithm4_stop(eps, n, C, n, DG)
    h = heuristic_bounds(eps, n)
    p_true = stopped_violation(eps, h, stop)
    runs = 40_000
    assert p_true > DG and rejection_probability(p_true, runs, DG, ALPHA) > 0.9999
    run = simulate_constant(eps, h, runs, rng("alg4"), stop_hi=stop)
    final_bound = h[run.stop - 1]
    assert check_rate(np.abs(run.final_loss) * eps > final_bound, None, DG).rejected
    good = thm65_bounds(eps, n, n)
    assert not check_rate(np.abs(run.final_loss) * eps > good[run.stop - 1], None, DG).rejected
    t = np.arange(1, n + 1)
    fx = fixed_x_value(NP, t * eps * math.expm1(eps) / 2, t * eps * eps, 1e-3, DG)
    assert not check_rate(np.abs(run.final_loss) * eps > fx[run.stop - 1], None, DG).rejected


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
def test_bold_adversary_odometers() -> None:
    """Bold adaptive adversary (1/8 when the loss exceeds 1/4, else 1/64), 1000 rounds,
    5e4 runs: Theorem 6.5 (n = 1000) and Lemma 6.4 (x = 0.01) are exceeded at some round
    with frequency <= delta_g (false-failure probability <= 1e-6 each)."""
    levels = [Fraction(1, 64), Fraction(1, 8)]
    n = 1000

    def thm65(drift: np.ndarray, S: np.ndarray) -> np.ndarray:
        b11 = advanced_value(NP, drift, S, n, DG, 11)  # branch chosen by S below
        b12 = advanced_value(NP, drift, S, n, DG, 12)
        return np.asarray(np.where((S >= 1 / n**2) & (S <= 1), b11, b12))

    run = simulate_filter(levels, bold_policy(0, 1, 0.25), lambda d, S, t: np.zeros_like(d),
                          math.inf, 1000, 50_000, rng("odometer-bold"), odometer=thm65)
    assert run.counts[:, 1].sum() > 0
    assert not check_rate(run.crossed, None, DG).rejected
    run2 = simulate_filter(levels, bold_policy(0, 1, 0.25), lambda d, S, t: np.zeros_like(d),
                           math.inf, 1000, 50_000, rng("odometer-bold-x"),
                           odometer=lambda d, S: fixed_x_value(NP, d, S, 0.01, DG))
    assert not check_rate(run2.crossed, None, DG).rejected


@pytest.mark.slow
@covers("RRUV16:Thm6.5")
def test_throughput_constant_adversary_thorough() -> None:
    """Thorough size: 1e6 runs x 1000 rounds of the constant-eps adversary (about 9 s on
    one core), Theorem 6.5 at n = 1000, delta_g = 0.05."""
    bounds = thm65_bounds(0.01, 1000, 1000)
    run = simulate_constant(0.01, bounds, 10**6, rng("thm6.5-thorough"))
    assert not check_rate(run.crossed, None, DG).rejected
