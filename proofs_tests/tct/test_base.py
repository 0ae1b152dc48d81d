"""The shared CL23 machinery (reference.results.tct.base): shortest rationals, the rational
bracket of e^eps (checked against python-flint arb), outward conversion, target indices, the
exact pure-DP pair check and the confidence-label notes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_ends, frac
from reference.core.errors import DomainError
from reference.core.numeric import endpoints, get_dps
from reference.core.params import Param
from reference.results import get
from reference.results.tct import base
from reference.results.tct.base import (
    EXACT_EPS_MAX,
    check_target,
    exact_eps,
    exact_result,
    fraction_to_ctx,
    label_note,
    mp_value,
    ratio_bracket,
    require_pure_pair,
    simplest_between,
)

F = Fraction


def exp_ends(eps: Fraction, bits: int = 4000) -> tuple[Fraction, Fraction]:
    """Exact rational ends of an arb ball around ``e^eps`` (width about 2^-bits)."""
    old = ctx.prec
    ctx.prec = bits
    try:
        return arb_ends((arb(eps.numerator) / eps.denominator).exp())
    finally:
        ctx.prec = old


def brute_simplest(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational in [lo, hi] of the smallest denominator, by trying d = 1, 2, ... (the
    rational of smallest denominator is unique for d >= 2; for d = 1 the code and this
    search both take the smallest integer, ceil(lo))."""
    d = 1
    while True:
        n = -(-lo.numerator * d // lo.denominator)      # ceil(lo d)
        if F(n, d) <= hi:
            return F(n, d)
        d += 1


@given(st.fractions(0, 20, max_denominator=60), st.fractions(0, 1, max_denominator=60))
def test_simplest_between_has_the_smallest_denominator(lo: Fraction, width: Fraction) -> None:
    hi = lo + width
    s = simplest_between(lo, hi)
    want = brute_simplest(lo, hi)
    assert lo <= s <= hi and s == want


def test_simplest_between_edges() -> None:
    assert simplest_between(F(3), F(3)) == 3                 # a point: itself
    assert simplest_between(F(7, 3), F(7, 3)) == F(7, 3)
    assert simplest_between(F(5, 2), F(3)) == 3              # an integer end wins
    assert simplest_between(F(5, 2), F(29, 10)) == F(5, 2)   # integer lower end of the cf
    assert simplest_between(F(0), F(1, 1000)) == 0
    assert simplest_between(F(1, 3), F(1, 2)) == F(1, 2)
    assert simplest_between(F(314, 100), F(315, 100)) == F(22, 7)
    assert simplest_between(F(2, 7), F(3, 10)) == F(2, 7)
    with pytest.raises(ValueError):
        simplest_between(F(1, 2), F(1, 3))


@given(st.fractions(0, 30, max_denominator=40))
def test_ratio_bracket_encloses_and_is_tight(eps: Fraction) -> None:
    """w_lo <= e^eps <= w_hi (arb), relative width at most 3 10^-(dps + 10) by default and
    3 10^-d with explicit digits d."""
    lo, hi = ratio_bracket(eps)
    if eps == 0:
        assert (lo, hi) == (1, 1)
        return
    a, b = exp_ends(eps)
    digits = get_dps() + 10
    assert lo <= a and b <= hi
    assert hi - lo <= 3 * b / 10**digits
    lo6, hi6 = ratio_bracket(eps, digits=6)
    assert lo6 <= a and b <= hi6 and hi6 - lo6 <= 3 * b / 10**6
    assert lo6.denominator <= 10**7 and hi6.denominator <= 10**7   # short rationals


@pytest.mark.parametrize("eps", [F(1.2939468248063972e-238), F(2.0**-1074), F(1, 10**300),
                                 F(1, 10**70), F(1, 10**40)])
def test_ratio_bracket_of_a_tiny_eps_stays_on_its_side_of_1(eps: Fraction) -> None:
    """``e^eps > 1`` for ``eps > 0`` and ``< 1`` for ``eps < 0``, also where Arb's ball of
    ``e^eps`` reaches across 1 (the q-target oracle refuses ``w < 1``; a Hypothesis draw,
    ``eps = 1.29e-238``, found it)."""
    for e in (eps, -eps):
        lo, hi = ratio_bracket(e)
        a, b = exp_ends(e)
        assert lo <= a and b <= hi
        assert (lo >= 1) if e > 0 else (hi <= 1)


def test_ratio_bracket_small_eps_stays_positive() -> None:
    a, b = exp_ends(F(-1))                       # e^-1 < 1: the lower end may go below 1
    lo, hi = ratio_bracket(F(-1), digits=6)
    assert lo <= a and b <= hi and hi - lo <= 3 * b / 10**6
    lo, hi = ratio_bracket(F(1, 10**9), digits=3)
    a, b = exp_ends(F(1, 10**9))
    assert 0 < lo <= a and b <= hi and hi - lo <= 3 * b / 10**3


def test_fraction_to_ctx() -> None:
    x, y = F(1, 3), F(2, 3)
    p = fraction_to_ctx(mp, x)
    assert abs(frac(p) - x) <= x / 2**(mp.prec - 1)
    e = endpoints(fraction_to_ctx(iv, x, y))
    assert frac(e.lo) <= x < y <= frac(e.hi)
    assert frac(e.hi) - frac(e.lo) <= F(1, 3) + F(1, 2**(iv.prec - 2))
    e = endpoints(fraction_to_ctx(iv, x))                   # a point: a thin ball around it
    assert frac(e.lo) < x < frac(e.hi) and frac(e.hi) - frac(e.lo) <= F(1, 2**(iv.prec - 2))
    assert mp_value(F(1, 4)) == mp.mpf(0.25)


def test_check_target_bounds() -> None:
    assert check_target([0, 2, 2], 3, "t", "w") == frozenset({0, 2})
    assert check_target([], 3, "t", "w") == frozenset()
    for bad in ([3], [-1], [0, 3]):
        with pytest.raises(DomainError):
            check_target(bad, 3, "t", "w")


def test_require_pure_pair_at_the_edge() -> None:
    """Ratios against e^eps (arb): below by 10^-40 (or at the bracket's lower end) passes,
    strictly inside the bracket (lo, hi] is refused as undecidable, above hi is refused as
    not eps-indistinguishable."""
    eps = F(1, 2)
    a, b = exp_ends(eps)
    lo, hi = ratio_bracket(eps)
    assert lo < a and b < hi
    for c in (F(1), F(1, 4), F(3)):       # masses c r vs c: the ratio is r at any scale
        for r in (a - F(1, 10**40), F(1), lo):     # lo <= e^eps: the ratio lo itself is decided
            require_pure_pair([r * c, c], [c, c], eps, "Q", "w")
            require_pure_pair([c, c], [c, r * c], eps, "Q", "w")   # either way round
        for r, msg in (((lo + a) / 2, "working precision"),
                       ((b + hi) / 2, "working precision"), (hi, "working precision"),
                       (b + F(1, 10**40), "indistinguishable")):
            for P, Q in (([r * c, c], [c, c]), ([c, c], [c, r * c])):
                with pytest.raises(DomainError, match=msg):
                    require_pure_pair(P, Q, eps, "Q", "w")
    require_pure_pair([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], F(0), "Q", "w")
    with pytest.raises(DomainError):
        require_pure_pair([F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)], F(0), "Q", "w")
    with pytest.raises(ValueError):
        require_pure_pair([F(1)], [F(1), F(0)], eps, "Q", "w")     # strict zip
    with pytest.raises(ValueError) as info:             # even with an undecidable ratio first
        require_pure_pair([(lo + a) / 2, F(1)], [F(1), F(1), F(1)], eps, "Q", "w")
    assert type(info.value) is ValueError                # the zip's, not a DomainError


def test_label_notes() -> None:
    rec = label_note("recovered")
    assert rec.startswith("Confidence label: recovered from surviving text. The available "
                          "text of CL23 lost every formula;") and rec.endswith("printed display).")
    assert label_note("recovered", "More.") == rec + " More."
    for lab in ("reconstructed and numerically verified", "uncertain"):
        note = label_note(lab)  # type: ignore[arg-type]
        assert note.startswith(f"Confidence label: {lab}. The available text of CL23 lost every "
                               "formula; this form was reconstructed by this project")
        assert note.endswith("printed display.") and label_note(lab, "X") == note + " X"  # type: ignore[arg-type]


def test_exact_result_defaults_and_exact_eps() -> None:
    """exact_result: exact inputs, not probabilistic unless asked (Def 2.1 is an exact,
    non-probabilistic definition: test_probabilistic_flags); exact_eps spans [0, 1000]."""
    r = get("CL23:Def2.1")
    assert r.exact_inputs and not r.probabilistic and r.precondition is not None
    assert get("CL23:ThmB.4-exact").probabilistic
    p = exact_eps("0.5")
    assert (p.name, p.lo, p.hi, p.example) == ("eps", 0, EXACT_EPS_MAX, "0.5")
    assert EXACT_EPS_MAX == 1000 and "1000" in p.doc
    assert exact_eps("1", "mine").doc == "mine"


def test_bracket_guard_sets_the_refusal_threshold() -> None:
    """The floor of Theorem 2.10's m tries brackets of e^eps up to 16 (dps + 10) = 960 digits
    at the default 50: a product within 10^-968 of the integer 100 (arb-built alpha, as in
    test_selection_edges) is refused, naming that 10^-960."""
    from flint import arb as _arb

    from reference.results.tct.selection import svt_individual_basic
    assert get_dps() == 50
    eps = F(1, 10)
    old = ctx.prec
    ctx.prec = 4000
    try:
        lo, _ = arb_ends(100 / ((_arb(1) / 10).exp() + 1))
    finally:
        ctx.prec = old
    s = F(int(lo * 10**968), 10**968)
    with pytest.raises(DomainError, match=r"within 10\^-960 of an integer"):
        svt_individual_basic(eps=eps, tau=1, alpha=s - 1)


def test_ratio_bracket_of_e_by_hand() -> None:
    """digits = 6, eps = 1: the shortest rationals in [e - e 10^-6, e] and [e, e + e 10^-6].
    By hand from e = [2; 1, 2, 1, 1, 4, 1, 1, 6, ...]: below e, 1264/465 (e - 2.26e-6) is the
    first semiconvergent inside (1071/394 is 7.7e-6 below); above e, 1457/536 (1.75e-6
    above; 193/71 is 2.8e-5 above).  The brute-force search agrees."""
    e_lo, e_hi = exp_ends(F(1))
    assert brute_simplest(e_hi - e_hi / 10**6, e_lo) == F(1264, 465)
    assert brute_simplest(e_hi, e_lo + e_lo / 10**6) == F(1457, 536)
    assert ratio_bracket(F(1), digits=6) == (F(1264, 465), F(1457, 536))


def test_exact_result_uses_exact_inputs_and_iv_unless_asked() -> None:
    """``exact_result`` hands the formula the exact Fractions and certifies in ``iv`` by
    default; ``balls=True`` opts in to Arb's balls (numeric-contract.md)."""
    seen: list[object] = []

    def core(ctx: object, x: Fraction) -> object:
        seen.append(x)
        return mp.mpf(x.numerator) / x.denominator

    kw = {"title": "t", "kind": "bound", "statement": "x", "status": "stated", "notes": "",
          "params": [Param("x", "real", example="1/3", doc="x")]}
    plain, fast = exact_result("T:1", **kw)(core), exact_result("T:2", balls=True, **kw)(core)
    assert (plain.balls, plain.exact_inputs, fast.balls, fast.exact_inputs) == (
        False, True, True, True)
    plain(x="1/3")
    assert seen == [Fraction(1, 3)]


@st.composite
def _pairs_near_e_eps(draw: st.DrawFn) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """Two laws whose largest ratio is ``e^eps (1 + d)`` (``e^eps`` from arb to 4000 bits),
    ``d`` from +-10^-5 down to +-10^-40 and 0, the other ratios random; sometimes a zero
    or a tiny (subnormal-sized) mass, or an eps past the doubles' exp."""
    eps = draw(st.sampled_from([F(0), F(1, 10**6), F(1, 2), F(3), F(800)]))
    n = draw(st.integers(2, 5))
    Q = [F(draw(st.integers(1, 10**6))) for _ in range(n)]
    ratios = [draw(st.fractions(F(1, 2), F(2), max_denominator=10**6)) for _ in range(n)]
    a, _ = exp_ends(eps)
    d = draw(st.sampled_from([F(0), F(1, 10**5), F(1, 10**9), F(1, 10**12), F(1, 10**40)]))
    ratios[0] = a * (1 + draw(st.sampled_from([1, -1])) * d)
    P = [q * r for q, r in zip(Q, ratios, strict=True)]
    if draw(st.booleans()):                      # a zero or a tiny mass somewhere
        i = draw(st.integers(0, n - 1))
        P[i] = draw(st.sampled_from([F(0), F(1, 10**320)]))
        Q[i] = draw(st.sampled_from([F(0), F(1, 10**320), Q[i]]))
    return [p / sum(P) for p in P], [q / sum(Q) for q in Q], eps


@given(_pairs_near_e_eps())
def test_the_float_shortcut_decides_as_the_bracket(
        case: tuple[list[Fraction], list[Fraction], Fraction]) -> None:
    """``require_pure_pair`` with its float shortcut accepts and refuses (with the same
    message) exactly what the bracket alone does (the shortcut turned off), next to
    ``e^eps`` from 10^-5 to 10^-40 on either side, with zero and tiny masses."""
    P, Q, eps = case

    def outcome() -> str | None:
        try:
            require_pure_pair(P, Q, eps, "Q", "w")
        except DomainError as err:
            return str(err)
        return None

    fast = outcome()
    real = base._far_inside
    base._far_inside = lambda *args: False     # the bracket alone
    try:
        assert outcome() == fast
    finally:
        base._far_inside = real


@pytest.mark.parametrize("scale", [F(103, 5) / 2**1074, F(1, 10**320), F(1, 10**310)])
def test_subnormal_masses_are_decided_exactly(scale: Fraction) -> None:
    """Masses whose doubles are subnormal (a few significant bits): a ratio 10^-5 above
    ``e^eps`` is refused, as exact rationals say, though the doubles may put it inside (at
    20.6 units of 2^-1074 the doubles are 21 and 34 units: ratio 1.619 < e^(1/2)); the
    same ratio 10^-5 below passes."""
    eps = F(1, 2)
    a, _ = exp_ends(eps)
    for r, refused in ((a * (1 + F(1, 10**5)), True), (a * (1 - F(1, 10**5)), False)):
        P, Q = [scale, 1 - scale], [scale * r, 1 - scale * r]
        if refused:
            with pytest.raises(DomainError):
                require_pure_pair(P, Q, eps, "Q", "w")
        else:
            require_pure_pair(P, Q, eps, "Q", "w")
