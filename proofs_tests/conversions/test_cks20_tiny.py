"""CKS20 Corollary 13 at tiny rho with a small delta: the optimal order's bracket.

Found by a random-seed run of the strict contract: rho = 1/2.02e335, delta = 1.848e-59 raised
RuntimeError (no certified sign change), because the bracket's right end 1/delta left the
gap only ln(1 + delta) ~ 1.8e-59 against L = ln(1/delta) ~ 135, below the working precision.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from reference.results import covers, get

RHO = Fraction(1, 2**1114)  # about 5.7e-336, like the drawn input
DELTA = 1.8481060024667544e-59


@covers("CKS20:Cor13")
@pytest.mark.parametrize(("rho", "delta"), [(RHO, DELTA), ("1e-300", "1e-59"),
                                            ("5e-324", "1e-59"), ("1e-200", "1e-59")])
def test_tiny_rho_gives_exactly_zero(rho: object, delta: object) -> None:
    """At a = 1/delta the objective a rho + ln(1 - 1/a) - (ln delta + ln a)/(a - 1) is
    rho/delta + ln(1 - delta) < rho/delta - delta < 0 for these inputs (rho < delta^2), so
    the infimum is negative and the reported eps is exactly 0: (0, delta) holds."""
    assert Fraction(rho) < Fraction(delta) ** 2
    enc = get("CKS20:Cor13").certified(rho=rho, delta=delta)
    assert enc.lo == 0 and enc.hi == 0
    assert get("CKS20:Cor13")(rho=rho, delta=delta) == 0


@covers("CKS20:Cor13-order")
def test_tiny_rho_order_is_about_one_over_delta() -> None:
    """With rho t^2 negligible the order solves ln a = ln(1/delta): a* = 1/delta (1 + O(delta))."""
    a = get("CKS20:Cor13-order").certified(rho=RHO, delta=DELTA)
    assert abs(a.lo * DELTA - 1) < 1e-40 and abs(a.hi * DELTA - 1) < 1e-40
