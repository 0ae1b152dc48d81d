"""Edges of the exact q-target oracle (CL23 Def 2.1, B.1) that the property tests in
``test_oracle.py`` do not reach: each way ``Decomposition.check`` must refuse a false
witness, each input the oracle refuses, the failure-weight route (delta > 0) on pairs
far from the degenerate case ``p = 1``, and the enclosure at an irrational ``e^eps``.

Expected values come from the definition by hand (a witness tampered in one identity is
not a witness), from HiGHS in floating point (the same linear program, another solver),
and from the delta = 0 closed form evaluated at ``e^eps`` with python-flint.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import flint
import mpmath
import pytest

from proofs_tests.arb_support import arb_q
from proofs_tests.tct.test_oracle import highs_q
from reference import DomainError, precision
from reference.results.tct.base import ratio_bracket
from reference.results.tct.oracle import (
    Decomposition,
    at_most_exp,
    best_q,
    common_cap,
    q_target,
)

F = Fraction
RR = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))   # randomized response, ratio 3


def _plain(P0: tuple[Fraction, ...], P1: tuple[Fraction, ...], w: Fraction) -> Decomposition:
    """p = 0, delta = 0: B^b = P_b (valid iff P0, P1 are w-bounded pointwise)."""
    n = len(P0)
    point = tuple(F(int(y == 0)) for y in range(n))
    return Decomposition(F(0), point, P0, P1, point, point, F(0), w, frozenset({0}))


def test_check_accepts_the_plain_witness_and_refuses_each_broken_identity() -> None:
    P0, P1 = RR
    good = _plain(P0, P1, F(3))
    assert good.check(P0, P1) and good.q == F(1, 4)
    assert _plain(P0, P0, F(1)).check(P0, P0)                     # w = 1 is allowed
    broken = {
        "p > 1": dataclasses.replace(good, p=F(3, 2)),
        "p < 0": dataclasses.replace(good, p=F(-1, 2)),
        "delta = 1": dataclasses.replace(good, delta=F(1)),
        "w < 1": dataclasses.replace(good, w=F(1, 2)),
        # p = 0 hides C from the mixtures: only the part checks can refuse these
        "C negative (sum 1)": dataclasses.replace(good, C=(F(2), F(-1))),
        "C sums to 2": dataclasses.replace(good, C=(F(1), F(1))),
        # B^0 <= w B^1 fails one way only (3/4 > 2 * 1/4, 1/4 <= 2 * 3/4)
        "ratio one way": dataclasses.replace(good, w=F(2)),
    }
    for why, wit in broken.items():
        assert not wit.check(P0, P1), why
    # p and delta out of range with every other identity intact: C = B^b = E^b = P makes
    # the mixtures equal P for any p and delta, so only the range checks can refuse
    same = tuple(F(1, 2) for _ in range(2))
    flat = Decomposition(F(0), same, same, same, same, same, F(0), F(1), frozenset({0}))
    assert flat.check(same, same)
    for why, wit in {"p > 1": dataclasses.replace(flat, p=F(3, 2)),
                     "p < 0": dataclasses.replace(flat, p=F(-1, 2)),
                     "delta = 1": dataclasses.replace(flat, delta=F(1)),
                     "delta < 0": dataclasses.replace(flat, delta=F(-1, 2))}.items():
        assert wit.mixture(0) == same and wit.mixture(1) == same, why
        assert not wit.check(same, same), why
    assert not good.check(P1, P1) and not good.check(P0, P0)   # one mixture wrong
    # parts or laws of another length: refused, not a crash inside zip
    three = (F(1, 2), F(1, 4), F(1, 4))
    assert not good.check(three, three) and not good.check(P0, three)
    assert not dataclasses.replace(good, B1=three).check(P0, P1)
    assert not good.check((F(1, 2), F(1, 2)), P1)


def test_check_with_eps_proves_w_below_e_to_the_eps() -> None:
    """w = 3: e^1.1 = 3.004 > 3 holds, e^1 = 2.718 < 3 refuses; w = 1 needs eps >= 0
    (no w >= 1 is at most e^eps for eps < 0: that witness was accepted before)."""
    P0, P1 = RR
    good = _plain(P0, P1, F(3))
    assert good.check(P0, P1, eps=F(11, 10)) and not good.check(P0, P1, eps=F(1))
    same = _plain(P0, P0, F(1))
    assert same.check(P0, P0, eps=F(0)) and not same.check(P0, P0, eps=F(-1, 10**6))


def test_records_are_frozen() -> None:
    wit = _plain(*RR, F(3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        wit.p = F(1)  # type: ignore[misc]
    opt = best_q(*RR, [1], w=F(3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        opt.q = F(1)  # type: ignore[misc]
    enc = q_target(*RR, [1], eps=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        enc.lo = F(1)  # type: ignore[misc]


@pytest.mark.parametrize(("P0", "P1", "T", "w", "delta", "why"), [
    ((F(1, 2), F(1, 2)), (F(1),), [0], F(2), F(0), "as many entries"),
    ((F(3, 2), F(-1, 2)), (F(1, 2), F(1, 2)), [0], F(2), F(0), "probability vector"),
    ((F(1, 2), F(1, 4)), (F(1, 2), F(1, 2)), [0], F(2), F(0), "probability vector"),
    ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), [0], F(1, 2), F(0), "w"),
    ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), [0], F(2), F(1), "delta"),
    ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), [2], F(2), F(0), "target"),
    ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), [-1], F(2), F(0), "target"),
])
def test_the_oracle_refuses_bad_input(P0: tuple[Fraction, ...], P1: tuple[Fraction, ...],
                                      T: list[int], w: Fraction, delta: Fraction,
                                      why: str) -> None:
    with pytest.raises(DomainError, match=why):
        best_q(P0, P1, T, w=w, delta=delta)


def test_common_cap_from_the_definition() -> None:
    """Largest c with a - c <= w (b - c) and b - c <= w (a - c): all of min(a, b) when
    w = 1 and a = b; (w lo - hi)/(w - 1) otherwise; none when hi > w lo."""
    assert common_cap(F(1, 3), F(1, 3), F(1)) == F(1, 3)
    assert common_cap(F(1, 3), F(1, 4), F(1)) is None
    assert common_cap(F(1, 2), F(1, 4), F(3)) == F(1, 8)     # (3/4 - 1/2) / 2
    assert common_cap(F(3, 4), F(1, 4), F(2)) is None
    # eps = 0 and different laws: not (0, 0)-indistinguishable, so no target
    assert best_q((F(1, 2), F(1, 4), F(1, 4)), (F(1, 2), F(1, 2), F(0)), [0], w=F(1)).q == 0


@pytest.mark.parametrize("w", [F(3, 2), F(2), F(5)])
@pytest.mark.parametrize("delta", [F(1, 100), F(1, 10)])
@pytest.mark.parametrize("T", [[0], [1]])
def test_failure_route_far_from_the_degenerate_case(w: Fraction, delta: Fraction,
                                                    T: list[int]) -> None:
    """Randomized response (a, 1 - a) vs (1 - a, a) with a = (w + delta/2)/(1 + w): the
    ratio a/(1 - a) exceeds w (no pure route), the excess a - w (1 - a) = delta/2 fits in
    the failure mass (so a q > 0 exists) and the total variation 2a - 1 exceeds delta (so
    p = 1 does not).  Only the linear program applies: its q is attained by an exact
    witness and agrees with HiGHS on the same program."""
    a = (w + delta / 2) / (1 + w)
    assert a / (1 - a) > w and 2 * a - 1 > delta
    P0, P1 = (a, 1 - a), (1 - a, a)
    opt = best_q(P0, P1, T, w=w, delta=delta)
    assert opt.witness is not None and opt.witness.check(P0, P1)
    assert opt.witness.q == opt.q and 0 < opt.q < 1
    float_q = highs_q(P0, P1, T, w, delta)
    assert float_q is not None and abs(float_q - float(opt.q)) < 1e-9


@pytest.mark.parametrize(("P0", "P1", "w", "delta"), [
    # (1/2, 3/10, 1/5) vs its reverse: each end needs failure mass 1/2 - 2/5 = 1/10 <= delta
    ((F(1, 2), F(3, 10), F(1, 5)), (F(1, 5), F(3, 10), F(1, 2)), F(2), F(3, 20)),
    ((F(2, 5), F(2, 5), F(1, 5)), (F(1, 5), F(2, 5), F(2, 5)), F(3, 2), F(1, 10)),
    # no symmetry between the two laws (the b = 0 and b = 1 constraints differ)
    ((F(1, 2), F(1, 4), F(1, 4)), (F(1, 5), F(3, 10), F(1, 2)), F(2), F(1, 5)),
])
def test_failure_route_on_three_outcomes(P0: tuple[Fraction, ...], P1: tuple[Fraction, ...],
                                         w: Fraction, delta: Fraction) -> None:
    """Every non-empty target of three outcomes: an exact witness attaining q, and q
    equal to HiGHS's optimum of the same program where q < 1."""
    assert 1 - sum(min(a, b) for a, b in zip(P0, P1, strict=True)) > delta  # not p = 1
    for T in ([0], [1], [2], [0, 1], [0, 2], [1, 2]):
        opt = best_q(P0, P1, T, w=w, delta=delta)
        assert opt.witness is not None and opt.witness.check(P0, P1), T
        assert opt.witness.q == opt.q and 0 < opt.q <= 1, T
        float_q = highs_q(P0, P1, T, w, delta)
        assert float_q is not None and abs(float_q - float(opt.q)) < 1e-9, T


def test_the_enclosure_at_an_irrational_ratio_is_two_sided() -> None:
    """delta = 0, P0 = (1/2, 1/2), P1 = (1/4, 3/4), T = {0}: the closed form gives
    q(w) = min(1/2, 1/4) / (1 - u_1), u_1 = (w 1/2 - 3/4)/(w - 1), strictly increasing in
    w; at w = e (python-flint, 300 bits) it lies strictly inside [lo, hi], which has
    lo < hi (the optima at both ends of the rational bracket of e)."""
    enc = q_target((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)), [0], eps=1)
    old = flint.ctx.prec
    flint.ctx.prec = 300
    try:
        w = flint.arb(1).exp()
        exact_q = flint.arb(1) / 4 / (1 - (w / 2 - flint.arb(3) / 4) / (w - 1))
        assert arb_q(enc.lo) < exact_q < arb_q(enc.hi)
    finally:
        flint.ctx.prec = old


@pytest.mark.parametrize(("delta", "q", "p"), [(F(1, 10), F(5, 11), F(7, 18)),
                                               (F(1, 20), F(5, 13), F(6, 19))])
def test_failure_route_with_common_mass_pinned_by_hand(delta: Fraction, q: Fraction,
                                                       p: Fraction) -> None:
    """P0 = (1/2, 1/4, 1/4), P1 = (1/4, 1/2, 1/4), T = {0}, w = 2.  By hand: q is
    min_b beta_b(0) / (1 - delta - c_1 - c_2); the numerator is at most P1(0) = 1/4
    (failure mass of law 1 off outcome 0); c_2 = 1/4 (outcome 2 is common); on outcome 1
    beta_1 <= 2 beta_0 gives c_1 <= e_1(1) - 2 e_0(1) <= delta.  So q = (1/4) /
    (3/4 - 2 delta) and the common part has mass (1 - delta) p = 1/4 + delta: p > 0, the
    LP's common mass is rescaled by 1 - delta into p (with 1 + delta the mixtures fail)."""
    P0, P1 = (F(1, 2), F(1, 4), F(1, 4)), (F(1, 4), F(1, 2), F(1, 4))
    assert q == F(1, 4) / (F(3, 4) - 2 * delta) and p == (F(1, 4) + delta) / (1 - delta)
    opt = best_q(P0, P1, [0], w=F(2), delta=delta)
    assert opt.q == q and opt.witness is not None and opt.witness.check(P0, P1)
    assert opt.witness.p == p


def test_total_variation_exactly_delta_gives_q_one() -> None:
    """sum min(P0, P1) = 3/4 = 1 - delta: p = 1 is possible (CL23 B.1 leaves B^b free),
    so every non-empty target is a 1-target; a hair less failure mass and q < 1 (the
    linear program's route, which cannot express p = 1)."""
    P0, P1 = (F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))
    for T in ([0], [1]):
        at = best_q(P0, P1, T, w=F(3, 2), delta=F(1, 4))
        assert at.q == 1 and at.witness is not None and at.witness.p == 1
        assert at.witness.check(P0, P1)
        below = best_q(P0, P1, T, w=F(3, 2), delta=F(1, 4) - F(1, 10**30))
        assert 1 - F(1, 10**28) < below.q < 1


@pytest.mark.parametrize("digits", [50, 100, 400])
def test_the_witness_proves_eps_at_every_precision(digits: int) -> None:
    """q_target builds its witness at w_lo within 10**-(digits + guard) of e^eps; check(eps)
    must still prove w_lo <= e^eps (a fixed 60-digit enclosure of e refused it from 60
    digits on) and refuse w_hi > e^eps, however close."""
    P0, P1 = (F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))
    with precision(digits):
        enc = q_target(P0, P1, [0], eps=1)
        lo, hi = ratio_bracket(F(1))
    assert enc.witness is not None and enc.witness.w == lo
    assert enc.witness.check(P0, P1, eps=F(1))
    assert at_most_exp(lo, F(1)) and not at_most_exp(hi, F(1))
    assert hi - lo < F(1, 10**digits)
    # e^0 = 1 exactly: w = 1 is proven, 1 + 10**-30 refused
    assert at_most_exp(F(1), F(0)) and not at_most_exp(F(1) + F(1, 10**30), F(0))


@pytest.mark.parametrize(("digits", "proven"), [(15000, True), (20100, False)])
def test_at_most_exp_up_to_its_digit_limit(digits: int, proven: bool) -> None:
    """w = e truncated to ``digits`` decimals (below e, within 10**-digits): the enclosures
    of e double from 60 digits to 15360, the last allowed by CHECK_MAX_DIGITS = 20000, so
    10**-15000 is still proven and 10**-20100 is left unproven (False, not a guess); the
    truncation plus 10**-digits is above e, refused either way."""
    with mpmath.workdps(digits + 30):
        scaled = int(mpmath.floor(mpmath.e * mpmath.mpf(10) ** digits))
    w = F(scaled, 10**digits)
    assert at_most_exp(w, F(1)) is proven
    assert at_most_exp(w + F(1, 10**digits), F(1)) is False
