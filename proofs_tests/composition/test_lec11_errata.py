"""The lecture notes' errata LEC11:N7, LEC11:N21 and LEC11:N22, their ``Check`` pinned:
``confirmed`` and every number in ``detail``, each against an independent route.

An erratum's check has no inputs, so the numbers it prints are its whole output.  The
routes: the formulas in plain floats (``math``), the exact optimal composition of k-fold
pure eps-DP (Kairouz-Oh-Viswanath 2015, Thm 3.3, by bisection in python-flint's ``arb``),
and 2-fold leaky randomized response enumerated outcome by outcome in ``arb``.
"""

from __future__ import annotations

import math
import re

import flint

from reference.core.errata import Check
from reference.core.model import Result
from reference.results import covers
from reference.results.composition import kov15, kov15_heterogeneous, lec11, mv16, rruv16

_NUM = r"[0-9.]+(?:e-?[0-9]+)?"


def _check(eid: str) -> Check:
    entry = {"LEC11:N7": lec11._check_n7, "LEC11:N21": lec11._check_n21,
             "LEC11:N22": lec11._check_n22}[eid]
    assert entry.id == eid
    return entry.verify()


def _interval(detail: str, before: str) -> tuple[float, float]:
    m = re.search(rf"{re.escape(before)} \[({_NUM}), ({_NUM})\]", detail)
    assert m, detail
    return float(m.group(1)), float(m.group(2))


def _pure_kov_delta(eps: flint.arb, k: int, eps_g: flint.arb) -> flint.arb:
    """KOV Thm 3.3 for delta = 0: sum_j C(k,j) p^(k-j) (1-p)^j [1 - e^(eps_g-(k-2j)eps)]_+."""
    p = eps.exp() / (1 + eps.exp())
    total = flint.arb(0)
    for j in range(k + 1):
        gap = (k - 2 * j) * eps - eps_g
        if gap > 0:
            total += math.comb(k, j) * p ** (k - j) * (1 - p) ** j * (1 - (-gap).exp())
    return total


def _pure_kov_epsilon(eps: str, k: int, delta_g: str) -> float:
    """Smallest eps_g with delta(eps_g) <= delta_g, by bisection (delta is decreasing)."""
    e, target = flint.arb(eps), flint.arb(delta_g)
    lo, hi = flint.arb(0), k * e
    for _ in range(60):
        mid = (lo + hi) / 2
        if _pure_kov_delta(e, k, mid) > target:
            lo = mid
        else:
            hi = mid
    return float((lo + hi).mid() / 2)


def _leaky_rr_delta(eps: str, delta: str, k: int, eps_g: str) -> float:
    """Hockey-stick divergence at eps_g of k-fold RR_{eps,delta} (RRUV16 Def 2.6),
    enumerating the 4^k outcome sequences over (0, top, bottom, 1)."""
    e, d, scale = flint.arb(eps), flint.arb(delta), flint.arb(eps_g).exp()
    p = e.exp() / (1 + e.exp())
    one_p = [d, (1 - d) * p, (1 - d) * (1 - p), flint.arb(0)]
    one_q = [flint.arb(0), (1 - d) * (1 - p), (1 - d) * p, d]
    pp, qq = [flint.arb(1)], [flint.arb(1)]
    for _ in range(k):
        pp = [a * b for a in pp for b in one_p]
        qq = [a * b for a in qq for b in one_q]
    total = flint.arb(0)
    for a, b in zip(pp, qq, strict=True):
        if a - scale * b > 0:
            total += a - scale * b
    return float(total.mid())


@covers("LEC11:AdvComp", "KOV15:Thm3.3")
def test_n7_check_numbers() -> None:
    """LEC11:N7: the N5 formula at (0.001, 500, 1e-6) in floats, and KOV's exact eps."""
    check = _check("LEC11:N7")
    assert check.confirmed
    formula = 0.001 * math.sqrt(2 * 500 * math.log(1e6)) + 500 * 0.001 * math.tanh(0.0005)
    lo, hi = _interval(check.detail, "LEC11:AdvComp gives eps~ in")
    assert lo <= hi and abs(lo - formula) < 1e-13 and abs(hi - formula) < 1e-13
    m = re.search(rf"KOV15:Thm3.3 gives ({_NUM}) \(certified\) <= 0.1$", check.detail)
    assert m, check.detail
    with flint.ctx.workprec(200):
        best = _pure_kov_epsilon("0.001", 500, "1e-6")
    assert len(m.group(1).replace("0.0", "", 1)) == 6  # six significant digits
    assert abs(float(m.group(1)) - best) <= 6e-8
    assert formula > 0.1 > best


@covers("LEC11:AdvComp")
def test_n22_check_numbers() -> None:
    """LEC11:N22: the printed formula (ln(1/delta) under the root) and N5's (ln(1/delta'))
    at (eps, k, delta, delta') = (0.1, 100, 1e-5, 1e-3), in floats."""
    check = _check("LEC11:N22")
    assert check.confirmed
    as_printed = 0.1 * math.sqrt(2 * 100 * math.log(1e5)) + 100 * 0.1 * math.tanh(0.05)
    fixed = 0.1 * math.sqrt(2 * 100 * math.log(1e3)) + 100 * 0.1 * math.tanh(0.05)
    m = re.search(rf"it gives ({_NUM}) \(independent of delta'\) against ({_NUM}) from N5",
                  check.detail)
    assert m, check.detail
    assert abs(float(m.group(1)) - as_printed) <= 6e-6 * as_printed
    assert abs(float(m.group(2)) - fixed) <= 6e-6 * fixed
    assert (f"{as_printed:.6g}", f"{fixed:.6g}") == ("5.29811", "4.21651")
    assert check.detail.startswith("printed form is undefined at delta=0")


@covers("KOV15:Thm3.3-delta")
def test_n21_check_numbers() -> None:
    """LEC11:N21: exact delta of 2-fold RR_{0.5, 0.01} at eps_g = 0.5 by enumeration."""
    check = _check("LEC11:N21")
    assert check.confirmed
    with flint.ctx.workprec(200):
        exact = _leaky_rr_delta("0.5", "0.01", 2, "0.5")
    lo, hi = _interval(check.detail, "has exact delta")
    assert lo <= hi and abs(lo - exact) < 1e-14 and abs(hi - exact) < 1e-14
    assert f"{exact:.4g}" == "0.1693"  # the erratum's consequence line


@covers("LEC11:AdvComp", "RRUV16:Thm2.9", "RRUV16:Thm2.10", "RRUV16:fn2-advanced",
        "KOV15:Thm3.3", "KOV15:Thm3.3-delta", "KOV15:Thm3.5", "KOV15:Thm3.3-grid",
        "MV16:Thm1.5", "MV16:Thm1.5-delta")
def test_probabilistic_flags() -> None:
    """Which composition results state a probabilistic guarantee, decided from statements.

    Probabilistic: those whose eps_g rests on a concentration bound for the summed privacy
    loss (Azuma-Hoeffding) and pays its failure probability as an additive slack in delta_g:
    LEC11:AdvComp (delta'), RRUV16:Thm2.10 (hat delta) and RRUV16:fn2-advanced (its
    delta').  Not probabilistic: basic composition (RRUV16:Thm2.9, a deterministic sum) and
    the exact optimal compositions and their bounds (KOV15 Thm 3.3, 3.5 and the grid form,
    MV16 Thm 1.5), which are hockey-stick divergences of randomized response computed
    exactly, or upper bounds on them.
    """
    found = {v.id: v.probabilistic for m in (lec11, rruv16, kov15, kov15_heterogeneous, mv16)
             for v in vars(m).values() if isinstance(v, Result)}
    assert {i for i, p in found.items() if p} == {
        "LEC11:AdvComp", "RRUV16:Thm2.10", "RRUV16:fn2-advanced"}
    assert len(found) == 10
