"""Property tests of the privacy filters (RRUV16 Thm 3.4, Lem 3.3, Thm 5.1): what the
stopping rules imply (monotonicity, strictness at equality, padding with zeros, the
round-by-round objects never admitting a prefix the rule rejects), validity by exact laws
(binomial tails of the halted randomized-response walk, enumeration of adaptive paths),
and independently computed reference values.  RSWR23's filters are in
``test_rswr23.py``."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.profiles import share
from reference import DomainError
from reference.results import covers, errata
from reference.results.filters.objects import (
    Action,
    AdvancedFilter,
    ApproxFilter,
    BasicFilter,
    stopped,
)
from reference.results.filters.rruv16 import advanced_filter, basic_filter, lifted_failure
from reference.results.privacy_loss.rruv16 import (
    pointwise_delta,
    randomized_response,
    sharpness_pair,
)
from reference.sim.adversaries import binomial_tail_violation

dyadic = st.integers(0, 64).map(lambda k: Fraction(k, 64))
small_eps = st.fractions(Fraction(0), Fraction(1, 2), max_denominator=1000)
deltas_g = st.sampled_from(["1e-6", "1e-3", "0.01", "0.05", "0.2", "0.36"])


def _confirmed(eid: str) -> None:
    [e] = [e for e in errata() if e.id == eid]
    chk = e.verify()
    assert chk.confirmed, chk.detail


# ---- Theorem 3.4 ------------------------------------------------------------------

@covers("RRUV16:Thm3.4")
@given(eps=st.lists(dyadic, max_size=8), eps_g=dyadic)
def test_basic_strict_and_padding(eps: list[Fraction], eps_g: Fraction) -> None:
    """HALT iff the total exceeds eps_g: equality CONTinues; zeros change nothing."""
    d = basic_filter(eps=eps, eps_g=eps_g)
    assert basic_filter(eps=[*eps, 0, 0], eps_g=eps_g) == d
    assert basic_filter(eps=eps, eps_g=sum(eps, Fraction(0))).halt is False
    if d.halt:
        assert basic_filter(eps=[*eps, Fraction(1, 64)], eps_g=eps_g).halt


@covers("RRUV16:Thm3.4")
@given(levels=st.lists(st.sampled_from([Fraction(1, 4), Fraction(1, 2), Fraction(1)]),
                       min_size=3, max_size=3), k=st.integers(1, 6))
def test_basic_odometer_is_deterministic_bound(levels: list[Fraction], k: int) -> None:
    """Adaptive adversary (next eps from the last output), every path enumerated:
    |Loss| <= sum eps_i(v_<i) on every path (RRUV16 Thm 3.4's proof)."""
    for path in itertools.product((1, -1), repeat=k):
        eps, loss, choice = [], Fraction(0), 0
        for s in path:
            e = levels[choice % 3]
            eps.append(e)
            loss += s * e
            choice += 1 if s > 0 else 2
        assert mpmath.mpf(abs(loss).numerator) / abs(loss).denominator <= \
            basic_filter(eps=eps, eps_g=0).total


# ---- Theorem 5.1 ------------------------------------------------------------------

@covers("RRUV16:Thm5.1")
def test_advanced_catalog_values() -> None:
    """Reference values computed independently in double precision."""
    d = advanced_filter(eps=["0.1"] * 10, eps_g=1, delta_g="1e-3")
    assert abs(float(d.K) - 1.9610893433565582) < 1e-13 and d.halt
    d0 = advanced_filter(eps=[], eps_g=1, delta_g="1e-3")
    assert abs(float(d0.K) - 0.26707054531881674) < 1e-15 and not d0.halt
    assert abs(float(d0.K) - math.sqrt(2 / 28.04)) < 1e-15  # K(empty) = eps_g sqrt(2/28.04)


@covers("RRUV16:Thm5.1")
def test_advanced_max_rounds() -> None:
    """Computed independently: at most 3 rounds of 0.1 (eps_g = 1, delta_g = 1e-3), and 1724 of
    0.001 at eps_g = 0.001 sqrt(8000 ln 1000)."""
    assert stopped(AdvancedFilter(eps_g=1, delta_g="1e-3"), ["0.1"] * 5) == 3
    eps_g = 0.001 * math.sqrt(8000 * math.log(1000))
    assert stopped(AdvancedFilter(eps_g=eps_g, delta_g="1e-3"), ["0.001"] * 1800) == 1724


@covers("RRUV16:Thm5.1")
@given(eps=st.lists(small_eps, max_size=6), extra=small_eps, i=st.integers(0, 5),
       eps_g=st.fractions(Fraction(1, 10), 5, max_denominator=1000), dg=deltas_g)
def test_advanced_monotone_and_padding(eps: list[Fraction], extra: Fraction, i: int,
                                       eps_g: Fraction, dg: str) -> None:
    K = advanced_filter(eps=eps, eps_g=eps_g, delta_g=dg).K
    assert advanced_filter(eps=[*eps, 0], eps_g=eps_g, delta_g=dg).K == K
    bigger = list(eps)
    if bigger:
        bigger[i % len(bigger)] += extra
        assert advanced_filter(eps=bigger, eps_g=eps_g, delta_g=dg).K >= K
    # K / eps_g decreases in eps_g; K increases as delta_g decreases.
    K2 = advanced_filter(eps=eps, eps_g=2 * eps_g, delta_g=dg).K
    K9 = advanced_filter(eps=eps, eps_g=eps_g, delta_g="1e-9").K
    with mpmath.workdps(60):  # equality (up to rounding) when eps is all zeros
        slack = mpmath.mpf(10) ** -40 * K
        assert K2 / (2 * eps_g) <= K / eps_g + slack
        assert K9 >= K - slack


@covers("RRUV16:Thm5.1")
@settings(max_examples=share(Fraction(1, 2)))
@given(props=st.lists(small_eps, min_size=1, max_size=12), eps_g=st.fractions(
    Fraction(1, 10), 3, max_denominator=1000), dg=deltas_g)
def test_advanced_object_agrees_with_rule(props: list[Fraction], eps_g: Fraction,
                                          dg: str) -> None:
    """The object never admits a prefix its rule rejects (and HALT is decided by it)."""
    f = AdvancedFilter(eps_g=eps_g, delta_g=dg)
    for e in props:
        prefix = [*f.eps_spent, e]
        v = f.propose(e)
        if f.halted and v is Action.HALT and f.history[-1].eps != e:
            break  # already halted earlier
        assert v is (Action.HALT if advanced_filter(eps=prefix, eps_g=eps_g,
                                                      delta_g=dg).halt else Action.CONT)
        if v is Action.HALT:
            assert f.propose(0) is Action.HALT  # Algorithm 3 BREAKs: HALT is final
            break
    assert not advanced_filter(eps=f.eps_spent, eps_g=eps_g, delta_g=dg).halt


@covers("RRUV16:Thm5.1")
@settings(max_examples=share(Fraction(1, 5)))
@given(eps=st.sampled_from([Fraction(1, 128), Fraction(1, 32), Fraction(1, 8),
                            Fraction(1, 2)]),
       eps_g=st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]), dg=deltas_g,
       b=st.integers(0, 1))
def test_advanced_valid_for_constant_adversary(eps: Fraction, eps_g: Fraction, dg: str,
                                               b: int) -> None:
    """Constant eps: the halt time k* is deterministic and |Loss| = eps|2U - k*| with U
    binomial; its exact tail P[|Loss| > eps_g] (under V^0 and V^1) is <= delta_g."""
    k = stopped(AdvancedFilter(eps_g=eps_g, delta_g=dg), [eps] * 5000)
    assert binomial_tail_violation(eps, k, eps_g, b) <= float(dg) if k else True


# ---- Lemma 3.3 (corrected) --------------------------------------------------------

@covers("RRUV16:Lem3.3")
@given(eps=st.lists(small_eps.filter(lambda e: e > 0), min_size=1, max_size=5),
       d=st.lists(st.fractions(0, Fraction(1, 100), max_denominator=10**6), min_size=5,
                          max_size=5),
       j=st.integers(0, 4), bump=st.fractions(0, Fraction(1, 100), max_denominator=10**6))
def test_lift_monotone_and_pure_case(eps: list[Fraction], d: list[Fraction], j: int,
                                     bump: Fraction) -> None:
    deltas = d[:len(eps)]
    base = lifted_failure(eps=eps, delta=deltas, delta_g_prime=0)
    more = list(deltas)
    more[j % len(more)] += bump
    assert lifted_failure(eps=eps, delta=more, delta_g_prime=0).failure >= base.failure
    pure = lifted_failure(eps=eps, delta=[0] * len(eps), delta_g_prime=0)
    assert pure.failure == 0 and pure.halt is False  # strict: 0 > 0 is false


@covers("RRUV16:Lem3.3")
@given(eps=st.floats(1e-3, 5), delta=st.floats(1e-9, 1e-3))
def test_lift_term_covers_exact_pointwise_failure(eps: float, delta: float) -> None:
    """The corrected term bounds P[|L| > 2 eps] of RR_{eps,delta} (exactly delta) and of the
    sharpness pair (its supremum), and is above the printed 2 delta/(eps e^eps)."""
    term = lifted_failure(eps=[eps], delta=[delta], delta_g_prime=0).failure
    rr = randomized_response(eps=eps, delta=delta)
    assert pointwise_delta(P=rr.P, Q=rr.Q, eps=2 * eps) <= term
    with mpmath.workdps(40):
        try:
            pair = sharpness_pair(mpmath.mpf(eps), mpmath.mpf(delta), mpmath.mpf("1e-12"))
        except DomainError:
            return
        assert pointwise_delta(P=pair.P, Q=pair.Q, eps=2 * eps) <= term * (1 + 1e-10)
    assert term > 2 * delta / (eps * math.exp(eps))


@covers("RRUV16:Lem3.3")
def test_lift_conventions_and_objects() -> None:
    assert lifted_failure(eps=[0], delta=[0], delta_g_prime=0).halt is False
    assert lifted_failure(eps=[0], delta=["1e-9"], delta_g_prime=1).failure == mpmath.inf
    f = ApproxFilter(BasicFilter(eps_g=4), delta_g_prime="1e-3")
    assert f.propose(1, "1e-4") is Action.CONT and f.inner.eps_spent == [2]
    with pytest.raises(DomainError):
        BasicFilter(eps_g=1).propose("0.1", "1e-6")  # pure filter, approximate round


@covers("RRUV16:Lem3.3")
def test_erratum_lemma_3_3() -> None:
    _confirmed("RRUV16:Lem3.3")


@covers("RRUV16:Thm5.1")
def test_errata_theorem_5_1() -> None:
    _confirmed("RRUV16:Thm5.1-proof")
    _confirmed("RRUV16:Thm5.1-remark")
