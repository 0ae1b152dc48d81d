"""The boundary wrapper and run-twice (CL23 Lemmas 2.8, 2.9, E.1, E.2, F.1) pinned two-sided:
each stated closed form evaluated by hand in exact rationals at a rational ``e^eps = w``
(``e^t`` is then rational too), against the certified enclosure at ``eps = ln w``; and the
finite laws of Algorithm 4 and of run-twice worked out by hand."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mpmath import mp

from proofs_tests.tct_support import log, num
from reference.results import covers
from reference.results.tct.wrappers import (
    boundary_probability,
    boundary_wrap,
    run_twice,
    run_twice_target,
    wrapped_privacy,
    wrapped_target,
    wrapped_target_exact,
    wrapped_test_privacy,
    wrapped_test_target,
    wrapped_test_target_exact,
)

F = Fraction


def pinned(enc: Any, x: Fraction, is_log: bool = False) -> bool:
    """``enc`` encloses ``x`` (or ``ln x``) to within 1e-40 on both sides."""
    with mp.workdps(60):
        v = mp.log(num(x)) if is_log else num(x)
        return bool(abs(enc.lo - v) < mp.mpf(10) ** -40 and abs(enc.hi - v) < mp.mpf(10) ** -40)


def test_boundary_wrap_by_hand() -> None:
    """``pi~ = min(1/2, 1 - max P)``, ⊤ w.p. ``pi~/(1 + pi~)``, the rest scaled by
    ``1/(1 + pi~)``: (9/10, 1/10) has pi~ = 1/10, ⊤ = 1/11; (3/4, 1/4): pi~ = 1/4, ⊤ = 1/5;
    no outcome above 1/2 caps pi~ at 1/2, ⊤ = 1/3; a sure outcome has pi~ = 0."""
    assert boundary_wrap([F(9, 10), F(1, 10)]) == (F(9, 11), F(1, 11), F(1, 11))
    assert boundary_wrap([F(3, 4), F(1, 4)]) == (F(3, 5), F(1, 5), F(1, 5))
    assert boundary_wrap([F(1, 2), F(1, 4), F(1, 4)]) == (F(1, 3), F(1, 6), F(1, 6), F(1, 3))
    assert boundary_wrap([F(1), F(0)]) == (F(1), F(0), F(0))
    for P, top in (([F(9, 10), F(1, 10)], F(1, 11)), ([F(3, 4), F(1, 4)], F(1, 5)),
                   ([F(1, 5)] * 5, F(1, 3)), ([F(1), F(0)], F(0))):
        assert boundary_probability(P) == top == boundary_wrap(P)[-1]


def test_run_twice_by_hand() -> None:
    """Two runs of (1/3, 2/3), outcome ``(i, j)`` at index ``2 i + j``: laws
    (1/9, 2/9, 2/9, 4/9); the target "two different outcomes" is {(0, 1), (1, 0)} = {1, 2}.
    Three outcomes (index ``3 i + j``): the six indices off the diagonal {0, 4, 8}."""
    law, target = run_twice([F(1, 3), F(2, 3)])
    assert law == (F(1, 9), F(2, 9), F(2, 9), F(4, 9)) and target == [1, 2]
    law, target = run_twice([F(1, 2), F(1, 4), F(1, 4)])
    assert law[0] == F(1, 4) and law[1] == law[3] == F(1, 8) and law[4] == F(1, 16)
    assert target == [1, 2, 3, 5, 6, 7]


@covers("CL23:LemE.1", "CL23:Lem2.8")
def test_wrapper_privacy_exact() -> None:
    """``e^{t_test} = max(w, 3(2w - 1)/(2w + 1))``: at w = 5/4, ``3 (3/2)/(7/2) = 9/7`` above
    5/4; at w = 2, ``9/5`` below 2, so t_test = eps.  ``e^t = 3w^2/(2w + 1)``: 75/56 at
    w = 5/4, 12/5 at w = 2."""
    for w, e_test, e_t in ((F(5, 4), F(9, 7), F(75, 56)), (F(2), F(2), F(12, 5))):
        assert pinned(wrapped_test_privacy.certified(eps=log(w)).t, e_test, is_log=True)
        assert pinned(wrapped_privacy.certified(eps=log(w)).t, e_t, is_log=True)


@covers("CL23:LemE.2-conservative", "CL23:LemE.2-exact", "CL23:Lem2.9-conservative",
        "CL23:Lem2.9-exact")
def test_boundary_targets_exact() -> None:
    """Conservative ``q = (e^t - 1)/(2(w e^t - 1))`` and exact
    ``q* = (e^t - 1)/(2 w e^t - e^t + w - 2)``, by hand:

    * tests at w = 5/4 (e^t = 9/7): ``(2/7)/(2 (45/28 - 1)) = 4/17`` and
      ``(2/7)/(90/28 - 36/28 + 35/28 - 56/28) = (2/7)/(33/28) = 8/33``;
    * tests at w = 2 (e^t = 2): ``1/(2 * 3) = 1/6`` and ``1/(8 - 2 + 2 - 2) = 1/6`` (equal
      when t = eps);
    * algorithms at w = 2 (e^t = 12/5): ``(7/5)/(2 (24/5 - 1)) = 7/38`` and
      ``(7/5)/(48/5 - 12/5 + 0) = 7/36``."""
    cases = [(wrapped_test_target, F(5, 4), F(4, 17), F(9, 7)),
             (wrapped_test_target_exact, F(5, 4), F(8, 33), F(9, 7)),
             (wrapped_test_target, F(2), F(1, 6), F(2)),
             (wrapped_test_target_exact, F(2), F(1, 6), F(2)),
             (wrapped_target, F(2), F(7, 38), F(12, 5)),
             (wrapped_target_exact, F(2), F(7, 36), F(12, 5))]
    for res, w, q, e_t in cases:
        enc = res.certified(eps=log(w))
        assert pinned(enc.q, q) and pinned(enc.t, e_t, is_log=True)


@covers("CL23:LemF.1")
def test_run_twice_target_exact() -> None:
    """``q_F = (w + 1)/(w + 1 + 2 w^2)``: 3/11 at w = 2, (9/4)/(9/4 + 25/8) = 18/43 at
    w = 5/4; run-twice is (2 eps)-DP: ``e^{eps2} = w^2``."""
    for w, q in ((F(2), F(3, 11)), (F(5, 4), F(18, 43))):
        enc = run_twice_target.certified(eps=log(w))
        assert pinned(enc.q, q) and pinned(enc.eps2, w * w, is_log=True)
