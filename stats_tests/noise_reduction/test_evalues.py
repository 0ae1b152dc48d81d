"""Statistical tests of the backward martingale, the product e-process and Theorem 5
(RSWR23 §6.1); the Brownian privacy loss's law (WRWR22 Thm 3.4) is in ``test_brownian.py``.

Brownian paths run backwards on grids (vectorised); stopping rules look only at released
values.  ``E[M_tau] <= 1`` is tested with :func:`reference.sim.mean_check.check_mean`
(Hoeffding on the variable capped at ``CAP``: false-failure probability <= 1e-6); rates
with one-sided Clopper–Pearson (<= 1e-6).  Each power check computes the wrong variant's
capped mean or rate exactly (quadrature, closed forms) and asserts the power.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from reference.results import covers
from reference.results.boundaries.wrwr22 import companion_psi
from reference.results.noise_reduction.evalues import (
    backward_martingale,
    composed_expost,
    product_evalue,
)
from reference.sim.adversaries import NP
from reference.sim.brownian_paths import backward_paths, first_true
from reference.sim.mean_check import check_mean, mean_margin, mean_power
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import line_in, mutant

CAP, N = 20.0, 200_000
GRID = np.geomspace(10, 0.01, 300)


def m_values(lam: float, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The registered Lemma 6.1 formula, vectorised in floating point (checked against it)."""
    out = np.exp(lam * b / t - lam * lam / (2 * t))
    assert abs(out.flat[0] - float(backward_martingale(lam=lam, b=float(b.flat[0]),
                                                      t=float(np.broadcast_to(t, b.shape).flat[0]))
                                  )) < 1e-9 * (1 + out.flat[0])
    return np.asarray(out)


@covers("RSWR23:Lem6.1")
def test_backward_martingale_stopped_in_reverse_time() -> None:
    """Stop at the first grid time (scanning t downwards) with M >= 10, else at t = 0.01:
    E[M_tau] <= 1 (capped, Hoeffding) and P[sup M >= 10] <= 1/10 (Ville)."""
    b = backward_paths(GRID, N, rng("lem6.1"))
    m = m_values(1.0, b, GRID)
    hit, first = first_true(m >= 10)
    stopped = m[np.arange(N), first]
    check = check_mean(stopped, CAP)
    assert not check.rejected, str(check)
    assert not check_rate(hit, None, 0.1).rejected


def forward_misuse_capped_mean(lam: float, s: float, t: float, c: float) -> float:
    """E[min(M_tau, CAP)] when the analyst looks at the *small* time s first and stops
    there if M_s >= c, else takes M_t (t > s): a forward stopping time.  Exact up to
    quadrature error: given B_s = x, M_t is lognormal."""
    ms = lambda x: math.exp(lam * x / s - lam * lam / (2 * s))  # noqa: E731
    x_c = (math.log(c) + lam * lam / (2 * s)) * s / lam           # M_s >= c iff B_s >= x_c
    dens = stats.norm(0, math.sqrt(s)).pdf

    def capped_lognormal(mu: float, sig: float) -> float:
        lc = math.log(CAP)
        return (math.exp(mu + sig * sig / 2) * stats.norm.cdf((lc - mu - sig * sig) / sig)
                + CAP * stats.norm.sf((lc - mu) / sig))

    sig = lam * math.sqrt(t - s) / t
    below = integrate.quad(lambda x: capped_lognormal(lam * x / t - lam * lam / (2 * t), sig)
                           * dens(x), -12 * math.sqrt(s), x_c, limit=200)[0]
    above = integrate.quad(lambda x: min(ms(x), CAP) * dens(x), x_c, 12 * math.sqrt(s),
                           limit=200)[0]
    return below + above


@covers("RSWR23:Lem6.1")
def test_power_forward_time_misuse() -> None:
    """Power check: stopping M at a *forward* stopping time (look at s = 1/4 first, stop if
    M_s >= e, else take M_100) gives a capped mean of 1.44 (exact), so the same harness
    rejects with probability > 0.9999 (Hoeffding lower bound)."""
    lam, s, t, c = 1.0, 0.25, 100.0, math.e
    mu = forward_misuse_capped_mean(lam, s, t, c)
    assert mu > 1.4 and mean_power(mu, N, CAP) > 0.9999
    gen = rng("lem6.1-forward")
    bs = math.sqrt(s) * gen.standard_normal(N)
    bt = bs + math.sqrt(t - s) * gen.standard_normal(N)
    m_s, m_t = m_values(lam, bs, np.float64(s)), m_values(lam, bt, np.float64(t))
    check = check_mean(np.where(m_s >= c, m_s, m_t), CAP)
    assert check.rejected, str(check)


@covers("RSWR23:Eq2", "RSWR23:Lem6.1")
def test_product_of_stopped_evalues_across_adaptive_mechanisms() -> None:
    """Three mechanisms with independent Brownian motions; mechanism s's grid starts at
    4 if the previous stopped B/tau was positive, else at 1 (chosen from earlier outputs),
    and stops at the first time its M >= 3.  E[E_3] <= 1 (capped, Hoeffding)."""
    lam, gen = 0.7, rng("eq2")
    e = np.ones(N)
    top = np.full(N, 4.0)
    base = np.geomspace(1, 0.01, 60)
    for _ in range(3):
        grids = top[:, None] * base[None, :]
        z = gen.standard_normal(grids.shape)
        var = np.diff(grids[:, ::-1], axis=1, prepend=0.0)
        b = np.cumsum(z * np.sqrt(var), axis=1)[:, ::-1]
        m = m_values(lam, b, grids)
        _, first = first_true(m >= 3)
        rows = np.arange(N)
        e *= m[rows, first]
        top = np.where(b[rows, first] / grids[rows, first] > 0, 4.0, 1.0)
    assert abs(float(product_evalue(lam=lam, b=[0.3, -0.2], tau=[2, 1]))
               - float(backward_martingale(lam=lam, b=0.3, t=2) * backward_martingale(
                   lam=lam, b=-0.2, t=1))) < 1e-12
    check = check_mean(e, CAP)
    assert not check.rejected, str(check)


@covers("RSWR23:Eq2")
def test_power_product_with_halved_compensator() -> None:
    """Power check: the product with compensator lam^2/4 sum 1/tau (half the right one),
    three mechanisms stopped at tau = 1/4: X is lognormal, exp(lam S - lam^2 V/4) with
    S ~ N(0, V), V = 12; its capped mean is computed in closed form (> 1.5)."""
    lam, v = 0.7, 12.0
    mu_log, sig = -lam * lam * v / 4, lam * math.sqrt(v)
    lc = math.log(CAP)
    capped = (math.exp(mu_log + sig * sig / 2) * stats.norm.cdf((lc - mu_log - sig * sig) / sig)
              + CAP * stats.norm.sf((lc - mu_log) / sig))
    assert capped > 1.5 and mean_power(capped, N, CAP) > 0.9999
    s = math.sqrt(v) * rng("eq2-wrong").standard_normal(N)
    check = check_mean(np.exp(lam * s - lam * lam * v / 4), CAP)
    assert check.rejected, str(check)


@covers("RSWR23:Thm5", "RSWR23:psi")
def test_composed_brownian_losses_within_the_corrected_bound() -> None:
    """Four adaptively chosen sensitivity-1 mechanisms (worst-case neighbours): round r's
    grid tops at 2 if the running z-score is positive, else at 0.5; the analyst stops a
    round at the first release where the cumulative loss crosses the corrected Theorem 5
    bound.  Frequency of any crossing <= delta = 0.1.  False failure <= 1e-6."""
    gamma, delta, gen = 1.0, 0.1, rng("thm5")
    base = np.geomspace(1, 0.02, 40)
    vs = np.geomspace(0.4, 401, 20_000)          # V ranges over [0.5, 400]
    psi_tab = np.array([float(companion_psi(t=v, gamma=gamma, delta=delta)) for v in vs])
    s_sum, v_sum = np.zeros(N), np.zeros(N)
    crossed = np.zeros(N, dtype=bool)
    top = np.full(N, 2.0)
    for _ in range(4):
        grids = top[:, None] * base[None, :]
        var = np.diff(grids[:, ::-1], axis=1, prepend=0.0)
        b = np.cumsum(gen.standard_normal(grids.shape) * np.sqrt(var), axis=1)[:, ::-1]
        v = v_sum[:, None] + 1 / grids
        loss = v / 2 + s_sum[:, None] + b / grids
        # psi is increasing: the table value at the next grid point above v is an upper
        # bound, so the test's threshold is never below the theorem's.
        thr = v / 2 + psi_tab[np.searchsorted(vs, v)]
        hit, first = first_true(loss >= thr)
        crossed |= hit
        rows = np.arange(N)
        s_sum += b[rows, first] / grids[rows, first]
        v_sum += 1 / grids[rows, first]
        top = np.where(s_sum > 0, 2.0, 0.5)
    assert abs(float(composed_expost(t=[0.5, 2], gamma=gamma, delta=delta))
               - (1.25 + float(companion_psi(t=2.5, gamma=gamma, delta=delta)))) < 1e-12
    check = check_rate(crossed, None, delta)
    assert not check.rejected, str(check)


@covers("RSWR23:Thm5")
def test_power_theorem5_as_printed() -> None:
    """Power check: the printed threshold psi(V) alone, for one mechanism at the fixed time
    t = 1/100 (a constant stopping function): the loss ~ N(50, 100) exceeds psi = 32.73
    with probability 0.958 (exact normal tail), against delta = 0.05."""
    v, delta, n = 100.0, 0.05, 2000
    psi = float(companion_psi(t=v, gamma=1, delta=delta))
    p_true = float(stats.norm.sf((psi - v / 2) / math.sqrt(v)))
    assert abs(p_true - 0.958) < 1e-3 and rejection_probability(p_true, n, delta, ALPHA) > 0.9999
    loss = v / 2 + math.sqrt(v) * rng("thm5-printed").standard_normal(n)
    check = check_rate(loss >= psi, None, delta)
    assert check.rejected, str(check)


# ---- power checks on mutants planted by the mutation tool ---------------------------------
# The guarded formula itself (float64 through ``NP``; the real one checked against the
# hand-written values) computes the harness's statistic, with one fault planted.

EVALUES = "reference.results.noise_reduction.evalues"
N_POWER = 10_000


def capped_lognormal_mean(mu: float, sig: float) -> float:
    """``E[min(e^X, CAP)]`` for ``X ~ N(mu, sig^2)``, in closed form."""
    lc = math.log(CAP)
    return (math.exp(mu + sig * sig / 2) * stats.norm.cdf((lc - mu - sig * sig) / sig)
            + CAP * stats.norm.sf((lc - mu) / sig))


@covers("RSWR23:Lem6.1")
def test_power_mutant_martingale_compensator() -> None:
    """Power check on a mutant of ``backward_martingale`` planted by the mutation tool: the
    compensator ``lam^2 / (2 t)`` turned into ``lam^2 * (2 t)``, with the main test's
    stopping rule (first grid time, scanning downwards, with M >= 10) on 1e4 paths.

    Every path whose value at the last time t = 0.01 is >= 10 is stopped at a value >= 10,
    so the capped mean is >= 10 P[B/t - 2t >= log 10] = 10 sf((log 10 + 0.02) sqrt(t)) =
    4.082 (exact normal tail), and the Hoeffding test rejects with probability
    >= 1 - 1e-140 (Hoeffding, as :func:`mean_power`: exponent computed below); false
    failure <= 1e-6."""
    b = backward_paths(GRID, N_POWER, rng("lem6.1-mutant"))
    assert np.allclose(backward_martingale.core(NP, 1.0, b[:4], GRID), m_values(1.0, b[:4], GRID))
    wrong = mutant(EVALUES, "lam**2 / (2 * t)", "lam ** 2 * (2 * t)")
    m = np.asarray(wrong.backward_martingale.core(NP, 1.0, b, GRID))
    _, first = first_true(m >= 10)
    stopped = m[np.arange(N_POWER), first]
    t = GRID[-1]
    mu_lb = 10 * float(stats.norm.sf((math.log(10) + 2 * t) * math.sqrt(t)))
    assert mu_lb == pytest.approx(4.082, abs=1e-3)
    gap = mu_lb - 1 - mean_margin(N_POWER, CAP)
    assert 2 * N_POWER * gap**2 / CAP**2 / math.log(10) > 140
    assert mean_power(mu_lb, N_POWER, CAP) == 1.0
    check = check_mean(stopped, CAP)
    assert check.rejected, str(check)


@covers("RSWR23:Eq2")
def test_power_mutant_product_compensator_sign() -> None:
    """Power check on a mutant of ``product_evalue`` planted by the mutation tool:
    ``lam s - lam^2 v / 2`` turned into ``lam s + lam^2 v / 2``; three mechanisms stopped at
    tau = 1/4 (lam = 0.7, V = 12).  The real product, exp(lam S - lam^2 V/2) with
    S ~ N(0, 12), has capped mean <= 1 and passes (false failure <= 1e-6); the mutant's is
    lognormal with capped mean 12.73 (closed form), rejected with probability 1.0
    (:func:`mean_power`, Hoeffding lower bound); false failure <= 1e-6."""
    lam, tau = 0.7, [0.25] * 3
    b = [math.sqrt(t) * g for t, g in zip(tau, rng("eq2-mutant").standard_normal((3, N)),
                                           strict=True)]
    assert not check_mean(np.asarray(product_evalue.core(NP, lam, b, tau)), CAP).rejected
    wrong = mutant(EVALUES, "lam * s - lam**2 * v / 2", "lam * s + lam ** 2 * v / 2")
    e = np.asarray(wrong.product_evalue.core(NP, lam, b, tau))
    mu = capped_lognormal_mean(lam * lam * 12 / 2, lam * math.sqrt(12))
    assert mu == pytest.approx(12.73, abs=1e-2)
    assert mean_power(mu, N, CAP) > 1 - 1e-9
    check = check_mean(e, CAP)
    assert check.rejected, str(check)


@covers("RSWR23:Thm5")
def test_power_mutant_theorem5_drift_constant() -> None:
    """One mechanism released at the fixed time t = 1/400 (V = 400, a constant stopping
    function; loss N(200, 400)) against the bound ``composed_expost`` computes at
    delta = 0.1: the real bound 200 + psi(400) is exceeded with exact probability 5.6e-4
    (false failure <= 1e-6).  Power check on a mutant planted by the mutation tool: the
    drift ``v / 2`` turned into ``v / 3``: exceeded with exact probability 0.5293 (normal
    tail), so 2000 runs reject with probability 1.0 (exact, > 1 - 1e-9); false failure
    <= 1e-6."""
    v, delta, n = 400.0, 0.1, 2000
    loss = v / 2 + math.sqrt(v) * rng("thm5-mutant").standard_normal(n)
    bound = float(composed_expost(t=[1 / v], gamma=1, delta=delta))
    assert float(stats.norm.sf((bound - v / 2) / math.sqrt(v))) == pytest.approx(5.58e-4,
                                                                                rel=1e-2)
    assert not check_rate(loss >= bound, None, delta).rejected
    site = line_in(EVALUES, "composed_expost", "return v / 2")    # follows the code
    wrong = float(mutant(EVALUES, "v / 2", "v / 3", line=site).composed_expost(
        t=[1 / v], gamma=1, delta=delta))
    assert wrong == pytest.approx(bound - v / 6, rel=1e-12)
    p_true = float(stats.norm.sf((wrong - v / 2) / math.sqrt(v)))
    assert p_true == pytest.approx(0.5293, abs=1e-4)
    assert rejection_probability(p_true, n, delta, ALPHA) > 1 - 1e-9
    assert check_rate(loss >= wrong, None, delta).rejected


@pytest.mark.slow
@covers("RSWR23:Lem6.1")
def test_backward_martingale_thorough() -> None:
    """Thorough size: 2e6 paths, lambda in {0.5, 2}, stopping at M >= 5 (false failure
    <= 1e-6 each)."""
    for lam in (0.5, 2.0):
        stopped = []
        for k in range(10):
            b = backward_paths(GRID, N, rng(f"lem6.1-thorough-{lam}-{k}"))
            m = m_values(lam, b, GRID)
            _, first = first_true(m >= 5)
            stopped.append(m[np.arange(N), first])
        assert not check_mean(np.concatenate(stopped), CAP).rejected
