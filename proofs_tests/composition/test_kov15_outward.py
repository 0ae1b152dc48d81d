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

from proofs_tests.arb_support import arb_ends, arb_q, frac
from proofs_tests.composition.test_kov15_precision import arb_optimal_delta, check
from proofs_tests.composition.test_kov15_sums_window import spy_ratios
from reference import DomainError
from reference.core.fastballs import FAST
from reference.core.numeric import endpoints, to_ctx, working
from reference.results import covers
from reference.results.composition import kov15, kov15_sums
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.kov15_heterogeneous import _lattice_guess, kov_grid
from reference.results.composition.kov15_sums import first_piece as _first_piece
from reference.results.composition.kov15_sums import largest_weight as _largest_weight

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
    (200, F(1, 5), F(1, 10**12), 100), (4000, F(2), F(1, 10**9), 300),
    (10**4, F(1, 1000), F(1, 10**6), 200)])     # the start above k/3 (the mode near k/2)
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


def _arb_piece(eps: Fraction, k: int, m: int, prec: int) -> tuple[Any, Any]:
    """``(D_m, T_m)`` summed over every ``j <= m`` in arb from the exact eps (every term
    positive): the independent route for :func:`kov15_sums.piece_sums`."""
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        e = arb_q(eps)
        p, q = 1 / (1 + (-e).exp()), 1 / (1 + e.exp())
        d_sum, t_sum = flint.arb(0), flint.arb(0)
        for j in range(m + 1):
            w = math.comb(k, j) * p ** (k - j) * q ** j
            d_sum += w * -(-2 * (m - j) * e).expm1()
            t_sum += w * (-2 * (m - j) * e).exp()
        return arb_ends(d_sum), arb_ends(t_sum)
    finally:
        flint.ctx.prec = old


_PIECES = [(F(1, 50), 4000, 1700),      # below the largest weight (1980): down only
           (F(1, 50), 4000, 1999),      # above it: up and down
           (F(1, 50), 4000, 0), (F(1, 50), 4000, 1),
           (F(3), 400, 190),            # largest weight near 18: up only, nearly all of it
           (F(1, 10**9), 300, 149),     # tiny eps: D_m cancels in W - T
           (F(30), 50, 3),              # e^-eps far below the precision
           (F(1, 10), 200, 76)]         # the window stops at j = 1: w_0 bounded, not summed


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "k", "m"), _PIECES)
def test_piece_sums_against_every_term(eps: Fraction, k: int, m: int) -> None:
    """``D_m`` and ``T_m`` in ``iv`` and on balls hold the exact sums and are within
    ``2^-(prec - 12)`` of ``D_m`` and of ``D_m + T_m`` (the forward's value lies between
    them; ``T_m`` alone can be far smaller: at m = 190, eps = 3 its terms lie 170 above
    the largest weight and are left out below ``D_m``'s precision); the plain (``mp``)
    sums agree as closely."""
    with mp.workdps(50):
        bits = mp.prec
    (d_lo, d_hi), (t_lo, t_hi) = _arb_piece(eps, k, m, bits + 4 * k.bit_length() + 200)
    for ctx in (iv, FAST, mp):
        with working(ctx), kov15._guard(ctx, k, to_ctx(ctx, eps)):
            got = kov15_sums.piece_sums(ctx, to_ctx(ctx, eps), k, m, bits)
        for value, lo, hi, scale in zip(got, (d_lo, t_lo), (d_hi, t_hi), (d_hi, d_hi + t_hi),
                                        strict=True):
            if ctx is mp:           # a point, within the same distance of the exact value
                assert abs(frac(value) - lo) <= scale / 2 ** (bits - 12), (float(lo), value)
                continue
            enc = endpoints(value)
            a, b = frac(enc.lo), frac(enc.hi)
            assert a <= lo and hi <= b and b - a <= scale / 2 ** (bits - 12), \
                (ctx, float(a), float(lo))
        if m == 0:
            assert got[0] == 0


@covers("KOV15:Thm3.3-delta")
def test_a_stop_too_early_is_widened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Floats choose where each side stops; where they stop at once (only the largest
    weight), the interval sums widen until the bound on what is left out is below
    ``2^-bits`` of ``D_m``, and still hold the exact sums, as tightly."""
    monkeypatch.setattr(kov15_sums, "_down_end", lambda k, top, x, limit: top)
    monkeypatch.setattr(kov15_sums, "_up_end", lambda k, top, m, x, limit: top)
    calls = spy_ratios(monkeypatch)
    test_piece_sums_against_every_term(F(1, 50), 4000, 1999)
    windows = [(low, high) for _, low, high in calls]
    assert windows[0] == (1980, 1980) and len(windows) > 3 and windows[-1][0] < windows[-2][0]


@covers("KOV15:Thm3.3-delta")
def test_an_upward_stop_at_the_largest_weight_is_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """m = 1999 lies above the largest weight (1980); where floats stop the upward side at
    the largest weight itself, what is left out above it is bounded from that weight (not
    from the placeholder 0 of the upward list), so the sums widen and hold the exact ones."""
    monkeypatch.setattr(kov15_sums, "_up_end", lambda k, top, m, x, limit: top)
    kov15_sums.forget()
    test_piece_sums_against_every_term(F(1, 50), 4000, 1999)


@covers("KOV15:Thm3.3-delta")
def test_each_side_stops_long_before_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """k = 10**6, eps = 0.1, eps_g = 0: the last term (k/2 - 1) lies 50 standard deviations
    above the largest weight; both sides stop with a bound, a few thousand terms out
    (k/2 = 5 * 10**5), and the value agrees with scipy."""
    calls = spy_ratios(monkeypatch)
    enc = optimal_delta.certified(eps="0.1", k=10**6, eps_g=0)
    assert len(calls) == 1
    top, low, high = calls[0]
    assert 0 < low < top < high < 10**6 // 2 - 1 and high - low < 20_000
    assert abs(float(enc.lo) / _scipy_delta(0.1, 10**6, 0) - 1) < 1e-9


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("shift", [-3, -1, 1, 4])
def test_the_inverse_sums_one_piece_once(monkeypatch: pytest.MonkeyPatch, shift: int) -> None:
    """The solver and the certificate's evaluations share one computation of the sums
    (k = 10**4, delta_g = 1e-6); a float guess of the piece off by a few is corrected by the
    solver, at the cost of a sum per step, to the same certified answer."""
    calls, real_piece = spy_ratios(monkeypatch), kov15.float_piece
    cert = optimal_epsilon(eps="0.01", k=10**4, delta_g="1e-6")
    assert len(calls) == 1 and cert.holds
    monkeypatch.setattr(kov15, "float_piece", lambda *a: real_piece(*a) + shift)
    calls.clear()
    kov15_sums._CACHE.clear()
    moved = optimal_epsilon(eps="0.01", k=10**4, delta_g="1e-6")
    assert len(calls) == abs(shift) + 1
    assert (moved.lo, moved.value, moved.hi) == (cert.lo, cert.value, cert.hi)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("eps", "k", "target"), [
    (F(1, 50), 4000, F(1, 10**6)), (F(1, 100), 3000, F(1, 10**3)), (F(1, 2), 100, F(3, 5)),
    (F(1, 10**6), 1000, F(1, 10**4)), (F(5), 20, F(1, 10**30)), (F(1, 10), 3, F(1, 2))])
def test_float_piece_is_the_root_s_piece(eps: Fraction, k: int, target: Fraction) -> None:
    """The float walk's piece ``m`` is the exact one: ``D_m < t <= D_(m+1)`` (arb, every
    term), or the last piece when even ``D`` at eps_g = 0 is below ``t``."""
    with mp.workdps(30):
        m = kov15_sums.float_piece(k, to_ctx(mp, eps), to_ctx(mp, target))
    last = (k + 1) // 2 - 1
    assert 0 <= m <= last       # a piece of the domain: (k - 2m - 2) eps <= eps_g, 0 <= eps_g
    (below, _), _ = _arb_piece(eps, k, m, 200)
    assert below < target
    if m < last:
        (above, _), _ = _arb_piece(eps, k, m + 1, 200)
        assert target <= above


@covers("KOV15:Thm3.3-delta")
def test_rest_bound() -> None:
    """``w r / (1 - r)`` on each side left out, from the weight at the side's end and the
    ratio of the next weight to it; None where a ratio may reach 1; 0 where nothing is
    left out."""
    with working(iv):
        one, half = iv.mpf(1), iv.mpf(1) / 2   # e^-eps and e^eps both 1/2: exact ratios
        tight = 1 + mp.mpf(2) ** (8 - iv.prec)

        def bound(*args: Any) -> Any:
            return kov15_sums._rest(iv, *args, one, 4 * one, half, half)

        # down from low = 2: r = 2 (1/2) / 9 = 1/9, bound 1/8; up from high = 4 (m = 5):
        # r = 6 (1/2) / 5 = 3/5, bound 4 (3/5) / (2/5) = 6
        for args, exact_bound in (((10, 5, 2, 5), F(1, 8)), ((10, 5, 0, 4), F(6)),
                                  ((10, 5, 2, 4), F(49, 8)), ((10, 5, 0, 5), F(0))):
            got = bound(*args)
            assert frac(got) >= exact_bound and got <= to_ctx(mp, exact_bound) * tight
        # down from low = 1: r = 1 (1/2) / 10, bound 1/19 (w_0 is left out, not skipped)
        got = bound(10, 5, 1, 5)
        assert frac(got) >= F(1, 19) and got <= to_ctx(mp, F(1, 19)) * tight
        # a ratio of exactly 1 (up from high = 2 at k = 8: 6 (1/2) / 3) bounds nothing
        assert bound(8, 5, 0, 2) is None
        # up from high = 1: r = 9 (1/2) / 2 > 1; down from low = 7 with e^eps = 2: r = 14/4
        assert bound(10, 5, 0, 1) is None
        assert kov15_sums._rest(iv, 10, 9, 7, 9, one, one, half, 2 * one) is None


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
        enc = endpoints(kov15_sums.log_binomial(iv, k, j))
        bits = iv.prec
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert lo <= a_lo and a_hi <= hi
    assert hi - lo <= F(k + 1, 2 ** (bits - 30))
