"""The solver's starting points of the root-solved conversions (CKS20's optimal orders, the
Gaussian curve's inverse): the answer does not depend on them, and they make it cheap.

* Same answer: with the guess switched off (the full certified bracket from the range's
  ends, the route before the guesses) the enclosures overlap and the plain values agree
  to 2^(12 - prec) relatively, at typical inputs and at the extremes of each domain.
* Cheap: over the whole ranges drawn (rho in [1e-12, 1e12], delta in [1e-300, 0.9]; the
  delta form with rho in [1e-12, 1e6], eps in [1e-6, 1e4]) the certified bracket of the
  order never runs its fallback search, and the order gap is evaluated at most 6 times
  in mp/iv for the eps form (measured: 5 at 200 draws) and 10 for the delta form
  (measured 4 to 9); the Gaussian inverse's point solver evaluates the curve at most 9
  times, in mp and on Arb's balls alike (measured 3 to 8 at 300 draws; 6 to 11 while it
  also tested the signs around its point and at 0).  Without the guesses these were 15 to
  27 evaluations.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import fp, libmp, mp

from proofs_tests.arb_support import frac
from proofs_tests.profiles import share
from reference.core import roots
from reference.core.fastballs import FAST
from reference.core.numeric import get_dps, to_ctx, working
from reference.results import get
from reference.results.conversions import bw18, cks20


def _log_uniform(lo: int, hi: int) -> st.SearchStrategy[str]:
    """Decimal strings 10^x, x uniform-ish in [lo, hi], with 6 significant digits."""
    return st.builds(lambda m, e: f"{m}e{e}", st.integers(100000, 999999),
                     st.integers(lo - 5, hi - 6))


_RHO = _log_uniform(-12, 12)
_DELTA = st.builds(lambda m, e: f"{m}e{e}", st.integers(100000, 899999), st.integers(-305, -6))
_RHO_D = _log_uniform(-12, 6)
_EPS_D = _log_uniform(-6, 4)

_PANEL = [
    ("CKS20:Cor13", {"rho": "1.3527", "delta": "1e-6"}),
    ("CKS20:Cor13", {"rho": "1e-300", "delta": "1e-300"}),
    ("CKS20:Cor13", {"rho": "1e20", "delta": "0.999999"}),
    ("CKS20:Cor13", {"rho": "1", "delta": "0.9999999999999999999999999999999999999999999"}),
    ("CKS20:Cor13-order", {"rho": "1", "delta": "1e-6"}),
    ("CKS20:Cor13-order", {"rho": "5e-324", "delta": "5e-324"}),
    ("CKS20:Cor13-delta", {"rho": "1", "eps": "7.766"}),
    ("CKS20:Cor13-delta", {"rho": "1000", "eps": "100"}),
    ("CKS20:Cor13-delta", {"rho": "1e-10", "eps": "30"}),
    ("CKS20:Cor13-delta", {"rho": "1e-300", "eps": "1e-300"}),
    ("BW18:Thm8-rho-eps", {"rho": "1.3527", "delta": "1e-6"}),
    ("BW18:Thm8-rho-eps", {"rho": "1e-16", "delta": "1e-300"}),
    ("BW18:Thm8-rho-eps", {"rho": "9e15", "delta": "0.9999"}),
    ("BW18:Thm8-eps", {"sigma": "1e-4", "delta": "1e-100"}),
    ("BW18:Thm8-eps", {"sigma": "1e4", "delta": "1e-10"}),
]


def _no_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cks20, "_guess", lambda *a: None)
    monkeypatch.setattr(bw18, "_newton_guess", lambda *a: None)


def _ends(x: Any) -> tuple[Any, Any]:
    """An enclosure's or an inverse certificate's ends."""
    return x.lo, x.hi


def _point(x: Any) -> Any:
    return getattr(x, "value", x)


@pytest.mark.parametrize(("rid", "params"), _PANEL, ids=[f"{r}-{p}" for r, p in _PANEL])
def test_the_answer_does_not_depend_on_the_guess(rid: str, params: dict[str, str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    res = get(rid)
    fast_enc, fast = res.certified(**params), res(**params)
    with monkeypatch.context() as m:
        _no_guess(m)
        slow_enc, slow = res.certified(**params), res(**params)
    (a, b), (c, d) = _ends(fast_enc), _ends(slow_enc)
    assert max(a, c) <= min(b, d), (fast_enc, slow_enc)
    with mp.workdps(get_dps()):
        bits = mp.prec
    with mp.workdps(60):
        x, y = mp.mpf(_point(fast)), mp.mpf(_point(slow))
        assert abs(x - y) <= abs(y) * mp.ldexp(1, 12 - bits), (x, y)
        # the plain value inside the enclosure rounded outward to the working precision
        lo = mp.make_mpf(libmp.mpf_pos(mp.mpf(a)._mpf_, bits, libmp.round_floor))
        hi = mp.make_mpf(libmp.mpf_pos(mp.mpf(b)._mpf_, bits, libmp.round_ceiling))
        assert lo <= x <= hi, (lo, x, hi)


class _Count:
    """Calls of ``module.name`` by context (floats apart), and a bracket that must not run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
        self.calls = {"fp": 0, "other": 0}
        inner = getattr(module, name)

        def counted(ctx: Any, *args: Any) -> Any:
            self.calls["fp" if ctx is fp else "other"] += 1
            return inner(ctx, *args)

        monkeypatch.setattr(module, name, counted)

        def no_fallback(*args: Any) -> Any:
            raise AssertionError("the guess missed: the full bracket ran")

        monkeypatch.setattr(roots, "bracket", no_fallback)
        monkeypatch.setattr(bw18, "bracket", no_fallback)   # the Gaussian solver's fallback


def _gap_calls(rid: str, gap: str, **params: str) -> dict[str, int]:
    """Evaluations of CKS20's order gap ``gap`` by one certified call of ``rid`` (floats
    apart); raises if the full bracket runs."""
    with pytest.MonkeyPatch.context() as m:
        count = _Count(m, cks20, gap)
        get(rid).certified(**params)
    return count.calls


@settings(max_examples=share(Fraction(1, 4)))
@given(rho=_RHO, delta=_DELTA)
def test_the_eps_form_takes_the_fast_path(rho: str, delta: str) -> None:
    calls = _gap_calls("CKS20:Cor13", "_eps_order_gap", rho=rho, delta=delta)
    assert calls["other"] <= 6, calls


@settings(max_examples=share(Fraction(1, 4)))
@given(rho=_RHO_D, eps=_EPS_D)
def test_the_delta_form_takes_the_fast_path(rho: str, eps: str) -> None:
    calls = _gap_calls("CKS20:Cor13-delta", "_delta_order_gap", rho=rho, eps=eps)
    assert calls["other"] <= 10, calls


def _solve(ctx: Any, rho: Fraction, delta: Fraction) -> Any:
    """The Gaussian inverse's point solver at 50 digits, its curve in ``ctx`` (``mp``, or
    Arb's balls as in the registered inverses)."""
    with working(ctx, 50):
        r, d = to_ctx(ctx, rho), to_ctx(ctx, delta)
        return bw18._solve_eps(ctx, ctx.sqrt(2 * r), d)


@pytest.mark.parametrize("ctx", [mp, FAST], ids=["mp", "balls"])
@settings(max_examples=share(Fraction(1, 8)))
@given(rho=_RHO, delta=_DELTA)
def test_the_gaussian_inverse_solver_takes_the_fast_path(ctx: Any, rho: str,
                                                          delta: str) -> None:
    with pytest.MonkeyPatch.context() as m:
        count = _Count(m, bw18, "gauss_delta")
        _solve(ctx, Fraction(rho), Fraction(delta))
    assert count.calls["other"] <= 9, count.calls


#: Inputs at the ends of the domains, with the evaluations (mp and iv) measured when the
#: guesses were written plus one (a float or mpmath version may move a Newton step); the
#: full search took 15 to 27 at each.  Outside the float range (5e-324, where 2/delta
#: overflows) the Newton steps run in mp only.
_EXTREME_COUNTS = [
    ("CKS20:Cor13", "_eps_order_gap", {"rho": "1e-300", "delta": "1e-300"}, 7),
    ("CKS20:Cor13", "_eps_order_gap", {"rho": "5e-324", "delta": "5e-324"}, 13),
    ("CKS20:Cor13", "_eps_order_gap", {"rho": "1e20", "delta": "0.999999"}, 7),
    ("CKS20:Cor13", "_eps_order_gap",
     {"rho": "1", "delta": "0.9999999999999999999999999999999999999999999"}, 5),
    ("CKS20:Cor13", "_eps_order_gap", {"rho": "1e300", "delta": "1e-300"}, 9),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1000", "eps": "100"}, 5),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1000", "eps": "1000"}, 7),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1e-300", "eps": "1e-300"}, 7),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1e6", "eps": "1e-6"}, 5),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1e-12", "eps": "1e4"}, 6),
    # 8 rho below 2^-prec d^2: the form (d + root)/(4 rho) of the start is the one without
    # cancellation (2/(root - d) divides by 0 there)
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1e-300", "eps": "1"}, 6),
    ("CKS20:Cor13-delta", "_delta_order_gap", {"rho": "1e-300", "eps": "0.5"}, 6),
]


@pytest.mark.parametrize(("rid", "gap", "params", "most"), _EXTREME_COUNTS,
                         ids=[f"{r}-{p}" for r, _, p, _ in _EXTREME_COUNTS])
def test_the_extremes_take_the_fast_path(rid: str, gap: str, params: dict[str, str],
                                         most: int) -> None:
    calls = _gap_calls(rid, gap, **params)
    assert calls["other"] <= most, calls
    # the float phase converges or is skipped (outside the float range) in a few steps,
    # never running to its step limit (measured 0 to 7)
    assert calls["fp"] <= 8, calls


@pytest.mark.parametrize("x", [-40.0, -5.0, 0.0, 1.5, 10.0, 29.5, 30.0, 30.5, 100.0, 1e5, 1e150])
def test_the_float_log_tail_matches_mpmath(x: float) -> None:
    """``ln Q(x)`` in floats (the guess's): erfc below 30, the asymptotic series from 30 on
    (relative error under 105 x^-8 + rounding), against mpmath's erfc at 60 digits."""
    with mp.workdps(60):
        exact = mp.log(mp.erfc(mp.mpf(x) / mp.sqrt(2)) / 2)
        got = bw18._float_log_sf(x)
        assert abs(got - exact) <= abs(exact) * 1e-12 + 1e-15, (got, exact)


@pytest.mark.parametrize(("rho", "delta"), [("1.3527", "1e-6"), ("0.5", "1e-6"),
                                            ("100", "0.5"), ("1", "1e-300"), ("0.01", "1e-3"),
                                            ("0.1", "0.01")])
def test_the_float_newton_phase_does_the_work(rho: str, delta: str) -> None:
    """Where the numbers are floats, the float Newton phase brings the point to double
    precision, so the mp phase needs at most 4 evaluations of the curve (measured 3 or 4;
    with the float phase broken, 6 to 8; the last two roots, 0.30 and 0.79, lie below 1:
    a float search over [1, top] missed them)."""
    with pytest.MonkeyPatch.context() as m, mp.workdps(60):
        count = _Count(m, bw18, "gauss_delta")
        mu, target = mp.sqrt(2 * mp.mpf(rho)), mp.mpf(delta)
        top = mu * mu / 2 + 2 * mp.sqrt(mu * mu / 2 * mp.log(1 / target)) + 1
        point = bw18._newton_guess(mp, bw18._point_curve(mp, mu), mu, mp.log(target), top)
    assert point is not None and count.calls["other"] <= 4, count.calls
    with mp.workdps(60):
        assert abs(bw18.gauss_delta(mp, mu, point) / target - 1) < mp.mpf(10) ** -45


@pytest.mark.parametrize(("rho", "delta", "most"), [("1e-16", "1e-300", 6),
                                                    ("5e-9", "1e-10", 9)])
def test_the_mp_phase_starts_near_the_root(rho: str, delta: str, most: int) -> None:
    """Where the float phase cannot help (mu ~ 1e-8: the two tails agree to 16 digits), the
    mp Newton steps start from mu (z + mu/2), the root of Q(eps/mu - mu/2) = delta (an upper
    bound of eps*): measured 5 and 8 evaluations of the curve in all (8 and 11 while the
    solver also tested the signs around its point, the certificate's work), 30 and 21 from
    BS16's bound."""
    r, d = Fraction(rho), Fraction(delta)
    with pytest.MonkeyPatch.context() as m, mp.workdps(60):
        count = _Count(m, bw18, "gauss_delta")
        mu = mp.sqrt(2 * mp.mpf(r.numerator) / r.denominator)
        bw18._solve_eps(mp, mu, mp.mpf(d.numerator) / d.denominator)
    assert count.calls["other"] <= most, count.calls


@pytest.mark.parametrize(("rho", "factor", "above"), [
    ("0.5", Fraction(1), False), ("0.5", 1 - Fraction(1, 10**12), False),
    ("0.5", Fraction(1, 2), True), ("1e-16", Fraction(1, 10**6), True),
    ("1e-16", 1 - Fraction(1, 10**6), True), ("1e-16", 1 - Fraction(1, 10**10), False),
    ("1e16", 1 - Fraction(1, 10**6), True), ("1e16", 1 - Fraction(1, 10**20), False)])
def test_the_solver_spares_the_test_at_zero_only_far_from_it(rho: str, factor: Fraction,
                                                             above: bool) -> None:
    """The float test that spares the solver its evaluation at 0: true only where the target
    lies below ``delta(0) = erf(mu / (2 sqrt 2))`` by much more than float rounding (a part
    in 10^9 of its logarithm); targets at or next to delta(0) (where the answer may be 0)
    and beyond the floats' resolution (``1 - 1e-20`` at mu = 1.4e8, where delta(0) rounds to
    1.0) keep the test.  delta(0) from mpmath's erf at 60 digits."""
    with mp.workdps(60):
        mu = mp.sqrt(2 * mp.mpf(rho))
        at_zero = mp.erf(mu / mp.sqrt(8))
        log_target = mp.log(at_zero * mp.mpf(factor.numerator) / factor.denominator)
        assert bw18._above_at_zero(mu, log_target) is above


@pytest.mark.parametrize("ctx", [mp, FAST], ids=["mp", "balls"])
def test_the_solver_answers_0_only_at_or_above_delta_at_zero(ctx: Any) -> None:
    """At rho = 1/2 (mu = 1), delta(0) = erf(1/(2 sqrt 2)) (mpmath, 80 digits).  A part in
    10^12 below it, where floats cannot tell the two apart, the root is positive: to first
    order ``(delta(0) - delta) / Q(1/2)`` (the curve's slope at 0 is ``-Q(mu/2)``; the
    second-order term is a part in 10^12 of it).  At delta(0) rounded up to 60 digits the
    answer is 0."""
    with mp.workdps(80):
        at_zero = mp.erf(1 / mp.sqrt(8))
        below = frac(at_zero * (1 - mp.mpf(10) ** -12))
        above = Fraction(int(mp.ceil(at_zero * 10**60)), 10**60)
        q_half = mp.erfc(1 / mp.sqrt(8)) / 2
        first = (at_zero - mp.mpf(below.numerator) / below.denominator) / q_half
    root = _solve(ctx, Fraction(1, 2), below)
    with mp.workdps(80):
        assert abs(root / first - 1) < mp.mpf(10) ** -9, (root, first)
    assert _solve(ctx, Fraction(1, 2), above) == 0
