"""The checker on hand-written certificates: each condition it checks, refused when broken.

The certificates here are written by hand, not by the prover, so that every check of
:func:`reference.core.proofcheck.check` meets a certificate that breaks it (and a sound one
next to it that passes): a leaf that fixes a variable at the wrong end of its range, a
centre on the edge of its box, a split at an end of a range, a precision too low for the
margin, a fixed leaf that names no variable.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from reference.core.numeric import exp
from reference.core.proofcheck import FORMAT, CertificateError, check, leaf_holds
from reference.core.relations import Relation, relation, text


@relation("TEST:x>=0", kind="ordering", statement="deliberately false: x >= 0 on [-1, 1]",
          uses=(), source="test", domain={"x": (-1, 1)}, strict=False)
def identity(ctx: Any, x: Any) -> Any:
    return x


@relation("TEST:x^2+2>0", kind="ordering", statement="x^2 + 2 > 0 on [-1, 1]",
          uses=(), source="test", domain={"x": (-1, 1)})
def parabola_up(ctx: Any, x: Any) -> Any:
    return x * x + 2


@relation("TEST:1/x<=2", kind="ordering", statement="deliberately undefined at 0: 2 - 1/x",
          uses=(), source="test", domain={"x": (-1, 1)}, strict=False)
def reciprocal(ctx: Any, x: Any) -> Any:
    return 2 - 1 / x


#: e^x - 1 - x at x = 2^-40 is about 2^-81: positive, but only at more than about 84 bits.
TINY = Fraction(1, 2**40)


@relation("TEST:e^x>1+x-tiny", kind="ordering", statement="e^x > 1 + x near x = 2^-40",
          uses=(), source="test", domain={"x": (TINY, TINY + Fraction(1, 2**100))})
def exp_tiny(ctx: Any, x: Any) -> Any:
    return exp(ctx, x) - 1 - x


def _cert(rel: Relation, tree: dict[str, Any], bits: object = 100) -> dict[str, Any]:
    return {"format": FORMAT, "relation": rel.id, "strict": rel.strict, "bits": bits,
            "domain": {n: [text(lo), text(hi)] for n, lo, hi in rel.domain}, "tree": tree}


def test_a_variable_is_fixed_at_the_end_its_derivative_points_to() -> None:
    """x is increasing, so its least value on [-1, 1] is at the low end: fixing x at "lo"
    is a sound step and shows x >= 0 false (-1); fixing it at "hi" is refused, since the
    derivative is not <= 0.  A checker that read the other end would accept x >= 0."""
    with pytest.raises(CertificateError, match=r"margin is not >= 0 on the box: \[-1"):
        check(_cert(identity, {"fixed": {"x": "lo"}, "leaf": "plain"}), identity)
    with pytest.raises(CertificateError, match="derivative in x is not <= 0"):
        check(_cert(identity, {"fixed": {"x": "hi"}, "leaf": "plain"}), identity)
    # a true relation, x + 1 >= 0, by the same fixed leaf: accepted
    shifted = Relation("TEST:x>=0", "", "ordering", (), "", identity.domain,
                       lambda ctx, x: x + 1, strict=False)
    assert check(_cert(shifted, {"fixed": {"x": "lo"}, "leaf": "plain"}), shifted) == 1
    # and decreasing: 1 - x >= 0 fixed at "hi" is accepted, at "lo" refused
    falling = Relation("TEST:x>=0", "", "ordering", (), "", identity.domain,
                       lambda ctx, x: 1 - x, strict=False)
    assert check(_cert(falling, {"fixed": {"x": "hi"}, "leaf": "plain"}), falling) == 1
    with pytest.raises(CertificateError, match="derivative in x is not >= 0"):
        check(_cert(falling, {"fixed": {"x": "lo"}, "leaf": "plain"}), falling)
    # a false decreasing one, -x >= 0: fixed at "hi" (sound) it shows -1 and is refused
    negated = Relation("TEST:x>=0", "", "ordering", (), "", identity.domain,
                       lambda ctx, x: -x, strict=False)
    with pytest.raises(CertificateError, match=r"margin is not >= 0 on the box: \[-1"):
        check(_cert(negated, {"fixed": {"x": "hi"}, "leaf": "plain"}), negated)


@pytest.mark.parametrize("fixed", [{}, "x", ["x"], None])
def test_a_fixed_leaf_must_name_its_variables_in_a_mapping(fixed: object) -> None:
    tree = {"fixed": fixed, "leaf": "plain"}
    with pytest.raises(CertificateError, match="names no variable"):
        check(_cert(parabola_up, tree), parabola_up)
    assert check(_cert(parabola_up, {"leaf": "plain"}), parabola_up) == 1


def test_a_centred_leaf_encloses_the_whole_box_not_its_centre() -> None:
    """x >= 0 is true at the centre x = 1 of a centred leaf on [-1, 1], and false on the box:
    refused, since the derivative times the box's offsets from the centre is added."""
    tree = {"leaf": "centred", "at": {"x": "1"}}
    with pytest.raises(CertificateError, match="margin is not >= 0"):
        check(_cert(identity, tree), identity)


@pytest.mark.parametrize("at", ["-1", "1", "0", "-1/3"])
def test_a_centre_may_be_any_point_of_its_box_ends_included(at: str) -> None:
    """The mean value form holds for any point of the box, its ends included."""
    tree = {"split": "x", "at": "0",
            "lo": {"leaf": "centred", "at": {"x": at if Fraction(at) <= 0 else "0"}},
            "hi": {"leaf": "centred", "at": {"x": at if Fraction(at) >= 0 else "0"}}}
    assert check(_cert(parabola_up, tree), parabola_up) == 2
    outside = {"split": "x", "at": "0", "lo": {"leaf": "centred", "at": {"x": "1/2"}},
               "hi": {"leaf": "plain"}}
    with pytest.raises(CertificateError, match="outside"):
        check(_cert(parabola_up, outside), parabola_up)


def test_a_centred_leaf_needs_derivatives_on_the_whole_box() -> None:
    """2 - 1/x is defined at the centre 1 and not on [-1, 1]: refused as a certificate
    error, not as a crash."""
    tree = {"leaf": "centred", "at": {"x": "1"}}
    with pytest.raises(CertificateError, match="margin is not >= 0 on the box: None"):
        check(_cert(reciprocal, tree), reciprocal)


@pytest.mark.parametrize("at", ["-1", "1"])
def test_a_split_at_an_end_of_its_range_is_refused(at: str) -> None:
    tree = {"split": "x", "at": at, "lo": {"leaf": "plain"}, "hi": {"leaf": "plain"}}
    with pytest.raises(CertificateError, match="is not inside"):
        check(_cert(parabola_up, tree), parabola_up)
    inside = {"split": "x", "at": "1/2", "lo": {"leaf": "plain"}, "hi": {"leaf": "plain"}}
    assert check(_cert(parabola_up, inside), parabola_up) == 2


def test_the_check_works_above_the_stated_precision() -> None:
    """The margin of exp_tiny is about 2^-81 next to terms near 1: it shows positive at the
    stated 100 bits plus the checker's extra bits, and not at 100 - 64 = 36 bits nor when
    the certificate's precision is overridden with 64 bits."""
    cert = _cert(exp_tiny, {"leaf": "plain"}, bits=100)
    assert check(cert, exp_tiny) == 1
    assert check(cert, exp_tiny, bits=128) == 1
    for bits in (36, 64):
        with pytest.raises(CertificateError, match="margin is not > 0"):
            check(cert, exp_tiny, bits=bits)


@pytest.mark.parametrize("bits", [None, "100", 1.5e2, True, 1, -3])
def test_a_certificate_states_its_precision(bits: object) -> None:
    cert = _cert(parabola_up, {"leaf": "plain"}, bits=bits)
    if bits is None:
        del cert["bits"]
    with pytest.raises(CertificateError, match="states no precision"):
        check(cert, parabola_up)
    assert check(cert, parabola_up, bits=80) == 1    # an explicit precision overrides it


def test_the_least_stated_precision_is_two_bits() -> None:
    assert check(_cert(parabola_up, {"leaf": "plain"}, bits=2), parabola_up) == 1


def test_errors_name_the_leaf_and_the_root_as_slash() -> None:
    with pytest.raises(CertificateError, match=r"^/: the margin is not >= 0"):
        check(_cert(identity, {"leaf": "plain"}), identity)
    tree = {"split": "x", "at": "1/2", "lo": {"leaf": "plain"}, "hi": {"leaf": "plain"}}
    with pytest.raises(CertificateError, match=r"^/x<=1/2: the margin"):
        check(_cert(identity, tree), identity)


def test_leaf_holds_answers_for_the_prover_without_raising() -> None:
    box = identity.box()
    assert leaf_holds(identity, box, {"fixed": {"x": "lo"}, "leaf": "plain"}, 80) is False
    assert leaf_holds(identity, box, {"leaf": "guess"}, 80) is False
    assert leaf_holds(parabola_up, box, {"leaf": "plain"}, 80) is True
    positive_half = {"x": (Fraction(0), Fraction(1))}
    assert leaf_holds(identity, positive_half, {"fixed": {"x": "lo"}, "leaf": "plain"}, 80)
