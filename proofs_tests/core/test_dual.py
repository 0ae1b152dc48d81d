"""``reference.core.dual``: forward-mode derivative enclosures over ``iv`` and arb balls.

Expected values and derivatives come from an independent route: the derivatives are
written out by hand and evaluated exactly with ``Fraction`` (rational formulas) or with
mpmath's point arithmetic at four times the working precision (``exp``, ``log``, ...).
Every check is two-sided: the enclosure contains the exact value, and its width is at most
a stated multiple of ``2^-prec`` of the size of the terms (a point), or of the box width.
Over a box the gradient enclosure must contain the exact gradient at every sampled point of
the box (the mean-value use the prover makes of it).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core import numeric
from reference.core.balls import balls, ends
from reference.core.dual import Dual, DualContext, value_of
from reference.core.numeric import endpoints, to_ctx

B = balls()
BASES = st.sampled_from(["iv", "balls"])
PRECS = st.sampled_from([53, 100, 160])
TWO = Fraction(2)
Q = Fraction



def _base(name: str, prec: int) -> Any:
    base = iv if name == "iv" else B
    base.prec = prec
    return base


def _box(base: Any, lo: Fraction, hi: Fraction | None = None) -> Any:
    """A base number enclosing ``[lo, hi]`` (the point ``lo`` when ``hi`` is None)."""
    hi = lo if hi is None else hi
    if base is iv:
        return iv.mpf((endpoints(to_ctx(iv, lo)).lo, endpoints(to_ctx(iv, hi)).hi))
    return B.mpf((lo, hi))


def _ends(x: Any) -> tuple[Fraction, Fraction]:
    if isinstance(x, iv.mpf):
        e = endpoints(x)
        return frac(e.lo), frac(e.hi)
    return ends(x)


def _check(x: Any, exact: Fraction, width: Fraction, tol: Fraction | int = 0) -> None:
    """``x`` contains ``exact`` (known to ``+- tol``) and is at most ``width`` wide."""
    lo, hi = _ends(x)
    assert lo <= exact + tol and exact - tol <= hi, (lo, exact, hi)
    assert hi - lo <= width, (hi - lo, width)


def _mp(q: Fraction) -> Any:
    return mp.mpf(q.numerator) / q.denominator


# ---- rational formulas: exact Fraction derivatives -----------------------------------------


def rational_f(c: Any, x: Any, y: Any) -> Any:
    """Every operator, with int and Fraction constants mixed in on both sides."""
    return x * y / (1 + x) - Q(2, 7) * x**3 + 3 * y**-2 + (1 - x / y) + Q(1, 3) / x


def rational_terms(x: Fraction, y: Fraction) -> list[tuple[Fraction, Fraction, Fraction]]:
    """(value, d/dx, d/dy) of each term of :func:`rational_f`, by hand."""
    return [(x * y / (1 + x), y / (1 + x) ** 2, x / (1 + x)),
            (-Q(2, 7) * x**3, -Q(6, 7) * x**2, Q(0)),
            (3 / y**2, Q(0), -6 / y**3),
            (1 - x / y, -1 / y, x / y**2),
            (1 / (3 * x), -1 / (3 * x**2), Q(0))]


SIDE = st.fractions(Q(1, 16), 16, max_denominator=10**6)
SIGNED = st.one_of(SIDE, SIDE.map(lambda q: -q))


@given(BASES, PRECS, SIDE, SIGNED)
def test_rational_formula_value_and_gradient_at_points(base_name: str, prec: int,
                                                       x: Fraction, y: Fraction) -> None:
    base = _base(base_name, prec)
    dc = DualContext(base, ("x", "y"))
    out = rational_f(dc, *dc.variables([_box(base, x), _box(base, y)]))
    terms = rational_terms(x, y)
    for k, got in enumerate((out.v, *out.d)):
        exact = sum(t[k] for t in terms)
        scale = sum(abs(t[k]) for t in terms)
        _check(got, exact, scale * TWO ** (20 - prec))


@given(BASES, SIDE, SIDE, st.integers(4, 30), st.data())
def test_rational_gradient_over_a_box_contains_every_point_gradient(
        base_name: str, x0: Fraction, y0: Fraction, k: int, data: st.DataObject) -> None:
    base = _base(base_name, 53)
    w = TWO**-k
    dc = DualContext(base, ("x", "y"))
    out = rational_f(dc, *dc.variables([_box(base, x0, x0 + w), _box(base, y0, y0 + w)]))
    corners = [(x0, y0), (x0 + w, y0 + w), (x0, y0 + w), (x0 + w, y0)]
    inner = data.draw(st.lists(st.tuples(*(st.fractions(0, 1, max_denominator=10**4),) * 2),
                               min_size=2, max_size=4))
    for px, py in corners + [(x0 + s * w, y0 + t * w) for s, t in inner]:
        terms = rational_terms(px, py)
        for k_, got in enumerate((out.v, *out.d)):
            lo, hi = _ends(got)
            assert lo <= sum(t[k_] for t in terms) <= hi
    # tight: shrinks with the box (bound 8x the widest seen in 800 random boxes)
    scale = sum(abs(t[1]) + abs(t[2]) for t in rational_terms(x0 + w, y0 + w))
    for got in out.d:
        lo, hi = _ends(got)
        assert hi - lo <= 2**8 * (w * (1 + scale) / min(x0, y0) ** 2 + scale * TWO**-40)


CONSTANT_MIXES: list[tuple[str, Callable[[Any], Any], Callable[[Q], tuple[Q, Q]]]] = [
    ("q+x", lambda x: Q(1, 3) + x, lambda x: (Q(1, 3) + x, Q(1))),
    ("x-q", lambda x: x - Q(1, 3), lambda x: (x - Q(1, 3), Q(1))),
    ("2-x", lambda x: 2 - x, lambda x: (2 - x, Q(-1))),
    ("x*q", lambda x: x * Q(2, 3), lambda x: (2 * x / 3, Q(2, 3))),
    ("q/x", lambda x: Q(1, 3) / x, lambda x: (1 / (3 * x), -1 / (3 * x * x))),
    ("x/3", lambda x: x / 3, lambda x: (x / 3, Q(1, 3))),
    ("-x", lambda x: -x, lambda x: (-x, Q(-1))),
    ("x**-3", lambda x: x**-3, lambda x: (x**-3, -3 * x**-4)),
    ("x*x*x-x", lambda x: x * x * x - x, lambda x: (x**3 - x, 3 * x * x - 1)),
    ("(x+1)/(x-5)", lambda x: (x + 1) / (x - 5), lambda x: ((x + 1) / (x - 5), -6 / (x - 5) ** 2)),
]


@pytest.mark.parametrize(("label", "fn", "exact"), CONSTANT_MIXES,
                         ids=[m[0] for m in CONSTANT_MIXES])
@given(base_name=BASES, x=SIGNED)
def test_each_operator_with_constants(label: str, fn: Callable[[Any], Any],
                                      exact: Callable[[Q], tuple[Q, Q]], base_name: str,
                                      x: Fraction) -> None:
    base = _base(base_name, 53)
    (v,) = DualContext(base, ("x",)).variables([_box(base, x)])
    out = fn(v)
    for got, want in zip((out.v, out.d[0]), exact(x), strict=True):
        _check(got, want, (1 + abs(want)) * TWO**-40)


@given(BASES, PRECS, st.integers(-6, 6), SIGNED, st.sampled_from([0, -300, 300]))
def test_integer_powers(base_name: str, prec: int, n: int, x: Fraction, shift: int) -> None:
    x = x * TWO**shift                               # tiny and huge bases too
    base = _base(base_name, prec)
    dc = DualContext(base, ("x", "y"))
    v, w = dc.variables([_box(base, x), _box(base, Q(3, 2))])
    out = v**n
    _check(out.v, x**n, abs(x**n) * TWO ** (8 - prec))
    _check(out.d[0], n * x ** (n - 1), abs(n * x ** (n - 1)) * TWO ** (8 - prec))
    _check(out.d[1], Q(0), Q(0))                     # exactly 0: y is not involved
    prod = (v * w) ** 3                              # d/dy (x y)^3 = 3 x^3 y^2
    _check(prod.d[1], 3 * x**3 * Q(9, 4), abs(x) ** 3 * 7 * TWO ** (8 - prec))


# ---- transcendental functions: mpmath at 4x precision ---------------------------------------


def transcendental_f(c: Any, x: Any, y: Any) -> Any:
    """``exp``, ``log``, ``expm1``, ``log1p`` reached through reference.core.numeric (which
    defers to ``c``), ``sqrt`` through the context."""
    return (x * y / (1 + x) + numeric.exp(c, x) * c.sqrt(y) + numeric.log1p(c, x * y)
            - numeric.expm1(c, x / y) + numeric.log(c, y) * x**2)


def transcendental_terms(x: Any, y: Any) -> list[tuple[Any, Any, Any]]:
    """(value, d/dx, d/dy) of each term of :func:`transcendental_f`, by hand, in mp."""
    ex, ry = mp.exp(x), mp.sqrt(y)
    return [(x * y / (1 + x), y / (1 + x) ** 2, x / (1 + x)),
            (ex * ry, ex * ry, ex / (2 * ry)),
            (mp.log1p(x * y), y / (1 + x * y), x / (1 + x * y)),
            (-mp.expm1(x / y), -mp.exp(x / y) / y, mp.exp(x / y) * x / y**2),
            (mp.log(y) * x**2, 2 * x * mp.log(y), x**2 / y)]


def _reference(x: Fraction, y: Fraction, prec: int) -> list[tuple[Fraction, Fraction]]:
    """Per component: the exact value (to within 2^-(3 prec) of the terms' size), the size."""
    with mp.workprec(4 * prec + 64):
        terms = transcendental_terms(_mp(x), _mp(y))
        return [(frac(mp.fsum(t[k] for t in terms)), frac(mp.fsum(abs(t[k]) for t in terms)))
                for k in range(3)]


XS = st.one_of(st.fractions(Q(1, 16), 4, max_denominator=10**6),
               st.integers(100, 1000).map(lambda k: TWO**-k))        # tiny, down to 1e-300
YS = st.fractions(Q(1, 16), 4, max_denominator=10**6)


@given(BASES, PRECS, XS, YS)
def test_transcendental_formula_at_points(base_name: str, prec: int, x: Fraction,
                                          y: Fraction) -> None:
    base = _base(base_name, prec)
    dc = DualContext(base, ("x", "y"))
    out = transcendental_f(dc, *dc.variables([_box(base, x), _box(base, y)]))
    for got, (exact, scale) in zip((out.v, *out.d), _reference(x, y, prec), strict=True):
        _check(got, exact, scale * TWO ** (20 - prec), tol=scale * TWO ** (-3 * prec))


@given(BASES, st.fractions(Q(1, 16), 2, max_denominator=10**6), YS, st.integers(6, 40),
       st.lists(st.tuples(*(st.fractions(0, 1, max_denominator=10**4),) * 2),
                min_size=2, max_size=4))
def test_transcendental_gradient_over_a_box_contains_every_point_gradient(
        base_name: str, x0: Fraction, y0: Fraction, k: int,
        inner: list[tuple[Fraction, Fraction]]) -> None:
    base = _base(base_name, 53)
    w = TWO**-k
    dc = DualContext(base, ("x", "y"))
    out = transcendental_f(dc, *dc.variables([_box(base, x0, x0 + w), _box(base, y0, y0 + w)]))
    points = [(x0, y0), (x0 + w, y0 + w), (x0, y0 + w), (x0 + w, y0)]
    for px, py in points + [(x0 + s * w, y0 + t * w) for s, t in inner]:
        for got, (exact, scale) in zip((out.v, *out.d), _reference(px, py, 53), strict=True):
            lo, hi = _ends(got)
            assert lo <= exact + scale * TWO**-159 and exact - scale * TWO**-159 <= hi
    scale = _reference(x0 + w, y0 + w, 53)[1][1] + _reference(x0 + w, y0 + w, 53)[2][1]
    for got in out.d:
        lo, hi = _ends(got)
        assert hi - lo <= 2**11 * (w * (1 + scale) / y0**3 + scale * TWO**-40)   # 16x seen


def _fprime(name: str, u: Any) -> Any:
    return {"sqrt": lambda: 1 / (2 * mp.sqrt(u)), "exp": lambda: mp.exp(u),
            "expm1": lambda: mp.exp(u), "log": lambda: 1 / u, "log1p": lambda: 1 / (1 + u)}[name]()


ORDINARY = st.fractions(Q(-1, 2), 8, max_denominator=10**9)
UNARY_POINTS = {   # inner argument u; near the domain boundaries u is binary (exact)
    "sqrt": st.one_of(ORDINARY.filter(lambda u: u > 0),
                      st.integers(1, 1000).map(lambda k: TWO**-k)),
    "exp": st.one_of(ORDINARY, st.integers(1, 700).map(lambda k: Q(k)),
                     st.integers(1, 1000).map(lambda k: -(TWO**-k))),
    "expm1": st.one_of(ORDINARY, st.just(Q(0)), st.integers(1, 1000).map(lambda k: TWO**-k),
                       st.integers(1, 1000).map(lambda k: -(TWO**-k))),
    "log": st.one_of(ORDINARY.filter(lambda u: u > 0), st.integers(1, 1000).map(lambda k: TWO**-k),
                     st.integers(2, 50).map(lambda k: 1 + TWO**-k)),
    "log1p": st.one_of(ORDINARY, st.just(Q(0)), st.integers(1, 50).map(lambda k: -1 + TWO**-k),
                       st.integers(1, 1000).map(lambda k: -(TWO**-k))),
}


@given(BASES, PRECS, st.sampled_from(sorted(UNARY_POINTS)), st.data(),
       st.sampled_from([Q(1), Q(2), Q(-1, 4)]), st.booleans())
def test_each_function_rule_with_the_chain_rule(base_name: str, prec: int, name: str,
                                                data: st.DataObject, c: Fraction,
                                                through_numeric: bool) -> None:
    """d/dt f(c t) = c f'(c t); ``c`` a power of 2 (up to sign), so ``c t`` stays exact."""
    u = data.draw(UNARY_POINTS[name])
    base = _base(base_name, prec)
    dc = DualContext(base, ("t",))
    (t,) = dc.variables([_box(base, u / c)])
    if through_numeric and name != "sqrt":           # numeric.exp(ctx, x) defers to ctx.exp
        out = getattr(numeric, name)(dc, c * t)
    else:
        out = getattr(dc, name)(c * t)
    with mp.workprec(4 * prec + 64):
        value, slope = frac(getattr(mp, name)(_mp(u))), frac(c * _fprime(name, _mp(u)))
    for got, want in ((out.v, value), (out.d[0], slope)):
        _check(got, want, abs(want) * TWO ** (12 - prec), tol=abs(want) * TWO ** (-3 * prec))


def test_wide_box_over_balls_keeps_finite_ends_and_the_sign() -> None:
    """Over d in [1e-15, 1/2]: d/dd log d = 1/d is enclosed tightly; log(1/d) meets the
    dependency problem (1/d and its slope are enclosed apart) but its slope enclosure keeps
    finite ends, the right sign and every point's slope."""
    dc = DualContext(B, ("d",))
    B.prec = 53
    (d,) = dc.variables([B.mpf((Q(1, 10**15), Q(1, 2)))])
    lo, hi = _ends(dc.log(d).d[0])
    assert 2 * (1 - TWO**-50) <= lo <= 2 and 10**15 <= hi <= 10**15 * (1 + TWO**-50)
    out = dc.log(1 / d)
    lo, hi = _ends(out.d[0])
    assert -(10**30) * (1 + TWO**-40) <= lo <= -(10**15) and -2 <= hi < 0
    assert 0 < _ends(out.v)[0]
    for p in (Q(1, 10**15), Q(1, 3), Q(1, 2), Q(7, 10**9)):
        assert lo <= -1 / p <= hi


# ---- refusals, context helpers ------------------------------------------------------------


REFUSED: list[Callable[[Any, Any], object]] = [
    lambda x, y: x < y, lambda x, y: x < 1, lambda x, y: x <= 1, lambda x, y: x > 0,
    lambda x, y: x >= Q(1, 2), lambda x, y: 1 < x, lambda x, y: bool(x), lambda x, y: max(x, y),
    lambda x, y: 1 if y else 0, lambda x, y: x**0.5, lambda x, y: x**True,
    lambda x, y: x ** Q(1, 2), lambda x, y: x**y,
]


@pytest.mark.parametrize("base_name", ["iv", "balls"])
@pytest.mark.parametrize("op", REFUSED, ids=[str(i) for i in range(len(REFUSED))])
def test_comparisons_truth_values_and_non_integer_powers_raise(base_name: str,
                                                               op: Callable[..., object]) -> None:
    """The module's own refusals (not Python's fallback for a missing operator)."""
    base = _base(base_name, 53)
    x, y = DualContext(base, ("x", "y")).variables([_box(base, Q(1)), _box(base, Q(2))])
    with pytest.raises(TypeError, match=r"branches on its inputs|truth value|integer powers"):
        op(x, y)


@pytest.mark.parametrize("base_name", ["iv", "balls"])
def test_context_helpers(base_name: str) -> None:
    base = _base(base_name, 100)
    dc = DualContext(base, ("x", "y"))
    assert dc.prec == 100
    dc.prec = 120
    assert base.prec == 120 and dc.prec == 120
    x, y = dc.variables([_box(base, Q(1, 3)), _box(base, Q(5))])
    with mp.workprec(600):
        e = frac(mp.e)
    _check(dc.e.v, e, TWO**-110)
    for z in (dc.e, dc.zero, dc.one, to_ctx(dc, Q(1, 3)), dc.mpf(7)):
        assert [_ends(g) for g in z.d] == [(0, 0), (0, 0)]
    assert _ends(dc.zero.v) == (0, 0) and _ends(dc.one.v) == (1, 1)
    assert dc.mpf(x) is x and +x is x and value_of(x) is x.v and value_of(x.v) is x.v
    total = dc.fsum([x, y, 1, Q(1, 2), y])
    _check(total.v, Q(1, 3) + 10 + Q(3, 2), TWO**-110)
    assert [_ends(g) for g in total.d] == [(1, 1), (2, 2)]
    assert [_ends(g) for g in x.d] == [(1, 1), (0, 0)]
    assert isinstance(x**0, Dual) and _ends((x**0).v) == (1, 1)
