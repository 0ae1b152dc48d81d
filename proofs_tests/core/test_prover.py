"""The prover and its independent checker: proofs, refutations, and refused certificates."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.numeric import exp
from reference.core.proofcheck import CertificateError, check
from reference.core.prover import Proof, prove, split_point
from reference.core.relations import Relation, relation
from reference.results.privacy_loss.relations import (
    W2_ABOVE,
    W2_BELOW,
    corrected_above_printed,
    printed_constant,
    printed_holds_below,
)
from reference.results.privacy_loss.rruv16 import indistinguishable_to_pointwise


@relation("TEST:printed-holds-for-RR-on-[1/100,1]", kind="threshold",
          statement="deliberately wrong: the printed RRUV16 Lemma 2.3 (ii) bound on RR for "
                    "eps up to 1 (it fails above W(2) = 0.8526)",
          uses=("RRUV16:Lem2.3-ii",), source="test", domain={"eps": ("1/100", "1")},
          log_scale=("eps",))
def wrong_threshold(ctx: Any, eps: Any) -> Any:
    return printed_holds_below.margin(ctx, eps)


@relation("TEST:printed>=corrected", kind="erratum",
          statement="deliberately wrong: the printed constant is at least the corrected one",
          uses=("RRUV16:Lem2.3-ii",), source="test", domain={"eps": ("1/10", "3")},
          strict=False)
def wrong_erratum(ctx: Any, eps: Any) -> Any:
    return printed_constant(ctx, eps) - indistinguishable_to_pointwise.core(ctx, eps, 1).delta


@relation("TEST:x-x^2", kind="ordering", statement="x - x^2 >= 0 on [0, 1], tight at both ends",
          uses=(), source="test", domain={"x": (0, 1)}, strict=False)
def parabola(ctx: Any, x: Any) -> Any:
    return x - x * x     # as written, interval arithmetic gives [-1, 1] on [0, 1]


@relation("TEST:exp>1+x", kind="ordering", statement="e^x > 1 + x + x^2/4 on [1/8, 4] and "
          "y-independent", uses=(), source="test", domain={"x": ("1/8", 4), "y": (-3, 5)})
def exp_above_line(ctx: Any, x: Any, y: Any) -> Any:
    return exp(ctx, x) - 1 - x - x * x / 4 + (y - y)


def _exact_margin(rel: Relation, point: dict[str, str]) -> mpmath.mpf:
    """The margin at a point with mpmath at 60 digits (plain floating point, not the
    prover's intervals)."""
    with mpmath.workdps(60):
        args = {n: mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
                for n, v in point.items()}
        return +rel.margin(mpmath.mp, **args)


@pytest.mark.parametrize("rel", [wrong_threshold, wrong_erratum], ids=lambda r: r.id)
def test_a_false_relation_is_refused_where_it_fails(rel: Relation) -> None:
    proof = prove(rel, time_limit=60)
    assert proof.status == "refuted" and proof.tree == {}
    ce = proof.counterexample
    assert ce is not None
    point = {n: Fraction(v) for n, v in ce["point"].items()}
    box = {n: (Fraction(lo), Fraction(hi)) for n, (lo, hi) in ce["box"].items()}
    lo, hi = (Fraction(v) for v in ce["margin"])
    assert lo <= hi and (hi <= 0 if rel.strict else hi < 0)
    for n, (a, b) in box.items():
        assert a <= point[n] <= b
        assert rel.box()[n][0] <= a < b <= rel.box()[n][1]
    # an independent evaluation agrees that the relation fails there
    assert _exact_margin(rel, ce["point"]) < 0
    if rel is wrong_threshold:   # the printed bound fails exactly above W(2)
        assert point["eps"] > Fraction(W2_ABOVE)


def test_the_threshold_pair_brackets_lambert_w2() -> None:
    with mpmath.workdps(40):
        w = mpmath.lambertw(2).real
        assert mpmath.mpf(W2_BELOW) < w < mpmath.mpf(W2_ABOVE)
        assert mpmath.mpf(W2_ABOVE) - mpmath.mpf(W2_BELOW) < mpmath.mpf("2e-14")


def _leaves(node: dict[str, Any], box: dict[str, tuple[Fraction, Fraction]]) -> list[Any]:
    if "split" in node:
        name, at = node["split"], Fraction(node["at"])
        left, right = dict(box), dict(box)
        left[name], right[name] = (box[name][0], at), (at, box[name][1])
        return _leaves(node["lo"], left) + _leaves(node["hi"], right)
    return [(node, box)]


@pytest.mark.parametrize("rel", [parabola, exp_above_line], ids=lambda r: r.id)
def test_a_true_relation_is_proved_and_its_certificate_accepted(rel: Relation) -> None:
    proof = prove(rel, time_limit=60)
    assert proof.status == "proved" and not proof.undecided and proof.leaves >= 1
    cert = json.loads(json.dumps(proof.certificate()))   # what a file holds
    assert check(cert, rel) == proof.leaves
    leaves = _leaves(cert["tree"], rel.box())
    assert len(leaves) == proof.leaves
    # the leaves cover the domain: their volumes (lengths for points) add up
    assert sum(_volume(b) for _, b in leaves) == _volume(rel.box())


def _volume(box: dict[str, tuple[Fraction, Fraction]]) -> Fraction:
    v = Fraction(1)
    for lo, hi in box.values():
        v *= hi - lo
    return v


def test_a_tight_corner_is_proved_by_monotonicity() -> None:
    """x - x^2 is 0 at both ends: the leaves there set x to the end (fixed), and no
    enclosure of a box could show the margin >= 0 otherwise."""
    proof = prove(parabola, time_limit=60)
    ends = [leaf for leaf, box in _leaves(proof.tree, parabola.box())
            if box["x"][0] == 0 or box["x"][1] == 1]
    assert ends and all("fixed" in leaf for leaf in ends)


def test_an_irrelevant_variable_is_never_split() -> None:
    proof = prove(exp_above_line, time_limit=60)
    text = json.dumps(proof.tree)
    assert '"split": "x"' in text and '"split": "y"' not in text


def test_time_limit_leaves_boxes_undecided() -> None:
    proof = prove(wrong_threshold, time_limit=-1)
    assert proof.status == "undecided" and proof.undecided == [wrong_threshold.box()]
    with pytest.raises(CertificateError, match="not a proved leaf"):
        check(proof.certificate(), wrong_threshold)


def _proved(rel: Relation) -> dict[str, Any]:
    proof = prove(rel, time_limit=60)
    assert proof.status == "proved"
    return json.loads(json.dumps(proof.certificate()))


TAMPER = {
    "format": (lambda c: c.update(format="other/1"), "unknown format"),
    "relation": (lambda c: c.update(relation="TEST:other"), "is for"),
    "domain": (lambda c: c["domain"]["x"].__setitem__(0, "1/8"), "domain"),
    "strict": (lambda c: c.update(strict=True), "strictness"),
    "split-outside": (lambda c: c["tree"].update(at="2"), "is not inside"),
    "split-unknown": (lambda c: c["tree"].update(split="z"), "is not inside"),
    "subtree-dropped": (lambda c: c["tree"].update(lo={"undecided": True}), "not a proved leaf"),
    "not-a-node": (lambda c: c["tree"].update(hi=[1, 2]), "not a node"),
}


@pytest.mark.parametrize("how", sorted(TAMPER))
def test_a_tampered_certificate_is_refused(how: str) -> None:
    cert = _proved(parabola)
    assert "split" in cert["tree"]
    change, message = TAMPER[how]
    bad = copy.deepcopy(cert)
    change(bad)
    with pytest.raises(CertificateError, match=message):
        check(bad, parabola)
    assert check(cert, parabola) >= 2      # the original still passes


def _leaf_paths(node: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if "split" in node:
        return _leaf_paths(node["lo"], (*path, "lo")) + _leaf_paths(node["hi"], (*path, "hi"))
    return [path]


def _at(node: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    for step in path:
        node = node[step]
    return node


def test_tampered_leaves_are_refused() -> None:
    """A fixed end swapped, a centre moved out of its box, a leaf kind unknown, a wrong
    margin: each refused at the leaf."""
    cert = _proved(parabola)
    fixed = [p for p in _leaf_paths(cert["tree"]) if "fixed" in _at(cert["tree"], p)]
    assert fixed
    bad = copy.deepcopy(cert)
    leaf = _at(bad["tree"], fixed[0])
    leaf["fixed"] = {n: "hi" if e == "lo" else "lo" for n, e in leaf["fixed"].items()}
    with pytest.raises(CertificateError, match=r"derivative|margin"):
        check(bad, parabola)
    bad = copy.deepcopy(cert)
    _at(bad["tree"], fixed[0])["fixed"] = {"x": "middle"}
    with pytest.raises(CertificateError, match="bad fixed"):
        check(bad, parabola)
    bad = copy.deepcopy(cert)
    _at(bad["tree"], fixed[0]).update(leaf="guess")
    with pytest.raises(CertificateError, match="not a proved leaf"):
        check(bad, parabola)
    # the same tree does not prove a relation that is false on part of the domain
    shifted = Relation("TEST:x-x^2", "", "ordering", (), "", parabola.domain,
                       lambda ctx, x: x - x * x - x / 1000, strict=False)
    with pytest.raises(CertificateError, match=r"derivative|margin"):
        check(cert, shifted)


def test_centred_leaves_are_checked() -> None:
    """The corrected-versus-printed erratum needs the centred form (its two constants
    share eps in numerator and denominator); a centre moved out of its box, or missing, is
    refused, and a centre moved inside the box is still accepted (any point will do)."""
    rel = corrected_above_printed
    cert = _proved(rel)
    paths = [p for p in _leaf_paths(cert["tree"]) if _at(cert["tree"], p)["leaf"] == "centred"]
    assert len(paths) >= 10
    bad = copy.deepcopy(cert)
    _at(bad["tree"], paths[0])["at"]["eps"] = "100"
    with pytest.raises(CertificateError, match="outside"):
        check(bad, rel)
    bad = copy.deepcopy(cert)
    del _at(bad["tree"], paths[0])["at"]
    with pytest.raises(CertificateError, match="needs a point"):
        check(bad, rel)
    # replacing each centred leaf by a plain one fails somewhere: the centred form is needed
    bad = copy.deepcopy(cert)
    for p in paths:
        _at(bad["tree"], p).update(leaf="plain")
    with pytest.raises(CertificateError, match="margin"):
        check(bad, rel)


def test_proof_records_what_it_did() -> None:
    proof = prove(exp_above_line, time_limit=60)
    assert isinstance(proof, Proof) and proof.bits > 53 and proof.seconds >= 0
    cert = proof.certificate()
    assert cert["domain"] == {"x": ["1/8", "4"], "y": ["-3", "5"]}
    assert cert["status"] == "proved" and cert["leaves"] == proof.leaves
    assert cert["evaluator"].startswith("mpmath")


rationals = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**12)


@given(rationals, rationals, st.booleans())
def test_split_point_is_strictly_inside_and_short(a: Fraction, b: Fraction, geo: bool) -> None:
    lo, hi = min(a, b), max(a, b)
    if lo == hi:
        hi = lo + Fraction(1, 10**12)
    at = split_point(lo, hi, geo)
    assert lo < at < hi
    # a dyadic number near the middle: at most a quarter of the range from it
    if not (geo and lo > 0 and hi > 4 * lo):
        assert abs(at - (lo + hi) / 2) <= (hi - lo) / 4
    assert at.denominator & (at.denominator - 1) == 0 or at == (lo + hi) / 2


@given(st.integers(-300, 300), st.integers(3, 300))
def test_split_point_is_geometric_on_wide_positive_ranges(e: int, span: int) -> None:
    lo, hi = Fraction(2) ** e, Fraction(2) ** (e + span)
    at = split_point(lo, hi, True)
    assert lo < at < hi
    assert at == Fraction(2) ** (e + (span + 1) // 2) or at == Fraction(2) ** (e + span // 2)
