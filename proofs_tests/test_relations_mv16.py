"""The heterogeneous exact composition the relation ``MV16:Thm1.5<=KOV15:Thm3.5`` traces
(Murtagh–Vadhan Theorem 1.5, subset by subset) against exact rationals and the registered
results, and the hand argument of the composition relations' cuts (Hoeffding's inequality)
checked at the sizes the boxes leave out.

Exact route: with ``eps_i = log r_i`` and ``eps_g = log s`` for rationals ``r_i > 1``, ``s >=
1``, every term ``w_S [1 - s prod r_i^(-sign_i)]_+`` with ``w_S = prod_(S) r_i/(1 + r_i)
prod_(not S) 1/(1 + r_i)`` is rational."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.privacy_loss_support import mpq
from reference.core.numeric import endpoints, exact, working
from reference.results import relations
from reference.results.composition.kov15 import optimal_delta
from reference.results.composition.kov15_heterogeneous import kov_heterogeneous
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.results.composition.mv16 import hetero_delta_result
from reference.results.composition.relations import subset_delta_formula

REL = relations()["MV16:Thm1.5<=KOV15:Thm3.5"]


def exact_subset_delta(r: list[Fraction], s: Fraction) -> Fraction:
    total = Fraction(0)
    for signs in itertools.product((1, -1), repeat=len(r)):
        weight, ratio = Fraction(1), Fraction(1)
        for sign, x in zip(signs, r, strict=True):
            weight *= x / (1 + x) if sign > 0 else 1 / (1 + x)
            ratio *= x if sign > 0 else 1 / x
        total += weight * max(Fraction(0), 1 - s / ratio)
    return total


def _lift(q: Fraction) -> object:
    return iv.mpf(q.numerator) / q.denominator


ratios = st.fractions(Fraction(1001, 1000), 20, max_denominator=1000)


@given(r=st.lists(ratios, min_size=1, max_size=4), u=st.fractions(0, 1, max_denominator=1000))
@example(r=[Fraction(3), Fraction(2)], u=Fraction(0))     # by hand: 1/2 (MV16's doctest)
@example(r=[Fraction(2), Fraction(2)], u=Fraction(1))     # s = 4, the top loss: its kink
def test_the_traced_formula_encloses_the_exact_sum(r: list[Fraction], u: Fraction) -> None:
    """``s`` from 1 to the largest loss's ``prod r_i``, a kink included (above)."""
    s = max(Fraction(1), Fraction(float(math.prod(r)) ** float(u)).limit_denominator(10**6))
    want = exact_subset_delta(r, s)
    with working(iv, 40):
        got = endpoints(subset_delta_formula(iv, [iv.log(_lift(x)) for x in r], iv.log(_lift(s))))
    lo, hi = exact(got.lo, "lo", "t"), exact(got.hi, "hi", "t")
    assert lo <= want <= hi
    assert hi - lo <= Fraction(1, 10**30) * max(want, Fraction(1, 10**10))
    if r == [3, 2] and s == 1:
        assert want == Fraction(1, 2)


@given(eps=st.lists(st.fractions(0, 3, max_denominator=100), min_size=1, max_size=5),
       u=st.fractions(0, Fraction(11, 10), max_denominator=1000))
def test_the_traced_formula_is_the_registered_result(eps: list[Fraction], u: Fraction) -> None:
    eps_g = u * sum(eps)
    with mp.workdps(40):
        mine = subset_delta_formula(mp, [mpq(e) for e in eps], mpq(eps_g))
        e = hetero_delta_result.certified(eps=[str(x) for x in eps], eps_g=str(eps_g))
        slack = mp.mpf(10) ** -30 * max(abs(mine), mp.mpf(10) ** -20)
        assert e.lo - slack <= mine <= e.hi + slack


@given(e1=st.fractions(0, 10, max_denominator=1000), e2=st.fractions(0, 10, max_denominator=1000),
       dt=st.fractions(Fraction(1, 10**15), Fraction(1, 2), max_denominator=10**15))
@example(e1=Fraction(1, 5), e2=Fraction(1, 4), dt=Fraction(49, 100))   # third form < sum
@example(e1=Fraction(1, 100), e2=Fraction(1, 100), dt=Fraction(1, 10))  # second < third
@example(e1=Fraction(3), e2=Fraction(2), dt=Fraction(1, 2))            # the sum is least
@example(e1=Fraction(0), e2=Fraction(1249, 137), dt=Fraction(1, 10**15))  # eps~ rounded
def test_the_margin_is_the_registered_results(e1: Fraction, e2: Fraction, dt: Fraction) -> None:
    """The relation's margin is ``1 - MV16:Thm1.5-delta(eps_g = KOV15:Thm3.5's eps~)/delta~``
    through the registered results (their minimum over the three forms included)."""
    with mp.workdps(40):
        eps_g = kov_heterogeneous(eps=[str(e1), str(e2)], delta_tilde=str(dt)).eps
        g = exact(eps_g, "eps_g", "test")
        exact_delta = hetero_delta_result.certified(eps=[str(e1), str(e2)], eps_g=str(g))
        dtm = mpq(dt)
        want = 1 - exact_delta.hi / dtm, 1 - exact_delta.lo / dtm
        got = REL.margin(mp, mpq(e1), mpq(e2), dtm)
        # eps~ is a plain value (50 digits): the exact delta moves by at most as much as
        # eps_g (|d delta/d eps_g| <= 1), the margin by that over delta~
        slack = mp.mpf(10) ** -35 + (abs(eps_g) + 1) * mp.mpf(10) ** -48 / dtm
        assert want[0] - slack <= got <= want[1] + slack
        assert 0 < got <= 1


def _rr_tail(eps: Fraction, k: int, eps_g: object) -> object:
    """``P[L > eps_g]`` for the privacy loss of k-fold ``RR_eps`` at 50 digits."""
    with mp.workdps(50):
        e = mpq(eps)
        p = mp.exp(e) / (1 + mp.exp(e))
        return mp.fsum(math.comb(k, j) * p ** (k - j) * (1 - p) ** j
                       for j in range(k + 1) if (k - 2 * j) * e > eps_g)


@given(eps=st.fractions(Fraction(1, 1000), 2, max_denominator=1000), k=st.integers(11, 3000),
       slack=st.fractions(Fraction(1, 10**15), Fraction(1, 2), max_denominator=10**15))
@example(eps=Fraction(1, 10), k=100, slack=Fraction(1, 10))
def test_hoeffding_chain_of_the_cut(eps: Fraction, k: int, slack: Fraction) -> None:
    """The cut's argument for k > 10, each step at k beyond the boxes: the exact delta at
    the tanh form's eps_g is below P[L > eps_g] (strictly when that is positive), which is
    below Hoeffding's e^(-t^2/(2k eps^2)) = delta'."""
    g = advanced_composition_tanh(eps=str(eps), k=k, delta_prime=str(slack)).eps
    with mp.workdps(50):
        tail = _rr_tail(eps, k, g)
        exact_delta = optimal_delta.certified(eps=str(eps), k=k, eps_g=str(exact(g, "g", "t")))
        assert exact_delta.hi <= tail or (tail == 0 and exact_delta.hi == 0)
        if tail > 0:
            assert exact_delta.hi < tail
        assert tail <= mpq(slack)
    if (eps, k, slack) == (Fraction(1, 10), 100, Fraction(1, 10)):
        assert tail > 0     # the example has terms beyond eps_g: the chain is not vacuous
