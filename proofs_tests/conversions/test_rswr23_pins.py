"""Pins of the RSWR23 §2/§7 zCDP family beyond the one-sided property tests: which
results are probabilistic (decided from the statements), and the exponential mechanism's
zCDP level pinned two-sided against an exact Renyi divergence of a two-outcome EM.

Independent routes: the statements themselves, and for the EM the closed form of the
order-2 Renyi divergence of two softmax laws (derived below), evaluated in python-flint
arb.
"""

from __future__ import annotations

from fractions import Fraction

from flint import ctx
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import arb_q, frac
from reference.core.model import Result
from reference.results import covers
from reference.results.conversions import rswr23
from reference.results.conversions.rswr23 import exponential_mechanism_zcdp


@covers("RSWR23:Lem2.1", "RSWR23:Lem2.2", "RSWR23:Lem2.3-i", "RSWR23:Lem2.3",
        "RSWR23:Lem2.3-inverse", "RSWR23:Lem2.4", "RSWR23:Sec7.2-EM", "RSWR23:Sec7.1-doubling")
def test_probabilistic_flags() -> None:
    """Only Lemma 2.3 (ii) is probabilistic: its eps bounds the privacy loss except on an
    event of probability delta'' (a tail bound of the loss, Bun–Steinke Prop. 1.3), paid as
    the DP delta.  The others are deterministic: Laplace/Gaussian/EM levels are divergence
    bounds holding for every pair of neighbours, Lemma 2.3 (i) carries the given DP delta
    unchanged (no new failure event), composition adds the levels and deltas, the
    doubling bound is arithmetic on the schedule, and the inverse is a budget solve."""
    found = {v.id: v.probabilistic for v in vars(rswr23).values() if isinstance(v, Result)}
    assert len(found) == 8
    assert {i for i, p in found.items() if p} == {"RSWR23:Lem2.3"}


@covers("RSWR23:Sec7.2-EM")
@given(eps=st.fractions(Fraction(1, 10**6), Fraction(3, 2), max_denominator=10**6))
def test_em_level_is_tight_at_two_outcomes(eps: Fraction) -> None:
    """Two outcomes, u = (0, 0) and the monotone neighbour u' = (1, 0): P = (1/2, 1/2),
    Q = (e^eps, 1)/(1 + e^eps).  sum_y P^2/Q = (1/4)(1 + e^eps)(1 + e^-eps) = (1 + cosh eps)/2
    = cosh^2(eps/2), so D_2(P||Q)/2 = log cosh(eps/2); a rho-zCDP mechanism has
    D_2 <= 2 rho, hence rho >= log cosh(eps/2).  Since log cosh x >= x^2/2 - x^4/12
    (tanh x >= x - x^3/3 for x >= 0, integrated), eps^2/8 <= log cosh(eps/2) + eps^4/192:
    the returned level must sit in [log cosh(eps/2), log cosh(eps/2) + eps^4/192], and
    is the stated eps^2/8 to the working precision."""
    value = frac(exponential_mechanism_zcdp(eps=eps))
    with ctx.workprec(300):
        lower = (arb_q(eps) / 2).cosh().log()
        upper = lower + arb_q(eps**4 / 192)
        slack = arb_q(eps**2 * Fraction(1, 10**45))
        assert bool(lower - slack <= arb_q(value)) and bool(arb_q(value) <= upper + slack)
    assert abs(value - eps**2 / 8) <= eps**2 * Fraction(1, 10**45)
