"""The Brownian mechanism's formulas (WRWR22 §3, RSWR23 §4) pinned in exact rationals, the
length limit at its boundary, and the erratum RSWR23:Thm4-sign's check (every number).

Independent routes: the loss ``(|y - f(x')|^2 - |y - f(x)|^2)/(2T)`` at ``y = f(x) + B``
and the bound ``Delta^2/(2T) + Delta W^+/T`` evaluated in ``fractions.Fraction``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import frac
from reference import certified
from reference.core.errors import DomainError
from reference.results import covers
from reference.results.noise_reduction import brownian
from reference.results.noise_reduction.brownian import (
    MAX_DIM,
    brownian_loss,
    brownian_loss_rswr23,
    loss_bound,
    path_loss,
)

q = st.fractions(-20, 20, max_denominator=50)
pos = st.fractions(Fraction(1, 50), 50, max_denominator=50)


def exact_loss(fx: list[Fraction], fxp: list[Fraction], b: list[Fraction],
               t: Fraction) -> Fraction:
    y = [f + x for f, x in zip(fx, b, strict=True)]
    far = sum(((yi - g) ** 2 for yi, g in zip(y, fxp, strict=True)), Fraction(0))
    near = sum(((yi - f) ** 2 for yi, f in zip(y, fx, strict=True)), Fraction(0))
    return (far - near) / (2 * t)


def near(value: object, exact: Fraction) -> bool:
    return abs(frac(value) - exact) <= (1 + abs(exact)) * Fraction(1, 10**45)


def pinned(value: object, enc: object, exact: Fraction) -> None:
    """The plain value within 1e-45 (relative to 1 + |exact|), the enclosure holds it."""
    assert abs(frac(value) - exact) <= (1 + abs(exact)) * Fraction(1, 10**45)
    assert frac(enc.lo) <= exact <= frac(enc.hi)  # type: ignore[attr-defined]


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
@given(st.integers(1, 4).flatmap(lambda d: st.tuples(*(st.lists(q, min_size=d, max_size=d)
                                                      for _ in range(3)))), pos)
def test_loss_against_exact_rationals(vectors: tuple[list[Fraction], ...], t: Fraction) -> None:
    fx, fxp, b = vectors
    exact = exact_loss(fx, fxp, b, t)
    kw = {"fx": fx, "fxp": fxp, "b": b, "t": t}
    pinned(brownian_loss(**kw), certified(brownian_loss, **kw), exact)
    assert near(brownian_loss_rswr23(**kw), exact)


@covers("WRWR22:Thm3.4-bound")
@given(pos, q, pos)
def test_bound_against_exact_rationals(t: Fraction, w: Fraction, sens: Fraction) -> None:
    """Delta^2/(2T) + Delta max(W, 0)/T, both signs of W (W <= 0 gives the zCDP cost)."""
    exact = sens**2 / (2 * t) + sens * max(w, Fraction(0)) / t
    pinned(loss_bound(t=t, w=w, sensitivity=sens),
           certified(loss_bound, t=t, w=w, sensitivity=sens), exact)


@covers("WRWR22:Thm3.4-bound")
def test_bound_by_hand() -> None:
    """T = 4, Delta = 2: W = -3 gives 4/8 = 1/2; W = 3 gives 1/2 + 2*3/4 = 2; the default
    sensitivity is 1: T = 1/2, W = 1 gives 1 + 2 = 3."""
    assert near(loss_bound(t=4, w=-3, sensitivity=2), Fraction(1, 2))
    assert near(loss_bound(t=4, w=3, sensitivity=2), Fraction(2))
    assert near(loss_bound(t="0.5", w=1), Fraction(3))


@covers("WRWR22:Lem3.2")
def test_path_loss_by_hand() -> None:
    """Only the last release counts: times (4, 2, 1), y_3 = 1.1, f = 1, f' = 0:
    ((1.1)^2 - (0.1)^2)/2 = 0.6; with f = 3, f' = -1, y_3 = 2, T_3 = 1/4:
    ((2 + 1)^2 - (2 - 3)^2)/(1/2) = 16."""
    assert near(path_loss(times="4,2,1", y="1.5,0.8,1.1", fx=1, fxp=0), Fraction(3, 5))
    assert near(path_loss(times="1,0.5,0.25", y="7,-3,2", fx=3, fxp=-1), Fraction(16))


@covers("WRWR22:Thm3.4", "RSWR23:Thm4", "WRWR22:Lem3.2")
def test_length_limit_boundary() -> None:
    """MAX_DIM = 10^4 entries are accepted, one more is refused."""
    assert MAX_DIM == 10_000
    n = MAX_DIM
    got = brownian_loss(fx=[1] * n, fxp=[0] * n, b=[0] * n, t=1)
    assert near(got, Fraction(n, 2))  # |u|^2/(2T) with |u|^2 = n
    with pytest.raises(DomainError) as err:
        brownian_loss(fx=[1] * (n + 1), fxp=[0] * (n + 1), b=[0] * (n + 1), t=1)
    assert err.value.param == "fx"
    times = [Fraction(n - i) for i in range(n)]
    assert near(path_loss(times=times, y=[0] * n, fx=1, fxp=0), Fraction(-1, 2))
    with pytest.raises(DomainError) as err:
        path_loss(times=[*times, Fraction(1, 2)], y=[0] * (n + 1), fx=1, fxp=0)
    assert err.value.param == "times"


@covers("RSWR23:Thm4")
def test_sign_erratum_check_pinned() -> None:
    """y = 1.7, f(x) = 1, f(x') = 0, t = 1: ((1.7)^2 - (0.7)^2)/2 = 1.2; printed 1/2 - 0.7."""
    check = brownian._sign_check.verify()
    assert check.confirmed is True
    # the two numbers of the detail come from these exact values (not typed in)
    exact = (Fraction(17, 10) ** 2 - Fraction(7, 10) ** 2) / 2   # Delta^2/(2t) + Delta B/t
    printed = Fraction(1, 2) - Fraction(7, 10)                    # Delta^2/(2t) - Delta B/t
    assert exact == exact_loss([Fraction(1)], [Fraction(0)], [Fraction(7, 10)], Fraction(1))
    assert check.detail == (f"log p_x(y)/p_x'(y) = {float(exact)} at f(x)=1, f(x')=0, B=0.7, "
                            f"t=1; the printed sign gives {float(printed)}")


@covers("WRWR22:Lem3.2")
def test_path_times_must_be_positive() -> None:
    """Release times are noise variances: a time 0 is refused (it would divide by 0), a
    tiny positive one is accepted: T_n = 1e-30, y_n = 0, f = 1, f' = 0 gives -1/(2e-30)."""
    with pytest.raises(DomainError) as err:
        path_loss(times=[1, 0], y=[0, 0], fx=1, fxp=0)
    assert err.value.param == "times"
    assert near(path_loss(times=[1, Fraction(1, 10**30)], y=[0, 0], fx=1, fxp=0),
                Fraction(-(10**30), 2))
