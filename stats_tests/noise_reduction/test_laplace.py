"""Statistical tests of the Laplace noise-reduction processes and of LNR's ex-post privacy
under adaptive stopping; Skellam noise reduction is in ``test_skellam.py``, basic ex-post
composition in ``test_ex_post.py``.

Laws are tested with the Kolmogorov–Smirnov distance and the DKW–Massart bound
(:func:`reference.sim.stats.check_law`, valid at every ``n``), cross-checked with
``scipy.stats.kstest``; rates with one-sided Clopper–Pearson
(:func:`reference.sim.stats.check_rate`).  Each test's false-failure probability is at most
1e-6 (Bonferroni over its checks).  Every power check runs the same harness on a wrong
variant — stay probability ``s/t`` instead of ``(s/t)^2``, a halved Lévy mass, a halved
bound — whose law or rate is known exactly, and states the resulting power.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from reference.results import covers
from reference.results.noise_reduction.laplace import (
    flat_probability,
    jump_law,
    lnr_expost,
    lnr_loss,
    stay_probability,
)
from reference.sim.ex_post import check_expost
from reference.sim.laplace_paths import laplace_chain, levy_process, poisson_process
from reference.sim.stats import (
    ALPHA,
    check_law,
    check_rate,
    law_power,
    rejection_probability,
    rng,
)
from stats_tests.mutants import mutant

N = 100_000


def lap(t: float) -> stats.rv_continuous:
    return stats.laplace(0, t)


def two_sided_rate(events: np.ndarray, p: float, alpha: float) -> bool:
    """True when the data refute ``P[event] = p`` (both one-sided CP tests at ``alpha/2``)."""
    return (check_rate(events, None, p, alpha / 2).rejected
            or check_rate(~events, None, 1 - p, alpha / 2).rejected)


@covers("WRWR22:Eq4")
def test_chain_marginals_are_laplace() -> None:
    """zeta_n ~ Lap(t_n) at five scales (DKW, alpha/5 each; false failure <= 1e-6); the KS
    distance agrees with scipy's kstest statistic."""
    times = [0.5, 1.0, 2.0, 3.5, 6.0]
    z = laplace_chain(times, N, rng("eq4-marginal"))
    for k, t in enumerate(times):
        check = check_law(z[:, k], lap(t).cdf, ALPHA / len(times))
        assert not check.rejected, (t, str(check))
        assert abs(check.distance - stats.kstest(z[:, k], lap(t).cdf).statistic) < 1e-12


@pytest.mark.slow
@covers("WRWR22:Eq4", "WRWR22:Eq5", "RSWR23:AppA-flat")
def test_three_constructions_thorough() -> None:
    """Thorough size (10^6 paths): the chain, the Poisson process and the Lévy construction
    on the scales (0.7, 2.5) pass :func:`markov_checks`; false failure <= 1e-6 overall."""
    n = 1_000_000
    chain = laplace_chain([0.7, 2.5], n, rng("eq4-thorough"))
    proc = poisson_process(0.2, 2.5, n, rng("eq5-thorough"))
    levy = levy_process(0.7, 2.5, n, rng("levy-thorough"))
    for a, b in ((chain[:, 0], chain[:, 1]), (proc.read(0.7), proc.read(2.5)),
                 (levy.read(0.7), levy.read(2.5))):
        assert not markov_checks(a, b, 0.7, 2.5, ALPHA / 3)


@covers("WRWR22:Eq4")
def test_power_chain_with_wrong_stay_probability() -> None:
    """Power check: staying w.p. s/t (not (s/t)^2) on scales (1, 2) gives zeta_2 with law
    1/3 Lap(1) + 2/3 Lap(2) (partial fractions of the characteristic function), at
    sup-distance 1/24 from Lap(2): the DKW test rejects w.p. > 0.9999."""
    z = laplace_chain([1.0, 2.0], N, rng("eq4-wrong"), intensity=1.0)[:, 1]
    xs = np.linspace(-30, 30, 60_001)
    wrong = lap(1).cdf(xs) / 3 + 2 * lap(2).cdf(xs) / 3
    distance = float(np.max(np.abs(wrong - lap(2).cdf(xs))))
    assert abs(distance - 1 / 24) < 1e-6 and law_power(N, distance) > 0.9999
    assert check_law(z, lap(2).cdf).rejected


def markov_checks(before: np.ndarray, after: np.ndarray, s: float, t: float,
                  alpha: float, p: float | None = None) -> list[str]:
    """Failures among: stay frequency = (s/t)^2 (two-sided CP; ``p`` replaces the value
    ``stay_probability`` gives), the increment given a move ~ Lap(t), and the earlier
    value ~ Lap(s) both given a stay and given a move (the increment is independent of
    it).  Each check at ``alpha/4``."""
    stay = after == before
    p = float(stay_probability(t_prev=s, t=t)) if p is None else p
    out = []
    if two_sided_rate(stay, p, alpha / 4):
        out.append(f"stay frequency {stay.mean():.4f} vs {p:.4f}")
    for name, sample, law in (("increment", (after - before)[~stay], lap(t)),
                              ("value given stay", before[stay], lap(s)),
                              ("value given move", before[~stay], lap(s))):
        check = check_law(sample, law.cdf, alpha / 4)
        if check.rejected:
            out.append(f"{name}: {check}")
    return out


@covers("WRWR22:Eq4")
def test_chain_is_markov_with_the_stated_stay_probability() -> None:
    """Consecutive steps of eq. (4) (false failure <= 1e-6 over 3 steps x 4 checks)."""
    times = [0.5, 1.0, 2.0, 3.5]
    z = laplace_chain(times, N, rng("eq4-markov"))
    for k in range(1, len(times)):
        assert not markov_checks(z[:, k - 1], z[:, k], times[k - 1], times[k], ALPHA / 3)


@covers("WRWR22:Eq5")
def test_poisson_process_marginals_and_increments() -> None:
    """Eq. (5) with eta = 0.2 on [0.2, 10]: Z_t ~ Lap(t) at five times including eta, and
    the (0.7, 2.5] step passes :func:`markov_checks` (stay w.p. 0.0784); 2 coordinates are
    independent processes (coordinate 2's values equal coordinate 1's on no path).
    False failure <= 1e-6."""
    proc = poisson_process(0.2, 10.0, N, rng("eq5"), d=2)
    for t in (0.2, 0.5, 1.0, 3.0, 10.0):
        check = check_law(proc.read(t)[:, 0], lap(t).cdf, ALPHA / 10)
        assert not check.rejected, (t, str(check))
    a, b = proc.read(0.7), proc.read(2.5)
    assert not markov_checks(a[:, 1], b[:, 1], 0.7, 2.5, ALPHA / 2)
    assert abs(float(jump_law(eta="0.2", s="0.7", t="2.5").no_jump) - 0.0784) < 1e-15
    assert not np.any(a[:, 0] == a[:, 1])


@covers("WRWR22:Eq5")
def test_power_poisson_process_with_intensity_one_over_t() -> None:
    """Power check: intensity 1/t stays on (0.7, 2.5] w.p. 0.28 instead of 0.0784; the stay
    test (CP at alpha/8) rejects with probability 1 - 1e-12 or more (exact binomial)."""
    proc = poisson_process(0.2, 10.0, N, rng("eq5-wrong"), intensity=1.0)
    a, b = proc.read(0.7), proc.read(2.5)
    assert rejection_probability(0.28, N, 0.0784, ALPHA / 8) > 1 - 1e-12
    assert any("stay frequency" in f for f in markov_checks(a, b, 0.7, 2.5, ALPHA))


@covers("RSWR23:AppA-flat")
def test_levy_construction_flat_intervals_and_laws() -> None:
    """RSWR23 App. A's compound-Poisson construction on [0.7, 2]: flat w.p. (0.7/2)^2 =
    0.1225, nonzero increments ~ Lap(2), X(0.7) independent of the increment, X(2) ~ Lap(2).
    False failure <= 1e-6."""
    proc = levy_process(0.7, 2.0, N, rng("levy"))
    a, b = proc.read(0.7), proc.read(2.0)
    assert abs(float(flat_probability(t1="0.7", t2=2)) - 0.1225) < 1e-15
    assert not markov_checks(a, b, 0.7, 2.0, ALPHA / 2)
    assert not check_law(b, lap(2).cdf, ALPHA / 2).rejected


@covers("RSWR23:AppA-flat")
def test_power_levy_construction_with_halved_mass() -> None:
    """Power check: atoms ~ Poisson(log(t2/t1)) (half the Lévy mass) leave the path flat
    w.p. 0.7/2 = 0.35, not 0.1225: rejected w.p. > 1 - 1e-12 (exact binomial)."""
    proc = levy_process(0.7, 2.0, N, rng("levy-wrong"), intensity=1.0)
    assert rejection_probability(0.35, N, 0.1225, ALPHA / 8) > 1 - 1e-12
    assert any("stay" in f for f in markov_checks(proc.read(0.7), proc.read(2.0), 0.7, 2.0,
                                                  ALPHA))


# ---- power checks on mutants planted by the mutation tool ---------------------------------
# The stay probability the Markov checks compare with comes from a mutant of the guarded
# formula (``stay_probability``, ``jump_law``, ``flat_probability``), on the main tests'
# samples; each mutant gives (s/t)^3 instead of (s/t)^2, and the "too many stays" side
# (CP at the check's alpha/8) rejects it with the exact binomial probability asserted.

LAPLACE = "reference.results.noise_reduction.laplace"


@covers("WRWR22:Eq4")
def test_power_mutant_stay_probability_cubed() -> None:
    """Mutant of ``stay_probability``: ``(t_prev / t) ** 2`` turned into ``** 3``, the chain
    step (1, 2] of the Markov test's sample (n = 1e5, that step's checks at alpha/3): true
    stay rate 1/4 against the mutant's 1/8, rejected with probability > 1 - 1e-12 (exact);
    false failure <= 1e-6."""
    z = laplace_chain([0.5, 1.0, 2.0, 3.5], N, rng("eq4-markov"))
    p = float(mutant(LAPLACE, "(t_prev / t) ** 2", "(t_prev / t) ** 3")
              .stay_probability(t_prev=1, t=2))
    assert p == 0.125
    assert rejection_probability(0.25, N, p, ALPHA / 24) > 1 - 1e-12
    failures = markov_checks(z[:, 1], z[:, 2], 1.0, 2.0, ALPHA / 3, p)
    assert any("stay frequency" in f for f in failures), failures


@covers("WRWR22:Eq5")
def test_power_mutant_jump_mass_constant() -> None:
    """Mutant of ``jump_law``: the mean number of jumps ``2 (log t - log s)`` turned into
    ``3 (...)``, so no jump on (0.7, 2.5] w.p. (0.7/2.5)^3 = 0.02195; on the Poisson test's
    sample (n = 1e5, checks at alpha/2) the true stay rate 0.0784 is rejected with
    probability > 1 - 1e-12 (exact binomial); false failure <= 1e-6."""
    proc = poisson_process(0.2, 10.0, N, rng("eq5"), d=2)
    a, b = proc.read(0.7), proc.read(2.5)
    p = float(mutant(LAPLACE, "2 * (log(ctx, t) - log(ctx, s))",
                     "3 * (log(ctx, t) - log(ctx, s))").jump_law(eta="0.2", s="0.7",
                                                                 t="2.5").no_jump)
    assert p == pytest.approx(0.28**3, rel=1e-12)
    assert rejection_probability(0.0784, N, p, ALPHA / 16) > 1 - 1e-12
    failures = markov_checks(a[:, 1], b[:, 1], 0.7, 2.5, ALPHA / 2, p)
    assert any("stay frequency" in f for f in failures), failures


@covers("RSWR23:AppA-flat")
def test_power_mutant_flat_probability_exponent() -> None:
    """Mutant of ``flat_probability``: ``exp(-2 log(t2/t1))`` turned into ``exp(-3 ...)``,
    flat on [0.7, 2] w.p. 0.042875 instead of 0.1225; on the Lévy test's sample (n = 1e5,
    checks at alpha/2) rejected with probability > 1 - 1e-12 (exact binomial); false
    failure <= 1e-6."""
    proc = levy_process(0.7, 2.0, N, rng("levy"))
    p = float(mutant(LAPLACE, "-2", "-3").flat_probability(t1="0.7", t2=2))
    assert p == pytest.approx(0.35**3, rel=1e-12)
    assert rejection_probability(0.1225, N, p, ALPHA / 16) > 1 - 1e-12
    failures = markov_checks(proc.read(0.7), proc.read(2.0), 0.7, 2.0, ALPHA / 2, p)
    assert any("stay frequency" in f for f in failures), failures


def run_lnr(n: int, gen: np.random.Generator, fx: np.ndarray, fxp: np.ndarray,
            rounds: int = 15) -> tuple[np.ndarray, np.ndarray]:
    """Adaptive LNR on ``n`` paths (d = 3, Delta_1 = 1, eps_max = 4): E_1 = 0.2, then x1.5
    when successive releases differ by more than 1 in l1, else x1.2 (capped); T_n = 1/E_n.
    The analyst stops at the first release whose first coordinate is >= 1.4.  Returns the
    realised loss at the stop and T_N."""
    eta, e = 0.25, np.full(n, 0.2)
    proc = poisson_process(eta, 1 / 0.2, n, gen, d=3)
    stopped = np.zeros(n, dtype=bool)
    t_stop, y_stop = np.full(n, 1 / 0.2), fx + proc.read(1 / 0.2)
    prev = y_stop.copy()
    for _ in range(rounds):
        t = np.maximum(1 / e, eta)
        y = fx + proc.read(t)
        live = ~stopped
        t_stop[live], y_stop[live] = t[live], y[live]
        stopped |= y[:, 0] >= 1.4
        e = np.minimum(e * np.where(np.abs(y - prev).sum(axis=1) > 1, 1.5, 1.2), 4.0)
        prev = y
    loss = (np.abs(y_stop - fxp).sum(axis=1) - np.abs(y_stop - fx).sum(axis=1)) / t_stop
    return loss, t_stop


@covers("WRWR22:Prop4.2", "RSWR23:LemA.1")
def test_lnr_expost_bound_never_exceeded_under_adaptive_stopping() -> None:
    """Data-dependent privacy functions and a data-dependent stopping rule: the realised
    loss never exceeds Delta_1/T_N (delta = 0: a single exceedance fails the test)."""
    fx, fxp = np.array([1.0, 0.0, -0.5]), np.array([0.4, 0.3, -0.5])   # ||u||_1 = 0.9
    loss, t_stop = run_lnr(50_000, rng("prop4.2"), fx, fxp)
    bound = np.array([float(lnr_expost(t=t).eps) for t in t_stop[:3]])
    assert np.allclose(bound, 1 / t_stop[:3], rtol=1e-15)
    y0 = fx + np.array([0.2, -0.1, 0.3])
    assert abs(float(lnr_loss(fx=fx.tolist(), fxp=fxp.tolist(), x=[0.2, -0.1, 0.3], t=2))
               - (np.abs(y0 - fxp).sum() - np.abs(y0 - fx).sum()) / 2) < 1e-12
    check = check_expost(loss, 1 / t_stop, 0.0)
    assert not check.rejected, str(check)
    assert loss.max() * t_stop[loss.argmax()] > 0.85      # the bound is nearly attained


@covers("WRWR22:Prop4.2")
def test_power_halved_lnr_bound() -> None:
    """Power check: the bound Delta_1/(2 T_N) is exceeded whenever the stopped release lies
    beyond both statistics in the first coordinate (loss >= 0.6/T > 0.5/T), which the
    stopping rule favours: any exceedance rejects a pure bound.  A pilot (other seed, 50 000
    paths) exceeded on 52.6% of paths, so 5 000 paths all stay below w.p. < 1e-300."""
    fx, fxp = np.array([1.0, 0.0, -0.5]), np.array([0.4, 0.3, -0.5])
    loss, t_stop = run_lnr(5_000, rng("prop4.2-wrong"), fx, fxp)
    assert check_expost(loss, 0.5 / t_stop, 0.0).rejected
