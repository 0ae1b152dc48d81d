"""The pieces of the four-point proof (:mod:`reference.results.dpsgd.rdp_minimum`) one by
one, where the whole proof hides them: its bound is the least of several pieces, so a piece
made too high rarely binds on a convex function (test_rdp_minimum_proof.py checks the whole).
Here each piece gets exact rational inputs and is compared with its definition evaluated in
``Fraction`` arithmetic (two-sided: at most the exact value, within 2^-180 of it), and
:func:`_lower` is watched through the points it evaluates (the layout, the widening, the
top and bottom cases, the conditions at exact equality)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mpmath import iv

from proofs_tests.arb_support import frac
from reference.core.numeric import to_ctx
from reference.results import covers
from reference.results.dpsgd import rdp_minimum as rm

F = Fraction
#: The documented search range [1 + 2^-512, 256] (literals: a changed constant shows).
TOP = F(256)
BOTTOM = 1 + F(2) ** -512
TOL = F(2) ** -180


def _q(x: Fraction) -> Any:
    return to_ctx(iv, x)


def _close_below(got: Any, want: Fraction) -> None:
    g = frac(got)
    assert g <= want and want - g <= TOL * max(1, abs(want)), (g, want)


def _line_want(h0: Fraction, slope: Fraction, p0: Fraction, ends: tuple[Fraction, Fraction],
               ratio: bool) -> Fraction:
    vals = [(h0 + slope * (a - p0)) / ((a - 1) if ratio else 1) for a in ends]
    return min(vals)


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize(("h0", "slope", "p0", "ends"), [
    (F(3), F(-2), F(5), (F(4), F(7))),           # 5 and -1: the right end is least
    (F(3), F(2), F(5), (F(4), F(7))),            # 1 and 7: the left end is least
    (F(2), F(1, 8), F(2), (F(2), F(10))),        # 2 and 3; over alpha - 1: 2 and 3/9
])
@pytest.mark.parametrize("ratio", [False, True])
def test_line_min_is_the_least_end_of_the_line(h0: Fraction, slope: Fraction, p0: Fraction,
                                               ends: tuple[Fraction, Fraction],
                                               ratio: bool) -> None:
    with rm.at_bits(iv, 200):
        got = rm._line_min(iv, _q(h0), _q(slope), p0, ends, ratio)
    _close_below(got, _line_want(h0, slope, p0, ends, ratio))


def _mix_want(hs: list[Fraction], s01: Fraction, s23: Fraction, ps: list[Fraction],
              ratio: bool) -> Fraction:
    """The definition: the combination ``lam`` of the two secants whose slope is the
    target's (0, or ``h(p1)/(p1 - 1)`` for the ratio form), ``lam`` in [0, 1]; its least
    value at ``p1`` or ``p2``."""
    target = hs[1] / (ps[1] - 1) if ratio else F(0)
    lam = F(1, 2) if s23 == s01 else min(max((s23 - target) / (s23 - s01), F(0)), F(1))
    vals = []
    for a in (ps[1], ps[2]):
        line = lam * (hs[0] + s01 * (a - ps[0])) + (1 - lam) * (hs[2] + s23 * (a - ps[2]))
        vals.append(line / (a - 1) if ratio else line)
    return min(vals)


PS = [F(3), F(4), F(6), F(9)]


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize(("hs", "s01", "s23"), [
    ([F(7), F(5), F(4), F(6)], F(-2), F(3)),        # lam = 3/5
    ([F(7), F(5), F(4), F(6)], F(-2), F(-2)),       # equal slopes: lam = 1/2
    ([F(7), F(5), F(4), F(6)], F(-2), F(-1)),       # (s1 - 0)/(s1 - s0) = -1: lam = 0
    ([F(7), F(5), F(4), F(6)], F(1), F(3)),         # 3/2: lam = 1
    ([F(7), F(5), F(13, 2), F(6)], F(-1, 2), F(5)),  # lam = 10/11, the lines cross
])
@pytest.mark.parametrize("ratio", [False, True])
def test_mix_is_the_combination_of_secants_with_the_target_slope(
        hs: list[Fraction], s01: Fraction, s23: Fraction, ratio: bool) -> None:
    with rm.at_bits(iv, 200):
        got = rm._mix(iv, [_q(h) for h in hs], _q(s01), _q(s23), PS, ratio)
    _close_below(got, _mix_want(hs, s01, s23, PS, ratio))


def _recording(h: Any) -> tuple[Any, list[Fraction]]:
    seen: list[Fraction] = []

    def g(ctx: Any, alpha: Fraction) -> Any:
        seen.append(alpha)
        return h(ctx, alpha)
    return g, seen


def _parabola(c: Fraction, k: Fraction = Fraction(1)) -> Any:
    def h(ctx: Any, alpha: Fraction) -> Any:
        return to_ctx(ctx, k * (alpha - c) ** 2)
    return h


def _flat(ctx: Any, alpha: Fraction) -> Any:
    return to_ctx(ctx, F(3))


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_lower_widens_six_times_then_gives_up() -> None:
    """A constant shows no minimum between any four points: six rounds of four points,
    the spacing 2^6 times wider each round, then None."""
    a_hat = F(17, 2)
    g, seen = _recording(_flat)
    with rm.at_bits(iv, rm._IV_BITS):
        assert rm._lower(iv, g, False, a_hat, TOP) is None
    want = []
    for k in range(6):
        w = (a_hat - 1) * F(2) ** (-rm._SPACING + 6 * k)
        want += [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
    assert seen == want


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_lower_of_a_parabola_at_its_vertex_is_the_exact_three_piece_bound() -> None:
    """At the vertex of ``(alpha - c)^2`` the four points are decided at once; the bound is
    the least of the middle combination and the two extended secants, by their definitions
    (a parabola's secants meet the pieces' ends below it, so each piece counts)."""
    c = F(17, 2)
    w = (c - 1) * F(2) ** -rm._SPACING
    ps = [c - 3 * w / 2, c - w / 2, c + w / 2, c + 3 * w / 2]
    h = _parabola(c)
    g, seen = _recording(h)
    with rm.at_bits(iv, 400):
        got = rm._lower(iv, g, False, c, TOP)
    assert seen == ps
    hs = [(p - c) ** 2 for p in ps]
    s01, s23 = (hs[1] - hs[0]) / (ps[1] - ps[0]), (hs[3] - hs[2]) / (ps[3] - ps[2])
    want = min(_mix_want(hs, s01, s23, ps, False),
               _line_want(hs[2], s23, ps[2], (ps[0], ps[1]), False),
               _line_want(hs[0], s01, ps[0], (ps[2], ps[3]), False))
    g_ = frac(got)
    assert g_ <= want and want - g_ <= F(2) ** -380


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_lower_at_the_top_uses_three_points_and_two_secants() -> None:
    """Decreasing up to the top: ``top - 2w, top - w, top``, and the bound is the least of
    the two extended secants (left secant over the right piece, right one over the left)."""
    h = _parabola(TOP + 1)
    w = (TOP - 1) * F(2) ** -rm._SPACING
    ps = [TOP - 2 * w, TOP - w, TOP]
    g, seen = _recording(h)
    with rm.at_bits(iv, 400):
        got = rm._lower(iv, g, False, TOP, TOP)
    assert seen == ps
    hs = [(p - TOP - 1) ** 2 for p in ps]
    s01, s12 = (hs[1] - hs[0]) / (ps[1] - ps[0]), (hs[2] - hs[1]) / (ps[2] - ps[1])
    want = min(_line_want(hs[0], s01, ps[0], (ps[1], ps[2]), False),
               _line_want(hs[1], s12, ps[1], (ps[0], ps[1]), False))
    g_ = frac(got)
    assert g_ <= want and want - g_ <= F(2) ** -380


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_lower_at_the_bottom_uses_three_points_and_two_secants() -> None:
    """Increasing from the bottom: ``b, b + w, b + 2w`` and the two extended secants."""
    c = F(1)
    a_hat = BOTTOM + F(2) ** -600
    w = (a_hat - 1) * F(2) ** -rm._SPACING
    ps = [BOTTOM, BOTTOM + w, BOTTOM + 2 * w]
    g, seen = _recording(_parabola(c, F(2) ** 1100))
    with rm.at_bits(iv, 1400):
        got = rm._lower(iv, g, False, a_hat, TOP)
    assert seen == ps
    hs = [F(2) ** 1100 * (p - c) ** 2 for p in ps]
    s01, s12 = (hs[1] - hs[0]) / (ps[1] - ps[0]), (hs[2] - hs[1]) / (ps[2] - ps[1])
    want = min(_line_want(hs[1], s12, ps[1], (ps[0], ps[1]), False),
               _line_want(hs[0], s01, ps[0], (ps[1], ps[2]), False))
    g_ = frac(got)
    assert g_ <= want and want - g_ <= want * F(2) ** -300


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_the_bottom_and_top_cases_begin_exactly_where_the_points_leave_the_range() -> None:
    """``a_hat - 2w`` exactly at the bottom keeps the four points (the bottom case starts
    below it); ``a_hat + 2w`` exactly at the top keeps them too (three points above it)."""
    t = (BOTTOM - 1) / (1 - 2 * F(2) ** -rm._SPACING)      # a_hat - 2w = bottom exactly
    a_hat = 1 + t
    w = t * F(2) ** -rm._SPACING
    assert a_hat - 2 * w == BOTTOM
    g, seen = _recording(_flat)
    with rm.at_bits(iv, rm._IV_BITS):
        rm._lower(iv, g, False, a_hat, TOP)
    assert seen[:4] == [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
    t = (TOP - 1) / (1 + 2 * F(2) ** -rm._SPACING)          # a_hat + 2w = top exactly
    a_hat = 1 + t
    w = t * F(2) ** -rm._SPACING
    assert a_hat + 2 * w == TOP
    g, seen = _recording(_flat)
    with rm.at_bits(iv, rm._IV_BITS):
        rm._lower(iv, g, False, a_hat, TOP)
    assert seen[:4] == [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
    w2 = w * 2**6                                           # wider: three points at the top
    assert seen[4:7] == [TOP - 2 * w2, TOP - w2, TOP] and len(seen) == 4 + 5 * 3


def _steps(levels: list[Fraction], ps: list[Fraction]) -> Any:
    """A function equal to ``levels[i]`` at ``ps[i]`` (exact), for the conditions."""
    table = dict(zip(ps, levels, strict=True))

    def h(ctx: Any, alpha: Fraction) -> Any:
        return to_ctx(ctx, table.get(alpha, F(100)))
    return h


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize(("levels", "decided"), [
    ([F(2), F(1), F(1), F(2)], True),       # strictly down, then strictly up: decided
    ([F(1), F(1), F(1), F(2)], False),      # f(p0) = f(p1): not shown above, widen
    ([F(2), F(1), F(1), F(1)], False),      # f(p3) = f(p2): likewise
])
def test_the_four_point_conditions_are_strict(levels: list[Fraction], decided: bool) -> None:
    a_hat = F(17, 2)
    w = (a_hat - 1) * F(2) ** -rm._SPACING
    ps = [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2]
    g, seen = _recording(_steps(levels, ps))
    with rm.at_bits(iv, rm._IV_BITS):
        got = rm._lower(iv, g, False, a_hat, TOP)
    assert (len(seen) == 4) is decided and (got is not None) is decided


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize(("levels", "decided"), [
    ([F(1), F(2), F(3)], True), ([F(1), F(2), F(2)], False)])
def test_the_bottom_condition_is_strict(levels: list[Fraction], decided: bool) -> None:
    w = F(2) ** -560
    ps = [BOTTOM, BOTTOM + w, BOTTOM + 2 * w]
    with rm.at_bits(iv, 1400):
        got = rm._lower_bottom(iv, _steps(levels, ps), False, BOTTOM, w)
    assert (got is not None) is decided


def _layout(case: str) -> tuple[Fraction, list[Fraction], Fraction]:
    """``a_hat``, the points :func:`_lower` evaluates first, and the spacing ``w``."""
    if case == "four":
        a_hat = F(17, 2)
        w = (a_hat - 1) * F(2) ** -rm._SPACING
        return a_hat, [a_hat - 3 * w / 2, a_hat - w / 2, a_hat + w / 2, a_hat + 3 * w / 2], w
    if case == "top":
        w = (TOP - 1) * F(2) ** -rm._SPACING
        return TOP, [TOP - 2 * w, TOP - w, TOP], w
    a_hat = BOTTOM + F(2) ** -600
    w = (a_hat - 1) * F(2) ** -rm._SPACING
    return a_hat, [BOTTOM, BOTTOM + w, BOTTOM + 2 * w], w


def _pieces_want(case: str, hs: list[Fraction], ps: list[Fraction], ratio: bool) -> Fraction:
    """The bound by its definition: the least of the pieces of the case."""
    s = [(hs[i + 1] - hs[i]) / (ps[i + 1] - ps[i]) for i in range(len(ps) - 1)]
    if case == "four":
        return min(_mix_want(hs, s[0], s[2], ps, ratio),
                   _line_want(hs[2], s[2], ps[2], (ps[0], ps[1]), ratio),
                   _line_want(hs[0], s[0], ps[0], (ps[2], ps[3]), ratio))
    return min(_line_want(hs[0], s[0], ps[0], (ps[1], ps[2]), ratio),
               _line_want(hs[1], s[1], ps[1], (ps[0], ps[1]), ratio))


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize(("case", "levels"), [
    ("four", [F(2), F(1), F(1), F(10)]),    # the right secant, extended left, binds
    ("four", [F(10), F(1), F(1), F(2)]),    # the left secant, extended right, binds
    ("top", [F(5), F(1), F(2)]),            # the left secant binds
    ("top", [F(2), F(1), F(5)]),            # the right secant binds
    ("bottom", [F(5), F(1), F(2)]),
    ("bottom", [F(1), F(2), F(5)]),
    ("bottom", [F(1), F(3), F(4)]),        # rising: the left secant's least end is p1
])
@pytest.mark.parametrize("ratio", [False, True])
def test_each_piece_binds_somewhere(case: str, levels: list[Fraction], ratio: bool) -> None:
    """Values chosen (not convex: the pieces are formulas of the points' values) so that
    each extended secant is the least piece in one case: a piece made wrong then shows."""
    a_hat, ps, _ = _layout(case)
    g, seen = _recording(_steps(levels, ps))
    with rm.at_bits(iv, 1400):
        got = rm._lower(iv, g, ratio, a_hat, TOP)
    assert seen == ps
    want = _pieces_want(case, levels, ps, ratio)
    g_ = frac(got)
    assert g_ <= want and want - g_ <= abs(want) * F(2) ** -1000


@covers("DPSGD:eps-rdp")
def test_the_bottom_condition_of_the_ratio_form_reads_h_over_alpha_minus_1() -> None:
    """At the bottom with ``w = t0 = 2^-512``: ``h = 1, 2, 3`` rises, but ``h/(alpha - 1) =
    1/t0`` at all three points: not shown rising (None); ``1, 2, 4`` is (decided)."""
    w = BOTTOM - 1
    ps = [BOTTOM, BOTTOM + w, BOTTOM + 2 * w]
    with rm.at_bits(iv, 1400):
        assert rm._lower_bottom(iv, _steps([F(1), F(2), F(3)], ps), True, BOTTOM, w) is None
        assert rm._lower_bottom(iv, _steps([F(1), F(2), F(3)], ps), False, BOTTOM, w) \
            is not None
        got = rm._lower_bottom(iv, _steps([F(1), F(2), F(4)], ps), True, BOTTOM, w)
    want = _pieces_want("bottom", [F(1), F(2), F(4)], ps, True)
    g_ = frac(got)
    assert g_ <= want and want - g_ <= abs(want) * F(2) ** -1000
