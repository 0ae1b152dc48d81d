"""The two monotonicity relations of the exact Gaussian curve (``BW18:Thm8-rho/
decreasing-eps``, ``BW18:Thm8-rho/increasing-rho``) prove the sign of the curve's
derivatives written after a cancellation worked out by hand (``e^eps phi(b) = phi(a)``).
Here that hand step is tested by two routes that do not use it: the identity ``b^2 - a^2 =
2 eps`` in exact rationals, and the closed forms inside the enclosure of the forward-mode
derivative of the result's own formula (``gauss_delta_formula``, the formula the result
evaluates), at drawn points including extreme ones; that enclosure is narrow wherever the
two cancelling terms are not much larger than the derivative, so the check is two-sided."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core.dual import DualContext
from reference.core.numeric import endpoints, to_ctx, working
from reference.results.conversions.bw18 import gauss_delta_formula
from reference.results.conversions.relations import gaussian_decreasing_eps as SLOPE_EPS
from reference.results.conversions.relations import gaussian_increasing_rho as SLOPE_RHO

RATIONALS = st.fractions(Fraction(-10**6), Fraction(10**6), max_denominator=10**9)


@given(RATIONALS, st.fractions(Fraction(1, 10**9), Fraction(10**6), max_denominator=10**9))
def test_the_hand_step_b2_minus_a2_is_2eps_exactly(eps: Fraction, mu: Fraction) -> None:
    """``e^eps phi(b) = phi(a)`` iff ``(b^2 - a^2)/2 = eps``, for ``a = eps/mu - mu/2``,
    ``b = eps/mu + mu/2``: checked in exact rational arithmetic."""
    a, b = eps / mu - mu / 2, eps / mu + mu / 2
    assert b * b - a * a == 2 * eps


def _curve(ctx: Any, rho: Any, eps: Any) -> Any:
    return gauss_delta_formula(ctx, ctx.sqrt(2 * rho), eps)


def _point(q: Fraction) -> Any:
    return iv.mpf((endpoints(to_ctx(iv, q)).lo, endpoints(to_ctx(iv, q)).hi))


def _enclosures(rho: Fraction, eps: Fraction, name: str) -> tuple[Any, Any]:
    """The forward-mode derivative of the curve in ``name`` and the relation's closed form
    (with the sign of the claim: ``-d/d eps``, ``+d/d rho``), both in ``iv`` at 300 bits
    (the gradient in both variables: a Dual meets no plain ``iv`` number)."""
    with working(iv, 90):
        r, e = _point(rho), _point(eps)
        rv, ev = DualContext(iv, ("rho", "eps")).variables([r, e])
        slope = _curve(rv.ctx, rv, ev).d[0 if name == "rho" else 1]
        rel = SLOPE_EPS if name == "eps" else SLOPE_RHO
        closed = rel.margin(iv, rho=r, eps=e)
        return (-slope if name == "eps" else slope), closed


def _ends(x: Any) -> tuple[Fraction, Fraction]:
    e = endpoints(x)
    return frac(e.lo), frac(e.hi)


@given(st.fractions(Fraction(1, 10**4), Fraction(10**4), max_denominator=10**6),
       st.fractions(Fraction(-60), Fraction(60), max_denominator=10**6),
       st.sampled_from(["eps", "rho"]))
@example(Fraction(1, 10**4), Fraction(60), "eps")      # mu = 0.014: Q(b) ~ e^-9e6
@example(Fraction(10**4), Fraction(-60), "rho")
@example(Fraction(1), Fraction(0), "eps")
def test_closed_forms_lie_in_the_formulas_own_derivative(rho: Fraction, eps: Fraction,
                                                         name: str) -> None:
    derived, closed = _enclosures(rho, eps, name)
    (dlo, dhi), (clo, chi) = _ends(derived), _ends(closed)
    assert clo > 0 and dlo <= chi and clo <= dhi          # overlap: the same number
    assert chi - clo <= clo * Fraction(1, 2**250)         # the closed form: tight
    # the derivative's terms are at most phi(a)/mu + e^eps Q(b) + phi(a) (eps/mu^2 + 1/2);
    # at 300 bits its width is a tiny multiple of 2^-290 of them, far below the value
    # wherever the cancellation costs less than ~200 bits (every point drawn here)
    assert dhi - dlo <= clo * Fraction(1, 2**40)


def test_the_closed_forms_are_the_numerical_derivatives() -> None:
    """A third route: mpmath's numerical differentiation of the curve at 50 digits."""
    with mp.workdps(50):
        for rho, eps in (("0.4", "0.7"), ("0.001", "3"), ("50", "-2")):
            r, e = mp.mpf(rho), mp.mpf(eps)
            d_eps = mpmath.diff(lambda t, r=r: _curve(mp, r, t), e)
            d_rho = mpmath.diff(lambda t, e=e: _curve(mp, t, e), r)
            assert abs(-d_eps - SLOPE_EPS.margin(mp, rho=r, eps=e)) <= abs(d_eps) * 1e-30
            assert abs(d_rho - SLOPE_RHO.margin(mp, rho=r, eps=e)) <= abs(d_rho) * 1e-30
