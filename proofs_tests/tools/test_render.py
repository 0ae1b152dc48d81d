"""Decimal rendering (``reference.tools.render``): directed rounding at every binary exponent.

* at exponents of 2^10 .. 2^16 (where both can run) the exact route (Fraction and
  :mod:`decimal`) and the interval route (``_far_str``) print the same number, for all three
  roundings;
* beyond it (exponents up to ``2^4100``, where no Fraction can hold the number) each printed
  string is checked against python-flint's arb at a precision above the exponent's bits: the
  rounded-down string is at most the number and less than one unit of its last digit below it,
  the rounded-up one the mirror, the nearest one within half a unit;
* ``python -m reference value`` on the Gaussian tail at ``sigma = eps = 1.8e308``
  (``e^(-5e1232)``) prints, as text and JSON, inside 2 GB of address space (it once took 21 GB
  and died), with the plain value inside the printed enclosure.
"""

from __future__ import annotations

import decimal
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.far_support import exact_mpf, limit_address_space, order_key
from reference.tools import render

ROUNDINGS = (decimal.ROUND_FLOOR, decimal.ROUND_CEILING, decimal.ROUND_HALF_EVEN)
ROOT = Path(__file__).resolve().parents[2]


def _parse(text: str, digits: int) -> tuple[bool, int, int]:
    """``-d.ddd e E`` -> (negative, the digits as an integer, E - digits + 1)."""
    body, _, power = text.partition("e")
    negative = body.startswith("-")
    n = int(body.lstrip("-").replace(".", ""))
    assert 10 ** (digits - 1) <= n < 10**digits, text
    return negative, n, int(power) - digits + 1


@given(sign=st.booleans(), man=st.integers(0, 2**199), exp=st.integers(2**10, 2**16),
       negative_exp=st.booleans(), digits=st.integers(1, 60), rounding=st.sampled_from(ROUNDINGS))
def test_the_interval_route_agrees_with_the_exact_one(sign: bool, man: int, exp: int,
                                                      negative_exp: bool, digits: int,
                                                      rounding: str) -> None:
    """Odd mantissas below ``2^200``, ``2^10 <= |exp| <= 2^16``: no such number is a decimal
    tie or has 61 or fewer significant digits (that would need ``5^248`` to divide the
    mantissa, or ``|exp|`` digits), the premise of the interval route."""
    x = exact_mpf(sign, 2 * man + 1, -exp if negative_exp else exp)
    exact = render.decimal_str(x, digits, rounding)
    far = render._far_str(x._mpf_, digits, rounding)
    _parse(far, digits)
    # the same number (the exact route prints fixed-point between 1e-30 and 1e30 and drops
    # the trailing zeros of an exact result)
    assert decimal.Decimal(far) == decimal.Decimal(exact), (far, exact)


@given(sign=st.booleans(), man=st.integers(1, 2**200), bits=st.integers(17, 4100),
       low=st.integers(0, 2**64), negative_exp=st.booleans(), digits=st.integers(1, 60),
       rounding=st.sampled_from(ROUNDINGS))
def test_far_strings_round_the_right_way(sign: bool, man: int, bits: int, low: int,
                                         negative_exp: bool, digits: int, rounding: str) -> None:
    exp = (1 << (bits - 1)) + low % (1 << (bits - 1))  # |exp| has exactly ``bits`` bits
    exp = -exp if negative_exp else exp
    x = exact_mpf(sign, man, exp)
    text = render.decimal_str(x, digits, rounding)
    negative, n, power = _parse(text, digits)
    assert negative == sign
    old = flint.ctx.prec
    flint.ctx.prec = bits + power.bit_length() + 4 * digits + 300
    try:
        x_arb = flint.arb(man) * flint.arb(2) ** flint.fmpz(exp)
        ratio = x_arb / flint.arb(10) ** flint.fmpz(power)
        up = {decimal.ROUND_FLOOR: sign, decimal.ROUND_CEILING: not sign}.get(rounding)
        if up is None:
            assert abs(ratio - n) <= flint.arb(0.5), text
        elif up:  # the magnitude rounded up
            assert n - 1 < ratio <= n, text
        else:
            assert n <= ratio < n + 1, text
    finally:
        flint.ctx.prec = old


def test_plain_and_directed_strings_at_two_to_the_minus_seventy_thousand() -> None:
    """``2^-70000 = 7.948835717823286115581...e-21073`` (flint's decimal expansion at 1000 bits)."""
    x = mpmath.mpf(2) ** -70000
    flint.ctx.prec, old = 1000, flint.ctx.prec
    try:
        expected = (flint.arb(2) ** -70000).str(30, radius=False)
    finally:
        flint.ctx.prec = old
    assert expected.startswith("7.948835717823286115581")
    assert render.decimal_str(x, 20) == "7.9488357178232861156e-21073"
    assert render.lower_str(x, 20) == "7.9488357178232861155e-21073"
    assert render.upper_str(x, 20) == "7.9488357178232861156e-21073"
    assert render.lower_str(-x, 3) == "-7.95e-21073" and render.upper_str(-x, 3) == "-7.94e-21073"
    # just below 10^30000 (a 200-bit mantissa times 2^99458): rounded up, the carry moves the
    # exponent
    below = exact_mpf(False, 10**30000 >> 99458, 99458)
    assert 0 < 10**30000 - int(below) < 2**99458
    assert render.upper_str(below, 5) == "1.0000e+30000"
    assert render.lower_str(below, 5) == "9.9999e+29999"
    assert render.decimal_str(below, 5) == "1.0000e+30000"


def _cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "reference", "value", "LEC11:GaussTail",
                           "sigma=1.7976931348623157e308", "eps=1.7976931348623157e308", *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          preexec_fn=limit_address_space, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limit via setrlimit")
def test_the_gaussian_tail_at_the_largest_double_prints_in_bounded_memory() -> None:
    out = json.loads(_cli("--certified", "--json"))
    value, lo, hi = (out[k] for k in ("value", "lo", "hi"))
    assert all(len(s.partition("e")[2]) > 1200 for s in (value, lo, hi))
    assert order_key(lo) <= order_key(value) <= order_key(hi)
    # the exact value Q(t), t = (eps - 1/(2 sigma^2)) sigma, lies in [phi(t)/t (1 - 1/t^2),
    # phi(t)/t] (Mills' ratio bounds): lo must be below the lower, hi above the upper one
    flint.ctx.prec, old = 4400, flint.ctx.prec
    try:
        s = flint.arb("1.7976931348623157e308")  # the decimal the CLI reads, not the double
        t = (s - 1 / (2 * s * s)) * s
        ln10 = flint.arb(10).log()
        log10_upper = -(t * t) / (2 * ln10) - (t * (2 * flint.arb.pi()).sqrt()).log() / ln10
        log10_lower = log10_upper + (1 - 1 / (t * t)).log() / ln10
        for text, below in ((lo, True), (hi, False)):
            _, power, body = order_key(text)
            mantissa = flint.arb(flint.fmpq(body.numerator, body.denominator))
            log10_end = flint.arb(power) + mantissa.log() / ln10
            assert (log10_end < log10_lower) if below else (log10_end > log10_upper)
    finally:
        flint.ctx.prec = old
    text = _cli("--certified")
    assert text.splitlines()[0] == value and "certified: [" in text


@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 2])
def test_numbers_next_to_a_boundary_need_more_precision(offset: int) -> None:
    """``x`` within ``2^-250`` (relative) of ``12345 10^29995`` or of the tie ``12345.5
    10^29995``, on either side (decided in Python integers): the first precision (101 bits at
    5 digits) cannot tell, the digits come after the precision has doubled."""
    exp = 99658 - 260  # 260-bit mantissas
    for target, tie in ((12345 * 10**29995, False), (123455 * 10**29994, True)):
        x = exact_mpf(False, (target >> exp) + offset, exp)
        below = int(x) < target
        assert abs(int(x) - target) < target >> 250
        low, high = (12345, 12346) if tie or not below else (12344, 12345)
        nearest = (12345 if below else 12346) if tie else 12345
        assert render.lower_str(x, 5) == f"{low / 10**4:.4f}e+29999"
        assert render.upper_str(x, 5) == f"{high / 10**4:.4f}e+29999"
        assert render.decimal_str(x, 5) == f"{nearest / 10**4:.4f}e+29999"
        assert render.lower_str(x, 1) == "1e+29999" and render.upper_str(x, 1) == "2e+29999"


def test_ordinary_numbers_keep_the_exact_route_and_its_format() -> None:
    """Fixed-point from ``1e-29`` to below ``1e30``, scientific outside; zero and infinities."""
    mpf = mpmath.mpf
    assert render.decimal_str(mpf(0), 5) == "0" and render.decimal_str(mpf(0.5), 5) == "0.5"
    assert render.decimal_str(mpf("-inf"), 5) == "-inf"
    assert render.decimal_str(mpf("inf"), 5) == "inf"
    assert render.decimal_str(mpf(2) ** 98, 3) == "317000000000000000000000000000"  # 3.17e29
    assert render.decimal_str(mpf(2) ** 100, 3) == "1.27e+30"
    assert render.lower_str(mpf(2) ** -96, 3) == "0.0000000000000000000000000000126"  # 1.26e-29
    assert render.upper_str(mpf(2) ** -99, 3) == "1.58e-30"
    assert render.decimal_str(Fraction(-1, 3), 4) == "-0.3333"
