"""Property tests of Skellam noise reduction (WRWR22 §4).

Independent routes: scipy's Skellam densities, Poisson convolutions, moments, and
whole-path likelihoods built from independent Skellam increments.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp
from scipy import stats

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.noise_reduction.skellam import skellam_path_loss, skellam_pmf
from reference.sim.skellam_paths import skellam_paths


@covers("WRWR22:Sec4-Skellam")
@given(k=st.integers(-25, 25), t=st.floats(0.1, 10), l1=st.floats(0.05, 4),
       l2=st.floats(0.05, 4))
def test_skellam_pmf_against_scipy_and_poisson_convolution(k: int, t: float, l1: float,
                                                            l2: float) -> None:
    m1, m2 = t * l1, t * l2
    value = skellam_pmf(k=k, t=t, lam1=l1, lam2=l2)
    ref = float(stats.skellam.pmf(k, m1, m2))
    assert abs(float(value) - ref) <= 1e-9 * ref + 1e-300
    with mp.workdps(40):
        m1, m2 = mp.mpf(t) * mp.mpf(l1), mp.mpf(t) * mp.mpf(l2)     # exact products
        conv = mp.fsum(mp.exp(-m1 - m2) * m1 ** (j + k) * m2**j
                       / (mp.factorial(j + k) * mp.factorial(j)) for j in range(max(0, -k), 300))
        assert abs(value - conv) <= mp.mpf(10) ** -30 * (1 + conv)


@covers("WRWR22:Sec4-Skellam")
def test_skellam_pmf_moments_enclosure_and_domain() -> None:
    t, l1, l2 = Fraction(3, 2), Fraction(3, 2), Fraction(4, 5)
    with mp.workdps(30):
        p = {k: skellam_pmf(k=k, t=t, lam1=l1, lam2=l2) for k in range(-40, 60)}
        mass = mp.fsum(p.values())
        mean = mp.fsum(k * v for k, v in p.items())
        var = mp.fsum(k * k * v for k, v in p.items()) - mean**2
        assert abs(mass - 1) < mp.mpf(10) ** -20
        assert abs(mean - t * (l1 - l2)) < mp.mpf(10) ** -18
        assert abs(var - t * (l1 + l2)) < mp.mpf(10) ** -18
    enc = skellam_pmf.certified(k=-3, t=1000, lam1=1, lam2="0.9")
    point = skellam_pmf(k=-3, t=1000, lam1=1, lam2="0.9")
    with mp.workdps(70):
        slack = mp.mpf(10) ** -45 * point
        assert enc.lo - slack <= point <= enc.hi + slack
        assert enc.hi - enc.lo < mp.mpf(10) ** -45 * enc.hi
    with pytest.raises(DomainError, match="lam1"):
        skellam_pmf(k=0, t=2000, lam1=1, lam2=1)


@covers("WRWR22:Sec4-Skellam-NR")
@given(n=st.integers(1, 4), seed=st.integers(0, 2**32 - 1), fx=st.integers(-3, 3),
       fxp=st.integers(-3, 3))
def test_skellam_path_loss_equals_joint_pmf_ratio(n: int, seed: int, fx: int, fxp: int) -> None:
    """Joint pmf of the released path from independent Skellam increments (scipy) under f
    and f': the ratio is the registered last-release formula."""
    gen = np.random.default_rng(seed)
    times = np.sort(gen.uniform(0.3, 4, n))[::-1]
    lam1, lam2 = 1.2, 0.7
    y = fx + skellam_paths(times, 1, gen, lam1, lam2)[0]

    def joint(f: int) -> float:
        total = float(stats.skellam.logpmf(y[-1] - f, times[-1] * lam1, times[-1] * lam2))
        for k in range(n - 1):
            dt = times[k] - times[k + 1]
            total += float(stats.skellam.logpmf(y[k] - y[k + 1], dt * lam1, dt * lam2))
        return total

    value = skellam_path_loss(times=times, y=[int(v) for v in y], fx=fx, fxp=fxp,
                              lam1=lam1, lam2=lam2)
    assert abs(float(value) - (joint(fx) - joint(fxp))) < 1e-8
    with pytest.raises(DomainError, match="integer"):
        skellam_path_loss(times=times, y=[int(v) for v in y], fx=0.5, fxp=0, lam1=1, lam2=1)


def _arb_log_pmf(k: int, m1: Fraction, m2: Fraction) -> object:
    """log P[Skell(m1, m2) = k] in arb from the normalised series: for k >= 0,
    k log m1 - lgamma(k + 1) - m1 - m2 + log sum_j (m1 m2)^j k! / ((j + k)! j!)."""
    import flint

    if k < 0:
        k, m1, m2 = -k, m2, m1
    a1 = flint.arb(m1.numerator) / m1.denominator
    a2 = flint.arb(m2.numerator) / m2.denominator
    total, term, j = flint.arb(1), flint.arb(1), 0
    while True:
        term = term * a1 * a2 / ((j + k + 1) * (j + 1))
        total += term
        j += 1
        if j > 2 * (a1 * a2).sqrt().upper() + 5 and term < flint.arb(2) ** -800:
            break
    return k * a1.log() - flint.arb(k + 1).lgamma() + total.log() - a1 - a2


@covers("WRWR22:Sec4-Skellam-NR")
@pytest.mark.parametrize("y_last", [5, 10**6, 10**30, -10**30, 10**300, 10**400, -10**400])
@pytest.mark.parametrize(("fx", "fxp"), [(3, 0), (0, -1), (-7, 2)])
def test_skellam_path_loss_tight_at_huge_releases(y_last: int, fx: int, fxp: int) -> None:
    """Regression: at |y_n - f| ~ 1e30 each log-pmf is ~ -7e31, and the loss (their
    difference, ~ 200) was enclosed only to 2.5e-29 (the mean's rounding amplified by
    m^|k|); beyond the doubles' range (1e400) the series' float estimate overflowed.  Now
    the enclosure holds the arb value (600 bits and twice the release's, its own series)
    and is as narrow as the working precision warrants; the plain value agrees to 1e-45
    relative."""
    import flint

    from proofs_tests.arb_support import arb_ends, frac

    times, lam1, lam2 = "14.5,0.74", "0.9999999999999999", "2"
    m1, m2 = Fraction("0.74") * Fraction(lam1), Fraction("0.74") * Fraction(lam2)
    old = flint.ctx.prec
    flint.ctx.prec = 2 * max(abs(y_last), 10**300).bit_length() + 600
    try:
        lo, hi = arb_ends(_arb_log_pmf(y_last - fx, m1, m2) - _arb_log_pmf(y_last - fxp, m1, m2))
    finally:
        flint.ctx.prec = old
    args = {"times": times, "y": f"0,{y_last}", "fx": fx, "fxp": fxp, "lam1": lam1,
            "lam2": lam2}
    enc = skellam_path_loss.certified(**args)
    e_lo, e_hi = frac(enc.lo), frac(enc.hi)
    assert e_lo <= lo and hi <= e_hi
    scale = max(abs(lo), 1)
    assert e_hi - e_lo <= scale * Fraction(1, 10**50)
    assert abs(frac(skellam_path_loss(**args)) - lo) <= scale * Fraction(1, 10**45)


@covers("WRWR22:Sec4-Skellam-NR")
@pytest.mark.parametrize("y_last", [10**30, -10**30])
def test_skellam_path_loss_with_offsets_of_different_sizes(y_last: int) -> None:
    """f(x) = y_n (offset 0) and f(x') = 0 (offset 1e30), which the test above (offsets
    always close) does not reach: the loss is then itself about 7e31, enclosed around the
    arb value and tight.  (Guard bits from the smaller offset instead of the larger pass
    this too: a log-pmf's error is about |k| 2^-(prec + guard), and offsets of very
    different sizes make the loss as large as the larger one; see the equivalents list.)"""
    import flint

    from proofs_tests.arb_support import arb_ends, frac

    m1, m2 = Fraction("0.74") * Fraction("0.9999999999999999"), Fraction("0.74") * 2
    old = flint.ctx.prec
    flint.ctx.prec = 2 * (10**30).bit_length() + 600
    try:
        lo, hi = arb_ends(_arb_log_pmf(0, m1, m2) - _arb_log_pmf(y_last, m1, m2))
    finally:
        flint.ctx.prec = old
    args = {"times": "14.5,0.74", "y": f"0,{y_last}", "fx": y_last, "fxp": 0,
            "lam1": "0.9999999999999999", "lam2": "2"}
    enc = skellam_path_loss.certified(**args)
    e_lo, e_hi = frac(enc.lo), frac(enc.hi)
    assert e_lo <= lo and hi <= e_hi
    assert e_hi - e_lo <= abs(lo) * Fraction(1, 10**50)
    assert abs(frac(skellam_path_loss(**args)) - lo) <= abs(lo) * Fraction(1, 10**45)
