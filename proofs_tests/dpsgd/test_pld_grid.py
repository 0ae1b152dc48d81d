"""Property tests of the grid machinery behind DPSGD:eps and DPSGD:delta
(``reference.results.dpsgd.pld_grid``).

Every expected value is computed here from the definitions, without the module's code:

* ``compose`` against a convolution in plain Python integers (lists, not python-flint) with
  the same floor rescaling after every product, and against the exact (unfloored) power;
* ``cut_ends`` against its specification (the longest ends of mass at most ``units``);
* ``delta_at`` against the direct sum ``sum_{s_i > s} r_i (1 - e^(s - s_i)) / 2^bits`` in
  mpmath;
* ``single_step`` against one step's law: its CDF in closed form (``l`` is monotone, so
  ``P(X <= x)`` is a normal CDF at ``l^-1(x)``), ``E[X]`` (a Kullback-Leibler divergence) by
  ``mp.quad``, and ``E[(Y - X)^2]`` from below by a fine midpoint rule;
* ``int_below``/``int_above`` and ``_grid`` against their docstrings.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from flint import arb, fmpq, fmpz_poly
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends
from proofs_tests.dpsgd_pld_support import ADD, REMOVE, loss, mpf
from proofs_tests.profiles import share
from reference.results import covers
from reference.results.dpsgd.pld_compose import compose, cut_ends, delta_at
from reference.results.dpsgd.pld_grid import (
    Step,
    _grid,
    cut_width,
    int_above,
    int_below,
    single_step,
    working_bits,
)

# ---- helpers --------------------------------------------------------------------------------

def _coeffs(poly: fmpz_poly) -> list[int]:
    return [int(c) for c in poly.coeffs()]


def _sparse(offset: int, coeffs: list[int]) -> dict[int, int]:
    """Grid index -> nonzero coefficient (zero ends carry no information)."""
    return {offset + i: c for i, c in enumerate(coeffs) if c}


def _product(a: tuple[int, list[int]], b: tuple[int, list[int]],
             scale: int) -> tuple[int, list[int]]:
    """``floor(a * b / scale)`` by schoolbook convolution (plain integers)."""
    out = [0] * (len(a[1]) + len(b[1]) - 1)
    for i, x in enumerate(a[1]):
        for j, y in enumerate(b[1]):
            out[i + j] += x * y
    return a[0] + b[0], [c // scale for c in out]


def _power_floored(offset: int, coeffs: list[int], bits: int,
                   steps: int) -> tuple[dict[int, int], int]:
    """The right-to-left binary power ("repeated squaring", the schedule the docstring
    names) with every product floored back to ``bits`` bits; also a bound of its total
    shortfall below the exact power: a product ``C = floor(A B / 2^bits)`` of ``A, B``
    short by ``e_A, e_B`` (in units) is short by less than ``e_A + e_B + len(C)`` (each
    floor loses below one unit per coefficient, and the earlier losses are carried with
    weight at most 1 as the exact masses are at most ``2^bits``)."""
    scale, k = 2**bits, steps
    acc: tuple[tuple[int, list[int]], int] | None = None
    base = ((offset, coeffs), 0)

    def times(a: tuple[tuple[int, list[int]], int],
              b: tuple[tuple[int, list[int]], int]) -> tuple[tuple[int, list[int]], int]:
        c = _product(a[0], b[0], scale)
        return c, a[1] + b[1] + len(c[1])
    while k:
        if k & 1:
            acc = base if acc is None else times(acc, base)
        k >>= 1
        if k:
            base = times(base, base)
    assert acc is not None
    return _sparse(*acc[0]), acc[1]


def _step(offset: int, coeffs: list[int], bits: int) -> Step:
    """A Step carrying only what ``compose`` reads (the error terms are not used)."""
    return Step(offset, fmpz_poly(coeffs), arb(0), arb(0), arb(0), 1, Fraction(1, 8), bits)


@st.composite
def _laws(draw: st.DrawFn) -> tuple[int, list[int], int]:
    """A sub-probability law on at most 7 grid points, integer coefficients at ``bits``
    bits (total at most ``2^bits``), first and last coefficients nonzero."""
    bits = draw(st.integers(4, 40))
    n = draw(st.integers(1, 7))
    weights = draw(st.lists(st.integers(0, 1000), min_size=n, max_size=n))
    weights[0], weights[-1] = max(weights[0], 1), max(weights[-1], 1)
    total = sum(weights) + draw(st.integers(0, 50))
    coeffs = [w * 2**bits // total for w in weights]
    coeffs[0], coeffs[-1] = max(coeffs[0], 1), max(coeffs[-1], 1)
    return draw(st.integers(-30, 30)), coeffs, bits


# ---- compose ---------------------------------------------------------------------------------

@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1)))
@given(law=_laws(), steps=st.integers(1, 13))
@example(law=(0, [2**10], 10), steps=5)
@example(law=(-3, [1, 2, 1], 4), steps=7)
def test_compose_is_the_floored_power(law: tuple[int, list[int], int], steps: int) -> None:
    """Without cuts (``budget = 0``: only ends of mass 0, zeros, are dropped) ``compose``
    is, coefficient by coefficient, the floored power built here; and it lies below the exact power
    ``p^T / 2^(bits (T - 1))``, entry by entry, with a total shortfall within the bound
    propagated along the products (see ``_power_floored``)."""
    offset, coeffs, bits = law
    got_offset, got = compose(_step(offset, coeffs, bits), steps, Fraction(0))
    got_sparse = _sparse(got_offset, _coeffs(got))
    want, bound = _power_floored(offset, coeffs, bits, steps)
    assert got_sparse == want
    exact = {0: Fraction(1)}
    for _ in range(steps):
        nxt: dict[int, Fraction] = {}
        for i, x in exact.items():
            for j, c in enumerate(coeffs):
                nxt[i + offset + j] = nxt.get(i + offset + j, Fraction(0)) + x * c
        exact = nxt
    exact = {i: x / Fraction(2) ** (bits * (steps - 1)) for i, x in exact.items()}
    assert all(got_sparse.get(i, 0) <= x for i, x in exact.items())
    assert set(got_sparse) <= set(exact)
    shortfall = sum(exact.values()) - sum(got_sparse.values())
    assert 0 <= shortfall <= bound, (shortfall, bound)


@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1, 2)))
@given(law=_laws(), steps=st.integers(2, 64),
       budget=st.sampled_from([Fraction(1, 1000), Fraction(1, 100), Fraction(1, 10),
                               Fraction(1, 2), Fraction(1)]))
@example(law=(0, [2**20, 2**28, 2**20], 30), steps=63, budget=Fraction(1, 2))
def test_compose_with_cuts_lies_below(law: tuple[int, list[int], int], steps: int,
                                      budget: Fraction) -> None:
    """Cutting ends can only lower coefficients (all are nonnegative and ``floor`` is
    monotone): entry by entry below the uncut result (``budget = 0``), on a sub-range of
    its support; and the mass the cuts drop is at most ``budget`` (the docstring's "about
    ``budget``") plus the floors' slack, below one unit per coefficient of each of the at
    most ``2 L`` products (``L`` the bit length of ``steps``).  Measured on 3000 random
    laws: at most a third of ``budget`` beyond that slack."""
    offset, coeffs, bits = law
    step = _step(offset, coeffs, bits)
    full_offset, full_poly = compose(step, steps, Fraction(0))
    full = _sparse(full_offset, _coeffs(full_poly))
    cut_offset, cut = compose(step, steps, budget)
    for i, c in _sparse(cut_offset, _coeffs(cut)).items():
        assert 0 < c <= full.get(i, 0), (i, c, full.get(i))
    dropped = int(full_poly(1)) - int(cut(1))
    slack = 2 * steps.bit_length() * full_poly.length()
    assert 0 <= dropped <= budget * 2**bits + slack, (dropped, budget * 2**bits, slack)


# ---- cut_ends --------------------------------------------------------------------------------

@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1)))
@given(coeffs=st.lists(st.integers(0, 50), min_size=1, max_size=30).filter(lambda c: c[-1] > 0),
       units=st.integers(0, 400))
@example(coeffs=[0, 0, 5, 0, 3], units=0)
@example(coeffs=[1, 1, 1], units=10)
def test_cut_drops_the_longest_light_ends(coeffs: list[int], units: int) -> None:
    """``cut_ends`` keeps a contiguous middle unchanged; the dropped low end has mass at most
    ``units`` and is the longest such (one more coefficient would exceed it); the dropped
    high end likewise within what is left; the second value is the low end's length."""
    kept, k_low = cut_ends(fmpz_poly(coeffs), units)
    n = len(coeffs)
    assert sum(coeffs[:k_low]) <= units
    assert k_low == n or sum(coeffs[:k_low + 1]) > units
    k_high = n - k_low - kept.length() if kept.length() else n - k_low
    assert sum(coeffs[n - k_high:]) <= units if k_high else True
    assert k_low + k_high == n or sum(coeffs[n - k_high - 1:]) > units
    assert _coeffs(kept) == coeffs[k_low:n - k_high]


# ---- delta_at ------------------------------------------------------------------------------------

@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1)))
@given(law=_laws(), h=st.fractions(Fraction(1, 64), Fraction(2), max_denominator=64),
       shift=st.integers(-4, 12))
@example(law=(5, [3, 0, 7], 4), h=Fraction(1, 2), shift=-4)   # index below the support
@example(law=(5, [3, 0, 7], 4), h=Fraction(1, 2), shift=12)   # index above it: exactly 0
@example(law=(5, [3, 0, 7], 4), h=Fraction(1, 2), shift=10**320)  # beyond any C integer
def test_delta_at_is_the_direct_sum(law: tuple[int, list[int], int], h: Fraction,
                                    shift: int) -> None:
    """The ball contains ``sum_{i: s_i > s} r_i (1 - e^(s - s_i)) / 2^bits`` (mpmath, 60
    digits) at ``s = index h``, ``index = offset + shift`` (below, inside and above the
    support), and is narrow (relative radius below 1e-25 at 128 bits); at or above the top
    point it is exactly 0."""
    offset, coeffs, bits = law
    index = offset + shift
    with working_bits(128):
        got = delta_at(offset, fmpz_poly(coeffs), h, bits, index)
    with mp.workdps(60):
        s = mpf(index * h)
        want = mp.fsum(c * -mp.expm1(s - mpf((offset + i) * h))
                       for i, c in enumerate(coeffs) if offset + i > index) / mp.mpf(2) ** bits
        lo, hi = (mpf(x) for x in arb_ends(got))
        slack = mp.mpf(10) ** -50 * (abs(want) + mp.mpf(2) ** -bits)
        assert lo - slack <= want <= hi + slack, (lo, want, hi)
        assert hi - lo <= mp.mpf(10) ** -25 * (want + mp.mpf(2) ** -bits)
    if index >= offset + len(coeffs) - 1:
        assert lo == hi == 0


# ---- int_below / int_above and _grid ---------------------------------------------------------

@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1)))
@given(mid=st.fractions(-10**6, 10**6, max_denominator=2**10).map(
           lambda x: Fraction(math.floor(x * 1024), 1024)),
       rad=st.sampled_from([0, Fraction(1, 1024), Fraction(1, 3), Fraction(1, 2), 1, 7]))
@example(mid=Fraction(3), rad=0)
@example(mid=Fraction(3), rad=Fraction(1, 10))
@example(mid=Fraction(5, 2), rad=Fraction(1, 2))
def test_int_below_and_above_bracket_the_ball(mid: Fraction, rad: Fraction) -> None:
    """``int_below`` is the floor of the ball's lower end and ``int_above`` the ceiling of
    its upper end (read exactly from the ball, whose radius arb rounds up); an exact
    integer is its own answer; an unbounded ball raises ``ArithmeticError``."""
    with working_bits(200):
        ball = arb(fmpq(mid.numerator, mid.denominator), fmpq(rad.numerator, rad.denominator))
        lo, hi = arb_ends(ball)
        assert lo <= mid - rad and mid + rad <= hi
        assert int_below(ball) == math.floor(lo)
        assert int_above(ball) == math.ceil(hi)
    if rad == 0 and mid.denominator == 1:
        assert int_below(ball) == int_above(ball) == mid
    with pytest.raises(ArithmeticError):
        int_below(arb(0, float("inf")))
    with pytest.raises(ArithmeticError):
        int_above(arb(0, float("inf")))


@covers("DPSGD:eps", "DPSGD:delta")
@settings(max_examples=share(Fraction(1)))
@given(j0=st.integers(-60, 60), length=st.integers(0, 80), wide=st.integers(1, 16),
       split=st.one_of(st.none(), st.integers(-80, 160)), up=st.booleans())
@example(j0=0, length=0, wide=4, split=None, up=True)
@example(j0=-5, length=20, wide=4, split=3, up=False)
def test_grid_indices(j0: int, length: int, wide: int, split: int | None, up: bool) -> None:
    """From ``j0`` to ``j1`` increasing; a step is 1 where the grid is not coarse, ``wide``
    where it is (above ``split`` when ``up``: from ``j >= split``; below it otherwise: when
    ``j + wide <= split``), shortened only by ``j1`` at the last step."""
    j1 = j0 + length
    index = _grid(j0, j1, split, wide, up)
    assert index[0] == j0 and index[-1] == j1
    for a, b in itertools.pairwise(index):
        far = split is not None and (a >= split if up else a + wide <= split)
        assert b - a == (min(wide, j1 - a) if far else 1), (a, b)


# ---- single_step ---------------------------------------------------------------------------------

_H, _BITS = Fraction(1, 16), 64
_CUT = cut_width(1e-20)   # 10 standard deviations: the untabulated mass is below 2e-23
_STEPS = [(Fraction(1, 10), Fraction(1), REMOVE), (Fraction(1, 10), Fraction(1), ADD),
          (Fraction(1), Fraction(1), REMOVE), (Fraction(1), Fraction(1), ADD),
          (Fraction(1, 100), Fraction(1, 2), REMOVE), (Fraction(1, 2), Fraction(2), ADD),
          # q next to 1: the table starts at z = -10 sigma, not -inf (pld_grid.cut_below)
          (1 - Fraction(1, 10**12), Fraction(1, 2), REMOVE),
          (1 - Fraction(1, 10**12), Fraction(1, 2), ADD)]


def _cdf_x(q: Fraction, sigma: Fraction, direction: str, x: Fraction) -> mp.mpf:
    """``P(X <= x)`` in closed form: remove ``P(Z <= l^-1(x))``, ``Z ~ P``; add
    ``P(Z >= l^-1(-x))``, ``Z ~ Q``; ``l^-1(y) = sigma^2 ln((e^y - 1 + q)/q) + 1/2``,
    ``-inf`` when ``e^y <= 1 - q``."""
    qq, ss = mpf(q), mpf(sigma)
    y = mpf(x) if direction == REMOVE else -mpf(x)
    inner = mp.expm1(y) + qq
    if direction == REMOVE:
        if inner <= 0:
            return mp.zero
        z = ss**2 * mp.log(inner / qq) + mp.mpf(1) / 2
        return (1 - qq) * mp.ncdf(z / ss) + qq * mp.ncdf((z - 1) / ss)
    if inner <= 0:
        return mp.one
    z = ss**2 * mp.log(inner / qq) + mp.mpf(1) / 2
    return mp.ncdf(-z / ss)


def _mean_x(q: Fraction, sigma: Fraction, direction: str) -> mp.mpf:
    """``E[X]``: ``KL(P||Q)`` (remove) or ``KL(Q||P)`` (add); ``1/(2 sigma^2)`` at ``q = 1``,
    by ``mp.quad`` otherwise."""
    qq, ss = mpf(q), mpf(sigma)
    if q == 1:
        return 1 / (2 * ss**2)
    pts = [-mp.inf, -12 * ss, 0, 1, 1 + 12 * ss, mp.inf]
    if direction == REMOVE:
        return mp.quad(lambda z: ((1 - qq) * mp.npdf(z, 0, ss) + qq * mp.npdf(z, 1, ss))
                       * loss(qq, ss, z), pts)
    return -mp.quad(lambda z: mp.npdf(z, 0, ss) * loss(qq, ss, z), pts)


def _square_below(q: Fraction, sigma: Fraction, direction: str, wide: int) -> float:
    """A lower bound of ``E[(Y - X)^2]`` whatever the rounding probabilities: in a bin
    ``[a, a + w]`` with ``U = X - a`` it is ``r E(w - U)^2 + (1 - r) E U^2 >= min(E U^2,
    E(w - U)^2)``; summed over the bins for ``z`` in ``[-8 sigma, 8 sigma + 1]`` (a part
    of the table: dropping nonnegative terms keeps a lower bound), the bin moments by a
    midpoint rule on 400000 points (floats: relative error far below the 10 % allowed)."""
    qf, sf, h = float(q), float(sigma), float(_H)
    z = np.linspace(-8 * sf, 8 * sf + 1, 400_001)
    z, dz = (z[1:] + z[:-1]) / 2, z[1] - z[0]
    w = (2 * z - 1) / (2 * sf * sf)
    lz = w if qf == 1 else np.log1p(qf * np.expm1(w))
    if direction == REMOVE:
        x = lz
        s2 = 2 * sf * sf
        dens = (1 - qf) * np.exp(-z * z / s2) + qf * np.exp(-(z - 1) ** 2 / s2)
    else:
        x, dens = -lz, np.exp(-z * z / (2 * sf * sf))
    dens = dens * dz / (sf * math.sqrt(2 * math.pi))
    width = wide * h
    bins = np.floor(x / width)
    u = x - bins * width
    idx = (bins - bins.min()).astype(np.int64)
    m0 = np.bincount(idx, dens)
    m1 = np.bincount(idx, dens * u)
    m2 = np.bincount(idx, dens * u * u)
    return float(np.minimum(m2, m0 * width * width - 2 * width * m1 + m2).sum())


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize(("q", "sigma", "direction"), _STEPS,
                         ids=[f"q{q}-s{s}-{d}" for q, s, d in _STEPS])
def test_single_step_against_the_law(q: Fraction, sigma: Fraction, direction: str) -> None:
    """At ``h = 1/16``, 64 bits, ``cut = 10``:

    * mass: at most 1 and at least ``1 - 2 n 2^-64 - 1e-20`` (each of the ``n - 1`` bins
      floors two parts, less than one unit each; plus the untabulated tails beyond 10
      standard deviations; far sharper than 1e-9);
    * the CDF sandwich, free of the rounding probabilities: ``X <= a_j`` forces ``Y <=
      a_j``, and ``Y <= a_j`` forces ``X < a_(j + wide)``, so at every grid point
      ``P(X <= a_j) - deficit <= sum_(i <= j) r_i <= P(X <= a_(j + wide))``;
    * the bias: ``E[Y] - E[X]`` lies in ``[bias_lo, bias_hi]`` up to ``deficit max|a_j|``
      (the integer law is below the true one by ``deficit`` in mass) plus 1e-20 (the loss
      beyond the table), and the enclosure is narrower than ``h/100`` (measured: at most
      0.0084 h at ``q < 1``, the bins near ``ln(1 - q)`` split in pieces; 1e-23 at ``q = 1``);
    * the square: at least the rounding-free lower bound, at most ``h^2``."""
    with working_bits(_BITS + 48):
        step = single_step(q, sigma, direction, _H, _BITS, _CUT)
    coeffs = _coeffs(step.poly)
    scale = Fraction(2) ** _BITS
    grid = [(step.offset + i) * _H for i in range(len(coeffs))]
    deficit = 1 - Fraction(sum(coeffs)) / scale
    assert 0 <= deficit <= 2 * len(coeffs) / scale + Fraction(1, 10**20)
    assert step.wide == 1
    with mp.workdps(30):
        cum, slack = Fraction(0), mp.mpf(10) ** -25
        for j, c in enumerate(coeffs):
            cum += Fraction(c) / scale
            assert _cdf_x(q, sigma, direction, grid[j]) - mpf(deficit) - slack <= mpf(cum)
            assert mpf(cum) <= _cdf_x(q, sigma, direction, grid[j] + _H) + slack
        mean_y = sum(a * c for a, c in zip(grid, coeffs, strict=True)) / scale
        bias = mpf(mean_y) - _mean_x(q, sigma, direction)
        tol = mpf(deficit * max(abs(a) for a in grid)) + mp.mpf(10) ** -20
        b_lo, b_hi = mpf(arb_ends(step.bias_lo)[0]), mpf(arb_ends(step.bias_hi)[1])
        assert b_lo - tol <= bias <= b_hi + tol, (b_lo, bias, b_hi)
        assert b_hi - b_lo <= mpf(_H) / 100
        if q == 1:
            assert b_hi - b_lo <= mp.mpf(10) ** -20
    square = arb_ends(step.square)[1]
    assert _square_below(q, sigma, direction, step.wide) <= 1.0001 * float(square)
    assert square <= _H * _H
