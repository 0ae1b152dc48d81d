"""RSWR23's Brownian filters pinned: which results are probabilistic (from their
statements), the domain ends and stopping rules at their boundaries, the printed constant's
value, and the errata checks of Theorem 6 (``confirmed`` and every number in ``detail``),
each against an independent route: closed forms written out here in mpmath (the Gaussian
moment generating function, Lemma 2.3 solved for rho by hand), or exact rationals.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from mpmath import mp

from proofs_tests.arb_support import frac
from reference import DomainError
from reference.core.model import Result
from reference.results import covers
from reference.results.filters import rswr23_brownian as bf


@covers("RSWR23:Lem6.2", "RSWR23:Thm6", "RSWR23:Thm6-printed")
def test_probabilistic_flags() -> None:
    """All three convert a zCDP-type bound on the stopped privacy loss into (eps, delta)-DP
    through a tail bound (Lemma 2.3), paying its failure probability delta (Lemma 6.2) or
    delta'' (Theorem 6, printed or not) in the DP delta: all probabilistic."""
    found = {v.id: v.probabilistic for v in vars(bf).values()
             if isinstance(v, Result) and v.core.__module__ == bf.__name__}
    assert found == {"RSWR23:Lem6.2": True, "RSWR23:Thm6": True, "RSWR23:Thm6-printed": True}


@covers("RSWR23:Lem6.2", "RSWR23:Thm6")
def test_times_positive_and_optional() -> None:
    """A stopped time is a variance: t = 0 is refused, any t > 0 (also below 1) accepted, and
    a run may have no Brownian round at all."""
    with pytest.raises(DomainError):
        bf.brownian_filter(t=[0], rho=1, delta="1e-6")
    with pytest.raises(DomainError):
        bf.unified_filter(t=[0], rho=1, delta_pp="1e-6")
    d = bf.brownian_filter(t=["0.5"], rho=1, delta="1e-6")  # 1/(2 * 1/2) = 1 = rho
    assert d.spent == 1 and d.halt
    u = bf.unified_filter(rho_z=["0.25"], rho=1, delta_pp="1e-6")
    assert u.spent == mpmath.mpf("0.25") and not u.halt
    empty = bf.brownian_filter(rho=1, delta="1e-6")
    assert empty.spent == 0 and not empty.halt   # nothing spent: CONTinue


@covers("RSWR23:Thm6")
@pytest.mark.parametrize(("deltas", "halt"), [(["0.01", "0.01"], False),
                                              (["0.01", "0.0100001"], True),
                                              (["0.01", "0.0099999"], False)])
def test_delta_budget_boundary(deltas: list[str], halt: bool) -> None:
    """HALT iff delta < sum of the deltas (Theorem 6's N): equality CONTinues."""
    assert bf.unified_filter(rho_z=["0.1"], deltas=deltas, rho=1, delta="0.02",
                             delta_pp="1e-6").halt is halt


@covers("RSWR23:Thm6")
def test_deltas_lengths() -> None:
    """n zCDP rounds take 0, n or n + 1 deltas (the proposal's); n + 2 or n - 1 are refused."""
    for m in (0, 2, 3):
        bf.unified_filter(rho_z=["0.1", "0.1"], deltas=["0"] * m, rho=1, delta_pp="1e-6")
    for m in (1, 4):
        with pytest.raises(DomainError, match="entries"):
            bf.unified_filter(rho_z=["0.1", "0.1"], deltas=["0"] * m, rho=1, delta_pp="1e-6")


@covers("RSWR23:Thm6-printed")
def test_printed_constant_value() -> None:
    """rho + 2 sqrt(2 rho log(1/delta'')) at rho = 1/2, delta'' = 1e-6 is
    1/2 + 2 sqrt(6 log 10); the guarantee's delta is delta + delta'' = 10001/10^6 exactly
    (both to the 50-digit working precision: 1e-45 relative)."""
    with mp.workdps(60):
        expected = mp.mpf(1) / 2 + 2 * mp.sqrt(6 * mp.log(10))
        d = bf.unified_filter_printed(rho="0.5", delta="0.01", delta_pp="1e-6")
        assert abs(d.eps - expected) < mp.mpf(10) ** -45 * expected
    assert abs(frac(d.delta) - Fraction(10001, 10**6)) < Fraction(1, 10**47)


@covers("RSWR23:Lem6.2", "RSWR23:Thm6")
def test_corrected_constant_values() -> None:
    """Lemma 2.3's rho + 2 sqrt(rho log(1/delta)) (no factor 2 under the root), by hand:
    two releases at t = 1 spend 1/2 + 1/2 = rho = 1 (HALT) and give 1 + 2 sqrt(6 log 10);
    RSWR23 §7.2's budget rho = 1.3525 gives 1.3525 + 2 sqrt(8.115 log 10) (just below the
    experiments' eps = 10), spend 0.00125 + 1/400 = 0.00375 (CONTinue)."""
    with mp.workdps(60):
        b = bf.brownian_filter(t="1,1", rho=1, delta="1e-6")
        want_b = 1 + 2 * mp.sqrt(6 * mp.log(10))
        assert abs(b.eps - want_b) < mp.mpf(10) ** -45 * want_b
        u = bf.unified_filter(rho_z=["0.00125"], t=["200"], rho="1.3525", delta_pp="1e-6")
        want_u = mp.mpf("1.3525") + 2 * mp.sqrt(mp.mpf("8.115") * mp.log(10))
        assert abs(u.eps - want_u) < mp.mpf(10) ** -45 * want_u
        assert 9.99 < want_u < 10
    assert frac(b.spent) == 1 and b.halt
    assert abs(frac(u.spent) - Fraction(3, 800)) < Fraction(1, 10**50) and not u.halt
    assert abs(frac(u.delta) - Fraction(1, 10**6)) < Fraction(1, 10**55)  # delta = 0 here


@covers("RSWR23:Thm6")
def test_constant_check_pinned() -> None:
    """Lemma 2.3 solved for rho by hand (a quadratic in sqrt(rho)): rho + 2 sqrt(rho L) = 10
    gives sqrt(rho) = sqrt(L + 10) - sqrt(L), L = log 10^6, and the printed
    rho + 2 sqrt(2 rho L) = 10 gives sqrt(rho) = sqrt(2 L + 10) - sqrt(2 L); the budget
    sum eps^2 is 2 rho.  The printed epsilon at rho = 1.3525 is 1.3525 + 2 sqrt(2.705 L)."""
    with mp.workdps(50):
        L = 6 * mp.log(10)
        budget = 2 * (mp.sqrt(L + 10) - mp.sqrt(L)) ** 2
        printed_budget = 2 * (mp.sqrt(2 * L + 10) - mp.sqrt(2 * L)) ** 2
        printed_eps = mp.mpf("1.3525") + 2 * mp.sqrt(mp.mpf("2.705") * L)
        expected = (f"corrected budget sum eps^2 = {mpmath.nstr(budget, 7)}; printed "
                    f"constant: budget {mpmath.nstr(printed_budget, 5)}, and 2.705 gives "
                    f"epsilon {mpmath.nstr(printed_eps, 4)} > 10")
    chk = bf._constant_check.verify()
    assert (chk.confirmed, chk.detail) == (True, expected)


@covers("RSWR23:Thm6")
def test_zcdp_step_check_pinned() -> None:
    """Loss N(rho, 2 rho) at rho = 1/2: E[e^((lam-1) L)] = e^((lam-1) rho + (lam-1)^2 rho)
    = e at lam = 2; printed: e * e^(-lam (lam-1) rho/2) = e^(1/2); with rho_n: e * e^-1 = 1."""
    with mp.workdps(30):
        expected = (f"rho = 0.5, lambda = 2: printed expectation {mpmath.nstr(mp.e ** 0.5, 6)} > 1 "
                    f"(quadrature; closed form e^(1/2)); with rho_n: {mpmath.nstr(mp.one, 6)}")
    chk = bf._zcdp_step_check.verify()
    assert (chk.confirmed, chk.detail) == (True, expected)


@covers("RSWR23:Thm6")
def test_eq10_check_pinned() -> None:
    """Loss N(1/2, 1) at t = 1: E[e^L] = e^(1/2 + 1/2) = e; times e^(-lam/(2t)) = e^-1 it is
    1, times e^(-lam/t) = e^-2 it is e^-1."""
    with mp.workdps(30):
        expected = (f"t = 1, lambda = 2: E[exp((lam-1)(L - lam/(2t)))] = {mpmath.nstr(mp.one, 6)}, "
                    f"with 1/t: {mpmath.nstr(mp.exp(-1), 6)} = e^-1")
    chk = bf._eq10_check.verify()
    assert (chk.confirmed, chk.detail) == (True, expected)
