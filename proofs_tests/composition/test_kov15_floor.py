"""The inverse of exact optimal composition (KOV15 Thm 3.3) near its documented limit:
certified only while ``(1-delta)^k >= 2**-300`` (``reference.results.composition.kov15``,
``_FLOOR_BITS``); below it a target above the floor is a DomainError, not a wrong answer.

Independent route: for k = 1 and ``delta_g = 1 - (1-delta)/2`` the pure part must be at
most 1/2, i.e. ``(e^eps - e^eps_g)/(1 + e^eps) <= 1/2``, so ``eps_g* = log((e^eps - 1)/2)``
(in python-flint ``arb``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx, fmpq

from reference import DomainError, precision
from reference.core.numeric import exact
from reference.results import covers
from reference.results.composition.kov15 import optimal_epsilon


def _q(x: Fraction) -> arb:
    return arb(fmpq(x.numerator, x.denominator))


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("keep", [Fraction(2) ** -299, Fraction(5, 4) * Fraction(2) ** -300])
def test_inverse_just_above_the_limit_is_certified(keep: Fraction) -> None:
    """(1-delta) = 2**-299 and 1.25 * 2**-300: the certificate brackets log((e^2 - 1)/2)."""
    with precision(400):
        cert = optimal_epsilon(eps=2, k=1, delta=1 - keep, delta_g=1 - keep / 2)
    assert cert.holds
    with ctx.workprec(2000):
        root = ((arb(2).exp() - 1) / 2).log()
        lo, hi = exact(cert.lo, "lo", "t"), exact(cert.hi, "hi", "t")
        assert bool(_q(lo) <= root) and bool(root <= _q(hi))
        assert hi - lo < Fraction(1, 10**40)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("keep", [Fraction(3, 4) * Fraction(2) ** -300, Fraction(2) ** -301])
def test_inverse_just_below_the_limit_is_a_domain_error(keep: Fraction) -> None:
    """(1-delta) = 0.75 * 2**-300 and 2**-301 (resolved at 400 digits): DomainError."""
    with precision(400), pytest.raises(DomainError, match="cannot reach eps_g"):
        optimal_epsilon(eps=2, k=1, delta=1 - keep, delta_g=1 - keep / 2)
