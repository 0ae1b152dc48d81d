"""Edges of the selection bounds (CL23 Lemma 2.6, Theorems I.1, I.3, 2.10): their
probabilistic flags, and the exact floor ``m = floor((1 + alpha) k (e^eps + 1))`` of
Theorems 2.10 and I.3 next to an integer: decided at the guarded precision, refused
(DomainError) when it cannot be.

``alpha`` is chosen a hair below or above the rational that puts ``(1 + alpha) (e^eps + 1)``
on the integer 100 (python-flint arb at 4000 bits, far beyond the code's balls), so the
expected floor (99 or 100) is known by construction.  The default working precision is 50
digits; the code tries balls of 60, 240 and 960 digits (50 + 10 guard digits, times 1, 4,
16), so a gap of 10^-930 is decided and one of 10^-990 is not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx

from proofs_tests.arb_support import arb_ends
from reference.core.errors import DomainError
from reference.results import covers, get
from reference.results.tct.selection import svt_individual, svt_individual_basic, top_k

F = Fraction
N = 100


def _scale_below(eps: Fraction, digits: int) -> Fraction:
    """``floor(10^digits N/(e^eps + 1)) / 10^digits``: just below ``N/(e^eps + 1)``, by at
    most ``10^-digits`` (and not equal: ``e^eps`` is irrational for rational eps != 0)."""
    old = ctx.prec
    ctx.prec = 4000
    try:
        lo, hi = arb_ends(N / ((arb(eps.numerator) / eps.denominator).exp() + 1))
    finally:
        ctx.prec = old
    s = F(int(lo * 10**digits), 10**digits)
    assert s == F(int(hi * 10**digits), 10**digits)     # the ball fixes the digits
    return s


@covers("CL23:Thm2.10-basic")
@pytest.mark.parametrize("digits", [800, 930])
def test_floor_decided_within_the_last_bracket(digits: int) -> None:
    """A gap of 10^-800 or 10^-930 below/above the integer 100 is decided exactly: 99 / 100."""
    eps = F(1, 10)
    s = _scale_below(eps, digits)
    below = svt_individual_basic(eps=eps, tau=1, alpha=s - 1)
    above = svt_individual_basic(eps=eps, tau=1, alpha=s + F(1, 10**digits) - 1)
    assert (below.m, above.m) == (N - 1, N)
    for b, m in ((below, N - 1), (above, N)):
        assert abs(Fraction(str(b.eps)) - eps * m) < F(1, 10**12)


@covers("CL23:Thm2.10-basic", "CL23:ThmI.3")
def test_floor_too_close_is_refused() -> None:
    """A gap of 10^-990 is beyond the 960-digit bracket: DomainError, never a guess."""
    eps = F(1, 10)
    s = _scale_below(eps, 990)
    for a in (s - 1, s + F(1, 10**990) - 1):
        with pytest.raises(DomainError):
            svt_individual_basic(eps=eps, tau=1, alpha=a)
    # Theorem I.3 floors (1+alpha) k (e^{2 eps'} + 1): eps' = eps/2 gives the same product.
    with pytest.raises(DomainError):
        top_k(eps=eps / 2, k=1, alpha=s - 1, delta_star="1e-6")
    assert top_k(eps=eps / 2, k=1, alpha=_scale_below(eps, 800) - 1,
                 delta_star="1e-6").m == N - 1


@covers("CL23:Lem2.6", "CL23:ThmI.1", "CL23:Thm2.10", "CL23:Thm2.10-basic")
def test_probabilistic_flags_of_selection() -> None:
    """Decided from the statements, by the rule of test_probabilistic_flags (probabilistic
    iff the delta pays a tail bound's failure probability): Theorem I.1's delta is the
    geometric tail (1 - q_2)^m' of the one hit not arriving in m' calls; Theorem 2.10's
    (both forms) carries the Chernoff tail e^{-alpha^2 tau/(2(1+alpha))} of the hit count;
    Lemma 2.6 is an exact simulation (k hits, always), with no delta at all."""
    assert get("CL23:ThmI.1").probabilistic
    assert get("CL23:Thm2.10").probabilistic
    assert get("CL23:Thm2.10-basic").probabilistic
    assert not get("CL23:Lem2.6").probabilistic


@covers("CL23:ThmI.3", "CL23:Thm2.10", "CL23:Thm2.10-basic")
def test_hit_budget_limit() -> None:
    """k and tau run up to 10^5 inclusive (m about 4 10^5 composed calls), not beyond."""
    big = 10**5
    assert top_k(eps="0.01", k=big, alpha=1, delta_star="1e-6").m > 4 * big
    assert svt_individual(eps="0.1", tau=big, alpha=1, delta_star="1e-6").m > 4 * big
    assert svt_individual_basic(eps="0.1", tau=big, alpha=1).m > 4 * big
    with pytest.raises(DomainError, match="k"):
        top_k(eps="0.01", k=big + 1, alpha=1, delta_star="1e-6")
    with pytest.raises(DomainError, match="tau"):
        svt_individual(eps="0.1", tau=big + 1, alpha=1, delta_star="1e-6")
    with pytest.raises(DomainError, match="tau"):
        svt_individual_basic(eps="0.1", tau=big + 1, alpha=1)
