"""Exact rational routes (fractions.Fraction): values that are rational, or have a rational
certificate, pinned two-sided against our certified enclosures.

Independent: each expected value is computed here from its definition in Fractions (or by
hand, stated in the comment), never from the library's code.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.arb_support import frac
from proofs_tests.profiles import share
from reference import get

TIGHT = Fraction(1, 10**40)


def pinned(enc: object, exact: Fraction) -> None:
    """``exact`` in the enclosure, and the enclosure within 1e-40 (relative) of it."""
    lo, hi = frac(enc.lo), frac(enc.hi)  # type: ignore[attr-defined]
    assert lo <= exact <= hi, f"{exact} outside [{lo}, {hi}]"
    assert hi - lo <= TIGHT * max(abs(exact), Fraction(1, 10**5)), f"[{lo}, {hi}] too wide"


def dists(n: int) -> st.SearchStrategy[list[Fraction]]:
    w = st.lists(st.integers(0, 12), min_size=n, max_size=n).filter(lambda v: sum(v) > 0)
    return w.map(lambda v: [Fraction(x, sum(v)) for x in v])


pairs = st.integers(1, 5).flatmap(lambda n: st.tuples(dists(n), dists(n)))


# ---- hockey-stick divergence at eps = 0: the total variation distance -------------------

def test_hockey_stick_pinned_by_hand() -> None:
    # (1/2, 1/2) against (2/5, 3/5): only the first point counts, 1/2 - 2/5 = 1/10.
    pinned(get("RSWR23:Def2.1").certified(P="1/2,1/2", Q="2/5,3/5", eps=0), Fraction(1, 10))
    # eps = log 2 is irrational input; at eps = 0 the other direction is also 1/10.
    pinned(get("RRUV16:Def2.1").certified(P="1/2,1/2", Q="2/5,3/5", eps=0), Fraction(1, 10))


@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(pairs)
def test_hockey_stick_at_zero_is_total_variation(pq: tuple[list[Fraction], list[Fraction]]) -> None:
    P, Q = pq
    tv = sum((max(p - q, Fraction(0)) for p, q in zip(P, Q, strict=True)), Fraction(0))
    pinned(get("RSWR23:Def2.1").certified(P=P, Q=Q, eps=0), tv)
    tv_back = sum((max(q - p, Fraction(0)) for p, q in zip(P, Q, strict=True)), Fraction(0))
    assert tv == tv_back  # both directions agree for probability vectors
    pinned(get("RRUV16:Def2.1").certified(P=P, Q=Q, eps=0), tv)


@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(pairs)
def test_pointwise_delta_at_zero(pq: tuple[list[Fraction], list[Fraction]]) -> None:
    """At eps = 0, |L(a)| > 0 iff P(a) != Q(a): the mass of those points, max over X, Y."""
    P, Q = pq
    mx = sum((p for p, q in zip(P, Q, strict=True) if p != q), Fraction(0))
    my = sum((q for p, q in zip(P, Q, strict=True) if p != q), Fraction(0))
    pinned(get("RRUV16:Def2.2").certified(P=P, Q=Q, eps=0), max(mx, my))


def test_pointwise_delta_tie_is_informative() -> None:
    """Regression: a tie P(a) = Q(a) at a non-dyadic mass and eps = 0 gave the sound but
    uninformative [0, 1+] (the interval comparison of p with e^0 q could not decide); the
    events are now decided on the exact inputs.  Exact values: 0, and 1/3 when the other
    point differs."""
    pinned(get("RRUV16:Def2.2").certified(P="2/3,1/3", Q="2/3,1/3", eps=0), Fraction(0))
    pinned(get("RRUV16:Def2.2").certified(P="2/3,1/3,0", Q="2/3,0,1/3", eps=0),
           Fraction(1, 3))


# ---- Rényi divergence at integer orders: exp((a-1) D) is a rational sum ------------------

def _renyi_sum(P: list[Fraction], Q: list[Fraction], a: int) -> Fraction:
    return sum((p ** a / q ** (a - 1) for p, q in zip(P, Q, strict=True) if p > 0), Fraction(0))


def _mp_to_arb(x: object) -> arb:
    sign, man, exp, _ = x._mpf_  # type: ignore[attr-defined]
    b = arb(int(man)) * arb(2) ** int(exp) if man else arb(0)
    return -b if sign else b


def test_renyi_pinned_by_hand() -> None:
    # (1/2, 1/2) against (1/4, 3/4) at order 2: (1/4)/(1/4) + (1/4)/(3/4) = 4/3.
    enc = get("RSWR23:Renyi").certified(P="1/2,1/2", Q="1/4,3/4", alpha=2)
    _renyi_certificate(enc, Fraction(4, 3), 2)


def _renyi_certificate(enc: object, R: Fraction, a: int) -> None:
    old = ctx.prec
    ctx.prec = 680
    try:
        lo, hi = _mp_to_arb(enc.lo), _mp_to_arb(enc.hi)  # type: ignore[attr-defined]
        r = arb(R.numerator) / R.denominator
        # exp((a-1) lo) <= R <= exp((a-1) hi), decided by the balls.
        assert ((a - 1) * lo).exp() <= r or ((a - 1) * lo).exp().overlaps(r)
        assert r <= ((a - 1) * hi).exp() or ((a - 1) * hi).exp().overlaps(r)
        target = r.log() / (a - 1)
        assert not (target.lower() > hi or target.upper() < lo), "exact value outside"
        assert hi - lo <= abs(target) * arb("1e-40") + arb("1e-45")
    finally:
        ctx.prec = old


@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(pairs, st.integers(2, 6))
def test_renyi_integer_orders(pq: tuple[list[Fraction], list[Fraction]], a: int) -> None:
    P, Q = pq
    if any(p > 0 and q == 0 for p, q in zip(P, Q, strict=True)):
        enc = get("RSWR23:Renyi").certified(P=P, Q=Q, alpha=a)
        assert enc.hi == float("inf")
        return
    _renyi_certificate(get("RSWR23:Renyi").certified(P=P, Q=Q, alpha=a), _renyi_sum(P, Q, a), a)


# ---- randomized response and friends at rational points --------------------------------

@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(st.fractions(0, 1, max_denominator=10**6))
def test_randomized_response_at_eps_zero(delta: Fraction) -> None:
    """At eps = 0 both RR pairs are rational: the two middle outcomes get (1 - delta)/2."""
    h = (1 - delta) / 2
    lrr = get("LEC11:LRR").certified(eps=0, delta=delta)
    for enc, ex in zip([*lrr.P, *lrr.Q], [h, h, delta, 0, h, h, 0, delta], strict=True):
        pinned(enc, Fraction(ex))
    rr = get("RRUV16:Def2.6").certified(eps=0, delta=delta)
    for enc, ex in zip([*rr.P, *rr.Q], [delta, h, h, 0, 0, h, h, delta], strict=True):
        pinned(enc, Fraction(ex))


# ---- the exact TCT tail: a binomial cdf with a rational q --------------------------------

def binom_cdf(m: int, q: Fraction, upto: int) -> Fraction:
    return sum((comb(m, j) * q ** j * (1 - q) ** (m - j) for j in range(min(upto, m) + 1)),
               Fraction(0))


def test_tct_exact_tail_pinned_by_hand() -> None:
    # Bin(4, 1/2) <= 1: (1 + 4)/16 = 5/16; eps m = 4/10.
    b = get("CL23:ThmB.4-exact").certified(eps="0.1", q="0.5", tau=2, m=4, Delta=0)
    pinned(b.delta, Fraction(5, 16))
    pinned(b.eps, Fraction(4, 10))


@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(st.fractions(Fraction(1, 1000), Fraction(999, 1000), max_denominator=1000),
       st.integers(1, 30), st.integers(0, 40), st.fractions(0, Fraction(1, 2), max_denominator=100))
def test_tct_exact_tail(q: Fraction, tau: int, extra: int, Delta: Fraction) -> None:
    m = tau + extra
    b = get("CL23:ThmB.4-exact").certified(eps=1, q=q, tau=tau, m=m, Delta=Delta)
    pinned(b.delta, Delta + binom_cdf(m, q, tau - 1))


@pytest.mark.parametrize("q,tau,alpha", [("0.475", 20, 1), ("0.25", 3, "0.5"), ("0.9", 5, 2)])
def test_tct_tail_bounds_exact_field(q: str, tau: int, alpha: object) -> None:
    qq, aa = Fraction(q), Fraction(alpha)  # type: ignore[arg-type]
    m = int((1 + aa) * tau // qq)
    t = get("CL23:ThmB.4-tail").certified(q=q, tau=tau, alpha=alpha)
    pinned(t.exact, binom_cdf(m, qq, tau - 1))
    assert frac(t.m.lo) == frac(t.m.hi) == m


# ---- compositions that are sums ----------------------------------------------------------

@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(st.lists(st.fractions(0, 5, max_denominator=1000), min_size=1, max_size=6), st.data())
def test_basic_composition_sums(eps: list[Fraction], data: st.DataObject) -> None:
    delta = data.draw(st.lists(st.fractions(0, Fraction(1, 10), max_denominator=10**4),
                               min_size=len(eps), max_size=len(eps)))
    g = get("RRUV16:Thm2.9").certified(eps=eps, delta=delta)
    pinned(g.eps, sum(eps, Fraction(0)))
    pinned(g.delta, sum(delta, Fraction(0)))


@settings(max_examples=share(Fraction(1, 3)), deadline=None)
@given(st.integers(1, 40), st.fractions(Fraction(1, 10**6), Fraction(1, 2), max_denominator=10**6))
def test_kov_delta_at_eps_zero(k: int, delta: Fraction) -> None:
    """KOV15 Theorem 3.3 at eps = eps_g = 0: the sum vanishes, delta_g = 1 - (1 - delta)^k."""
    pinned(get("KOV15:Thm3.3-delta").certified(eps=0, k=k, eps_g=0, delta=delta),
           1 - (1 - delta) ** k)
