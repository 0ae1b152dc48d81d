"""Finite ground truth (RSWR23 §2): hockey-stick, privacy-loss distribution, Rényi.

Each property is checked against an independent route: brute force over all events of a
small support, the data-processing inequality, the loss distribution, chi-square.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.privacy_loss_support import TOL, at60, dist, mpq, pairs
from reference import DomainError, certified
from reference.results import covers
from reference.results.privacy_loss.rswr23 import hockey_stick, privacy_loss_distribution, renyi


@st.composite
def stochastic(draw: st.DrawFn, rows: int) -> list[list[Fraction]]:
    cols = draw(st.integers(1, 5))
    return [draw(dist(cols)) for _ in range(rows)]


# The hockey-stick divergence is defined at every real eps: draw both signs.
eps_st = st.fractions(-4, 4, max_denominator=64)


def brute_force_delta(P: list[Fraction], Q: list[Fraction], eps: Fraction) -> mpmath.mpf:
    """max over all events E of P(E) - e^eps Q(E), at 80 digits."""
    with mp.workdps(80):
        w = mp.exp(mpq(eps))
        best = mp.zero
        for r in range(1, len(P) + 1):
            for event in itertools.combinations(range(len(P)), r):
                p = mpq(sum((P[i] for i in event), Fraction(0)))
                best = max(best, p - w * mpq(sum((Q[i] for i in event), Fraction(0))))
        return best


def push(P: list[Fraction], F: list[list[Fraction]]) -> list[Fraction]:
    return [sum((P[i] * F[i][j] for i in range(len(P))), Fraction(0)) for j in range(len(F[0]))]


@covers("RSWR23:Def2.1")
@given(pairs(), eps_st)
@at60
def test_hockey_stick_is_the_worst_event(pq: tuple[list[Fraction], list[Fraction]],
                                         eps: Fraction) -> None:
    P, Q = pq
    exact = brute_force_delta(P, Q, eps)
    assert abs(hockey_stick(P=P, Q=Q, eps=eps) - exact) <= TOL
    enc = hockey_stick.certified(P=P, Q=Q, eps=eps)
    with mp.workdps(80):
        assert enc.lo - mpmath.mpf("1e-70") <= exact <= enc.hi + mpmath.mpf("1e-70")
        assert enc.hi - enc.lo <= mpmath.mpf("1e-50")


@covers("RSWR23:Def2.1")
@given(pairs(), eps_st, eps_st)
@at60
def test_hockey_stick_non_increasing_in_eps(pq: tuple[list[Fraction], list[Fraction]],
                                            e1: Fraction, e2: Fraction) -> None:
    P, Q = pq
    lo, hi = sorted((e1, e2))
    assert hockey_stick(P=P, Q=Q, eps=hi) <= hockey_stick(P=P, Q=Q, eps=lo) + TOL
    assert hockey_stick(P=P, Q=Q, eps=0) <= 1 + TOL


@covers("RSWR23:Def2.1")
@given(pairs(), eps_st, st.data())
@at60
def test_hockey_stick_data_processing(pq: tuple[list[Fraction], list[Fraction]], eps: Fraction,
                                      data: st.DataObject) -> None:
    P, Q = pq
    F = data.draw(stochastic(len(P)))
    assert (hockey_stick(P=push(P, F), Q=push(Q, F), eps=eps)
            <= hockey_stick(P=P, Q=Q, eps=eps) + TOL)


@covers("RSWR23:Def2.1")
@given(pairs())
@at60
def test_hockey_stick_at_zero_is_total_variation(pq: tuple[list[Fraction], list[Fraction]]) -> None:
    P, Q = pq
    tv = sum((abs(p - q) for p, q in zip(P, Q, strict=True)), Fraction(0)) / 2
    assert abs(hockey_stick(P=P, Q=Q, eps=0) - mpq(tv)) <= TOL
    assert hockey_stick(P=P, Q=P, eps=0) == 0


@covers("RSWR23:Def2.1", "RSWR23:Def2.3")
@given(pairs(), eps_st)
@at60
def test_hockey_stick_from_the_loss_distribution(pq: tuple[list[Fraction], list[Fraction]],
                                                 eps: Fraction) -> None:
    # delta(eps) = E_P[(1 - e^(eps - L))_+], the privacy-loss form (lecture notes N10).
    P, Q = pq
    pld = privacy_loss_distribution(P=P, Q=Q)
    with mp.workdps(50):
        via_loss = mp.fsum(prob * max(mp.zero, 1 - mp.exp(mpq(eps) - ell))
                           for ell, prob in zip(pld.losses, pld.probs, strict=True))
    assert abs(via_loss - hockey_stick(P=P, Q=Q, eps=eps)) <= TOL


@covers("RSWR23:Def2.3")
@given(pairs())
@at60
def test_loss_distribution_masses(pq: tuple[list[Fraction], list[Fraction]]) -> None:
    P, Q = pq
    pld = privacy_loss_distribution(P=P, Q=Q)
    assert len(pld.losses) == sum(1 for p in P if p > 0)
    assert abs(mp.fsum(pld.probs) - 1) <= TOL
    # E_P[e^-L] = sum_{p > 0} q: the Q-mass on the support of P (e^-inf = 0).
    with mp.workdps(50):
        tilted = mp.fsum(prob * mp.exp(-ell) for ell, prob in zip(pld.losses, pld.probs,
                                                                   strict=True))
    q_on_support = sum((q for p, q in zip(P, Q, strict=True) if p > 0), Fraction(0))
    assert abs(tilted - mpq(q_on_support)) <= TOL
    inf_mass = sum((p for p, q in zip(P, Q, strict=True) if p > 0 and q == 0), Fraction(0))
    assert abs(mp.fsum(pr for ell, pr in zip(pld.losses, pld.probs, strict=True)
                       if ell == mp.inf) - mpq(inf_mass)) <= TOL


@covers("RSWR23:Def2.3")
@at60
def test_loss_distribution_certified_and_infinite_atoms() -> None:
    enc = privacy_loss_distribution.certified(P="0.5,0.25,0.25,0", Q="0.25,0.5,0,0.25")
    assert [str(x) for x in enc.probs] == ["[0.5, 0.5]", "[0.25, 0.25]", "[0.25, 0.25]"]
    log2 = mpmath.log(2)
    assert log2 in enc.losses[0] and -log2 in enc.losses[1]
    assert enc.losses[2].lo == mp.inf


@covers("RSWR23:Renyi")
@given(pairs(), st.fractions(1, 6, max_denominator=32), st.fractions(1, 6, max_denominator=32))
@at60
def test_renyi_non_decreasing_and_nonnegative(pq: tuple[list[Fraction], list[Fraction]],
                                              a1: Fraction, a2: Fraction) -> None:
    P, Q = pq
    lo, hi = sorted((a1, a2))
    d_lo, d_hi = renyi(P=P, Q=Q, alpha=lo), renyi(P=P, Q=Q, alpha=hi)
    assert d_lo >= -TOL
    assert d_lo <= d_hi + TOL or d_lo == d_hi == mp.inf
    # Bounded by D_inf = max log(p/q).
    d_inf = max(mp.log(mpq(p) / mpq(q)) if q else mp.inf for p, q in zip(P, Q, strict=True)
                if p > 0)
    assert d_hi <= d_inf + TOL


@covers("RSWR23:Renyi")
@given(pairs())
@at60
def test_renyi_kl_limit_and_chi_square(pq: tuple[list[Fraction], list[Fraction]]) -> None:
    P, Q = pq
    kl = renyi(P=P, Q=Q, alpha=1)
    if any(p > 0 and q == 0 for p, q in zip(P, Q, strict=True)):
        assert kl == mp.inf and renyi(P=P, Q=Q, alpha=2) == mp.inf
        return
    h = Fraction(1, 10**12)
    near = renyi(P=P, Q=Q, alpha=1 + h)
    assert kl <= near + TOL
    assert near - kl <= mpmath.mpf(10) ** -9
    # D_2 = log(1 + chi^2), chi^2 = sum (p - q)^2 / q.
    chi2 = sum(((p - q) ** 2 / q for p, q in zip(P, Q, strict=True) if q > 0), Fraction(0))
    assert abs(renyi(P=P, Q=Q, alpha=2) - mp.log(1 + mpq(chi2))) <= TOL
    assert renyi(P=P, Q=P, alpha=3) == 0 and renyi(P=P, Q=P, alpha=1) == 0


@covers("RSWR23:Renyi")
@given(pairs(), st.fractions(1, 5, max_denominator=16), st.data())
@at60
def test_renyi_data_processing(pq: tuple[list[Fraction], list[Fraction]], alpha: Fraction,
                               data: st.DataObject) -> None:
    P, Q = pq
    F = data.draw(stochastic(len(P)))
    before = renyi(P=P, Q=Q, alpha=alpha)
    after = renyi(P=push(P, F), Q=push(Q, F), alpha=alpha)
    assert after <= before + TOL or before == mp.inf


@covers("RSWR23:Renyi")
@at60
def test_renyi_certified_encloses_hand_values() -> None:
    enc = renyi.certified(P="0.5,0.5", Q="0.25,0.75", alpha=2)
    enc1 = renyi.certified(P="0.5,0.5", Q="0.25,0.75", alpha=1)
    with mp.workdps(200):  # the references far more precise than the enclosures
        assert mpmath.log(mpmath.mpf(4) / 3) in enc
        assert mpmath.log(mpmath.mpf(4) / 3) / 2 in enc1
    assert renyi.certified(P="1,0", Q="0,1", alpha=2).lo == mp.inf


@covers("RSWR23:Def2.1", "RSWR23:Def2.3", "RSWR23:Renyi")
@pytest.mark.parametrize(("kwargs", "param"), [
    ({"P": "0.5,0.5", "Q": "1", "eps": 0}, "Q"),
    ({"P": "0.5,0.6", "Q": "0.5,0.5", "eps": 0}, "P"),
    ({"P": "1.5,-0.5", "Q": "0.5,0.5", "eps": 0}, "P"),
    ({"P": "0.5,0.5", "Q": "0.5,0.5", "eps": float("nan")}, "eps"),
    ({"P": "0.5,0.5", "Q": "0.5,0.5", "eps": float("inf")}, "eps"),
    ({"P": "0.5,0.5", "Q": "0.5,0.5", "eps": "-inf"}, "eps"),
])
@at60
def test_bad_input_is_a_domain_error(kwargs: dict[str, object], param: str) -> None:
    with pytest.raises(DomainError) as err:
        hockey_stick(**kwargs)
    assert err.value.param == param
    for bad in ("0.5", "-inf", float("-inf"), float("nan"), "1/0", "infinite"):
        with pytest.raises(DomainError) as info:
            renyi(P="0.5,0.5", Q="0.5,0.5", alpha=bad)
        assert "must be >= 1 or inf" in str(info.value)
    with pytest.raises(DomainError):
        privacy_loss_distribution(P="0.5,0.5", Q="0.2,0.3,0.5")


# ---- regression: D_alpha(P || P) is exactly 0 (the mass defect sum(P) - 1 is exact) ----

# The first two gave -6.7e-52 at alpha = 3 before the fix (found by random search).
LAWS = [[Fraction(w, 1552) for w in (820, 334, 88, 310)],
        [Fraction(w, 921) for w in (259, 652, 10)],
        ["1/3", "1/3", "1/3"], ["0.1", "0.7", "0.2"], [Fraction(1, 7)] * 7,
        ["1e-300", "0.5", str(Fraction(1, 2) - Fraction(1, 10**300))]]


@covers("RSWR23:Renyi")
@pytest.mark.parametrize("P", LAWS)
@pytest.mark.parametrize("alpha", [1, "1.000000000001", 2, 3, "7.5"])
def test_divergence_from_itself_is_exactly_zero(P: list[object], alpha: object) -> None:
    assert renyi(P=P, Q=P, alpha=alpha) == 0
    enc = certified(renyi, P=P, Q=P, alpha=alpha)
    assert enc.lo <= 0 <= enc.hi


@covers("RSWR23:Renyi")
def test_float_masses_are_read_as_the_distribution_they_describe() -> None:
    """Binary floats summing to 1 - 2^-53 are divided by their exact total (see
    ``MASS_TOLERANCE``): D(P||P) is exactly 0, and D(P||Q) is that of the normalised laws,
    computed here in exact rationals at an integer order (exp((a-1) D) = sum p^a q^(1-a))."""
    P, Q = [0.1, 0.2, 0.7], [0.25, 0.25, 0.5]
    total = sum((Fraction(p) for p in P), Fraction(0))
    assert total != 1
    assert renyi(P=P, Q=P, alpha=3) == 0
    enc = certified(renyi, P=P, Q=P, alpha=3)
    assert enc.lo == enc.hi == 0
    norm = [Fraction(p) / total for p in P]
    qs = [Fraction(q) for q in Q]
    moment = sum((p**3 / q**2 for p, q in zip(norm, qs, strict=True)), Fraction(0))
    got, enc = renyi(P=P, Q=Q, alpha=3), certified(renyi, P=P, Q=Q, alpha=3)
    with mp.workdps(200):
        expected = mp.log(mp.mpf(moment.numerator) / moment.denominator) / 2
        assert enc.lo <= expected <= enc.hi
        assert enc.hi - enc.lo <= abs(expected) * mp.mpf(10) ** -45
        assert abs(got - expected) <= abs(expected) * mp.mpf(10) ** -48
        unnormalised = sum((Fraction(p)**3 / q**2 for p, q in zip(P, qs, strict=True)),
                           Fraction(0))
        other = mp.log(mp.mpf(unnormalised.numerator) / unnormalised.denominator) / 2
        assert not enc.lo <= other <= enc.hi      # the raw masses would give another value
