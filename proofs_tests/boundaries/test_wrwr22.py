"""Property tests of the time-uniform boundaries (WRWR22 Thm 3.6, Cor 3.7; RSWR23 psi).

Independent routes: quadrature of the normal-mixture martingale and of the first-passage
density, the catalogs' recomputed golden values, relations between different results
(boundary <-> loss bound <-> companion psi <-> Theorem 5), monotonicity and scaling.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends as _arb_ends
from reference.core.errors import DomainError
from reference.results import covers
from reference.results.boundaries.wrwr22 import (
    companion_psi,
    expost_at_stop,
    linear_boundary,
    linear_time,
    mixture_boundary,
    mixture_time,
    optimal_rho,
)
from reference.results.noise_reduction.brownian import loss_bound
from reference.results.noise_reduction.evalues import composed_expost

times = st.floats(1e-4, 1e4)
precisions = st.floats(1e-3, 1e3)
deltas = st.floats(1e-12, 0.5)
sens = st.floats(0.01, 100)


def rel(a: object, b: object) -> float:
    x, y = mp.mpf(a), mp.mpf(b)  # type: ignore[arg-type]
    return float(abs(x - y) / max(abs(y), mp.mpf(10) ** -300))


@covers("WRWR22:Thm3.6-mixture")
@pytest.mark.parametrize(("t", "rho", "delta", "d", "value"), [
    (1, 1, "1e-6", 1, "8.02650892465936"), ("0.5", 2, "1e-5", 1, "16.2476209558261"),
    (10, 1, "0.05", 2, "2.12128038577371"), (100, 10, "1e-9", 1, "0.699470083166729")])
def test_mixture_golden_values(t: object, rho: object, delta: str, d: int, value: str) -> None:
    """Golden values, recomputed independently with mpmath."""
    assert rel(mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d), value) < 1e-14


@covers("WRWR22:Thm3.6-mixture", "RSWR23:psi")
@given(t=times, rho=precisions, delta=st.floats(1e-8, 0.2))
def test_mixture_level_is_where_the_mixture_martingale_reaches_one_over_delta(
        t: float, rho: float, delta: float) -> None:
    """delta * int exp(l W - l^2 t/2) N(l; 0, 1/rho) dl = 1 at W = g_rho(t) (quadrature)."""
    d = 1.0
    with mp.workdps(30):
        g = (mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d) - mp.mpf(d) ** 2 / (
            2 * mp.mpf(t))) * mp.mpf(t) / d
        assert rel(g, companion_psi(t=t, gamma=rho, delta=delta)) < 1e-25
        sd = 1 / mp.sqrt(rho)
        peak = sd * g / (sd * sd * t + 1)            # maximiser of the integrand in z
        width = 1 / mp.sqrt(sd * sd * t + 1)
        cuts = [peak + k * width for k in (-30, -10, -4, -1, 0, 1, 4, 10, 30)]
        mix = mp.quad(lambda z: mp.exp((sd * z) * g - (sd * z) ** 2 * t / 2 - z * z / 2)
                      / mp.sqrt(2 * mp.pi), [-mp.inf, *cuts, mp.inf])
        assert abs(delta * mix - 1) < 1e-12


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear", "RSWR23:psi", "WRWR22:Thm3.4-bound")
@given(t=times, rho=precisions, a=st.floats(0.01, 10), b=st.floats(0.01, 10), d=sens,
       w=st.floats(-100, 100))
def test_boundary_events_are_crossings_of_w(t: float, rho: float, a: float, b: float,
                                            d: float, w: float) -> None:
    """Worst-case loss > psi^L iff W > b + a t; > psi^M iff W > g_rho(t) = psi(t; rho, delta)."""
    delta = math.exp(-2 * a * b)
    assume(1e-300 < delta < 1)
    loss = loss_bound(t=t, w=w, sensitivity=d)
    with mp.workdps(60):
        line = mp.mpf(b) + mp.mpf(a) * mp.mpf(t)
        assume(abs(w - line) > 1e-9 * (1 + abs(line)))
        assert (loss > linear_boundary(t=t, a=a, b=b, sensitivity=d)) == (w > line)
        g = companion_psi(t=t, gamma=rho, delta=delta)
        assume(abs(w - g) > 1e-9 * (1 + g))
        assert (loss > mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d)) == (w > g)


@covers("WRWR22:Thm3.6-linear")
@pytest.mark.parametrize(("a", "b"), [(0.5, 0.5 * math.log(1e6)), (2.0, 0.1), (0.1, 3.0)])
def test_linear_crossing_probability_is_exactly_delta(a: float, b: float) -> None:
    """int_0^inf b/sqrt(2 pi s^3) exp(-(b + a s)^2/(2s)) ds (first passage of W to b + a s,
    Bachelier–Lévy) equals exp(-2ab): the linear boundary's delta, attained exactly."""
    with mp.workdps(30):
        dens = lambda s: b / mp.sqrt(2 * mp.pi * s**3) * mp.exp(-(b + a * s) ** 2 / (2 * s))  # noqa: E731
        peak = b / a
        p = mp.quad(dens, [0, peak / 10, peak, 10 * peak, mp.inf])
        assert abs(p / mp.exp(-2 * a * b) - 1) < 1e-15


@covers("WRWR22:Thm3.6-linear")
@pytest.mark.parametrize(("t", "a", "delta", "d", "value"), [
    (1, "0.5", 1e-6, 1, "14.8155105579643"), (4, "0.25", 1e-5, 1, "6.13146273248511"),
    (10, 1, 0.05, 2, "2.4995732273554")])
def test_linear_golden_values(t: int, a: str, delta: float, d: int, value: str) -> None:
    b = math.log(1 / delta) / (2 * float(a))
    assert rel(linear_boundary(t=t, a=a, b=b, sensitivity=d), value) < 1e-13


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear")
@given(t=times, t2=times, rho=precisions, delta=deltas, delta2=deltas, d=sens,
       a=st.floats(0.01, 10))
def test_monotone_in_t_delta_and_sensitivity(t: float, t2: float, rho: float, delta: float,
                                              delta2: float, d: float, a: float) -> None:
    (t1, t2), (d1, d2) = sorted((t, t2)), sorted((delta, delta2))
    assume(t1 < t2 and d1 < d2)
    m = lambda t, de, s=d: mixture_boundary(t=t, rho=rho, delta=de, sensitivity=s)  # noqa: E731
    assert m(t1, d1) > m(t2, d1) and m(t1, d1) > m(t1, d2) and m(t1, d1, 2 * d) > m(t1, d1)
    def lin(t: float, de: float) -> mpmath.mpf:
        with mp.workdps(60):
            b = mp.log(1 / mp.mpf(de)) / (2 * a)
        return linear_boundary(t=t, a=a, b=b, sensitivity=d)
    assert lin(t1, d1) > lin(t2, d1) and lin(t1, d1) > lin(t1, d2)


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear")
@given(t=times, rho=precisions, delta=deltas, d=sens, c=st.floats(0.1, 10),
       a=st.floats(0.01, 10), b=st.floats(0.01, 10))
def test_scaling_invariance(t: float, rho: float, delta: float, d: float, c: float, a: float,
                            b: float) -> None:
    """psi^M_{c^2 rho}(c^2 t; c D) = psi^M_rho(t; D); psi^L_{a/c, c b}(c^2 t; c D) = psi^L."""
    q = Fraction(c)
    with mp.workdps(50):
        lhs = mixture_boundary(t=q * q * Fraction(t), rho=q * q * Fraction(rho), delta=delta,
                               sensitivity=q * Fraction(d))
        assert rel(lhs, mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d)) < 1e-40
        lin = linear_boundary(t=q * q * Fraction(t), a=Fraction(a) / q, b=q * Fraction(b),
                              sensitivity=q * Fraction(d))
        assert rel(lin, linear_boundary(t=t, a=a, b=b, sensitivity=d)) < 1e-40


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear")
@given(t=times, rho=precisions, delta=deltas, d=sens, a=st.floats(0.01, 10))
def test_fixed_time_envelope(t: float, rho: float, delta: float, d: float, a: float) -> None:
    """Both lie above the fixed-time Chernoff envelope D^2/(2t) + D sqrt(2 L/t); a linear
    boundary touches it exactly at t = b/a (WRWR22 §3)."""
    with mp.workdps(50):
        L = mp.log(1 / mp.mpf(delta))
        env = lambda t: mp.mpf(d) ** 2 / (2 * t) + d * mp.sqrt(2 * L / t)  # noqa: E731
        assert mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d) > env(mp.mpf(t))
        b = L / (2 * a)
        assert linear_boundary(t=t, a=a, b=b, sensitivity=d) >= env(mp.mpf(t)) * (1 - 1e-40)
        touch = b / a
        assert rel(linear_boundary(t=touch, a=a, b=b, sensitivity=d), env(touch)) < 1e-40


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear")
def test_limits_and_floor() -> None:
    """psi^M -> 0 as t -> inf, psi^L -> D a (independently computed reference values:
    0.186 / 0.514 at t = 1e3)."""
    b = math.log(1e6)  # a = 1/2
    assert abs(float(mixture_boundary(t=1000, rho=1, delta="1e-6")) - 0.186) < 5e-4
    assert abs(float(linear_boundary(t=1000, a="0.5", b=b)) - 0.514) < 5e-4
    assert abs(float(mixture_boundary(t=10**9, rho=1, delta="1e-6")) - 2.2e-4) < 5e-6
    assert 0 < linear_boundary(t=10**30, a="0.5", b=b) - mp.mpf("0.5") < 1e-28


@covers("RSWR23:psi", "RSWR23:Thm5", "WRWR22:Thm3.6-mixture")
@given(t=times, gamma=precisions, delta=deltas)
def test_companion_equals_mixture_on_the_inverted_clock(t: float, gamma: float,
                                                        delta: float) -> None:
    """psi^C_gamma(t) = 1/(2t) + psi(1/t; gamma) = psi^M_{gamma t^2}(t) (WRWR22 Theorem 3.6's
    boundaries on the inverted clock)."""
    tq = Fraction(t)
    with mp.workdps(50):
        comp = composed_expost(t=[tq], gamma=gamma, delta=delta)
        assert rel(comp, mixture_boundary(t=tq, rho=Fraction(gamma) * tq * tq, delta=delta)) < 1e-40
        assert psi_increasing(gamma, delta, t)


def psi_increasing(gamma: float, delta: float, t: float) -> bool:
    """psi(.; gamma, delta) increases and lies above sqrt(2 t log(1/delta))."""
    a, b = companion_psi(t=t, gamma=gamma, delta=delta), companion_psi(t=2 * t, gamma=gamma,
                                                                        delta=delta)
    return bool(a < b and a >= mp.sqrt(2 * mp.mpf(t) * mp.log(1 / mp.mpf(delta))))


@covers("RSWR23:psi", "RSWR23:Thm5", "WRWR22:Thm3.6-mixture")
@pytest.mark.parametrize(("t", "mix", "comp"), [("0.01", "578.369", "107.069"),
                                                (1, "8.02651", "8.02651"),
                                                (100, "0.57569", "5.28869")])
def test_companion_vs_mixture_table(t: object, mix: str, comp: str) -> None:
    """Neither dominates; they cross at t = sqrt(rho/gamma) = 1."""
    assert rel(mixture_boundary(t=t, rho=1, delta="1e-6"), mix) < 1e-5
    assert rel(composed_expost(t=[t], gamma=1, delta="1e-6"), comp) < 1e-5


@covers("WRWR22:Cor3.7")
@given(t=times, rho=precisions, delta=deltas, d=sens)
def test_expost_guarantee_is_the_boundary_at_the_stopped_time(t: float, rho: float,
                                                              delta: float, d: float) -> None:
    g = expost_at_stop(t=t, rho=rho, delta=delta, sensitivity=d)
    assert g.eps == mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d)
    assert g.delta == mp.mpf(delta)


@covers("WRWR22:Cor3.7-Gamma")
@pytest.mark.parametrize(("eps", "gamma"), [(1, "33.0941533084963"), (2, "8.81973548643302"),
                                            (5, "1.93623336200345"), (10, "0.753002594631176")])
def test_gamma_golden_values(eps: int, gamma: str) -> None:
    cert = mixture_time(eps=eps, rho=1, delta="1e-6")
    assert cert.holds and rel(cert.value, gamma) < 1e-14


@covers("WRWR22:Cor3.7-Gamma", "WRWR22:Thm3.6-mixture")
@given(t=st.floats(1e-3, 1e3), rho=precisions, delta=deltas, d=sens)
def test_gamma_inverts_the_mixture(t: float, rho: float, delta: float, d: float) -> None:
    """Gamma(psi(t)) = t, psi(Gamma(E)) <= E (certified), Gamma decreasing in E."""
    e = mixture_boundary(t=t, rho=rho, delta=delta, sensitivity=d)
    cert = mixture_time(eps=e, rho=rho, delta=delta, sensitivity=d)
    assert cert.holds and cert.lo <= cert.value <= cert.hi
    assert rel(cert.value, t) < 1e-35
    bigger = mixture_time(eps=2 * e, rho=rho, delta=delta, sensitivity=d)
    assert bigger.value < cert.value


@covers("WRWR22:Cor3.7-Gamma")
@given(levels=st.lists(st.floats(0.05, 50), min_size=2, max_size=6))
def test_non_decreasing_targets_give_non_increasing_times(levels: list[float]) -> None:
    """Privacy functions E_n non-decreasing => T_n = Gamma(E_n) is a valid time schedule."""
    ts = [mixture_time(eps=e, rho=2, delta="0.05").value for e in sorted(levels)]
    assert all(b <= a for a, b in itertools.pairwise(ts))


@covers("WRWR22:Cor3.7-Gamma-linear", "WRWR22:Thm3.6-linear")
@given(a=st.fractions(Fraction(1, 100), 10), b=st.fractions(Fraction(1, 100), 10),
       d=st.fractions(Fraction(1, 100), 10), excess=st.fractions(Fraction(1, 1000), 100))
def test_linear_gamma_is_exact(a: Fraction, b: Fraction, d: Fraction, excess: Fraction) -> None:
    """Rational data: psi^L(Gamma(E)) = E exactly; E at or below the floor is refused."""
    e = d * a + excess
    cert = linear_time(eps=e, a=a, b=b, sensitivity=d)
    assert cert.holds
    with mp.workdps(80):
        value = linear_boundary(t=cert.value, a=a, b=b, sensitivity=d)
        assert abs(value / (mp.mpf(e.numerator) / e.denominator) - 1) < mp.mpf(10) ** -45
    with pytest.raises(DomainError, match="floor"):
        linear_time(eps=d * a, a=a, b=b, sensitivity=d)


@covers("WRWR22:Thm3.6-mixture-optimal-rho")
@pytest.mark.parametrize(("delta", "r"), [("0.1", 6.638), ("1e-3", 16.688), ("1e-6", 31.100),
                                          ("1e-10", 49.983)])
def test_optimal_ratio_values(delta: str, r: float) -> None:
    """Independently computed: r* = t/rho* is 6.638, 16.688, 31.100, 49.983."""
    assert abs(float(1 / optimal_rho(t=1, delta=delta).rho) - r) < 1e-3


@covers("WRWR22:Thm3.6-mixture-optimal-rho", "WRWR22:Thm3.6-mixture")
@given(t=times, delta=deltas, d=sens)
def test_optimal_rho_minimises_and_is_unimodal(t: float, delta: float, d: float) -> None:
    """psi^M at rho* is below psi^M on a geometric grid of rho, which falls then rises."""
    best = optimal_rho(t=t, delta=delta, sensitivity=d)
    assert rel(best.boundary, mixture_boundary(t=t, rho=best.rho, delta=delta,
                                               sensitivity=d)) < 1e-40
    grid = [best.rho * mp.mpf(2) ** k for k in range(-12, 13)]
    vals = [mixture_boundary(t=t, rho=r, delta=delta, sensitivity=d) for r in grid]
    with mp.workdps(60):
        assert min(vals) >= best.boundary * (1 - mp.mpf(10) ** -40)
        k = vals.index(min(vals))
        assert all(x > y for x, y in itertools.pairwise(vals[:k + 1]))
        assert all(x < y for x, y in itertools.pairwise(vals[k:]))


@covers("WRWR22:Thm3.6-mixture-optimal-rho", "RSWR23:Thm5")
@given(t=times, delta=deltas)
def test_same_optimal_envelope_for_both_papers(t: float, delta: float) -> None:
    """min_rho psi^M(t0) = psi^C_gamma(t0) at gamma = rho*/t0^2 (WRWR22 Theorem 3.6 and
    RSWR23 Theorem 5)."""
    best = optimal_rho(t=t, delta=delta)
    with mp.workdps(50):
        gamma = best.rho / mp.mpf(t) ** 2
        assert rel(composed_expost(t=[t], gamma=gamma, delta=delta), best.boundary) < 1e-30


@covers("WRWR22:Cor3.7-Gamma")
def test_gamma_refuses_bad_targets() -> None:
    with pytest.raises(DomainError):
        mixture_time(eps=0, rho=1, delta="0.05")
    with pytest.raises(DomainError):
        mixture_time(eps=1, rho=0, delta="0.05")
    assert mpmath.isfinite(mixture_time(eps="1e-3", rho=1, delta="0.05").value)


# ---- delta next to 1 (ln(1/delta) from the exact delta) -----------------------------------

_TINY = Fraction(1, 10**300)
_RHO = Fraction("116.1")


def _q(x: object) -> Fraction:
    from reference.core.numeric import exact
    return exact(x, "x", "test")


def _arb_mixture(t: Fraction, rho: Fraction, delta: Fraction, s: Fraction) -> tuple[Fraction,
                                                                                 Fraction]:
    """psi^M_rho(t) = s^2/(2t) + s/t sqrt((t + rho) ln((t + rho)/(rho delta^2))) in arb balls
    at 5000 bits (delta = 1 - 1e-300 loses 1000 bits in ln delta, t/rho = 1e-302 as many)."""
    flint = pytest.importorskip("flint")
    flint.ctx.prec = 5000
    try:
        a = [flint.arb(flint.fmpq(x.numerator, x.denominator)) for x in (t, rho, delta, s)]
        tt, rr, dd, ss = a
        value = ss * ss / (2 * tt) + ss / tt * ((tt + rr) * ((tt + rr) / (rr * dd * dd)).log()
                                                 ).sqrt()
        return _arb_ends(value)
    finally:
        flint.ctx.prec = 53


@covers("WRWR22:Cor3.7", "WRWR22:Thm3.6-mixture")
@pytest.mark.parametrize(("t", "s"), [(_TINY, Fraction(1)), (_TINY, _TINY),
                                      (Fraction(5e-324), Fraction(1)), (Fraction(1), _TINY)])
def test_expost_next_to_delta_one(t: Fraction, s: Fraction) -> None:
    """delta = 1 - 1e-300 with rho = 116.1 and t or the sensitivity 1e-300 was a
    ComplexResult (delta lifted to an enclosure of 1, ln(1/delta) below 0 under the root)."""
    delta = 1 - _TINY
    lo, hi = _arb_ends_checked(*_arb_mixture(t, _RHO, delta, s))
    g = expost_at_stop(t=t, rho=_RHO, delta=delta, sensitivity=s)
    enc = expost_at_stop.certified(t=t, rho=_RHO, delta=delta, sensitivity=s)
    assert _q(enc.eps.lo) <= lo and hi <= _q(enc.eps.hi)
    assert _q(enc.eps.hi) - _q(enc.eps.lo) <= hi * Fraction(1, 10**45)
    slack = hi * Fraction(1, 10**48)
    assert _q(enc.eps.lo) - slack <= _q(g.eps) <= _q(enc.eps.hi) + slack
    assert _q(enc.delta.lo) <= delta <= _q(enc.delta.hi)


def _arb_ends_checked(lo: Fraction, hi: Fraction) -> tuple[Fraction, Fraction]:
    assert 0 < lo and hi - lo <= lo * Fraction(1, 10**60)
    return lo, hi


@covers("WRWR22:Cor3.7-Gamma")
@pytest.mark.parametrize(("eps", "s"), [
    (Fraction(10**300), Fraction(1)), (Fraction(1), Fraction(1)),
    # Tiny sensitivities: ln(1/delta) = 1e-300 dominates Gamma.  The inverse's solver once
    # saw delta rounded to 1 (a certificate a factor 2 wide at 1e-200, none at 1e-300);
    # inputs next to a domain end now get the extra bits that keep delta < 1.
    (Fraction(1), Fraction(1, 10**200)), (Fraction(1), _TINY)])
def test_gamma_next_to_delta_one(eps: Fraction, s: Fraction) -> None:
    """delta = 1 - 1e-300 (was ComplexResult in the certificate): the certified bracket
    [lo, hi] of Gamma is pinned by arb: psi^M(hi) <= eps <= psi^M(lo) (psi^M decreases),
    and it is narrow."""
    delta = 1 - _TINY
    cert = mixture_time(eps=eps, rho=_RHO, delta=delta, sensitivity=s)
    assert cert.holds
    lo, hi = _q(cert.lo), _q(cert.hi)
    assert _arb_mixture(hi, _RHO, delta, s)[1] <= eps <= _arb_mixture(lo, _RHO, delta, s)[0]
    assert hi - lo <= hi * Fraction(1, 10**40)
    assert lo <= _q(cert.value) <= hi



@covers("WRWR22:Thm3.6-mixture-optimal-rho")
@pytest.mark.parametrize("delta", [1 - _TINY, 1 - Fraction(1, 10**15), Fraction(5e-324)])
def test_optimal_rho_next_to_delta_edges(delta: Fraction) -> None:
    """delta = 1 - 1e-300 was a ComplexResult (ln(1/delta) from the lifted delta) and then
    r* ~ sqrt(2c) = 2e-150 needs r - log(1 + r) without cancellation.  Reference: mpmath's
    findroot of r - log1p(r) = 2 ln(1/delta) at 800 digits (cancels 150), from sqrt(2c)."""
    t, s = Fraction(20), Fraction("6.11")
    got = optimal_rho(t=t, delta=delta, sensitivity=s)
    enc = optimal_rho.certified(t=t, delta=delta, sensitivity=s)
    with mp.workdps(800):
        d = mp.mpf(delta.numerator) / delta.denominator
        c = -2 * mp.log(d)
        r = mp.findroot(lambda x: x - mp.log1p(x) - c, mp.sqrt(2 * c) if c < 1 else c)
        rho = 20 / r
        sm = mp.mpf(611) / 100
        psi = sm**2 / 40 + sm / 20 * mp.sqrt((20 + rho) * (mp.log1p(20 / rho) + c))
        for value, box, ref in ((got.rho, enc.rho, rho), (got.boundary, enc.boundary, psi)):
            assert box.lo <= ref <= box.hi
            assert box.hi - box.lo <= ref * mp.mpf(10) ** -45
            assert abs(value - ref) <= ref * mp.mpf(10) ** -48
