"""Statistical tests of target charging with NotPrior targets (CL23 Lemma 2.3, Lemma 2.2,
Theorem B.4 and its tails), through the round-by-round accountant.

The interaction ("pay only for change"): a sequence of ln 3-DP private tests (randomized
response, answer 1 with probability 3/4 on D^0 and 1/4 on D^1); the analyst's prior for
each test is the previous answer (initially 1), the NotPrior target is "the answer
changed", and the interaction halts at the ``tau``-th change (or after 400 tests).  Under
D^0 an unchanged 1 is both likely (no hit, probability 1 - q = 3/4) and privacy-leaking
(+ln 3): the worst case of the Theorem B.4 proof.  The privacy loss of the halted
transcript is the sum of the per-test log-likelihood ratios of the observed answers.

Checked: the loss exceeds the accountant's eps' with frequency at most its delta'.
``P[L > eps'] >= delta(eps')`` (the exact hockey-stick), so this is the stronger, sufficient
form of the (eps', delta')-DP guarantee; the exact law of the loss (dynamic programming
over (hits, last answer, net count)) confirms it holds here, as a second route.  Each
test rejects a true bound with probability at most ``ALPHA = 1e-6`` (one-sided
Clopper–Pearson); each power check computes, exactly, its probability of rejecting the
wrong variant and asserts it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from mpmath import mp

from reference.results import covers
from reference.results.tct.accountant import TCTAccountant
from reference.results.tct.charging import tct_simple, tct_simple_advanced, tct_tail
from reference.sim.stats import ALPHA, check_rate, rejection_probability, rng
from stats_tests.mutants import mutant

EPS = math.log(3)
P1_D0 = 0.75                     # P[answer 1] on D^0; 0.25 on D^1
MAX_TESTS = 400
N_RUNS = 20_000
with mp.workdps(60):
    EPS_UP = Fraction(str(mp.nstr(mp.log(3) + mp.mpf(10) ** -40, 55)))  # >= ln 3
Q_NP = Fraction(1, 4)            # 1/(e^eps + 1) at eps = ln 3 (Lemma 2.3)


def simulate(tau: int, n: int, label: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` runs on D^0: (loss, number of tests, number of hits) of each halted transcript."""
    g = rng(label)
    last = np.ones(n, dtype=bool)
    hits = np.zeros(n, dtype=np.int64)
    loss = np.zeros(n)
    tests = np.zeros(n, dtype=np.int64)
    log_ratio = {True: math.log(0.75 / 0.25), False: math.log(0.25 / 0.75)}
    for _ in range(MAX_TESTS):
        live = hits < tau
        if not live.any():
            break
        ans = g.random(n) < P1_D0
        loss += np.where(live, np.where(ans, log_ratio[True], log_ratio[False]), 0.0)
        hits += (live & (ans != last)).astype(np.int64)
        tests += live
        last = np.where(live, ans, last)
    return loss, tests, hits


def net_law(tau: int) -> dict[int, float]:
    """Exact law on D^0 of the net count (#1 - #0) of the halted transcript (loss = ln 3 x net)."""
    cur: dict[tuple[int, bool, int], float] = {(0, True, 0): 1.0}
    done: dict[int, float] = defaultdict(float)
    for _ in range(MAX_TESTS):
        nxt: dict[tuple[int, bool, int], float] = defaultdict(float)
        for (h, last, net), p in cur.items():
            for ans, pa in ((True, P1_D0), (False, 1 - P1_D0)):
                state = (h + (ans != last), ans, net + (1 if ans else -1))
                if state[0] >= tau:
                    done[state[2]] += p * pa
                else:
                    nxt[state] += p * pa
        cur = nxt
    for (_, _, net), p in cur.items():
        done[net] += p
    return dict(done)


def exceed(law: dict[int, float], eps_prime: float) -> float:
    """``P[ln 3 x net > eps']`` from the exact law."""
    return sum(p for net, p in law.items() if net * EPS > eps_prime + 1e-9)


def exact_delta(law: dict[int, float], eps_prime: float) -> float:
    """The exact hockey-stick ``E_0[(1 - e^{eps' - L})_+]`` (the DP definition itself)."""
    return sum(p * -math.expm1(eps_prime - net * EPS) for net, p in law.items()
               if net * EPS > eps_prime)


def accountant(tau: int, q: Fraction = Q_NP) -> TCTAccountant:
    return TCTAccountant(tau=tau, eps=EPS_UP, q=q)


def test_accountant_follows_the_simulated_runs() -> None:
    """The accountant, fed the rounds of simulated runs, counts the same hits and halts."""
    g = rng("tct-accountant-replay")
    for _ in range(50):
        acc, last, hits = accountant(3), True, 0
        while not acc.halted and acc.rounds < MAX_TESTS:
            ans = bool(g.random() < P1_D0)
            acc.record(eps=EPS_UP, q=Q_NP, hit=ans != last)
            hits += ans != last
            last = ans
        assert acc.hits == hits and (acc.halted or acc.rounds == MAX_TESTS)


CASES = [(3, Fraction(1)), (4, Fraction(1, 2))]


@covers("CL23:Lem2.3", "CL23:ThmB.4", "CL23:ThmB.4-exact", "CL23:ThmB.4-tail",
        "CL23:ThmB.4-advanced")
@pytest.mark.parametrize(("tau", "alpha"), CASES)
def test_notprior_tests_within_the_accountants_bound(tau: int, alpha: Fraction) -> None:
    """freq(L > eps') <= delta' for the basic bound with the exact, raw and simplified tails
    and for the advanced bound.  False-failure probability <= 1e-6 per check."""
    loss, _, _ = simulate(tau, N_RUNS, f"tct-notprior-{tau}")
    law = net_law(tau)
    acc = accountant(tau)
    for g in (acc.guarantee(alpha, tail="exact"), acc.guarantee(alpha, tail="raw"),
              acc.guarantee(alpha), acc.guarantee(alpha, tail="exact", delta_star="0.001")):
        eps_p, delta_p = float(g.eps), float(g.delta)
        assert exact_delta(law, eps_p) <= exceed(law, eps_p) <= delta_p   # second route
        check = check_rate(loss > eps_p + 1e-9, None, delta_p)
        assert not check.rejected, check


@covers("CL23:Lem2.2", "CL23:Lem2.2-advanced")
def test_lemma_2_2_simplified_form() -> None:
    """Lemma 2.2's unrounded ((1+alpha) tau eps/q, e^{-alpha^2 tau/(2(1+alpha))}) and its
    advanced-composition alternative.  False-failure probability <= 1e-6 per check."""
    tau, alpha = 4, 1
    loss, _, _ = simulate(tau, N_RUNS, "tct-lemma-2.2")
    law = net_law(tau)
    for b in (tct_simple(eps=EPS_UP, q=Q_NP, tau=tau, alpha=alpha),
              tct_simple_advanced(eps=EPS_UP, q=Q_NP, tau=tau, alpha=alpha, delta_star="0.01")):
        assert exceed(law, float(b.eps)) <= float(b.delta)
        assert not check_rate(loss > float(b.eps) + 1e-9, None, float(b.delta)).rejected


@covers("CL23:Lem2.3", "CL23:ThmB.4-exact")
def test_power_notprior_q_above_its_value() -> None:
    """POWER CHECK: an accountant told q = 1/2 (the small-eps value; above 1/(e^eps+1) =
    1/4 at eps = ln 3) reports eps' = 12 ln 3 with the exact tail 0.0193 at tau = 3; the
    true frequency of L > eps' is 0.075 (exact law), so the harness must reject."""
    tau, alpha = 3, 1
    wrong = accountant(tau, q=Fraction(1, 2)).guarantee(alpha, tail="exact")
    p_true = exceed(net_law(tau), float(wrong.eps))
    assert wrong.m == 12 and p_true > 3 * float(wrong.delta)
    power = rejection_probability(p_true, N_RUNS, float(wrong.delta), ALPHA)
    assert power > 0.9999, power
    loss, _, _ = simulate(tau, N_RUNS, "tct-power-q")
    assert check_rate(loss > float(wrong.eps) + 1e-9, None, float(wrong.delta)).rejected


@covers("CL23:ThmB.4", "CL23:ThmB.4-tail")
def test_power_accountant_ignoring_the_failure_tail() -> None:
    """POWER CHECK: reporting eps' = eps m with delta' = 0 (dropping the tail
    P[Bin(m, q) <= tau - 1]) is false: P[L > eps'] = 0.0039 exactly (tau = 3, alpha = 1,
    m = 24), so 20000 runs show an exceedance with the probability computed below."""
    tau, alpha = 3, 1
    g = accountant(tau).guarantee(alpha)
    p_true = exceed(net_law(tau), float(g.eps))
    tail = tct_tail(q=Q_NP, tau=tau, alpha=alpha)
    assert g.m == 24 and 0.003 < p_true <= float(tail.exact)
    power = rejection_probability(p_true, N_RUNS, 0.0, ALPHA)
    assert power > 0.9999, power
    loss, _, _ = simulate(tau, N_RUNS, "tct-power-tail")
    assert check_rate(loss > float(g.eps) + 1e-9, None, 0.0).rejected


@covers("CL23:ThmB.4", "CL23:ThmB.4-exact")
def test_power_mutant_accountant_dividing_by_m() -> None:
    """POWER CHECK on a mutant of the accountant planted by the mutation tool: basic
    composition's ``e * m`` turned into ``e / m`` in ``TCTAccountant._compose`` (at tau = 3,
    alpha = 1, exact tail: eps' = ln 3 / 24 = 0.0458, delta' = 0.0398), on the main test's
    sample (tau = 3, 2e4 runs).  The exact law gives P[L > eps'] = 0.8088, so the harness
    rejects with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    wrong = mutant("reference.results.tct.accountant", "e * m", "e / m")
    g = wrong.TCTAccountant(tau=3, eps=EPS_UP, q=Q_NP).guarantee(1, tail="exact")
    assert g.m == 24 and float(g.eps) == pytest.approx(EPS / 24, rel=1e-12)
    p_true = exceed(net_law(3), float(g.eps))
    assert p_true == pytest.approx(0.8088, abs=1e-4)
    assert rejection_probability(p_true, N_RUNS, float(g.delta), ALPHA) > 1 - 1e-9
    loss, _, _ = simulate(3, N_RUNS, "tct-notprior-3")
    assert check_rate(loss > float(g.eps) + 1e-9, None, float(g.delta)).rejected


@covers("CL23:Lem2.2")
def test_power_mutant_simple_form_multiplying_by_q() -> None:
    """POWER CHECK on a mutant of ``tct_simple`` planted by the mutation tool:
    ``(1 + alpha) tau eps / q`` turned into ``(1 + alpha) tau eps * q`` (eps' = 2 ln 3 =
    2.197 instead of 32 ln 3 at tau = 4, alpha = 1; delta' = e^-1), on the Lemma 2.2 test's
    sample (2e4 runs).  The exact law gives P[L > eps'] = 0.6705 > e^-1 = 0.3679, so the
    harness rejects with probability 1.0 (exact, > 1 - 1e-9); false failure <= 1e-6."""
    wrong = mutant("reference.results.tct.charging", "(1 + alpha) * tau * eps / q",
                   "(1 + alpha) * tau * eps * q")
    b = wrong.tct_simple(eps=EPS_UP, q=Q_NP, tau=4, alpha=1)
    assert float(b.eps) == pytest.approx(2 * EPS, rel=1e-12)
    assert float(b.delta) == pytest.approx(math.exp(-1), rel=1e-12)
    p_true = exceed(net_law(4), float(b.eps))
    assert p_true == pytest.approx(0.6705, abs=1e-4)
    assert rejection_probability(p_true, N_RUNS, float(b.delta), ALPHA) > 1 - 1e-9
    loss, _, _ = simulate(4, N_RUNS, "tct-lemma-2.2")
    assert check_rate(loss > float(b.eps) + 1e-9, None, float(b.delta)).rejected


@pytest.mark.slow
@covers("CL23:ThmB.4-exact")
def test_notprior_tests_thorough() -> None:
    """Thorough size: 10^6 runs at tau = 5 (false-failure probability <= 1e-6)."""
    tau = 5
    g = accountant(tau).guarantee(1, tail="exact")
    loss, _, _ = simulate(tau, 1_000_000, "tct-notprior-thorough")
    assert not check_rate(loss > float(g.eps) + 1e-9, None, float(g.delta)).rejected
