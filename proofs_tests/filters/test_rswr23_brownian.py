"""Property tests of the Brownian filters (RSWR23 Lemma 6.2, Theorem 6).

Independent routes: the tuned linear boundary of WRWR22 (Lemma 6.2's constant), the
exact Gaussian privacy profile (Balle–Wang) for zCDP-only runs, Theorem 2's filter
(a colleague's implementation) on the same spends.  The §7 application is in
``proofs_tests/experiments/test_rswr23_sec7.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.boundaries.wrwr22 import linear_boundary
from reference.results.conversions.rswr23 import zcdp_budget
from reference.results.filters.brownian_objects import BrownianFilter, UnifiedBrownianFilter
from reference.results.filters.objects import Action
from reference.results.filters.rswr23 import zcdp_filter
from reference.results.filters.rswr23_brownian import (
    brownian_filter,
    unified_filter,
    unified_filter_printed,
)


@covers("RSWR23:Lem6.2", "WRWR22:Thm3.6-linear")
@given(t0=st.floats(0.01, 100), delta=st.floats(1e-12, 0.5))
def test_filter_constant_is_the_tuned_linear_boundary(t0: float, delta: float) -> None:
    """rho + 2 sqrt(rho L) with rho = 1/(2 t0) is psi^L_{a,b}(t0) tuned at t0
    (a = sqrt(L/(2 t0)), b = sqrt(t0 L/2); WRWR22 Theorem 3.6, linear boundary)."""
    with mp.workdps(60):
        L = mp.log(1 / mp.mpf(delta))
        a, b = mp.sqrt(L / (2 * t0)), mp.sqrt(t0 * L / 2)
        lin = linear_boundary(t=t0, a=a, b=b)
        eps = brownian_filter(rho=1 / (2 * mp.mpf(t0)), delta=delta).eps
        assert abs(eps / lin - 1) < mp.mpf(10) ** -40


@covers("RSWR23:Lem6.2")
@given(ks=st.lists(st.integers(1, 8), min_size=1, max_size=8))
def test_halts_exactly_when_the_budget_is_spent(ks: list[int]) -> None:
    """Rounds stopped at t = k/2 cost 1/k; HALT iff the exact sum equals rho."""
    times = [Fraction(k, 2) for k in ks]
    spent = sum((1 / k for k in map(Fraction, ks)), Fraction(0))
    d = brownian_filter(t=times, rho=spent, delta="0.05")
    with mp.workdps(50):
        assert d.halt and abs(d.spent - mp.mpf(spent.numerator) / spent.denominator) < 1e-40
    assert not brownian_filter(t=times, rho=spent + Fraction(1, 10**30), delta="0.05").halt
    with pytest.raises(DomainError, match="within rho"):
        brownian_filter(t=times, rho=spent - Fraction(1, 10**30), delta="0.05")


@covers("RSWR23:Thm6", "RSWR23:Thm6-printed")
@given(rho=st.floats(1e-4, 100), delta_pp=st.floats(1e-15, 0.5))
def test_printed_constant_is_valid_but_looser(rho: float, delta_pp: float) -> None:
    proof = unified_filter(rho=rho, delta_pp=delta_pp)
    printed = unified_filter_printed(rho=rho, delta_pp=delta_pp)
    assert printed.eps > proof.eps and printed.delta == proof.delta
    with mp.workdps(50):
        assert abs(proof.delta - mp.mpf(delta_pp)) < mp.mpf(10) ** -40


def gaussian_delta(eps: float, mu: float) -> float:
    """Exact privacy profile of N(0,1) vs N(mu,1) (Balle–Wang), an independent route."""
    with mp.workdps(40):
        e, m = mp.mpf(eps), mp.mpf(mu)
        return float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2))


@covers("RSWR23:Thm6", "RSWR23:Thm6-printed")
@given(rho=st.floats(1e-3, 20), delta_pp=st.floats(1e-12, 0.3))
def test_guarantee_holds_for_the_exhausted_gaussian_run(rho: float, delta_pp: float) -> None:
    """Gaussian rounds spending the whole budget rho compose to one Gaussian of zCDP rho
    (mu = sqrt(2 rho)): its exact delta at either epsilon is at most delta''."""
    mu = math.sqrt(2 * rho)
    for result in (unified_filter, unified_filter_printed):
        eps = float(result(rho_z=[rho / 2, rho / 2], rho=rho, delta_pp=delta_pp).eps)
        assert gaussian_delta(eps, mu) <= delta_pp * (1 + 1e-9)


@covers("RSWR23:Thm6")
@given(rhos=st.lists(st.fractions(Fraction(1, 1000), Fraction(1, 2)), min_size=1, max_size=6))
def test_zcdp_only_runs_agree_with_theorem_2(rhos: list[Fraction]) -> None:
    """With only zCDP rounds, Theorem 6 (budget rho* of (10, 1e-6)) admits a prefix iff
    Theorem 2's filter does not halt on it (the rule sum rho <= rho*)."""
    rho_star = zcdp_budget(eps=10, delta="1e-6").value
    ok_thm2 = not zcdp_filter(rho=rhos, eps=10, delta_pp="1e-6").halt
    try:
        unified_filter(rho_z=rhos, rho=rho_star, delta_pp="1e-6")
        ok_thm6 = True
    except DomainError:
        ok_thm6 = False
    assert ok_thm6 == ok_thm2


@covers("RSWR23:Thm6")
def test_delta_budget_and_lengths() -> None:
    assert unified_filter(rho_z="0.1", deltas="0.01,0.02", rho=1, delta="0.02",
                          delta_pp="1e-6").halt
    assert not unified_filter(rho_z="0.1", deltas="0.01", rho=1, delta="0.02",
                              delta_pp="1e-6").halt
    with pytest.raises(DomainError, match="entries"):
        unified_filter(rho_z="0.1", deltas="0,0,0", rho=1, delta_pp="1e-6")


@st.composite
def proposals(draw: st.DrawFn) -> list[tuple[str, Fraction]]:
    return draw(st.lists(st.tuples(st.sampled_from(["zcdp", "bm"]),
                                   st.fractions(Fraction(1, 50), 1)), max_size=30))


@covers("RSWR23:Thm6", "RSWR23:Lem6.2")
@given(plan=proposals())
def test_round_by_round_filter_never_overspends(plan: list[tuple[str, Fraction]]) -> None:
    """An analyst who proposes only what fits (condition (4)) and stops Brownian rounds at
    random times: spend never exceeds rho, HALT comes exactly at exhaustion, and the
    registered rule agrees with the object at every step."""
    f = UnifiedBrownianFilter(rho=1, delta_pp="1e-6")
    for kind, frac in plan:
        room = f.remaining
        if room == 0:
            assert f.halted and f.propose_zcdp(0) is Action.HALT
            break
        if kind == "zcdp":
            assert f.propose_zcdp(frac * room) is Action.CONT
        else:
            t_min = 1 / (2 * room)
            assert f.propose_brownian(t_min) is Action.CONT
            f.record_brownian(t_min / frac)
        assert f.spent <= f.rho and f.decision() == f.halted
    with pytest.raises(DomainError):
        BrownianFilter(rho=1, delta="1e-6").propose_zcdp("0.1")


@covers("RSWR23:Thm6")
def test_filter_from_dp_budget() -> None:
    """Independently computed: the filter for (10, 1e-6) has rho = 1.353015 and epsilon <= 10."""
    f = UnifiedBrownianFilter.from_dp(eps=10, delta_pp="1e-6")
    eps, delta = f.guarantee
    assert abs(float(f.rho) - 1.353015) < 1e-6 and eps <= 10 and float(delta) == 1e-6
    with pytest.raises(DomainError, match="condition"):
        f.propose_zcdp(2)
