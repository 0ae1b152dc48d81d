"""Property tests of RSWR23's filters (Thm 2 zCDP filter, Lem 5.2 ex-post filter, Thm 3
concurrent filter): the stopping rule against the certified budget inverse, strictness at
equality, the round-by-round objects, and the concurrent filter as the minimum of its two
rules.  RRUV16's filters are in ``test_rruv16.py``."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from proofs_tests.arb_support import frac
from reference import DomainError
from reference.core.model import Result
from reference.core.numeric import exact
from reference.results import covers
from reference.results.conversions.rswr23 import zcdp_budget
from reference.results.filters import rruv16, rswr23, rswr23_brownian
from reference.results.filters.objects import (
    Action,
    ExPostFilter,
    ZCDPFilter,
)
from reference.results.filters.rswr23 import concurrent_filter, expost_filter, zcdp_filter

dyadic = st.integers(0, 64).map(lambda k: Fraction(k, 64))


@covers("RSWR23:Thm2")
@given(rho=st.lists(st.fractions(0, 2, max_denominator=10**6), max_size=6),
       eps=st.fractions(Fraction(1, 10), 20, max_denominator=1000),
       dpp=st.sampled_from(["1e-9", "1e-6", "0.05"]))
def test_zcdp_rule_is_budget_rule(rho: list[Fraction], eps: Fraction, dpp: str) -> None:
    """HALT iff sum rho > rho*(eps, delta''), the certified inverse (RSWR23:Lem2.3-inverse)."""
    cert = zcdp_budget(eps=eps, delta=dpp)
    total = sum(rho, Fraction(0))
    lo, hi = (exact(x, "bound", "test") for x in (cert.lo, cert.hi))
    assume(not lo <= total <= hi)
    assert zcdp_filter(rho=rho, eps=eps, delta_pp=dpp).halt is (total > hi)
    assert not zcdp_filter(rho=rho, eps=2 * eps, delta_pp=dpp).halt or \
        zcdp_filter(rho=rho, eps=eps, delta_pp=dpp).halt  # larger eps never stops earlier


@covers("RSWR23:Thm2")
def test_zcdp_delta_rule_strict() -> None:
    assert not zcdp_filter(rho=[0, 0], deltas=["1e-6", "1e-6"], eps=1, delta="2e-6",
                           delta_pp="1e-6").halt
    assert zcdp_filter(rho=[0, 0], deltas=["1e-6", "1e-6"], eps=1, delta="1.9e-6",
                       delta_pp="1e-6").halt
    f = ZCDPFilter(eps=10, delta_pp="1e-6", delta="1e-6")
    assert f.propose("0.1", "1e-6") is Action.CONT and f.propose(0, "1e-9") is Action.HALT


@covers("RSWR23:Lem5.2")
@given(bounds=st.lists(dyadic, max_size=6), eps=dyadic.filter(lambda q: q > 0))
def test_expost_equality_stop(bounds: list[Fraction], eps: Fraction) -> None:
    total = sum(bounds, Fraction(0))
    if total > eps:
        with pytest.raises(DomainError, match=r"RSWR23:Lem5\.2"):
            expost_filter(expost=bounds, eps=eps)
        return
    assert expost_filter(expost=bounds, eps=eps).halt is (total == eps)


@covers("RSWR23:Lem5.2")
def test_expost_object_protocol() -> None:
    f = ExPostFilter(eps=1, delta="1e-6")
    assert f.propose("1e-6", "0.75") is Action.CONT
    with pytest.raises(DomainError):
        f.record("0.8")  # above the announced maximum
    f.record("0.5")
    with pytest.raises(DomainError, match="remaining budget"):
        f.propose(0, "0.6")
    assert f.propose("1e-9", "0.5") is Action.HALT  # the deltas would exceed 1e-6
    assert f.halted and f.remaining == Fraction(1, 2)


@covers("RSWR23:Thm3")
@given(rho=st.lists(st.fractions(0, 1, max_denominator=1000), max_size=4),
       post=st.lists(dyadic, max_size=3),
       eps_post=st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]))
def test_concurrent_is_min_of_rules(rho: list[Fraction], post: list[Fraction],
                                    eps_post: Fraction) -> None:
    """N = min(N_zCDP, N_post): HALT iff either rule halts on its own subsequence."""
    assume(sum(post, Fraction(0)) <= eps_post)
    both = concurrent_filter(rho=rho, expost=post, eps=2, delta="1e-6", delta_pp="1e-6",
                             eps_post=eps_post, delta_post="1e-6")
    z = zcdp_filter(rho=rho, eps=2, delta="1e-6", delta_pp="1e-6").halt
    p = expost_filter(expost=post, eps=eps_post, delta="1e-6").halt
    assert both.halt is (z or p)


def test_budget_error_names_a_sum_beyond_the_float_range() -> None:
    """Regression: building the DomainError's value with float() raised OverflowError when
    the ex-post bounds summed past 1.8e308 (found by the strict contract's extreme draws)."""
    import pytest

    from reference import DomainError, get

    with pytest.raises(DomainError, match=r"sum 2\.0e\+308"):
        get("RSWR23:Lem5.2")(expost=[1e308, 1e308], deltas=[0, 0], eps=1, delta="0.1")


@covers("RSWR23:Thm2", "RSWR23:Lem5.2", "RSWR23:Thm3")
def test_spent_sums_are_exact() -> None:
    """The statistics of non-empty prefixes are their sums, exact for dyadic entries (the
    sums are summed by hand: 1/4 + 1/8 = 3/8, 1/2 + 1/4 = 3/4, 1/16 + 1/16 + 1/8 = 1/4),
    and 0 for empty ones; eps_spent is sum rho + 2 sqrt(sum rho log(1/delta'')) (Thm 2)."""
    z = zcdp_filter(rho=["0.5", "0.25"], deltas=["0.25", "0.125"], eps=10, delta=1,
                    delta_pp="0.5")
    assert frac(z.delta_spent) == Fraction(3, 8)
    log2 = mpmath.log(2)   # log(1/delta'') with delta'' = 1/2
    assert mpmath.almosteq(z.eps_spent, mpmath.mpf("0.75") + 2 * mpmath.sqrt(
        mpmath.mpf("0.75") * log2), 1e-14)
    p = expost_filter(expost=["0.5", "0.25"], deltas=["0.0625", "0.0625", "0.125"], eps=1,
                      delta=1)
    assert (frac(p.expost_spent), frac(p.delta_spent)) == (Fraction(3, 4), Fraction(1, 4))
    c = concurrent_filter(rho=["0.5"], deltas=["0.125"], expost=["0.5", "0.25"],
                          deltas_post=["0.0625", "0.0625", "0.125"], eps=10, delta="0.5",
                          delta_pp="0.5", eps_post=1, delta_post="0.5")
    assert [frac(x) for x in c[1:4]] == [Fraction(1, 8), Fraction(3, 4), Fraction(1, 4)]
    e = expost_filter(eps=1)
    assert (frac(e.expost_spent), frac(e.delta_spent), e.halt) == (0, 0, False)


@covers("RSWR23:Lem5.2", "RSWR23:Thm3")
def test_expost_delta_rule_strict() -> None:
    """Lemma 5.2 stops when delta < sum_{i<=n+1} delta_i (strict): deltas summing to 1/2
    continue under delta = 1/2 and any larger budget, and stop under delta = 3/8."""
    deltas = ["0.125", "0.125", "0.25"]   # two rounds run and the proposal: 1/2 in all
    for budget, halt in (("0.5", False), ("1", False), ("0.375", True)):
        assert expost_filter(expost=["0.25", "0.25"], deltas=deltas, eps=1,
                             delta=budget).halt is halt
        assert concurrent_filter(expost=["0.25", "0.25"], deltas_post=deltas, eps=10,
                                 delta="1e-6", delta_pp="1e-6", eps_post=1,
                                 delta_post=budget).halt is halt


@covers("RSWR23:Thm2", "RSWR23:Thm3", "RSWR23:Lem5.2")
def test_delta_lengths() -> None:
    """Theorem 2's deltas pair with the rho (the proposal is in rho), so one delta more is
    refused; Lemma 5.2's may carry one more (the proposal's), but not two more."""
    with pytest.raises(DomainError, match="deltas"):
        zcdp_filter(rho=["0.1"], deltas=[0, 0], eps=10, delta_pp="1e-6")
    with pytest.raises(DomainError, match="deltas"):
        concurrent_filter(rho=["0.1"], deltas=[0, 0], eps=10, delta="1e-6", delta_pp="1e-6",
                          eps_post=1, delta_post="1e-6")
    with pytest.raises(DomainError, match="deltas"):
        expost_filter(expost=["0.1"], deltas=[0, 0, 0], eps=1)
    assert not expost_filter(expost=["0.1"], deltas=[0, 0], eps=1).halt


@covers("RSWR23:Thm2", "RSWR23:Lem5.2", "RSWR23:Thm3", "RSWR23:Lem6.2", "RSWR23:Thm6",
        "RSWR23:Thm6-printed", "RRUV16:Thm3.4", "RRUV16:Thm5.1", "RRUV16:Lem3.3")
def test_probabilistic_flags() -> None:
    """Which filters state a probabilistic guarantee, decided from their statements.

    Probabilistic: those whose guarantee pays a failure probability of a tail bound on the
    summed privacy loss: the zCDP and Brownian filters (RSWR23 Thm 2, Lem 6.2, Thm 6 and its
    printed form: a supermartingale tail, paid as delta''), the ex-post filter (Lem 5.2: each
    round's loss exceeds its bound with probability <= delta_i) and their concurrent
    composition (Thm 3), RRUV16's advanced filter (Thm 5.1, Azuma-Hoeffding) and the lift of
    pure-DP filters to approximate DP (Lem 3.3, losses bounded outside a delta event).  Not
    probabilistic: the basic filter (RRUV16 Thm 3.4), a deterministic sum of (eps_i, delta_i).
    """
    found = {v.id: v.probabilistic for m in (rswr23, rswr23_brownian, rruv16)
             for v in vars(m).values() if isinstance(v, Result) and v.kind == "filter"}
    assert {i for i, p in found.items() if not p} == {"RRUV16:Thm3.4"}
    assert len(found) == 9
