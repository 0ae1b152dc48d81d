"""Property tests of RSWR23's filters (Thm 2 zCDP filter, Lem 5.2 ex-post filter, Thm 3
concurrent filter): the stopping rule against the certified budget inverse, strictness at
equality, the round-by-round objects, and the concurrent filter as the minimum of its two
rules.  RRUV16's filters are in ``test_rruv16.py``."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reference import DomainError
from reference.core.numeric import exact
from reference.results import covers
from reference.results.conversions.rswr23 import zcdp_budget
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
