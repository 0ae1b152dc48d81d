"""Relations with integer variables: split at half-integers until each box holds one value,
the formula evaluated at that value (a sum of ``k`` terms), the certificate re-checked.  The
cuts and the toy relations' truth are worked out by hand."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.proofcheck import CertificateError, check
from reference.core.prover import prove
from reference.core.relations import integer_cut, integer_point, relation

F = Fraction


@pytest.mark.parametrize("lo,hi,geo,want", [
    (F(1), F(20), False, F(21, 2)),       # (1 + 20)//2 = 10: 1..10 and 11..20
    (F(1), F(20), True, F(9, 2)),         # isqrt(20) = 4
    (F(1), F(2), True, F(3, 2)),
    (F(5, 2), F(9, 2), False, F(7, 2)),   # the integers 3, 4
    (F(1), F(1000), True, F(63, 2)),      # isqrt(1000) = 31
    (F(0), F(1), True, F(1, 2)),          # geometric needs a > 0: the middle
    (F(-7), F(-3), False, F(-9, 2)),      # (-7 - 3)//2 = -5
    (F(99, 10), F(11), False, F(21, 2)),  # the integers 10, 11: (10 + 11)//2 = 10
    (F(10), F(11), True, F(21, 2)),       # isqrt(110) = 10 = b - 1
    (F(0), F(10), True, F(11, 2)),        # a = 0: the arithmetic middle, not isqrt(0)
])
def test_integer_cuts_by_hand(lo: Fraction, hi: Fraction, geo: bool, want: Fraction) -> None:
    assert integer_cut(lo, hi, geo) == want


@given(st.integers(-50, 300), st.integers(1, 300), st.booleans())
def test_an_integer_cut_parts_the_integers_in_two(a: int, n: int, geo: bool) -> None:
    cut = integer_cut(F(a), F(a + n), geo)
    assert cut.denominator == 2 and a < cut < a + n


def _sum_rel(strict: bool = True, shift: str = "15/2", cutoff: str = "1/8") -> Any:
    """sum_{j < k} (1/2) + (k - shift)^2 - cutoff - k/2 + x = (k - shift)^2 - cutoff + x:
    the sum makes the formula need an integer k.  With shift 15/2 and cutoff 1/8 it is at
    least 1/4 - 1/8 > 0 at every integer (x >= 0) but negative at the real k = 15/2."""
    s, c = Fraction(shift), Fraction(cutoff)

    def margin(ctx: Any, x: Any, k: int) -> Any:
        half = ctx.mpf(1) / 2
        return ctx.fsum(half for _ in range(k)) + (k - s) ** 2 - c - Fraction(k, 2) + x

    return relation("TEST:integer-k", statement="a sum over k", kind="ordering", uses=(),
                    source="test", domain={"x": (0, 1), "k": (1, 12)}, integers=("k",),
                    strict=strict)(margin)


def test_integer_point_needs_exactly_one_integer() -> None:
    rel = _sum_rel()
    assert rel.reals == ("x",) and rel.names == ("x", "k")
    assert integer_point(rel, {"x": (F(0), F(1)), "k": (F(13, 2), F(15, 2))}) == {"k": 7}
    assert integer_point(rel, {"x": (F(0), F(1)), "k": (F(7), F(7))}) == {"k": 7}
    assert integer_point(rel, {"x": (F(0), F(1)), "k": (F(13, 2), F(17, 2))}) is None
    assert integer_point(rel, {"x": (F(0), F(1)), "k": (F(31, 4), F(63, 8))}) is None  # none


def test_a_sum_over_k_is_proved_value_by_value_and_checked() -> None:
    rel = _sum_rel()
    proof = prove(rel, time_limit=60)
    assert proof.status == "proved"
    cert = proof.certificate()
    assert cert["integers"] == ["k"]
    assert check(cert, rel) == proof.leaves >= 12      # at least one leaf per value of k
    # every leaf holds one k: walk the tree
    values: list[int] = []

    def walk(node: dict[str, Any], box: dict[str, tuple[Fraction, Fraction]]) -> None:
        if "split" in node:
            n, at = node["split"], Fraction(node["at"])
            if n == "k":
                assert at.denominator == 2
            walk(node["lo"], {**box, n: (box[n][0], at)})
            walk(node["hi"], {**box, n: (at, box[n][1])})
            return
        point = integer_point(rel, box)
        assert point is not None
        values.append(point["k"])

    walk(cert["tree"], rel.box())
    assert sorted(set(values)) == list(range(1, 13))


def test_the_value_where_it_fails_is_named() -> None:
    """With shift 7 and cutoff 1/2 the margin (k - 7)^2 - 1/2 + x is x - 1/2 at k = 7: not
    > 0 for x <= 1/2 (and > 0 at every other integer)."""
    proof = prove(_sum_rel(shift="7", cutoff="1/2"), time_limit=60)
    assert proof.status == "refuted"
    assert proof.counterexample is not None
    point = proof.counterexample["point"]
    assert point["k"] == "7" and Fraction(point["x"]) <= Fraction(1, 2)


def test_certificates_of_integer_relations_are_refused_when_altered() -> None:
    rel = _sum_rel()
    cert = prove(rel, time_limit=60).certificate()
    no_ints = copy.deepcopy(cert)
    del no_ints["integers"]
    with pytest.raises(CertificateError, match="integer variables"):
        check(no_ints, rel)
    whole = copy.deepcopy(cert)
    whole["tree"] = {"leaf": "plain"}           # one leaf for all twelve values
    with pytest.raises(CertificateError, match="not > 0"):
        check(whole, rel)
    moved = copy.deepcopy(cert)
    assert moved["tree"]["split"] == "k"
    moved["tree"]["at"] = str(Fraction(moved["tree"]["at"]) + Fraction(1, 2))  # an integer
    with pytest.raises(CertificateError):
        check(moved, rel)
    centred = {"leaf": "centred", "at": {"x": "1/2", "k": "3"}}
    with pytest.raises(CertificateError, match="every real variable"):
        check({**cert, "tree": {"split": "k", "at": "3/2", "lo": centred, "hi": centred}}, rel)


def test_integer_ranges_need_integer_ends_and_a_name_of_the_domain() -> None:
    for lo, hi in (("1/2", 3), (1, "7/2")):
        with pytest.raises(ValueError, match="integer ends"):
            relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                     domain={"k": (lo, hi)}, integers=("k",))
    with pytest.raises(ValueError, match="the integer n is not a variable"):
        relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                 domain={"k": (1, 3)}, integers=("n",))
    rel = relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                   domain={"k": (-3, 3), "x": (0, 1)}, integers=("k",))(lambda ctx, k, x: x)
    assert rel.integers == frozenset({"k"}) and rel.reals == ("x",)
