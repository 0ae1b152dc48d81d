"""One step's table with wide bins in the tail (``single_step(..., wide, sparse)``), as
:mod:`reference.results.dpsgd.pld` builds it: the same law checks as
``test_pld_grid.test_single_step_against_the_law`` (closed-form CDF sandwich, bias against
``E[X]`` by quadrature), with the bins ``wide`` grid steps wide beyond ``sparse``, plus what
the wide bins change: ``Step.wide`` (the Bernstein bound ``|Y - X| <= wide h``) and the
second moment bound ``square <= (wide h)^2``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from flint import arb, fmpz_poly
from mpmath import mp

from proofs_tests.arb_support import arb_ends
from proofs_tests.dpsgd.test_pld_grid import _cdf_x, _coeffs, _mean_x
from proofs_tests.dpsgd_pld_support import ADD, REMOVE, mpf
from reference.results import covers
from reference.results.dpsgd import pld_grid
from reference.results.dpsgd.pld_compose import compose
from reference.results.dpsgd.pld_grid import (
    Step,
    cut_below,
    cut_width,
    single_step,
    working_bits,
)

_H, _BITS, _WIDE = Fraction(1, 64), 64, 4
_CUT = cut_width(1e-20)
#: (q, sigma, direction, sparse): ``sparse`` a loss inside the table's tail (above the bulk
#: for "remove", below it for "add"), so both kinds of bins occur.
_CASES = [(Fraction(1, 10), Fraction(1), REMOVE, 0.5), (Fraction(1, 10), Fraction(1), ADD, -0.3),
          (Fraction(1), Fraction(1), REMOVE, 2.0), (Fraction(1), Fraction(1), ADD, -1.0),
          (Fraction(1, 100), Fraction(1, 2), REMOVE, 0.2)]


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize(("q", "sigma", "direction", "sparse"), _CASES,
                         ids=[f"q{q}-s{s}-{d}" for q, s, d, _ in _CASES])
def test_wide_tail_bins(q: Fraction, sigma: Fraction, direction: str, sparse: float) -> None:
    """With bins ``4 h`` wide beyond ``sparse``: ``Step.wide`` is 4 (the widest bin, not
    the narrowest), both bin widths occur and the wide ones only beyond ``sparse``, the CDF
    sandwich ``P(X <= a_(j - 4)) - deficit <= P(Y <= a_j) <= P(X <= a_(j + 4))`` holds at
    every grid point (``|Y - X| <= 4 h``), ``E[Y] - E[X]`` lies in the bias enclosure
    (tolerance as in the narrow-bin test), and ``h^2/4 <= square <= (4 h)^2`` (the bulk's
    bins are ``h`` wide, so the bound is not the wide bins' alone)."""
    with working_bits(_BITS + 48):
        step = single_step(q, sigma, direction, _H, _BITS, _CUT, _WIDE, sparse)
        fine = single_step(q, sigma, direction, _H, _BITS, _CUT)
    assert step.wide == _WIDE and fine.wide == 1
    coeffs = _coeffs(step.poly)
    nonzero = [i for i, c in enumerate(coeffs) if c]
    gaps = {b - a for a, b in itertools.pairwise(nonzero)}
    assert 1 in gaps and _WIDE in gaps, gaps          # both kinds of bins
    for a, b in itertools.pairwise(nonzero):  # wide ones only beyond ``sparse``
        if b - a == _WIDE:
            x_a, x_b = (step.offset + a) * _H, (step.offset + b) * _H
            assert (x_a >= Fraction(sparse) - _H) if direction == REMOVE else (
                x_b <= Fraction(sparse) + _H), (x_a, x_b, sparse)
    scale = Fraction(2) ** _BITS
    grid = [(step.offset + i) * _H for i in range(len(coeffs))]
    deficit = 1 - Fraction(sum(coeffs)) / scale
    assert 0 <= deficit <= 2 * len(coeffs) / scale + Fraction(1, 10**20)
    with mp.workdps(30):
        cum, slack = Fraction(0), mp.mpf(10) ** -25
        for j, c in enumerate(coeffs):
            cum += Fraction(c) / scale
            low = _cdf_x(q, sigma, direction, grid[j] - _WIDE * _H)
            assert low - mpf(deficit) - slack <= mpf(cum)
            assert mpf(cum) <= _cdf_x(q, sigma, direction, grid[j] + _WIDE * _H) + slack
        mean_y = sum(a * c for a, c in zip(grid, coeffs, strict=True)) / scale
        bias = mpf(mean_y) - _mean_x(q, sigma, direction)
        tol = mpf(deficit * max(abs(a) for a in grid)) + mp.mpf(10) ** -20
        b_lo, b_hi = mpf(arb_ends(step.bias_lo)[0]), mpf(arb_ends(step.bias_hi)[1])
        assert b_lo - tol <= bias <= b_hi + tol, (b_lo, bias, b_hi)
        assert b_hi - b_lo <= _WIDE * mpf(_H) / 5
    square = arb_ends(step.square)[1]
    assert _H * _H / 4 <= square <= (_WIDE * _H) ** 2


@covers("DPSGD:eps", "DPSGD:delta")
def test_compose_cuts_where_the_budget_allows() -> None:
    """The cuts are not only bounded but used.  One step puts ``2^-6`` on each end (50
    bits); 4 steps put ``2^-24`` (``2^26`` units) on each end and ``~2^33`` next to them.
    With ``budget = 2^-16`` a block of ``n`` steps may drop ``budget n / (6 L T)`` per end
    (``L = 3``): ``2^34 / 18`` units for the final product, so exactly the two end
    coefficients go (``2^27`` units in all); with budget 0 nothing does (13 coefficients)."""
    law = [2**44, 2**49 - 2**44, 2**49 - 2**44, 2**44]
    step = Step(0, fmpz_poly(law), arb(0), arb(0), arb(0), 1, Fraction(1, 4), 50)
    off0, full = compose(step, 4, Fraction(0))
    off1, cut = compose(step, 4, Fraction(1, 2**16))
    assert (off0, full.length(), int(full(1))) == (0, 13, 2**50)
    assert (off1, cut.length(), 2**50 - int(cut(1))) == (1, 11, 2**27)


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize("steps", [64, 1000])
def test_compose_cuts_stay_within_the_budget(steps: int) -> None:
    """What the cuts drop over many squarings (the mass lost against the same composition
    without cuts) is at most ``budget`` and not negligible: between ``budget/20`` and
    ``budget`` (measured: 0.11 and 0.26 of it) for a law with light geometric ends."""
    bits = 60
    law = [2 ** (bits - e) for e in (40, 20, 8, 2, 1, 2, 8, 20, 40)]
    law[4] += 2**bits - sum(law)
    step = Step(0, fmpz_poly(law), arb(0), arb(0), arb(0), 1, Fraction(1, 4), bits)
    budget = Fraction(1, 2**10)
    _, full = compose(step, steps, Fraction(0))
    _, cut = compose(step, steps, budget)
    dropped = Fraction(int(full(1)) - int(cut(1)), 2**bits)
    assert budget / 20 <= dropped <= budget, float(dropped / budget)


@covers("DPSGD:eps", "DPSGD:delta")
def test_cut_width_values() -> None:
    """``cut_width(tail)``: the least integer ``c`` with ``P(N(0,1) > c) <= tail``, at most
    38: pinned at 0.02 (``P(N > 2) = 0.0228``: 3), 0.03 (2), 1e-20 (``P(N > 9) = 1.1e-19``,
    ``P(N > 10) = 7.6e-24``: 10), 1 (1: the loop starts at 1) and 0 (the cap, 38)."""
    assert [cut_width(t) for t in (0.02, 0.03, 1e-20, 1.0, 0.0)] == [3, 2, 10, 1, 38]


@covers("DPSGD:eps")
@pytest.mark.parametrize("steps", [1, 40])
def test_q_next_to_one(steps: int) -> None:
    """``q = 1 - 10^-300``: ``ln(1 - q)`` and the loss need ``1 - q`` exactly (``log1p(-q)``
    of a 130-bit ball of ``q`` was NaN: found by the strict contract test).  The bracket
    contains the exact Gaussian value of ``q = 1`` (the mechanism differs by ``10^-300`` in
    total variation per step) and matches ``q = 1``'s bracket."""
    from reference import certified, get
    near = certified(get("DPSGD:eps"), q=1 - Fraction(1, 10**300), sigma=Fraction(1, 2),
                     steps=steps, delta="1e-5")
    one = certified(get("DPSGD:eps"), q=1, sigma=Fraction(1, 2), steps=steps, delta="1e-5")
    assert abs(near.lo - one.lo) < 1e-9 and abs(near.hi - one.hi) < 1e-9, (near, one)


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize(("sigma", "cut"), [(Fraction(1, 2), Fraction(10)),
                                            (Fraction(2), Fraction(5)),
                                            (Fraction(100), Fraction(38))])
def test_table_cut_below_exactly_past_the_drop(sigma: Fraction, cut: Fraction) -> None:
    """``cut_below``: the table stops at ``z = -cut sigma`` when ``l(-cut sigma) - ln(1 - q) =
    ln(1 + q e^w / (1 - q)) > 1`` (``w = (-2 cut sigma - 1)/(2 sigma^2)``), that is for ``1 - q
    < 1/(1 + c)``, ``c = (e - 1) e^-w`` (solved by hand, evaluated in mpmath); pinned one part
    in 10^6 of ``1 - q`` on each side of it, and at ``q = 1``, ``1 - 10^-300`` and ``1/2``."""
    with mp.workdps(50):
        w = (-2 * mpf(cut * sigma) - 1) / (2 * mpf(sigma) ** 2)
        rest = 1 / (1 + (mp.e - 1) * mp.exp(-w))
        rest_f = Fraction(mp.nstr(rest, 40, min_fixed=-mp.inf, max_fixed=mp.inf))
    for factor, cuts in ((Fraction(1000001, 10**6), False), (Fraction(999999, 10**6), True)):
        assert cut_below(1 - rest_f * factor, sigma, cut) is cuts, (factor, float(rest_f))
    assert cut_below(Fraction(1), sigma, cut) and cut_below(1 - Fraction(1, 10**300), sigma, cut)
    assert not cut_below(Fraction(1, 2), sigma, Fraction(1))


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize("direction", [REMOVE, ADD])
def test_q_next_to_one_tabulates_as_few_points_as_q_one(direction: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """At ``q = 1 - 10^-300`` the loss falls to ``ln(1 - q) = -690.8``: tabulated down to ``z
    = -inf`` (the ``q < 1`` rule) that was 45453 grid points at ``h = 1/64`` (remove; 35 s
    for one DP-SGD step's epsilon).  Stopping at ``-cut sigma`` as ``q = 1`` does, it takes
    at most 1% more evaluations of the normal laws than ``q = 1``; the remove table starts at
    the grid point strictly below ``l(-cut sigma) = (-2 cut sigma - 1)/(2 sigma^2) = -22``
    (``cut = 10``, ``sigma = 1/2``): index ``-22 * 64 - 1 = -1409``, for both."""
    calls = {"n": 0}
    original = pld_grid._Law.normal_at

    def counted(self: pld_grid._Law, z: arb | None) -> list[tuple[arb, arb]]:
        calls["n"] += 1
        return original(self, z)
    monkeypatch.setattr(pld_grid._Law, "normal_at", counted)
    counts = []
    assert _CUT == 10 and _H == Fraction(1, 64)
    for q in (Fraction(1), 1 - Fraction(1, 10**300)):
        calls["n"] = 0
        with working_bits(_BITS + 48):
            step = single_step(q, Fraction(1, 2), direction, _H, _BITS, _CUT)
        counts.append(calls["n"])
        assert direction == ADD or step.offset == -1409, step.offset
    assert counts[0] > 2000 and counts[1] <= 1.01 * counts[0], counts
