"""The normal tail ``Q(x) = P[N(0, 1) > x]`` in the prover's contexts: the tracer records it
as a node, the dual numbers carry its derivative ``-exp(-x^2/2)/sqrt(2 pi)`` and the arb
balls enclose it with Arb's ``erfc``.  Expected values are mpmath's ``erfc`` and ``exp`` at
four times the working precision (a library the balls do not use), derivatives by hand."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from proofs_tests.core.test_dual import _base, _box, _ends
from reference.core import special
from reference.core.balls import balls, ends
from reference.core.dual import DualContext
from reference.core.trace import Tracer, evaluate, trace

B = balls()
TWO = Fraction(2)
Q = Fraction
PRECS = st.sampled_from([53, 100, 160])
#: Arguments from the far left tail (Q ~ 1) to the far right one (Q ~ 1e-300 and below),
#: with tiny magnitudes around 0.
POINTS = st.one_of(st.fractions(-40, 40, max_denominator=10**6),
                   st.integers(1, 1000).map(lambda k: TWO**-k),
                   st.integers(1, 1000).map(lambda k: -(TWO**-k)),
                   st.integers(38, 1000).map(Q), st.just(Q(0)))



def _mp(q: Fraction) -> Any:
    return mp.mpf(q.numerator) / q.denominator


def exact_q(x: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """``Q(x)`` and the normal density at ``x`` from mpmath at ``4 prec + 64`` bits."""
    with mp.workprec(4 * prec + 64):
        u = _mp(x)
        return (frac(mp.erfc(u / mp.sqrt(2)) / 2),
                frac(mp.exp(-u * u / 2) / mp.sqrt(2 * mp.pi)))


def _contains(x: Any, exact: Fraction, rel: Fraction) -> None:
    """``x`` contains ``exact`` (known to a relative 2^-150) and is within ``rel`` of it."""
    lo, hi = _ends(x)
    tol = abs(exact) * TWO**-150
    assert lo <= exact + tol and exact - tol <= hi, (lo, exact, hi)
    assert exact - lo <= abs(exact) * rel + tol and hi - exact <= abs(exact) * rel + tol


@given(PRECS, POINTS, POINTS)
@example(prec=53, a=Q(0), b=Q(26701631, 667541))     # b ~ 40, not binary: rounded on entry
def test_balls_enclose_q_at_both_ends_and_are_tight(prec: int, a: Fraction, b: Fraction) -> None:
    """``Q`` is decreasing: the interval ``[a, b]`` goes to ``[Q(b), Q(a)]``.  A rational
    that is not binary enters rounded to ``prec`` bits, and Q's relative condition number
    ``~ x^2`` widens that: the tightness allowed is ``(1 + x^2) 2^(12 - prec)``."""
    a, b = sorted((a, b))
    B.prec = prec
    got = B.normal_sf((a, b))
    lo, hi = ends(got)
    qa, qb = exact_q(a, prec)[0], exact_q(b, prec)[0]
    rel_a, rel_b = ((1 + x * x) * TWO ** (12 - prec) for x in (a, b))
    _contains(B.normal_sf((b, b)), qb, rel_b)
    _contains(B.normal_sf((a, a)), qa, rel_a)
    assert lo <= qb and qa <= hi
    assert qb - lo <= qb * rel_b and hi - qa <= qa * rel_a


@pytest.mark.parametrize(("a", "b"), [(Q(0), Q(10**4)), (Q(1, 2), Q(3000)), (Q(-10**4), Q(5))])
def test_balls_q_far_out_keeps_its_relative_accuracy(a: Fraction, b: Fraction) -> None:
    """``Q(10^4)`` (about e^-(5e7)) is as tight as ``Q(1)``: the guard bits follow the end of
    largest magnitude, whichever end it is (at 53 bits without them the relative error of
    ``Q(10^4)`` is about ``10^8 2^-63``)."""
    B.prec = 53
    lo, hi = ends(B.normal_sf((a, b)))
    qa, qb = exact_q(a, 53)[0], exact_q(b, 53)[0]
    assert qb * (1 - TWO**-45) <= lo <= qb and qa <= hi <= qa * (1 + TWO**-45)


def test_balls_q_at_known_points_and_pi() -> None:
    B.prec = 53
    lo, hi = ends(B.normal_sf(0))
    assert lo <= Q(1, 2) <= hi and hi - lo <= TWO**-50
    lo, hi = ends(B.normal_sf((-1, 1)))                  # [Q(1), Q(-1)] = [0.1586.., 0.8413..]
    assert Q(158655, 10**6) < lo < Q(158656, 10**6) and Q(841344, 10**6) < hi < Q(841345, 10**6)
    lo, hi = ends(B.normal_sf(-1000))                    # 1 - Q(1000), Q(1000) ~ 1e-217147
    assert lo <= 1 <= hi and lo > 1 - TWO**-50
    lo, hi = ends(B.normal_sf(1000))
    assert 0 < lo and hi < Q(1, 10**217000)
    lo, hi = ends(B.pi)
    with mp.workprec(300):
        pi = frac(mp.pi)
    assert lo <= pi <= hi and hi - lo <= pi * TWO**-50


@given(st.sampled_from(["iv", "balls"]), PRECS,
       st.one_of(st.fractions(-30, 30, max_denominator=10**6),
                 st.integers(1, 1000).map(lambda k: TWO**-k)),
       st.sampled_from([Q(1), Q(2), Q(-1, 4)]))
def test_dual_q_value_and_derivative_with_the_chain_rule(base_name: str, prec: int,
                                                         u: Fraction, c: Fraction) -> None:
    """d/dt Q(c t) = -c phi(c t); through :func:`special.normal_sf` (the dispatch) and the
    context's own method alike."""
    base = _base(base_name, prec)
    dc = DualContext(base, ("t",))
    (t,) = dc.variables([_box(base, u / c)])
    value, density = exact_q(u, prec)
    for out in (dc.normal_sf(c * t), special.normal_sf(dc, c * t)):
        _contains(out.v, value, TWO ** (14 - prec))
        _contains(out.d[0], -c * density, TWO ** (14 - prec))


@given(st.sampled_from(["iv", "balls"]), st.fractions(-6, 6, max_denominator=10**4),
       st.integers(4, 30), st.lists(st.fractions(0, 1, max_denominator=10**4), min_size=1,
                                    max_size=4))
def test_dual_q_over_a_box_contains_every_point_value_and_slope(
        base_name: str, x0: Fraction, k: int, inner: list[Fraction]) -> None:
    base = _base(base_name, 53)
    w = TWO**-k
    dc = DualContext(base, ("x",))
    (x,) = dc.variables([_box(base, x0, x0 + w)])
    out = dc.normal_sf(x)
    (vlo, vhi), (dlo, dhi) = _ends(out.v), _ends(out.d[0])
    for s in [Q(0), Q(1), *inner]:
        value, density = exact_q(x0 + s * w, 53)
        assert vlo <= value <= vhi and dlo <= -density <= dhi
    assert dhi < 0 and dhi - dlo <= 4 * w + TWO**-40   # |phi'| <= 1/sqrt(2 pi e) < 1/4


def test_the_tracer_records_q_and_pi_and_cancels_equal_tails() -> None:
    g = Tracer()
    x = g.var("x")
    assert special.normal_sf(g, x) is g.normal_sf(x)          # one node per operation
    assert special.normal_sf(g, x).op == "normal_sf" and g.pi.op == "pi" and g.pi is g.pi
    node = trace(lambda ctx, x: special.normal_sf(ctx, x) - special.normal_sf(ctx, x) + 1, ["x"])
    assert node.op == "const" and node.value == 1


@given(st.fractions(-20, 20, max_denominator=10**6), PRECS)
def test_a_traced_margin_with_q_in_iv_balls_mp_and_duals(x: Fraction, prec: int) -> None:
    """``Q(x) - Q(x + 1) + x/pi`` traced, then evaluated in every context."""
    def margin(ctx: Any, x: Any) -> Any:
        return special.normal_sf(ctx, x) - special.normal_sf(ctx, x + 1) + x / ctx.pi

    node = trace(margin, ["x"])
    with mp.workprec(4 * prec + 64):
        u = _mp(x)
        ref = frac(mp.erfc(u / mp.sqrt(2)) / 2 - mp.erfc((u + 1) / mp.sqrt(2)) / 2 + u / mp.pi)
        slope = frac((mp.exp(-(u + 1) ** 2 / 2) - mp.exp(-u * u / 2)) / mp.sqrt(2 * mp.pi)
                     + 1 / mp.pi)
    size = abs(ref) + 1
    for base_name in ("iv", "balls"):
        base = _base(base_name, prec)
        got = _ends(evaluate(node, base, {"x": _box(base, x)}))
        assert got[0] <= ref + size * TWO**-150 and ref - size * TWO**-150 <= got[1]
        assert got[1] - got[0] <= size * TWO ** (12 - prec)
        dc = DualContext(base, ("x",))
        (v,) = dc.variables([_box(base, x)])
        d = _ends(evaluate(node, dc, {"x": v}).d[0])
        assert d[0] - TWO**-150 <= slope <= d[1] + TWO**-150
        assert d[1] - d[0] <= (abs(slope) + 1) * TWO ** (12 - prec)
    with mp.workprec(prec):
        point = frac(evaluate(node, mp, {"x": _mp(x)}))
    assert abs(point - ref) <= size * TWO ** (12 - prec)


def test_only_contexts_with_their_own_q_get_the_call_passed_on() -> None:
    """``mp`` and ``iv`` take special's own route; any other context with a ``normal_sf``
    method gets the call."""
    class Own:
        def normal_sf(self, x: object) -> tuple[str, object]:
            return ("own", x)

    assert special.normal_sf(Own(), 3) == ("own", 3)   # type: ignore[arg-type]
    assert not hasattr(type(mp), "normal_sf") and not hasattr(type(iv), "normal_sf")
    with mp.workdps(30):
        assert abs(special.normal_sf(mp, mp.mpf(1)) - mp.mpf("0.158655253931457051414767454")) \
            < mp.mpf(10) ** -27


@pytest.mark.parametrize(("a", "b"), [(Q(570386656401), Q(6623458045722624)),
                                      (Q(10**15), Q(10**15) + Q(1, 3)),
                                      (-Q(10**16), -Q(10**15))])
def test_balls_q_of_a_wide_ball_far_out_keeps_positive_tight_ends(a: Fraction, b: Fraction
                                                                  ) -> None:
    """Arb's erfc of a ball that is not a point is only ``[+/- bound]`` from about 10^15 on:
    ``Q([5.7e11, 6.6e15])`` had a negative lower end, and the prover could not show the
    Gaussian's ``e^eps Q(b) > 0``.  The ends now come from erfc at exact points: each
    encloses mpmath's ``erfc`` at 500 bits (exponents near -10^31) on its side, as tight as
    the rounding of a non-binary end allows (``(1 + x^2) 2^(12 - prec)``, as above)."""
    B.prec = 150
    got = B.normal_sf((a, b))
    for end, x, side in ((got.lo, b, -1), (got.hi, a, 1)):
        man, exp = end.mid().man_exp()
        with mp.workprec(500):
            v = mp.mpf((int(man), int(exp)))
            xv = mp.mpf(x.numerator) / x.denominator
            want = mp.erfc(xv / mp.sqrt(2)) / 2
            assert want > 0 and side * (v - want) >= -want * mp.mpf(2) ** -400
            assert abs(v - want) <= want * (1 + xv * xv) * mp.mpf(2) ** (12 - 150)
    assert got.lo.mid() > 0
