"""Property tests of the composition forms: KOV15 Thm 3.5, the KOV lattice, MV16 exact.

Independent routes: brute-force enumeration of the 2^k subsets in MV16's statement,
the anchors report's library numbers (§3.2), and the orderings that must hold between
an exact optimum and valid bounds (optimal <= KOV three-way min <= advanced, basic).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

import reference.results.conversions  # noqa: F401  (registers the family)
from reference import DomainError, certified
from reference.core.numeric import exact
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.kov15_heterogeneous import kov_grid, kov_heterogeneous
from reference.results.composition.mv16 import hetero_delta_result, hetero_epsilon_result
from reference.results.composition.rruv16 import (
    advanced_composition_heterogeneous,
    basic_composition,
)

small_eps = st.sampled_from(["0.05", "0.1", "0.25", "0.5", "1", "1.5"])


def q(x: object) -> Fraction:
    """An mpmath endpoint as an exact rational (for exact comparisons)."""
    return exact(x, "x", "test")


def brute_force_delta(eps: list[str], eps_g: str, delta: list[str] | None = None) -> mpmath.mpf:
    """MV16 Thm 1.5 as printed: a sum over all 2^k subsets, at 60 digits."""
    with mp.workdps(60):
        e = [mp.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in eps]
        g = mp.mpf(Fraction(eps_g).numerator) / Fraction(eps_g).denominator
        total = mp.zero
        for inside in itertools.product([False, True], repeat=len(e)):
            a = mp.fsum(x for x, s in zip(e, inside, strict=True) if s)
            b = mp.fsum(x for x, s in zip(e, inside, strict=True) if not s)
            total += max(mp.exp(a) - mp.exp(g) * mp.exp(b), mp.zero)
        pure = total / mp.fprod(1 + mp.exp(x) for x in e)
        if not delta:
            return +pure
        keep = mp.fprod(1 - mp.mpf(Fraction(d).numerator) / Fraction(d).denominator
                        for d in delta)
        return 1 - keep + keep * pure


@covers("MV16:Thm1.5-delta")
@settings(max_examples=25)
@given(eps=st.lists(small_eps, min_size=1, max_size=9), eps_g=small_eps,
       with_delta=st.booleans())
def test_hetero_delta_equals_subset_enumeration(eps: list[str], eps_g: str,
                                                with_delta: bool) -> None:
    delta = [["0", "0.001", "0.01"][i % 3] for i in range(len(eps))] if with_delta else None
    enc = certified(hetero_delta_result, eps=eps, eps_g=eps_g, delta=delta or ())
    ref = brute_force_delta(eps, eps_g, delta)
    with mp.workdps(60):
        slack = mp.mpf(10) ** -45
        assert enc.lo - slack <= ref <= enc.hi + slack


@covers("MV16:Thm1.5-delta", "KOV15:Thm3.3-delta")
@settings(max_examples=20)
@given(eps=small_eps, k=st.integers(1, 80), eps_g=st.sampled_from(["0", "0.3", "1", "4"]),
       delta=st.sampled_from(["0", "1e-4"]))
def test_hetero_equals_homogeneous_kov_when_all_equal(eps: str, k: int, eps_g: str,
                                                      delta: str) -> None:
    a = certified(hetero_delta_result, eps=[eps] * k, eps_g=eps_g, delta=[delta] * k)
    b = certified(optimal_delta, eps=eps, k=k, eps_g=eps_g, delta=delta)
    assert a.lo <= b.hi and b.lo <= a.hi
    assert abs(a.mid - b.mid) <= mp.mpf(10) ** -40 * (1 + abs(b.mid))


@covers("MV16:Thm1.5", "KOV15:Thm3.3")
@pytest.mark.parametrize(("eps", "k", "published"), [("0.001", 500, "0.0797888542"),
                                                     ("0.1", 500, "12.5178800")])
def test_hetero_inverse_matches_anchors_and_kov(eps: str, k: int, published: str) -> None:
    cert = hetero_epsilon_result(eps=[eps] * k, delta_g="1e-6")
    assert cert.holds
    assert abs(cert.value / mp.mpf(published) - 1) < 1e-8
    kov = optimal_epsilon(eps=eps, k=k, delta_g="1e-6", delta=0)
    assert abs(cert.value - kov.value) < mp.mpf(10) ** -30


@covers("MV16:Thm1.5", "KOV15:Thm3.5", "RRUV16:fn2-advanced", "RRUV16:Thm2.9")
@settings(max_examples=15)
@given(eps=st.lists(small_eps, min_size=1, max_size=40),
       delta_g=st.sampled_from(["1e-3", "1e-6", "1e-9"]))
def test_composition_orderings(eps: list[str], delta_g: str) -> None:
    """exact optimum <= KOV15 three-way min <= min(advanced (DRV), basic), same delta."""
    if len({e for e in eps}) > 4 and len(eps) > 20:
        eps = eps[:20]
    best = hetero_epsilon_result(eps=eps, delta_g=delta_g)
    kov = certified(kov_heterogeneous, eps=eps, delta_tilde=delta_g).eps
    adv = certified(advanced_composition_heterogeneous, eps=eps, delta_hat=delta_g).eps
    basic = certified(basic_composition, eps=eps).eps
    assert best.holds and best.value <= kov.lo
    assert kov.hi <= adv.hi and kov.hi <= basic.hi
    # KOV15's guarantee is valid: the exact delta at its epsilon is below its delta
    at_kov = certified(hetero_delta_result, eps=eps, eps_g=kov.hi)
    assert q(at_kov.hi) <= Fraction(delta_g)


@covers("KOV15:Thm3.5")
@pytest.mark.parametrize(("eps", "k", "published"), [
    ("0.001", 500, "0.100325876"), ("0.001", 10000, "0.484853157"),
    ("0.1", 500, "14.2518588"), ("0.1", 10000, "102.523593")])
def test_kov_three_way_matches_autodp_and_diffprivlib(eps: str, k: int, published: str) -> None:
    """anchors §3.2: autodp DP_acct.get_eps and diffprivlib BudgetAccountant.total."""
    g = kov_heterogeneous(eps=[eps] * k, delta_tilde="1e-6")
    assert abs(g.eps / mp.mpf(published) - 1) < 1e-8


@covers("KOV15:Thm3.5")
def test_kov_delta_composes_multiplicatively() -> None:
    g = certified(kov_heterogeneous, eps=["0.1", "0.2"], delta_tilde="0.01",
                  delta=["0.1", "0.2"])
    value = 1 - (1 - Fraction(1, 100)) * Fraction(9, 10) * Fraction(8, 10)
    assert q(g.delta.lo) <= value <= q(g.delta.hi)
    assert q(g.eps.hi) <= Fraction(3, 10) + Fraction(1, 10**40)   # basic sum is one branch


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("eps", "k", "published"), [
    ("0.001", 500, "0.08"), ("0.001", 10000, "0.398"), ("0.1", 500, "12.6"),
    ("0.1", 10000, "96.6")])
def test_kov_grid_matches_anchors(eps: str, k: int, published: str) -> None:
    enc = certified(kov_grid, eps=eps, k=k, delta_g="1e-6")
    assert q(enc.lo) <= Fraction(published) <= q(enc.hi) and enc.width < 1e-40


@covers("KOV15:Thm3.3-grid")
@settings(max_examples=20)
@given(eps=small_eps, k=st.integers(1, 12), delta_g=st.sampled_from(["0.01", "0.1", "0.3"]))
def test_kov_grid_is_the_least_feasible_lattice_point(eps: str, k: int, delta_g: str) -> None:
    """Against subset enumeration: feasible at the answer, infeasible one step below."""
    value = kov_grid(eps=eps, k=k, delta_g=delta_g)
    i = round((k - value / mp.mpf(Fraction(eps).numerator) * Fraction(eps).denominator) / 2)
    assert 0 <= i <= k // 2
    at = str(Fraction(eps) * (k - 2 * i))
    assert brute_force_delta([eps] * k, at) <= mp.mpf(Fraction(delta_g).numerator) / Fraction(
        delta_g).denominator
    if i < k // 2:
        below = str(Fraction(eps) * (k - 2 * i - 2))
        assert brute_force_delta([eps] * k, below) > mp.mpf(Fraction(delta_g).numerator) / \
            Fraction(delta_g).denominator
    # the continuous optimum is never above the lattice answer
    assert optimal_epsilon(eps=eps, k=k, delta_g=delta_g, delta=0).value <= value


@covers("MV16:Thm1.5-delta", "MV16:Thm1.5")
def test_hetero_limits_and_floor() -> None:
    with pytest.raises(DomainError, match="exact enumeration"):
        hetero_delta_result(eps=[str(Fraction(1, n)) for n in range(1, 40)], eps_g=1)
    with pytest.raises(DomainError, match="must exceed"):
        hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.01", delta=["0.01", "0"])
    assert hetero_delta_result(eps=["0", "0"], eps_g=0) == 0
    assert hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.5").holds


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("eps", "k", "delta", "target"), [
    (0.1, 100, 1e-4, 0.02), (0.5, 30, 1e-3, 0.05), (1.0, 20, 0.0, 1e-3), (0.3, 7, 0.0, 0.1)])
def test_kov_grid_agrees_with_dp_accounting(eps: float, k: int, delta: float,
                                            target: float) -> None:
    """Second library: dp-accounting's advanced_composition (k < 1024, where it works)."""
    accountant = pytest.importorskip("dp_accounting.pld.accountant")
    common = pytest.importorskip("dp_accounting.pld.common")
    theirs = accountant.advanced_composition(common.DifferentialPrivacyParameters(eps, delta),
                                             k, target)
    ours = kov_grid(eps=eps, k=k, delta_g=target, delta=delta)
    assert abs(ours - theirs) <= 1e-12 * (1 + theirs)
