"""KOV15 Thm 3.3 summed outward from its largest term, with a bound on the terms left out.

``optimal_delta`` starts at the largest weight ``C(k,j) p^(k-j) (1-p)^j`` (or at the last
positive term, if that comes first), walks down to 0 and up to the last term, and stops each
side once what it leaves out is below ``2^-prec`` of the sum; the solver of
``KOV15:Thm3.3`` starts its walk over the pieces where the pieces before hold less than
``2^-prec`` of the target; the lattice search starts from the continuous optimum.

Independent routes: every term summed in python-flint arb from exact inputs (k = 4000, in
each regime of where the last term lies), scipy's binomial distribution functions (another
evaluator, double precision) at k = 10**5 and 10**6, exact binomials for the largest weight
and the solver's start.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint
import pytest
from mpmath import iv, mp
from scipy import stats

from proofs_tests.arb_support import arb_ends, frac
from proofs_tests.composition.test_kov15_precision import arb_optimal_delta, check
from reference import DomainError
from reference.core.numeric import endpoints, to_ctx, working
from reference.results import covers
from reference.results.composition import kov15
from reference.results.composition.kov15 import (
    _first_piece,
    _largest_weight,
    _negligible,
    optimal_delta,
    optimal_epsilon,
)
from reference.results.composition.kov15_heterogeneous import _lattice_guess, kov_grid

F = Fraction


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "eps_g", "delta"), [
    (F(1, 50), F(6), F(0)),                    # last term below the largest: down only
    (F(1, 50), F(1, 2), F(0)),                 # last term above the largest: up and down
    (F(1, 50), F(0), F(0)),                    # every term up to k/2: the total variation
    (F(3), F(10800), F(0)),                    # largest weight at j = 190, last 199
    (F(1, 50), 78 * F(1, 50) + F(3, 5) - F(1, 10**30), F(0)),   # kink of the last term
    (F(1, 50), F(79), F(0)),                   # only j <= 9 count: the walk reaches 0
])
def test_against_every_term_in_arb(eps: Fraction, eps_g: Fraction, delta: Fraction) -> None:
    """k = 4000: the exact value (every term, arb) in the enclosure, the enclosure and the
    plain value within 2^-(prec - 10) of it, relative."""
    check(eps, 4000, eps_g, delta)


def _scipy_delta(eps: float, k: int, eps_g: float) -> float:
    """``P[X <= last] - e^eps_g P[Y <= last]``, ``X ~ Bin(k, 1/(1+e^eps))``, ``Y ~ Bin(k,
    e^eps/(1+e^eps))``: the sum's two halves as binomial distribution functions."""
    last = math.ceil((k * eps - eps_g) / (2 * eps)) - 1
    q = 1 / (1 + math.exp(eps))
    return float(stats.binom.cdf(last, k, q) - math.exp(eps_g) * stats.binom.cdf(last, k, 1 - q))


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("k", "eps_g"), [(10**5, 25), (10**5, 3), (10**6, 98), (10**6, 40)])
def test_large_k_against_binomial_distribution_functions(k: int, eps_g: int) -> None:
    """eps = 0.01: delta near 1e-6 and well above the mean loss; scipy agrees to 1e-9
    relative (its incomplete beta in double precision), and the enclosure is tight."""
    enc = optimal_delta.certified(eps="0.01", k=k, eps_g=eps_g)
    expected = _scipy_delta(0.01, k, eps_g)
    assert abs(float(enc.lo) / expected - 1) < 1e-9
    assert enc.hi - enc.lo <= enc.lo * mp.mpf(2) ** -150


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("k", [10**5, 10**6])
def test_large_k_inverse_and_lattice(k: int) -> None:
    """The certified inverse at 1e-6 is a tight bracket whose point scipy's forward puts
    at 1e-6 (to 1e-7 relative); the lattice answer is the first lattice point at or above
    it (within 2 eps) and its delta is at most 1e-6 (scipy)."""
    cert = optimal_epsilon(eps="0.01", k=k, delta_g="1e-6")
    assert cert.holds and cert.hi - cert.lo <= cert.lo * mp.mpf(2) ** -150
    assert abs(_scipy_delta(0.01, k, float(cert.value)) / 1e-6 - 1) < 1e-7
    grid = kov_grid.certified(eps="0.01", k=k, delta_g="1e-6")
    assert grid.hi - grid.lo < mp.mpf(10) ** -40 and cert.hi <= grid.lo < cert.lo + mp.mpf("0.02")
    assert _scipy_delta(0.01, k, float(grid.lo)) <= 1e-6 * (1 + 1e-9)
    assert _scipy_delta(0.01, k, float(grid.lo) - 0.02) > 1e-6


def _weight(k: int, j: int, eps: Any) -> Any:
    """``C(k,j) p^(k-j) (1-p)^j = C(k,j) e^(-j eps) / (1 + e^-eps)^k``, the binomial exact, in
    mpmath at the current precision."""
    return math.comb(k, j) * mp.exp(-eps * j) / (1 + mp.exp(-eps)) ** k


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("k", "eps"), [(10, F(1, 100)), (4000, F(1, 50)), (4000, F(3)),
                                        (999, F(7, 10)), (10**6, F(1, 100)), (50, F(30))])
def test_largest_weight_is_the_binomial_mode(k: int, eps: Fraction) -> None:
    """``floor((k+1)/(1+e^eps))``, the mode of Bin(k, 1/(1+e^eps)): the weights rise up to
    it and fall after it (exact ratios ``(k-j)/(j+1) e^-eps``, in mpmath at 60 digits)."""
    with mp.workdps(60):
        e = to_ctx(mp, eps)
        j = _largest_weight(k, e)
        rise = (k - j + 1) * mp.exp(-e) / j if j else None    # w_j / w_(j-1)
        fall = (k - j) * mp.exp(-e) / (j + 1)                  # w_(j+1) / w_j
    assert rise is None or rise >= 1
    assert fall <= 1


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("k", "eps", "target", "bits"), [
    (500, F(1, 1000), F(1, 10**6), 200), (4000, F(1, 50), F(1, 10**9), 300),
    (200, F(1, 5), F(1, 10**12), 100), (4000, F(2), F(1, 10**9), 300)])
def test_solver_start_is_the_last_negligible_piece(k: int, eps: Fraction, target: Fraction,
                                                  bits: int) -> None:
    """The largest ``m`` up to the largest weight with ``k w_m < 2^-(bits+8) target``, by
    exact binomials (mpmath at 80 digits): the walk's start, not 0, and nothing later."""
    with mp.workdps(80):
        e, t = to_ctx(mp, eps), to_ctx(mp, target)
        start = _first_piece(k, e, t, bits)

        def small(m: int) -> bool:
            return bool(k * _weight(k, m, e) < mp.mpf(2) ** -(bits + 8) * t)

        top = min(_largest_weight(k, e), (k - 1) // 2)
        assert start > 0 and small(start) and start < top and not small(start + 1)


@covers("KOV15:Thm3.3")
def test_solver_start_at_zero() -> None:
    """No target (0), or a first weight already above the limit (k = 200, eps = 2: w_0 =
    e^-25.4 against 2^-108 / 400), start the walk at 0; at eps = 1/5 (w_0 = e^-119.6) the
    same target starts it later."""
    with mp.workdps(50):
        assert _first_piece(200, mp.mpf(2), mp.zero, 100) == 0
        assert _first_piece(200, mp.mpf(2), mp.mpf(1) / 2, 100) == 0
        assert _first_piece(200, mp.mpf(1) / 5, mp.mpf(1) / 2, 100) > 0
        # log w_0 = -119.6 < limit = -37 - 108 ln 2 - ln 200 = -117.2 <= log w_1 = -114.5
        assert _first_piece(200, mp.mpf(1) / 5, mp.exp(-37), 100) == 0
        # eps = 500: the largest weight is w_0 ~ 1 (above the limit), w_1 = 10 e^-500 below
        assert _first_piece(10, mp.mpf(500), mp.mpf(10) ** -6, 100) == 0


@covers("KOV15:Thm3.3-delta")
def test_negligible_rest_bound() -> None:
    """``weight r/(1-r)`` (the geometric bound on what is left out) when ``r < 1`` and it is
    below ``2^-bits`` of the total; None otherwise (in ``iv``, from the enclosures' ends).
    ``bits`` is the working precision the caller passes, not the context's (guarded) one."""
    with working(iv):
        p = iv.prec
        w, total, tiny = iv.mpf(1), iv.mpf(2) ** 400, iv.mpf(2) ** -(p + 2)
        bound = _negligible(tiny * w, iv.mpf(1) / 3, iv.mpf(1), p)
        half = endpoints(tiny / 2).hi                                   # r/(1-r) = 1/2
        assert bound is not None and half <= bound <= half * (1 + mp.mpf(2) ** (8 - p))
        assert _negligible(w, iv.mpf(1), total, p) is None             # r = 1
        assert _negligible(w, iv.mpf((0.5, 1.5)), total, p) is None     # r may exceed 1
        assert _negligible(w, iv.mpf(1) / 3, total, p) is not None      # 2^-1 < 2^(400-p)
        assert _negligible(16 * tiny, iv.mpf(1) / 3, iv.mpf(1), p) is None  # 2^(1-p) > 2^-p
        # the threshold follows bits: 2^-(p+3) of the total passes at p bits, not at p + 4
        assert _negligible(tiny / 2, iv.mpf(1) / 3, iv.mpf(1), p + 4) is None
        assert _negligible(tiny / 2, iv.mpf(1) / 3, iv.mpf(1), p - 4) is not None
    with mp.workdps(50):
        got = _negligible(mp.mpf(2) ** -300, mp.mpf(1) / 2, mp.mpf(1), mp.prec)
        assert got == mp.mpf(2) ** -300
        assert _negligible(mp.mpf(2) ** -300, mp.one, mp.one, mp.prec) is None     # r = 1
        assert _negligible(mp.mpf(2) ** -300, mp.mpf(1) / 2, mp.mpf(1), 299) is not None
        assert _negligible(mp.mpf(2) ** -300, mp.mpf(1) / 2, mp.mpf(1), 301) is None


_CASE = {"eps": F(1, 50), "k": 4000, "eps_g": F(1, 2)}     # last term above the largest weight


def _lifted(ctx: object) -> tuple[object, ...]:
    """``(eps, k, eps_g, last, last_gap)`` of ``_CASE`` in ``ctx``, as the prepare hook gives."""
    eps, k, eps_g = _CASE["eps"], int(_CASE["k"]), _CASE["eps_g"]
    last = math.ceil((k * eps - eps_g) / (2 * eps)) - 1
    return (to_ctx(ctx, eps), k, to_ctx(ctx, eps_g), last,
            to_ctx(ctx, (k - 2 * last) * eps - eps_g))


@covers("KOV15:Thm3.3-delta")
def test_what_is_left_out_is_added_as_an_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound of 1 at the first check of each side: the iv sum is the largest term plus
    [0, 1] twice, the mp sum the largest term alone (its value by exact binomials)."""
    calls: list[object] = []

    def stop_at_once(weight: object, r: object, total: object, bits: int) -> object:
        calls.append(weight)
        return mp.one

    monkeypatch.setattr(kov15, "_negligible", stop_at_once)
    eps, k, eps_g = _CASE["eps"], int(_CASE["k"]), _CASE["eps_g"]
    with mp.workdps(60):
        j = _largest_weight(k, to_ctx(mp, eps))
        e = to_ctx(mp, eps)
        largest = _weight(k, j, e) * -mp.expm1(to_ctx(mp, eps_g - (k - 2 * j) * eps))
    with working(iv):
        enc = endpoints(kov15._pure_sum(iv, *_lifted(iv), iv.prec))
    with working(mp):
        plain = kov15._pure_sum(mp, *_lifted(mp), mp.prec)
    assert len(calls) == 4                         # two sides, in iv and in mp
    assert abs(enc.lo / largest - 1) < mp.mpf(10) ** -40
    assert abs(enc.hi - enc.lo - 2) < mp.mpf(10) ** -40
    assert abs(plain / largest - 1) < mp.mpf(10) ** -40


@covers("KOV15:Thm3.3-delta")
def test_each_side_stops_long_before_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """k = 10**6, eps = 0.1, eps_g = 0: the last term (k/2 - 1) lies 50 standard deviations
    above the largest weight; both sides stop with a bound, after a few thousand terms
    (k/2 = 5 * 10**5)."""
    real, stops, calls = kov15._negligible, [], []

    def counted(weight: object, r: object, total: object, bits: int) -> object:
        got = real(weight, r, total, bits)       # type: ignore[arg-type]
        calls.append(got)
        return got

    monkeypatch.setattr(kov15, "_negligible", counted)
    enc = optimal_delta.certified(eps="0.1", k=10**6, eps_g=0)
    stops = [c for c in calls if c is not None]
    assert len(stops) == 2 and len(calls) < 20_000 // kov15._CHECK_EVERY
    assert abs(float(enc.lo) / _scipy_delta(0.1, 10**6, 0) - 1) < 1e-9


@covers("KOV15:Thm3.3", "KOV15:Thm3.3-delta", "KOV15:Thm3.3-grid")
def test_rounds_up_to_ten_million() -> None:
    """The documented limit: k = 10**7 evaluates (eps = 5: a few thousand terms), one more
    is refused by every result that takes k."""
    enc = optimal_delta.certified(eps="5", k=10**7, eps_g="49340000")   # about 4 sd above
    assert 0 < enc.lo and enc.hi < mp.mpf(10) ** -3
    for res, extra in ((optimal_delta, {"eps_g": "1"}), (optimal_epsilon, {"delta_g": "0.5"}),
                       (kov_grid, {"delta_g": "0.5"})):
        with pytest.raises(DomainError, match="k"):
            res(eps="0.1", k=10**7 + 1, **extra)


def _arb_lattice_answer(eps: Fraction, k: int, delta_g: Fraction) -> int:
    """The largest lattice index ``i`` with the exact delta at ``(k - 2i) eps`` at most
    ``delta_g``: bisection on arb enclosures of every term (decided at 80 bits)."""
    def feasible(i: int) -> bool:
        lo, hi = arb_optimal_delta(eps, k, (k - 2 * i) * eps, F(0), 80)
        assert hi < delta_g or lo > delta_g
        return hi < delta_g

    lo, hi = 0, k // 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if feasible(mid) else (lo, mid - 1)
    return lo


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("eps", "k", "delta_g"), [
    (F(1, 2), 100, F(3, 5)),      # the answer's last term lies above the largest weight
    (F(1, 50), 4000, F(1, 10**6)),
    (F(1), 3, F(1, 10**9)),       # only eps_g = k eps: i = 0
    (F(1, 10), 3, F(1, 2)),       # above the total variation: i = k // 2
])
def test_lattice_answer_and_the_guess_that_finds_it(eps: Fraction, k: int,
                                                    delta_g: Fraction) -> None:
    """The lattice value is (k - 2i) eps at the exact answer i (arb, every term), and the
    continuous optimum's guess is that i (so the search takes its two-decision path)."""
    answer = _arb_lattice_answer(eps, k, delta_g)
    guess = _lattice_guess({"eps": eps, "k": k, "delta_g": delta_g, "delta": F(0)})
    assert guess == answer
    enc = kov_grid.certified(eps=eps, k=k, delta_g=delta_g)
    value = (k - 2 * answer) * eps
    assert frac(enc.lo) <= value <= frac(enc.hi) and enc.hi - enc.lo < mp.mpf(10) ** -40


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("k", "j"), [(10**7, 4_999_000), (10**7, 0), (10**6, 497_500),
                                      (4000, 1), (1, 1)])
def test_log_binomial_encloses_arbs_log_gamma(k: int, j: int) -> None:
    """The largest weight starts from ``log C(k, j)`` by mpmath's interval log-gamma; arb's
    (python-flint, 400 bits) lies inside it, and the enclosure is tight (absolute
    ``2^-(prec - 30)`` of ``k``: the logs are about ``k log 2``)."""
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        exact = (flint.arb(k + 1).lgamma() - flint.arb(j + 1).lgamma()
                 - flint.arb(k - j + 1).lgamma())
        a_lo, a_hi = arb_ends(exact)
    finally:
        flint.ctx.prec = old
    with working(iv):
        enc = endpoints(kov15.log_binomial(iv, k, j))
        bits = iv.prec
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert lo <= a_lo and a_hi <= hi
    assert hi - lo <= F(k + 1, 2 ** (bits - 30))
