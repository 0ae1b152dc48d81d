"""``numeric.exp`` / ``numeric.log``: rigorous interval enclosures where mpmath's are not.

mpmath's interval ``exp`` returned the point interval ``[1 - x, 1 - x]`` (rounded) for
``x = 1.175494351e-38`` at 203 bits, which excludes ``e^-x``; a catalogue result
(``LEC11:LRR`` at ``eps = 1.175494351e-38``, ``delta = 1 - 2**-53``) inherited it and was
caught by the python-flint second route.  Random arguments fail now and then too
(``exp(0.79855)`` at 100 bits).  Every module calls these wrappers instead.
"""

from __future__ import annotations

import pathlib
import re
from fractions import Fraction

import flint
import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

from proofs_tests.arb_support import arb_mp_ends, arb_q, frac
from reference import get
from reference.core.numeric import endpoints, exp, expm1, log

PRECS = st.sampled_from([53, 100, 203, 400])


def _point(man: int, e: int) -> object:
    with mp.workprec(max(53, man.bit_length() + 1)):
        return mp.mpf(man) * mp.mpf(2) ** e


@given(PRECS, st.integers(-(2**60), 2**60), st.integers(-400, 8))
def test_exp_encloses_the_exact_value(prec: int, man: int, e: int) -> None:
    x = _point(man, e)
    old = iv.prec
    iv.prec = prec
    try:
        enc = endpoints(exp(iv, iv.mpf(x)))
    finally:
        iv.prec = old
    with mp.workprec(4 * prec + 900):
        exact = mp.exp(x)
        assert enc.lo <= exact <= enc.hi
        assert enc.hi - enc.lo <= exact * mp.mpf(2) ** (24 - prec)   # tight: a few ulps


@given(PRECS, st.integers(1, 2**60), st.integers(-400, 8), st.booleans())
def test_log_encloses_the_exact_value(prec: int, man: int, e: int, near_one: bool) -> None:
    x = _point(man, e)
    if near_one:
        with mp.workprec(prec):
            x = 1 + x if x < 1 else 1 + 1 / x
    old = iv.prec
    iv.prec = prec
    try:
        enc = endpoints(log(iv, iv.mpf(x)))
    finally:
        iv.prec = old
    with mp.workprec(4 * prec + 900):
        exact = mp.log(x)
        assert enc.lo <= exact <= enc.hi
        assert enc.hi - enc.lo <= abs(exact) * mp.mpf(2) ** (24 - prec)


def test_leaky_rr_at_a_tiny_eps_encloses_the_exact_masses() -> None:
    eps, delta = Fraction(1.175494351e-38), 1 - Fraction(1, 2**53)
    enc = get("LEC11:LRR").certified(eps=eps, delta=delta)
    with mp.workdps(200):
        e = mp.mpf(eps.numerator) / eps.denominator
        likely = mp.mpf(2) ** -53 / (1 + mp.exp(-e))
        assert enc.P[0].lo <= likely <= enc.P[0].hi
        assert enc.P[0].hi - enc.P[0].lo <= likely * mp.mpf(10) ** -45


def test_no_module_calls_mpmaths_exp_or_log_directly() -> None:
    root = pathlib.Path(__file__).resolve().parents[2] / "reference"
    pattern = re.compile(r"\b(ctx|iv|c)\.(exp|log|expm1|log1p)\(")
    offenders = [f"{p.relative_to(root)}:{i}" for p in root.rglob("*.py")
                 if p.name != "numeric.py"
                 for i, line in enumerate(p.read_text().splitlines(), 1)
                 if pattern.search(line) and "mp.exp(-3)" not in line]
    assert not offenders, offenders


@given(st.sampled_from([53, 100, 203]), st.integers(1, 2**20), st.integers(0, 30))
def test_log_of_an_interval_from_zero_encloses_the_upper_end(prec: int, man: int,
                                                             shift: int) -> None:
    """log([0, v]) is [-inf, log v]: its upper end took mpmath's iv.log, which came out an
    ulp below log(v) for v just above 1 (v = 1 + 123227 * 2^-68 rounded to 53 bits:
    4.4408920985006262e-16 < log v = 4.44089209850062518e-16); now the rigorous route."""
    with mp.workprec(prec):
        v = 1 + mp.mpf(man) * mp.mpf(2) ** (shift - prec - 20)
    old = iv.prec
    iv.prec = prec
    try:
        enc = endpoints(log(iv, iv.mpf((0, v))))
        point = endpoints(log(iv, iv.mpf(v)))
    finally:
        iv.prec = old
    assert enc.lo == -mp.inf and enc.hi == point.hi
    with mp.workprec(4 * prec + 900):
        assert point.lo <= mp.log(v) <= enc.hi


def test_log_at_zero_and_below() -> None:
    assert endpoints(log(iv, iv.mpf(0))).hi == -mp.inf
    with pytest.raises(ValueError, match="negative"):
        log(iv, iv.mpf((-1, 2)))


@pytest.mark.parametrize("prec", [53, 203])
@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("k", [8, 7])
def test_from_two_to_the_minus_eight_the_fine_route_gives_two_ulps(prec: int, sign: int,
                                                                   k: int) -> None:
    """The series is used only for |x| < 2^-8 (exp) and |v - 1| < 2^-8 (log), the module's
    comment; from 2^-8 on the ends come from mpmath's value 40 bits finer, widened by 2^20
    of its ulps (2^-20 of an ulp here) and rounded outward: at most two ulps apart.  The
    exact values from python-flint arb at 4 prec bits."""
    flint.ctx.prec = 4 * prec
    x = sign * Fraction(1, 2**k)                         # 2^-8 and 2^-7 (inside 0.99 .. 1.01)
    old = iv.prec
    iv.prec = prec
    try:
        e = endpoints(exp(iv, iv.mpf(sign * mp.mpf(2) ** -k)))       # exact binary numbers
        g = endpoints(log(iv, iv.mpf(1 + sign * mp.mpf(2) ** -k)))
    finally:
        iv.prec = old
    for enc, ref in ((e, arb_q(x).exp()), (g, arb_q(1 + x).log())):
        lo, hi = frac(enc.lo), frac(enc.hi)
        assert arb_q(lo) < ref < arb_q(hi)
        assert hi - lo <= 2 * abs(hi) / 2 ** (prec - 1)


def test_log_below_one_takes_the_rigorous_route() -> None:
    """Points in (0, 1) need the rigorous route too: at 256 bits mpmath's ``iv.log`` put
    the lower end of log(v) above the exact value for this v (found by a random search of
    200,000 points; one miss).  The exact value from python-flint arb at 1024 bits."""
    man = 51519879950141294435138419780218468657368583433232924604924099413014389759977
    flint.ctx.prec = 1024
    ref = arb_q(Fraction(man, 2**256)).log()
    old, old_mp = iv.prec, mp.prec
    iv.prec = mp.prec = 256
    try:
        v = mp.ldexp(mp.mpf(man), -256)                 # exact: man has 256 bits
        enc = endpoints(log(iv, iv.mpf(v)))
    finally:
        iv.prec, mp.prec = old, old_mp
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert arb_q(lo) < ref < arb_q(hi)
    assert hi - lo <= 2 * abs(hi) / 2 ** 255                # two ulps


# ---- huge integer arguments above 600 bits: mpmath's power path avoided ------------------

_POW = mpmath.libmp.libelefun.mpf_pow_int


def _no_pow(*args: object) -> object:
    """mpmath's integer power, failing for the huge exponents of ``exp``'s power path only
    (mpmath 1.4 also routes ``mpf(2) ** -8`` through this name; 1.3 does not)."""
    if abs(args[1]) >= 2**62:  # type: ignore[call-overload]
        raise AssertionError("mpmath's power path")
    return _POW(*args)


def _enclose(fn: object, x: int, prec: int) -> object:
    old = iv.prec
    iv.prec = prec
    try:
        return endpoints(fn(iv, iv.mpf(x)))  # type: ignore[operator]
    finally:
        iv.prec = old


_HUGE = [2**65, 3**400, 3**400 * 2**4000, 2**5000]   # exact at 700 bits, 66 to 5001 bits


@pytest.mark.parametrize("minus_one", [False, True], ids=["exp", "expm1"])
@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("v", _HUGE, ids=["2^65", "3^400", "3^400*2^4000", "2^5000"])
def test_exp_of_a_huge_integer_at_high_precision(monkeypatch: pytest.MonkeyPatch, v: int,
                                                 sign: int, minus_one: bool) -> None:
    """Above 600 bits mpmath raised ``e`` to an integer argument by squaring (0.2-0.7 s at
    ``2^3000 .. 2^5000``; the Gaussian tail at 1.8e308 took 3.4 s): with its power routine
    made to fail, the 700-bit enclosure still comes out, contains Arb's ball of
    ``e^x`` (``- 1``; 900 bits beyond the argument's) and is a few ulps wide."""
    monkeypatch.setattr(mpmath.libmp.libelefun, "mpf_pow_int", _no_pow)
    x = sign * v
    enc = _enclose(expm1 if minus_one else exp, x, 700)
    old = flint.ctx.prec
    flint.ctx.prec = 900 + v.bit_length()   # the reduction by ln 2 costs the argument's bits
    try:
        ball = flint.arb(x).exp() - (1 if minus_one else 0)
    finally:
        flint.ctx.prec = old
    lo, hi = arb_mp_ends(ball)
    assert enc.lo <= lo and hi <= enc.hi, (x, enc)
    with mp.workprec(900):
        assert enc.hi - enc.lo <= abs(lo) * mp.mpf(2) ** (24 - 700)


def test_power_path_is_left_only_where_it_is_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The switch, both sides: ``2^63`` (63 squarings) and any argument at 560 bits (``wp =
    600``: mpmath's own switch is ``prec > 600``) still reach mpmath's power routine or do
    not need it; ``2^64`` at 561 bits does not reach it."""
    monkeypatch.setattr(mpmath.libmp.libelefun, "mpf_pow_int", _no_pow)
    with pytest.raises(AssertionError, match="power path"):
        _enclose(exp, 2**63, 700)
    _enclose(exp, 2**5000, 560)       # mpmath's reduction path at 600 bits
    _enclose(exp, 2**64, 561)
    with pytest.raises(AssertionError, match="power path"):
        _enclose(expm1, 2**63, 700)
