"""The exact composition the relations trace (KOV15 Theorem 3.3 at delta = 0, term by term)
against exact rationals: with ``eps = log r`` and ``eps_g = log s`` for rationals ``r > 1``,
``s >= 1``, ``p = r/(1 + r)`` and every term ``C(k,j) p^(k-j) (1-p)^j [1 - s r^-(k-2j)]_+``
is rational, so the sum is a Fraction, and the formula's interval enclosure must contain it
and be tight; and it agrees with the registered result ``KOV15:Thm3.3-delta``."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from reference.core.numeric import endpoints, exact, working
from reference.results.composition.kov15 import optimal_delta
from reference.results.composition.relations import pure_delta_formula


def exact_delta(r: Fraction, k: int, s: Fraction) -> Fraction:
    p = r / (1 + r)
    return sum((math.comb(k, j) * p ** (k - j) * (1 - p) ** j * max(Fraction(0),
                1 - s / r ** (k - 2 * j)) for j in range(k + 1)), Fraction(0))


@given(r=st.fractions(Fraction(1001, 1000), 20, max_denominator=1000),
       k=st.integers(1, 60), u=st.fractions(0, 1, max_denominator=1000))
@example(r=Fraction(3), k=1, u=Fraction(0))          # total variation of RR_ln3: 1/2
@example(r=Fraction(2), k=4, u=Fraction(1, 2))       # s = r^2: the kink at j = 1 exactly
def test_the_traced_formula_encloses_the_exact_sum(r: Fraction, k: int, u: Fraction) -> None:
    """``s = r^(k u)`` rounded to a rational in ``[1, r^k]``: eps_g across the whole range
    where the sum is not 0, kinks (s = r^(k - 2j)) included when ``k u`` is an integer."""
    s = r ** round(k * u) if (k * u).denominator == 1 else \
        max(Fraction(1), Fraction(float(r) ** float(k * u)).limit_denominator(10**6))
    want = exact_delta(r, k, s)
    with working(iv, 40):
        def lift(q: Fraction) -> object:
            return iv.mpf(q.numerator) / q.denominator
        got = endpoints(pure_delta_formula(iv, iv.log(lift(r)), k, iv.log(lift(s))))
    lo, hi = exact(got.lo, "lo", "t"), exact(got.hi, "hi", "t")
    assert lo <= want <= hi
    assert hi - lo <= Fraction(1, 10**30) * max(want, Fraction(1, 10**10))


@given(eps=st.fractions(Fraction(1, 1000), 3, max_denominator=1000), k=st.integers(1, 60),
       u=st.fractions(0, Fraction(11, 10), max_denominator=1000))
def test_the_traced_formula_is_the_registered_result(eps: Fraction, k: int, u: Fraction) -> None:
    eps_g = u * k * eps
    with mp.workdps(40):
        mine = pure_delta_formula(mp, mp.mpf(eps.numerator) / eps.denominator, k,
                                  mp.mpf(eps_g.numerator) / eps_g.denominator)
        e = optimal_delta.certified(eps=str(eps), k=k, eps_g=str(eps_g))
        slack = mp.mpf(10) ** -30 * max(abs(mine), mp.mpf(10) ** -20)
        assert e.lo - slack <= mine <= e.hi + slack
