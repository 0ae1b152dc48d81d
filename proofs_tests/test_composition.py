"""Property tests of basic, advanced and exact optimal composition (RRUV16 §2, LEC11, KOV).

Independent routes: brute-force enumeration of the k-fold product of randomized response
(RRUV16 Def 2.6; 4^k outcome sequences) for the exact hockey-stick divergence, KOV's
lattice formula (Thm 3.3), a float computation with scipy's binomial law, and the
numbers recomputed in catalog-002 (N7, N22) and catalog-003 (§8).
"""

from __future__ import annotations

import itertools
import random
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from mpmath import iv, mp
from scipy import optimize
from scipy import stats as sst

from reference import DomainError
from reference.composition import (
    advanced_composition,
    advanced_composition_heterogeneous,
    advanced_composition_tanh,
    basic_composition,
)
from reference.errata import errata
from reference.numeric import endpoints, exact
from reference.numeric import expm1 as expm1_r
from reference.numeric import log1p as log1p_r
from reference.optimal import optimal_delta, optimal_epsilon
from reference.registry import covers

eps_small = st.floats(1e-3, 1.0)
ks = st.integers(1, 300)
slacks = st.floats(1e-8, 0.5)
leaks = st.sampled_from([0.0, 1e-9, 1e-6, 1e-4])


def rr_pair(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[list[mpmath.mpf], list[mpmath.mpf]]:
    """RR_{eps,delta}(0) and RR_{eps,delta}(1) over (0, top, bottom, 1): RRUV16 Def 2.6."""
    p = mp.exp(eps) / (1 + mp.exp(eps))
    return ([delta, (1 - delta) * p, (1 - delta) * (1 - p), mp.zero],
            [mp.zero, (1 - delta) * (1 - p), (1 - delta) * p, delta])


def product_hockey_stick(pairs: list[tuple[list[mpmath.mpf], list[mpmath.mpf]]],
                         eps_g: mpmath.mpf) -> mpmath.mpf:
    """sum over all outcome sequences of [P(seq) - e^eps_g Q(seq)]_+, by enumeration."""
    scale = mp.exp(eps_g)
    total = mp.zero
    for seq in itertools.product(*(range(len(p)) for p, _ in pairs)):
        pp = mp.fprod(pairs[i][0][s] for i, s in enumerate(seq))
        qq = mp.fprod(pairs[i][1][s] for i, s in enumerate(seq))
        total += max(pp - scale * qq, mp.zero)
    return total


def float_delta(eps: float, k: int, eps_g: float, delta: float = 0.0) -> float:
    """delta_opt with scipy's binomial pmf in double precision (loss L = eps(k - 2 Bin))."""
    j = np.arange(k + 1)
    gap = (k - 2 * j) * eps - eps_g
    pmf = sst.binom.pmf(j, k, 1 / (1 + np.exp(eps)))
    pos = gap > 0
    rr = float(np.sum(pmf[pos] * -np.expm1(-gap[pos])))
    return 1 - (1 - delta) ** k + (1 - delta) ** k * rr


def leq(a: object, b: object, rel: float = 1e-40) -> bool:
    """``a <= b (1 + rel)``, compared exactly on the binary values."""
    fa, fb = exact(a, "a", "test"), exact(b, "b", "test")
    return fa <= fb + Fraction(rel) * abs(fb)


def near(a: object, b: object, rel: float) -> bool:
    """``|a - b| <= rel (1 + |b|)``, compared exactly on the binary values."""
    fa, fb = exact(a, "a", "test"), exact(b, "b", "test")
    return abs(fa - fb) <= Fraction(rel) * (1 + abs(fb))


def floor_delta(delta: float, k: int) -> Fraction:
    d = Fraction(delta)
    return 1 - (1 - d) ** k


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


@covers("RRUV16:Thm2.9", "KOV:optimal")
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
    # catalog-003 §8 (double precision evaluations of the printed formula).
    g = advanced_composition(eps="0.1", k=100, delta_hat="1e-5", delta=0)
    assert abs(float(g.eps) - 5.850235092944558) < 1e-12 and float(g.delta) == 1e-5
    g = advanced_composition(eps="0.01", k=1000, delta_hat="1e-6", delta="1e-8")
    assert abs(float(g.eps) - 1.7627598071107895) < 1e-12
    assert abs(float(g.delta) - 1.1e-5) < 1e-18
    # catalog-003 §8: Thm 2.10 at k=1000, eps=0.001, delta_hat=1e-3 gives 0.11853990
    assert abs(float(advanced_composition(eps="0.001", k=1000, delta_hat="1e-3",
                                          delta=0).eps) - 0.11853990) < 1e-8


@covers("RRUV16:Thm2.10", "LEC11:AdvComp")
@given(e1=eps_small, e2=eps_small, k1=ks, k2=ks, d1=slacks, d2=slacks)
def test_advanced_monotone(e1: float, e2: float, k1: int, k2: int, d1: float,
                           d2: float) -> None:
    """eps_g increases in eps and k and decreases in the slack (catalog-003 Thm 2.10 (a))."""
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
    """eps_g < k eps iff (e^eps - 1) + sqrt(2 log(1/delta_hat)/k) < 1 (catalog-003 (a))."""
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


@covers("RRUV16:Thm2.10", "LEC11:AdvComp", "KOV:optimal-delta")
@given(eps=eps_small, k=ks, slack=slacks, delta=leaks)
def test_advanced_forms_valid_against_exact_composition(eps: float, k: int, slack: float,
                                                        delta: float) -> None:
    """The exact delta of k-fold RR_{eps,delta} at either advanced eps_g is <= k delta + slack."""
    for g in (advanced_composition(eps=eps, k=k, delta_hat=slack, delta=delta),
              advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)):
        exact_delta = optimal_delta.certified(eps=eps, k=k, eps_g=g.eps, delta=delta)
        assert exact_delta.hi <= g.delta


@covers("RRUV16:Thm2.10", "LEC11:AdvComp", "KOV:optimal")
@given(eps=eps_small, k=st.integers(1, 200), slack=slacks)
def test_ordering_optimal_tanh_printed(eps: float, k: int, slack: float) -> None:
    """KOV:optimal <= LEC11:AdvComp <= RRUV16:Thm2.10 at delta = 0 and equal slack."""
    opt = optimal_epsilon(eps=eps, k=k, delta_g=slack, delta=0).value
    lec = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=0).eps
    drv = advanced_composition(eps=eps, k=k, delta_hat=slack, delta=0).eps
    assert leq(opt, lec) and lec <= drv


# ---- LEC11:AdvComp -------------------------------------------------------------------

@covers("LEC11:AdvComp", "RRUV16:Thm2.9")
def test_lec11_n7_values() -> None:
    # catalog-002 N7: basic 0.5; advanced formula 0.117789 (> 0.1, the notes' claim).
    assert near(basic_composition(eps=["0.001"] * 500, delta=[]).eps, 0.5, 1e-45)
    g = advanced_composition_tanh(eps="0.001", k=500, delta_prime="1e-6", delta=0)
    assert abs(float(g.eps) - 0.117789) < 5e-7 and g.eps > mp.mpf("0.1")
    # ... and it needs delta' >= 4.77e-5 (or k <= 360) to reach 0.1.
    assert advanced_composition_tanh(eps="0.001", k=500, delta_prime="4.78e-5",
                                     delta=0).eps < mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=500, delta_prime="4.76e-5",
                                     delta=0).eps > mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=360, delta_prime="1e-6",
                                     delta=0).eps < mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=361, delta_prime="1e-6",
                                     delta=0).eps > mp.mpf("0.1")


@covers("LEC11:AdvComp", "KOV:optimal-delta")
@pytest.mark.parametrize(("eps", "delta", "k", "slack", "eps_t", "exact_delta"), [
    ("0.1", "1e-5", 100, "1e-3", "4.2165", "1.013e-3"),
    ("0.001", "0", 500, "1e-6", "0.11779", "2.5e-10"),
    ("0.3", "1e-4", 50, "1e-2", "8.6712", "5.3e-3"),
])
def test_lec11_n22_examples(eps: str, delta: str, k: int, slack: str, eps_t: str,
                            exact_delta: str) -> None:
    """catalog-002 N22: eps~ and the exact LRR delta there (both recomputed in the catalog,
    compared to the digits it prints)."""
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)
    assert mpmath.nstr(g.eps, len(eps_t.replace(".", "").lstrip("0"))) == eps_t
    d = optimal_delta(eps=eps, k=k, eps_g=g.eps, delta=delta)
    digits = len(exact_delta.split("e")[0].replace(".", ""))
    assert mpmath.nstr(d, digits, min_fixed=0, max_fixed=0) == exact_delta
    assert d <= g.delta


@covers("LEC11:AdvComp")
@given(eps=st.floats(1e-4, 5), k=ks, slack=slacks)
def test_lec11_mean_term_is_the_expected_loss(eps: float, k: int, slack: float) -> None:
    """eps~ - eps sqrt(2k ln(1/delta')) = k E[loss of RR_eps] (N14, by enumeration), and
    E[loss] <= eps^2/2 (N6)."""
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=0).eps
    with mp.workdps(60):
        e = mp.mpf(eps)
        p, q = rr_pair(e, mp.zero)
        kl = mp.fsum(pi * mp.log(pi / qi) for pi, qi in zip(p[1:3], q[1:3], strict=True))
        mean = g - e * mp.sqrt(2 * k * mp.log(1 / mp.mpf(slack)))
        assert abs(mean - k * kl) <= mp.mpf(10) ** -40 * (1 + k * kl)
        assert kl <= e**2 / 2


@covers("LEC11:AdvComp")
def test_lec11_mean_term_limit() -> None:
    """lim_{eps -> 0} k eps tanh(eps/2) / (k eps^2 / 2) = 1 (catalog-002 N6 (a))."""
    for e in ("1e-3", "1e-6", "1e-9"):
        g = advanced_composition_tanh(eps=e, k=7, delta_prime="0.5", delta=0).eps
        with mp.workdps(60):
            sq = mp.mpf(e) * mp.sqrt(14 * mp.log(2))
            ratio = (g - sq) / (7 * mp.mpf(e) ** 2 / 2)
            assert abs(ratio - 1) < mp.mpf(e)


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


@covers("RRUV16:fn2-advanced")
def test_fn2_domain() -> None:
    with pytest.raises(DomainError, match="as many entries"):
        advanced_composition_heterogeneous(eps="0.1,0.2", delta_hat="0.1", delta="0,0,0")


# ---- KOV:optimal-delta ---------------------------------------------------------------

@covers("KOV:optimal-delta")
@given(eps=st.floats(0, 3), k=st.integers(1, 4), eps_g=st.floats(0, 8),
       delta=st.sampled_from([0.0, 1e-3, 0.1, 0.5]))
def test_optimal_delta_equals_brute_force(eps: float, k: int, eps_g: float,
                                          delta: float) -> None:
    """Closed form = hockey-stick of k-fold RR_{eps,delta} enumerated over 4^k sequences."""
    value = optimal_delta(eps=eps, k=k, eps_g=eps_g, delta=delta)
    with mp.workdps(60):
        brute = product_hockey_stick([rr_pair(mp.mpf(eps), mp.mpf(delta))] * k, mp.mpf(eps_g))
        assert abs(value - brute) <= mp.mpf(10) ** -40


@covers("KOV:optimal-delta")
@given(eps=st.floats(1e-3, 3), k=st.integers(1, 80), i=st.integers(0, 40), delta=leaks)
def test_optimal_delta_kov_lattice_formula(eps: float, k: int, i: int, delta: float) -> None:
    """KOV Thm 3.3 at eps_g=(k-2i)eps: delta_i = sum_{l<i} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})
    / (1+e^eps)^k, and delta_opt = 1 - (1-delta)^k (1 - delta_i)."""
    assume(2 * i <= k)
    with mp.workdps(70):
        e = mp.mpf(eps)
        di = mp.fsum(mp.binomial(k, m) * (mp.exp((k - m) * e) - mp.exp((k - 2 * i + m) * e))
                     for m in range(i)) / (1 + mp.exp(e)) ** k
        expected = 1 - (1 - mp.mpf(delta)) ** k * (1 - di)
        value = optimal_delta(eps=eps, k=k, eps_g=(k - 2 * i) * e, delta=delta)
        assert abs(value - expected) <= mp.mpf(10) ** -40


@covers("KOV:optimal-delta")
@pytest.mark.parametrize(("eps", "k", "eps_g"), [(0.001, 500, 0.08), (0.01, 10**4, 2.0),
                                                 (0.3, 2000, 20.0), (2.0, 50, 30.0)])
def test_optimal_delta_against_scipy(eps: float, k: int, eps_g: float) -> None:
    ours, theirs = float(optimal_delta(eps=eps, k=k, eps_g=eps_g, delta=0)), float_delta(
        eps, k, eps_g)
    assert abs(ours - theirs) <= 1e-9 * theirs


@covers("KOV:optimal-delta")
@given(eps=st.floats(0, 2), k=st.integers(1, 150), g1=st.floats(0, 50), g2=st.floats(0, 50),
       delta=leaks)
def test_optimal_delta_monotone(eps: float, k: int, g1: float, g2: float,
                                delta: float) -> None:
    """Decreasing in eps_g; increasing in k (drop a round = post-processing) and eps."""
    lo, hi = sorted((g1, g2))
    d = optimal_delta(eps=eps, k=k, eps_g=lo, delta=delta)
    assert optimal_delta(eps=eps, k=k, eps_g=hi, delta=delta) <= d
    assert optimal_delta(eps=eps, k=k + 1, eps_g=lo, delta=delta) >= d
    assert optimal_delta(eps=eps * 1.01 + 1e-3, k=k, eps_g=lo, delta=delta) >= d


@covers("KOV:optimal-delta")
@given(eps=st.floats(0, 2), k=st.integers(1, 150), extra=st.floats(0, 10),
       delta=st.floats(0, 0.2))
@example(eps=3.229222734303292e-139, k=4, extra=0.0, delta=4.780475997188093e-84)
def test_optimal_delta_floor(eps: float, k: int, extra: float, delta: float) -> None:
    """For eps_g >= k eps only the leaks count: delta_opt = 1 - (1-delta)^k (exact)."""
    enc = optimal_delta.certified(eps=eps, k=k, eps_g=Fraction(eps) * k + Fraction(extra),
                                  delta=delta)
    floor = floor_delta(delta, k)
    assert exact(enc.lo, "lo", "t") <= floor <= exact(enc.hi, "hi", "t")
    assert enc.hi - enc.lo <= mp.mpf(10) ** -45


@covers("KOV:optimal-delta")
def test_optimal_delta_n7_value_and_speed() -> None:
    # catalog-002 N7: delta(0.1) = 1.7e-8 for 500 copies of 0.001-DP.
    assert float(optimal_delta(eps="0.001", k=500, eps_g="0.1", delta=0)) == pytest.approx(
        1.7e-8, rel=0.03)
    start = time.perf_counter()
    optimal_delta(eps="0.001", k=500, eps_g="0.08", delta=0)
    assert time.perf_counter() - start < 0.25  # typically ~20 ms


@covers("KOV:optimal-delta", "RRUV16:Thm2.10", "LEC11:AdvComp")
@given(exponent=st.integers(-3000, 2), sign=st.sampled_from([-1, 1]),
       prec=st.sampled_from([60, 200, 710, 1000]))
def test_expm1_log1p_enclosures_at_tiny_arguments(exponent: int, sign: int, prec: int) -> None:
    """The iv expm1/log1p used by these results enclose the exact value (mpmath's own
    truncate to x +- x^2/2 below 2^-prec and can miss it: found at prec 710)."""
    v = mp.mpf(sign) * mp.mpf(2) ** exponent * (1 + mp.mpf(2) ** -30)
    assume(v > -1)
    old = iv.prec
    try:
        iv.prec = prec
        for f, g in ((expm1_r, mp.expm1), (log1p_r, mp.log1p)):
            enc = endpoints(f(iv, iv.mpf(v)))
            with mp.workprec(3 * prec - 2 * exponent + 100):
                truth = g(v)
                assert enc.lo <= truth <= enc.hi
                assert enc.hi - enc.lo <= abs(truth) * mp.mpf(2) ** (12 - prec)
    finally:
        iv.prec = old


# ---- KOV:optimal ---------------------------------------------------------------------

@covers("KOV:optimal", "KOV:optimal-delta")
@given(eps=st.floats(1e-3, 3), k=st.integers(1, 200), delta_g=st.floats(1e-12, 0.9),
       delta=leaks)
def test_optimal_inverse_pair(eps: float, k: int, delta_g: float, delta: float) -> None:
    """delta_opt(value) <= delta_g, and delta_opt just below the exact inverse > delta_g."""
    assume(Fraction(delta_g) > floor_delta(delta, k) * (1 + Fraction(1, 10**6)))
    cert = optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=delta)
    assert cert.lo <= cert.value <= cert.hi
    at = optimal_delta.certified(eps=eps, k=k, eps_g=cert.value, delta=delta)
    assert exact(at.hi, "hi", "t") <= Fraction(delta_g)
    if cert.lo > 0:
        below = optimal_delta.certified(eps=eps, k=k, eps_g=cert.lo, delta=delta)
        assert exact(below.lo, "lo", "t") > Fraction(delta_g)
        assert cert.hi - cert.lo <= mp.mpf(10) ** -40 * cert.hi
    else:  # the target is reached already at eps_g = 0
        assert optimal_delta(eps=eps, k=k, eps_g=0, delta=delta) <= delta_g * (1 + 1e-30)


@covers("KOV:optimal")
def test_optimal_n7_value_by_scipy_bisection() -> None:
    # catalog-002 N7 gives 0.0798; a float root of scipy's binomial sum gives more digits.
    cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6", delta=0)
    root = optimize.brentq(lambda g: float_delta(0.001, 500, g) - 1e-6, 0.05, 0.2, xtol=1e-15)
    assert abs(float(cert.value) - root) < 1e-10
    assert abs(float(cert.value) - 0.0798) < 5e-5


@covers("KOV:optimal")
@given(eps=st.floats(0.01, 2), k=st.integers(1, 100), frac=st.floats(1e-6, 0.99))
def test_optimal_near_the_floor_is_basic(eps: float, k: int, frac: float) -> None:
    """Below p^k (1 - e^{-2 eps}) (p (1 - e^{-eps}) if k = 1) only the j=0 term is active,
    so the inverse is k eps + log(1 - delta_g / p^k) exactly: k eps (basic) in the limit."""
    with mp.workdps(60):
        e = mp.mpf(eps)
        pk = (mp.exp(e) / (1 + mp.exp(e))) ** k
        delta_g = frac * pk * -mp.expm1(-(2 if k > 1 else 1) * e)
        expected = k * e + mp.log1p(-delta_g / pk)
        cert = optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=0)
        assert abs(cert.value - expected) <= mp.mpf(10) ** -40 * k * e
    tiny = optimal_epsilon(eps=eps, k=k, delta_g=Fraction(1, 10**300), delta=0)
    assert tiny.holds and near(tiny.value, Fraction(eps) * k, 1e-45)


@covers("KOV:optimal")
@given(e1=st.floats(1e-3, 2), e2=st.floats(1e-3, 2), k1=st.integers(1, 150),
       k2=st.integers(1, 150), d1=slacks, d2=slacks)
def test_optimal_monotone(e1: float, e2: float, k1: int, k2: int, d1: float, d2: float) -> None:
    (ea, eb), (ka, kb), (da, db) = sorted((e1, e2)), sorted((k1, k2)), sorted((d1, d2))
    base = optimal_epsilon(eps=ea, k=ka, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=eb, k=ka, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=ea, k=kb, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=ea, k=ka, delta_g=da, delta=0).value


@covers("KOV:optimal")
def test_optimal_domain_and_edges() -> None:
    with pytest.raises(DomainError, match="must exceed 1-\\(1-delta\\)\\^k"):
        optimal_epsilon(eps="0.1", k=10, delta_g="0.01", delta="0.01")  # floor 0.0956
    with pytest.raises(DomainError, match="must exceed"):
        optimal_epsilon(eps="0.1", k=2, delta_g="0.75", delta="0.5")  # exactly the floor
    with pytest.raises(DomainError):
        optimal_epsilon(eps="0.1", k=10**5 + 1, delta_g="0.5", delta=0)
    assert optimal_epsilon(eps=0, k=50, delta_g="1e-3", delta="1e-5").value == 0
    # delta_g above the total variation of the k-fold pair: eps_g = 0 suffices
    assert optimal_epsilon(eps="0.1", k=3, delta_g="0.5", delta=0).value == 0


@covers("KOV:optimal")
def test_optimal_speed() -> None:
    start = time.perf_counter()
    cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6", delta=0)
    assert cert.holds and time.perf_counter() - start < 1.0  # typically ~0.1 s


# ---- errata ----------------------------------------------------------------------------

@covers("LEC11:AdvComp", "KOV:optimal", "KOV:optimal-delta")
@pytest.mark.parametrize("eid", ["LEC11:N7", "LEC11:N21", "LEC11:N22"])
def test_errata_confirmed(eid: str) -> None:
    entry = {e.id: e for e in errata()}[eid]
    check = entry.verify()
    assert check.confirmed, check.detail
