"""The search helpers of the certified inverses (reference.core.certificates): the least
step exponent found by galloping and bisection, and the tightness rule of a bracket.

Expected values are exact: the least ``e`` with ``e >= k`` is ``k``; call counts are
bounded by the galloping argument (exponents 0, 1, 3, ..., 2^j - 1, fast, then a
bisection of the last gap: at most 2 log2(k + 2) + 4 calls), and above ``fast`` by the
one-at-a-time rule (no exponent beyond ``k`` is tried).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.certificates import least_step, on_grid, tight


def _count(k: int, fast: int, limit: int) -> tuple[int, list[int]]:
    tried: list[int] = []

    def ok(e: int) -> bool:
        tried.append(e)
        return e >= k

    return least_step(ok, fast, limit, "test"), tried


@given(st.integers(0, 600), st.integers(0, 300))
def test_least_step_is_exact_and_gallops_only_below_fast(k: int, fast: int) -> None:
    e, tried = _count(k, fast, 10**4)
    assert e == k
    assert all(t >= 0 for t in tried)
    if k <= fast:       # galloping: about 2 log2 k calls, never past 2k + 1
        assert len(tried) <= 2 * math.log2(k + 2) + 4, (k, fast, tried)
        assert max(tried) <= 2 * k + 1
    else:               # beyond fast one at a time: no step more than twice the one needed
        assert max(tried) == k
        assert len(tried) <= math.log2(fast + 2) + 3 + (k - fast), (k, fast, tried)


@pytest.mark.parametrize(("k", "fast", "expected"), [
    (0, 10, [0]),                        # found at once: no bisection
    (5, 100, [0, 1, 3, 7, 5, 4]),        # gallop 0, 1, 3, 7; bisect (3, 7]: 5 yes, 4 no
    (5, 5, [0, 1, 3, 5, 4]),             # the gallop stops at fast itself
    (6, 3, [0, 1, 3, 4, 5, 6]),          # past fast: one at a time
    (6, 6, [0, 1, 3, 6, 4, 5]),          # 2*3 + 1 = 7 > fast = 6: fast itself next
    (8, 8, [0, 1, 3, 7, 8]),             # 7 <= fast = 8: 7, then fast itself (no gap)
])
def test_least_step_tries_the_documented_exponents(k: int, fast: int,
                                                   expected: list[int]) -> None:
    """The exponents tried, in order, as the docstring describes them (worked by hand)."""
    assert _count(k, fast, 100) == (k, expected)


@pytest.mark.parametrize("fast", [0, 5, 200])
def test_least_step_gives_up_past_its_limit(fast: int) -> None:
    """An answer at the limit is found; one past it raises with the caller's message."""
    assert _count(50, fast, 50)[0] == 50
    with pytest.raises(RuntimeError, match=r"could not X \(no step up to base 2\^50 reaches"):
        least_step(lambda e: e >= 51, fast, 50, "could not X")


def test_least_step_returns_a_tested_point_of_a_non_monotone_predicate() -> None:
    """ok need not be monotone: whatever is returned was tested true."""
    seen: dict[int, bool] = {}

    def ok(e: int) -> bool:
        seen[e] = e in (3, 9, 10, 11, 12, 13, 14, 15) or e >= 20
        return seen[e]

    e = least_step(ok, 100, 1000, "t")
    assert seen[e] and e == 3            # 0, 1, 3: true at 3, and 2 is false
    assert least_step(lambda e: e >= 7 and e != 8, 100, 1000, "t") == 7


def test_tight_is_relative_to_the_larger_end_with_sixteen_bits_of_slack() -> None:
    """[1, 1 + W] is tight iff W <= (1 + W) w, w = 2^(16 - bits): iff W <= w / (1 - w)."""
    bits = 100
    w = Fraction(1, 2 ** (bits - 16))
    edge, tiny = w / (1 - w), Fraction(1, 2**300)
    assert tight(Fraction(1), 1 + edge, bits)                # at the threshold: tight
    assert not tight(Fraction(1), 1 + edge + tiny, bits)
    assert tight(-1 - edge, Fraction(-1), bits)              # |lo| is the larger end
    assert not tight(-1 - edge - tiny, Fraction(-1), bits)
    assert tight(Fraction(0), Fraction(0), bits)             # an inverse at its floor
    assert not tight(Fraction(0), Fraction(1, 2**500), bits)  # [0, x]: relatively wide
    assert tight(Fraction(2), 2 + 2 * w, bits) and not tight(Fraction(2), 2 + 3 * w, bits)


def _mpmath_on_grid(x: Fraction, up: bool, prec: int) -> Fraction:
    """The same rounding by mpmath's directed division (the route ``on_grid`` took before)."""
    lib = mpmath.libmp
    rnd = lib.round_ceiling if up else lib.round_floor
    sign, man, exp, _ = lib.mpf_div(lib.from_int(x.numerator), lib.from_int(x.denominator),
                                    prec, rnd)
    return (-1) ** sign * Fraction(man) * Fraction(2) ** exp


def _mantissa_bits(x: Fraction) -> int:
    """Bits of the odd mantissa of a dyadic rational (0 for 0)."""
    assert x.denominator & (x.denominator - 1) == 0     # a power of 2
    n = abs(x.numerator)
    return (n >> ((n & -n).bit_length() - 1)).bit_length() if n else 0


@given(st.fractions(), st.booleans(), st.integers(2, 400))
def test_on_grid_rounds_outward_to_the_nearest_grid_point(x: Fraction, up: bool,
                                                          prec: int) -> None:
    """``on_grid(x)`` has at most ``prec`` bits, lies on the asked side of ``x`` (equal when
    ``x`` is on the grid), no grid point lies strictly between them, and it is what
    mpmath's directed division gives."""
    with mp.workprec(prec):
        got = on_grid(x, up)
    assert _mantissa_bits(got) <= prec
    assert (got >= x) if up else (got <= x)
    if got != x:        # the next grid point inward (a step of the last bit) is past x
        size = abs(got)
        step = Fraction(2) ** (math.floor(math.log2(size)) - prec + 1) if size else 0
        if size and size == Fraction(2) ** math.floor(math.log2(size)) and (got > 0) == up:
            step /= 2   # below a power of 2 the grid is twice as fine
        inward = got - step if up else got + step
        assert (inward < x) if up else (inward > x)
    assert got == _mpmath_on_grid(x, up, prec)


@pytest.mark.parametrize(("x", "up", "prec", "expected"), [
    (Fraction(1, 3), True, 4, Fraction(11, 32)),     # 0.0101010... -> 0.01011
    (Fraction(1, 3), False, 4, Fraction(10, 32)),
    (Fraction(-1, 3), True, 4, Fraction(-10, 32)),   # up is toward +inf
    (Fraction(-1, 3), False, 4, Fraction(-11, 32)),
    (Fraction(15, 16), True, 3, Fraction(1)),        # 0.1111 -> 1.000: carries to 2^0
    (Fraction(5, 4), True, 3, Fraction(5, 4)),       # on the grid
    (Fraction(0), True, 3, Fraction(0)),
    (Fraction(2) ** 1000 + 1, False, 53, Fraction(2) ** 1000),
])
def test_on_grid_by_hand(x: Fraction, up: bool, prec: int, expected: Fraction) -> None:
    with mp.workprec(prec):
        assert on_grid(x, up) == expected
