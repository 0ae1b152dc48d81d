"""The result model's plumbing (reference.core.model) on small results built here: binding
of inputs, the precision a formula runs at, NaN checks, the walk over output structures,
lifting exact inputs into a context, and the extra bits for inputs next to a domain end.

Expected values come from the stated rules (docs/numeric-contract.md: ``PLAIN_GUARD_DIGITS``
(10) more digits for a plain value, "b more bits" for an input within 2^-b of a non-zero
end, "at most 3400") and from exact rationals or python-flint arb balls.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from fractions import Fraction
from typing import Any

import flint
import mpmath
import pytest
from mpmath import iv, mp
from mpmath.libmp import fnan, fone

from reference import DomainError, get_dps
from reference.core.model import (
    PLAIN_GUARD_DIGITS,
    Result,
    check_finite,
    lift,
    map_numbers,
    result,
)
from reference.core.numeric import Interval, endpoints, exact, exp
from reference.core.params import (
    MAX_NEAR_END_BITS,
    Param,
    near_end_bits,
    nonneg_seq,
    positive,
    real,
    unit_open,
)

SEEN: list[tuple[str, int]] = []


@result("T:Rec", title="recorder", kind="bound", statement="r(x, y) = x + y",
        params=[positive("x"), real("y", default=Fraction(1, 3))])
def recorder(ctx: Any, x: Any, y: Any) -> Any:
    """x + y, noting the context and its precision in decimal digits."""
    SEEN.append(("iv" if ctx is iv else "mp", ctx.dps))
    return x + y


def test_a_plain_value_runs_with_ten_guard_digits_and_an_enclosure_with_ten_more() -> None:
    assert PLAIN_GUARD_DIGITS == 10                 # docs/numeric-contract.md
    SEEN.clear()
    value = recorder(x=1)
    enc = recorder.certified(x=1)
    dps = get_dps()
    # plain: working + guard digits; interval: working digits, plus working()'s 10 guard
    assert SEEN == [("mp", dps + 10), ("iv", dps + 10)]
    with mp.workdps(dps):
        prec = mp.prec
    assert value._mpf_[3] <= prec                   # the plain value is rounded back once,
    third = Fraction(4, 3)                          # to 1 + 1/3 within half an ulp
    assert abs(exact(value, "v", "t") - third) <= Fraction(1, 2**prec)
    assert exact(enc.lo, "lo", "t") < third < exact(enc.hi, "hi", "t")


def test_binding_positional_keyword_defaults_and_refusals() -> None:
    assert recorder.bind((2,), {}) == {"x": 2, "y": Fraction(1, 3)}
    assert recorder.bind((2, "0.5"), {}) == {"x": 2, "y": Fraction(1, 2)}   # all positional
    assert recorder.bind((), {"y": 5, "x": "0.25"}) == {"x": Fraction(1, 4), "y": 5}
    for args, kwargs, message in (((1, 2, 3), {}, "at most 2"), ((1,), {"x": 1}, "twice"),
                                  ((), {"z": 1, "x": 1}, "not a parameter"),
                                  ((), {"y": 1}, "required"), ((0,), {}, "must be > 0")):
        with pytest.raises(DomainError, match=message):
            recorder.bind(args, kwargs)


def test_result_metadata_and_defaults() -> None:
    assert recorder.source == "T" and recorder.where == "T:Rec (recorder)"
    assert recorder.function.endswith("test_model_helpers.recorder")
    assert recorder.__doc__ == recorder.core.__doc__ and recorder.param("y").name == "y"
    with pytest.raises(KeyError):
        recorder.param("z")
    assert not recorder.probabilistic and not recorder.exact_inputs
    assert recorder.inverse is None and recorder.status == "stated"
    plain = Result("T:Plain", "t", "bound", "s", (positive("x"),), recorder.core)
    assert not plain.probabilistic and not plain.exact_inputs and plain.prepare is None
    with pytest.raises(TypeError, match="not an inverse"):
        recorder.certify({"x": Fraction(1), "y": Fraction(0)})
    assert recorder != plain and len({recorder, plain}) == 2     # identity, hashable


def test_check_finite_walks_every_number() -> None:
    check_finite((mp.one, [mp.inf, (iv.mpf((1, 2)), 3, "label", None)]), "T")
    for bad in (mp.nan, (mp.one, (mp.nan,)), [mp.one, mp.nan],
                iv.make_mpf((fnan, fone)), iv.make_mpf((fone, fnan))):
        with pytest.raises(RuntimeError, match="T produced NaN"):
            check_finite(bad, "T")


def test_map_numbers_keeps_the_structure() -> None:
    Pair = namedtuple("Pair", "a b")
    out = map_numbers(lambda v: 2 * v, Pair(mp.one, (mp.mpf(3), [mp.mpf(5), "k"])))
    assert isinstance(out, Pair) and out.a == 2
    assert isinstance(out.b, tuple) and out.b[0] == 6 and out.b[1] == [10, "k"]
    assert map_numbers(lambda v: -v, (mp.one, iv.mpf(2))) == (-1, iv.mpf(-2))
    assert map_numbers(lambda v: -v, 7) == 7


def test_lift_turns_exact_values_into_context_numbers() -> None:
    with mp.workdps(30):
        out = lift(mp, {"a": Fraction(1, 4), "s": (Fraction(1, 2), Fraction(3)), "k": 5,
                        "e": (), "ks": (1, 2), "m": "text"})
    assert out["a"] == mp.mpf(0.25) and isinstance(out["a"], mpmath.mpf)
    assert out["s"] == [0.5, 3] and all(isinstance(v, mpmath.mpf) for v in out["s"])
    assert out["k"] == 5 and out["e"] == () and out["ks"] == (1, 2) and out["m"] == "text"
    enc = lift(iv, {"a": Fraction(1, 3)})["a"]
    assert isinstance(enc, iv.mpf) and Fraction(1, 3) in Interval(*map(
        lambda e: exact(e, "e", "t"), (endpoints(enc).lo, endpoints(enc).hi)))


_UNIT = Result("T:Unit", "t", "bound", "s",
               (unit_open("d"), Param("w", "real", lo=Fraction(-2), hi=Fraction(3)),
                nonneg_seq("s"), positive("x")), recorder.core)


def _bits(**values: Any) -> int:
    return near_end_bits(_UNIT.params, {"d": Fraction(1, 2), "w": Fraction(0), "s": (Fraction(1),),
                                 "x": Fraction(1), **values})


def test_near_end_bits_away_from_the_ends_and_at_them() -> None:
    assert _bits() == 0
    assert _bits(w=Fraction(3), d=Fraction(1, 2)) == 0        # on a closed end: nothing to keep
    assert _bits(w=Fraction(-2)) == 0
    assert _bits(d=Fraction(1, 10**300)) == 0                 # next to the zero end: floats keep it
    assert _bits(d=1 - Fraction(1, 256)) == 0                 # 2^-8 away: already told apart
    assert _bits(d=Fraction(40001, 10**5)) == 0               # long denominators, far away
    # 1e-5 below the end 3: |end| / gap = 300000, bit lengths 19 - 1 = 18, plus 8
    assert _bits(w=Fraction(299999, 10**5)) == 26


@pytest.mark.parametrize("b", [9, 53, 100, 1074, 3000])
def test_near_end_bits_give_at_least_b_bits_within_two_to_the_minus_b(b: int) -> None:
    """Within 2^-b (relative) of the end 1, of the end 3, of the end -2, and for one entry
    of a sequence: at least b more bits, and not many more (two-sided)."""
    gap = Fraction(1, 2**b)
    for values in ({"d": 1 - gap}, {"w": 3 - 3 * gap}, {"w": -2 + 2 * gap}):
        got = _bits(**values)
        assert b <= got <= b + 16, (values, got)
    seq = Param("s", "seq", hi=Fraction(1), hi_open=True)
    probe = Result("T:Seq", "t", "bound", "s", (seq,), recorder.core)
    assert b <= near_end_bits(probe.params, {"s": (Fraction(0), 1 - gap)}) <= b + 16


def test_near_end_bits_just_inside_two_to_the_minus_eight_and_with_long_gaps() -> None:
    """1 - 1/257 is within 2^-8 of the end 1 (ratio 257 > 2^8): at least 8 more bits.  A
    gap 3^60 / (3^60 2^100 + 1), just under 2^-100, has a long numerator and denominator:
    at least 100 bits, and not many more (the bits are those of the ratio, not of its
    numerator and denominator)."""
    assert 8 <= _bits(d=1 - Fraction(1, 257)) <= 8 + 16
    gap = Fraction(3**60, 3**60 * 2**100 + 1)
    assert 100 <= _bits(d=1 - gap) <= 100 + 16



def test_exact_ends_opt_out_of_near_end_bits_but_not_of_huge_sizes() -> None:
    """A parameter marked ``exact_ends`` (the formula forms ``alpha - 1`` exactly and guards it
    itself) adds no bits next to its ends; the same parameter unmarked does; a huge value
    still gets its size (``e^x`` needs it whatever the ends)."""
    for mark, want in ((False, 100), (True, 0)):
        a = Param("a", "real", lo=Fraction(1), lo_open=True, hi=Fraction(2), exact_ends=mark)
        probe = Result("T:Ends", "t", "bound", "s", (a,), recorder.core)
        got = near_end_bits(probe.params, {"a": 1 + Fraction(1, 2**100)})
        assert want <= got <= want + 16 and (got == 0) == mark, (mark, got)
        assert near_end_bits(probe.params, {"a": 2 - Fraction(1, 2**99)}) == got   # same ratio
    big = Param("x", "real", lo=Fraction(1), exact_ends=True)
    probe = Result("T:Big", "t", "bound", "s", (big,), recorder.core)
    assert 200 <= near_end_bits(probe.params, {"x": Fraction(2**200 + 1)}) <= 216


SEEN_DPS: list[int] = []


def _note_dps(values: Any, where: str) -> dict[str, Any]:
    SEEN_DPS.append(get_dps())
    return {}


@result("T:Prep", title="prepared", kind="bound", statement="d", params=[unit_open("d")],
        prepare=_note_dps)
def _prepared(ctx: Any, d: Any) -> Any:
    """d."""
    return +d


def test_prepare_runs_with_the_digits_that_keep_an_input_off_its_end() -> None:
    """d = 1 - 2^-100: the prepare hook decides on the exact inputs with at least
    100 log10(2) = 30.1 more digits than the working precision (and not many more)."""
    SEEN_DPS.clear()
    _prepared(d=1 - Fraction(1, 2**100))
    _prepared(d=Fraction(1, 2))
    dps = get_dps()
    assert dps + 31 <= SEEN_DPS[0] <= dps + 40 and SEEN_DPS[1] == dps


def test_near_end_bits_are_capped_at_3400_and_huge_inputs_get_their_size() -> None:
    assert MAX_NEAR_END_BITS == 3400                          # docs/numeric-contract.md
    assert _bits(d=1 - Fraction(1, 2**5000)) == 3400
    assert _bits(d=Fraction(1, 2)) == 0
    for size in (65, 200, 1000):           # |x| in [2^size, 2^(size+1)): at least size bits
        got = _bits(x=Fraction(2**size + 1, 1))
        assert size <= got <= size + 16, (size, got)
        got = _bits(x=Fraction(2**size) / 3 * 4)
        assert size <= got <= size + 16


def _arb_log(v: Any) -> flint.arb:
    """log of an mpf from its exact mantissa and exponent (e^(2^65) has no Fraction)."""
    sign, man, e, _ = v._mpf_
    assert not sign and man
    return flint.arb(int(man)).log() + int(e) * flint.arb.const_log2()


@result("T:Exp", title="exp", kind="bound", statement="e^x", params=[real("x")])
def exp_of(ctx: Any, x: Any) -> Any:
    """e^x."""
    return exp(ctx, x)


@pytest.mark.parametrize("size", [65, 80, 300])
def test_exp_of_a_huge_input_is_faithful(size: int) -> None:
    """e^x at x = 2^size + 1/3 is known to relative |x| 2^-prec only if x carries size more
    bits than the working precision.  log of the plain value (arb, from its exact bits) is x
    within two ulps, and log of the enclosure's ends lie around x, at most 2^-150 apart."""
    x = Fraction(3 * 2**size + 1, 3)
    old = flint.ctx.prec
    flint.ctx.prec = 4 * size + 600
    try:
        ref = flint.arb(flint.fmpq(x.numerator, x.denominator))
        prec = mp.prec
        got = _arb_log(exp_of(x=x))
        assert abs(got - ref) < flint.arb(2) ** (2 - prec), (size, got - ref)
        enc = exp_of.certified(x=x)
        lo, hi = _arb_log(enc.lo), _arb_log(enc.hi)
        assert lo < ref < hi and hi - lo < flint.arb(2) ** -150
    finally:
        flint.ctx.prec = old


def test_a_nan_formula_is_an_internal_error_in_both_contexts() -> None:
    @result("T:NaN", title="nan", kind="bound", statement="nan", params=[positive("x")])
    def nan_of(ctx: Any, x: Any) -> Any:
        """NaN (a bug)."""
        return (x, ctx.mpf(mp.nan) if ctx is mp else iv.make_mpf((fnan, fone)))

    with pytest.raises(RuntimeError, match="T:NaN produced NaN"):
        nan_of(x=1)
    with pytest.raises(RuntimeError, match="T:NaN produced NaN"):
        nan_of.certified(x=1)


def test_records_are_frozen() -> None:
    enc = recorder.certified(x=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        enc.lo = mp.zero
