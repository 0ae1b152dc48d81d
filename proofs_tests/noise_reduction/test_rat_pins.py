"""Pins of ReducedAboveThreshold's results (WRWR22 §5) beyond test_rat.py: the catalogue
flags decided from the statements, LNR's bound at sensitivities other than 1, and the
transcript erratum's number recomputed by an independent route.

Independent routes: exact rationals for 2 Delta_1/T_N; for the erratum, scipy
quadrature of P[xi - zeta >= -d] over the densities of the two Laplace noises (scales 4
and 2) and the Gaussian log-likelihood ratio worked out by hand.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp
from scipy import integrate, stats

from reference.core.model import Result
from reference.results import covers, errata
from reference.results.noise_reduction import rat
from reference.results.noise_reduction.rat import lnr_rat_expost


@covers("WRWR22:Alg1", "WRWR22:Thm5.1", "WRWR22:Cor5.2", "WRWR22:Thm5.1-LNR")
def test_probabilistic_flags() -> None:
    """Theorem 5.1, Corollary 5.2 and the LNR pairing bound the privacy loss of the random
    transcript at its random halting round N(x) (ex-post privacy: P[L > eps(output)] <=
    delta, delta = 0 for LNR), a probability statement the contract checks with a
    statistical test; Algorithm 1's result only gives the noise scales of a round, a
    deterministic function of (eps_n, eps_max, Delta)."""
    found = {v.id: v.probabilistic for v in vars(rat).values()
             if isinstance(v, Result) and v.core.__module__ == rat.__name__}
    assert found == {"WRWR22:Alg1": False, "WRWR22:Thm5.1": True, "WRWR22:Cor5.2": True,
                     "WRWR22:Thm5.1-LNR": True}


@covers("WRWR22:Thm5.1-LNR")
@given(t=st.fractions(Fraction(1, 10), 10, max_denominator=1000),
       sens=st.fractions(Fraction(1, 10), 10, max_denominator=1000))
def test_lnr_bound_scales_with_the_sensitivity(t: Fraction, sens: Fraction) -> None:
    """(2 Delta_1/T_N, 0) exactly: Proposition 4.2's Delta_1/T_N plus E_N = Delta_1/T_N."""
    g = lnr_rat_expost(t=t, sensitivity=sens)
    want = 2 * sens / t
    with mp.workdps(50):
        assert abs(g.eps - mp.mpf(want.numerator) / want.denominator) < mp.mpf(10) ** -45 * want
    assert g.delta == 0


def _halts(d: float) -> float:
    """P[xi >= zeta - d], xi ~ Lap(4), zeta ~ Lap(2), by quadrature over zeta."""
    def f(z: float) -> float:
        return float(stats.laplace.pdf(z, 0, 2) * stats.laplace.sf(z - d, 0, 4))
    return float(integrate.quad(f, -80, 80, points=[0, d], limit=200)[0])


@covers("WRWR22:Thm5.1")
def test_transcript_erratum_number() -> None:
    """One round, beta = f + W, u = beta - f, tau = 0, eps = 1, f(x) = 0, f(x') = -1, at
    beta = 1: the Gaussian part is log N(1; 0, 1)/N(1; -1, 1) = (4 - 1)/2 = 1.5 (by hand),
    and the halting part log P[halt | x]/P[halt | x'] with gaps d = 1 and d = 2.  The check's
    printed loss is that sum to its 4 decimals; the bits-only loss is 0."""
    full = 1.5 + math.log(_halts(1.0) / _halts(2.0))
    check = {e.id: e for e in errata()}["WRWR22:Thm5.1-transcript"].verify()
    assert check.confirmed is True
    found = re.search(r"bits-only loss 0, full-transcript loss (-?[0-9.]+) at beta = 1",
                      check.detail)
    assert found is not None, check.detail
    assert abs(float(found.group(1)) - full) <= 5.1e-5
