"""Property tests of MV16's exact heterogeneous composition (MV16 Thm 1.5); KOV15 Thm 3.5
and the KOV lattice are in ``test_kov15_heterogeneous.py``.

Independent routes: brute-force enumeration of the 2^k subsets in MV16's statement
(``proofs_tests.composition_support.brute_force_delta``), the anchors report's numbers,
and the orderings that must hold between an exact optimum and valid bounds (optimal <=
KOV three-way min <= advanced, basic).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.composition_support import brute_force_delta, q, small_eps
from proofs_tests.profiles import share
from reference import DomainError, certified
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.kov15_heterogeneous import kov_heterogeneous
from reference.results.composition.mv16 import hetero_delta_result, hetero_epsilon_result
from reference.results.composition.rruv16 import (
    advanced_composition_heterogeneous,
    basic_composition,
)


@covers("MV16:Thm1.5-delta")
@settings(max_examples=share(Fraction(5, 12)))
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
@settings(max_examples=share(Fraction(1, 3)))
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
@settings(max_examples=share(Fraction(1, 4)))
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


@covers("MV16:Thm1.5-delta", "MV16:Thm1.5")
def test_hetero_limits_and_floor() -> None:
    with pytest.raises(DomainError, match="exact enumeration"):
        hetero_delta_result(eps=[str(Fraction(1, n)) for n in range(1, 40)], eps_g=1)
    with pytest.raises(DomainError, match="must exceed"):
        hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.01", delta=["0.01", "0"])
    assert hetero_delta_result(eps=["0", "0"], eps_g=0) == 0
    assert hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.5").holds
