"""LEC11 privacy-loss examples (N11-N18) against independent routes.

The Gaussian loss law is checked by numerical integration of the log-density ratio,
its tail by scipy from the noise's own law, the RR expected loss by the KL divergence
of the RR pair, and the Name & Shame / LRR pairs by exact divergences.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp
from scipy import integrate, stats

from proofs_tests.privacy_loss_support import TOL, at60, mpq
from reference import DomainError
from reference.results import covers, errata
from reference.results.privacy_loss.lec11 import (
    gaussian_loss_law,
    gaussian_loss_tail,
    leaky_rr,
    name_and_shame,
    notes_gaussian_sigma,
    rr_expected_loss,
)
from reference.results.privacy_loss.rruv16 import pointwise_delta, randomized_response
from reference.results.privacy_loss.rswr23 import hockey_stick, privacy_loss_distribution, renyi

EX1_FACTOR = 4 * (2 - math.sqrt(2))


def _verify(eid: str) -> None:
    (entry,) = [e for e in errata() if e.id == eid]
    check = entry.verify()
    assert check.confirmed, check.detail


sigma_st = st.fractions(Fraction(3, 10), 5, max_denominator=20)
sens_st = st.fractions(Fraction(1, 10), 3, max_denominator=20)


@covers("LEC11:GaussLoss")
@given(sigma_st, sens_st)
def test_gaussian_loss_law_by_integration(sigma: Fraction, sens: Fraction) -> None:
    # Y ~ N(0, sigma^2) (output on x), neighbour mean Delta; integrate the log-density ratio.
    law = gaussian_loss_law(sigma=sigma, sensitivity=sens)
    s, d = float(sigma), float(sens)

    def logpdf(y: float, m: float) -> float:
        return -((y - m) ** 2) / (2 * s * s) - math.log(s * math.sqrt(2 * math.pi))

    def loss(y: float) -> float:
        return logpdf(y, 0) - logpdf(y, d)

    def moment(k: int) -> float:
        value, _ = integrate.quad(lambda y: loss(y) ** k * math.exp(logpdf(y, 0)),
                                  -40 * s, 40 * s, points=[0.0], epsabs=0, epsrel=1e-12,
                                  limit=200)
        return float(value)

    mean = moment(1)
    assert math.isclose(float(law.mean), mean, rel_tol=1e-9)
    assert math.isclose(float(law.variance), moment(2) - mean**2, rel_tol=1e-9)


@covers("LEC11:GaussLoss")
@pytest.mark.parametrize(("sigma", "sens"), [("0.7", "1"), ("3", "0.5")])
def test_gaussian_loss_law_by_high_precision_integration(sigma: str, sens: str) -> None:
    law = gaussian_loss_law(sigma=sigma, sensitivity=sens)
    with mp.workdps(30):
        s, d = mp.mpf(sigma), mp.mpf(sens)

        def loss(y: mpmath.mpf) -> mpmath.mpf:
            return mpmath.log(mpmath.npdf(y, 0, s) / mpmath.npdf(y, d, s))

        def moment(k: int) -> mpmath.mpf:
            return mpmath.quad(lambda y: loss(y) ** k * mpmath.npdf(y, 0, s), [-mp.inf, 0, mp.inf])

        mean = moment(1)
        var = moment(2) - mean**2
        assert abs(law.mean - mean) <= mpmath.mpf("1e-20") * (1 + mean)
        assert abs(law.variance - var) <= mpmath.mpf("1e-18") * (1 + var)


@covers("LEC11:GaussLoss")
@given(sigma_st, sigma_st)
@at60
def test_gaussian_loss_law_monotone_and_renyi_consistent(s1: Fraction, s2: Fraction) -> None:
    lo, hi = sorted((s1, s2))
    # More noise, less loss: mean and variance decrease in sigma.
    assert gaussian_loss_law(sigma=hi).mean <= gaussian_loss_law(sigma=lo).mean
    assert gaussian_loss_law(sigma=hi).variance <= gaussian_loss_law(sigma=lo).variance
    # The mean is the KL divergence alpha (Delta^2/(2 sigma^2)) of RSWR23 §2.1 at alpha = 1,
    # so variance = 2 mean, as for any Gaussian-loss (zCDP-tight) mechanism.
    law = gaussian_loss_law(sigma=lo, sensitivity=2)
    assert abs(law.variance - 2 * law.mean) <= TOL
    assert gaussian_loss_law(sigma=lo, sensitivity=0) == (0, 0)


@covers("LEC11:GaussTail")
@given(sigma_st, st.fractions(0, 6, max_denominator=20), sens_st)
def test_gaussian_tail_against_scipy(sigma: Fraction, eps: Fraction, sens: Fraction) -> None:
    # I > eps  iff  Z < (Delta^2 - 2 sigma^2 eps) / (2 Delta)  with Z ~ N(0, sigma^2).
    s, e, d = float(sigma), float(eps), float(sens)
    expected = stats.norm.cdf((d * d - 2 * s * s * e) / (2 * d), scale=s)
    value = gaussian_loss_tail(sigma=sigma, eps=eps, sensitivity=sens)
    assert math.isclose(float(value), expected, rel_tol=1e-9, abs_tol=1e-300)
    enc = gaussian_loss_tail.certified(sigma=sigma, eps=eps, sensitivity=sens)
    with mp.workdps(60):
        assert enc.lo - TOL * value <= value <= enc.hi + TOL * value
        assert enc.hi - enc.lo <= mpmath.mpf("1e-45") * value


@covers("LEC11:GaussTail")
@given(sigma_st, sigma_st, st.fractions(0, 6, max_denominator=20),
       st.fractions(0, 6, max_denominator=20))
@at60
def test_gaussian_tail_monotone(s1: Fraction, s2: Fraction, e1: Fraction, e2: Fraction) -> None:
    slo, shi = sorted((s1, s2))
    elo, ehi = sorted((e1, e2))
    assert gaussian_loss_tail(sigma=slo, eps=ehi) <= gaussian_loss_tail(sigma=slo, eps=elo)
    assert gaussian_loss_tail(sigma=shi, eps=elo) <= gaussian_loss_tail(sigma=slo, eps=elo)
    # N10: the exact delta E[(1 - e^(eps - I))_+] (by integration) is below P[I > eps].
    with mp.workdps(20):
        s = mpq(slo)
        mu, sd = 1 / (2 * s * s), 1 / s
        exact = mpmath.quad(lambda t: (1 - mpmath.exp(mpq(elo) - t)) * mpmath.npdf(t, mu, sd),
                            [mpq(elo), mp.inf])
    assert exact <= gaussian_loss_tail(sigma=slo, eps=elo) * (1 + mpmath.mpf("1e-15"))


@covers("LEC11:Ex1", "LEC11:GaussTail")
@given(st.floats(1e-12, 0.99), st.floats(1e-3, 0.999))
@at60
def test_notes_sigma_suffices_in_its_range(delta: float, u: float) -> None:
    eps = u * EX1_FACTOR * math.log(1 / delta)
    sigma = notes_gaussian_sigma(eps=eps, delta=delta)
    assert gaussian_loss_tail(sigma=sigma, eps=eps) <= mpq(Fraction(delta))
    with pytest.raises(DomainError):
        notes_gaussian_sigma(eps=eps / u * 1.001, delta=delta)


@covers("LEC11:Ex1")
@at60
def test_notes_sigma_pinned_and_boundary() -> None:
    # Lecture notes N13 (recomputed independently): sigma = 7.434, P[I > 1] = 8.8e-14 at (1, 1e-6)
    sigma = notes_gaussian_sigma(eps=1, delta="1e-6")
    assert mpmath.nstr(sigma, 4) == "7.434"
    assert mpmath.nstr(gaussian_loss_tail(sigma=sigma, eps=1), 2) == "8.8e-14"
    # "eps <= 1, delta <= 0.65" lies inside the condition; delta = 0.66 at eps = 1 does not.
    notes_gaussian_sigma(eps=1, delta="0.65")
    with pytest.raises(DomainError):
        notes_gaussian_sigma(eps=1, delta="0.66")
    with pytest.raises(DomainError):
        notes_gaussian_sigma(eps=0, delta="0.5")
    _verify("LEC11:N13")


@covers("LEC11:RRLoss")
@given(st.fractions(0, 12, max_denominator=50))
@at60
def test_rr_expected_loss_is_the_kl_of_rr(eps: Fraction) -> None:
    rr = randomized_response(eps=eps, delta=0)
    value = rr_expected_loss(eps=eps)
    assert abs(value - renyi(P=rr.P, Q=rr.Q, alpha=1)) <= TOL * (1 + value)
    pld = privacy_loss_distribution(P=rr.P, Q=rr.Q)
    by_atoms = mp.fsum(p * ell for p, ell in zip(pld.probs, pld.losses, strict=True))
    assert abs(value - by_atoms) <= TOL * (1 + value)
    assert value <= mpq(eps) ** 2 / 2 + TOL
    assert value <= mpq(eps)


@covers("LEC11:RRLoss")
@at60
def test_rr_expected_loss_small_eps() -> None:
    ratios = [rr_expected_loss(eps=Fraction(1, 10**k)) / (mp.mpf(10) ** (-2 * k) / 2)
              for k in (1, 3, 6)]
    assert ratios[0] < ratios[1] < ratios[2] <= 1
    assert 1 - ratios[2] <= mpmath.mpf("1e-12")
    assert mpmath.nstr(rr_expected_loss(eps="0.1"), 5) == "0.0049958"
    _verify("LEC11:N14")


def _indistinguishable(P: tuple[Any, ...], Q: tuple[Any, ...], eps: Any) -> mpmath.mpf:
    return max(hockey_stick(P=P, Q=Q, eps=eps), hockey_stick(P=Q, Q=P, eps=eps))


@covers("LEC11:NameShame")
@given(st.fractions(0, 1, max_denominator=1000), st.fractions(0, 10, max_denominator=20))
@at60
def test_name_and_shame_is_zero_delta(delta: Fraction, eps: Fraction) -> None:
    pair = name_and_shame(delta=delta)
    assert pair.labels == ("0", "1", "bot")
    assert abs(mp.fsum(pair.P) - 1) <= TOL and abs(mp.fsum(pair.Q) - 1) <= TOL
    assert abs(_indistinguishable(pair.P, pair.Q, eps) - mpq(delta)) <= TOL
    assert abs(pointwise_delta(P=pair.P, Q=pair.Q, eps=eps) - mpq(delta)) <= TOL
    pld = privacy_loss_distribution(P=pair.P, Q=pair.Q)
    if 0 < delta < 1:
        assert pld.losses == (mp.inf, 0) and abs(pld.probs[0] - mpq(delta)) <= TOL


@covers("LEC11:LRR")
@given(st.fractions(0, 5, max_denominator=100), st.fractions(0, 1, max_denominator=1000),
       st.fractions(0, Fraction(99, 100), max_denominator=100))
@at60
def test_leaky_rr_is_exactly_eps_delta(eps: Fraction, delta: Fraction, shrink: Fraction) -> None:
    pair = leaky_rr(eps=eps, delta=delta)
    assert pair.labels == ("0", "1", "U", "V")
    assert abs(mp.fsum(pair.P) - 1) <= TOL and abs(mp.fsum(pair.Q) - 1) <= TOL
    assert abs(hockey_stick(P=pair.P, Q=pair.Q, eps=eps) - mpq(delta)) <= TOL
    assert abs(hockey_stick(P=pair.Q, Q=pair.P, eps=eps) - mpq(delta)) <= TOL
    if eps > 0 and delta < 1:
        assert _indistinguishable(pair.P, pair.Q, eps * shrink) > mpq(delta) + mpmath.mpf("1e-30")
    # The same pair as RRUV16's RR_{eps, delta} after relabelling (0, 1, U, V) -> (T, B, 0, 1).
    rr = randomized_response(eps=eps, delta=delta)
    assert pair.P == (rr.P[1], rr.P[2], rr.P[0], rr.P[3])
    assert pair.Q == (rr.Q[1], rr.Q[2], rr.Q[0], rr.Q[3])


@covers("LEC11:NameShame", "LEC11:LRR", "LEC11:GaussTail", "LEC11:GaussLoss")
def test_loss_domains() -> None:
    with pytest.raises(DomainError):
        name_and_shame(delta="1.5")
    with pytest.raises(DomainError):
        leaky_rr(eps=-1, delta="0.1")
    with pytest.raises(DomainError):
        gaussian_loss_tail(sigma=0, eps=1)
    with pytest.raises(DomainError):
        gaussian_loss_tail(sigma=1, eps=1, sensitivity=0)
    with pytest.raises(DomainError):
        gaussian_loss_law(sigma=-1)


@covers("RSWR23:Def2.3")
def test_composition_prefix_erratum() -> None:
    # N11: with the prefix y_(1:j-1) the chain rule gives the joint law; the printed
    # y_(1:j-2) does not (exact two-round adaptive example, losses via RSWR23:Def2.3).
    _verify("LEC11:N11")
