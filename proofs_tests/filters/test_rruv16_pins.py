"""RRUV16's filters pinned: which results are probabilistic (from their statements), the
round limit at its boundary, and the errata checks of Lemma 3.3 and Theorem 5.1
(``confirmed`` and every number in ``detail``), each against an independent route: the
formulas written out here in mpmath at 50 digits, or a fixed-point iteration of their own.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from mpmath import mp

from reference import DomainError
from reference.core.model import Result
from reference.results import covers
from reference.results.filters import rruv16


@covers("RRUV16:Thm3.4", "RRUV16:Thm5.1", "RRUV16:Lem3.3")
def test_probabilistic_flags() -> None:
    """Probabilistic iff the guarantee holds only outside an event of probability delta:
    Theorem 5.1 (a concentration bound, failure delta_g) and Lemma 3.3 (a union bound paying
    delta_g' for the rounds' point-wise failures).  Theorem 3.4 is deterministic: |Loss| <=
    sum eps_i on every path."""
    found = {v.id: v.probabilistic for v in vars(rruv16).values()
             if isinstance(v, Result) and v.core.__module__ == rruv16.__name__}
    assert found == {"RRUV16:Thm3.4": False, "RRUV16:Thm5.1": True, "RRUV16:Lem3.3": True}


_LIMIT = 100_000  # the documented longest parameter sequence of a registered filter


@covers("RRUV16:Thm3.4", "RRUV16:Thm5.1", "RRUV16:Lem3.3")
@pytest.mark.parametrize("res", [rruv16.basic_filter, rruv16.advanced_filter,
                                 rruv16.lifted_failure], ids=lambda r: r.id)
def test_round_limit_boundary(res: Result[object]) -> None:
    """Exactly 100 000 rounds are accepted, one more is refused (the precondition alone: a
    full evaluation of 10^5 rounds takes seconds)."""
    def values(k: int) -> dict[str, object]:
        return {"eps": [Fraction(0)] * k, "delta": [Fraction(0)] * k, "eps_g": Fraction(1),
                "delta_g": Fraction(1, 1000), "delta_g_prime": Fraction(0)}
    assert res.precondition is not None
    res.precondition(values(_LIMIT), res.where)
    with pytest.raises(DomainError):
        res.precondition(values(_LIMIT + 1), res.where)


def _check(name: str) -> tuple[bool, str]:
    chk = getattr(rruv16, name).verify()
    return chk.confirmed, chk.detail


@covers("RRUV16:Lem3.3")
def test_lemma_3_3_check_pinned() -> None:
    """RR_(2, 1e-3) puts mass delta on the outcome only P can give (infinite loss) and loss
    +-2 elsewhere, so P[|Loss| > 4] = delta = 1e-3 exactly; the printed lift's delta_g' is
    2 delta/(2 e^2) = delta e^-2; the corrected term is delta (1 + e^-4)/(1 - e^-2)."""
    with mp.workdps(50):
        d = mp.mpf(1) / 1000
        printed = d * mp.exp(-2)
        corrected = d * (1 + mp.exp(-4)) / (1 - mp.exp(-2))
        expected = (f"RR_(2, 1e-3): P[|Loss| > 4] = {mpmath.nstr(d, 6)} > delta_g + delta_g' "
                    f"= {mpmath.nstr(printed, 6)} (printed lift returns 4); corrected term "
                    f"{mpmath.nstr(corrected, 6)} exceeds delta_g', so the corrected lift "
                    f"returns inf / HALT")
    # the two literals re-derived in python-flint arb at 300 bits (review): e^-2/1000 =
    # 1.3533528e-4 and (1 + e^-4)/(1 - e^-2)/1000 = 1.1777000e-3
    assert (mpmath.nstr(printed, 6), mpmath.nstr(corrected, 6)) == ("0.000135335", "0.0011777")
    assert _check("_check_lemma_3_3") == (True, expected)


@covers("RRUV16:Thm5.1")
def test_theorem_5_1_proof_check_pinned() -> None:
    """Ten rounds of 0.1, eps_g = 1, delta_g = 1e-3: (6) written out, K = D + sqrt(2 (S + x)
    (1 + log(S/x + 1)/2) log 1000) with D = 10 * 0.1 (e^0.1 - 1)/2, S = 0.1,
    x = 1/(28.04 log 1000); the proof's last line adds D once more; RR_0.1's mean loss is
    0.1 tanh(0.05)."""
    with mp.workdps(50):
        e = mp.mpf(1) / 10
        L = mp.log(1000)
        D = 10 * e * (mp.exp(e) - 1) / 2
        S = 10 * e**2
        x = 1 / (mp.mpf(2804) / 100 * L)
        K = D + mp.sqrt(2 * (S + x) * (1 + mp.log(S / x + 1) / 2) * L)
        kl, bound = e * mp.tanh(e / 2), e * (mp.exp(e) - 1) / 2
        expected = (f"10 x 0.1, eps_g = 1, delta_g = 1e-3: (6) gives K = {mpmath.nstr(K, 10)}, "
                    f"the proof's last line {mpmath.nstr(K + D, 10)}; RR_0.1 mean loss "
                    f"{mpmath.nstr(kl, 6)} <= eps(e^eps-1)/2 = {mpmath.nstr(bound, 6)}")
    # the docstring's double-precision value, re-derived in arb at 300 bits (review):
    # K = 1.96108934335656, K + D = 2.01367480239
    assert mpmath.nstr(K, 10) == "1.961089343"
    assert _check("_check_thm51_proof") == (True, expected)


@covers("RRUV16:Thm5.1")
def test_theorem_5_1_remark_check_pinned() -> None:
    """u* = 2 + ln(1 + u*) by fixed-point iteration (a contraction: derivative 1/(1 + u)),
    c* = 8 u*; the coefficient sqrt(2 (1/8 + 1/c)(1 + log(1 + c/8)/2)) at c* and at 28.04."""
    with mp.workdps(30):
        u = mp.mpf(3)
        for _ in range(200):
            u = 2 + mp.log(1 + u)

        def coeff(c: object) -> object:
            c = mp.mpf(c)
            return mp.sqrt(2 * (mp.mpf(1) / 8 + 1 / c) * (1 + mp.log(1 + c / 8) / 2))
        expected = (f"optimal constant c* = {mpmath.nstr(8 * u, 7)} (coefficient "
                    f"{mpmath.nstr(coeff(8 * u), 7)}), 28.04 gives "
                    f"{mpmath.nstr(coeff(mp.mpf('28.04')), 7)}")
    assert mpmath.nstr(8 * u, 7) == "28.04193"  # arb bisection of u = 2 + log(1 + u): 28.04193197
    assert _check("_check_thm51_remark") == (True, expected)


@covers("RRUV16:Thm3.4")
@pytest.mark.parametrize(("eps_g", "halt"), [(Fraction(63, 64), True), (Fraction(1), False),
                                             (Fraction(65, 64), False), (Fraction(0), True)])
def test_basic_decision_both_sides(eps_g: Fraction, halt: bool) -> None:
    """1/4 + 1/4 + 1/2 = 1 exactly: HALT iff the budget is below 1 (equality CONTinues)."""
    d = rruv16.basic_filter(eps=["0.25", "0.25", "0.5"], eps_g=eps_g)
    assert d.total == 1 and d.halt is halt
