"""Property tests of KOV15 Thm 3.5 (heterogeneous three-way minimum) and the KOV lattice
(KOV15 Thm 3.3 on its grid); MV16's exact form is in ``test_mv16.py``.

Independent routes: brute-force enumeration of the 2^k subsets in MV16's statement
(``proofs_tests.composition_support.brute_force_delta``), the anchors report's library
numbers (§3.2), and dp-accounting's advanced_composition.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.composition_support import brute_force_delta, q, small_eps
from proofs_tests.profiles import share
from reference import certified
from reference.results import covers
from reference.results.composition.kov15 import optimal_epsilon
from reference.results.composition.kov15_heterogeneous import kov_grid, kov_heterogeneous


@covers("KOV15:Thm3.5")
@pytest.mark.parametrize(("eps", "k", "published"), [
    ("0.001", 500, "0.100325876"), ("0.001", 10000, "0.484853157"),
    ("0.1", 500, "14.2518588"), ("0.1", 10000, "102.523593")])
def test_kov_three_way_matches_autodp_and_diffprivlib(eps: str, k: int, published: str) -> None:
    """Values returned by autodp DP_acct.get_eps and diffprivlib BudgetAccountant.total."""
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
@settings(max_examples=share(Fraction(1, 3)))
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
