"""``max(x, 0)`` in the prover's contexts: the tracer records it as a node, the arb balls and
``iv`` take it end by end, and the dual numbers carry its slopes (1, 0, or ``[0, 1]`` where
``x`` may be 0: the generalized gradient, which keeps the mean value form sound across the
kink).  Expected values are exact rationals worked out here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.core.test_dual import _box, _ends
from reference.core import numeric
from reference.core.balls import balls
from reference.core.dual import DualContext, sign, step
from reference.core.proofcheck import _centred as checker_centred
from reference.core.prover import centred, prove
from reference.core.relations import partial, relation
from reference.core.trace import Tracer, evaluate, trace

B = balls()
TWO = Fraction(2)
#: Dyadic ends (exact in every context), from subnormal-small to huge, both signs and 0.
DYADIC = st.one_of(st.integers(-2**60, 2**60).map(lambda n: Fraction(n, 2**30)),
                   st.integers(1, 1000).map(lambda k: TWO**-k),
                   st.integers(1, 1000).map(lambda k: -(TWO**-k)),
                   st.integers(1, 1000).map(lambda k: TWO**k),
                   st.integers(1, 1000).map(lambda k: -(TWO**k)), st.just(Fraction(0)))



@pytest.mark.parametrize("ctx", [iv, B], ids=["iv", "balls"])
@given(a=DYADIC, b=DYADIC)
@example(a=Fraction(-1), b=Fraction(0))
@example(a=Fraction(0), b=Fraction(0))
def test_pos_part_of_an_interval_is_exact_end_by_end(ctx: Any, a: Fraction, b: Fraction) -> None:
    a, b = sorted((a, b))
    ctx.prec = 2100      # every drawn end is exact at this precision
    got = _ends(numeric.pos_part(ctx, _box(ctx, a, b)))
    assert got == (max(a, Fraction(0)), max(b, Fraction(0)))


@given(x=DYADIC)
def test_pos_part_of_a_point_in_mp(x: Fraction) -> None:
    mp.prec = 2100
    got = numeric.pos_part(mp, numeric.to_ctx(mp, x))
    assert numeric.exact(got, "x", "test") == max(x, Fraction(0))


@pytest.mark.parametrize("ctx", [iv, B], ids=["iv", "balls"])
@given(a=DYADIC, b=DYADIC, c=st.integers(-5, 5))
def test_the_slope_is_one_zero_or_the_hull(ctx: Any, a: Fraction, b: Fraction, c: int) -> None:
    """d/dx max(c x, 0) on [a, b]: c where c x > 0 throughout, 0 where c x < 0 throughout,
    otherwise the hull of 0 and c (the chain rule times the step's [0, 1])."""
    a, b = sorted((a, b))
    ctx.prec = 2100
    dc = DualContext(ctx, ("x",))
    (x,) = dc.variables([_box(ctx, a, b)])
    got = _ends(dc.pos_part(c * x).d[0])
    lo, hi = sorted((c * a, c * b))
    if lo > 0:
        want = (Fraction(c), Fraction(c))
    elif hi < 0:
        want = (Fraction(0), Fraction(0))
    else:
        want = (min(Fraction(0), Fraction(c)), max(Fraction(0), Fraction(c)))
    assert got == want


@pytest.mark.parametrize("ctx", [iv, B, mp], ids=["iv", "balls", "mp"])
def test_the_definite_sign(ctx: Any) -> None:
    """1 where every point is > 0, -1 where every point is < 0, None where 0 may be."""
    ctx.prec = 100
    cases = [((Fraction(1, 2), TWO), 1), ((-TWO, -(TWO**-1000)), -1), ((TWO**-1000,) * 2, 1),
             ((-TWO, TWO), None), ((Fraction(0), TWO), None), ((-TWO, Fraction(0)), None)]
    for (a, b), want in cases:
        if ctx is mp:
            if a == b or a * b > 0:
                assert sign(mp, numeric.to_ctx(mp, a)) == want
            continue
        assert sign(ctx, _box(ctx, a, b)) == want


def test_a_point_context_has_no_slope_at_the_kink() -> None:
    assert step(mp, mp.mpf(3)) == 1 and step(mp, mp.mpf(-3)) == 0
    assert step(mp, mp.mpf("1e-300")) == 1 and step(mp, mp.mpf("-1e-300")) == 0
    with pytest.raises(ValueError, match="no derivative at x = 0"):
        step(mp, mp.mpf(0))


def test_the_tracer_records_a_node_and_every_context_evaluates_it() -> None:
    """|x - 1| written as max(x - 1, 0) + max(1 - x, 0): by hand at dyadic points."""
    graph = trace(lambda ctx, x: numeric.pos_part(ctx, x - 1) + numeric.pos_part(ctx, 1 - x),
                  ["x"])
    g = Tracer()
    assert numeric.pos_part(g, g.var("x")).op == "pos_part"
    iv.prec = B.prec = mp.prec = 300
    for q in (Fraction(-3, 4), Fraction(1), Fraction(5, 2), TWO**-200):
        want = abs(q - 1)
        assert _ends(evaluate(graph, iv, {"x": _box(iv, q, q)})) == (want, want)
        assert _ends(evaluate(graph, B, {"x": B.mpf(q)})) == (want, want)
        got = evaluate(graph, mp, {"x": numeric.to_ctx(mp, q)})
        assert numeric.exact(got, "x", "test") == want


def _kinked(ctx: Any, x: Any, y: Any) -> Any:
    """Two kinks and a product: max(x y - 1/3, 0) - 2 max(y - x, 0) + x/5."""
    third = ctx.mpf(1) / 3
    return numeric.pos_part(ctx, x * y - third) - 2 * numeric.pos_part(ctx, y - x) + x / 5


KINKED = relation("TEST:kinked", statement="a formula with kinks", kind="ordering", uses=(),
                  source="test", domain={"x": (-2, 2), "y": (-2, 2)})(_kinked)


def _exact_kinked(x: Fraction, y: Fraction) -> Fraction:
    return max(x * y - Fraction(1, 3), Fraction(0)) - 2 * max(y - x, Fraction(0)) + x / 5


@given(st.lists(st.fractions(-2, 2, max_denominator=64), min_size=6, max_size=6))
@example([Fraction(-1), Fraction(1), Fraction(-1), Fraction(1), Fraction(0), Fraction(0)])
def test_the_centred_forms_enclose_the_margin_across_kinks(p: list[Fraction]) -> None:
    """The prover's centred form (iv) and the checker's (balls) at any centre of any box
    contain the exact value at the box's corners and at the drawn point: with a slope of
    1 or 0 taken at the kink instead of [0, 1] they would not (x in [-1, 1], y = 1)."""
    x0, x1, y0, y1, u, v = p
    box = {"x": tuple(sorted((x0, x1))), "y": tuple(sorted((y0, y1)))}
    c = {n: ((lo + hi) / 2,) * 2 for n, (lo, hi) in box.items()}
    at = {n: str(c[n][0]) for n in c}
    with mp.workprec(100), numeric.working(iv):
        iv.prec = 100
        encl = [_ends(centred(KINKED, box, c))]
    B.prec = 100
    encl.append(_ends(checker_centred(KINKED, B, dict(box), at, "/")))
    points = [(box["x"][i], box["y"][j]) for i in (0, 1) for j in (0, 1)]
    points.append((min(max(u, box["x"][0]), box["x"][1]), min(max(v, box["y"][0]), box["y"][1])))
    for lo, hi in encl:
        for x, y in points:
            assert lo <= _exact_kinked(x, y) <= hi, (box, x, y, lo, hi)


def test_a_kink_is_proved_over_by_its_slopes() -> None:
    """max(x, 0) - x >= 0 on [-1, 1]: the slope step - 1 is in [-1, 0] on the whole box, so
    x is set to 1, where the margin is 0: one leaf, no split."""
    rel = relation("TEST:relu", statement="max(x, 0) >= x", kind="ordering", uses=(),
                   source="test", domain={"x": (-1, 1)}, strict=False)(
        lambda ctx, x: numeric.pos_part(ctx, x) - x)
    proof = prove(rel, time_limit=30)
    assert proof.status == "proved" and proof.leaves == 1
    assert proof.tree.get("fixed") == {"x": "hi"}
    wrong = relation("TEST:relu-wrong", statement="max(x, 0) > x", kind="ordering", uses=(),
                     source="test", domain={"x": (-1, 1)})(
        lambda ctx, x: numeric.pos_part(ctx, x) - x)
    refuted = prove(wrong, time_limit=30)
    assert refuted.status == "refuted"
    assert refuted.counterexample is not None
    assert Fraction(refuted.counterexample["point"]["x"]) >= 0


def _slope_margin(ctx: Any, x: Any) -> Any:
    """d/dx max(x^2 - 1, 0) = 2x where |x| > 1, 0 where |x| < 1: a margin that is itself a
    derivative, so its graph holds the slope of max as a node."""
    return partial(ctx, lambda c, x: numeric.pos_part(c, x * x - 1), "x", x=x)


def test_a_derivative_of_max_traces_its_slope_as_a_node() -> None:
    graph = trace(_slope_margin, ["x"])
    ops: set[str] = set()
    stack = [graph]
    while stack:
        n = stack.pop()
        ops.add(n.op)
        stack.extend(n.args)
    assert "unit_step" in ops and "pos_part" not in ops    # the slope, not the value
    iv.prec = B.prec = mp.prec = 100
    for q, want in ((Fraction(2), Fraction(4)), (Fraction(1, 2), Fraction(0)),
                    (Fraction(-3), Fraction(-6)), (Fraction(-1, 3), Fraction(0))):
        assert _ends(evaluate(graph, iv, {"x": _box(iv, q, q)})) == (want, want)
        assert _ends(evaluate(graph, B, {"x": B.mpf(q)})) == (want, want)
        got = evaluate(graph, mp, {"x": numeric.to_ctx(mp, q)})
        assert numeric.exact(got, "x", "test") == want
    # across the kink x = 1 the slope is [0, 1], times 2x in [0, 4]
    assert _ends(evaluate(graph, iv, {"x": _box(iv, Fraction(0), TWO)})) == \
        (Fraction(0), Fraction(4))
    assert _ends(evaluate(graph, B, {"x": B.mpf((0, 2))})) == (Fraction(0), Fraction(4))


@pytest.mark.parametrize("ctx", [iv, B], ids=["iv", "balls"])
def test_the_slope_of_max_has_derivative_zero_off_the_kink_and_none_on_it(ctx: Any) -> None:
    """The slope of max(x^2 - 1, 0) times 2x, differentiated again: 2 where |x| > 1
    (slope 1, constant), 0 where |x| < 1; a box across the kink (where the slope jumps)
    has no derivative: ValueError, which the prover and checker read as 'split'."""
    graph = trace(_slope_margin, ["x"])
    ctx.prec = 100
    dc = DualContext(ctx, ("x",))
    for (a, b), want in (((Fraction(3, 2), TWO), Fraction(2)), ((Fraction(-1, 2), Fraction(1, 2)),
                                                              Fraction(0))):
        (x,) = dc.variables([_box(ctx, a, b)])
        assert _ends(evaluate(graph, dc, {"x": x}).d[0]) == (want, want)
    (x,) = dc.variables([_box(ctx, Fraction(1, 2), TWO)])
    with pytest.raises(ValueError, match="jumps"):
        evaluate(graph, dc, {"x": x})
    one = dc.unit_step(dc.mpf(3))
    assert _ends(one.v) == (1, 1) and _ends(one.d[0]) == (0, 0)
    zero = dc.unit_step(dc.mpf(-3))
    assert _ends(zero.v) == (0, 0) and _ends(zero.d[0]) == (0, 0)


@pytest.mark.parametrize("ctx", [iv, B], ids=["iv", "balls"])
def test_the_slope_of_expm1_keeps_its_sign_far_left(ctx: Any) -> None:
    """d/dx expm1(x) = e^x: at x in [-100, -90] it is in [e^-100, e^-90] > 0; formed as
    expm1(x) + 1 it cancelled to an enclosure reaching below 0 at 100 bits."""
    ctx.prec = 100
    dc = DualContext(ctx, ("x",))
    (x,) = dc.variables([_box(ctx, Fraction(-100), Fraction(-90))])
    lo, hi = _ends(dc.expm1(x).d[0])
    with mp.workprec(200):
        assert numeric.exact(mp.exp(-101), "x", "t") < lo <= \
            numeric.exact(mp.exp(-100), "x", "t")
        assert numeric.exact(mp.exp(-90), "x", "t") <= hi < numeric.exact(mp.exp(-89), "x", "t")


def test_a_sum_of_thousands_of_terms_traces_and_evaluates() -> None:
    """A chain of 3000 additions (a sum over k, as the exact composition's) is simplified
    and evaluated without recursion: sum_j e^(x/j) at x = 1 against mpmath directly."""
    n = 3000
    graph = trace(lambda ctx, x: ctx.fsum(numeric.exp(ctx, x / j) for j in range(1, n + 1)),
                  ["x"])
    iv.prec = 120
    lo, hi = _ends(evaluate(graph, iv, {"x": iv.mpf(1)}))
    with mp.workprec(200):
        want = numeric.exact(mp.fsum(mp.exp(mp.mpf(1) / j) for j in range(1, n + 1)), "s", "t")
    assert lo <= want <= hi and hi - lo < want * TWO**-90
