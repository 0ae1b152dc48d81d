"""The prover's search pinned by values worked out by hand: split points, the centre, the
signs of derivatives, the limits, refutations at exact zeros, enclosures that are not
bounds.  (Soundness does not rest on the search: every leaf is confirmed by the checker.)"""

from __future__ import annotations

import inspect
import time
from fractions import Fraction
from typing import Any

import mpmath
import pytest

from proofs_tests.core.test_proofcheck import exp_tiny
from proofs_tests.core.test_prover import exp_above_line, parabola, wrong_threshold
from reference.core.numeric import exp
from reference.core.proofcheck import check
from reference.core.prover import (
    MAX_DEPTH,
    Proof,
    _attempt,
    _centre,
    _ends,
    _rational,
    _report,
    _signs,
    _split,
    centred,
    prove,
    reduce,
    split_point,
)
from reference.core.relations import Relation, relation

# ---- the search itself: split points, limits, refutations (values worked out by hand) ----

@pytest.mark.parametrize("lo,hi,geo,want", [
    (Fraction(1), Fraction(9, 2), True, Fraction(2)),     # 2^t, t = (-1 + 1 + 2)//2 = 1
    (Fraction(1), Fraction(8), True, Fraction(2)),        # t = (-1 + 2 + 2)//2 = 1
    (Fraction(1), Fraction(100), True, Fraction(8)),      # t = (-1 + 5 + 2)//2 = 3
    (Fraction(1), Fraction(100), False, Fraction(52)),    # 101/2 to a multiple of 4
    (Fraction(-10), Fraction(1), False, Fraction(-9, 2)),  # half-width 11/2: step 1/2
    (Fraction(-10), Fraction(-7), False, Fraction(-17, 2)),  # half-width 3/2: step 1/4
    (Fraction(0), Fraction(1), False, Fraction(1, 2)),
])
def test_split_points_by_hand(lo: Fraction, hi: Fraction, geo: bool, want: Fraction) -> None:
    """``_log2(q)`` is bit_length(numerator) - bit_length(denominator) - 1 (1 -> -1, 9/2 ->
    1, 8 -> 2, 100 -> 5); the middle is rounded to a multiple of 2^(_log2(half-width) - 2)."""
    assert split_point(lo, hi, geo) == want


def test_the_centre_is_the_arithmetic_split_point_and_keeps_points() -> None:
    rel = relation("two", statement="x + y > 0", kind="ordering", uses=(), source="",
                   domain={"x": (1, 100), "y": (1, 10), "k": (1, 9)}, integers=("k",))(
        lambda ctx, x, y, k: x + y)
    box = {"x": (Fraction(1), Fraction(100)), "y": (Fraction(3), Fraction(3)),
           "k": (Fraction(5, 2), Fraction(7, 2))}
    assert _centre(rel, box) == {"x": (Fraction(52), Fraction(52)),
                                 "y": (Fraction(3), Fraction(3)), "k": box["k"]}


def test_signs_of_the_derivative_on_a_box() -> None:
    """x - x^2 has derivative 1 - 2x: of no sign on [0, 1], >= 0 on [0, 1/4] (fix x at its
    low end), <= 0 on [3/4, 1] (fix it at its high end)."""
    assert _signs(parabola, {"x": (Fraction(0), Fraction(1))}) == {}
    assert _signs(parabola, {"x": (Fraction(0), Fraction(1, 4))}) == {"x": "lo"}
    assert _signs(parabola, {"x": (Fraction(3, 4), Fraction(1))}) == {"x": "hi"}


def test_depth_limit_leaves_the_halves_of_the_root_undecided(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no depth allowed the root (not provable in one leaf: x - x^2 on [0, 1]) is split
    once, at 1/2, and both halves are left undecided."""
    monkeypatch.setattr("reference.core.prover.MAX_DEPTH", 0)
    proof = prove(parabola, time_limit=60)
    half = Fraction(1, 2)
    assert proof.status == "undecided" and proof.leaves == 0
    assert proof.undecided == [{"x": (Fraction(0), half)}, {"x": (half, Fraction(1))}]
    assert proof.tree == {"split": "x", "at": "1/2", "lo": {"undecided": True},
                          "hi": {"undecided": True}}


def test_leaf_limit_stops_after_that_many_leaves() -> None:
    """x - x^2: each half of [0, 1] is one fixed leaf; with one leaf allowed the second half
    is left undecided."""
    assert prove(parabola, time_limit=60).leaves == 2
    proof = prove(parabola, time_limit=60, max_leaves=1)
    assert proof.leaves == 1 and proof.status == "undecided"
    assert proof.undecided == [{"x": (Fraction(1, 2), Fraction(1))}]


def test_an_out_of_time_root_is_one_undecided_node() -> None:
    proof = prove(parabola, time_limit=-1)
    assert proof.tree == {"undecided": True} and proof.leaves == 0


def test_seconds_are_measured_and_rounded_in_the_certificate() -> None:
    start = time.monotonic()
    proof = prove(exp_above_line, time_limit=60)
    assert 0 <= proof.seconds <= time.monotonic() - start
    proof.seconds = 1.23456
    assert proof.certificate()["seconds"] == 1.235


def _rel(rid: str, margin: Any, lo: object, hi: object, strict: bool) -> Relation:
    return relation(rid, kind="ordering", statement=rid, uses=(), source="test",
                    domain={"x": (lo, hi)}, strict=strict)(margin)


def test_refutation_at_an_exact_zero_depends_on_strictness() -> None:
    """x > 0 on [-1, 1] fails at the centre 0 (margin exactly 0); x >= 0 holds there and
    fails at the centre -1/2 of the left half."""
    start = time.monotonic()
    strict = prove(_rel("TEST:x>0", lambda ctx, x: x, -1, 1, True), time_limit=60)
    assert 0 <= strict.seconds <= time.monotonic() - start
    assert strict.status == "refuted" and strict.counterexample is not None
    assert strict.counterexample["point"] == {"x": "0"}
    assert strict.counterexample["margin"] == ["0", "0"]
    loose = prove(_rel("TEST:x>=0", lambda ctx, x: x, -1, 1, False), time_limit=60)
    assert loose.status == "refuted" and loose.counterexample is not None
    assert loose.counterexample["point"] == {"x": "-1/2"}
    assert loose.counterexample["box"] == {"x": ["-1", "0"]}


def test_the_counterexample_margin_encloses_the_exact_value() -> None:
    """e^x < 2 on [0, 1] fails above ln 2: refuted at the centre 3/4 of [1/2, 1], with an
    enclosure of 2 - e^(3/4) = -0.117 (inexact: its ends differ, in order)."""
    rel = _rel("TEST:e^x<2", lambda ctx, x: 2 - exp(ctx, x), 0, 1, True)
    proof = prove(rel, time_limit=60)
    ce = proof.counterexample
    assert proof.status == "refuted" and ce is not None and ce["point"] == {"x": "3/4"}
    lo, hi = (Fraction(v) for v in ce["margin"])
    with mpmath.workdps(60):
        want = 2 - mpmath.exp(mpmath.mpf(3) / 4)
        assert lo < hi < 0
        assert mpmath.mpf(lo.numerator) / lo.denominator <= want
        assert want <= mpmath.mpf(hi.numerator) / hi.denominator


@pytest.mark.parametrize("strict", [False, True])
def test_a_margin_straddling_zero_at_the_centre_is_not_a_refutation(strict: bool) -> None:
    """sqrt(x)^2 - x (+ 2^-200 when strict) is 0 (or positive) everywhere, but its
    enclosure at the centre 2 straddles 0 (sqrt(2)^2 rounded): never refuted; undecided."""
    tiny = Fraction(1, 2**200) if strict else Fraction(0)
    rel = _rel("TEST:sqrt^2", lambda ctx, x: ctx.sqrt(x) * ctx.sqrt(x) - x + tiny, 1, 3,
               strict)
    proof = prove(rel, time_limit=1)
    assert proof.status == "undecided" and proof.counterexample is None


def test_ties_between_variables_split_the_first() -> None:
    """x^2 + y^2 + 1/2 >= 0 on [-1, 1]^2 is symmetric in x and y: the root is split in x."""
    rel = relation("TEST:sym", kind="ordering", statement="s", uses=(), source="test",
                   domain={"x": (-1, 1), "y": (-1, 1)}, strict=False)(
        lambda ctx, x, y: x * x + y * y + Fraction(1, 2))
    proof = prove(rel, time_limit=60)
    assert proof.status == "proved" and proof.tree["split"] == "x"


def test_reduce_sets_each_fixed_variable_to_its_end() -> None:
    box = {"x": (Fraction(1), Fraction(2)), "y": (Fraction(3), Fraction(4)),
           "z": (Fraction(5), Fraction(6))}
    assert reduce(box, {"x": "hi", "y": "lo"}) == \
        {"x": (Fraction(2), Fraction(2)), "y": (Fraction(3), Fraction(3)), "z": box["z"]}


def test_the_centred_form_adds_the_derivative_times_the_offsets() -> None:
    """x on [0, 1] centred at its low end: m(0) + 1 * [0, 1] = [0, 1] (a centre at an end
    makes the offsets one-signed, so the sign of the added term shows)."""
    identity = _rel("TEST:x", lambda ctx, x: x, 0, 1, False)
    got = centred(identity, identity.box(), {"x": (Fraction(0), Fraction(0))})
    assert _ends(got) == (Fraction(0), Fraction(1))


def test_an_attempt_reports_the_best_lower_bound_it_found() -> None:
    """x - x^2 on [0, 1/4]: the plain enclosure's lower end is -1/16, the fixed one's (x at
    0) is 0, which proves the box; the best of the two is returned."""
    leaf, best, fixed = _attempt(parabola, {"x": (Fraction(0), Fraction(1, 4))})
    assert leaf == {"leaf": "plain", "fixed": {"x": "lo"}} and fixed == {"x": "lo"}
    assert best == 0


def test_point_ranges_are_neither_fixed_nor_split() -> None:
    box = {"x": (Fraction(1), Fraction(1)), "y": (Fraction(0), Fraction(1))}
    assert _signs(exp_above_line, box) == {"y": "lo"}     # y - y: derivative exactly 0
    assert _split(exp_above_line, box, {})[0] == "y"


def test_log_scale_variables_are_split_geometrically() -> None:
    """eps in [1/100, 1] (log scale): 2^((-7 - 1 + 2)//2) = 1/8, not the middle 101/200."""
    assert _split(wrong_threshold, wrong_threshold.box(), {})[1] == Fraction(1, 8)


def test_a_margin_undefined_at_the_centre_is_split_not_refuted() -> None:
    """2 - 1/x >= 0 on [-1, 1] is undefined at 0, the centre of the root and of the boxes
    that touch 0: those are split, not refuted or proved; the relation fails on (0, 1/2),
    found at the centre 1/4 of [0, 1/2] (margin exactly -2)."""
    rel = _rel("TEST:2-1/x", lambda ctx, x: 2 - 1 / x, -1, 1, False)
    proof = prove(rel, time_limit=60)
    assert proof.status == "refuted" and proof.counterexample == {
        "point": {"x": "1/4"}, "margin": ["-2", "-2"], "box": {"x": ["0", "1/2"]}}


def test_split_point_at_exactly_four_times_is_arithmetic() -> None:
    """The geometric middle is for ranges wider than a factor 4: [1, 4] is split at 5/2."""
    assert split_point(Fraction(1), Fraction(4), True) == Fraction(5, 2)


def test_documented_limits_and_defaults() -> None:
    """The limits the docs state: 60 s and 100 000 leaves by default, depth 200 (a box then
    spans 2^-200 of its range); an empty proof records no time and no precision."""
    params = inspect.signature(prove).parameters
    assert params["time_limit"].default == 60.0 and params["max_leaves"].default == 100_000
    assert MAX_DEPTH == 200
    empty = Proof(parabola)
    assert empty.seconds == 0.0 and empty.bits == 0 and empty.status == "proved"


def test_a_margin_unbounded_on_a_box_is_not_a_bound() -> None:
    """1/x > 0 on [0, 1]: the enclosure near 0 is [2, +inf]; an infinite end is no lower
    bound to certify with (nor to convert): the box at 0 stays undecided (at the time
    limit the queue may hold others too)."""
    rel = _rel("TEST:1/x>0", lambda ctx, x: 1 / x, 0, 1, True)
    proof = prove(rel, time_limit=1)
    assert proof.status == "undecided" and proof.leaves >= 1
    assert any(box["x"][0] == 0 for box in proof.undecided)


def test_leaves_are_confirmed_at_the_checkers_extra_precision() -> None:
    """e^x - 1 - x near x = 2^-40 is about 2^-81: one plain leaf, which the checker accepts
    at the prover's precision plus 64 bits (it would refuse at 64 bits less; the checker's
    side is test_proofcheck's test_the_check_works_above_the_stated_precision)."""
    proof = prove(exp_tiny, time_limit=5)
    assert proof.status == "proved" and proof.leaves == 1


def test_a_margin_undefined_on_a_box_but_not_at_its_centre() -> None:
    """sqrt(x) + 1 > 0 on [-1, 1]: undefined (sqrt of negatives) on every box reaching below
    0, its derivative too, while defined at the centre 0: such boxes are split, never
    certified or refuted; at the time limit the left part stays undecided."""
    rel = _rel("TEST:sqrt+1", lambda ctx, x: ctx.sqrt(x) + 1, -1, 1, True)
    proof = prove(rel, time_limit=1)
    assert proof.status == "undecided" and proof.leaves >= 1


def test_every_leaf_is_confirmed_by_the_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a checker that refuses everything no leaf is certified, even where the prover's
    own enclosure is positive; with one that accepts everything, a leaf still needs the
    prover's own enclosure to be positive (x - x^2 on [0, 1]: none of the three is)."""
    box = {"x": (Fraction(1, 2), Fraction(9, 16)), "y": (Fraction(0), Fraction(1))}
    assert _attempt(exp_above_line, box)[0] == {"leaf": "plain"}     # [0.007, 0.19]
    monkeypatch.setattr("reference.core.prover.leaf_holds", lambda *a: False)
    assert _attempt(exp_above_line, box)[0] is None
    monkeypatch.setattr("reference.core.prover.leaf_holds", lambda *a: True)
    assert _attempt(parabola, parabola.box())[0] is None


def test_the_best_bound_is_the_greatest_lower_end() -> None:
    """x*x - 1/2 on [-1, 1] (x*x enclosed as [-1, 1]): plain [-3/2, 1/2], centred at 0
    [-5/2, 3/2]: the best lower bound is -3/2, not the centred form's."""
    rel = _rel("TEST:x^2-1/2", lambda ctx, x: x * x - Fraction(1, 2), -1, 1, False)
    leaf, best, _ = _attempt(rel, rel.box())
    assert leaf is None and best == Fraction(-3, 2)


# ---- ends far beyond any Fraction: e^(-10^40) ----------------------------------------

def test_a_margin_like_e_to_the_minus_10_to_the_40_is_proved_and_checked() -> None:
    """e^-x > 0 on [1, 10^40]: the lower end e^(-10^40) has a binary exponent near -1.4e40,
    a Fraction of 10^40 bits (the prover and checker ran out of memory making it); the
    decision compares the end with 0 itself, and the certificate is accepted."""
    rel = _rel("TEST:e^-x", lambda ctx, x: exp(ctx, -x), 1, 10**40, True)
    proof = prove(rel, time_limit=30)
    assert proof.status == "proved" and proof.leaves == 1
    assert check(proof.certificate(), rel) == 1
    flipped = _rel("TEST:-e^-x", lambda ctx, x: -exp(ctx, -x), 1, 10**40, True)
    proof = prove(flipped, time_limit=30)
    assert proof.status == "refuted"
    assert proof.counterexample is not None
    lo, hi = proof.counterexample["margin"]           # -e^-c: 20 digits, not exact
    c = Fraction(proof.counterexample["point"]["x"])
    with mpmath.workdps(60):                           # log10 e^-c = -c log10(e)
        want = mpmath.floor(-mpmath.mpf(c.numerator) / c.denominator * mpmath.log10(mpmath.e))
    for end in (lo, hi):
        digits, power = end.split("e")
        assert digits.startswith("-") and len(digits) <= 23 and int(power) == int(want)


FAR = 2**20     # the documented threshold (a literal: a changed constant shows)


@pytest.mark.parametrize(("v", "want"), [
    (mpmath.mpf(0), Fraction(0)), (mpmath.mpf("0.75"), Fraction(3, 4)),
    (mpmath.mpf(-3), Fraction(-3)),
    (mpmath.ldexp(3, FAR - 2), 3 * Fraction(2) ** (FAR - 2)),     # mag 2^20: still exact
    (mpmath.ldexp(-3, -FAR - 2), -3 * Fraction(2) ** (-FAR - 2)),  # mag -2^20: still exact
    (mpmath.ldexp(3, FAR - 1), Fraction(2) ** FAR),               # mag 2^20 + 1: clamped
    (mpmath.ldexp(-3, -FAR - 3), -Fraction(2) ** -FAR),           # mag -2^20 - 1: clamped
    (mpmath.ldexp(3, 10**9), Fraction(2) ** FAR),                 # same sign, same side
    (mpmath.ldexp(-3, 10**9), -Fraction(2) ** FAR),
    (mpmath.ldexp(3, -10**9), Fraction(2) ** -FAR),
    (mpmath.ldexp(-3, -10**9), -Fraction(2) ** -FAR),
])
def test_far_ends_enter_the_split_heuristics_clamped(v: Any, want: Fraction) -> None:
    assert _rational(v) == want


def test_far_ends_are_reported_in_digits_near_ones_exactly() -> None:
    assert _report(mpmath.mpf("0.75")) == "3/4"
    far = _report(mpmath.ldexp(-1, -10**9))       # -2^-(10^9) = -2.1677...e-301029996
    digits, power = far.split("e")
    assert digits.startswith("-2.1677979676") and len(digits) == 22 and power == "-301029996"
