"""Parameter domains (reference.core.params): every constructor's boundary accepted or
refused as its docstring states, infinities, sequences and distributions, and the
cross-parameter preconditions, each at the boundary and one step past it (two-sided).

Expected outcomes come from the stated domains ("a real number in [0, 1)", "< 1/e", "must
sum to 1" within 2^-40, ...), with exact rationals for the values at a boundary.
"""

from __future__ import annotations

import dataclasses
import math
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reference import DomainError
from reference.core.params import (
    MASS_TOLERANCE,
    Param,
    all_of,
    as_fraction,
    count,
    distribution,
    equal_lengths,
    inv_e_precondition,
    is_plus_inf,
    max_length,
    non_increasing,
    nonneg,
    nonneg_seq,
    nonzero,
    ordered,
    positive,
    real,
    unit_closed_open,
    unit_open,
    unit_seq,
)

TINY = Fraction(1, 10**40)


def ok(p: Param, x: object) -> object:
    return p.convert(x, "T")


def refused(p: Param, x: object) -> None:
    with pytest.raises(DomainError):
        p.convert(x, "T")


@pytest.mark.parametrize("x", ["inf", "+Infinity", " INF ", "infinity", Decimal("Infinity"),
                               mpmath.inf, math.inf, 1e308 * 10])
def test_plus_infinity_forms(x: object) -> None:
    assert is_plus_inf(x)


@pytest.mark.parametrize("x", ["-inf", "1e400", "nan", Decimal("-Infinity"), Decimal(5),
                               -mpmath.inf, mpmath.mpf(3), -math.inf, 1e308, 7, Fraction(1, 2),
                               True, None, [math.inf]])
def test_not_plus_infinity(x: object) -> None:
    assert not is_plus_inf(x)


def test_real_domains_at_their_boundaries() -> None:
    assert ok(positive("e"), TINY) == TINY
    refused(positive("e"), 0)
    assert ok(nonneg("e"), 0) == 0
    refused(nonneg("e"), -TINY)
    assert ok(real("x"), -10**9) == -10**9
    assert ok(unit_open("d"), Fraction(1, 2)) == Fraction(1, 2)
    for bad in (0, 1, -TINY, 1 + TINY):
        refused(unit_open("d"), bad)
    assert ok(unit_closed_open("d"), 0) == 0 and ok(unit_closed_open("d"), 1 - TINY) == 1 - TINY
    refused(unit_closed_open("d"), 1)
    refused(unit_closed_open("d"), -TINY)
    upper = Param("x", "real", hi=Fraction(1))
    assert ok(upper, 1) == 1 and ok(upper, -5) == -5
    refused(upper, 1 + TINY)
    upper_open = Param("x", "real", hi=Fraction(1), hi_open=True)
    assert ok(upper_open, 1 - TINY) == 1 - TINY
    refused(upper_open, 1)


fractions = st.fractions(-5, 5, max_denominator=7)


@given(lo=st.none() | fractions, hi=st.none() | fractions, lo_open=st.booleans(),
       hi_open=st.booleans(), x=fractions)
@example(lo=Fraction(-2, 3), hi=Fraction(5, 7), lo_open=True, hi_open=False, x=Fraction(-2, 3))
@example(lo=Fraction(-2, 3), hi=Fraction(5, 7), lo_open=False, hi_open=True, x=Fraction(5, 7))
def test_any_rational_ends_decide_as_fraction_comparisons(
        lo: Fraction | None, hi: Fraction | None, lo_open: bool, hi_open: bool,
        x: Fraction) -> None:
    """Ends with any sign and denominator (the check compares in integers): inside exactly
    when ``Fraction``'s own comparisons say so, at each end open or closed."""
    p = Param("x", "real", lo=lo, lo_open=lo_open, hi=hi, hi_open=hi_open)
    inside = (lo is None or x > lo or (x == lo and not lo_open)) and \
        (hi is None or x < hi or (x == hi and not hi_open))
    if inside:
        assert ok(p, x) == x
    else:
        refused(p, x)


def test_conditions_read_as_the_domain() -> None:
    assert unit_open("d").condition() == "must lie in (0, 1)"
    assert unit_closed_open("d").condition() == "must lie in [0, 1)"
    assert positive("e").condition() == "must be > 0"
    assert nonneg("e").condition() == "must be >= 0"
    assert Param("x", "real", hi=Fraction(1, 2)).condition() == "must be <= 0.5"
    assert Param("x", "real", hi=Fraction(1), hi_open=True).condition() == "must be < 1"
    assert real("x").condition() == "must be a finite real number"
    assert Param("a", "real", lo=Fraction(1), lo_open=True,
                 allow_inf=True).condition() == "must be > 1 or inf"


def test_integers_and_infinity_opt_in() -> None:
    c = count("k", hi=10)
    assert ok(c, 1) == 1 and ok(c, 10) == 10 and ok(c, "7") == 7
    for bad in (0, 11, 1.5, "2.5"):
        refused(c, bad)
    assert count("k").required and not count("k", default=3).required
    alpha = Param("alpha", "real", lo=Fraction(1), lo_open=True, allow_inf=True)
    assert ok(alpha, "inf") == math.inf and ok(alpha, mpmath.inf) == math.inf
    assert ok(alpha, 2) == 2
    for bad in ("-inf", 1, "nan", "abc"):
        refused(alpha, bad)
    refused(real("x"), "inf")


def test_sequences_and_distributions() -> None:
    assert ok(nonneg_seq("e"), "0.1;0.2, 0.3") == (Fraction(1, 10), Fraction(1, 5),
                                                    Fraction(3, 10))
    assert ok(nonneg_seq("e"), (x for x in (1, 2))) == (1, 2)   # any iterable
    assert ok(nonneg_seq("e", default=()), []) == ()
    for bad in ([], "0.1,,0.2", 5, [-TINY], [0, -1]):
        refused(nonneg_seq("e"), bad)
    assert ok(unit_seq("d"), [0, 1 - TINY]) == (0, 1 - TINY)
    refused(unit_seq("d"), [0, 1])
    assert ok(Param("k", "intseq", lo=Fraction(1)), "1,2,3") == (1, 2, 3)
    refused(Param("k", "intseq", lo=Fraction(1)), "1,2.5")
    assert ok(Param("k", "seq", min_len=2), [1, 2]) == (1, 2)
    refused(Param("k", "seq", min_len=2), [1])
    d = distribution("p")
    assert MASS_TOLERANCE == Fraction(1, 2**40)
    assert ok(d, [Fraction(1, 3), Fraction(2, 3)]) == (Fraction(1, 3), Fraction(2, 3))
    assert ok(d, [Fraction(1, 2), Fraction(1, 2) + MASS_TOLERANCE]) is not None  # at the edge
    assert ok(d, [Fraction(1, 2), Fraction(1, 2) - MASS_TOLERANCE]) is not None
    for bad in ([Fraction(1, 2), Fraction(1, 2) + 2 * MASS_TOLERANCE],
                [Fraction(1, 2), Fraction(1, 2) - 2 * MASS_TOLERANCE], [1.5, -0.5]):
        refused(d, bad)


def _check(pre: object, values: dict[str, object]) -> bool:
    try:
        pre(values, "T")  # type: ignore[operator]
    except DomainError:
        return False
    return True


def test_preconditions_at_their_boundaries() -> None:
    inv_e = Fraction(367879441171442321, 10**18)   # 1/e = 0.36787944117144232159...
    assert _check(inv_e_precondition("d"), {"d": inv_e})
    assert not _check(inv_e_precondition("d"), {"d": inv_e + Fraction(1, 10**18)})
    assert _check(max_length("x", 3), {"x": (1, 2, 3)})
    assert not _check(max_length("x", 3), {"x": (1, 2, 3, 4)})
    assert _check(ordered("a", "b"), {"a": 2, "b": 2})
    assert not _check(ordered("a", "b"), {"a": 2 + TINY, "b": 2})
    assert _check(nonzero("a", "why"), {"a": TINY})
    assert not _check(nonzero("a", "why"), {"a": 0})
    assert _check(equal_lengths("a", "b", "c"), {"a": (1,), "b": (2,), "c": (3,)})
    assert not _check(equal_lengths("a", "b", "c"), {"a": (1,), "b": (2,), "c": (3, 4)})
    assert _check(non_increasing("t", "why"), {"t": (3, 3, 1)})
    assert not _check(non_increasing("t", "why"), {"t": (3, 1, 1 + TINY)})
    both = all_of(None, ordered("a", "b"), nonzero("a", "why"))
    assert _check(both, {"a": 1, "b": 2})
    assert not _check(both, {"a": 0, "b": 2}) and not _check(both, {"a": 3, "b": 2})


def test_as_fraction_ranges() -> None:
    assert as_fraction("0", "x", "T") == 0 and as_fraction(-5, "x", "T", lo=None) == -5
    with pytest.raises(DomainError):
        as_fraction(-TINY, "x", "T")
    assert as_fraction(1, "x", "T", hi=Fraction(1)) == 1
    with pytest.raises(DomainError):
        as_fraction(1 + TINY, "x", "T", hi=Fraction(1))
    with pytest.raises(DomainError):
        as_fraction(1, "x", "T", hi=Fraction(1), hi_open=True)
    assert as_fraction(1 - TINY, "x", "T", hi=Fraction(1), hi_open=True) == 1 - TINY


def test_params_are_values_and_sequences_need_an_entry_by_default() -> None:
    p = Param("k", "intseq")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.name = "other"  # type: ignore[misc]
    assert p.min_len == 1
    refused(p, [])


def test_float_masses_are_normalised_to_the_distribution_they_describe() -> None:
    """0.1 and 0.9 as doubles sum to 1 + 2^-55 exactly (Fraction arithmetic below): within
    MASS_TOLERANCE, so each mass is divided by that total and the masses sum to exactly 1."""
    a, b = Fraction(0.1), Fraction(0.9)
    total = a + b
    assert total == 1 + Fraction(1, 2**55)
    got = ok(distribution("p"), [0.1, 0.9])
    assert got == (a / total, b / total) and sum(got) == 1
    exact_masses = ok(distribution("p"), [Fraction(1, 10), Fraction(9, 10)])
    assert exact_masses == (Fraction(1, 10), Fraction(9, 10))   # total 1: left as given


def test_unit_sequences_need_an_entry_unless_defaulted() -> None:
    refused(unit_seq("d"), [])
    assert ok(unit_seq("d", default=()), []) == ()
    refused(unit_seq("d", default=()), [-TINY])


def test_equal_lengths_measures_against_the_first_sequence() -> None:
    # b and c agree with each other but not with a: refused (a's length is the reference)
    assert not _check(equal_lengths("a", "b", "c"), {"a": (1,), "b": (1, 2), "c": (1, 2)})
    assert not _check(equal_lengths("a", "b"), {"a": (1, 2), "b": (1,)})


def test_integer_ends_are_shown_as_integers() -> None:
    assert count("k", hi=10**6).condition() == "must lie in [1, 1000000]"
    assert Param("x", "real", lo=Fraction(-10**7)).condition() == "must be >= -10000000"


def test_a_huge_finite_mpf_is_not_infinity() -> None:
    # 2^1400 overflows a double (float() of it is inf) but is a finite mpf: not +inf, and
    # an alpha domain takes it as the finite number it is
    huge = mpmath.mpf(2) ** 1400
    assert not is_plus_inf(huge) and not is_plus_inf(mpmath.mpf("1e400"))
    alpha = Param("alpha", "real", lo=Fraction(1), lo_open=True, allow_inf=True)
    assert ok(alpha, huge) == 2**1400
