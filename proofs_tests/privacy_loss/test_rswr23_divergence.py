"""The context-level helpers of RSWR23 §2 (``renyi_divergence``, ``loss_atoms``, ``is_zero``)
and the guard bits of ``renyi`` at large orders, against exact rationals and python-flint arb.

``renyi_divergence`` is the formula written once over a context (as ``hockey_stick_divergence``
is for Definition 2.1): its point value and its enclosure are checked here against arb balls
of ``log(sum p^alpha q^(1 - alpha))/(alpha - 1)``, ``sum p log(p/q)`` and ``log max p/q``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_ends, frac
from proofs_tests.privacy_loss_support import pairs
from reference.core.numeric import endpoints, working
from reference.results import covers
from reference.results.privacy_loss.rswr23 import (
    hockey_stick_divergence,
    is_zero,
    loss_atoms,
    renyi,
    renyi_divergence,
)

flint = pytest.importorskip("flint")


@contextmanager
def arb_prec(bits: int) -> Iterator[None]:
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def arb_q(q: Fraction) -> object:
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def reference(P: list[Fraction], Q: list[Fraction], alpha: Fraction | None) -> tuple[Fraction,
                                                                                      Fraction]:
    """Exact ends of an arb ball (2000 bits) around D_alpha(P || Q), P << Q; ``None``: inf."""
    with arb_prec(2000):
        support = [(arb_q(p), arb_q(q)) for p, q in zip(P, Q, strict=True) if p]
        if alpha is None:
            ratios = [p / q for p, q in zip(P, Q, strict=True) if p]
            return arb_ends(arb_q(max(ratios)).log())
        if alpha == 1:
            return arb_ends(sum((p * (p / q).log() for p, q in support), flint.arb(0)))
        a = arb_q(alpha)
        total = sum((p ** a * q ** (1 - a) for p, q in support), flint.arb(0))
        return arb_ends(total.log() / (a - 1))


def absolutely_continuous(P: list[Fraction], Q: list[Fraction]) -> bool:
    return not any(p and not q for p, q in zip(P, Q, strict=True))


def in_ctx(ctx: object, xs: list[Fraction]) -> list[object]:
    return [ctx.mpf(x.numerator) / x.denominator for x in xs]  # type: ignore[attr-defined]


ORDERS = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7, 3), None]


@covers("RSWR23:Renyi")
@given(pairs(), st.sampled_from(ORDERS), st.booleans())
def test_renyi_divergence_against_arb(pq: tuple[list[Fraction], list[Fraction]],
                                      alpha: Fraction | None, given_defect: bool) -> None:
    """Point value within 1e-40 (relative to 1 + D) and a tight enclosure around the arb
    ball, with the mass defect given (0, the inputs are exact) or summed from the masses."""
    P, Q = pq
    for ctx in (mp, iv):
        with working(ctx, 50):
            a = math.inf if alpha is None else ctx.mpf(alpha.numerator) / alpha.denominator
            defect = ctx.mpf(0) if given_defect else None
            got = renyi_divergence(ctx, in_ctx(ctx, P), in_ctx(ctx, Q), a, defect)
            ends = endpoints(got)
        if not absolutely_continuous(P, Q):
            assert ends.lo == ends.hi == mp.inf
            continue
        lo, hi = reference(P, Q, alpha)
        e_lo, e_hi = frac(ends.lo), frac(ends.hi)
        scale = 1 + abs(lo)
        assert hi - lo <= scale * Fraction(1, 10**100)
        if ctx is iv:  # meets the arb ball (both hold the exact value), as narrow as 1e-40
            assert e_lo <= hi and lo <= e_hi
            assert e_hi - e_lo <= scale * Fraction(1, 10**40)
        else:
            assert abs(e_lo - lo) <= scale * Fraction(1, 10**40)


@covers("RSWR23:Renyi")
def test_renyi_divergence_float_order_and_hand_values() -> None:
    """A float order 2.0 is the order 2 (only ``inf`` takes the max-divergence branch);
    P = (1/2, 1/2), Q = (1/4, 3/4): D_2 = log(4/3), KL = (log 2 + log(2/3))/2, D_inf = log 2.
    P = Q gives exactly 0 with the exact defect 0."""
    P, Q = [Fraction(1, 2)] * 2, [Fraction(1, 4), Fraction(3, 4)]
    with working(mp, 50):
        p, q = in_ctx(mp, P), in_ctx(mp, Q)
        assert abs(renyi_divergence(mp, p, q, 2.0) - mp.log(mp.mpf(4) / 3)) < mp.mpf(10) ** -45
        assert abs(renyi_divergence(mp, p, q, mp.mpf(1))
                   - (mp.log(2) + mp.log(mp.mpf(2) / 3)) / 2) < mp.mpf(10) ** -45
        assert abs(renyi_divergence(mp, p, q, math.inf) - mp.log(2)) < mp.mpf(10) ** -45
        for alpha in (mp.mpf(1), mp.mpf(2), math.inf):
            assert renyi_divergence(mp, p, p, alpha, mp.zero) == 0
        # q = 0 < p: +inf; p = 0 = q is no atom at all.
        assert abs(renyi_divergence(mp, [*p, mp.zero], [*q, mp.zero], 2.0)
                   - mp.log(mp.mpf(4) / 3)) < mp.mpf(10) ** -45
        assert renyi_divergence(mp, [mp.mpf(1), mp.zero], [mp.zero, mp.mpf(1)], 2) == mp.inf


@covers("RSWR23:Renyi")
def test_renyi_divergence_interval_order_encloses_the_whole_range() -> None:
    """An enclosure at an interval order must hold D_alpha for every alpha in it: at
    alpha in [1, 2] both KL and D_2 (the order 1 branch is for the point 1 only)."""
    P, Q = [Fraction(1, 2)] * 2, [Fraction(1, 4), Fraction(3, 4)]
    with working(iv, 50):
        got = endpoints(renyi_divergence(iv, in_ctx(iv, P), in_ctx(iv, Q), iv.mpf([1, 2])))
        at_one = endpoints(renyi_divergence(iv, in_ctx(iv, P), in_ctx(iv, Q), iv.mpf(1)))
    for alpha in (Fraction(1), Fraction(2)):
        lo, hi = reference(P, Q, alpha)
        assert got.lo == -mp.inf or frac(got.lo) <= lo
        assert got.hi == mp.inf or hi <= frac(got.hi)
    lo, hi = reference(P, Q, Fraction(1))
    assert frac(at_one.lo) <= lo and hi <= frac(at_one.hi)
    assert frac(at_one.hi) - frac(at_one.lo) <= Fraction(1, 10**45)


@covers("RSWR23:Def2.1", "RSWR23:Def2.3", "RSWR23:Renyi")
def test_loss_atoms_and_is_zero_helpers() -> None:
    """Mismatched lengths are refused (strict zips), zero masses are skipped, q = 0 gives
    +inf; ``is_zero`` is exact in both contexts (an enclosure of 1e-400 is not zero)."""
    with pytest.raises(ValueError):
        loss_atoms(mp, [mp.mpf(1)], [mp.mpf("0.5"), mp.mpf("0.5")])
    with pytest.raises(ValueError):
        loss_atoms(mp, [mp.mpf("0.5"), mp.mpf("0.5")], [mp.mpf(1)])
    with pytest.raises(ValueError):  # the shared hockey-stick sum refuses them too
        hockey_stick_divergence(mp, [mp.mpf("0.5"), mp.mpf("0.5")], [mp.mpf(1)], mp.zero)
    for ctx in (mp, iv):
        with working(ctx, 50):
            atoms = loss_atoms(ctx, [ctx.mpf(0), ctx.mpf("0.5"), ctx.mpf("0.5")],
                               [ctx.mpf("0.5"), ctx.mpf(0), ctx.mpf("0.5")])
            assert len(atoms.losses) == 2 and atoms.losses[0] == mp.inf
            assert endpoints(atoms.losses[1]).lo == endpoints(atoms.losses[1]).hi == 0
            assert is_zero(ctx, ctx.mpf(0))
            assert not is_zero(ctx, ctx.mpf(10) ** -400)
            assert not is_zero(ctx, ctx.mpf(1) / 3)


# ---- the guard bits log2(alpha - 1) of renyi: P next to Q at a large order ----------------

NEAR = Fraction(1, 2**70)


@covers("RSWR23:Renyi")
@pytest.mark.parametrize("e", [10, 30, 60])
def test_renyi_large_order_near_equal_laws_stays_tight(e: int) -> None:
    """P = (1/2 + 2^-70, 1/2 - 2^-70), Q = (1/2, 1/2), alpha = 2^e + 1/3: D is about
    alpha 2^-139, and sum p (p/q)^(alpha - 1) - 1 cancels about alpha^2 2^-140 out of 1,
    so the enclosure is only 1e-50 tight (relative) with log2(alpha - 1) guard bits."""
    P, Q = [Fraction(1, 2) + NEAR, Fraction(1, 2) - NEAR], [Fraction(1, 2)] * 2
    alpha = Fraction(2) ** e + Fraction(1, 3)
    lo, hi = reference(P, Q, alpha)
    assert hi - lo <= lo * Fraction(1, 10**100)
    enc = renyi.certified(P=P, Q=Q, alpha=alpha)
    e_lo, e_hi = frac(enc.lo), frac(enc.hi)
    assert e_lo <= lo and hi <= e_hi
    assert e_hi - e_lo <= lo * Fraction(1, 10**50)
    assert abs(frac(renyi(P=P, Q=Q, alpha=alpha)) - lo) <= lo * Fraction(1, 10**48)
