"""Property tests of BS16 Prop 1.4 (pure eps-DP implies eps^2/2-zCDP).

Independent route: the Renyi divergence of randomized response by a two-point sum
(MIR17), which must stay below the zCDP bound at every order.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from reference import certified
from reference.results import covers
from reference.results.conversions.bs16 import puredp_to_zcdp
from reference.results.conversions.mir17 import rr_renyi


@covers("BS16:Prop1.4", "MIR17:RR-renyi")
@settings(max_examples=40)
@given(eps=st.floats(0, 10), alpha=st.floats(1.001, 200))
def test_pure_dp_is_half_eps_squared_zcdp(eps: float, alpha: float) -> None:
    """zCDP definition: D_alpha <= alpha rho for every alpha, checked on RR (the worst case)."""
    d = certified(rr_renyi, eps=eps, alpha=alpha)
    rho = certified(puredp_to_zcdp, eps=eps)
    assert d.hi <= alpha * rho.hi * (1 + mp.mpf(10) ** -40) + mp.mpf(10) ** -60
    assert d.hi <= eps + mp.mpf(10) ** -40        # and RDP never exceeds the max divergence
