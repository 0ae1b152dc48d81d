"""The exact q-target oracle (CL23 Def 2.1, B.1) and its rational simplex.

Independent routes: the witness decomposition re-verified in exact arithmetic; the
separable closed form (delta = 0) against the exact LP route; both against HiGHS in floating
point.  The mixtures and the full-support target (Lemma A.1, Cor A.3, Lemma B.3) are in
``test_targets.py``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp
from scipy.optimize import linprog

from reference import DomainError
from reference.oracle.tct_strategies import approx_pair, bounded, deltas, law, pair, ratios
from reference.results import covers
from reference.results.tct.lp import maximise
from reference.results.tct.oracle import ZERO, _with_failure, best_q, q_target
from reference.results.tct.targets import (
    target_q,
    target_q_approx,
)

F = Fraction


def highs_q(P: tuple[Fraction, ...], Q: tuple[Fraction, ...], T: list[int], w: Fraction,
            delta: Fraction) -> float | None:
    """An independent route: the Charnes–Cooper LP in floating point (HiGHS)."""
    n, N = len(P), [y for y in range(len(P)) if y not in T]
    nv = 2 + len(N) + 2 * n
    laws = ([float(x) for x in P], [float(x) for x in Q])
    wf, A = float(w), []

    def fb(b: int, y: int) -> int:
        return 2 + len(N) + b * n + y

    for b in (0, 1):
        for y in range(n):
            r = np.zeros(nv)
            r[0], r[fb(b, y)] = -laws[b][y], 1
            if y in N:
                r[2 + N.index(y)] = 1
            A.append(r)
        for y in range(n):
            r = np.zeros(nv)
            r[0], r[fb(b, y)], r[fb(1 - b, y)] = laws[b][y] - wf * laws[1 - b][y], -1, wf
            if y in N:
                r[2 + N.index(y)] = wf - 1
            A.append(r)
        r = np.zeros(nv)
        r[1], r[0] = 1, -sum(laws[b][y] for y in T)
        for y in T:
            r[fb(b, y)] = 1
        A.append(r)
    E = [np.zeros(nv) for _ in range(3)]
    E[0][0] = 1 - float(delta)
    for y in N:
        E[0][2 + N.index(y)] = -1
    for b in (0, 1):
        E[1 + b][0] = -float(delta)
        for y in range(n):
            E[1 + b][fb(b, y)] = 1
    c = np.zeros(nv)
    c[1] = -1
    res = linprog(c, A_ub=np.array(A), b_ub=np.zeros(len(A)), A_eq=np.array(E),
                  b_eq=[1, 0, 0], bounds=[(0, None)] * nv, method="highs")
    return float(-res.fun) if res.status == 0 else None


@st.composite
def instance(draw: st.DrawFn, with_delta: bool = False
             ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], list[int], Fraction, Fraction]:
    w = draw(ratios())
    n = draw(st.integers(2, 5))
    delta = draw(deltas()) if with_delta else ZERO
    P, Q = draw(approx_pair(w, n, delta)) if with_delta else draw(pair(w, n))
    T = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1)))
    return P, Q, T, w, delta


# ---- the oracle itself -------------------------------------------------------------------

@covers("CL23:Def2.1", "CL23:DefB.1")
@given(instance(with_delta=True))
def test_witness_verifies_and_matches_highs(inst: tuple) -> None:  # type: ignore[type-arg]
    """The returned q is attained (exact witness) and optimal (HiGHS agrees to 1e-7)."""
    P, Q, T, w, delta = inst
    opt = best_q(P, Q, T, w=w, delta=delta)
    assert opt.witness is not None and opt.witness.check(P, Q)
    assert opt.witness.q == opt.q and 0 < opt.q <= 1
    float_q = highs_q(P, Q, T, w, delta)
    if opt.q < 1:  # q = 1 may come from p = 1, which the Charnes–Cooper LP cannot express
        assert float_q is not None and abs(float_q - float(opt.q)) < 1e-7


@covers("CL23:Def2.1")
@given(instance())
def test_closed_form_equals_exact_lp(inst: tuple) -> None:  # type: ignore[type-arg]
    """delta = 0: the separable closed form and the exact simplex give the same rational."""
    P, Q, T, w, _ = inst
    closed = best_q(P, Q, T, w=w)
    lp = _with_failure(P, Q, frozenset(T), w, ZERO)
    if closed.q < 1:
        assert closed.q == lp.q
    assert lp.witness is not None and lp.witness.check(P, Q)


@covers("CL23:Def2.1", "CL23:DefB.1")
@given(instance(with_delta=True), st.fractions(1, 2, max_denominator=10),
       st.sampled_from([F(0), F(1, 100), F(1, 5)]))
def test_monotone_in_w_delta_and_target(inst: tuple, grow: Fraction,  # type: ignore[type-arg]
                                        more: Fraction) -> None:
    """A larger ratio bound, failure weight or target never lowers the best q."""
    P, Q, T, w, delta = inst
    base = best_q(P, Q, T, w=w, delta=delta).q
    assert best_q(P, Q, T, w=w * grow, delta=delta).q >= base
    if delta + more < 1:
        assert best_q(P, Q, T, w=w, delta=delta + more).q >= base
    assert best_q(P, Q, sorted(set(T) | {0}), w=w, delta=delta).q >= base


@covers("CL23:Def2.1")
@given(ratios(), st.integers(2, 5), st.data())
def test_no_target_when_not_indistinguishable(w: Fraction, n: int, data: st.DataObject) -> None:
    P, Q = data.draw(law(n)), data.draw(law(n))
    opt = best_q(P, Q, [0], w=w)
    assert (opt.q > 0) == bounded(P, Q, w)
    assert best_q(P, Q, [], w=w).q == 0


@covers("CL23:Def2.1")
def test_registered_oracle_encloses_and_witness_proves_eps() -> None:
    P, Q = (F(1, 2), F(3, 10), F(1, 5)), (F(2, 5), F(7, 20), F(1, 4))
    enc = target_q.certified(P=P, Q=Q, T=[1, 2], eps="0.5")
    point = target_q(P=P, Q=Q, T=[1, 2], eps="0.5")
    with mp.workdps(60):
        tiny = mp.mpf(10) ** -45
        assert enc.q.lo - tiny <= point.q <= enc.q.hi + tiny and enc.q.hi - enc.q.lo < tiny
    tgt = q_target(P, Q, [1, 2], eps=F(1, 2))
    assert tgt.witness is not None and tgt.witness.check(P, Q, eps=F(1, 2))
    assert not tgt.witness.check(P, Q, eps=F(1, 100))  # its w exceeds e^0.01


@covers("CL23:DefB.1")
def test_registered_oracle_rejects_bad_target() -> None:
    with pytest.raises(DomainError, match=r"CL23:DefB.1"):
        target_q_approx(P="0.5,0.5", Q="0.5,0.5", T="2", eps=1, delta=0)


def test_exact_simplex_small_programs() -> None:
    """The rational simplex on programs with known optima (degenerate and infeasible)."""
    sol = maximise([F(3), F(5)], A_ub=[[F(1), F(0)], [F(0), F(2)], [F(3), F(2)]],
                   b_ub=[F(4), F(12), F(18)])
    assert sol.status == "optimal" and sol.value == 36 and sol.x == (F(2), F(6))
    assert maximise([F(1)], A_ub=[[F(-1)]], b_ub=[F(0)]).status == "unbounded"
    assert maximise([F(1), F(1)], A_eq=[[F(1), F(1)], [F(2), F(2)]],
                    b_eq=[F(1), F(2)]).value == 1  # redundant equality
