"""The exact simplex (reference.results.tct.lp.maximise) against vertex enumeration.

Second route: with ``x >= 0`` the feasible set is pointed, so a feasible bounded program
attains its maximum at a vertex: the point where ``n`` linearly independent constraints
(among the equalities, inequalities and ``x_j = 0``) are tight.  Each candidate is
solved exactly (Gaussian elimination in Fractions) and kept if feasible.  Boundedness: the
same enumeration with the box ``x_j <= 10^4`` added (every vertex of the drawn programs has
coordinates below 400, by Cramer's rule with entries <= 6): the program is unbounded exactly
when the boxed optimum exceeds the best vertex (an improving ray reaches the box).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.results.tct.lp import maximise

F = Fraction
Rows = list[list[Fraction]]


def _solve(A: Rows, b: list[Fraction]) -> list[Fraction] | None:
    """The unique solution of the square system ``A x = b``, or None if singular."""
    n = len(A)
    M = [[*row, rhs] for row, rhs in zip(A, b, strict=True)]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            return None
        M[col], M[piv] = M[piv], M[col]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col] / M[col][col]
                M[r] = [a - f * p for a, p in zip(M[r], M[col], strict=True)]
    return [M[i][n] / M[i][i] for i in range(n)]


def _best_vertex(c: Sequence[Fraction], ub: Rows, b_ub: list[Fraction], eq: Rows,
                 b_eq: list[Fraction]) -> Fraction | None:
    """Max of c.x over the vertices of {ub x <= b_ub, eq x = b_eq, x >= 0} (None: empty)."""
    n = len(c)
    unit = [[F(int(i == j)) for j in range(n)] for i in range(n)]
    planes = [(row, rhs) for row, rhs in zip(eq, b_eq, strict=True)]
    planes += [(row, rhs) for row, rhs in zip(ub, b_ub, strict=True)]
    planes += [(row, F(0)) for row in unit]
    best: Fraction | None = None
    for chosen in itertools.combinations(planes, n):     # n independent tight constraints
        A = [list(r) for r, _ in chosen]
        rhs = [v for _, v in chosen]
        x = _solve(A, rhs)
        if x is None or any(v < 0 for v in x):
            continue
        if any(sum(a * v for a, v in zip(r, x, strict=True)) > bb
               for r, bb in zip(ub, b_ub, strict=True)):
            continue
        if any(sum(a * v for a, v in zip(r, x, strict=True)) != bb
               for r, bb in zip(eq, b_eq, strict=True)):
            continue
        val = sum((a * v for a, v in zip(c, x, strict=True)), F(0))
        best = val if best is None or val > best else best
    return best


@st.composite
def programs(draw: st.DrawFn) -> tuple[list[Fraction], Rows, list[Fraction], Rows,
                                       list[Fraction]]:
    n = draw(st.integers(1, 3))
    # Integers and fractions: the solver scales each row to integers (its own lcm), so
    # rows with unlike denominators exercise the scales and the exact divisions.
    coef = st.one_of(st.integers(-3, 3).map(F), st.fractions(-3, 3, max_denominator=7))
    c = [draw(coef) for _ in range(n)]
    k_ub = draw(st.integers(0, 3))
    k_eq = draw(st.integers(0, 2))
    ub = [[draw(coef) for _ in range(n)] for _ in range(k_ub)]
    b_ub = [draw(st.fractions(-4, 6, max_denominator=4)) for _ in range(k_ub)]
    eq = [[draw(coef) for _ in range(n)] for _ in range(k_eq)]
    b_eq = [draw(st.fractions(-4, 6, max_denominator=4)) for _ in range(k_eq)]
    if draw(st.booleans()):
        # A redundant equality (a multiple of another, or 0 = 0), at any position: phase 1
        # then ends with an artificial basic at level 0, the case the drive-out step and
        # the artificial labels exist for.
        k = draw(st.integers(-2, 2))
        row, rhs = ([k * v for v in eq[0]], k * b_eq[0]) if eq and k else ([F(0)] * n, F(0))
        at = draw(st.integers(0, len(eq)))
        eq.insert(at, row)
        b_eq.insert(at, rhs)
    return c, ub, b_ub, eq, b_eq


@given(st.lists(programs(), min_size=4, max_size=4))
def test_maximise_agrees_with_vertex_enumeration(progs: list[tuple]) -> None:  # type: ignore[type-arg]
    """Four programs per example: the two-phase bookkeeping fails only on some structures
    (an artificial left basic, a basic variable with a cost), so each example tries several."""
    for c, ub, b_ub, eq, b_eq in progs:
        _check_against_vertices(c, ub, b_ub, eq, b_eq)


def _check_against_vertices(c: list[Fraction], ub: Rows, b_ub: list[Fraction], eq: Rows,
                            b_eq: list[Fraction]) -> None:
    n = len(c)
    boxed = _best_vertex(c, ub + [[F(int(i == j)) for j in range(n)] for i in range(n)],
                         b_ub + [F(10**4)] * n, eq, b_eq)
    vertex = _best_vertex(c, ub, b_ub, eq, b_eq)
    sol = maximise(c, A_ub=ub, b_ub=b_ub, A_eq=eq, b_eq=b_eq)
    if boxed is None:
        assert sol.status == "infeasible"
        return
    if vertex is None or boxed > vertex:
        assert sol.status == "unbounded"
        return
    assert sol.status == "optimal"
    assert sol.value == vertex
    x = sol.x
    assert len(x) == n and all(v >= 0 for v in x)
    assert sum((a * v for a, v in zip(c, x, strict=True)), F(0)) == sol.value
    for r, bb in zip(ub, b_ub, strict=True):
        assert sum(a * v for a, v in zip(r, x, strict=True)) <= bb
    for r, bb in zip(eq, b_eq, strict=True):
        assert sum(a * v for a, v in zip(r, x, strict=True)) == bb


def test_equalities_with_costed_variables_and_negative_right_sides() -> None:
    """Hand-solved: max x1 + 2 x2 with x1 + x2 = 1 and -x1 <= -1/2 (x1 >= 1/2): x = (1/2,
    1/2), value 3/2 (phase 1 leaves x1 or x2 basic, so phase 2 must price their costs);
    max x1 with x1 - x2 = -1 and x2 <= 3 (negative right side flipped): x = (2, 3), 2; a
    positive right side below 1 is not flipped (found by the thorough profile)."""
    sol = maximise([F(1), F(2)], A_ub=[[F(-1), F(0)]], b_ub=[F(-1, 2)],
                   A_eq=[[F(1), F(1)]], b_eq=[F(1)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(1, 2), F(1, 2)), F(3, 2))
    sol = maximise([F(1), F(0)], A_ub=[[F(0), F(1)]], b_ub=[F(3)],
                   A_eq=[[F(1), F(-1)]], b_eq=[F(-1)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(2), F(3)), F(2))
    sol = maximise([F(-1)], A_ub=[[F(-1)]], b_ub=[F(1, 2)])    # -x1 <= 1/2: x = 0, value 0
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0),), F(0))


def test_phase_two_prices_and_drives_out_every_artificial() -> None:
    """Found by the thorough profile against mutants of the two-phase bookkeeping.
    max -x2 + x3 with -x2 + x3 = -1: the objective is -1 on the whole feasible set (x3 =
    x2 - 1, x2 >= 1), so phase 2 must price the basic x3 (cost 1) before testing optimality.
    The ub rows of the second program are 0 <= 0, x1 <= 1, 0 <= 0 and its equalities
    x1 = 1 and the redundant 0 = 0: only x1 = 1 is feasible, value -1; the first artificial
    (of the row x1 = 1) must leave the basis, or phase 2 moves it and returns x1 = 0."""
    sol = maximise([F(0), F(-1), F(1)], A_eq=[[F(0), F(-1), F(1)]], b_eq=[F(-1)])
    assert sol.status == "optimal" and sol.value == -1
    assert sol.x[1] >= 1 and sol.x[2] == sol.x[1] - 1 and sol.x[0] >= 0
    zero = [F(0)] * 3
    sol = maximise([F(-1), F(0), F(0)], A_ub=[zero, [F(1), F(0), F(0)], zero],
                   b_ub=[F(0), F(1), F(0)], A_eq=[[F(1), F(0), F(0)], zero], b_eq=[F(1), F(0)])
    assert sol.status == "optimal" and sol.value == -1 and sol.x[0] == 1
    # max x1, x1 <= 1 with a redundant 0 = 0: the artificial's basis index after the slacks
    sol = maximise([F(1)], A_ub=[[F(1)]], b_ub=[F(1)], A_eq=[[F(0)]], b_eq=[F(0)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(1),), F(1))
    # max x2 with x1 + x2 = 1 and 0 = 0: the second artificial stays basic; its label
    # must not collide with x2's column, or reading x2 off it gives x = (0, 0), value 0
    sol = maximise([F(0), F(1)], A_eq=[[F(1), F(1)], [F(0), F(0)]], b_eq=[F(1), F(0)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0), F(1)), F(1))
    # max x1 with -x1 = 0 as the first row: phase 1 ends at once (no column improves it)
    # with that row's artificial basic; it must be driven out through x1, or phase 2 finds
    # no row to bound x1 and reports the program unbounded
    sol = maximise([F(1)], A_eq=[[F(-1)]], b_eq=[F(0)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0),), F(0))
    # max x1 with 0 <= 0 and -x1 = 0: the artificial of -x1 = 0 leaves through column 0
    sol = maximise([F(1)], A_ub=[[F(0)]], b_ub=[F(0)], A_eq=[[F(-1)]], b_eq=[F(0)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0),), F(0))


def test_artificials_driven_out_on_a_negative_entry() -> None:
    """Phase 1 can end with an artificial basic at level 0 whose row's first non-zero entry
    is negative; the integer tableau then pivots on it and must keep its denominator
    positive.  By hand: -3 x2 = 0 forces x2 = 0, so max -x1 + x2 is 0 at x = 0."""
    sol = maximise([F(-1), F(1)], A_eq=[[F(0), F(-3)]], b_eq=[F(0)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0), F(0)), F(0))
    _check_against_vertices([F(3), F(2), F(1)], [], [],
                            [[F(0), F(-2), F(1)], [F(2), F(-3), F(0)], [F(2), F(1), F(3)]],
                            [F(0), F(3), F(3)])
    # ... and with integers for data (ints are exact rationals too): the same program.
    assert maximise([-1, 1], A_eq=[[0, -3]], b_eq=[0]) == sol  # type: ignore[list-item]


def test_slack_prices_start_at_zero_in_phase_two() -> None:
    """By hand: max x1 + x2 + x3 s.t. 3x1 - x2 - 3x3 <= 1, 3x1 + x2 + 3x3 <= 2.  In the
    second row x2 buys a unit of objective for a unit of room, x1 and x3 for three, so the
    optimum is x = (0, 2, 0) with value 2 (the first row then reads -2 <= 1).  A phase-two
    objective row whose slack entries start off zero priced the slacks wrongly here."""
    sol = maximise([F(1), F(1), F(1)], A_ub=[[F(3), F(-1), F(-3)], [F(3), F(1), F(3)]],
                   b_ub=[F(1), F(2)])
    assert (sol.status, sol.x, sol.value) == ("optimal", (F(0), F(2), F(0)), F(2))


def test_solutions_are_immutable_and_empty_unless_optimal() -> None:
    """An LPSolution is a frozen record; an infeasible or unbounded one carries no point and
    the value 0 (the documented defaults)."""
    bad = maximise([F(1)], A_eq=[[F(1)]], b_eq=[F(-1)])
    assert (bad.status, bad.x, bad.value) == ("infeasible", (), F(0))
    unb = maximise([F(1)], A_ub=[[F(-1)]], b_ub=[F(0)])
    assert (unb.status, unb.x, unb.value) == ("unbounded", (), F(0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        unb.value = F(1)  # type: ignore[misc]
