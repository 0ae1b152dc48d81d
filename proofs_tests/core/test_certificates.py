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

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.certificates import least_step, tight


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
