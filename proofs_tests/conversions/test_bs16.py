"""Property tests of BS16 Prop 1.4 (pure eps-DP implies eps^2/2-zCDP).

Independent route: the Renyi divergence of randomized response by a two-point sum
(MIR17), which must stay below the zCDP bound at every order.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.profiles import share
from reference import certified
from reference.core.numeric import exact
from reference.results import covers
from reference.results.conversions.bs16 import puredp_to_zcdp
from reference.results.conversions.mir17 import rr_renyi


@covers("BS16:Prop1.4", "MIR17:RR-renyi")
@settings(max_examples=share(Fraction(2, 3)))
@given(eps=st.floats(0, 10), alpha=st.floats(1.001, 200))
def test_pure_dp_is_half_eps_squared_zcdp(eps: float, alpha: float) -> None:
    """zCDP definition: D_alpha <= alpha rho for every alpha, checked on RR (the worst case)."""
    d = certified(rr_renyi, eps=eps, alpha=alpha)
    rho = certified(puredp_to_zcdp, eps=eps)
    e, a = Fraction(eps), Fraction(alpha)
    assert exact_q(rho.lo) <= e * e / 2 <= exact_q(rho.hi)      # rho is eps^2/2, exactly
    # Compared exactly: a slack computed in mpmath at its 53-bit default rounds away
    # (1 + 1e-40 == 1 there), and the test then failed at eps = 1.23e-19.
    assert exact_q(d.lo) <= a * e * e / 2        # the exact D_alpha is <= alpha rho ...
    assert exact_q(d.lo) <= e                    # ... and <= the max divergence eps


def exact_q(x: object) -> Fraction:
    return exact(x, "end point", "test")
