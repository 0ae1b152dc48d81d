"""The root solver's fast path (reference.core.roots.newton and bracket_near) on the
known-root cases of test_roots.py (references: python-flint arb at 1200 bits).

``bracket_near`` trusts nothing in its guess: with the exact root as the guess it answers
after two evaluations, with the tightness of ``bracket``; with any other guess (far off,
a few ulps off, outside the range, at an end, None) it still encloses the root.
``newton`` reaches the root from either end of the range, in ``mp`` and in ``fp``, and
gives up (None) when its step limit is reached.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import fp, iv, mp

from proofs_tests.core.test_roots import CASES, _arb
from proofs_tests.profiles import share
from reference.core import roots
from reference.core.numeric import endpoints, working
from reference.core.roots import bracket_near, newton


@pytest.fixture(autouse=True)
def _arb_precision() -> Iterator[None]:
    old = flint.ctx.prec
    flint.ctx.prec = 1200
    yield
    flint.ctx.prec = old


def _mp_root(root: flint.arb) -> Any:
    """The arb root as an mp number at the current precision (nearest)."""
    return mp.mpf(root.mid().str(400, radius=False))


def _counted(h: Any) -> tuple[Any, list[int]]:
    calls = [0]

    def f(c: Any, x: Any) -> Any:
        calls[0] += 1
        return h(c, x)

    return f, calls


def _difference_slope(h: Any, bits: int) -> Any:
    """``h'`` by a central difference at 3x the precision (``bits`` the working precision):
    independent of any hand derivative."""
    def slope(c: Any, x: Any) -> Any:
        with mp.workprec(3 * bits):
            step = mp.ldexp(abs(x) + mp.ldexp(1, -bits), -bits)
            return (h(c, x + step) - h(c, x - step)) / (2 * step)

    return slope


def _check_enclosure(enc: Any, root: flint.arb, bits: int) -> None:
    assert _arb(enc.lo) < root < _arb(enc.hi)
    width = abs(root) * flint.arb(2) ** (10 - bits) + flint.arb(2) ** (12 - 2 * bits)
    assert _arb(enc.hi) - _arb(enc.lo) < width


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("dps", [15, 50, 200])
def test_the_exact_root_as_guess_costs_two_evaluations(name: str, dps: int) -> None:
    h, lo, hi, root = CASES[name]
    f, calls = _counted(h)
    with working(iv, dps):  # (and mp at the same precision, as in the results)
        enc = endpoints(bracket_near(iv, f, iv.mpf(lo), iv.mpf(hi), _mp_root(root)))
        bits = iv.prec
        _check_enclosure(enc, root, bits)
        assert calls[0] == 2
        # the interval is the guess +- 2^(7 - prec) of it (bracket's width, 2^(8 - prec)):
        # pinned, not only bounded (log x + 46 is decided at 2^(7 - prec), not at 2^(6 - prec))
        g = _mp_root(root)
        w = mp.ldexp(abs(g), 7 - mp.prec)
        assert enc.lo == g - w and enc.hi == g + w
    with mp.workdps(dps):
        f, calls = _counted(h)
        g = _mp_root(root)
        point = bracket_near(mp, f, mp.mpf(lo), mp.mpf(hi), g)
        assert point == g and calls[0] == 2


_OFFSETS = st.one_of(st.integers(-2**12, 2**12), st.sampled_from([-2**80, 2**80, 0]))


@settings(max_examples=share(Fraction(1)))
@given(name=st.sampled_from(sorted(CASES)), dps=st.sampled_from([15, 50]),
       ulps=_OFFSETS, where=st.floats(0, 1), kind=st.sampled_from(["ulps", "anywhere",
                                                                   "none", "outside"]))
def test_any_guess_still_encloses_the_root(name: str, dps: int, ulps: int, where: float,
                                           kind: str) -> None:
    """Guesses off by up to 2^12 ulps (the check fails on one side and the full bracket
    runs), anywhere in the range, outside it, or none: the answer holds the root with the
    tightness of ``bracket``, and the mp point is within 2^(10 - prec) of it."""
    h, lo, hi, root = CASES[name]
    for ctx in (iv, mp):
        with working(ctx, dps):
            a, b = mp.mpf(lo), mp.mpf(hi)
            r = _mp_root(root)
            guess: Any = {"ulps": r + ulps * mp.eps * abs(r), "anywhere": a + (b - a) * where,
                          "none": None, "outside": b + 1 + where}[kind]
            if ctx is iv:
                enc = endpoints(bracket_near(iv, h, iv.mpf(lo), iv.mpf(hi), guess))
                _check_enclosure(enc, root, iv.prec)
    with mp.workdps(dps):
        point = bracket_near(mp, h, mp.mpf(lo), mp.mpf(hi), guess)
        assert abs(_arb(point) - root) < abs(root) * flint.arb(2) ** (10 - mp.prec)


def test_a_guess_at_an_end_or_next_to_it_is_not_evaluated_outside_the_range() -> None:
    """The interval around the guess must lie strictly inside (lo, hi): h is only known to
    be increasing there (here it raises outside [1, 2])."""
    def h(c: Any, x: Any) -> Any:
        if x < 1 or x > 2:
            raise AssertionError("evaluated outside the range")
        return x * x - 2

    with mp.workdps(30), working(iv, 30):
        for g in (mp.mpf(1), mp.mpf(2), mp.mpf(1) + mp.eps, mp.mpf(2) - mp.eps):
            enc = endpoints(bracket_near(iv, h, iv.mpf(1), iv.mpf(2), g))
            assert _arb(enc.lo) < flint.arb(2).sqrt() < _arb(enc.hi)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("dps", [15, 50, 200])
@pytest.mark.parametrize("end", ["lo", "hi"])
def test_newton_from_either_end_reaches_the_root(name: str, dps: int, end: str) -> None:
    """With the exact slope (by finite difference of the mp function at 3x the precision:
    independent of any hand derivative), from either end: within 2^(10 - prec)."""
    h, lo, hi, root = CASES[name]
    with mp.workdps(dps):
        bits = mp.prec
        start = mp.mpf(lo) if end == "lo" else mp.mpf(hi)
        x = newton(mp, h, _difference_slope(h, bits), mp.mpf(lo), mp.mpf(hi), start)
        assert x is not None
        assert abs(_arb(x) - root) < abs(root) * flint.arb(2) ** (10 - bits)


def test_newton_in_floats() -> None:
    x = newton(fp, lambda c, x: x * x - 2, lambda c, x: 2 * x, 1.0, 2.0, 2.0)
    assert isinstance(x, float) and abs(x - math.sqrt(2)) <= 4e-16
    # a root in a logarithmic variable: absolute steps (ln t at t = e^-900)
    y = newton(fp, lambda c, y: y + 900, lambda c, y: 1.0, -1000.0, 0.0, -1.0, absolute=True)
    assert y == -900.0


def test_newton_gives_up_after_its_step_limit() -> None:
    """A slope 1000 times too large: each step moves 1/1000 of the way; from 2 to sqrt 2 at
    50 digits that is far more than the limit, so None (the caller then bisects)."""
    calls = [0]

    def h(c: Any, x: Any) -> Any:
        calls[0] += 1
        return x * x - 2

    with mp.workdps(50):
        assert newton(mp, h, lambda c, x: 1000 * 2 * x, mp.mpf(1), mp.mpf(2), mp.mpf(2)) is None
    assert calls[0] == roots._NEWTON_STEPS


def test_newton_bisects_when_the_slope_is_useless() -> None:
    """A zero, negative, infinite or NaN slope: no Newton step, only bisections of the
    bracket of the signs seen; convergence is declared by a Newton step only, so the
    answer is None, and the points tried stay inside the range and close in on the root
    (the last bracket is 2^-63 of the range: 64 halvings)."""
    seen: list[Any] = []

    def h(c: Any, x: Any) -> Any:
        seen.append(x)
        return x - mp.mpf(3) / 7

    with mp.workdps(30):
        for bad in (0, -1, mp.inf, mp.nan):
            for bottom, top, start in ((0, 1, "0.9"), (0, 100, "0.1"), (0, 100, "0.9"),
                                       (-100, 100, "0.9")):
                seen.clear()
                x = newton(mp, h, lambda c, x, b=bad: mp.mpf(b), mp.mpf(bottom),
                           mp.mpf(top), mp.mpf(start))
                assert x is None and len(seen) == roots._NEWTON_STEPS
                assert all(bottom < p < top for p in seen)
                assert abs(seen[-1] - mp.mpf(3) / 7) <= (top - bottom) * mp.ldexp(1, -62)


@pytest.mark.parametrize("side", [-1, 0, 1])
def test_an_undecided_end_is_not_taken_for_a_sign(side: int) -> None:
    """h = x - 1 + [-e, e] with e = 3w/4, w the half-width of the guess's interval: every
    point of [1 - e, 1 + e] may be the root.  Guess 1 + w/2 (side -1): the interval's
    left end 1 - w/2 is undecided although its enclosure's midpoint is negative, the right
    end decided positive; taking either for a sign would answer [1 - w/2, 1 + 3w/2] and
    leave out [1 - e, 1 - w/2].  The full bracket must run and hold the whole zone.  Side 1
    is the mirror; side 0 (guess 1) has both ends decided and the interval [1 - w, 1 + w]
    holds the zone: it is the answer."""
    with working(iv, 50):
        w = mp.ldexp(1, 7 - mp.prec)
        noise = 3 * w / 4

        def h(c: Any, x: Any) -> Any:
            return x - 1 + iv.mpf([-noise, noise])

        guess = 1 - side * w / 2
        enc = endpoints(bracket_near(iv, h, iv.mpf(0), iv.mpf(3), guess))
        assert enc.lo <= 1 - noise and enc.hi >= 1 + noise
        if side == 0:
            assert (enc.lo, enc.hi) == (1 - w, 1 + w)
        else:
            assert enc.hi - enc.lo > 2 * w  # not the guess's interval


#: Two more ranges for the start's clamp: the geometric middle of [2, 1e10] (sqrt(2/1e10)
#: would be below it) and the middle of the narrow [3/2, 2] ((a + b)/3 would be below it).
_INSIDE = {**CASES,
           "wide-above-1": (lambda c, x: c.log(x) - 5, 2, "1e10", flint.arb(5).exp()),
           "narrow": (lambda c, x: x * x - 3, "1.5", 2, flint.arb(3).sqrt())}


@pytest.mark.parametrize("start", ["below", "lo", "hi", "above"])
@pytest.mark.parametrize("name", ["sqrt2", "wide", "log-tiny", "negative", "wide-above-1",
                                  "narrow"])
def test_newton_evaluates_only_inside_the_range(name: str, start: str) -> None:
    """``h`` is only known to be increasing (or even defined) on [lo, hi]: a start outside
    it, or at an end, is moved inside (the geometric middle across orders of magnitude)
    before any evaluation, and every later point stays inside too."""
    h, lo, hi, root = _INSIDE[name]
    with mp.workdps(50):
        a, b = mp.mpf(lo), mp.mpf(hi)

        def guarded(c: Any, x: Any) -> Any:
            assert a <= x <= b, (x, a, b)
            return h(c, x)

        x0 = {"below": a - 1 - abs(a), "lo": a, "hi": b, "above": 2 * b + 1}[start]
        x = newton(mp, guarded, _difference_slope(h, mp.prec), a, b, x0)
        assert x is not None
        assert abs(_arb(x) - root) < abs(root) * flint.arb(2) ** (10 - mp.prec)
