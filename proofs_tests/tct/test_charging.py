"""Privacy of target charging (CL23 Lemma 2.2, Theorem B.4, Remark B.5) and the
round-by-round accountant.

Independent routes: scipy's binomial law for the tail; exact privacy profiles of halted
transcripts (enumeration, :mod:`reference.results.tct.transcripts`); the exact optimal composition
of randomized response (``KOV15:Thm3.3-delta``) for the dominating process of the proof.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mpmath import iv, mp
from scipy import stats

from proofs_tests.arb_support import frac
from proofs_tests.profiles import share
from proofs_tests.tct_support import log
from reference import DomainError
from reference.core.numeric import endpoints, get_dps, to_ctx, working
from reference.oracle.tct_strategies import pair
from reference.results import covers, get
from reference.results.tct.accountant import TCTAccountant
from reference.results.tct.charging import (
    MAX_HITS,
    binomial_lower_tail,
    hits_for_delta,
    tct_advanced,
    tct_basic,
    tct_exact,
    tct_simple,
    tct_simple_advanced,
    tct_tail,
)
from reference.results.tct.transcripts import halted_laws, profile_delta

F = Fraction
optimal_delta = get("KOV15:Thm3.3-delta")  # exact k-fold composition (another family's result)
qs = st.fractions(F(1, 50), 1, max_denominator=50)
alphas = st.sampled_from([F(1, 10), F(1, 4), F(1, 2), F(1), F(2), F(4)])
taus = st.integers(1, 60)



# ---- the tail and its bounds ------------------------------------------------------------

@covers("CL23:ThmB.4-tail")
@given(qs, taus, alphas)
def test_exact_tail_matches_scipy(q: Fraction, tau: int, alpha: Fraction) -> None:
    b = tct_tail(q=q, tau=tau, alpha=alpha)
    m = math.floor((1 + alpha) * tau / q)
    assert b.m == m
    ref = float(stats.binom.cdf(tau - 1, m, float(q)))
    assert abs(float(b.exact) - ref) <= 1e-9 * ref + 1e-300


@covers("CL23:ThmB.4-tail", "CL23:ThmB.4")
@given(qs, taus, alphas)
def test_exact_below_raw_below_simplified(q: Fraction, tau: int, alpha: Fraction) -> None:
    """Exact <= raw Chernoff <= simplified, with the floor."""
    b = tct_tail.certified(q=q, tau=tau, alpha=alpha)
    assert b.exact.hi <= b.raw.lo and b.raw.hi <= b.simplified.lo
    basic = tct_basic.certified(eps="0.1", q=q, tau=tau, alpha=alpha, Delta="0.001")
    with mp.workdps(60):
        assert abs(basic.delta.mid - b.simplified.mid - mp.mpf("0.001")) < 1e-40


@covers("CL23:Lem2.2", "CL23:ThmB.4", "CL23:Lem2.2-advanced", "CL23:ThmB.4-advanced")
@given(qs, taus, alphas, st.sampled_from(["0.01", "0.1", "1"]))
def test_simplified_form_dominates_theorem(q: Fraction, tau: int, alpha: Fraction,
                                           eps: str) -> None:
    """Lemma 2.2's unrounded (1+alpha) tau eps/q is >= Theorem B.4's eps m (same delta)."""
    simple = tct_simple.certified(eps=eps, q=q, tau=tau, alpha=alpha)
    basic = tct_basic.certified(eps=eps, q=q, tau=tau, alpha=alpha, Delta=0)
    assert simple.eps.hi >= basic.eps.lo and simple.delta == basic.delta
    assert simple.m == basic.m
    adv = tct_simple_advanced(eps=eps, q=q, tau=tau, alpha=alpha, delta_star="1e-6")
    adv2 = tct_advanced(eps=eps, q=q, tau=tau, alpha=alpha, delta_star="1e-6", Delta=0)
    assert adv == adv2 and adv.delta > basic.delta.hi


@covers("CL23:RemB.5")
@given(st.sampled_from(["1e-3", "1e-6", "1e-9", "0.05"]), alphas)
def test_tau_for_delta_makes_the_tail_small(delta: str, alpha: Fraction) -> None:
    """Remark B.5: at tau = ceil(bound) the corresponding tail is <= delta; at tau - 1 not."""
    t = hits_for_delta(delta=delta, alpha=alpha)
    d = mp.mpf(delta)
    for bound, field in ((t.simplified, "simplified"), (t.raw, "raw")):
        tau = int(mpmath.ceil(bound))
        assert getattr(tct_tail(q="0.5", tau=tau, alpha=alpha), field) <= d
        if tau > 1 and tau - 1 < bound:
            assert getattr(tct_tail(q="0.5", tau=tau - 1, alpha=alpha), field) > d


# ---- end-to-end: exact privacy of TCT interactions -----------------------------------

@covers("CL23:ThmB.4-exact", "CL23:ThmB.4")
@settings(max_examples=share(Fraction(1, 2)))
@given(st.sampled_from([F(11, 10), F(3, 2), F(2), F(3)]), st.integers(3, 9),
       st.integers(1, 2), st.data())
def test_exact_profile_of_notprior_tests(w: Fraction, n: int, tau: int,
                                         data: st.DataObject) -> None:
    """Non-adaptive ln w-DP tests with NotPrior target {1}, halted at tau hits: the exact
    delta at eps' = m ln w is at most Theorem B.4's tail at q = 1/(w+1), for every m."""
    tests = [data.draw(pair(w, 2)) for _ in range(n)]
    laws = halted_laws([(P[1], Q[1]) for P, Q in tests], [frozenset({1})], tau)
    q = 1 / (w + 1)
    for m in range(tau, n + 1):
        exact = profile_delta(*laws, w**m)
        bound = tct_exact.certified(eps=log(w), q=q, tau=tau, m=m, Delta=0)
        with mp.workdps(60):
            assert mp.mpf(exact.numerator) / exact.denominator <= bound.delta.hi + 1e-40


@covers("CL23:ThmB.4-advanced", "CL23:ThmB.4-exact")
@pytest.mark.parametrize(("eps", "q", "tau", "alpha"),
                         [("0.5", "0.3", 3, 1), ("0.2", "0.45", 5, "0.5"), ("1", "0.25", 2, 2)])
def test_dominating_process_against_kov(eps: str, q: str, tau: int, alpha: object) -> None:
    """The proof's extreme process: every call hits with probability q (independently of
    the data) and leaks an eps-randomized-response bit.  Its exact delta is
    sum_k P[NB(tau, q) = k] delta_RR^k(eps'); KOV's exact k-fold profile gives each term."""
    adv = tct_advanced(eps=eps, q=q, tau=tau, alpha=alpha, delta_star="1e-3", Delta=0)
    basic = tct_basic(eps=eps, q=q, tau=tau, alpha=alpha, Delta=0)
    qf = float(q)
    top = int(basic.m) * 4 + 60
    for eps_prime, bound in ((adv.eps, adv.delta), (basic.eps, basic.delta)):
        total = mp.mpf(0)
        for k in range(tau, top):
            weight = stats.nbinom.pmf(k - tau, tau, qf)  # k calls, the last the tau-th hit
            if weight > 0:
                total += weight * optimal_delta(eps=eps, k=k, eps_g=eps_prime)
        total += stats.nbinom.sf(top - 1 - tau, tau, qf)    # the truncated tail, as delta 1
        assert total <= bound


# ---- the accountant -------------------------------------------------------------------

@covers("CL23:ThmB.4", "CL23:ThmB.4-advanced", "CL23:ThmB.4-exact")
@given(st.lists(st.booleans(), max_size=60), st.integers(1, 5), alphas)
def test_accountant_counts_halts_and_reports_theorem(hits: list[bool], tau: int,
                                                     alpha: Fraction) -> None:
    acc = TCTAccountant(tau=tau, eps="0.2", q="0.4", delta_budget="0.001")
    seen = 0
    for h in hits:
        if acc.halted:
            with pytest.raises(DomainError, match="halted"):
                acc.record(eps="0.1", q="0.5", hit=h)
            break
        acc.record(eps="0.1", q="0.5", hit=h, delta="0.00001")
        seen += h
    assert acc.hits == seen == sum(r.hit for r in acc.history)
    assert acc.rounds == len(acc.history) and acc.delta_spent <= F(1, 1000)
    g = acc.guarantee(alpha=alpha)
    enc = tct_basic.certified(eps="0.2", q="0.4", tau=tau, alpha=alpha, Delta="0.001")
    assert g.eps == enc.eps.hi and g.delta == enc.delta.hi and g.m == int(enc.m.mid)
    raw = acc.guarantee(alpha=alpha, tail="raw")
    exact = acc.guarantee(alpha=alpha, tail="exact")
    assert exact.delta <= raw.delta <= g.delta and exact.eps == raw.eps == g.eps
    adv = acc.guarantee(alpha=alpha, delta_star="1e-6")
    enc2 = tct_advanced.certified(eps="0.2", q="0.4", tau=tau, alpha=alpha,
                                  delta_star="1e-6", Delta="0.001")
    assert adv.eps == enc2.eps.hi and abs(adv.delta - enc2.delta.hi) < 1e-40
    at = acc.guarantee_at(g.m)
    assert at.delta == exact.delta
    assert at.delta <= tct_exact.certified(eps="0.2", q="0.4", tau=tau, m=g.m,
                                           Delta="0.001").delta.hi


@covers("CL23:ThmB.4")
@given(tau=st.integers(1, 8), gaps=st.lists(st.integers(0, 4), min_size=8, max_size=8),
       last=st.booleans())
def test_accountant_halts_exactly_at_the_tau_th_hit(tau: int, gaps: list[int],
                                                    last: bool) -> None:
    """Algorithm 1 halts when the tau-th target hit is recorded: after tau - 1 hits (and
    any number of misses) it accepts calls; the tau-th hit is recorded, and the next call
    is refused.  The hits are counted here, not read from the accountant."""
    acc = TCTAccountant(tau=tau, eps="0.3", q="0.25")
    hits = 0
    for gap in gaps[:tau]:
        for _ in range(gap):
            assert not acc.halted
            acc.record(eps="0.3", q="0.25", hit=False)
        assert not acc.halted and hits < tau
        acc.record(eps="0.3", q="0.25", hit=True)
        hits += 1
        assert acc.hits == hits
        assert acc.halted == (hits == tau)
    assert hits == tau and acc.halted
    assert acc.rounds == tau + sum(gaps[:tau])
    with pytest.raises(DomainError, match="halted"):
        acc.record(eps="0.3", q="0.25", hit=last)
    assert acc.rounds == tau + sum(gaps[:tau]) and acc.hits == tau


@covers("CL23:ThmB.4")
def test_accountant_one_hit_short_of_tau_keeps_going() -> None:
    """tau = 3: two hits among 50 misses never halt; the third hit halts at once."""
    acc = TCTAccountant(tau=3, eps=1, q="0.5")
    for i in range(52):
        acc.record(eps=1, q="0.5", hit=i in (10, 40))
    assert (acc.hits, acc.rounds, acc.halted) == (2, 52, False)
    acc.record(eps=1, q="0.5", hit=True)
    assert (acc.hits, acc.rounds, acc.halted) == (3, 53, True)
    with pytest.raises(DomainError, match="halted after 3 hits"):
        acc.record(eps=1, q="0.5", hit=False)


@covers("CL23:ThmB.4-exact")
@given(st.fractions(F(1, 20), 1, max_denominator=20), st.integers(1, 30),
       st.sampled_from(["0.1", "1e-3", "1e-6"]))
@example(F(9, 10), 1, "1e-6")                       # a tie: (1/10)^6 = 1e-6 (random dev run)
def test_accountant_smallest_m(q: Fraction, tau: int, target: str) -> None:
    """The answer is the smallest m >= tau whose exact tail is <= the target, compared in
    exact rationals (q = 9/10, tau = 1, 1e-6 is a tie: (1/10)^6, so m = 6; comparing the
    53-bit float of 1e-6 with the 50-digit tail had failed there)."""
    def tail(m: int) -> Fraction:
        return sum((math.comb(m, j) * q**j * (1 - q) ** (m - j) for j in range(tau)), F(0))

    acc = TCTAccountant(tau=tau, eps=1, q=q)
    m = acc.calls_for(target)
    assert tail(m) <= F(target)
    assert m == tau or tail(m - 1) > F(target)
    enc = get("CL23:ThmB.4-exact").certified(eps=1, q=q, tau=tau, m=m, Delta=0).delta
    assert frac(enc.lo) <= tail(m) <= frac(enc.hi)


@covers("CL23:ThmB.4")
def test_accountant_rejects_bad_input() -> None:
    with pytest.raises(DomainError, match="tau"):
        TCTAccountant(tau=0, eps=1, q="0.5")
    with pytest.raises(DomainError, match="q"):
        TCTAccountant(tau=2, eps=1, q=0)
    acc = TCTAccountant(tau=2, eps="0.5", q="0.3", delta_budget="0.01")
    with pytest.raises(DomainError, match="eps"):
        acc.record(eps="0.6", q="0.5", hit=False)        # above the declared eps
    with pytest.raises(DomainError, match="q"):
        acc.record(eps="0.5", q="0.2", hit=False)        # below the declared q
    with pytest.raises(DomainError, match="hit"):
        acc.record(eps="0.5", q="0.5", hit=1)            # type: ignore[arg-type]
    acc.record(eps="0.5", q="0.5", hit=False, delta="0.006")
    with pytest.raises(DomainError, match="delta_budget"):
        acc.record(eps="0.5", q="0.5", hit=False, delta="0.006")
    assert acc.rounds == 1 and acc.delta_spent == F(3, 500)
    with pytest.raises(DomainError, match="tail"):
        acc.guarantee(tail="loose")  # type: ignore[arg-type]
    with pytest.raises(DomainError, match="m"):
        acc.guarantee_at(1)


@covers("CL23:RemB.5")
@pytest.mark.parametrize("alpha", ["1e-300", "1/3", "2.5e-17"])
def test_hits_for_delta_is_informative_at_unrepresentable_alphas(alpha: str) -> None:
    """An alpha that is not a binary number is an interval of one ulp in iv; the Chernoff
    rate alpha - ln(1 + alpha) ~ alpha^2/2 must be evaluated at its ends (the expression on
    the interval loses everything to dependency: [-2e-316, 2e-316] at alpha = 1e-300).
    Both thresholds enclosed to 40 digits against python-flint arb at 5000 bits."""
    old, flint.ctx.prec = flint.ctx.prec, 5000
    a = Fraction(alpha)
    arb_a = flint.arb(flint.fmpq(a.numerator, a.denominator))
    ln = flint.arb(10**6).log()                                  # ln(1/delta), delta = 1e-6
    want = {"simplified": 2 * (1 + arb_a) * ln / arb_a**2,
            "raw": ln / (arb_a - (1 + arb_a).log())}
    got = get("CL23:RemB.5").certified(delta="1e-6", alpha=alpha)
    for field, ref in want.items():
        enc = getattr(got, field)
        lo, hi = (flint.arb(flint.fmpq(q.numerator, q.denominator))
                  for q in (frac(enc.lo), frac(enc.hi)))
        assert lo < ref < hi
        assert hi - lo < ref * flint.arb(10) ** -40
    flint.ctx.prec = old


@covers("CL23:ThmB.4-tail")
@pytest.mark.parametrize(("q", "tau", "alpha"), [(Fraction(1, 2), 2000, Fraction(1, 10)),
                                                 (Fraction(1, 3), 600, Fraction(1, 4))])
def test_exact_tail_of_many_hits_is_tight(q: Fraction, tau: int, alpha: Fraction) -> None:
    """The exact tail sums tau terms, each from the last by three roundings, at tau in the
    thousands: against the exact rational sum it must be enclosed (two-sided) and to the
    last digit of the working precision."""
    m = math.floor((1 + alpha) * tau / q)
    exact = sum((math.comb(m, j) * q**j * (1 - q) ** (m - j) for j in range(tau)), F(0))
    enc = get("CL23:ThmB.4-tail").certified(q=q, tau=tau, alpha=alpha).exact
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert lo <= exact <= hi
    assert hi - lo <= exact / 10 ** (get_dps() - 1)


@pytest.mark.parametrize(("m", "tau"), [(0, 1), (2, 3), (4, 9)])
def test_binomial_lower_tail_is_one_below_tau_trials(m: int, tau: int) -> None:
    """With m <= tau - 1 trials every outcome has at most tau - 1 successes: the tail is 1
    (the sum must run over all m + 1 outcomes)."""
    with working(iv):
        enc = endpoints(binomial_lower_tail(iv, m, to_ctx(iv, F(1, 3)), tau))
    assert enc.lo <= 1 <= enc.hi and enc.hi - enc.lo < mp.mpf(10) ** -40


def test_the_documented_size_caps_are_enforced() -> None:
    """tau <= 10^5 (MAX_HITS, the docstring's domain) and m <= 10^7 (CL23:ThmB.4-exact):
    one past each cap is refused with a DomainError naming the parameter; m at its cap runs."""
    assert MAX_HITS == 10**5
    with pytest.raises(DomainError, match="tau"):
        get("CL23:ThmB.4-tail")(q="1/2", tau=10**5 + 1, alpha=1)
    exact = get("CL23:ThmB.4-exact")
    with pytest.raises(DomainError, match=r"^m must lie in"):
        exact(eps="0.1", q="1/2", tau=2, m=10**7 + 1)
    enc = exact.certified(eps="0.1", q="1/2", tau=2, m=10**7).delta     # (1 + m) 2^-m
    want = F(10**7 + 1, 2 ** (10**7))
    assert frac(enc.lo) <= want <= frac(enc.hi) and frac(enc.hi) - frac(enc.lo) < want / 10**40
