"""A small exact linear-programming solver over the rationals (two-phase simplex).

The finite q-target oracle needs the *exact* optimum of a linear program whose data are
rational (probabilities, and a rational bound on ``e^eps``).  Floating-point solvers
(HiGHS through scipy) answer to about 1e-9; this dense-tableau simplex works in
:class:`fractions.Fraction`, uses Bland's rule (no cycling) and is meant for the tiny
programs of finite output distributions (tens of rows).

    maximise  c.x   subject to   A_ub x <= b_ub,   A_eq x = b_eq,   x >= 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Row = list[Fraction]


@dataclass(frozen=True)
class LPSolution:
    """Outcome of :func:`maximise`: status, an optimal point and the optimal value (for an
    infeasible or unbounded program: no point, value 0)."""

    status: Literal["optimal", "infeasible", "unbounded"]
    x: tuple[Fraction, ...] = ()
    value: Fraction = Fraction(0)


def _pivot(tab: list[Row], basis: list[int], r: int, col: int) -> None:
    row = tab[r]
    inv = 1 / row[col]
    if inv != 1:
        tab[r] = row = [v * inv if v else v for v in row]
    nz = [j for j, v in enumerate(row) if v]
    for i, other in enumerate(tab):
        if i != r:
            f = other[col]
            if f:
                for j in nz:
                    other[j] -= f * row[j]
    basis[r] = col


def _simplex(tab: list[Row], basis: list[int], ncols: int) -> bool:
    """Maximise the objective in the last row of ``tab`` (stored as ``-c``); Bland's rule
    (artificial labels, ``>= ncols``, are the largest indices).  False when unbounded."""
    obj = tab[-1]
    while True:
        col = next((j for j in range(ncols) if obj[j] < 0), -1)
        if col < 0:
            return True
        best: tuple[Fraction, int] | None = None
        r_best = -1
        for i in range(len(tab) - 1):
            a = tab[i][col]
            if a > 0:
                ratio = tab[i][ncols] / a
                key = (ratio, basis[i])
                if best is None or key < best:
                    best, r_best = key, i
        if r_best < 0:
            return False
        _pivot(tab, basis, r_best, col)


def maximise(c: Sequence[Fraction], A_ub: Sequence[Sequence[Fraction]] = (),
             b_ub: Sequence[Fraction] = (), A_eq: Sequence[Sequence[Fraction]] = (),
             b_eq: Sequence[Fraction] = ()) -> LPSolution:
    """Exact optimum of ``max c.x`` s.t. ``A_ub x <= b_ub``, ``A_eq x = b_eq``, ``x >= 0``.

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
    for i in range(m):
        if i < m_ub:
            row = [Fraction(v) for v in A_ub[i]] + [Fraction(int(k == i)) for k in range(m_ub)]
            b = Fraction(b_ub[i])
        else:
            row = [Fraction(v) for v in A_eq[i - m_ub]] + [Fraction(0)] * m_ub
            b = Fraction(b_eq[i - m_ub])
        if b < 0:
            row, b = [-v for v in row], -b
        tab.append([*row, b])
        # A ub row with b >= 0 starts with its slack basic; every other row with an
        # artificial variable, labelled ncols + i.  Artificial columns are not stored: an
        # artificial that leaves the basis never re-enters (phase 1 over the remaining
        # columns still reaches 0 when the program is feasible, at a point with every
        # artificial 0), so only their labels are needed.
        basis.append(n + i if i < m_ub and tab[i][n + i] == 1 else ncols + i)
    arts = [i for i in range(m) if basis[i] >= ncols]
    # Phase 1: maximise -(sum of artificials) = (sum of their rows) . x - (sum of their b).
    phase1 = [Fraction(0)] * (ncols + 1)
    for i in arts:
        phase1 = [a - b for a, b in zip(phase1, tab[i], strict=True)]
    tab.append(phase1)
    if arts:
        _simplex(tab, basis, ncols)
        if tab[-1][ncols] != 0:
            return LPSolution("infeasible")
        # Drive artificials out of the basis where possible; a row where none can leave is
        # 0 = 0 (redundant) and keeps its label.
        for i in range(m):
            if basis[i] >= ncols:
                col = next((j for j in range(ncols) if tab[i][j] != 0), -1)
                if col >= 0:
                    _pivot(tab, basis, i, col)
    # Phase 2 objective row: -c, expressed in the current basis.
    obj = [-Fraction(v) for v in c] + [Fraction(0)] * (ncols + 1 - n)
    for i, j in enumerate(basis):
        if j < ncols and obj[j]:      # a row still labelled artificial is 0 = 0
            f = obj[j]
            obj = [a - f * b for a, b in zip(obj, tab[i], strict=True)]
    tab[-1] = obj
    if not _simplex(tab, basis, ncols):
        return LPSolution("unbounded")
    x = [Fraction(0)] * ncols
    for i in range(m):
        if basis[i] < ncols:
            x[basis[i]] = tab[i][ncols]
    value = sum((Fraction(c[j]) * x[j] for j in range(n)), Fraction(0))
    return LPSolution("optimal", tuple(x[:n]), value)
