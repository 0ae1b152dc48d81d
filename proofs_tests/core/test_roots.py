"""The certified root bracket (reference.core.roots.bracket) on functions whose roots are
known independently: sqrt 2, log 3, the plastic number (x^3 = x + 1), -2^(1/3) from a
bracket across 0, e^-46 from [1e-30, 1/2] (log x + 46: thirty orders of magnitude below 1,
where only geometric steps are fast), a root at 1e-30
next to a left end at 0, a root spread over ten orders of magnitude, and a function whose
interval sign is undecided near its root; and three shapes on which plain regula falsi
stalls (x^12 - 1/2 on [0, 2], e^(20x) - 2 on [0, 1], 3 - 1/x on [0.01, 100]).

Reference values: python-flint arb balls at 1200 bits (``arb.sqrt``, ``arb.log``, the real
root of x^3 - x - 1 by arb Newton steps checked by sign).  Each enclosure must contain the
root and be at most 2^-(prec - 10) relative wide; the point value within that of the root;
and the evaluation count grows like log(bits), not like bits: superlinear convergence, as
the module docstring states (observed 5 to 26 at 86 to 701 bits; bounded here by
3 log2(bits) + 6, where a bisection needs about ``bits`` evaluations and the old
safeguard, a bisection after every second step, took up to 44 at 203 bits and 139 at
701 bits).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import flint
import pytest
from mpmath import iv, mp

from reference.core.numeric import endpoints, exact, log, working
from reference.core.roots import bracket

flint.ctx.prec = 1200   # for CASES, built at import; each test sets it again (below)


@pytest.fixture(autouse=True)
def _arb_precision() -> Iterator[None]:
    """flint's precision is global and other test modules leave it at 53 bits (after
    test_mir17, every comparison here came out undecided and failed): set it per test."""
    old = flint.ctx.prec
    flint.ctx.prec = 1200
    yield
    flint.ctx.prec = old


def _arb(x: Any) -> flint.arb:
    q = exact(x, "x", "test")
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _plastic() -> flint.arb:
    x = flint.arb("1.3247179572447460259609088544780973407344040569017333645340150503")
    for _ in range(4):
        x = x - (x**3 - x - 1) / (3 * x**2 - 1)
    r = flint.arb("1e-290")
    lo, hi = x.mid() - r, x.mid() + r          # certified by sign: the root is in between
    assert lo**3 - lo - 1 < 0 < hi**3 - hi - 1
    return flint.arb(x.mid(), r)


CASES: dict[str, tuple[Callable[[Any, Any], Any], Any, Any, flint.arb]] = {
    "sqrt2": (lambda c, x: x * x - 2, 1, 2, flint.arb(2).sqrt()),
    "log3": (lambda c, x: c.exp(x) - 3, 0, 5, flint.arb(3).log()),
    "plastic": (lambda c, x: x**3 - x - 1, 1, 2, _plastic()),
    "tiny": (lambda c, x: x - c.mpf("1e-30") if c is mp else x - iv.mpf(1) / 10**30, 0, 1,
             flint.arb(flint.fmpq(1, 10**30))),
    "wide": (lambda c, x: c.log(x) - 5, "1e-10", "1e10", flint.arb(5).exp()),
    "decreasing-left": (lambda c, x: 1 - 1 / x, "0.001", 1000, flint.arb(1)),
    "negative": (lambda c, x: x**3 + 2, -3, 1, -(flint.arb(2) ** (flint.arb(1) / 3))),
    "log-tiny": (lambda c, x: c.log(x) + 46, "1e-30", "0.5", flint.arb(-46).exp()),
    # strongly convex or concave: plain regula falsi keeps one end for ever on these
    "pow12": (lambda c, x: x**12 - c.mpf(1) / 2, 0, 2, flint.arb(2) ** (flint.arb(-1) / 12)),
    "exp20": (lambda c, x: c.exp(20 * x) - 2, 0, 1, flint.arb(2).log() / 20),
    "recip": (lambda c, x: 3 - 1 / x, "0.01", 100, flint.arb(1) / 3),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("dps", [15, 50, 200])
def test_bracket_encloses_known_roots_tightly(name: str, dps: int) -> None:
    h, lo, hi, root = CASES[name]
    calls = 0

    def counted(c: Any, x: Any) -> Any:
        nonlocal calls
        calls += 1
        return h(c, x)

    with working(iv, dps):
        enc = endpoints(bracket(iv, counted, iv.mpf(lo), iv.mpf(hi)))
        bits = iv.prec
    assert _arb(enc.lo) < root < _arb(enc.hi)
    # relative 2^(10 - prec), with an absolute floor 2^(12 - 2 prec) (the step out of an
    # undecided point is tol * max(|x|, eps))
    width = abs(root) * flint.arb(2) ** (10 - bits) + flint.arb(2) ** (12 - 2 * bits)
    assert _arb(enc.hi) - _arb(enc.lo) < width
    # Evaluations: observed 5 to 26 (a bisection needs about ``bits``)
    assert calls <= 3 * math.log2(bits) + 6, (calls, bits)
    with mp.workdps(dps):
        point = bracket(mp, h, mp.mpf(lo), mp.mpf(hi))
        bits = mp.prec
    assert abs(_arb(point) - root) < abs(root) * flint.arb(2) ** (10 - bits)


def test_undecided_sign_is_closed_from_both_sides() -> None:
    """h = x - 1 + [-1e-20, 1e-20] in iv: the sign is undecided on [1 - 1e-20, 1 + 1e-20];
    the bracket must contain that whole zone (every root of a function inside the ball)
    and not be much wider (the search quadruples its step from the undecided point)."""
    noise = Fraction(1, 10**20)

    def h(c: Any, x: Any) -> Any:
        return x - 1 + iv.mpf([-iv.mpf(10) ** -20, iv.mpf(10) ** -20])

    with working(iv, 50):
        enc = endpoints(bracket(iv, h, iv.mpf(0), iv.mpf(3)))
    lo, hi = exact(enc.lo, "lo", "t"), exact(enc.hi, "hi", "t")
    assert lo <= 1 - noise and 1 + noise <= hi
    assert hi - lo <= 16 * noise


@pytest.mark.parametrize("side", [-1, 1])
def test_undecided_zone_reaching_an_end_of_the_bracket(side: int) -> None:
    """The same noisy line with one end of the bracket just outside the undecided zone
    (1e-22 of it): the widening steps from the undecided point jump past that end before
    any decided sign on that side, so the end itself closes the bracket (a search that
    kept widening past it would never stop).  The bracket still holds the whole zone and
    does not reach past the end."""
    noise = Fraction(1, 10**20)
    end = 1 + side * (noise + Fraction(1, 10**22))
    lo, hi = (Fraction(0), end) if side > 0 else (end, Fraction(3))

    def h(c: Any, x: Any) -> Any:
        return x - 1 + iv.mpf([-iv.mpf(10) ** -20, iv.mpf(10) ** -20])

    with working(iv, 50):
        a = iv.mpf(lo.numerator) / lo.denominator
        b = iv.mpf(hi.numerator) / hi.denominator
        enc = endpoints(bracket(iv, h, a, b))
        start = endpoints(a).lo if side < 0 else endpoints(b).hi
    got_lo, got_hi = exact(enc.lo, "lo", "t"), exact(enc.hi, "hi", "t")
    assert got_lo <= 1 - noise and 1 + noise <= got_hi
    if side > 0:
        assert got_hi == exact(start, "b", "t")
    else:
        assert got_lo == exact(start, "a", "t")


def test_exact_zero_at_a_point_returns_it_and_bad_brackets_raise() -> None:
    with mp.workdps(30):
        assert bracket(mp, lambda c, x: x - 1, mp.mpf(0), mp.mpf(4)) == 1
        for lo, hi in ((2, 3), (-3, -2), (1, 3)):
            with pytest.raises(RuntimeError):
                bracket(mp, lambda c, x: x - 1, mp.mpf(lo), mp.mpf(hi))
    with working(iv, 30), pytest.raises(RuntimeError):
        bracket(iv, lambda c, x: x - 1, iv.mpf(-3), iv.mpf(1))


@pytest.mark.parametrize("K", [3000, 10**6])
def test_tiny_root_from_zero_is_reached_in_logarithmic_steps(K: int) -> None:
    """log x + K on [0, 1]: the root e^-K is 2^-4328 (K = 3000) or 2^-1442695 (K = 10^6)
    below the right end.  Halving from 0 needs ~1.44 K steps and ran out of them: at
    K = 3000 the point came back as 3.7e-419 and the enclosure as [0, 1.8e-422].  With the
    exponent doubled from 0 (b/2, b/4, b/16, ...) it takes about log2(1.44 K) steps of at
    most three evaluations, then the geometric and Illinois phases: bounded here by
    6 log2(1.44 K) + bits/4 + 20.  Width: h's value is known to about K 2^-bits absolute,
    which moves the root by that much relatively (d log x = dx/x): K 2^(12 - bits) is
    allowed.  Reference: python-flint arb exp(-K)."""
    calls = 0

    def h(c: Any, x: Any) -> Any:
        nonlocal calls
        calls += 1
        return log(c, x) + K

    root = flint.arb(-K).exp()
    with working(iv, 50):
        enc = endpoints(bracket(iv, h, iv.mpf(0), iv.mpf(1)))
        bits = iv.prec
    assert _arb(enc.lo) < root < _arb(enc.hi)
    assert _arb(enc.hi) - _arb(enc.lo) < root * K * flint.arb(2) ** (12 - bits)
    assert calls <= 6 * math.log2(1.44 * K) + bits // 4 + 20, calls
    with mp.workdps(50):
        point = bracket(mp, h, mp.mpf(0), mp.mpf(1))
        bits = mp.prec
    assert abs(_arb(point) - root) < root * K * flint.arb(2) ** (12 - bits)


@pytest.mark.parametrize("N", [300, 5000])
@pytest.mark.parametrize("dps", [15, 50])
def test_a_linear_function_with_a_tiny_root_from_zero(N: int, dps: int) -> None:
    """h(x) = x - 10^-N on [0, 1].  The interpolation step from [0, 1] rounds to 0 (1 - 1/(1 +
    10^-N) is below the precision), so the steps were plain halvings, each exactly halving
    the bracket and so never counted as slow: N = 300 took 1000 evaluations, and N = 5000
    ran out of steps, returning the enclosure [0, 2^-4053] and its midpoint as the point.
    Now every step after one that lands above the root doubles the exponent (b/2, b/4,
    b/16, ...): about log2(3.3 N) steps to get below the root, then the geometric and
    Illinois phases; bounded here by 3 log2(3.3 N) + 3 log2(bits) + 10 (observed 22 to 34).
    Reference: the exact rational 10^-N."""
    calls = 0

    def h(c: Any, x: Any) -> Any:
        nonlocal calls
        calls += 1
        return x - c.mpf(10) ** -N

    root = flint.arb(flint.fmpq(1, 10**N))
    with working(iv, dps):
        enc = endpoints(bracket(iv, h, iv.mpf(0), iv.mpf(1)))
        bits = iv.prec
    assert _arb(enc.lo) < root < _arb(enc.hi)
    assert _arb(enc.hi) - _arb(enc.lo) < root * flint.arb(2) ** (10 - bits)
    assert calls <= 3 * math.log2(3.3 * N) + 3 * math.log2(bits) + 10, calls
    with mp.workdps(dps):
        point = bracket(mp, h, mp.mpf(0), mp.mpf(1))
        bits = mp.prec
    assert abs(_arb(point) - root) < root * flint.arb(2) ** (10 - bits)
