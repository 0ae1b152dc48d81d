"""A small exact linear-programming solver over the rationals (two-phase simplex).

The finite q-target oracle needs the *exact* optimum of a linear program whose data are
rational (probabilities, and a rational bound on ``e^eps``).  Floating-point solvers
(HiGHS through scipy) answer to about 1e-9; this dense-tableau simplex is exact: each
row is scaled to integers and the tableau is pivoted fraction-free (Edmonds' integer
pivoting: entries are integers over one common denominator, the determinant of the
basis), which takes the same pivots as the textbook tableau in :class:`fractions.Fraction`
at about a quarter of the time.  Bland's rule (no cycling); meant for the tiny programs of
finite output distributions (tens of rows).

    maximise  c.x   subject to   A_ub x <= b_ub,   A_eq x = b_eq,   x >= 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Row = list[int]


@dataclass(frozen=True)
class LPSolution:
    """Outcome of :func:`maximise`: status, an optimal point and the optimal value (for an
    infeasible or unbounded program: no point, value 0)."""

    status: Literal["optimal", "infeasible", "unbounded"]
    x: tuple[Fraction, ...] = ()
    value: Fraction = Fraction(0)


def _pivot(tab: list[Row], basis: list[int], r: int, col: int, d: int) -> int:
    """Integer (fraction-free) pivot on ``tab[r][col]``; returns the new common denominator.

    The tableau stores ``d`` times its rational entries, ``d`` the determinant of the
    current basis (Edmonds' integer pivoting): every stored entry is a minor of the
    starting tableau, so the division below is exact.  The pivot row keeps its integers
    (its entries over the pivot are the new values); a negative pivot is absorbed by
    negating every row, so ``d`` stays positive and signs read off directly.
    """
    p = tab[r][col]
    prow = tab[r]
    for i, other in enumerate(tab):
        f = other[col]
        if i == r or (not f and p == d):
            continue
        if f:
            tab[i] = [(v * p - f * w) // d if w else v * p // d
                      for v, w in zip(other, prow, strict=True)]
        else:
            tab[i] = [v * p // d if v else 0 for v in other]
    basis[r] = col
    if p < 0:
        for i, other in enumerate(tab):
            tab[i] = [-v for v in other]
        return -p
    return p


def _simplex(tab: list[Row], basis: list[int], ncols: int, d: int) -> tuple[bool, int]:
    """Maximise the objective in the last row of ``tab`` (stored as ``-c``); Bland's rule
    (artificial labels, ``>= ncols``, are the largest indices).  Returns (False when
    unbounded, the common denominator)."""
    obj_i = len(tab) - 1
    while True:
        obj = tab[obj_i]
        col = next((j for j in range(ncols) if obj[j] < 0), -1)
        if col < 0:
            return True, d
        r_best = -1
        num, den = 0, 1             # the best ratio num/den, den > 0
        for i in range(obj_i):
            a = tab[i][col]
            if a > 0:
                b = tab[i][ncols]
                if r_best < 0 or b * den < num * a or (b * den == num * a
                                                       and basis[i] < basis[r_best]):
                    r_best, num, den = i, b, a
        if r_best < 0:
            return False, d
        d = _pivot(tab, basis, r_best, col, d)


def _integers(row: Sequence[Fraction | int], sign: int = 1) -> tuple[Row, int]:
    """``sign * row`` times the least common multiple of its denominators, and that
    (positive) scale."""
    scale = 1
    for v in row:
        scale = scale * v.denominator // math.gcd(scale, v.denominator)
    return [sign * v.numerator * (scale // v.denominator) for v in row], scale


def maximise(c: Sequence[Fraction], A_ub: Sequence[Sequence[Fraction]] = (),
             b_ub: Sequence[Fraction] = (), A_eq: Sequence[Sequence[Fraction]] = (),
             b_eq: Sequence[Fraction] = ()) -> LPSolution:
    """Exact optimum of ``max c.x`` s.t. ``A_ub x <= b_ub``, ``A_eq x = b_eq``, ``x >= 0``;
    the data are exact rationals (``Fraction`` or ``int``).

    >>> F = Fraction
    >>> sol = maximise([F(1), F(1)], A_ub=[[F(1), F(2)], [F(3), F(1)]], b_ub=[F(4), F(6)])
    >>> sol.status, sol.x, sol.value
    ('optimal', (Fraction(8, 5), Fraction(6, 5)), Fraction(14, 5))
    >>> maximise([F(1)], A_eq=[[F(1)]], b_eq=[F(-1)]).status
    'infeasible'
    """
    n = len(c)
    m_ub, m_eq = len(A_ub), len(A_eq)
    m = m_ub + m_eq
    ncols = n + m_ub                  # n structural columns, then one slack per ub row
    tab: list[Row] = []
    basis: list[int] = []
    scales: list[int] = []           # the positive factor each row was scaled by
    for i in range(m):
        coeffs = A_ub[i] if i < m_ub else A_eq[i - m_ub]
        b = b_ub[i] if i < m_ub else b_eq[i - m_ub]
        sign = -1 if b < 0 else 1
        # The row in integers (times a positive scale; a ub row's slack keeps coefficient
        # +-1, i.e. the slack is rescaled, which changes neither x nor the pivot path).
        ints, scale = _integers([*coeffs, b], sign)
        scales.append(scale)
        slack = [0] * m_ub
        if i < m_ub:
            slack[i] = sign
        tab.append([*ints[:n], *slack, ints[n]])
        # A ub row with b >= 0 starts with its slack basic; every other row with an
        # artificial variable, labelled ncols + i.  Artificial columns are not stored: an
        # artificial that leaves the basis never re-enters (phase 1 over the remaining
        # columns still reaches 0 when the program is feasible, at a point with every
        # artificial 0), so only their labels are needed.
        basis.append(n + i if i < m_ub and sign > 0 else ncols + i)
    arts = [i for i in range(m) if basis[i] >= ncols]
    # Phase 1: maximise -(sum of artificials) = (sum of their rows) . x - (sum of their b),
    # over the unscaled rows (the same program and pivot path as in rationals), times the
    # least common multiple of their scales.
    top = 1
    for i in arts:
        top = top * scales[i] // math.gcd(top, scales[i])
    phase1 = [0] * (ncols + 1)
    for i in arts:
        f = top // scales[i]
        phase1 = [a - f * b for a, b in zip(phase1, tab[i], strict=True)]
    tab.append(phase1)
    d = 1                             # the common denominator of the stored tableau
    if arts:
        _, d = _simplex(tab, basis, ncols, d)
        if tab[-1][ncols] != 0:
            return LPSolution("infeasible")
        # Drive artificials out of the basis where possible; a row where none can leave is
        # 0 = 0 (redundant) and keeps its label.
        for i in range(m):
            if basis[i] >= ncols:
                col = next((j for j in range(ncols) if tab[i][j] != 0), -1)
                if col >= 0:
                    d = _pivot(tab, basis, i, col, d)
    # Phase 2 objective row: -c (in integers, times a positive scale), in the current basis:
    # stored d (-c) + sum over basic rows of c_j (row), which zeroes the basic columns.
    cost, _ = _integers(c)
    obj = [-d * v for v in cost] + [0] * (ncols + 1 - n)
    for i, j in enumerate(basis):
        if j < n and cost[j]:         # a row still labelled artificial is 0 = 0
            f = cost[j]
            obj = [a + f * b for a, b in zip(obj, tab[i], strict=True)]
    tab[-1] = obj
    bounded, d = _simplex(tab, basis, ncols, d)
    if not bounded:
        return LPSolution("unbounded")
    x = [Fraction(0)] * ncols
    for i in range(m):
        if basis[i] < ncols:
            x[basis[i]] = Fraction(tab[i][ncols], d)
    value = sum((Fraction(c[j]) * x[j] for j in range(n)), Fraction(0))
    return LPSolution("optimal", tuple(x[:n]), value)
