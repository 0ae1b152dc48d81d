"""RRUV16's odometers pinned: which results are probabilistic (from their statements), the
domain ends, and the errata checks of §6 (``confirmed`` and every number in ``detail``),
each against an independent route: the formulas written out here in mpmath at 50 digits,
closed forms (tanh, sech), or a power series.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from mpmath import mp

from reference import DomainError
from reference.core.model import Result
from reference.results import covers
from reference.results.odometers import rruv16


@covers("RRUV16:Lem6.4", "RRUV16:Thm6.5")
def test_probabilistic_flags() -> None:
    """Both odometers bound |Loss| except on an event of probability delta_g (a
    concentration bound: Theorem 4.4 for Lemma 6.4, with a union bound over the dyadic
    windows for Theorem 6.5), so both are probabilistic; Theorem 6.1 is a statement about
    the same crossing event (its probability exceeds delta_g at the order of (7))."""
    found = {v.id: v.probabilistic for v in vars(rruv16).values()
             if isinstance(v, Result) and v.core.__module__ == rruv16.__name__}
    assert found == {"RRUV16:Lem6.4": True, "RRUV16:Thm6.5": True, "RRUV16:Thm6.1": True}


def _check(name: str) -> tuple[bool, str]:
    chk = getattr(rruv16, name).verify()
    return chk.confirmed, chk.detail


def _sqrt_term(S: object, x: object, log_arg: object) -> object:
    """``sqrt(2 (S + x)(1 + log(S/x + 1)/2) log(log_arg))``, the square root of (6)/(12)."""
    return mp.sqrt(2 * (S + x) * (1 + mp.log(S / x + 1) / 2) * mp.log(log_arg))


@covers("RRUV16:Thm6.5")
def test_smallest_dataset() -> None:
    """n = 2 is the smallest n (log n > 0); n = 1 is refused.  At n = 2, 1/n^2 = 1/4:
    eps = (1/2) has S = 1/4, the inclusive lower end of (11), and eps = (1/4, 1/4) has
    S = 1/8 < 1/4, branch (12) with x = 1/4 and log(4 log2(2)/delta_g) = log(80)."""
    with pytest.raises(DomainError):
        rruv16.advanced_odometer(eps=["0.5"], n=1, delta_g="0.05")
    with mp.workdps(60):
        h = mp.mpf(1) / 2
        v11 = h * (mp.exp(h) - 1) / 2 + mp.sqrt(2 * h * h * (
            mp.log(110) + 1 + 2 * mp.log(mp.log(2) * 20)))
        q = h / 2
        v12 = 2 * q * (mp.exp(q) - 1) / 2 + _sqrt_term(2 * q * q, q, 80)
    a = rruv16.advanced_odometer(eps=["0.5"], n=2, delta_g="0.05")
    b = rruv16.advanced_odometer(eps=["0.25", "0.25"], n=2, delta_g="0.05")
    assert (a.branch, b.branch) == (11, 12)
    # the plain values carry 50 digits: pinned to 1e-45, not only to double precision
    assert abs(a.value - v11) < mp.mpf(10) ** -45 * v11
    assert abs(b.value - v12) < mp.mpf(10) ** -45 * v12


@covers("RRUV16:Thm6.5")
def test_upper_end_of_branch_11() -> None:
    """S = 1 is the inclusive upper end of (11); 10^-30 above it is (12).  n = 2,
    delta_g = 0.05: eps = (1) gives (e - 1)/2 + sqrt(2 (log 110 + 1 + 2 log(20 log 2)));
    eps = (1 + 10^-30) gives its drift plus sqrt(2 (1/4 + S)(1 + log(1 + 4 S)/2) log 80)."""
    with mp.workdps(60):
        v11 = (mp.e - 1) / 2 + mp.sqrt(2 * (mp.log(110) + 1 + 2 * mp.log(20 * mp.log(2))))
        e = 1 + mp.mpf(10) ** -30
        v12 = e * (mp.exp(e) - 1) / 2 + _sqrt_term(e * e, mp.mpf(1) / 4, 80)
        a = rruv16.advanced_odometer(eps=["1"], n=2, delta_g="0.05")
        b = rruv16.advanced_odometer(eps=[1 + Fraction(1, 10**30)], n=2, delta_g="0.05")
        assert (a.branch, b.branch) == (11, 12)
        assert abs(a.value - v11) < mp.mpf(10) ** -45 * v11
        assert abs(b.value - v12) < mp.mpf(10) ** -45 * v12


@covers("RRUV16:Thm6.5")
def test_heuristic_value_pinned() -> None:
    """The rejected heuristic sum eps(e^eps - 1) + sqrt(2 S log(1/delta_g)) from its sums:
    drift 1/4 (so 2 drift = 1/2), S = 1/2, delta_g = e^-2 give 1/2 + sqrt(2)."""
    with mp.workdps(50):
        got = rruv16.heuristic_value(mp, mp.mpf(1) / 4, mp.mpf(1) / 2, mp.exp(-2))
        assert abs(got - (mp.mpf(1) / 2 + mp.sqrt(2))) < mp.mpf(10) ** -45


@covers("RRUV16:Thm6.5")
def test_proof_12_check_pinned() -> None:
    """200 rounds of 0.1 (S = 2 > 1: branch (12)), n = 10^4, delta_g = 1e-3: (12) written
    out with x = 1/n^2 and log(4 log2(n)/delta_g); the proof's display has 2 log2(n)."""
    with mp.workdps(50):
        e, n, d = mp.mpf(1) / 10, 10**4, mp.mpf(1) / 1000
        drift = 200 * e * (mp.exp(e) - 1) / 2
        S, x, log2n = 200 * e**2, mp.mpf(1) / n**2, mp.log(n) / mp.log(2)
        stated = drift + _sqrt_term(S, x, 4 * log2n / d)
        proof = drift + _sqrt_term(S, x, 2 * log2n / d)
        expected = (f"200 x 0.1, n = 1e4, delta_g = 1e-3: (12) = {mpmath.nstr(stated, 12)} = "
                    f"Lemma 6.4(x = 1/n^2, delta_g/(2 log2 n)); the proof's log(2 log2 n/delta_g) "
                    f"gives {mpmath.nstr(proof, 12)}")
    # the docstring's double-precision value; arb at 300 bits (review) gives
    # 22.48706441292711 for (12) and 21.793080234345 for the proof's display
    assert mpmath.nstr(stated, 13) == "22.48706441293"
    assert _check("_check_proof_12") == (True, expected)


@covers("RRUV16:Thm6.5")
def test_granularity_check_pinned() -> None:
    """4 log2(10^4)/1e-3 = 16000 log 10/log 2 = 2 log2(10^8)/1e-3; log(10^4)/1e-3 = 4000 log 10."""
    with mp.workdps(30):
        old, new = 16000 * mp.log(10) / mp.log(2), 4000 * mp.log(10)
        expected = (f"n = 1e4, delta_g = 1e-3: conference 4 log2(n)/delta_g = "
                    f"{mpmath.nstr(old, 8)} = 2 log2(n^2)/delta_g; printed (11) uses "
                    f"log(n)/delta_g = {mpmath.nstr(new, 8)}")
    # arb (review): 16000 log2(10) = 53150.84952, 4000 log(10) = 9210.340372
    assert (mpmath.nstr(old, 8), mpmath.nstr(new, 8)) == ("53150.85", "9210.3404")
    assert _check("_check_granularity") == (True, expected)


@covers("RRUV16:Thm6.5")
def test_eq7_check_pinned() -> None:
    """gamma = e^(1/n)/(1 + e^(1/n)) gives mu_n = 2 gamma - 1 = tanh(1/(2n)), so Var[xi] =
    1 - tanh^2(1/(2n)) = sech^2(1/(2n)) and sigma_n = sech(1/(2n)); n = 10."""
    with mp.workdps(40):
        s = mp.sech(mp.mpf(1) / 20)
        expected = (f"n = 10: Var[xi] = {mpmath.nstr(s * s, 12)} = 1 - mu_n^2; sigma_n = "
                    f"{mpmath.nstr(s, 12)} differs from 1 - mu_n^2")
    assert _check("_check_eq7_sigma") == (True, expected)


@covers("RRUV16:Lem6.4")
def test_lemma_64_check_pinned() -> None:
    """1000 rounds of 0.01, x = 0.1, delta_g = 1e-3: drift 1000 * 0.01 (e^0.01 - 1)/2 plus
    sqrt(2 (S + x)(1 + log(S/x + 1)/2) log(2/delta_g)) at S = 0.1; both routes print it."""
    with mp.workdps(50):
        e = mp.mpf(1) / 100
        value = 1000 * e * (mp.exp(e) - 1) / 2 + _sqrt_term(mp.mpf(1) / 10, mp.mpf(1) / 10,
                                                            2000)
        expected = (f"1000 x 0.01, x = 0.1, delta_g = 1e-3: Lemma 6.4 = {mpmath.nstr(value, 14)}, "
                    f"mean bound + Theorem 4.4 = {mpmath.nstr(value, 14)}")
    # the docstring's double-precision value; arb at 300 bits (review): 2.073631621562041
    assert mpmath.nstr(value, 13) == "2.073631621562"
    assert _check("_check_lemma_64") == (True, expected)


@covers("RRUV16:Thm6.5")
def test_no_utility_check_pinned() -> None:
    """e^0.1 - 1 = sum_k 0.1^k/k!, summed exactly in rationals (30 terms: the tail is below
    10^-50)."""
    q = Fraction(1, 10)
    term, total = Fraction(1), Fraction(0)
    for k in range(1, 31):
        term = term * q / k
        total += term
    with mp.workdps(30):
        value = mp.mpf(total.numerator) / total.denominator
        expected = f"e^0.1 - 1 = {mpmath.nstr(value, 10)} > 0.1 (approached as eps_i n -> 0.1)"
    assert _check("_check_no_utility") == (True, expected)
