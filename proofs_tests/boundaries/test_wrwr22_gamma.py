"""How WRWR22:Cor3.7-Gamma finds its root: a Newton start that lands inside the final
bracket, so the boundary is evaluated a handful of times (it was about 25 with regula falsi
from t = 1, and about 180 with bisection before that).  The values themselves are tested in
``test_wrwr22.py``; these tests pin the speed path, which no value can reveal."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

import reference.results.boundaries.wrwr22 as wrwr22
from proofs_tests.boundaries.test_wrwr22 import deltas, precisions, rel, sens
from reference.results import covers
from reference.results.boundaries.wrwr22 import _mixture_guess, mixture_boundary, mixture_time


@covers("WRWR22:Cor3.7-Gamma")
@given(t=st.floats(1e-3, 1e3), rho=precisions, delta=deltas, d=sens)
def test_gamma_start_lands_inside_the_final_bracket(t: float, rho: float, delta: float,
                                                    d: float) -> None:
    """The Newton start (floats, then mp) is within 2^(7 - prec) of the root, so the
    bracket around it holds: psi above E to its left, at most E to its right."""
    with mp.workdps(50):
        args = [mp.mpf(x) for x in (rho, delta, d)]
        e = mixture_boundary.core(mp, mp.mpf(t), *args)
        start = _mixture_guess(e, *args)
        assert start is not None and rel(start, t) < 1e-40
        lo, hi = (start * (1 + k * mp.ldexp(1, 7 - mp.prec)) for k in (-1, 1))
        assert mixture_boundary.core(mp, lo, *args) > e >= mixture_boundary.core(mp, hi, *args)


@covers("WRWR22:Cor3.7-Gamma")
@given(t=st.floats(1e-3, 1e3), rho=precisions, delta=deltas, d=sens)
def test_gamma_evaluates_the_boundary_a_handful_of_times(
        t: float, rho: float, delta: float, d: float) -> None:
    """At most 8 evaluations of the boundary in mp (measured: 3 to 7 on 300 random inputs):
    2 to 5 Newton steps, then the two ends of the bracket around the start (each once)."""
    calls = []
    core = mixture_boundary.core

    def counted(*args: Any) -> Any:         # evaluations in mp (the float ones are cheap)
        if args[0] is mp:
            calls.append(args[1])
        return core(*args)

    with mp.workdps(50):
        args = [mp.mpf(x) for x in (rho, delta, d)]
        e = core(mp, mp.mpf(t), *args)
        wrwr22.mixture_boundary.core = counted
        try:
            root = mixture_time.core(mp, e, *args)
        finally:
            wrwr22.mixture_boundary.core = core
    assert 2 <= len(calls) <= 8 and rel(root, t) < 1e-40
