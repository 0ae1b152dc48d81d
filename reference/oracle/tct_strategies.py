"""Hypothesis strategies for the CL23 property tests: exact pairs of output laws.

A pair is drawn with a *rational* ratio bound ``w`` (``eps = ln w``), so the exact oracle
decides it without rounding.  Three constructions, all ``w``-bounded by design:

* tilt: ``P1 ∝ P0 * (w on A, 1 off A)`` (ratios ``w/Z`` and ``1/Z`` with ``1 <= Z <= w``);
* boundary: ``P1(y*) = w P0(y*)`` exactly, the rest scaled (valid when
  ``P0(y*) <= 1/(w+1)``), the extreme pairs of the NotPrior and wrapper lemmas;
* free: an independent law, kept when it happens to be ``w``-bounded.

Needs the ``test`` extra (``hypothesis``); not imported by :mod:`reference.results.tct`.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

Pair = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]

RATIOS = [Fraction(11, 10), Fraction(5, 4), Fraction(3, 2), Fraction(2), Fraction(3),
          Fraction(5)]


def ratios() -> st.SearchStrategy[Fraction]:
    """A rational ``w = e^eps > 1``: fixed values and small-denominator fractions."""
    return st.sampled_from(RATIOS) | st.fractions(Fraction(11, 10), 6, max_denominator=12)


@st.composite
def law(draw: st.DrawFn, n: int, zeros: bool = False) -> tuple[Fraction, ...]:
    """A law on ``n`` outcomes with small integer weights (all positive unless ``zeros``)."""
    weights = draw(st.lists(st.integers(0 if zeros else 1, 20), min_size=n, max_size=n)
                   .filter(lambda v: sum(v) > 0))
    return tuple(Fraction(x, sum(weights)) for x in weights)


def bounded(P: tuple[Fraction, ...], Q: tuple[Fraction, ...], w: Fraction) -> bool:
    """``P`` and ``Q`` are ``w``-bounded pointwise (``ln w``-indistinguishable)."""
    return all(max(a, b) <= w * min(a, b) for a, b in zip(P, Q, strict=True))


@st.composite
def pair(draw: st.DrawFn, w: Fraction, n: int) -> Pair:
    """A ``w``-bounded pair of laws on ``n`` outcomes (see the module docstring)."""
    P = draw(law(n))
    kind = draw(st.sampled_from(["tilt", "boundary", "free"]))
    if kind == "boundary":
        at = draw(st.integers(0, n - 1))
        if n > 1 and P[at] <= 1 / (w + 1):
            rest = (1 - w * P[at]) / (1 - P[at])
            Q = tuple(w * p if y == at else p * rest for y, p in enumerate(P))
            return (P, Q) if draw(st.booleans()) else (Q, P)
    if kind == "free":
        Q = draw(law(n))
        if bounded(P, Q, w):
            return P, Q
    tilt = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    raw = [p * (w if t else 1) for p, t in zip(P, tilt, strict=True)]
    Q = tuple(x / sum(raw) for x in raw)
    return (P, Q) if draw(st.booleans()) else (Q, P)


@st.composite
def approx_pair(draw: st.DrawFn, w: Fraction, n: int,
                delta: Fraction) -> Pair:
    """``P_b = (1 - delta) N_b + delta E_b``: an ``(ln w, delta)``-indistinguishable pair."""
    N0, N1 = draw(pair(w, n))
    E0, E1 = draw(law(n, zeros=True)), draw(law(n, zeros=True))
    mix = [tuple((1 - delta) * a + delta * e for a, e in zip(N, E, strict=True))
           for N, E in ((N0, E0), (N1, E1))]
    return mix[0], mix[1]


def deltas() -> st.SearchStrategy[Fraction]:
    """A failure weight in ``(0, 1/2]``."""
    return st.sampled_from([Fraction(1, 1000), Fraction(1, 50), Fraction(1, 10),
                            Fraction(1, 4), Fraction(1, 2)])
