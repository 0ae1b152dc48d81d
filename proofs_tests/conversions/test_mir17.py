"""Property tests of the Renyi divergence of randomized response (MIR17).

Independent route: the two-point sum of the Renyi divergence, and its limits.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.profiles import share
from reference.results import covers
from reference.results.conversions.mir17 import rr_renyi


@covers("MIR17:RR-renyi")
@settings(max_examples=share(Fraction(2, 3)))
@given(eps=st.floats(1e-3, 20), alpha=st.floats(1.01, 50))
def test_rr_renyi_by_two_point_sum(eps: float, alpha: float) -> None:
    with mp.workdps(80):
        e, a = mp.mpf(eps), mp.mpf(alpha)
        p = mp.exp(e) / (1 + mp.exp(e))
        q = 1 - p
        direct = mp.log(p**a * q ** (1 - a) + q**a * p ** (1 - a)) / (a - 1)
    assert abs(rr_renyi(eps=eps, alpha=alpha) - direct) <= mp.mpf(10) ** -40 * (1 + direct)


@covers("MIR17:RR-renyi")
def test_rr_renyi_limits() -> None:
    """alpha -> 1 gives KL = eps tanh(eps/2); alpha -> infinity gives eps; increasing in alpha."""
    with mp.workdps(50):
        eps = mp.mpf("0.7")
        near_one = rr_renyi(eps="0.7", alpha="1.000000000000000000001")
        assert abs(near_one - eps * mp.tanh(eps / 2)) < mp.mpf(10) ** -18
        assert abs(rr_renyi(eps="0.7", alpha=10**12) - eps) < mp.mpf(10) ** -11
    values = [rr_renyi(eps="0.7", alpha=a) for a in ("1.5", "2", "4", "16")]
    assert values == sorted(values)
