"""Statistical tests of the time-uniform boundaries (WRWR22 Thm 3.6, Cor 3.7; RSWR23 psi).

Brownian paths are simulated backwards on a log grid of times (vectorised).  For
worst-case neighbours (``c = Delta``) the loss at time ``t`` is ``Delta^2/(2t) + Delta W_t/t``.
The stopping rule is adversarial: stop at the first release whose loss exceeds the
boundary.  It looks only at released values (the adversary knows ``f(x)`` and ``f(x')``),
so it is a stopping function; the event "stopped above the boundary" is then the grid
crossing event, whose probability must be at most ``delta`` (grid-only estimates are
biased low, so this is a valid "<= delta" test).

Every test rejects a true guarantee with probability at most ``ALPHA = 1e-6`` (one-sided
Clopper–Pearson); the power check beside the boundaries computes a lower bound on the
wrong variant's rate exactly (bivariate normal) and the exact rejection probability.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.boundaries.wrwr22 import (
    companion_psi,
    linear_boundary,
    mixture_boundary,
    mixture_time,
)
from reference.sim.brownian_paths import backward_paths, bridge_step
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

DELTA = 0.1
N = 100_000
N_POWER = 10_000                           # paths of a power check on a mutant
GRID = np.geomspace(1e4, 1e-4, 400)        # decreasing: the mechanism's release order
WRWR22 = "reference.results.boundaries.wrwr22"


def crossings(boundary: np.ndarray, label: str, d: float = 1.0, n: int = N) -> np.ndarray:
    """Per path: does the worst-case loss exceed ``boundary`` at some grid time?"""
    w = backward_paths(GRID, n, rng(label))
    loss = d * d / (2 * GRID) + d * w / GRID
    return np.asarray((loss > boundary).any(axis=1))


def values(result: object, **params: object) -> np.ndarray:
    return np.array([float(result(t=t, **params)) for t in GRID])  # type: ignore[operator]


@covers("WRWR22:Thm3.6-mixture")
@pytest.mark.parametrize(("rho", "d"), [(1.0, 1.0), (0.01, 2.0)])
def test_mixture_boundary_crossed_at_most_delta(rho: float, d: float) -> None:
    """Adaptive stopping above psi^M_rho: frequency <= delta.  False failure <= 1e-6."""
    psi = values(mixture_boundary, rho=rho, delta=DELTA, sensitivity=d)
    check = check_rate(crossings(psi, f"mixture-{rho}", d), None, DELTA)
    assert not check.rejected, str(check)


@covers("WRWR22:Thm3.6-linear")
def test_linear_boundary_crossed_at_most_delta() -> None:
    """Linear boundary tuned at t = 1 (a = sqrt(L/2), b = L/(2a)): frequency <= delta."""
    a = math.sqrt(math.log(1 / DELTA) / 2)
    psi = values(linear_boundary, a=a, b=math.log(1 / DELTA) / (2 * a))
    check = check_rate(crossings(psi, "linear"), None, DELTA)
    assert not check.rejected, str(check)


@covers("RSWR23:psi")
def test_companion_boundary_two_sided_at_most_delta() -> None:
    """|W_t|/t >= psi(1/t; gamma, delta) at some grid time: frequency <= delta."""
    psi = np.array([float(companion_psi(t=1 / t, gamma=1, delta=DELTA)) for t in GRID])
    w = backward_paths(GRID, N, rng("companion"))
    check = check_rate((np.abs(w) / GRID >= psi).any(axis=1), None, DELTA)
    assert not check.rejected, str(check)


def pointwise_power(n: int) -> tuple[float, float]:
    """The pointwise boundary 1/(2t) + z_(1-delta)/sqrt(t) is crossed at t = 100 or
    t = 0.01 (both grid points up to rounding; corr sqrt(1e-4) = 0.01) with probability
    1 - Phi2(z, z; 0.01), a lower bound on its grid crossing rate; return it and the
    exact probability that the harness rejects at that rate."""
    z = stats.norm.isf(DELTA)
    both_below = stats.multivariate_normal([0, 0], [[1, 0.01], [0.01, 1]]).cdf([z, z])
    p_lb = 1 - float(both_below)
    return p_lb, rejection_probability(p_lb, n, DELTA, ALPHA)


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Cor3.7")
def test_power_pointwise_quantile_boundary_at_a_data_dependent_time() -> None:
    """Power check: the fixed-time (1 - delta)-quantile of the loss, used at the adaptive
    stopping time, must be rejected.  Its rate is >= 0.19 (exact lower bound), and the
    harness then rejects with probability > 0.9999 (exact)."""
    p_lb, power = pointwise_power(N)
    assert p_lb > 0.18 and power > 0.9999
    z = stats.norm.isf(DELTA)
    wrong = 1 / (2 * GRID) + z / np.sqrt(GRID)
    check = check_rate(crossings(wrong, "pointwise"), None, DELTA)
    assert check.rejected, str(check)


LEVELS = np.geomspace(0.05, 20, 40)


def expost_violations(times: np.ndarray, n: int, label: str, d: int = 5) -> np.ndarray:
    """Corollary 3.7's adaptive run (see the test below) with level ``i`` released at
    ``times[i]``: per run, was it stopped with ``L_N > E_N``?"""
    gen = rng(label)
    level = np.zeros(n, dtype=int)
    b = math.sqrt(times[0]) * gen.standard_normal((n, d))
    prev = b.copy()
    violated = np.zeros(n, dtype=bool)
    alive = np.ones(n, dtype=bool)
    for _ in range(len(LEVELS)):
        t = times[level]
        loss = 1 / (2 * t) + b[:, 0] / t
        hit = alive & (loss > LEVELS[level])
        violated |= hit
        alive &= ~hit
        agree = np.linalg.norm(b - prev, axis=1) < np.sqrt(t)
        nxt = np.minimum(level + np.where(agree, 1, 3), len(LEVELS) - 1)
        alive &= nxt > level
        prev = b
        b = np.where(alive[:, None], bridge_step(b, t, times[nxt], gen), b)
        level = np.where(alive, nxt, level)
    return violated


@covers("WRWR22:Cor3.7", "WRWR22:Cor3.7-Gamma")
def test_expost_privacy_with_adaptive_targets() -> None:
    """Corollary 3.7: d = 5, worst-case neighbours along e_1, time functions
    T_n = Gamma(E_n) with E_n raised by one level when two releases agree and by three
    when they disagree (a function of the releases), stopped adversarially at the first
    n with L_n > E_n.  Frequency of L_N > E_N <= delta.  False failure <= 1e-6."""
    rho, n = 2.0, 50_000
    times = np.array([float(mixture_time(eps=e, rho=rho, delta=DELTA).value) for e in LEVELS])
    violated = expost_violations(times, n, "cor3.7")
    check = check_rate(violated, None, DELTA)
    assert not check.rejected, str(check)
    assert violated.mean() > 0      # the adversary does find violations


@pytest.mark.slow
@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear")
def test_boundaries_thorough() -> None:
    """Thorough size: 1e6 paths at delta = 0.01, mixture and linear (false failure 1e-6)."""
    delta = 0.01
    w = backward_paths(GRID, 1_000_000, rng("boundaries-thorough"))
    loss = 1 / (2 * GRID) + w / GRID
    a = math.sqrt(math.log(1 / delta) / 2)
    for psi in (values(mixture_boundary, rho=1, delta=delta),
                values(linear_boundary, a=a, b=math.log(1 / delta) / (2 * a))):
        assert not check_rate((loss > psi).any(axis=1), None, delta).rejected


# ---- power checks on mutants planted by the mutation tool ---------------------------------
# Each runs a guarded test's harness on N_POWER = 1e4 fresh paths with the boundary (or the
# times) computed by a mutant of ``reference.results.boundaries.wrwr22``.  The mutant's
# crossing rate is bounded below by the exact probability of crossing at the single grid
# time where that is likeliest (a normal tail), and the harness's rejection probability at
# that rate is computed exactly (it increases with the rate, so it is a lower bound).

_PRODUCT = "(v + prec) * (log1p(ctx, v / prec) + 2 * log_inv(ctx, delta))"
_QUOTIENT = "(v + prec) / (log1p(ctx, v / prec) + 2 * log_inv(ctx, delta))"


def level_quotient() -> types.ModuleType:
    """``wrwr22`` with ``mixture_level``'s product under the root turned into a quotient:
    ``sqrt((v + prec) / (log(1 + v/prec) + 2 log(1/delta)))`` (used by the mixture
    boundary, the companion psi and Gamma)."""
    return mutant(WRWR22, _PRODUCT, _QUOTIENT)


def single_time_rate(boundary: np.ndarray, d: float) -> float:
    """``max_t P[d^2/(2t) + d W_t/t > boundary(t)]`` over the grid: a lower bound on the
    crossing rate, exactly ``sf(min_t (boundary - d^2/(2t)) sqrt(t)/d)``."""
    z = (boundary - d * d / (2 * GRID)) * np.sqrt(GRID) / d
    return float(stats.norm.sf(z.min()))


@covers("WRWR22:Thm3.6-mixture")
@pytest.mark.parametrize(("rho", "d", "rate"), [(1.0, 1.0, 0.3939), (0.01, 2.0, 0.4079)])
def test_power_mutant_mixture_level_quotient(rho: float, d: float, rate: float) -> None:
    """Power check: the mixture boundary computed by the mutant of ``mixture_level``
    (product under the root turned into a quotient) must be rejected by the mixture test's
    harness.  Its crossing rate is >= 0.394 (rho = 1, d = 1) or 0.408 (rho = 0.01, d = 2)
    (exact single-time lower bound), so with 1e4 paths the harness rejects with
    probability 1.0 (exact, computed below: > 1 - 1e-9); false failure <= 1e-6."""
    psi = values(level_quotient().mixture_boundary, rho=rho, delta=DELTA, sensitivity=d)
    p_lb = single_time_rate(psi, d)
    assert p_lb == pytest.approx(rate, abs=1e-4)
    assert rejection_probability(p_lb, N_POWER, DELTA, ALPHA) > 1 - 1e-9
    check = check_rate(crossings(psi, f"mixture-mutant-{rho}", d, N_POWER), None, DELTA)
    assert check.rejected, str(check)


@covers("RSWR23:psi")
def test_power_mutant_companion_psi_quotient() -> None:
    """Power check: psi(1/t; 1, delta) computed by the same ``mixture_level`` mutant must be
    rejected by the companion test's two-sided harness.  The rate is >= 0.788 (P[|Z| >= z]
    at the likeliest grid time, exact), so with 1e4 paths the harness rejects with
    probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    wrong = level_quotient()
    psi = np.array([float(wrong.companion_psi(t=1 / t, gamma=1, delta=DELTA)) for t in GRID])
    p_lb = float(2 * stats.norm.sf((psi * np.sqrt(GRID)).min()))
    assert p_lb == pytest.approx(0.7879, abs=1e-4)
    assert rejection_probability(p_lb, N_POWER, DELTA, ALPHA) > 1 - 1e-9
    w = backward_paths(GRID, N_POWER, rng("companion-mutant"))
    check = check_rate((np.abs(w) / GRID >= psi).any(axis=1), None, DELTA)
    assert check.rejected, str(check)


@covers("WRWR22:Thm3.6-linear")
def test_power_mutant_linear_intercept_quotient() -> None:
    """Power check on the mutant of ``linear_boundary`` turning ``Delta/t (Delta/2 + b)``
    into ``Delta/t / (Delta/2 + b)``, with the linear test's a, b: rate >= 0.2226 (exact
    single-time bound), so with 1e4 paths the harness rejects with probability 1.0
    (exact, > 1 - 1e-9); false failure <= 1e-6."""
    wrong = mutant(WRWR22, "sensitivity / t * (sensitivity / 2 + b)",
                   "sensitivity / t / (sensitivity / 2 + b)")
    a = math.sqrt(math.log(1 / DELTA) / 2)
    psi = values(wrong.linear_boundary, a=a, b=math.log(1 / DELTA) / (2 * a))
    p_lb = single_time_rate(psi, 1.0)
    assert p_lb == pytest.approx(0.2226, abs=1e-4)
    assert rejection_probability(p_lb, N_POWER, DELTA, ALPHA) > 1 - 1e-9
    check = check_rate(crossings(psi, "linear-mutant", 1.0, N_POWER), None, DELTA)
    assert check.rejected, str(check)


@covers("WRWR22:Cor3.7", "WRWR22:Cor3.7-Gamma")
def test_power_mutant_gamma_from_the_quotient_level() -> None:
    """Power check: the release times Gamma(E_n) computed by the ``mixture_level`` mutant
    (through its mixture boundary) must be rejected by Corollary 3.7's adaptive harness.
    A run violates already at the first level with probability
    P[1/(2 t0) + W_t0/t0 > E_0] = 0.3614 at t0 = Gamma_mutant(0.05) = 68.9 (exact normal
    tail, a lower bound on the rate), so with 1e4 runs the harness rejects with
    probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    wrong = level_quotient()
    times = np.array([float(wrong.mixture_time(eps=e, rho=2.0, delta=DELTA).value)
                      for e in LEVELS])
    t0 = times[0]
    p_lb = float(stats.norm.sf((LEVELS[0] * t0 - 0.5) / np.sqrt(t0)))
    assert p_lb == pytest.approx(0.3614, abs=1e-4)
    assert rejection_probability(p_lb, N_POWER, DELTA, ALPHA) > 1 - 1e-9
    check = check_rate(expost_violations(times, N_POWER, "cor3.7-mutant"), None, DELTA)
    assert check.rejected, str(check)
