"""Property tests of the lecture notes' advanced composition (LEC11); RRUV16's forms are in
``test_rruv16.py``, exact optimal composition (KOV) in ``test_kov15.py``.

Independent routes: enumeration of randomized response's loss (the mean term), KOV's
lattice formula (Thm 3.3), and the notes' numbers (N6, N7, N14, N22), recomputed
independently.
"""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.composition_support import (
    ks,
    near,
    rr_pair,
    slacks,
)
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta
from reference.results.composition.lec11 import advanced_composition_tanh
from reference.results.composition.rruv16 import (
    basic_composition,
)


@covers("LEC11:AdvComp", "RRUV16:Thm2.9")
def test_lec11_n7_values() -> None:
    # Lecture notes N7: basic 0.5; advanced formula 0.117789 (> 0.1, the notes' claim).
    assert near(basic_composition(eps=["0.001"] * 500, delta=[]).eps, 0.5, 1e-45)
    g = advanced_composition_tanh(eps="0.001", k=500, delta_prime="1e-6", delta=0)
    assert abs(float(g.eps) - 0.117789) < 5e-7 and g.eps > mp.mpf("0.1")
    # ... and it needs delta' >= 4.77e-5 (or k <= 360) to reach 0.1.
    assert advanced_composition_tanh(eps="0.001", k=500, delta_prime="4.78e-5",
                                     delta=0).eps < mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=500, delta_prime="4.76e-5",
                                     delta=0).eps > mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=360, delta_prime="1e-6",
                                     delta=0).eps < mp.mpf("0.1")
    assert advanced_composition_tanh(eps="0.001", k=361, delta_prime="1e-6",
                                     delta=0).eps > mp.mpf("0.1")


@covers("LEC11:AdvComp", "KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "delta", "k", "slack", "eps_t", "exact_delta"), [
    ("0.1", "1e-5", 100, "1e-3", "4.2165", "1.013e-3"),
    ("0.001", "0", 500, "1e-6", "0.11779", "2.5e-10"),
    ("0.3", "1e-4", 50, "1e-2", "8.6712", "5.3e-3"),
])
def test_lec11_n22_examples(eps: str, delta: str, k: int, slack: str, eps_t: str,
                            exact_delta: str) -> None:
    """Lecture notes N22: eps~ and the exact LRR delta there (both recomputed independently,
    compared to the digits printed here)."""
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=delta)
    assert mpmath.nstr(g.eps, len(eps_t.replace(".", "").lstrip("0"))) == eps_t
    d = optimal_delta(eps=eps, k=k, eps_g=g.eps, delta=delta)
    digits = len(exact_delta.split("e")[0].replace(".", ""))
    assert mpmath.nstr(d, digits, min_fixed=0, max_fixed=0) == exact_delta
    assert d <= g.delta


@covers("LEC11:AdvComp")
@given(eps=st.floats(1e-4, 5), k=ks, slack=slacks)
def test_lec11_mean_term_is_the_expected_loss(eps: float, k: int, slack: float) -> None:
    """eps~ - eps sqrt(2k ln(1/delta')) = k E[loss of RR_eps] (N14, by enumeration), and
    E[loss] <= eps^2/2 (N6)."""
    g = advanced_composition_tanh(eps=eps, k=k, delta_prime=slack, delta=0).eps
    with mp.workdps(60):
        e = mp.mpf(eps)
        p, q = rr_pair(e, mp.zero)
        kl = mp.fsum(pi * mp.log(pi / qi) for pi, qi in zip(p[1:3], q[1:3], strict=True))
        mean = g - e * mp.sqrt(2 * k * mp.log(1 / mp.mpf(slack)))
        assert abs(mean - k * kl) <= mp.mpf(10) ** -40 * (1 + k * kl)
        assert kl <= e**2 / 2


@covers("LEC11:AdvComp")
def test_lec11_mean_term_limit() -> None:
    """lim_{eps -> 0} k eps tanh(eps/2) / (k eps^2 / 2) = 1 (lecture notes N6)."""
    for e in ("1e-3", "1e-6", "1e-9"):
        g = advanced_composition_tanh(eps=e, k=7, delta_prime="0.5", delta=0).eps
        with mp.workdps(60):
            sq = mp.mpf(e) * mp.sqrt(14 * mp.log(2))
            ratio = (g - sq) / (7 * mp.mpf(e) ** 2 / 2)
            assert abs(ratio - 1) < mp.mpf(e)
