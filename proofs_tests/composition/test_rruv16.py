"""Property tests of basic and advanced composition (RRUV16 §2); the lecture notes'
form (LEC11) is in ``test_lec11.py``, exact optimal composition (KOV) in ``test_kov15.py``.

Independent routes: brute-force enumeration of the k-fold product of randomized response
(RRUV16 Def 2.6; 4^k outcome sequences) for the exact hockey-stick divergence, KOV's
lattice formula (Thm 3.3), a float computation with scipy's binomial law, and the
independent double-precision evaluations of the printed formulas.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.composition_support import (
    eps_small,
    ks,
    leaks,
    leq,
    near,
    product_hockey_stick,
    rr_pair,
    slacks,
)
from reference import DomainError
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.results.composition.rruv16 import (
    advanced_composition,
    advanced_composition_heterogeneous,
    basic_composition,
)

# ---- RRUV16:Thm2.9 -------------------------------------------------------------------

@covers("RRUV16:Thm2.9")
@given(eps=st.lists(st.floats(0.01, 2), min_size=1, max_size=4),
       deltas=st.lists(st.sampled_from([0.0, 1e-3, 0.02]), min_size=4, max_size=4))
def test_basic_valid_and_tight_by_enumeration(eps: list[float], deltas: list[float]) -> None:
    """The product of RR_{eps_i,delta_i} has exact delta <= sum delta_i at sum eps_i, and
    (pure DP) a positive delta just below it: basic composition is valid and tight."""
    deltas = deltas[:len(eps)]
    g = basic_composition(eps=eps, delta=deltas)
    with mp.workdps(40):
        pairs = [rr_pair(mp.mpf(e), mp.mpf(d)) for e, d in zip(eps, deltas, strict=True)]
        assert product_hockey_stick(pairs, g.eps) <= g.delta + mp.mpf(10) ** -30
        if not any(deltas):
            assert product_hockey_stick(pairs, g.eps * (1 - mp.mpf(10) ** -6)) > 0
    assert g == basic_composition(eps=eps[::-1], delta=deltas[::-1])


@covers("RRUV16:Thm2.9", "KOV15:Thm3.3")
@given(eps=eps_small, k=st.integers(1, 200), delta_g=slacks)
def test_basic_is_never_better_than_optimal(eps: float, k: int, delta_g: float) -> None:
    assert leq(optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=0).value,
               basic_composition(eps=[eps] * k, delta=[]).eps)


@covers("RRUV16:Thm2.9")
def test_basic_domain() -> None:
    assert basic_composition(eps="0.1,0.2", delta=[]).delta == 0
    with pytest.raises(DomainError, match="as many entries"):
        basic_composition(eps="0.1,0.2", delta="0.1")
    with pytest.raises(DomainError):
        basic_composition(eps="0.1,-0.2", delta=[])


# ---- RRUV16:Thm2.10 ------------------------------------------------------------------

@covers("RRUV16:Thm2.10")
def test_thm210_catalog_values() -> None:
    # Independent double-precision evaluations of the printed formula (RRUV16 Thm 2.10).
    g = advanced_composition(eps="0.1", k=100, delta_hat="1e-5", delta=0)
    assert abs(float(g.eps) - 5.850235092944558) < 1e-12 and float(g.delta) == 1e-5
    g = advanced_composition(eps="0.01", k=1000, delta_hat="1e-6", delta="1e-8")
    assert abs(float(g.eps) - 1.7627598071107895) < 1e-12
    assert abs(float(g.delta) - 1.1e-5) < 1e-18
    # Thm 2.10 at k=1000, eps=0.001, delta_hat=1e-3 gives 0.11853990 (same route)
    assert abs(float(advanced_composition(eps="0.001", k=1000, delta_hat="1e-3",
                                          delta=0).eps) - 0.11853990) < 1e-8


@covers("RRUV16:Thm2.10", "LEC11:AdvComp")
@given(e1=eps_small, e2=eps_small, k1=ks, k2=ks, d1=slacks, d2=slacks)
def test_advanced_monotone(e1: float, e2: float, k1: int, k2: int, d1: float,
                           d2: float) -> None:
    """eps_g increases in eps and k and decreases in the slack (RRUV16 Thm 2.10)."""
    (ea, eb), (ka, kb), (da, db) = sorted((e1, e2)), sorted((k1, k2)), sorted((d1, d2))
    for f, slack in ((advanced_composition, "delta_hat"), (advanced_composition_tanh,
                                                           "delta_prime")):
        base = f(eps=ea, k=ka, delta=0, **{slack: db}).eps
        assert base <= f(eps=eb, k=ka, delta=0, **{slack: db}).eps
        assert base <= f(eps=ea, k=kb, delta=0, **{slack: db}).eps
        assert base <= f(eps=ea, k=ka, delta=0, **{slack: da}).eps


@covers("RRUV16:Thm2.10")
@given(eps=eps_small, k=ks, slack=slacks)
def test_thm210_versus_basic(eps: float, k: int, slack: float) -> None:
    """eps_g < k eps iff (e^eps - 1) + sqrt(2 log(1/delta_hat)/k) < 1 (RRUV16 Thm 2.10)."""
    g = advanced_composition(eps=eps, k=k, delta_hat=slack, delta=0).eps
    with mp.workdps(60):
        e = mp.mpf(eps)
        lhs = mp.expm1(e) + mp.sqrt(2 * mp.log(1 / mp.mpf(slack)) / k)
        assume(abs(lhs - 1) > mp.mpf(10) ** -30)
        assert (g < k * e) == (lhs < 1)


@covers("RRUV16:Thm2.10")
@given(frac=st.floats(1e-6, 1), k=st.integers(1, 10**6), dg=st.floats(1e-12, 0.6))
def test_thm210_small_eps_remark(frac: float, k: int, dg: float) -> None:
    """If k eps^2 <= 1/(8 log(1/delta_g)), delta=0: eps_g <= eps sqrt(8 k log(1/delta_g))."""
    eps = frac * np.sqrt(1 / (8 * k * np.log(1 / dg)))
    assume(k * eps**2 <= 1 / (8 * np.log(1 / dg)))
    g = advanced_composition(eps=eps, k=k, delta_hat=dg, delta=0).eps
    assert g <= eps * mp.sqrt(8 * k * mp.log(1 / mp.mpf(dg)))


@covers("RRUV16:Thm2.10", "LEC11:AdvComp", "KOV15:Thm3.3-delta")
@given(eps=eps_small, k=ks, slack=slacks, delta=leaks)
def test_advanced_forms_valid_against_exact_composition(eps: float, k: int, slack: float,
                                                        delta: float) -> None:
    """The exact delta of k-fold RR_{eps,delta} at either advanced eps_g is <= k delta + slack."""
    for g in (advanced_composition(eps=eps, k=k, delta_hat=slack, delta=delta),
              advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)):
        exact_delta = optimal_delta.certified(eps=eps, k=k, eps_g=g.eps, delta=delta)
        assert exact_delta.hi <= g.delta


@covers("RRUV16:Thm2.10", "LEC11:AdvComp", "KOV15:Thm3.3")
@given(eps=eps_small, k=st.integers(1, 200), slack=slacks)
def test_ordering_optimal_tanh_printed(eps: float, k: int, slack: float) -> None:
    """KOV15:Thm3.3 <= LEC11:AdvComp <= RRUV16:Thm2.10 at delta = 0 and equal slack."""
    opt = optimal_epsilon(eps=eps, k=k, delta_g=slack, delta=0).value
    lec = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=0).eps
    drv = advanced_composition(eps=eps, k=k, delta_hat=slack, delta=0).eps
    assert leq(opt, lec) and lec <= drv


# ---- RRUV16:fn2-advanced -------------------------------------------------------------

@covers("RRUV16:fn2-advanced", "RRUV16:Thm2.10")
@given(eps=eps_small, k=st.integers(1, 60), slack=slacks, delta=leaks)
def test_fn2_constant_sequence_is_thm210(eps: float, k: int, slack: float,
                                         delta: float) -> None:
    het = advanced_composition_heterogeneous(eps=[eps] * k, delta_hat=slack, delta=[delta] * k)
    hom = advanced_composition(eps=eps, k=k, delta_hat=slack, delta=delta)
    assert near(het.eps, hom.eps, 1e-45) and near(het.delta, hom.delta, 1e-45)


@covers("RRUV16:fn2-advanced")
@given(eps=st.lists(st.floats(0.01, 1.5), min_size=1, max_size=8), slack=slacks)
def test_fn2_valid_by_enumeration(eps: list[float], slack: float) -> None:
    """Heterogeneous RR_{eps_i}: exact delta at eps_g (2^k outcomes) is <= delta_hat."""
    g = advanced_composition_heterogeneous(eps=eps, delta_hat=slack, delta=[])
    with mp.workdps(30):
        pairs = [(p[1:3], q[1:3]) for p, q in (rr_pair(mp.mpf(e), mp.zero) for e in eps)]
        assert product_hockey_stick(pairs, g.eps) <= mp.mpf(slack)


@covers("RRUV16:fn2-advanced")
@given(eps=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=4),
       deltas=st.lists(st.sampled_from([1e-4, 1e-2]), min_size=4, max_size=4), slack=slacks)
def test_fn2_valid_with_leaks(eps: list[float], deltas: list[float], slack: float) -> None:
    deltas = deltas[:len(eps)]
    g = advanced_composition_heterogeneous(eps=eps, delta_hat=slack, delta=deltas)
    with mp.workdps(30):
        pairs = [rr_pair(mp.mpf(e), mp.mpf(d)) for e, d in zip(eps, deltas, strict=True)]
        assert product_hockey_stick(pairs, g.eps) <= g.delta


@covers("RRUV16:fn2-advanced")
@given(eps=st.lists(st.floats(0, 2), min_size=1, max_size=10), i=st.integers(0, 9),
       bump=st.floats(0, 1), slack=slacks, seed=st.randoms())
def test_fn2_symmetric_and_monotone(eps: list[float], i: int, bump: float, slack: float,
                                    seed: random.Random) -> None:
    g = advanced_composition_heterogeneous(eps=eps, delta_hat=slack, delta=[]).eps
    shuffled = list(eps)
    seed.shuffle(shuffled)
    g2 = advanced_composition_heterogeneous(eps=shuffled, delta_hat=slack, delta=[]).eps
    assert near(g, g2, 1e-45)
    bigger = list(eps)
    bigger[i % len(eps)] += bump
    assert advanced_composition_heterogeneous(eps=bigger, delta_hat=slack, delta=[]).eps >= g
    # ... so it never exceeds Thm 2.10 at the largest epsilon
    assert leq(g, advanced_composition(eps=max(eps), k=len(eps), delta_hat=slack,
                                       delta=0).eps, 1e-45)


def _fn2_by_hand(eps: list[Fraction], slack: Fraction, deltas: list[Fraction]
                 ) -> tuple[mpmath.mpf, Fraction]:
    """Footnote 2 applied to Thm 2.10, written out again at 80 digits from exact rationals:
    sum eps_i (e^eps_i - 1) + sqrt(2 (sum eps_i^2) log(1/slack)), and sum delta_i + slack."""
    with mp.workdps(80):
        def f(x: Fraction) -> mpmath.mpf:
            return mp.mpf(x.numerator) / x.denominator
        squares = sum((e * e for e in eps), Fraction(0))           # exact
        mean = mp.fsum(f(e) * mp.expm1(f(e)) for e in eps)
        spread = mp.sqrt(2 * f(squares) * mp.log(1 / f(slack)))
        return +(mean + spread), sum(deltas, Fraction(0)) + slack


hetero_eps = st.lists(st.fractions(Fraction(1, 1000), 2, max_denominator=1000), min_size=2,
                      max_size=12).filter(lambda xs: len(set(xs)) > 1)


@covers("RRUV16:fn2-advanced")
@given(eps=hetero_eps, slack=st.fractions(Fraction(1, 10**12), Fraction(1, 2),
                                          max_denominator=10**12),
       leak=st.sampled_from([Fraction(0), Fraction(1, 10**6), Fraction(1, 100)]))
def test_fn2_heterogeneous_value_pinned(eps: list[Fraction], slack: Fraction,
                                        leak: Fraction) -> None:
    """Unequal epsilons: the value is the footnote's sqrt(sum eps_i^2), not the
    equal-epsilon form with the mean epsilon (sum eps_i)^2/k (smaller by Cauchy-Schwarz),
    pinned two-sidedly to 1e-40 against the formula written out in the test."""
    deltas = [leak * (i % 2) for i in range(len(eps))]
    g = advanced_composition_heterogeneous(eps=eps, delta_hat=slack, delta=deltas)
    want_eps, want_delta = _fn2_by_hand(eps, slack, deltas)
    assert near(g.eps, want_eps, 1e-40)
    assert near(g.delta, want_delta, 1e-45)


@covers("RRUV16:fn2-advanced")
def test_fn2_heterogeneous_worked_example() -> None:
    """eps = (0.3, 0.4), delta_hat = e^-2: the spread is sqrt(2 * 0.25 * 2) = 1 exactly, so
    eps_g = 0.3 (e^0.3 - 1) + 0.4 (e^0.4 - 1) + 1 (by hand: 0.3 * 0.34985881 + 0.4 *
    0.49182470 + 1 = 1.30168752); the mean-epsilon form would give sqrt(0.49) = 0.7 instead."""
    with mp.workdps(60):
        g = advanced_composition_heterogeneous(eps="0.3,0.4", delta_hat=mp.exp(-2), delta=[])
        want = (mp.mpf(3) / 10 * mp.expm1(mp.mpf(3) / 10) + mp.mpf(4) / 10
                * mp.expm1(mp.mpf(4) / 10) + 1)
        assert abs(g.eps - want) < mp.mpf(10) ** -40
    assert abs(float(g.eps) - 1.30168752) < 1e-8


@covers("RRUV16:fn2-advanced")
def test_fn2_domain() -> None:
    with pytest.raises(DomainError, match="as many entries"):
        advanced_composition_heterogeneous(eps="0.1,0.2", delta_hat="0.1", delta="0,0,0")
