"""Regression tests of exact optimal composition with a per-mechanism delta near 1.

Kairouz–Oh–Viswanath (2015) Thm 3.3: k-fold composition of ``(eps, delta)``-DP is exactly
as private as k-fold ``RR_{eps,delta}``, whose hockey-stick divergence at ``eps_g`` is
``delta_opt = 1 - K + K S`` with ``K = (1-delta)^k`` and ``S`` the pure (``delta = 0``)
divergence ``sum_{j: (k-2j)eps > eps_g} C(k,j) (p^(k-j) q^j - e^eps_g p^j q^(k-j))``,
``p = e^eps/(1+e^eps)``, ``q = 1 - p``.  Near ``delta = 1`` everything lives in the
complement ``1 - delta_opt = K (1 - S)``, which the second route here evaluates with
python-flint arb balls at 3000 bits from the exact rationals (``K`` from ``1 - delta``
exactly, the sign of each bracket decided on Fractions).  Where ``S = 0``
(``eps_g >= k eps``) the complement is ``(1-delta)^k`` exactly, a Fraction.

``delta`` within ``2**-166`` of 1 rounds to 1 when lifted to 50 digits, and
``log1p(-delta)`` then raised ``ValueError``/``ComplexResult`` in interval arithmetic
(``KOV15:Thm3.3`` at k=43, eps=1/10, delta=1-2**-1074, delta_g=0.597114261512852).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.profiles import share
from reference import DomainError, precision
from reference.core.certificates import Certificate
from reference.core.numeric import Interval, exact
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.kov15_heterogeneous import kov_grid

ARB_BITS = 3000   # resolves e^(2**-1074) - 1 and the 2**-2072 margins it brings
TINY = Fraction(2) ** -1074
#: Rounding of a 50-digit point value near 1.
SLACK = Fraction(1, 10**48)


def arb_q(q: Fraction) -> arb:
    return arb(fmpq(q.numerator, q.denominator))


def pure_part(eps: Fraction, k: int, eps_g: Fraction) -> arb:
    """``S``, the hockey-stick divergence of k-fold ``RR_eps`` at ``eps_g`` (module doc)."""
    e = arb_q(eps).exp()
    p, q, grow = e / (1 + e), 1 / (1 + e), arb_q(eps_g).exp()
    total = arb(0)
    for j in range(k + 1):
        if (k - 2 * j) * eps > eps_g:
            total += _binom(k, j) * (p ** (k - j) * q**j - grow * p**j * q ** (k - j))
    return total


def _binom(k: int, j: int) -> int:
    out = 1
    for i in range(j):
        out = out * (k - i) // (i + 1)
    return out


def complement(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction) -> arb:
    """``1 - delta_opt = (1-delta)^k (1 - S)`` as an arb ball."""
    return arb_q(1 - delta) ** k * (1 - pure_part(eps, k, eps_g))


def encloses(enc: Interval, comp: arb) -> bool:
    """``1 - comp`` certainly lies in ``enc`` (compared through the complement)."""
    lo, hi = exact(enc.lo, "lo", "test"), exact(enc.hi, "hi", "test")
    return bool(arb_q(1 - hi) <= comp) and bool(comp <= arb_q(1 - lo))


def check_forward(eps: Any, k: int, eps_g: Any, delta: Fraction) -> Interval:
    value = optimal_delta(eps=eps, k=k, eps_g=eps_g, delta=delta)
    enc = optimal_delta.certified(eps=eps, k=k, eps_g=eps_g, delta=delta)
    point = exact(value, "value", "t")      # a 50-digit point: within its rounding of enc
    assert exact(enc.lo, "lo", "t") - SLACK <= point <= exact(enc.hi, "hi", "t") + SLACK
    with ctx.workprec(ARB_BITS):
        comp = complement(exact(eps, "eps", "t"), k, exact(eps_g, "eps_g", "t"), delta)
        assert encloses(enc, comp), (enc, comp)
    return enc


@covers("KOV15:Thm3.3-delta")
@pytest.mark.parametrize(("eps", "k", "eps_g", "delta"), [
    (Fraction(1, 10), 43, "0.5", 1 - TINY),                  # was ValueError (iv)
    ("0.1", 43, "0.5", 1 - Fraction(1, 10**300)),             # was ComplexResult (iv)
    ("0.1", 43, 0, 1 - Fraction(2) ** -53),                  # the double below 1
    ("1", 3, "0", 1 - Fraction(1, 10**20)),                  # resolvable at 50 digits
    ("2", 5, "0.0575", 1 - Fraction(1, 10**300)),
    (TINY, 1, 0, 1 - Fraction(1, 2**997)),   # margin 2**-2072: needs the 3000-bit arb
])
def test_delta_near_one_regression(eps: Any, k: int, eps_g: Any, delta: Fraction) -> None:
    """Point inside the enclosure, the enclosure around the arb value and tight."""
    enc = check_forward(eps, k, eps_g, delta)
    assert exact(enc.hi, "hi", "t") - exact(enc.lo, "lo", "t") <= Fraction(1, 10**45)


@covers("KOV15:Thm3.3-delta")
def test_delta_near_one_exact_at_the_largest_loss() -> None:
    """At ``eps_g = k eps`` no bracket is positive: ``delta_opt = 1 - (1-delta)^k`` exactly,
    here ``1 - 2**-46182`` (k = 43, delta = 1 - 2**-1074); the enclosure holds it."""
    exact_value = 1 - TINY**43
    enc = optimal_delta.certified(eps="0.1", k=43, eps_g="4.3", delta=1 - TINY)
    assert exact(enc.lo, "lo", "t") <= exact_value <= exact(enc.hi, "hi", "t")
    assert exact(enc.hi, "hi", "t") - exact(enc.lo, "lo", "t") <= Fraction(1, 10**45)
    point = exact(optimal_delta(eps="0.1", k=43, eps_g="4.3", delta=1 - TINY), "value", "t")
    assert abs(point - exact_value) <= SLACK


@covers("KOV15:Thm3.3", "KOV15:Thm3.3-grid")
@pytest.mark.parametrize("delta", [1 - TINY, 1 - Fraction(1, 10**300), 1 - Fraction(2) ** -53])
def test_target_below_floor_is_domain_error(delta: Fraction) -> None:
    """``delta_g = 0.5971...`` is far below ``1-(1-delta)^43`` (> 1 - 2**-2279): no eps_g
    reaches it.  Was ValueError / ComplexResult; now a DomainError naming delta_g."""
    assert 1 - (1 - delta) ** 43 > Fraction(0.597114261512852)
    for res in (optimal_epsilon, kov_grid):
        for call in (res, res.certified):
            with pytest.raises(DomainError, match="must exceed") as info:
                call(eps="0.1", k=43, delta=delta, delta_g=0.597114261512852)
            assert "delta_g" in str(info.value) and res.id in str(info.value)


def _inverse_closed_form(eps: Fraction, k: int, target: Fraction) -> arb:
    """Root of ``S(eps_g) = target`` on the first piece ``[(k-2)eps, k eps]`` reached,
    ``S = A - e^eps_g B`` there (sums over j <= m): ``log((A - target)/B)``."""
    e = arb_q(eps).exp()
    p, q = e / (1 + e), 1 / (1 + e)
    heads, tails = arb(0), arb(0)
    for m in range((k + 1) // 2):
        heads += _binom(k, m) * p ** (k - m) * q**m
        tails += _binom(k, m) * p**m * q ** (k - m)
        left = max(k - 2 * m - 2, 0)
        if heads - (arb_q(eps) * left).exp() * tails >= arb_q(target):
            return ((heads - arb_q(target)) / tails).log()
    raise AssertionError("target above S(0)")


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("eps", "k", "delta", "c", "dps"), [
    (Fraction(2), 1, 1 - Fraction(1, 10**20), Fraction(1, 2), 50),
    (Fraction(2), 1, 1 - Fraction(2) ** -100, Fraction(1, 2), 50),
    (Fraction(1), 3, 1 - Fraction(1, 10**5), Fraction(3, 5), 50),
    (Fraction(2), 1, 1 - Fraction(2) ** -250, Fraction(1, 2), 120),  # needs 120 digits
])
def test_inverse_near_one_closed_form(eps: Fraction, k: int, delta: Fraction, c: Fraction,
                                      dps: int) -> None:
    """``delta_g = 1 - c (1-delta)^k`` asks for ``S(eps_g) <= 1 - c``: for k = 1
    ``eps_g* = log((e^eps - 1)/2)`` at c = 1/2; in general the piecewise root above.  The
    certificate holds, brackets the arb root, and is tight (to the precision the rounded
    ``delta_g`` leaves the solver)."""
    delta_g = 1 - c * (1 - delta) ** k
    with precision(dps):
        cert = optimal_epsilon(eps=eps, k=k, delta=delta, delta_g=delta_g)
    assert isinstance(cert, Certificate) and cert.holds
    with ctx.workprec(ARB_BITS):
        root = _inverse_closed_form(eps, k, 1 - c)
        if k == 1:
            assert (root - ((arb_q(eps).exp() - 1) / 2).log()).abs_upper() < 1e-150
        lo, hi = exact(cert.lo, "lo", "t"), exact(cert.hi, "hi", "t")
        assert bool(arb_q(lo) <= root) and bool(root <= arb_q(hi))
        # The solver's point comes from delta_g rounded to dps digits, so 1 - delta_g is
        # known to 10**-dps absolutely and the root to 10**-dps / (1-delta)^k.
        assert hi - lo <= max(Fraction(1, 10**40), Fraction(1, 10**(dps - 5)) / (1 - delta) ** k)


@covers("KOV15:Thm3.3")
def test_inverse_too_close_to_one() -> None:
    """Above the floor by half of ``(1-delta)^k = 2**-1074``: at 50 digits the gap is below
    the precision (raise it); at 400 digits it is resolved, but the certificate's search
    cannot start close enough (it failed with RuntimeError): a DomainError either way."""
    delta, delta_g = 1 - TINY, 1 - TINY / 2
    with pytest.raises(DomainError, match=r"raise reference\.precision"):
        optimal_epsilon(eps=2, k=1, delta=delta, delta_g=delta_g)
    with precision(400), pytest.raises(DomainError, match="cannot reach eps_g"):
        optimal_epsilon(eps=2, k=1, delta=delta, delta_g=delta_g)


# ---- delta in [1 - 1e-300, 1): never an exception other than DomainError ----------------

near_one = st.one_of(
    st.builds(lambda m, e: 1 - Fraction(m, 10**e), st.integers(1, 9), st.integers(300, 340)),
    st.builds(lambda n: 1 - Fraction(1, 2**n), st.integers(997, 1200)),
)
small = st.sampled_from([Fraction(0), TINY, Fraction(1, 10**300), Fraction(1, 10),
                         Fraction(1, 2), Fraction(1), Fraction(2), Fraction(575, 10**4)])


@covers("KOV15:Thm3.3-delta", "KOV15:Thm3.3", "KOV15:Thm3.3-grid")
@settings(max_examples=share(Fraction(1, 4)))
@given(eps=small, k=st.integers(1, 6), eps_g=small, delta=near_one,
       c=st.one_of(st.fractions(0, 1).filter(lambda x: 0 < x < 1), st.just(Fraction(1, 2))),
       delta_g=st.floats(1e-300, 0.999999))
def test_near_one_encloses_or_domain_error(eps: Fraction, k: int, eps_g: Fraction,
                                           delta: Fraction, c: Fraction,
                                           delta_g: float) -> None:
    """Forward: point in enclosure around the arb value.  Inverses: a target below the floor
    ``1-(1-delta)^k``, or above it by ``c (1-delta)^k`` (< 1e-300, below the working
    precision), gives a DomainError; a returned certificate must hold."""
    check_forward(eps, k, eps_g, delta)
    for target in (Fraction(delta_g), 1 - c * (1 - delta) ** k):
        for res in (optimal_epsilon, kov_grid):
            try:
                out = res(eps=eps, k=k, delta=delta, delta_g=target)
            except DomainError as err:
                assert res.id in str(err) and "delta_g" in str(err)
                continue
            assert not isinstance(out, Certificate) or out.holds


@covers("KOV15:Thm3.3", "KOV15:Thm3.3-grid")
def test_huge_fraction_target_is_named() -> None:
    """``delta_g = 1 - (1-delta)^60/2`` with ``delta = 1 - 10**-100`` is a 6000-digit
    Fraction: building the DomainError's message once raised ValueError (Python's 4300-digit
    int-to-str limit); the message now names it compactly."""
    delta = 1 - Fraction(1, 10**100)
    for res in (optimal_epsilon, kov_grid):
        with pytest.raises(DomainError, match=r"1 - 5\.0e-6001 \(a Fraction"):
            res(eps="0.5", k=60, delta=delta, delta_g=1 - (1 - delta) ** 60 / 2)


@covers("KOV15:Thm3.3-grid")
@pytest.mark.parametrize(("k", "delta", "delta_g", "expected"), [
    (2, Fraction(3, 4), Fraction(95, 100), 2), (2, Fraction(3, 4), Fraction(97, 100), 0),
    (3, Fraction(3, 4), Fraction(985, 1000), 3), (3, Fraction(3, 4), Fraction(99, 100), 1),
    (2, 1 - Fraction(1, 2**20), 1 - Fraction(6, 10) / 2**40, 2),
    (2, 1 - Fraction(1, 2**20), 1 - Fraction(1, 2) / 2**40, 0),
])
def test_grid_with_a_delta_above_one_half(k: int, delta: Fraction, delta_g: Fraction,
                                          expected: int) -> None:
    """eps = 1, delta > 1/2 (where ``log(1 - delta)`` is taken from the exact complement):
    by hand, ``delta_opt(eps_g) = 1 - (1-delta)^k (1 - S)`` with ``S(k eps) = 0``, for k = 2
    ``S(0) = (e - 1)/(e + 1) = 0.4621``, for k = 3 ``S(1) = e (e - 1)/(e + 1)^2 = 0.3377``.
    So at delta = 3/4: k = 2 gives 15/16 = 0.9375 at 2 and 0.9664 at 0; k = 3 gives
    0.984375 at 3 and 0.98965 at 1; at 1 - delta = 2^-20, k = 2: 1 - 0.5379 * 2^-40 at 0.
    The lattice answer is the smallest lattice point at or below delta_g."""
    assert kov_grid(eps=1, k=k, delta=delta, delta_g=delta_g) == expected
    enc = kov_grid.certified(eps=1, k=k, delta=delta, delta_g=delta_g)
    assert enc.lo == enc.hi == expected
