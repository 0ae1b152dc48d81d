"""``reference.core.trace``: hash-consed expression graphs, exact cancellation, evaluation.

The simplified graph is inspected with a walker over ``Node.args`` (which operations are
left) and evaluated in ``iv`` (arb balls, ``mp``, dual numbers) at exact rational points:
the enclosure must contain the value found independently (``Fraction``, or mpmath at four
times the precision; derivatives written out by hand) and be a few ulps wide.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core import numeric
from reference.core.balls import balls, ends
from reference.core.dual import DualContext
from reference.core.numeric import endpoints, to_ctx
from reference.core.relations import partial, relation
from reference.core.trace import Node, Tracer, evaluate, simplify, trace, traced

Q = Fraction
TWO = Q(2)
PRECS = st.sampled_from([53, 100, 160])
POS = st.one_of(st.fractions(Q(1, 64), 64, max_denominator=10**9),
                st.integers(1, 1000).map(lambda k: TWO**-k),
                st.integers(1, 300).map(lambda k: TWO**k))
SIGNED = st.one_of(POS, POS.map(lambda q: -q))
SMALL = st.fractions(Q(1, 64), 8, max_denominator=10**9)



def graph_nodes(node: Node) -> list[Node]:
    """The distinct nodes reachable from ``node`` (by identity)."""
    seen: dict[int, Node] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) not in seen:
            seen[id(n)] = n
            stack.extend(n.args)
    return list(seen.values())


def ops(node: Node) -> Counter[str]:
    return Counter(n.op for n in graph_nodes(node))


def at(prec: int, **values: Fraction) -> dict[str, Any]:
    iv.prec = prec
    return {k: to_ctx(iv, q) for k, q in values.items()}


def iv_ends(x: Any) -> tuple[Fraction, Fraction]:
    e = endpoints(x)
    return frac(e.lo), frac(e.hi)


def check(x: Any, exact: Fraction, width: Fraction, tol: Fraction | int = 0) -> None:
    lo, hi = iv_ends(x) if isinstance(x, iv.mpf) else ends(x)
    assert lo <= exact + tol and exact - tol <= hi, (lo, exact, hi)
    assert hi - lo <= width, (hi - lo, width)


def _mp(q: Fraction) -> Any:
    return mp.mpf(q.numerator) / q.denominator


# ---- (a) exact cancellation of shared terms ----------------------------------------------
def shared_sqrt(c: Any, x: Any, y: Any) -> Any:
    return (x * y + c.sqrt(x)) - (c.sqrt(x) + 0)


@given(POS, SIGNED, PRECS)
def test_the_shared_sqrt_term_cancels_exactly(x: Fraction, y: Fraction, prec: int) -> None:
    node = trace(shared_sqrt, ["x", "y"])
    assert "sqrt" not in ops(node) and ops(node)["mul"] == 1
    check(evaluate(node, iv, at(prec, x=x, y=y)), x * y, abs(x * y) * TWO ** (4 - prec))


def test_cancellation_beats_the_dependency_problem_on_a_box() -> None:
    """x, y in [1, 2]: traced, x*y is exactly [1, 4]; untraced, wider by that of sqrt(x)."""
    iv.prec = 53
    env = {"x": iv.mpf((1, 2)), "y": iv.mpf((1, 2))}
    assert iv_ends(evaluate(trace(shared_sqrt, ["x", "y"]), iv, env)) == (1, 4)
    lo, hi = iv_ends(shared_sqrt(iv, **env))
    assert lo < 1 - Q(4, 10) and hi > 4 + Q(4, 10)


SIGN_CASES: list[tuple[str, Callable[..., Any], Callable[[Any, Any], Any], bool]] = [
    # (label, margin, exact value in mp, is a sqrt node left?)
    ("a-(-a)", lambda c, x, y: c.sqrt(x) - (-c.sqrt(x)), lambda x, y: 2 * mp.sqrt(x), True),
    ("nn(a)-a", lambda c, x, y: operator.neg(-c.sqrt(x)) - c.sqrt(x), lambda x, y: mp.zero, False),
    ("-a+a", lambda c, x, y: -c.sqrt(x) + c.sqrt(x), lambda x, y: mp.zero, False),
    ("a-a/2", lambda c, x, y: (x * y + c.sqrt(x)) - c.sqrt(x) / 2,
     lambda x, y: x * y + mp.sqrt(x) / 2, True),
    ("sx-sy", lambda c, x, y: c.sqrt(x) - c.sqrt(y * y), lambda x, y: mp.sqrt(x) - abs(y), True),
    ("0-a+a", lambda c, x, y: 0 - c.sqrt(x) - (-1) * c.sqrt(x) + x, lambda x, y: x, False),
    ("sqrt(-yy+2yy)", lambda c, x, y: c.sqrt(-(y * y) + 2 * (y * y)),      # neg inside sqrt
     lambda x, y: abs(y), True),
]


@pytest.mark.parametrize("case", SIGN_CASES, ids=[s[0] for s in SIGN_CASES])
@given(x=POS, y=SIGNED)
def test_cancellation_signs(case: tuple[Any, ...], x: Fraction, y: Fraction) -> None:
    _, margin, exact, kept = case
    node = trace(margin, ["x", "y"])
    assert ("sqrt" in ops(node)) is kept
    with mp.workprec(500):
        ref = exact(_mp(x), _mp(y))
        size = frac(abs(ref) + mp.sqrt(_mp(x)) + abs(_mp(x * y)))
        ref = frac(ref)
    check(evaluate(node, iv, at(53, x=x, y=y)), ref, size * TWO**-46, tol=size * TWO**-400)
    if not kept and ref == 0:
        assert node.op == "const" and node.value == 0


# ---- (e) coefficients: collected exactly ----------------------------------------------------
def test_coefficients_are_collected_exactly() -> None:
    node = trace(lambda c, x: 3 * x - x / 2, ["x"])
    consts = {n.value for n in graph_nodes(node) if n.op == "const"}
    assert Q(5, 2) in consts and not consts & {Q(3), Q(1, 2), Q(-1, 2)}
    assert ops(node)["var"] == 1 and ops(node)["mul"] == 1
    for q in (Q(3, 8), Q(-7), TWO**-1000, Q(1, 3), Q(10**9 + 7, 2**20)):
        lo, hi = iv_ends(evaluate(node, iv, at(53, x=q)))
        binary = q.denominator & (q.denominator - 1) == 0      # then 5/2 x is exact
        assert lo <= Q(5, 2) * q <= hi and hi - lo <= (0 if binary else abs(q) * TWO**-49)


@pytest.mark.parametrize(("margin", "value"), [
    (lambda c, x, y: 3 * x - x / 2 - Q(5, 2) * x, Q(0)),
    (lambda c, x, y: 2 * (x * y) - (x * y) * 2, Q(0)),
    (lambda c, x, y: x * y / Q(1, 3) - 3 * (x * y), Q(0)),
    (lambda c, x, y: (x + 1) - x, Q(1)),
    (lambda c, x, y: 5 - (x + 2) * 3 + 3 * x, Q(-1)),        # constants keep their coefficient
    (lambda c, x, y: -(Q(1, 2) - x) / Q(1, 4) - 4 * x, Q(-2)),
    (lambda c, x, y: c.fsum([x / 10] * 10) - x + Q(1, 7), Q(1, 7)),
    (lambda c, x, y: -(numeric.exp(c, y) - x) - x + numeric.exp(c, y), Q(0)),
])
def test_terms_whose_coefficients_add_up_to_zero_disappear(margin: Callable[..., Any],
                                                           value: Fraction) -> None:
    node = trace(margin, ["x", "y"])
    assert node.op == "const" and node.value == value


TERMS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "x": lambda c, x, y: x, "sqrt": lambda c, x, y: c.sqrt(x),
    "exp": lambda c, x, y: numeric.exp(c, y), "log1p": lambda c, x, y: numeric.log1p(c, x * y)}
COEFFS = st.fractions(-5, 5, max_denominator=12)
PIECES = st.lists(st.tuples(COEFFS, st.sampled_from(["left", "right", "div", "neg"])),
                  max_size=4)


FORMS: dict[str, Callable[[Fraction, Any], Any]] = {
    "left": lambda q, t: q * t, "right": lambda q, t: t * q,
    "div": lambda q, t: t / (1 / q) if q else 0 * t, "neg": lambda q, t: -((-q) * t)}


@given(st.fixed_dictionaries({name: PIECES for name in TERMS}), COEFFS, POS, POS, st.randoms())
def test_random_linear_combinations(pieces: dict[str, list[tuple[Fraction, str]]],
                                    const: Fraction, x: Fraction, y: Fraction, rnd: Any) -> None:
    """A term survives iff its coefficients (pieces in random order) do not add up to 0."""
    x, y = min(x, 4), min(y, 4)
    flat = [(name, q, form) for name, ps in pieces.items() for q, form in ps]
    rnd.shuffle(flat)
    signs = [rnd.choice([1, -1]) for _ in flat]

    def margin(c: Any, x: Any, y: Any) -> Any:
        total = c.mpf(const)
        for (name, q, form), s in zip(flat, signs, strict=True):
            piece = FORMS[form](q, TERMS[name](c, x, y))
            total = total + piece if s == 1 else total - (-piece)
        return total

    node = trace(margin, ["x", "y"])
    sums = {name: sum((q for q, _ in ps), Q(0)) for name, ps in pieces.items()}
    for name in ("sqrt", "exp", "log1p"):
        assert (name in ops(node)) is (sums[name] != 0), name
    with mp.workprec(400):
        values = {name: TERMS[name](mp, _mp(x), _mp(y)) for name in TERMS}
        ref = frac(_mp(const) + mp.fsum(sums[n] * values[n] for n in TERMS))
        size = frac(abs(_mp(const)) + mp.fsum(abs(sums[n] * values[n]) for n in TERMS))
    check(evaluate(node, iv, at(53, x=x, y=y)), ref, size * TWO**-44, tol=size * TWO**-300)


# ---- (b) hash-consing, (c) constants ----------------------------------------------------------
def test_the_same_operations_give_the_same_node() -> None:
    g = Tracer()
    x, y = g.var("x"), g.var("y")

    def build() -> Node:
        inner = g.sqrt(x * y + 1) / (x - to_ctx(g, Q(1, 3)))
        return numeric.log1p(g, inner) - numeric.exp(g, y) * inner ** 2

    a, b = build(), build()
    square = x * x + x * x
    assert a is b and g.var("x") is x and square.args[0] is square.args[1]
    assert numeric.expm1(g, x) is numeric.expm1(g, x)
    assert x + y is not x - y and x * y is not x / y and g.exp(x) is not g.expm1(x)
    assert x + y is not x + 1 and x * y is not x * x and y * x is not x * x   # every argument
    assert Tracer().var("x") is not x and g.var("y") is y
    assert g.mpf("1/2") is g.const(Q(1, 2)) is g.mpf(Q(2, 4)) is to_ctx(g, Q(1, 2))
    assert g.e is g.exp(g.one) and g.e.op == "exp"    # transcendental: not folded


@given(st.lists(st.fractions(max_denominator=10**6).filter(bool), min_size=3, max_size=3))
def test_rational_constants_fold_exactly(qs: list[Fraction]) -> None:
    a, b, c = qs
    g = Tracer()
    out = (g.mpf(a) + b * g.mpf(c) - g.mpf(a) / c) ** 2 - (-g.mpf(b)) + 3
    assert out.op == "const" and out.value == (a + b * c - a / c) ** 2 + b + 3
    assert (1 - g.mpf(a)).value == 1 - a and (c / g.mpf(b)).value == c / b


def test_constant_conversions_and_refusals() -> None:
    g = Tracer()
    assert g.mpf(mpmath.mpf(0.1)).value == Q(0.1) and g.mpf(-mpmath.mpf(0.5)).value == Q(-1, 2)
    assert g.mpf(mp.ldexp(1, -1100)).value == TWO**-1100   # the binary number an mpf holds
    assert g.mpf("0.1").value == Q(1, 10) and g.zero.value == 0 and g.one.value == 1
    x = g.var("x")
    assert x**0 is g.one and x**1 is x and +x is x
    assert g.fsum([x, 1, Q(1, 2)]).op == "add" and g.fsum([]).value == 0
    assert (g.one / 0).op == "div" and simplify(x / 0).op == "add"   # no ZeroDivisionError
    for bad in (True, 0.5, mpmath.inf, mpmath.nan, None):
        with pytest.raises(TypeError):
            g.mpf(bad)
    with pytest.raises(TypeError, match="branches on its inputs"):
        trace(lambda c, x: x if x > 0 else -x, ["x"])


REFUSED: list[tuple[Callable[[Any, Any], object], str]] = [
    *((op, "branches on its inputs") for op in (
        lambda x, y: x < y, lambda x, y: x < 1, lambda x, y: x <= 1, lambda x, y: x > 0,
        lambda x, y: x >= Q(1, 2), lambda x, y: 1 < x, lambda x, y: max(x, y))),
    (lambda x, y: bool(x), "truth value"), (lambda x, y: 1 if y else 0, "truth value"),
    (lambda x, y: x**-1, "integer powers"), (lambda x, y: x**1.5, "integer powers"),
    (lambda x, y: x**True, "integer powers"), (lambda x, y: x**y, "integer powers"),
    (lambda x, y: x + 0.5, "unsupported operand"), (lambda x, y: 0.5 * x, "unsupported operand"),
]


@pytest.mark.parametrize(("op", "message"), REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_comparisons_truth_values_and_floats_raise(op: Callable[[Any, Any], object],
                                                   message: str) -> None:
    g = Tracer()
    with pytest.raises(TypeError, match=message):
        op(g.var("x"), g.var("y"))


# ---- (d) evaluation in any context --------------------------------------------------------
def rational_margin(c: Any, x: Any, y: Any) -> Any:
    shared = x * y / (1 + x)
    return (shared + 3 * x**2 - to_ctx(c, Q(1, 3)) * y) - (shared - y / 3) + to_ctx(c, Q(1, 7))


@given(POS, SIGNED, PRECS)
def test_rational_margin_traced_and_untraced(x: Fraction, y: Fraction, prec: int) -> None:
    node = trace(rational_margin, ["x", "y"])
    assert ops(node)["div"] == 0                         # shared x y / (1 + x) cancelled
    exact = 3 * x**2 + Q(1, 7)
    env = at(prec, x=x, y=y)
    check(evaluate(node, iv, env), exact, exact * TWO ** (4 - prec))
    check(rational_margin(iv, **env), exact, (exact + 2 * abs(y)) * TWO ** (8 - prec))  # untraced
    dc = DualContext(iv, ("x", "y"))                      # the graph on dual numbers
    out = evaluate(node, dc, dict(zip(("x", "y"), dc.variables(list(env.values())), strict=True)))
    check(out.d[0], 6 * x, 6 * x * TWO ** (4 - prec))
    check(out.d[1], Q(0), Q(0))                           # y cancelled exactly: 0, not [-e, e]


def transcendental_margin(c: Any, x: Any, y: Any) -> Any:
    half = to_ctx(c, Q(1, 2))
    return (c.sqrt(x * y) + numeric.log1p(c, x) - numeric.exp(c, y) / 2
            + numeric.exp(c, y) * half + numeric.expm1(c, x) - numeric.log(c, y))


@given(SMALL, SMALL, PRECS)
def test_transcendental_margin_in_iv_balls_and_mp(x: Fraction, y: Fraction, prec: int) -> None:
    node = trace(transcendental_margin, ["x", "y"])
    assert "exp" not in ops(node) and ops(node)["expm1"] == 1
    with mp.workprec(4 * prec + 64):
        mx, my = _mp(x), _mp(y)
        parts = [mp.sqrt(mx * my), mp.log1p(mx), mp.expm1(mx), -mp.log(my)]
        ref, size = frac(mp.fsum(parts)), frac(mp.fsum(abs(p) for p in parts))
        plain_size = size + frac(mp.exp(my))           # untraced: e^y/2 - e^y/2 is not 0
    env = at(prec, x=x, y=y)
    balls().prec = prec
    for got, s in ((evaluate(node, iv, env), size), (transcendental_margin(iv, **env), plain_size),
                   (evaluate(node, balls(), {"x": balls().mpf(x), "y": balls().mpf(y)}), size)):
        check(got, ref, s * TWO ** (12 - prec), tol=size * TWO ** (-3 * prec))
    with mp.workprec(prec):
        point = evaluate(node, mp, {"x": _mp(x), "y": _mp(y)})
    assert abs(frac(point) - ref) <= size * TWO ** (8 - prec)


def test_each_node_is_evaluated_once() -> None:
    """40 shared squares (a tree of 2^40 leaves, ~80 nodes); the context counts its calls
    (``sqrt``, and ``exp`` through reference.core.numeric), failing fast on a repeat."""
    def margin(c: Any, x: Any) -> Any:
        t = x
        for _ in range(40):
            t = c.sqrt(t * t) + 0 * numeric.exp(c, x)
        return numeric.exp(c, x) - t + t + t

    calls: Counter[str] = Counter()

    def counted(name: str, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def call(x: Any) -> Any:
            calls[name] += 1
            assert calls[name] <= 40, "a node evaluated twice"
            return fn(x)
        return call

    ctx = SimpleNamespace(mpf=iv.mpf, sqrt=counted("sqrt", iv.sqrt),
                          exp=counted("exp", lambda x: numeric.exp(iv, x)))
    iv.prec = 53
    got = evaluate(trace(margin, ["x"]), ctx, {"x": iv.mpf(3)})
    assert calls == Counter(sqrt=40, exp=1)
    with mp.workprec(300):
        check(got, frac(mp.exp(3)) + 3, TWO**-40)


# ---- (g) symbolic derivatives: dual numbers over the tracer -----------------------------------
def cubic(c: Any, x: Any) -> Any:
    return x**3 + 2 * x


@given(SIGNED, PRECS)
def test_partial_of_a_cubic_is_3x2_plus_2(x: Fraction, prec: int) -> None:
    g = Tracer()
    direct = simplify(partial(g, cubic, "x", x=g.var("x")))
    via_trace = trace(lambda c, x: partial(c, cubic, "x", x=x), ["x"])
    exact = 3 * x**2 + 2
    for node in (direct, via_trace):
        assert ops(node)["var"] == 1 and "div" not in ops(node)
        check(evaluate(node, iv, at(prec, x=x)), exact, exact * TWO ** (6 - prec))
    assert (partial(g, cubic, "x", x=g.var("x"))) is partial(g, cubic, "x", x=g.var("x"))


def log_margin(c: Any, x: Any, y: Any) -> Any:
    return x * numeric.log1p(c, x * y) + c.sqrt(x) * numeric.exp(c, y) - y / x


@given(SMALL, st.fractions(Q(-1, 16), 4, max_denominator=10**9), PRECS)
def test_partials_of_a_transcendental_formula(x: Fraction, y: Fraction, prec: int) -> None:
    with mp.workprec(4 * prec + 64):
        mx, my = _mp(x), _mp(y)
        dx = [mp.log1p(mx * my), mx * my / (1 + mx * my), mp.exp(my) / (2 * mp.sqrt(mx)),
              my / mx**2]
        dy = [mx**2 / (1 + mx * my), mp.sqrt(mx) * mp.exp(my), -1 / mx]
        refs = {n: (frac(mp.fsum(d)), frac(mp.fsum(map(abs, d))))
                for n, d in (("x", dx), ("y", dy))}
    env = at(prec, x=x, y=y)
    dc = DualContext(iv, ("x", "y"))
    untraced = log_margin(dc, *dc.variables([env["x"], env["y"]]))   # both partials at once
    for i, (name, (ref, size)) in enumerate(refs.items()):
        node = trace(lambda c, x, y, name=name: partial(c, log_margin, name, x=x, y=y),
                     ["x", "y"])
        for got in (evaluate(node, iv, env), untraced.d[i]):
            check(got, ref, size * TWO ** (16 - prec), tol=size * TWO ** (-3 * prec))


@given(SIGNED, SIGNED)
def test_nodes_and_duals_mix(k: Fraction, x: Fraction) -> None:
    """Node (op) Dual falls through to the dual's reflected operators."""
    g = Tracer()
    dc = DualContext(g, ("x",))
    (xd,) = dc.variables([g.var("x")])
    kn = g.var("k")
    out = kn * xd + xd * kn + kn - xd + kn / xd
    size = abs(k * x * 2) + abs(k) + abs(x) + abs(k / x) + abs(k / x**2) + 1
    for node, exact in ((simplify(out.v), k * x * 2 + k - x + k / x),
                        (simplify(out.d[0]), 2 * k - 1 - k / x**2)):
        check(evaluate(node, iv, at(53, x=x, k=k)), exact, size * TWO**-48)


def test_traced_is_cached_per_relation() -> None:
    rel, other = (relation("T:cache", statement="x > 0", kind="ordering", uses=(), source="test",
                           domain={"x": ("1/2", "2")})(lambda c, x: (c.sqrt(x) + x) - c.sqrt(x))
                  for _ in "ab")
    assert traced(rel) is traced(rel) is not traced(other) and "sqrt" not in ops(traced(rel))
    check(evaluate(traced(rel), iv, at(53, x=Q(1, 3))), Q(1, 3), TWO**-52)
