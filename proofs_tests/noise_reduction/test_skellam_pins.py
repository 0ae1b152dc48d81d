"""Pins of Skellam noise reduction (WRWR22 §4) beyond the property tests: which results are
probabilistic (decided from the statements) and the domain limits, tested at their ends.

Independent routes: the statements themselves, and the closed form of the Skellam pmf
``P[X = k] = e^(-m1 - m2) (m1/m2)^(k/2) I_|k|(2 sqrt(m1 m2))`` with python-flint's
modified Bessel function ``I`` in arb (the code sums the power series instead).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import flint
import pytest

from proofs_tests.arb_support import arb_ends, frac
from reference.core.errors import DomainError
from reference.core.model import Result
from reference.results import covers
from reference.results.noise_reduction import skellam
from reference.results.noise_reduction.skellam import skellam_path_loss, skellam_pmf


@pytest.fixture(autouse=True)
def _arb_bits() -> Iterator[None]:
    old, flint.ctx.prec = flint.ctx.prec, 400
    yield
    flint.ctx.prec = old


def _pmf_arb(k: int, m: int) -> flint.arb:
    """``P[X = k]`` for ``X ~ Skell(m, m)``: ``e^(-2m) I_|k|(2m)`` (arb, 400 bits)."""
    return (-flint.arb(2 * m)).exp() * flint.arb(2 * m).bessel_i(abs(k))


def _assert_tight(enc: object, ref: flint.arb) -> None:
    lo, hi = arb_ends(ref)
    e_lo, e_hi = frac(enc.lo), frac(enc.hi)  # type: ignore[attr-defined]
    assert e_lo <= lo and hi <= e_hi                    # contains the exact value
    assert e_hi - e_lo <= Fraction(1, 10**45) * lo      # and is narrow


@covers("WRWR22:Sec4-Skellam", "WRWR22:Sec4-Skellam-NR")
def test_probabilistic_flags() -> None:
    """Probabilistic: the Skellam law of X_t (a statement about the distribution of the
    process, checked by sampling).  Deterministic: the path's privacy loss, an identity of
    log-pmf ratios for every released path."""
    found = {v.id: v.probabilistic for v in vars(skellam).values() if isinstance(v, Result)}
    assert found == {"WRWR22:Sec4-Skellam": True, "WRWR22:Sec4-Skellam-NR": False}


@covers("WRWR22:Sec4-Skellam")
def test_pmf_domain_ends_are_inside_and_just_beyond_is_refused() -> None:
    """t lam = 1000 (MAX_MEAN) and |k| = 10^4 (MAX_K) are inside, with values pinned by the
    Bessel form; t lam = 1000 + 10^-6 and |k| = 10^4 + 1 are refused."""
    _assert_tight(skellam_pmf.certified(k=0, t=1000, lam1=1, lam2=1), _pmf_arb(0, 1000))
    _assert_tight(skellam_pmf.certified(k=0, t=1, lam1=1000, lam2=1000), _pmf_arb(0, 1000))
    for k in (10**4, -10**4):
        _assert_tight(skellam_pmf.certified(k=k, t=1, lam1=1, lam2=1), _pmf_arb(k, 1))
    over = 1000 + Fraction(1, 10**6)
    for lams, name in (((over, 1), "lam1"), ((1, over), "lam2")):
        with pytest.raises(DomainError) as err:
            skellam_pmf(k=0, t=1, lam1=lams[0], lam2=lams[1])
        assert err.value.param == name
    for k in (10**4 + 1, -10**4 - 1):
        with pytest.raises(DomainError) as err:
            skellam_pmf(k=k, t=1, lam1=1, lam2=1)
        assert err.value.param == "k"


@covers("WRWR22:Sec4-Skellam-NR")
def test_path_times_are_positive_and_bounded_by_the_mean_limit() -> None:
    """Times are positive (a time 0 is refused, times below 1 accepted) and the last time
    keeps T_n lam <= 1000: at T_n lam = 1000 the loss is ln(P[X = 1]/P[X = 0]) =
    ln(I_1(2000)/I_0(2000)) (m1 = m2 = 1000, y_n - f(x) = 1, y_n - f(x') = 0), just above
    it is refused; at T_n = 1/4 it is ln(I_1(1/2)/I_0(1/2))."""
    for times in ("1,0", "0"):
        with pytest.raises(DomainError) as err:
            skellam_path_loss(times=times, y=",".join("2" * len(times.split(","))), fx=1,
                              fxp=2, lam1=1, lam2=1)
        assert err.value.param == "times"
    # T_n lam = 1000 (m = 1000, Bessel argument 2m = 2000) and T_n lam = 1/4 (argument 1/2)
    # (only the last time counts: earlier, larger times may exceed the limit)
    for times, two_m in (("3000,2000,1000", flint.arb(2000)), ("1/2,1/3,1/4", flint.arb(1) / 2)):
        ref = (two_m.bessel_i(1) / two_m.bessel_i(0)).log()
        enc = skellam_path_loss.certified(times=times, y="5,4,2", fx=1, fxp=2, lam1=1, lam2=1)
        lo, hi = arb_ends(ref)
        assert frac(enc.lo) <= lo and hi <= frac(enc.hi)
        assert frac(enc.hi) - frac(enc.lo) <= Fraction(1, 10**45) * abs(lo)
    with pytest.raises(DomainError) as err:
        skellam_path_loss(times=f"2000,{1000 + Fraction(1, 10**6)}", y="5,2", fx=1, fxp=2,
                          lam1=1, lam2=1)
    assert err.value.param == "lam1"


@covers("WRWR22:Sec4-Skellam")
@pytest.mark.parametrize("k", [0, 5, -7])
def test_pmf_enclosure_is_tight_at_the_interval_precision(k: int) -> None:
    """Skell(1, 1) at k: contains e^-2 I_|k|(2) and its relative width is at most 1e-58
    (intervals work at 50 + 10 digits; the series runs until its tail is 2^-20 below that
    precision, so the truncation adds nothing visible)."""
    enc = skellam_pmf.certified(k=k, t=1, lam1=1, lam2=1)
    _assert_tight(enc, _pmf_arb(k, 1))
    lo, _ = arb_ends(_pmf_arb(k, 1))
    assert frac(enc.hi) - frac(enc.lo) <= Fraction(1, 10**58) * lo


@covers("WRWR22:Sec4-Skellam-NR")
def test_path_loss_is_tight_at_small_releases() -> None:
    """T_n = 1, lam = 1, y_n - f(x) = 1, y_n - f(x') = 0: the loss ln(I_1(2)/I_0(2)) (arb)
    is enclosed with relative width at most 1e-60 (intervals at 50 + 10 digits, plus the
    guard bits of the log-pmf difference)."""
    ref = (flint.arb(2).bessel_i(1) / flint.arb(2).bessel_i(0)).log()
    enc = skellam_path_loss.certified(times="1", y="2", fx=1, fxp=2, lam1=1, lam2=1)
    lo, hi = arb_ends(ref)
    assert frac(enc.lo) <= lo and hi <= frac(enc.hi)
    assert frac(enc.hi) - frac(enc.lo) <= Fraction(1, 10**60) * abs(lo)


def _first_stop(k: int, prod: Fraction, bits: int) -> int:
    """The series' stopping rule in exact rationals: the least ``j >= 1`` with ``r_(j-1) <=
    1/2`` and ``term_j <= 2^-bits (term_0 + ... + term_j)`` (terms relative to term 0).
    Each decision of the rule must be a part in 10^6 clear of its threshold (floats, whose
    logarithms err by about 1e-13, then decide alike)."""
    term = total = Fraction(1)
    j = 0
    while True:
        ratio = prod / ((j + k + 1) * (j + 1))
        term *= ratio
        total += term
        j += 1
        assert abs(ratio - Fraction(1, 2)) > Fraction(1, 10**6) * ratio
        assert abs(term * 2**bits - total) > Fraction(1, 10**6) * total
        if ratio <= Fraction(1, 2) and term * 2**bits <= total:
            return j


@covers("WRWR22:Sec4-Skellam")
@pytest.mark.parametrize(("k", "prod", "bits"), [
    (0, Fraction(6, 5), 186), (1, Fraction(12, 5), 206), (0, Fraction(1), 60),
    (3, Fraction(1000), 206), (40, Fraction(7, 3), 100), (0, Fraction(1, 10**30), 206),
    (0, Fraction(250000), 206), (10**4, Fraction(1), 206), (1, Fraction(1, 10), 100),
    (2, Fraction(2), 53)])
def test_the_float_estimate_of_the_series_length_is_the_exact_rule(
        k: int, prod: Fraction, bits: int) -> None:
    """The estimate the series sums to without checks (floats, in logarithms) is the exact
    rule's length where no decision is within float error of its threshold (an estimate
    that stops early costs checks, one that overshoots costs terms; the rule itself is
    checked afterwards on the numbers: the next test)."""
    assert skellam._terms_needed(k, float(prod), bits) == _first_stop(k, prod, bits)


@covers("WRWR22:Sec4-Skellam", "WRWR22:Sec4-Skellam-NR")
@pytest.mark.parametrize("short", [1, 5])
def test_the_series_checks_its_rule_after_an_estimate_that_stops_short(
        short: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the estimate forced to ``short`` terms, the checked loop sums the rest, term by
    term, to where the estimate would have stopped: the same plain values and enclosures
    (Skell(1000, 1000) at 0 takes about 2100 terms, the loss at Skell(3, 1.6) about 40),
    the pmf's holding its Bessel value."""
    args = {"times": "4,2,1", "y": "3,1,2", "fx": 1, "fxp": 0, "lam1": "1.5", "lam2": "0.8"}

    def values() -> tuple[object, ...]:
        return (skellam_pmf(k=0, t=1, lam1=1000, lam2=1000),
                skellam_pmf.certified(k=0, t=1, lam1=1000, lam2=1000),
                skellam_path_loss(**args), skellam_path_loss.certified(**args))

    before = values()
    monkeypatch.setattr(skellam, "_terms_needed", lambda k, prod, bits: short)
    assert values() == before
    _assert_tight(before[1], _pmf_arb(0, 1000))


@covers("WRWR22:Sec4-Skellam")
def test_pmf_at_means_next_to_zero_is_enclosed() -> None:
    """Means ``t lam`` of 1e-300 and 2^-1074 (a double underflows their product, the
    estimate takes one term): P[X = 2] = e^(-m1-m2) m1^2/2 (1 + m1 m2/3 + ...) inside the
    enclosure, by the Bessel form in arb."""
    for t in (Fraction(1, 10**300), Fraction(1, 2**1074)):
        m = flint.arb(flint.fmpq(t.numerator, t.denominator))
        ref = (-2 * m).exp() * (2 * m).bessel_i(2)
        _assert_tight(skellam_pmf.certified(k=2, t=t, lam1=1, lam2=1), ref)
