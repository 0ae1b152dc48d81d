"""The round-by-round TCT accountant (CL23 Algorithm 6 / Theorem B.4): every input boundary,
the halting rule, the delta budget, the three tails against hand formulas (exact binomial
sums in Fractions, the Chernoff forms at 80 digits), and the smallest-m search against a
linear scan of exact tails."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core.errors import DomainError
from reference.core.numeric import endpoints, to_ctx, working
from reference.results import covers
from reference.results.tct.accountant import TCTAccountant
from reference.results.tct.accountant import exact_tail as accountant_exact_tail
from reference.results.tct.charging import MAX_HITS, binomial_lower_tail

F = Fraction


def exact_tail(m: int, q: Fraction, tau: int) -> Fraction:
    """P[Bin(m, q) <= tau - 1], summed in Fractions."""
    return sum((math.comb(m, j) * q**j * (1 - q) ** (m - j) for j in range(tau)), F(0))


def close_above(reported: object, want: object) -> bool:
    """The reported upper end is >= the value and within 10^-40 relative of it."""
    with mp.workdps(80):
        r, w = mp.mpf(reported), mp.mpf(want)
        return bool(w <= r <= w * (1 + mp.mpf(10) ** -40) + mp.mpf(10) ** -60)


def to_mp(x: Fraction) -> object:
    return mp.mpf(x.numerator) / x.denominator


@covers("CL23:ThmB.4")
def test_constructor_boundaries() -> None:
    for tau in (1, MAX_HITS):
        TCTAccountant(tau=tau, eps=1, q="0.5")
    for tau in (0, MAX_HITS + 1, True, 1.0):
        with pytest.raises(DomainError, match="tau"):
            TCTAccountant(tau=tau, eps=1, q="0.5")  # type: ignore[arg-type]
    acc = TCTAccountant(tau=1, eps=0, q=1, delta_budget=0)              # closed ends accepted
    assert (acc.eps, acc.q, acc.delta_budget, acc.history) == (0, 1, 0, [])
    assert TCTAccountant(tau=1, eps=1, q="0.5", delta_budget=F(999, 1000)).delta_budget \
        == F(999, 1000)
    for kw, msg in (({"eps": F(-1, 10**9)}, r"eps must lie in \[0, inf\]"),
                    ({"q": 0}, r"q must lie in \(0, 1\]"),
                    ({"q": 1 + F(1, 10**9)}, r"q must lie in \(0, 1\]"),
                    ({"delta_budget": 1}, r"delta_budget must lie in \[0, 1\)"),
                    ({"delta_budget": F(-1, 10**9)}, r"delta_budget must lie in \[0, 1\)")):
        args = {"tau": 1, "eps": 1, "q": "0.5", **kw}
        with pytest.raises(DomainError, match=msg):
            TCTAccountant(**args)  # type: ignore[arg-type]


@covers("CL23:ThmB.4")
def test_record_boundaries_and_budget() -> None:
    acc = TCTAccountant(tau=2, eps="0.5", q="0.25", delta_budget="0.01")
    r1 = acc.record(eps="0.5", q="0.25", hit=False, delta="0.004")       # eps = bound, q = bound
    r2 = acc.record(eps=0, q=1, hit=False, delta="0.006")                # budget exactly used
    assert (r1.index, r2.index) == (1, 2) and acc.rounds == 2
    assert (r1.eps, r1.q, r1.delta, r1.hit) == (F(1, 2), F(1, 4), F(1, 250), False)
    assert acc.delta_spent == F(1, 100)
    for kw in ({"eps": F(1, 2) + F(1, 10**9)}, {"q": F(1, 4) - F(1, 10**9)},
               {"q": 1 + F(1, 10**9)}, {"eps": -1}, {"delta": F(1, 10**9)},
               {"delta": -1}, {"delta": 1}, {"hit": 1}):
        args = {"eps": "0.5", "q": "0.5", "hit": False, **kw}
        with pytest.raises(DomainError):
            acc.record(**args)  # type: ignore[arg-type]
    assert acc.rounds == 2 and acc.delta_spent == F(1, 100)              # refused: not recorded
    with pytest.raises(DomainError, match=r"must lie in \[0, 1\)"):      # delta = 1: its domain,
        TCTAccountant(tau=1, eps=1, q="0.5", delta_budget="0.5").record(  # not the budget
            eps=1, q="0.5", hit=False, delta=1)
    acc.record(eps="0.1", q="0.5", hit=True)
    assert acc.hits == 1 and not acc.halted
    acc.record(eps="0.1", q="0.5", hit=True)
    assert acc.hits == 2 and acc.halted and acc.rounds == 4
    with pytest.raises(DomainError, match="halted"):
        acc.record(eps="0.1", q="0.5", hit=False)
    free = TCTAccountant(tau=1, eps=1, q="0.5")                           # budget 0: delta 0 only
    free.record(eps=1, q="0.5", hit=False, delta=0)
    with pytest.raises(DomainError, match="delta_budget"):
        free.record(eps=1, q="0.5", hit=False, delta=F(1, 10**30))


@covers("CL23:ThmB.4", "CL23:ThmB.4-advanced", "CL23:ThmB.4-exact")
@given(st.sampled_from([F(1, 4), F(2, 5), F(19, 40), F(1)]), st.integers(1, 6),
       st.sampled_from([F(1, 2), F(1), F(3)]), st.sampled_from([F(0), F(1, 1000)]))
def test_guarantees_match_hand_formulas(q: Fraction, tau: int, alpha: Fraction,
                                        budget: Fraction) -> None:
    """m = floor((1+alpha) tau/q); basic eps m; advanced eps sqrt(2 m ln(1/d*)) + m eps
    (e^eps - 1); delta = tail + Delta (+ d*); tails e^{-a^2 tau/(2(1+a))},
    e^{-tau(a - ln(1+a))}, exact binomial."""
    eps, ds = F(3, 10), F(1, 10**6)
    acc = TCTAccountant(tau=tau, eps=eps, q=q, delta_budget=budget)
    m = math.floor((1 + alpha) * tau / q)
    with mp.workdps(80):
        a, e = to_mp(alpha), to_mp(eps)
        tails = {"simplified": mp.exp(-a * a * tau / (2 * (1 + a))),
                 "raw": mp.exp(-tau * (a - mp.log1p(a))),
                 "exact": to_mp(exact_tail(m, q, tau))}
        adv = e * mp.sqrt(2 * m * mp.log(1 / to_mp(ds))) + m * e * mp.expm1(e)
        for tail, fail in tails.items():
            g = acc.guarantee(alpha, tail=tail)  # type: ignore[arg-type]
            assert (g.m, g.tail, g.composition) == (m, tail, "basic")
            assert close_above(g.eps, e * m) and close_above(g.delta, fail + to_mp(budget))
            g = acc.guarantee(alpha, tail=tail, delta_star=ds)  # type: ignore[arg-type]
            assert (g.m, g.composition) == (m, "advanced")
            assert close_above(g.eps, adv)
            assert close_above(g.delta, fail + to_mp(budget) + to_mp(ds))
        g = acc.guarantee_at(tau + 2)
        assert (g.m, g.tail) == (tau + 2, "exact")
        assert close_above(g.delta, to_mp(exact_tail(tau + 2, q, tau) + budget))
    assert acc.guarantee().m == math.floor(2 * tau / q)                  # alpha defaults to 1


@covers("CL23:ThmB.4")
def test_guarantee_argument_boundaries() -> None:
    acc = TCTAccountant(tau=3, eps=1, q="0.5")
    for bad in (0, -1):
        with pytest.raises(DomainError, match="alpha"):
            acc.guarantee(bad)
    with pytest.raises(DomainError, match="tail"):
        acc.guarantee(1, tail="chernoff")  # type: ignore[arg-type]
    for ds in (0, 1):
        with pytest.raises(DomainError, match="delta_star"):
            acc.guarantee(1, delta_star=ds)
    assert acc.guarantee_at(3).m == 3                                    # m = tau allowed
    for m in (2, 3.0, True):
        with pytest.raises(DomainError, match="m must"):
            acc.guarantee_at(m)  # type: ignore[arg-type]


@covers("CL23:ThmB.4-exact")
@given(st.sampled_from([F(1, 10), F(1, 3), F(1, 2), F(9, 10), F(1)]), st.integers(1, 5),
       st.sampled_from([F(3, 7), F(1, 11), F(1, 1001), F(1, 10**9 + 7)]))
def test_calls_for_is_the_smallest_m(q: Fraction, tau: int, target: Fraction) -> None:
    """Linear scan of exact tails: the answer m has tail <= target and m - 1 (if >= tau)
    does not (the enclosure cannot flip these: the tails differ from the targets by far
    more than its width)."""
    acc = TCTAccountant(tau=tau, eps=1, q=q)
    m = tau
    while exact_tail(m, q, tau) > target:
        m += 1
    got = acc.calls_for(target)
    assert type(got) is int and got == m


@covers("CL23:ThmB.4-exact")
def test_calls_for_at_the_certified_tail() -> None:
    """q = 1/2, tau = 1, tail 2^-m: a target a hair above 2^-m0 gives m0, a hair below m0 + 1;
    a target equal to the certified upper end of the tail at m0 is met (<=), so gives m0."""
    acc = TCTAccountant(tau=1, eps=1, q="0.5")
    for m0 in (1, 2, 5, 13, 40):
        assert acc.calls_for(F(1, 2**m0) * (1 + F(1, 10**30))) == m0
        assert acc.calls_for(F(1, 2**m0) * (1 - F(1, 10**30))) == m0 + 1
        with working(iv):
            hi = endpoints(binomial_lower_tail(iv, m0, to_ctx(iv, F(1, 2)), 1)).hi
        edge = frac(hi)
        assert F(1, 2**m0) <= edge < F(1, 2**(m0 - 1))
        assert acc.calls_for(edge) == m0
    assert acc.calls_for(1) == 1
    for bad in (0, F(-1, 2), F(3, 2)):
        with pytest.raises(DomainError, match="tail_delta"):
            acc.calls_for(bad)


@covers("CL23:ThmB.4")
def test_records_are_immutable() -> None:
    """A recorded Round and a reported Guarantee cannot be edited after the fact."""
    acc = TCTAccountant(tau=2, eps=1, q="0.5")
    rnd = acc.record(eps=1, q="0.5", hit=False)
    g = acc.guarantee()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rnd.hit = True  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.m = 1  # type: ignore[misc]


def law_by_trials(m: int, q: Fraction) -> list[Fraction]:
    """The law of Bin(m, q), built one Bernoulli trial at a time (a second route to the
    tail: no binomial coefficients)."""
    law = [F(1)]
    for _ in range(m):
        law = [(law[j] if j < len(law) else 0) * (1 - q) + (law[j - 1] * q if j else 0)
               for j in range(len(law) + 1)]
    return law


@covers("CL23:ThmB.4-exact")
@given(st.fractions(F(1, 50), F(49, 50), max_denominator=50), st.integers(1, 4),
       st.integers(0, 25))
def test_calls_for_at_an_exact_tie(q: Fraction, tau: int, extra: int) -> None:
    """The tail is rational, so a target can equal it: at tail_delta = P[Bin(m0, q) <= tau-1]
    the answer is m0 itself (<=), one more trial at a target just below.  Deciding on the
    enclosure alone gave m0 + 1 at the tie (its upper end is above the exact tail)."""
    m0 = tau + extra
    acc = TCTAccountant(tau=tau, eps=1, q=q)
    tie = sum(law_by_trials(m0, q)[:tau], F(0))
    assert acc.calls_for(tie) == m0
    below = sum(law_by_trials(m0 + 1, q)[:tau], F(0))       # the next tail, smaller
    assert below < tie
    assert acc.calls_for((tie + below) / 2) == m0 + 1
    assert acc.calls_for(below) == m0 + 1


@covers("CL23:ThmB.4-exact")
@given(st.fractions(F(1, 50), F(49, 50), max_denominator=50), st.integers(2, 4),
       st.integers(0, 25))
def test_calls_for_just_below_a_tail(q: Fraction, tau: int, extra: int) -> None:
    """A target 10^-60 (relative) below P[Bin(m0, q) <= tau-1]: the enclosure cannot
    separate them at 50 digits, the exact value does: m0 is one trial short, m0 + 1 (whose
    tail is far smaller) is the answer."""
    m0 = tau + extra
    tie = sum(law_by_trials(m0, q)[:tau], F(0))
    acc = TCTAccountant(tau=tau, eps=1, q=q)
    assert acc.calls_for(tie * (1 - F(1, 10**60))) == m0 + 1


def test_exact_tail_with_fewer_trials_than_tau_is_one() -> None:
    """m <= tau - 1 trials: every outcome has at most tau - 1 successes (all m + 1 of them
    summed)."""
    for m, tau in ((0, 1), (2, 3), (2, 5), (4, 9)):
        assert accountant_exact_tail(m, F(1, 3), tau) == 1
    assert accountant_exact_tail(3, F(1, 2), 2) == F(1, 2)        # (1 + 3) / 8
