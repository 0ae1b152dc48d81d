"""Property tests of the odometers (RRUV16 Lemma 6.4, Theorem 6.5): catalog values, the
exact branch choice, monotonicity within a branch, the proof of (11) replayed through
Theorem 4.5, footnote 7's comparison, the round-by-round objects, and the exact
first-passage route checked against brute-force enumeration of all paths."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from proofs_tests.profiles import share
from reference.results import covers, errata
from reference.results.composition.rruv16 import advanced_composition_heterogeneous
from reference.results.concentration.rruv16 import window_bound
from reference.results.filters.rruv16 import advanced_filter
from reference.results.odometers.objects import (
    AdvancedOdometer,
    ApproxOdometer,
    BasicOdometer,
    FixedXOdometer,
    HeuristicOdometer,
)
from reference.results.odometers.rruv16 import advanced_odometer, fixed_x_odometer, heuristic_value
from reference.sim.adversaries import NP, crossing_probability, stopped_violation, up_probability

deltas_g = st.sampled_from(["1e-6", "1e-3", "0.01", "0.05", "0.2", "0.36"])
eps_lists = st.lists(st.fractions(0, Fraction(1, 2), max_denominator=1000), max_size=6)


def _confirmed(eid: str) -> None:
    [e] = [e for e in errata() if e.id == eid]
    chk = e.verify()
    assert chk.confirmed, chk.detail


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
def test_catalog_values() -> None:
    """Reference values computed independently in double precision."""
    def close(x: object, y: float) -> bool:
        return abs(float(x) - y) <= 1e-13 * y  # type: ignore[arg-type]
    a = advanced_odometer(eps=["0.01"] * 1000, n=10**4, delta_g="1e-3")
    assert a.branch == 11 and close(a.value, 2.239161273812178)
    b = advanced_odometer(eps=["0.1"] * 200, n=10**4, delta_g="1e-3")
    assert b.branch == 12 and close(b.value, 22.48706441292712)
    c = advanced_odometer(eps=["1e-6"] * 10, n=10**4, delta_g="1e-3")
    assert c.branch == 12 and close(c.value, 0.0004668450204048619)
    assert close(fixed_x_odometer(eps=["0.01"] * 1000, x="0.1", delta_g="1e-3"),
                 2.0736316215620523)


@covers("RRUV16:Thm6.5")
@given(n=st.integers(2, 10**6))
def test_branch_ends_inclusive(n: int) -> None:
    q = Fraction(1, n)
    assert advanced_odometer(eps=[1], n=n, delta_g="0.05").branch == 11
    assert advanced_odometer(eps=[q], n=n, delta_g="0.05").branch == 11
    assert advanced_odometer(eps=[q * Fraction(999, 1000)], n=n, delta_g="0.05").branch == 12
    assert advanced_odometer(eps=[1, q], n=n, delta_g="0.05").branch == 12


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
@given(eps=eps_lists, i=st.integers(0, 5), bump=st.fractions(0, Fraction(1, 10)),
       n=st.integers(2, 10**5), dg=deltas_g)
def test_monotone_within_branch(eps: list[Fraction], i: int, bump: Fraction, n: int,
                                dg: str) -> None:
    assume(eps)
    base = advanced_odometer(eps=eps, n=n, delta_g=dg)
    more = list(eps)
    more[i % len(more)] += bump
    up = advanced_odometer(eps=more, n=n, delta_g=dg)
    if up.branch == base.branch:
        assert up.value >= base.value
    smaller_dg = advanced_odometer(eps=eps, n=n, delta_g="1e-9")
    assert smaller_dg.branch == base.branch and smaller_dg.value >= base.value
    bigger_n = advanced_odometer(eps=eps, n=2 * n, delta_g=dg)
    if bigger_n.branch == base.branch == 11:  # (12) decreases in n at small S (the 1/n^2)
        assert bigger_n.value >= base.value
    assert fixed_x_odometer(eps=more, x="0.1", delta_g=dg) >= \
        fixed_x_odometer(eps=eps, x="0.1", delta_g=dg)


@covers("RRUV16:Lem6.4", "RRUV16:Thm5.1")
@given(eps=eps_lists, eps_g=st.fractions(Fraction(1, 10), 5, max_denominator=100),
       dg=deltas_g)
def test_lemma64_above_filter_statistic(eps: list[Fraction], eps_g: Fraction,
                                        dg: str) -> None:
    """With Theorem 5.1's x, Lemma 6.4 >= K of (6), since log(2/delta_g) > log(1/delta_g)."""
    with mpmath.workdps(60):
        g = mpmath.mpf(eps_g.numerator) / eps_g.denominator
        x = g**2 / (mpmath.mpf("28.04") * mpmath.log(1 / mpmath.mpf(dg)))
    assert fixed_x_odometer(eps=eps, x=x, delta_g=dg) >= \
        advanced_filter(eps=eps, eps_g=eps_g, delta_g=dg).K * (1 - mpmath.mpf(10) ** -30)


@covers("RRUV16:Thm6.5", "RRUV16:Thm4.5")
@given(n=st.integers(2, 10**8), dg=st.floats(1e-12, 0.36), S=st.floats(1e-16, 1))
def test_proof_of_11_through_theorem_45(n: int, dg: float, S: float) -> None:
    """beta of the proof solves delta_g/2 = 2 sqrt(e)(beta + 2 log n sqrt(0.74 beta))
    (Theorem 4.5 at t = n) and sqrt(2 S log(1/beta)) is below (11)'s square-root term."""
    with mpmath.workdps(40):
        L2 = mpmath.log(n) ** 2
        beta = mpmath.mpf("0.74") * L2 * (mpmath.sqrt(
            1 + dg / (mpmath.mpf("2.96") * mpmath.sqrt(mpmath.e) * L2)) - 1) ** 2
        assume(0 < beta < 1)
        w = window_bound(beta=beta, t=n)
        assert abs(w.bound - mpmath.mpf(dg) / 2) <= mpmath.mpf(10) ** -25 * dg
        term11 = 2 * S * (mpmath.log(110 * mpmath.e) + 2 * mpmath.log(mpmath.log(n) / dg))
        assert 2 * S * mpmath.log(1 / beta) <= term11


@covers("RRUV16:Thm6.5")
@given(n=st.integers(10, 10**9), dg=st.floats(1e-12, 0.4999))
def test_footnote7_improvement(n: int, dg: float) -> None:
    """The new term of (11) squared is below the conference term squared (n >= 10,
    delta_g < 1/2), per unit sum eps_i^2."""
    new = 2 * (math.log(110 * math.e) + 2 * math.log(math.log(n) / dg))
    old = 4 * (1 + math.log(math.sqrt(3))) * math.log(4 * math.log2(n) / dg)
    assert new <= old


@covers("RRUV16:Thm6.5")
@given(eps=st.floats(1e-4, 0.1), t=st.integers(1, 100), n=st.integers(100, 10**6),
       dg=deltas_g)
def test_odometer_above_heuristic(eps: float, t: int, n: int, dg: str) -> None:
    """For constant eps with S <= 1 the valid odometer is above the invalid heuristic."""
    assume(t * eps * eps <= 1 and t * eps * eps >= 1 / n**2)
    odo = advanced_odometer(eps=[eps] * t, n=n, delta_g=dg).value
    heur = advanced_composition_heterogeneous(eps=[eps] * t, delta_hat=dg).eps
    assert odo >= heur


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4", "RRUV16:Thm3.4")
@settings(max_examples=share(Fraction(1, 3)))
@given(eps=st.lists(st.fractions(0, Fraction(1, 2), max_denominator=100), min_size=1,
                    max_size=8), n=st.integers(2, 1000), dg=deltas_g)
def test_objects_agree_with_registered(eps: list[Fraction], n: int, dg: str) -> None:
    adv, fx, basic = AdvancedOdometer(n=n, delta_g=dg), FixedXOdometer("0.1", dg), \
        BasicOdometer()
    heur = HeuristicOdometer(delta_g=dg)
    for k, e in enumerate(eps, start=1):
        a, f, b, h = adv.record(e), fx.record(e), basic.record(e), heur.record(e)
        with mpmath.workdps(60):
            ref = advanced_odometer(eps=eps[:k], n=n, delta_g=dg).value
            assert abs(a - ref) <= mpmath.mpf(10) ** -40 * (1 + ref)
            assert a in adv.certified() or abs(a - ref) < mpmath.mpf(10) ** -40
            ref_f = fixed_x_odometer(eps=eps[:k], x="0.1", delta_g=dg)
            assert abs(f - ref_f) <= mpmath.mpf(10) ** -40 * (1 + ref_f)
            tot = sum(eps[:k], Fraction(0))
            assert abs(b - mpmath.mpf(tot.numerator) / tot.denominator) < mpmath.mpf(10) ** -45
            ref_h = advanced_composition_heterogeneous(eps=eps[:k], delta_hat=dg).eps
            assert abs(h - ref_h) <= mpmath.mpf(10) ** -40 * (1 + ref_h)
    assert adv.history[-1].round == len(eps)


@covers("RRUV16:Lem3.3")
def test_approx_odometer_doubles_and_goes_infinite() -> None:
    odo = ApproxOdometer(AdvancedOdometer(n=1000, delta_g="0.05"), delta_g_prime="0.01")
    odo.record("0.01", "1e-6")
    ref = advanced_odometer(eps=["0.02"], n=1000, delta_g="0.05").value
    assert abs(odo.value - ref) < mpmath.mpf(10) ** -30
    odo.record("0.01", "0.001")  # 1e-3 (1 + e^-0.02)/(1 - e^-0.01) = 0.198 > 0.01
    assert odo.value == mpmath.inf and odo.certified().lo == mpmath.inf


@covers("RRUV16:Thm6.5")
@given(T=st.integers(1, 11), eps=st.sampled_from([0.05, 0.3, 1.0]),
       scale=st.floats(0.2, 3), b=st.integers(0, 1))
def test_first_passage_dp_matches_enumeration(T: int, eps: float, scale: float,
                                              b: int) -> None:
    """The exact route: DP over the up-count equals brute force over all 2^T paths."""
    t = np.arange(1, T + 1)
    bounds = scale * eps * np.sqrt(t) + 0.37 * eps  # off the lattice: no ties
    stop = np.array([(tt + 2) // 2 + 1 for tt in range(1, T + 1)])
    p = up_probability(eps, b)
    cross = viol = 0.0
    for path in itertools.product((0, 1), repeat=T):
        prob = math.prod(p if s else 1 - p for s in path)
        u, crossed, done = 0, False, False
        for k, s in enumerate(path):
            u += s
            w = eps * (2 * u - (k + 1))
            crossed |= abs(w) > bounds[k]
            if not done and (u >= stop[k] or k == T - 1):
                done = True
                viol += prob * (abs(w) > bounds[k])
        cross += prob * crossed
    assert abs(crossing_probability(eps, bounds, b) - cross) < 1e-12
    assert abs(stopped_violation(eps, bounds, stop, b) - viol) < 1e-12


@covers("RRUV16:Thm6.5")
def test_heuristic_crossing_matches_catalog() -> None:
    """Computed independently: the heuristic at delta_g = 0.05,
    eps = 1/n, n rounds is crossed with probability 0.103 (n = 100), 0.195 (n = 1000)."""
    for n, expect in ((100, 0.103), (1000, 0.195)):
        e = 1 / n
        t = np.arange(1, n + 1)
        bounds = heuristic_value(NP, t * e * math.expm1(e) / 2, t * e * e, 0.05)
        assert abs(crossing_probability(e, bounds) - expect) < 0.001


@covers("RRUV16:Thm6.5", "RRUV16:Lem6.4")
def test_errata_section_6() -> None:
    for eid in ("RRUV16:Thm6.5-proof12", "RRUV16:Thm6.5-granularity", "RRUV16:Eq7-proof",
                "RRUV16:Lem6.4-proof", "RRUV16:Sec6-no-utility"):
        _confirmed(eid)
