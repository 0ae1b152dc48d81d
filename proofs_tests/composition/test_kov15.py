"""Property tests of exact optimal composition (KOV15:Thm3.3-delta, KOV15:Thm3.3).

Independent routes: brute-force enumeration of the k-fold product of randomized response
(RRUV16 Def 2.6), KOV's lattice formula (Thm 3.3), scipy's binomial law in double
precision and root finding, and the lecture notes' numbers (N7), recomputed independently.
Basic and advanced composition are in ``test_rruv16.py`` and ``test_lec11.py``.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from mpmath import iv, mp
from scipy import optimize

from proofs_tests.composition_support import (
    float_delta,
    floor_delta,
    leaks,
    near,
    product_hockey_stick,
    rr_pair,
    slacks,
)
from reference import DomainError
from reference.core.numeric import endpoints, exact
from reference.core.numeric import expm1 as expm1_r
from reference.core.numeric import log1p as log1p_r
from reference.results import covers, errata
from reference.results.composition.kov15 import MAX_ROUNDS, optimal_delta, optimal_epsilon

# ---- KOV15:Thm3.3-delta ---------------------------------------------------------------

@covers("KOV15:Thm3.3-delta")
@given(eps=st.floats(0, 3), k=st.integers(1, 4), eps_g=st.floats(0, 8),
       delta=st.sampled_from([0.0, 1e-3, 0.1, 0.5]))
def test_optimal_delta_equals_brute_force(eps: float, k: int, eps_g: float,
                                          delta: float) -> None:
    """Closed form = hockey-stick of k-fold RR_{eps,delta} enumerated over 4^k sequences."""
    value = optimal_delta(eps=eps, k=k, eps_g=eps_g, delta=delta)
    with mp.workdps(60):
        brute = product_hockey_stick([rr_pair(mp.mpf(eps), mp.mpf(delta))] * k, mp.mpf(eps_g))
        assert abs(value - brute) <= mp.mpf(10) ** -40


@covers("KOV15:Thm3.3-delta")
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


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "k", "eps_g"), [(0.001, 500, 0.08), (0.01, 10**4, 2.0),
                                                 (0.3, 2000, 20.0), (2.0, 50, 30.0)])
def test_optimal_delta_against_scipy(eps: float, k: int, eps_g: float) -> None:
    ours, theirs = float(optimal_delta(eps=eps, k=k, eps_g=eps_g, delta=0)), float_delta(
        eps, k, eps_g)
    assert abs(ours - theirs) <= 1e-9 * theirs


@covers("KOV15:Thm3.3-delta")
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


@covers("KOV15:Thm3.3-delta")
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


@covers("KOV15:Thm3.3-delta")
def test_optimal_delta_n7_value_and_speed() -> None:
    # Lecture notes N7 (recomputed independently): delta(0.1) = 1.7e-8 for 500 copies of 0.001-DP.
    assert float(optimal_delta(eps="0.001", k=500, eps_g="0.1", delta=0)) == pytest.approx(
        1.7e-8, rel=0.03)
    start = time.perf_counter()
    optimal_delta(eps="0.001", k=500, eps_g="0.08", delta=0)
    assert time.perf_counter() - start < 0.25  # typically ~20 ms


@covers("KOV15:Thm3.3-delta", "RRUV16:Thm2.10", "LEC11:AdvComp")
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


# ---- KOV15:Thm3.3 ---------------------------------------------------------------------

@covers("KOV15:Thm3.3", "KOV15:Thm3.3-delta")
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


@covers("KOV15:Thm3.3")
def test_optimal_n7_value_by_scipy_bisection() -> None:
    # Lecture notes N7 gives 0.0798; a float root of scipy's binomial sum gives more digits.
    cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6", delta=0)
    root = optimize.brentq(lambda g: float_delta(0.001, 500, g) - 1e-6, 0.05, 0.2, xtol=1e-15)
    assert abs(float(cert.value) - root) < 1e-10
    assert abs(float(cert.value) - 0.0798) < 5e-5


@covers("KOV15:Thm3.3")
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


@covers("KOV15:Thm3.3")
@given(e1=st.floats(1e-3, 2), e2=st.floats(1e-3, 2), k1=st.integers(1, 150),
       k2=st.integers(1, 150), d1=slacks, d2=slacks)
def test_optimal_monotone(e1: float, e2: float, k1: int, k2: int, d1: float, d2: float) -> None:
    (ea, eb), (ka, kb), (da, db) = sorted((e1, e2)), sorted((k1, k2)), sorted((d1, d2))
    base = optimal_epsilon(eps=ea, k=ka, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=eb, k=ka, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=ea, k=kb, delta_g=db, delta=0).value
    assert base <= optimal_epsilon(eps=ea, k=ka, delta_g=da, delta=0).value


def _rr_sequences(eps: mpmath.mpf, k: int) -> list[tuple[mpmath.mpf, mpmath.mpf]]:
    """(P, Q) of each of the 2^k output sequences of k-fold RR_eps on inputs 0 and 1."""
    p = mp.exp(eps) / (1 + mp.exp(eps))
    out = []
    for seq in itertools.product((0, 1), repeat=k):
        flips = sum(seq)
        out.append((p ** (k - flips) * (1 - p) ** flips, p ** flips * (1 - p) ** (k - flips)))
    return out


def _brute_delta(seqs: list[tuple[mpmath.mpf, mpmath.mpf]], eps_g: mpmath.mpf) -> mpmath.mpf:
    scale = mp.exp(eps_g)
    return mp.fsum(max(a - scale * b, mp.zero) for a, b in seqs)


def _brute_epsilon(eps: mpmath.mpf, k: int, delta_g: mpmath.mpf) -> mpmath.mpf:
    """Smallest eps_g >= 0 with hockey-stick(eps_g) <= delta_g, by bisection over the
    enumerated sequences (the divergence is continuous and decreasing, 0 at k eps)."""
    seqs = _rr_sequences(eps, k)
    if _brute_delta(seqs, mp.zero) <= delta_g:
        return mp.zero
    lo, hi = mp.zero, k * eps
    while hi - lo > mp.mpf(10) ** -32 * (1 + hi):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _brute_delta(seqs, mid) <= delta_g else (mid, hi)
    return hi


@st.composite
def small_k_targets(draw: st.DrawFn) -> tuple[float, int, mpmath.mpf]:
    """eps, k in {1, ..., 5} and a delta_g anywhere, or at / next to a piece boundary: the
    exact delta at a lattice point eps_g = (k - 2i) eps (i = k/2 or (k+1)/2 is eps_g <= 0,
    the total variation, past which eps_g = 0)."""
    eps = draw(st.floats(0.02, 2.5))
    k = draw(st.sampled_from([1, 2, 3, 4, 5]))
    how = draw(st.sampled_from(["free", "lattice"]))
    if how == "free":
        return eps, k, mp.mpf(draw(st.floats(1e-9, 0.99)))
    i = draw(st.integers(1, (k + 1) // 2))
    nudge = draw(st.sampled_from([-1e-3, -1e-9, 0.0, 1e-9, 1e-3, 0.3]))
    with mp.workdps(50):
        level = _brute_delta(_rr_sequences(mp.mpf(eps), k), max(k - 2 * i, 0) * mp.mpf(eps))
        return eps, k, +(level * (1 + mp.mpf(nudge)))


@covers("KOV15:Thm3.3")
@given(case=small_k_targets())
@example(case=(1.0, 1, mp.mpf("0.5")))        # past (e - 1)/(e + 1) = 0.4621: eps_g = 0
@example(case=(1.0, 1, mp.mpf("0.46")))       # just below it: log((p - 0.46)/(1 - p))
@example(case=(1.0, 3, mp.mpf("0.5")))
@example(case=(0.5, 5, mp.mpf("0.2")))
def test_optimal_small_k_equals_brute_force(case: tuple[float, int, mpmath.mpf]) -> None:
    """The value and the bracket agree with bisection on the enumerated hockey-stick
    divergence of k-fold RR_eps (2^k sequences), for odd and even k and delta_g at, near
    and past every piece boundary (two-sided, 1e-25).  So does the piecewise solver's own
    point (``core``), before the certificate step, which clamps a negative point to the
    floor 0 and would hide a wrong last piece."""
    eps, k, delta_g = case
    assume(0 < delta_g < 1)
    cert = optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=0)
    with mp.workdps(50):
        truth = _brute_epsilon(mp.mpf(eps), k, delta_g)
        tol = mp.mpf(10) ** -25
        assert abs(cert.value - truth) <= tol
        assert cert.lo - tol <= truth <= cert.hi + tol
        guess = optimal_epsilon.core(mp, mp.mpf(eps), k, delta_g, mp.zero)
        assert abs(guess - truth) <= tol


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("ratio", [Fraction(3), Fraction(2), Fraction(3, 2), Fraction(11, 10)])
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_optimal_lattice_points_exactly(ratio: Fraction, k: int) -> None:
    """eps = log r makes p = r/(1 + r) rational, so the divergence at a lattice point
    eps_g = (k - 2i) eps >= 0 is an exact rational D_i (enumerated with Fractions); at
    delta_g = D_i the optimal eps_g is max(k - 2i, 0) log r.  For k = 1 the threshold
    D_1 = (r - 1)/(r + 1) is the total variation; beyond it eps_g = 0."""
    p = ratio / (1 + ratio)
    for i in range(1, (k + 1) // 2 + 1):
        power = max(k - 2 * i, 0)
        level = Fraction(0)
        for seq in itertools.product((0, 1), repeat=k):
            f = sum(seq)
            level += max(p ** (k - f) * (1 - p) ** f
                         - ratio ** power * p ** f * (1 - p) ** (k - f), Fraction(0))
        if k == 1:
            assert level == (ratio - 1) / (ratio + 1)
        with mp.workdps(60):
            eps = mp.log(mp.mpf(ratio.numerator) / ratio.denominator)
            cert = optimal_epsilon(eps=eps, k=k, delta_g=level, delta=0)
            assert abs(cert.value - power * eps) <= mp.mpf(10) ** -35
            if power == 0:   # past the total variation too
                beyond = optimal_epsilon(eps=eps, k=k, delta_g=(1 + level) / 2, delta=0)
                assert beyond.value == 0


@covers("KOV15:Thm3.3")
def test_optimal_domain_and_edges() -> None:
    with pytest.raises(DomainError, match="must exceed 1-\\(1-delta\\)\\^k"):
        optimal_epsilon(eps="0.1", k=10, delta_g="0.01", delta="0.01")  # floor 0.0956
    with pytest.raises(DomainError, match="must exceed"):
        optimal_epsilon(eps="0.1", k=2, delta_g="0.75", delta="0.5")  # exactly the floor
    with pytest.raises(DomainError):
        optimal_epsilon(eps="0.1", k=MAX_ROUNDS + 1, delta_g="0.5", delta=0)
    assert optimal_epsilon(eps=0, k=50, delta_g="1e-3", delta="1e-5").value == 0
    # delta_g above the total variation of the k-fold pair: eps_g = 0 suffices
    assert optimal_epsilon(eps="0.1", k=3, delta_g="0.5", delta=0).value == 0


@covers("KOV15:Thm3.3")
def test_optimal_speed() -> None:
    start = time.perf_counter()
    cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6", delta=0)
    assert cert.holds and time.perf_counter() - start < 1.0  # typically ~0.1 s


# ---- errata ----------------------------------------------------------------------------

@covers("LEC11:AdvComp", "KOV15:Thm3.3", "KOV15:Thm3.3-delta")
@pytest.mark.parametrize("eid", ["LEC11:N7", "LEC11:N21", "LEC11:N22"])
def test_errata_confirmed(eid: str) -> None:
    entry = {e.id: e for e in errata()}[eid]
    check = entry.verify()
    assert check.confirmed, check.detail
