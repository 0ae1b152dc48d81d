"""The parts of the WRWR22 module the boundary tests reach only through certified outputs:
the series for ``r - log(1 + r)``, the proof of the bracket of ``r*``, the closed form of
the linear ``Gamma`` (the solver's point), and the check of the ``Gamma`` erratum.

A bracket that is proven only on one side, or a series enclosure without its remainder,
still contains the exact value when the point solves are accurate: here the point solves
are made wrong on purpose (the proof must then widen the bracket until it holds) and the
remainder term is observed directly.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from mpmath import iv, mp

from reference.core.numeric import ball, endpoints, working
from reference.results.boundaries import wrwr22
from reference.results.boundaries.wrwr22 import (
    ExactDelta,
    excess_series,
    linear_time,
    ratio_star,
)


def true_rstar(delta: Fraction) -> Any:
    """The root of ``r - log(1 + r) = 2 log(1/delta)`` at 60 digits (mpmath's findroot)."""
    with mp.workdps(60):
        c = 2 * mp.log(1 / (mp.mpf(delta.numerator) / delta.denominator))
        return mp.findroot(lambda r: r - mp.log1p(r) - c, mp.sqrt(6 * c) + c)


@pytest.mark.parametrize("delta", [Fraction(1, 10), Fraction(1, 10**6), Fraction(999, 1000)])
@pytest.mark.parametrize("wrong_end", [0, 1])
def test_rstar_bracket_is_proven_on_both_sides(monkeypatch: pytest.MonkeyPatch,
                                               delta: Fraction, wrong_end: int) -> None:
    """One end's point solve 1e-3 off toward the inside: the bracket must still enclose r*."""
    real = wrwr22._rstar_point
    calls: list[int] = []

    def off(c: Any) -> Any:
        calls.append(1)
        r = real(c)
        if len(calls) - 1 != wrong_end:
            return r
        return r * (1 + mp.mpf("1e-3")) if wrong_end == 0 else r * (1 - mp.mpf("1e-3"))
    monkeypatch.setattr(wrwr22, "_rstar_point", off)
    with working(iv):
        enc = endpoints(ratio_star(iv, ExactDelta(delta)))
    assert len(calls) == 2
    root = true_rstar(delta)
    assert enc.lo <= root <= enc.hi
    assert enc.hi / enc.lo - 1 < mp.mpf("1e-2")


@pytest.mark.parametrize("r", [mp.mpf(2) ** -9, mp.mpf(2) ** -40, mp.mpf("3e-5"),
                               mp.mpf(2) ** -300])
def test_excess_series_carries_its_remainder(monkeypatch: pytest.MonkeyPatch, r: Any) -> None:
    """Below 2^-8 the interval value is the partial sum plus a ball bounding the rest of the
    alternating series; the ball is there (its size is positive and below r^3: the series
    runs past the cubic term; the enclosure holds r - log(1 + r) at 400 digits)."""
    sizes: list[Any] = []

    def spy(ctx: Any, size: Any) -> Any:
        sizes.append(size)
        return ball(ctx, size)
    monkeypatch.setattr(wrwr22, "ball", spy)
    with working(iv):
        enc = endpoints(wrwr22._excess(iv, r))
    assert len(sizes) == 1 and 0 < sizes[0] < r ** 3
    with mp.workdps(400):         # r - log1p(r) ~ r^2/2 cancels log2(1/r) bits
        exact = r - mp.log1p(r)
    assert enc.lo <= exact <= enc.hi
    assert abs(wrwr22._excess(mp, r) / exact - 1) < mp.mpf(2) ** -45


@pytest.mark.parametrize("n", [2, 3, 5, 8])
@pytest.mark.parametrize("r", [Fraction(1, 2), Fraction(1, 8), Fraction(1, 1000),
                               Fraction(1, 2**9)])
@pytest.mark.parametrize("dps", [15, 60])
def test_excess_series_with_few_terms_is_a_tight_enclosure(n: int, r: Fraction,
                                                            dps: int) -> None:
    """With few terms the remainder dominates the rounding, so the ball must bound the true
    rest of the series: the enclosure holds r - log(1 + r) (400 digits), is at most the
    ball's two sides plus rounding wide, and the plain value is the partial sum."""
    partial = sum((Fraction((-1) ** k) * r**k / k for k in range(2, n + 1)), Fraction(0))
    first_omitted = r ** (n + 1) / (n + 1)
    with mp.workdps(400):
        exact = (lambda x: x - mp.log1p(x))(mp.mpf(r.numerator) / r.denominator)
        s_mp = mp.mpf(partial.numerator) / partial.denominator
        t_mp = mp.mpf(first_omitted.numerator) / first_omitted.denominator
    with working(iv, dps):
        enc = endpoints(excess_series(iv, iv.mpf(r.numerator) / r.denominator, n))
        ulp = mp.mpf(2) ** (-iv.prec + 6) * abs(s_mp)
    with working(mp, dps):
        plain = excess_series(mp, mp.mpf(r.numerator) / r.denominator, n)
        plain_ulp = mp.mpf(2) ** (-mp.prec + 4) * abs(s_mp)
    assert enc.lo <= exact <= enc.hi
    with mp.workdps(400):
        assert enc.hi - enc.lo <= 2 * t_mp + 2 * ulp
        assert enc.lo <= s_mp - t_mp + ulp and enc.hi >= s_mp + t_mp - ulp
        assert abs(plain - s_mp) <= plain_ulp


@pytest.mark.parametrize(("eps", "a", "b", "s"), [
    (Fraction(2), Fraction(1, 2), Fraction(1), Fraction(1)),
    (Fraction(7, 4), Fraction(3, 8), Fraction(5, 2), Fraction(3, 2)),
    (Fraction(100), Fraction(1, 1024), Fraction(1, 3), Fraction(1, 7))])
def test_linear_gamma_solver_point_is_the_closed_form(eps: Fraction, a: Fraction, b: Fraction,
                                                      s: Fraction) -> None:
    """The solver's point is the documented closed form ``Delta (Delta/2 + b)/(E - Delta a)``
    (the certificate would also bracket a poor point, so its output alone cannot show it)."""
    exact = s * (s / 2 + b) / (eps - s * a)
    with mp.workdps(50):
        lifted = [mp.mpf(x.numerator) / x.denominator for x in (eps, a, b, s)]
        point = linear_time.core(mp, *lifted)
        assert abs(point / (mp.mpf(exact.numerator) / exact.denominator) - 1) < mp.mpf(10) ** -45


def test_gamma_erratum_check_needs_both_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Confirmed only if the boundary near t = 0 is at least E = 5 and the intended root is
    above 1: each broken alone refutes it (at exactly 5 it still holds)."""
    assert wrwr22._gamma_reading.verify().confirmed
    for value, root, ok in ((mp.mpf(5), mp.mpf(2), True), (mp.mpf("4.99"), mp.mpf(2), False),
                            (mp.mpf(6), mp.mpf(1), False)):
        monkeypatch.setattr(wrwr22, "mixture_boundary", lambda *a, v=value, **k: v)
        monkeypatch.setattr(wrwr22, "mixture_time",
                            lambda *a, x=root, **k: SimpleNamespace(value=x))
        assert wrwr22._gamma_reading.verify().confirmed is ok, (value, root)


def test_gamma_erratum_check_prints_the_boundary_near_zero_and_the_root() -> None:
    """psi^M_1(t) = 1/(2t) + sqrt(2 (t + 1) log(sqrt(t + 1)/delta))/t at t = 1e-30, delta =
    1e-6, and the root of psi^M_1 = 5, both from the formula at 50 digits (findroot)."""
    with mp.workdps(50):
        def psi(t: Any) -> Any:
            return 1 / (2 * t) + mp.sqrt(2 * (t + 1) * mp.log(mp.sqrt(t + 1) / mp.mpf("1e-6"))) / t
        near_zero = psi(mp.mpf(10) ** -30)
        root = mp.findroot(lambda t: psi(t) - 5, 2)
    detail = wrwr22._gamma_reading.verify().detail
    assert detail.startswith(f"psi^M(1e-30) = {mp.nstr(near_zero, 5)} >= E = 5")
    printed = detail.split("is t = ")[1].split(" ")[0]
    assert abs(mp.mpf(printed) - root) < mp.mpf(10) ** -11 and abs(root - 1.93623336200345) < 1e-14


@pytest.mark.parametrize("k", [1000, 20000])
def test_optimal_rho_next_to_delta_one_is_tight(k: int) -> None:
    """delta = 1 - 2^-k: c = 2 log(1/delta) ~ 2^(1-k) and r* ~ sqrt(2c), far below the
    precision.  The certified rho = t/r* is as tight as the working precision warrants, and
    equals 1/r* from r^2/2 - r^3/3 + r^4/4 = c (the rest of the series is below 2^-(3k))."""
    delta = 1 - Fraction(1, 2**k)
    enc = wrwr22.optimal_rho.certified(t=1, delta=delta)
    with mp.workdps(60):
        c = -2 * mp.log1p(-mp.mpf(2) ** -k)
        r = mp.findroot(lambda x: x * x / 2 - x**3 / 3 + x**4 / 4 - c, mp.sqrt(2 * c))
        assert enc.rho.lo <= 1 / r * (1 + mp.mpf(10) ** -40)
        assert enc.rho.hi >= 1 / r * (1 - mp.mpf(10) ** -40)
        assert abs(enc.rho.mid * r - 1) < mp.mpf(10) ** -14
        assert enc.rho.hi / enc.rho.lo - 1 < mp.mpf(10) ** -14
