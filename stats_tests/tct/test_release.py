"""Statistical tests of conditional release inside TCT: SVT with individual privacy charging
(CL23 Lemma 2.4, Theorem 2.10), run through :class:`reference.sim.tct_selection.IndividualSVT`.

Neighbours: ``D^0`` and ``D^1 = D^0 + {x}``.  Every query counts the items equal to ``x``
(0 on D^0, 1 on D^1) plus ``Lap(1/eps)`` noise, ``eps = ln 3``, threshold 1: an eps-DP
ConditionalRelease whose released values are free and whose ⊥ leaks ``ln(5/3)`` per query
on D^0.  Item ``x``'s charge counter is computed from the public outputs; once it reaches
``tau`` the item is removed and the outputs on both datasets have the same law, so the
transcript's privacy loss stops growing.  The loss of each query is computed from the
output and the two Laplace laws.

Checked: freq(loss > eps') <= delta' for Theorem 2.10's bounds (the sufficient, stronger
form of (eps', delta')-DP; the exact law of the loss — a negative binomial count of ⊥ —
confirms it as a second route).  False-failure probability <= ``ALPHA = 1e-6`` per check;
the power check's rejection probability is computed exactly and asserted.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from mpmath import mp
from scipy import stats

from reference.results import covers
from reference.results.tct.accountant import TCTAccountant
from reference.results.tct.release import conditional_release
from reference.results.tct.selection import svt_individual, svt_individual_basic
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from reference.sim.tct_selection import IndividualSVT
from stats_tests.mutants import mutant

SELECTION = "reference.results.tct.selection"

EPS = math.log(3)
THRESHOLD = 1.0
R0 = 0.5 * math.exp(-EPS)                  # P[release] on D^0 (count 0): 1/6
BOTTOM_LOSS = math.log((1 - R0) / 0.5)     # ⊥ on D^0 vs D^1 (count 1): ln(5/3)
MAX_QUERIES = 400
N_RUNS = 20_000
with mp.workdps(60):
    EPS_UP = Fraction(str(mp.nstr(mp.log(3) + mp.mpf(10) ** -40, 55)))


def laplace_log_ratio(y: float) -> float:
    """``log f_0(y)/f_1(y)`` for ``Lap(1/eps)`` centred at 0 and 1."""
    return EPS * (abs(y - 1.0) - abs(y))


def run_once(tau: int, g: np.random.Generator) -> float:
    """One interaction on D^0 through Algorithm 5; the loss of the transcript."""
    svt = IndividualSVT(["a", "b", "c"], eps=EPS, tau=tau)
    charges, loss = 0, 0.0
    for _ in range(MAX_QUERIES):
        if charges >= tau:          # x removed: the remaining outputs carry no loss
            break
        out = svt.query(lambda item: item == "x", THRESHOLD, g)
        if out is None:
            loss += BOTTOM_LOSS
        else:
            loss += laplace_log_ratio(out)
            charges += 1            # x would have contributed: charged, from public output
    return loss


@lru_cache(maxsize=4)
def simulate(tau: int, n: int, label: str) -> np.ndarray:
    """Losses of ``n`` interactions (cached: the power checks reuse the main samples)."""
    g = rng(label)
    return np.array([run_once(tau, g) for _ in range(n)])


def exceed(tau: int, eps_prime: float) -> float:
    """Exact ``P[loss > eps']``: loss = K ln(5/3) - tau ln 3, K ~ NB(tau, 1/6) ⊥'s."""
    k = math.floor((eps_prime + tau * EPS) / BOTTOM_LOSS + 1e-12)
    return float(stats.nbinom.sf(k, tau, R0))


@covers("CL23:Thm2.10", "CL23:Thm2.10-basic", "CL23:Lem2.4")
@pytest.mark.parametrize("tau", [2, 5])
def test_individual_svt_within_theorem_2_10(tau: int) -> None:
    """freq(loss > eps') <= delta' for the basic and advanced forms and the accountant's
    exact tail.  False-failure probability <= 1e-6 per check."""
    spec = conditional_release(eps=EPS_UP)
    assert abs(float(spec.q) - 0.25) < 1e-12           # NotPrior q at ln 3
    acc = TCTAccountant(tau=tau, eps=EPS_UP, q=Fraction(1, 4))
    g = acc.guarantee(1, tail="exact")
    bounds = [(b.eps, b.delta) for b in (svt_individual_basic(eps=EPS_UP, tau=tau, alpha=1),
                                         svt_individual(eps=EPS_UP, tau=tau, alpha=1,
                                                        delta_star="1e-3"))]
    losses = simulate(tau, N_RUNS // 4 if tau == 5 else N_RUNS, f"tct-svt-{tau}")
    for e, d in [*bounds, (g.eps, g.delta)]:
        eps_p, delta_p = float(e), float(d)
        assert exceed(tau, eps_p) <= delta_p
        check = check_rate(losses > eps_p + 1e-9, None, delta_p)
        assert not check.rejected, check


@covers("CL23:Lem2.4", "CL23:Thm2.10-basic")
def test_power_charging_only_the_releases() -> None:
    """POWER CHECK: charging each release as one eps-DP call (q = 1, i.e. ignoring what ⊥
    reveals) gives (eps floor(1.1 tau), 0) at tau = 5, alpha = 0.1; the exact law puts
    P[loss > eps'] = 0.61, so any exceedance refutes the delta' = 0 the variant claims."""
    tau = 5
    wrong = TCTAccountant(tau=tau, eps=EPS_UP, q=1).guarantee("0.1", tail="exact")
    assert wrong.m == 5 and float(wrong.delta) == 0.0
    p_true = exceed(tau, float(wrong.eps))
    assert p_true > 0.5
    n = 2_000
    assert rejection_probability(p_true, n, 0.0, ALPHA) > 0.9999
    losses = simulate(tau, n, "tct-svt-power")
    assert check_rate(losses > float(wrong.eps) + 1e-9, None, 0.0).rejected


@covers("CL23:Thm2.10-basic")
def test_power_mutant_basic_form_dividing_by_m() -> None:
    """POWER CHECK on a mutant of ``svt_individual_basic`` planted by the mutation tool:
    ``eps * m`` turned into ``eps / m`` (eps' = ln 3 / 16 = 0.0687, delta' = e^-1/2 =
    0.6065 at tau = 2, alpha = 1), on the main test's sample (tau = 2, 2e4 runs).  The
    exact law (negative binomial count of ⊥) gives P[loss > eps'] = 0.7368, so the
    harness rejects with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    b = mutant(SELECTION, "to_ctx(ctx, eps) * m", "to_ctx(ctx, eps) / m").svt_individual_basic(
        eps=EPS_UP, tau=2, alpha=1)
    assert b.m == 16 and float(b.eps) == pytest.approx(EPS / 16, rel=1e-12)
    p_true = exceed(2, float(b.eps))
    assert p_true == pytest.approx(0.7368, abs=1e-4)
    assert rejection_probability(p_true, N_RUNS, float(b.delta), ALPHA) > 1 - 1e-9
    losses = simulate(2, N_RUNS, "tct-svt-2")
    assert check_rate(losses > float(b.eps) + 1e-9, None, float(b.delta)).rejected


@covers("CL23:Thm2.10")
def test_power_mutant_advanced_form_subtracting_the_tail() -> None:
    """POWER CHECK on a mutant of ``svt_individual`` planted by the mutation tool: the
    failure term ``delta* + e^{-alpha^2 tau/(2(1+alpha))}`` turned into ``delta* - ...``
    (delta' = 1e-3 - 0.6065 < 0 at tau = 2, alpha = 1), on the main test's sample.  A
    negative delta' is refuted by any count: rejected with probability 1 (computed
    below); false failure <= 1e-6.  (Its eps' = 51.49 is unchanged; the real form passes.)"""
    b = mutant(SELECTION, "ds + simplified_tail(ctx, tau, to_ctx(ctx, alpha))",
               "ds - simplified_tail(ctx, tau, to_ctx(ctx, alpha))").svt_individual(
        eps=EPS_UP, tau=2, alpha=1, delta_star="1e-3")
    assert float(b.delta) == pytest.approx(1e-3 - math.exp(-0.5), rel=1e-12)
    assert rejection_probability(0.0, N_RUNS, float(b.delta), ALPHA) == 1.0
    losses = simulate(2, N_RUNS, "tct-svt-2")
    assert check_rate(losses > float(b.eps) + 1e-9, None, float(b.delta)).rejected


@pytest.mark.slow
@covers("CL23:Thm2.10")
def test_individual_svt_thorough() -> None:
    """Thorough size: 4 x 10^5 runs at tau = 3 (false-failure probability <= 1e-6)."""
    b = TCTAccountant(tau=3, eps=EPS_UP, q=Fraction(1, 4)).guarantee(1, tail="exact")
    losses = simulate(3, 400_000, "tct-svt-thorough")
    assert not check_rate(losses > float(b.eps) + 1e-9, None, float(b.delta)).rejected
