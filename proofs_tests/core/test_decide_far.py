"""Decisions on enclosures whose ends are too far from 1 for a Fraction (``FarEnd``).

* at binary exponents from ``2^16`` to ``2^18`` in size (far, yet small enough for an exact
  Fraction) ``judge`` on far ends gives the verdict of ``judge`` on the exact ends, and a
  margin at most the exact one and within ``2^-(prec + 12)`` (relative) of it;
* at binary exponents up to ``2^4000`` in size (no Fraction possible) the verdict is the
  one of a proxy: every nonzero claim here is at least 1/4 in size, so a far tiny end
  orders against all of them as ``+-2^-100`` does and a far huge end as ``+-2^100``;
* the oracle's assertions on ``LEC11:GaussTail`` at ``sigma = eps = 1e308`` (``e^(-5e1232)``)
  decide in a subprocess limited to 2 GB of address space (they died of MemoryError).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.far_support import exact_mpf, limit_address_space
from reference.core.decide import RELATIONS, FarEnd, Verdict, exact_end, is_far, judge
from reference.core.numeric import exact

ROOT = Path(__file__).resolve().parents[2]
small = st.fractions(-4, 4, max_denominator=4)


def ends(max_bits: int) -> st.SearchStrategy[mpmath.mpf]:
    """An ordinary number (a small fraction) or one with an exponent of 17..max_bits bits."""
    far = st.builds(lambda neg, man, bits, low, down: exact_mpf(
        neg, man, (-1 if down else 1) * ((1 << (bits - 1)) + low % (1 << (bits - 1)))),
        st.booleans(), st.integers(1, 2**53), st.integers(17, max_bits),
        st.integers(0, 2**64), st.booleans())
    near = small.map(lambda q: mpmath.mpf(q.numerator) / q.denominator)
    return st.one_of(far, near)


def _sorted(a: mpmath.mpf, b: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    return (a, b) if a <= b else (b, a)


@given(st.sampled_from(RELATIONS), ends(18), ends(18), small, st.fractions(0, 2, max_denominator=4))
def test_far_ends_decide_as_the_exact_ends(relation: str, a: mpmath.mpf, b: mpmath.mpf,
                                           v: Fraction, tol: Fraction) -> None:
    lo, hi = _sorted(a, b)
    t = tol if relation == "==" else Fraction(0)
    verdict, margin = judge(relation, exact_end(lo, "test"), exact_end(hi, "test"), v, t)
    exact_verdict, exact_margin = judge(relation, exact(lo, "lo", "test"),
                                        exact(hi, "hi", "test"), v, t)
    assert verdict is exact_verdict
    if margin is None or exact_margin is None:
        assert margin is None and exact_margin is None
        return
    if not (is_far(lo) or is_far(hi)):
        assert margin == exact_margin
        return
    low = exact(margin, "margin", "test")
    slack = Fraction(1, 2 ** (mpmath.mp.prec + 12)) * (abs(exact_margin) + abs(v) + abs(t))
    assert 0 <= exact_margin - low <= slack


def _proxy(x: mpmath.mpf) -> Fraction:
    """A number that every claim with a denominator <= 4 orders as it orders ``x``."""
    if not is_far(x):
        return exact(x, "x", "test")
    sign = 1 if x > 0 else -1
    return sign * (Fraction(1, 2**100) if mpmath.mag(x) < 0 else Fraction(2**100))


@given(st.sampled_from(RELATIONS), ends(4000), ends(4000), small,
       st.fractions(0, 2, max_denominator=4))
def test_verdicts_beyond_any_fraction(relation: str, a: mpmath.mpf, b: mpmath.mpf,
                                      v: Fraction, tol: Fraction) -> None:
    lo, hi = _sorted(a, b)
    t = tol if relation == "==" else Fraction(0)
    verdict, margin = judge(relation, exact_end(lo, "test"), exact_end(hi, "test"), v, t)
    assert verdict is judge(relation, _proxy(lo), _proxy(hi), v, t)[0]
    assert (margin is None) == (verdict is Verdict.UNDECIDED)
    if margin is not None:
        assert margin >= 0


def test_far_end_orders_and_subtracts() -> None:
    tiny = FarEnd(exact_mpf(False, 3, -(2**3000)))
    huge = FarEnd(exact_mpf(True, 5, 2**3000))
    assert tiny > 0 and tiny >= 0 and not tiny <= 0 and tiny < Fraction(1, 10**100)
    assert huge < -(10**100) and huge <= 0 and not huge > Fraction(-7, 3)
    third = Fraction(1, 3)
    for margin in (third - tiny, third - FarEnd(-tiny.x), FarEnd(-tiny.x) - Fraction(-1, 3)):
        # 1/3 -+ tiny rounded down at prec + 16 bits: below 1/3, by less than one unit
        assert 0 < third - exact(margin, "m", "test") < Fraction(1, 2 ** (mpmath.mp.prec + 16))
    assert tiny - 0 == tiny.x and 0 - tiny == -tiny.x  # exact where the result is the end
    assert is_far(tiny.x) and not is_far(mpmath.mpf(2) ** 65535) and is_far(mpmath.mpf(2) ** 65536)
    assert not is_far(mpmath.mpf(0)) and not is_far(mpmath.mpf("inf"))


SCRIPT = textwrap.dedent("""
    from reference.core.errors import DomainError
    from reference.oracle.testing import (assert_close_to, assert_sound_lower_bound,
                                          assert_sound_upper_bound, compare)
    p = dict(sigma=1e308, eps=1e308)
    try:
        assert_sound_upper_bound(0.0, "LEC11:GaussTail", **p)
        print("upper 0: passed")
    except AssertionError as err:
        msg = str(err)
        short = msg.split("short by ")[1].split(" ")[0]  # e^(-5e1232): not printed as 0
        print("upper 0:", "not a sound upper bound" in msg,
              float(short.split("e")[0]) > 0 and short.split("e")[1].startswith("-2171472409516"))
    assert_sound_lower_bound(0.0, "LEC11:GaussTail", **p)
    assert_sound_upper_bound(5e-324, "LEC11:GaussTail", **p)
    c = compare(5e-324, "LEC11:GaussTail", **p)
    print("excess:", 0 < c.excess <= 5e-324, c.relative_excess)
    try:
        assert_close_to(0.0, "LEC11:GaussTail", abs=1e-300, **p)
    except DomainError as err:
        print("close:", err.param, "2^(+-65536)" in str(err))
""")


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit via setrlimit")
def test_the_oracle_judges_a_gaussian_tail_beyond_any_fraction() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, preexec_fn=limit_address_space, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n") == ["upper 0: True True", "excess: True inf",
                                       "close: value True", ""]


def test_a_far_end_equal_to_the_claim() -> None:
    """``2^-70000`` is far and also an exact Fraction: equality is decided exactly."""
    end, q = FarEnd(mpmath.mpf(2) ** -70000), Fraction(1, 2**70000)
    assert end <= q and end >= q and not end < q and not end > q
    assert judge("<=", end, end, q) == (Verdict.HOLDS, 0)
    assert judge("<", end, end, q)[0] is Verdict.VIOLATED


@pytest.mark.parametrize(("lo", "hi", "v", "tol", "verdict", "margin"), [
    # one far end, one ordinary: the two margins of "==" come as an mp number and a Fraction
    (exact_mpf(False, 1, -(2**20)), Fraction(1, 4), Fraction(0), Fraction(1, 2), Verdict.HOLDS,
     Fraction(1, 4)),    # min(tiny + 1/2, 1/2 - 1/4)
    (exact_mpf(False, 1, -(2**20)), Fraction(1, 8), Fraction(1, 4), Fraction(1, 4), Verdict.HOLDS,
     None),              # min(tiny, 3/8): the far one, 2^-(2^20)
    (exact_mpf(True, 1, 2**20), Fraction(-3), Fraction(0), Fraction(1), Verdict.VIOLATED,
     Fraction(2)),       # max(-1 - (-3), -(2^(2^20)) - 1 < 0)
])
def test_mixed_margins_of_equality(lo: mpmath.mpf, hi: Fraction, v: Fraction, tol: Fraction,
                                   verdict: Verdict, margin: Fraction | None) -> None:
    got, m = judge("==", exact_end(lo, "test"), hi, v, tol)
    assert got is verdict and m is not None
    expected = exact(lo, "lo", "test") if margin is None else margin
    assert 0 <= expected - exact(m, "m", "test") <= expected / 2 ** (mpmath.mp.prec + 14)


def test_failure_messages_never_print_a_nonzero_gap_as_zero() -> None:
    """``2^-5000 = 7.08e-1506`` and ``2^5000 = 1.41e+1505`` (``5000 log10 2 = 1505.15``)
    underflow or overflow a float: they are printed by mpmath instead."""
    from reference.oracle.testing import _number
    assert _number(Fraction(1, 2**5000), 3) == "7.08e-1506"
    assert _number(-Fraction(1, 2**5000), 3) == "-7.08e-1506"
    assert _number(mpmath.mpf(2) ** 5000, 3) == "1.41e+1505"
    assert _number(Fraction(1, 3), 4) == "0.3333" and _number(Fraction(0), 3) == "0"
