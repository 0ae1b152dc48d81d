"""RRUV16 Theorem 6.1 (Equation (7)): the mean and deviation scale no valid odometer can
reach, against a formula written here (mpmath's tanh, 120 digits; the result uses expm1),
and Theorem 6.5 above it at every drawn point (the relations prove it on whole boxes)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.odometers.rruv16 import advanced_odometer, lower_order

eps_lists = st.lists(st.one_of(st.fractions(0, 1, max_denominator=10**6),
                               st.sampled_from([Fraction(1, 10**30), Fraction(7, 2)])),
                     max_size=6)
ns = st.one_of(st.integers(3, 10**6), st.sampled_from([3, 4, 10**300]))
deltas = st.one_of(st.fractions(Fraction(1, 10**12), Fraction(36, 100), max_denominator=10**12),
                   st.sampled_from([Fraction(1, 10**300), Fraction(3678, 10**4)]))


def _mp(q: Fraction | int) -> mpmath.mpf:
    return mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator


def _by_hand(eps: list[Fraction], n: int, delta: Fraction) -> tuple[mpmath.mpf, mpmath.mpf]:
    # 120 digits: the enclosures are ~1e-62 wide (50 digits and guard bits), so a value
    # by hand at 60 digits could fall outside them by its own error (it did on balls)
    with mpmath.workdps(120):
        mean = mpmath.fsum(_mp(e) * mpmath.tanh(_mp(e) / 2) for e in eps)
        S = mpmath.fsum(_mp(e) ** 2 for e in eps)
        return +mean, mpmath.sqrt(S * mpmath.log(mpmath.log(n) / _mp(delta)))


@covers("RRUV16:Thm6.1")
@given(eps_lists, ns, deltas)
def test_terms_match_the_formula_and_are_enclosed_tightly(eps: list[Fraction], n: int,
                                                          delta: Fraction) -> None:
    mean, scale = _by_hand(eps, n, delta)
    out = lower_order.certified(eps=eps, n=n, delta_g=delta)
    plain = lower_order(eps=eps, n=n, delta_g=delta)
    for got, want, value in ((out.mean, mean, plain.mean), (out.scale, scale, plain.scale)):
        assert want in got      # (the plain value is accurate to its 53 bits, below)
        assert got.width <= abs(want) * mpmath.mpf(2) ** -45
        assert abs(value - want) <= abs(want) * mpmath.mpf(2) ** -45


@covers("RRUV16:Thm6.1")
def test_values_by_hand() -> None:
    """One round of ln 3 (tanh(ln 3/2) = 1/2): mean ln(3)/2; no rounds: (0, 0); 100 rounds
    of 0.1 (S = 1): scale sqrt(log(log(1000)/0.05)) = sqrt(log(20 log 1000))."""
    out = lower_order(eps=[mpmath.log(3)], n=1000, delta_g="0.05")
    assert abs(out.mean - mpmath.log(3) / 2) < mpmath.mpf(10) ** -15
    empty = lower_order(eps=[], n=1000, delta_g="0.05")
    assert empty.mean == 0 and empty.scale == 0
    with mpmath.workdps(30):
        hundred = lower_order(eps=["0.1"] * 100, n=1000, delta_g="0.05")
        assert abs(hundred.scale - mpmath.sqrt(mpmath.log(20 * mpmath.log(1000)))) \
            < mpmath.mpf(10) ** -25
        assert abs(hundred.mean - 10 * mpmath.tanh(mpmath.mpf("0.05"))) < mpmath.mpf(10) ** -25


@covers("RRUV16:Thm6.1")
@given(eps_lists, st.integers(3, 10**6), deltas, st.integers(1, 10**6),
       st.fractions(Fraction(1, 100), 1, max_denominator=10**6))
def test_scale_grows_with_n_and_shrinks_with_delta(eps: list[Fraction], n: int,
                                                   delta: Fraction, dn: int,
                                                   shrink: Fraction) -> None:
    base = lower_order.certified(eps=eps, n=n, delta_g=delta)
    more_n = lower_order.certified(eps=eps, n=n + dn, delta_g=delta)
    less_delta = lower_order.certified(eps=eps, n=n, delta_g=delta * shrink)
    assert more_n.mean == base.mean
    if any(e > 0 for e in eps):
        assert more_n.scale.lo > base.scale.hi
        if shrink < 1:
            assert less_delta.scale.lo > base.scale.hi
    else:
        assert base.scale.hi == 0


@covers("RRUV16:Thm6.1")
@pytest.mark.parametrize("bad", [{"n": 2}, {"n": 0}, {"delta_g": "0.37"}, {"delta_g": 0},
                                 {"eps": ["-0.1"]}, {"n": "3.5"}])
def test_domain(bad: dict[str, object]) -> None:
    kw: dict[str, object] = {"eps": ["0.1"], "n": 1000, "delta_g": "0.05", **bad}
    with pytest.raises(DomainError):
        lower_order(**kw)


@covers("RRUV16:Thm6.1", "RRUV16:Thm6.5")
@given(eps_lists, st.integers(3, 10**6), deltas)
def test_the_advanced_odometer_is_above_the_order_of_theorem_6_1(
        eps: list[Fraction], n: int, delta: Fraction) -> None:
    """Thm 6.5 >= mean + 2 scale on branch (11), >= mean + sqrt(2) scale on (12), and the
    gap over the mean alone is at least scale (Theorem 6.1: it cannot be o(scale))."""
    low = lower_order.certified(eps=eps, n=n, delta_g=delta)
    odo = advanced_odometer.certified(eps=eps, n=n, delta_g=delta)
    c = 2 if odo.branch == 11 else mpmath.sqrt(2)
    assert odo.value.lo >= low.mean.hi + c * low.scale.hi
    if any(e > 0 for e in eps):
        assert odo.value.lo > low.mean.hi + low.scale.hi
