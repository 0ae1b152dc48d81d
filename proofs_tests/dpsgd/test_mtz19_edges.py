"""Property tests of MTZ19:rdp at the edges its mutation run showed untested.

Independent routes: the documented domain written as numbers (not the module's constants),
the CVZ sum of ``1 - 1/2 + 1/3 - ...`` against ``ln 2`` and against the exact rational
weighted sum, the Gaussian mechanism's ``alpha / (2 sigma^2)`` as ``q -> 1``, and the integer
order's finite sum (no cancellation) next to a fractional order at huge sigma, and the
second-order expansion (with its remainder bounded) where the series is far below its precision.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp

import reference.results.dpsgd.mtz19 as mtz19
from proofs_tests.arb_support import frac
from proofs_tests.dpsgd_pld_support import mpf  # mpmath 1.3 (CI's) converts no Fraction
from reference import DomainError, certified
from reference.core.numeric import endpoints
from reference.results import covers
from reference.results.dpsgd.mtz19 import _tail, cvz_weights, sgm_rdp


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("sigma", "alpha", "ok"), [
    (1, 10000, True), (1, 10001, False), (1, "255.5", True), (1, "256.5", False),
    (10**6, "2.5", True), (10**6 + 1, "2.5", False), (10**6 + 1, 3, True),
])
def test_documented_limits(sigma: object, alpha: object, ok: bool) -> None:
    """Orders up to 10000; fractional ones up to 256, and only with sigma <= 10^6 (the
    docstring's numbers, written here, not read from the module)."""
    if ok:
        assert sgm_rdp(q="0.001", sigma=sigma, alpha=alpha) > 0
    else:
        with pytest.raises(DomainError, match="MTZ19:rdp"):
            sgm_rdp(q="0.001", sigma=sigma, alpha=alpha)


@covers("MTZ19:rdp")
@pytest.mark.parametrize("n", [2, 3, 5])
def test_cvz_tail_carries_its_error_bound(n: int) -> None:
    """``1 - 1/2 + 1/3 - ... = ln 2``: with ``n`` terms the interval sum contains ``ln 2`` (its
    ``[-a_0/d_n, a_0/d_n]`` is what reaches it: the weighted sum alone misses by far more
    than its rounding), and the plain sum is the exact rational weighted sum."""
    d, weights = cvz_weights(n)
    sizes = [Fraction(1, k + 1) for k in range(n)]
    exact_sum = sum((w * a for w, a in zip(weights, sizes, strict=True)), Fraction(0))
    with mp.workdps(60):
        ln2 = mp.log(2)
        assert abs(exact_sum - frac(ln2)) > Fraction(1, 10**40)  # the bound is needed
        iv.prec = mp.prec
        enc = endpoints(_tail(iv, [iv.mpf(1) / (k + 1) for k in range(n)], weights, d))
        assert enc.lo <= ln2 <= enc.hi
        assert frac(enc.hi) - frac(enc.lo) <= Fraction(3, d)
        plain = _tail(mp, [mp.mpf(1) / (k + 1) for k in range(n)], weights, d)
        assert abs(frac(plain) - exact_sum) <= Fraction(1, 10**50)


@covers("MTZ19:rdp")
@pytest.mark.parametrize("alpha", ["1.5", "2.5", "7.25"])
def test_sampling_rate_next_to_one(alpha: str) -> None:
    """``q = 1 - 10^-300`` at a fractional order: the Gaussian mechanism's ``alpha/(2 sigma^2)``
    less about ``10^-300`` (nondecreasing in q), so within ``1e-40`` below it."""
    q = 1 - Fraction(1, 10**300)
    gauss = Fraction(alpha) / 2
    enc = certified(sgm_rdp, q=q, sigma=1, alpha=alpha)
    assert gauss - Fraction(1, 10**40) <= frac(enc.lo) <= frac(enc.hi) <= gauss + Fraction(
        1, 10**45)
    assert abs(frac(sgm_rdp(q=q, sigma=1, alpha=alpha)) - gauss) <= Fraction(1, 10**40)


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("q", "sigma", "alpha"), [("0.5", "0.2", "2.5"), ("0.3", "0.1", "3.5")])
def test_tight_when_the_moment_is_huge(q: str, sigma: str, alpha: str) -> None:
    """Small sigma: ``A`` is ``e^45`` and more, the tail's first term too; the number of CVZ
    terms must follow their size (the enclosure stays 1e-45 wide, the plain value inside)."""
    enc = certified(sgm_rdp, q=q, sigma=sigma, alpha=alpha)
    value = frac(sgm_rdp(q=q, sigma=sigma, alpha=alpha))
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert value > 10 and hi - lo <= value * Fraction(1, 10**45)
    assert lo - value * Fraction(1, 10**48) <= value <= hi + value * Fraction(1, 10**48)


@covers("MTZ19:rdp")
@pytest.mark.parametrize("sigma", ["1e3", "1e6"])
@pytest.mark.parametrize("q", ["0.5", "0.001"])
def test_huge_noise_fractional_meets_the_integer_sum(q: str, sigma: str) -> None:
    """At ``alpha = 3 - 2^-200`` the series cancels to ``A - 1 ~ q^2/sigma^2``; the integer
    order 3 (a sum of positive terms) differs by about ``2^-200`` relative: the guard bits must
    keep the fractional value within a few units of 50 digits of it, and the enclosure as
    narrow as elsewhere (1e-55; about 1e-64 with the guard, 1e-46 without its sigma term)."""
    near = 3 - Fraction(1, 2**200)
    at_three = frac(sgm_rdp(q=q, sigma=sigma, alpha=3))
    enc = certified(sgm_rdp, q=q, sigma=sigma, alpha=near)
    tol = at_three * Fraction(1, 10**49)
    assert abs(frac(sgm_rdp(q=q, sigma=sigma, alpha=near)) - at_three) <= tol
    assert frac(enc.lo) - tol <= at_three <= frac(enc.hi) + tol
    assert frac(enc.hi) - frac(enc.lo) <= at_three * Fraction(1, 10**55)


#: The input that took five minutes certified before each term of the series ran at the bits it
#: needs: the smallest normal double as rate, an order ``10^-300`` above 1.
_FAR_BELOW = {"q": Fraction(1, 2**1022), "sigma": Fraction(371, 1000),
              "alpha": 1 + Fraction(1, 10**300)}


@covers("MTZ19:rdp")
def test_order_next_to_one_at_the_smallest_rate() -> None:
    """Second order: ``A - 1 = E[(1 + qX)^a - 1]`` with ``X = L - 1``, ``E[X] = 0``, ``E[X^2] =
    e^(1/sigma^2) - 1``; Taylor's remainder beyond ``C(a,2) (qX)^2`` is at most ``|C(a,3)|
    (1-q)^(a-3) |qX|^3`` (``qX >= -q``), and ``E|X|^3 <= E[(L+1)^3] = e^(3/sigma^2) + 3 e^(1/
    sigma^2) + 4``: relative to the second-order term about ``q e^(2/sigma^2) = 2^-1001``.  So
    ``ln(1 + C(a,2) q^2 E[X^2]) / (a - 1)`` pins the value to 1e-40, on both sides."""
    q, sigma, alpha = _FAR_BELOW["q"], _FAR_BELOW["sigma"], _FAR_BELOW["alpha"]
    with mp.workdps(80):
        s2 = mp.mpf(sigma.numerator) ** 2 / sigma.denominator ** 2
        half = alpha * (alpha - 1) / 2 * q * q
        ref = frac(mp.log1p(mp.mpf(half.numerator) / half.denominator * mp.expm1(1 / s2))
                   / (mp.mpf((alpha - 1).numerator) / (alpha - 1).denominator))
    assert Fraction(1, 2**2040) < ref < Fraction(1, 2**2030)
    enc = certified(sgm_rdp, **_FAR_BELOW)
    band = ref * Fraction(1, 10**40)
    assert ref - band <= frac(enc.lo) <= frac(enc.hi) <= ref + band
    assert frac(enc.hi) - frac(enc.lo) <= ref * Fraction(1, 10**45)
    assert abs(frac(sgm_rdp(**_FAR_BELOW)) - ref) <= band


@covers("MTZ19:rdp")
def test_terms_far_below_the_precision_run_at_fewer_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """At that input the enclosure runs at about 3300 bits (the guard for ``alpha - 1`` and
    ``q^2``) and the series has 100 terms, two normal tails each; all but the first two terms
    are below ``2^-4000``, so only their four tails may run at more than 1000 bits."""
    bits: list[int] = []
    real = mtz19.normal_sf

    def spy(ctx: object, x: object) -> object:
        bits.append(ctx.prec)  # type: ignore[attr-defined]
        return real(ctx, x)  # type: ignore[arg-type]

    monkeypatch.setattr(mtz19, "normal_sf", spy)
    mtz19._left_tail.cache_clear()
    certified(sgm_rdp, **_FAR_BELOW)
    assert len(bits) >= 150 and max(bits) > 3000
    assert sum(b > 1000 for b in bits) <= 4, sorted(bits)[-8:]


@covers("MTZ19:rdp")
@pytest.mark.parametrize("sigma", [Fraction(1, 10**400), Fraction(1, 10**320), Fraction(1, 10**300),
                                   Fraction(371, 1000), Fraction(10**6)])
def test_spared_bits_alike_in_floats_and_in_mpmath(sigma: Fraction) -> None:
    """The estimate runs in floats unless a number leaves their range (sigma = 1e-400 is 0 as a
    float, 1e-320 subnormal, 1e-300 squares to 0): the mpmath route then gives what the float
    route gives where both can run, and the result is always between 0 and ``prec - 64``."""
    prec, q = 3000, Fraction(1, 3)
    z0 = mtz19._z0(mp, q, sigma)
    for i in (0, 2, 7, 40):
        j = Fraction(5, 2) - i
        left, right = mp.mpf(-700 * i), mp.mpf(-3 * i)
        for binom in (mp.one, mp.mpf(2) ** -2000):
            got = mtz19._spare_bits(prec, 100, binom, left, right, z0, i, j, sigma)
            assert 0 <= got <= prec - mtz19.MIN_TERM_BITS
    ends = [mp.mpf(-7), mp.mpf(-5), mp.mpf(3), mp.mpf(4), mp.mpf("0.5"), mp.mpf("0.75")]
    for i, j in ((0, Fraction(5, 2)), (3, Fraction(-1, 2)), (60, Fraction(-115, 2))):
        floats = mtz19._size_and_condition([float(v) for v in ends], 0.371, i, float(j))
        with mp.workprec(53):
            mps = mtz19._size_and_condition(ends, mp.mpf("0.371"), i, mpf(j))
        assert all(abs(a - float(b)) <= 1e-9 * abs(a) for a, b in zip(floats, mps, strict=True))


_FLOATS = st.floats(allow_nan=False, allow_infinity=False)


@covers("MTZ19:rdp")
@given(x=_FLOATS, y=_FLOATS.filter(lambda v: v != 0))
def test_ceil_and_mag_of_floats_are_mpmath_s(x: float, y: float) -> None:
    """The spared bits' float shortcut (``math.ceil``, the exponent of ``math.frexp``) and
    the mpmath route give the definitions in exact rationals, drawn over every finite
    double: subnormals, integers, powers of two, ``+-1.8e308``.  Expected: the ceiling of
    the double's exact value, and the ``e`` with ``2^(e-1) <= |y| < 2^e``."""
    fy = abs(Fraction(y))
    e = fy.numerator.bit_length() - fy.denominator.bit_length()   # 2^(e-1) < fy < 2^(e+1)
    e += 1 if Fraction(2) ** e <= fy else 0
    assert Fraction(2) ** (e - 1) <= fy < Fraction(2) ** e
    expected = (math.ceil(Fraction(x)), e)
    assert mtz19._ceil_and_mag(x, y) == expected
    assert mtz19._ceil_and_mag(mp.mpf(x), mp.mpf(y)) == expected


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("x", "y", "ceil", "mag"), [
    (2.0, 1.0, 2, 1), (-2.5, 0.75, -2, 0), (1e-300, 2.0**-1074, 1, -1073),
    (-1e-300, -3.0, 0, 2), (2.0**60 + 2.0**8, 1.7976931348623157e308, 2**60 + 2**8, 1024)])
def test_ceil_and_mag_pinned(x: float, y: float, ceil: int, mag: int) -> None:
    """By hand: ``mag(1) = 1`` (``2^0 <= 1 < 2^1``), ``mag(2^-1074) = -1073``."""
    assert mtz19._ceil_and_mag(x, y) == (ceil, mag)


@covers("MTZ19:rdp")
def test_ceil_and_mag_beyond_the_doubles_go_to_mpmath() -> None:
    """Only two floats take the float route: an mpmath number beyond the doubles' range
    beside a float (``2^2000``, ``2^-2000``) is handled by mpmath, exactly."""
    big, tiny = mp.mpf(2) ** 2000, mp.mpf(2) ** -2000
    assert mtz19._ceil_and_mag(0.5, big) == (1, 2001)
    assert mtz19._ceil_and_mag(big, 3.0) == (2**2000, 2)
    assert mtz19._ceil_and_mag(-tiny, tiny) == (0, -1999)


@covers("MTZ19:rdp")
def test_left_tails_run_at_the_term_s_precision_rounded_up_to_32_bits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each left tail is asked at the term's precision rounded up to a multiple of 32 bits
    (terms of nearby precisions share it), never below the term's; the cached ``z0`` it uses
    is the one at that precision."""
    asked: list[tuple[int, int]] = []
    real = mtz19._left_tail

    def spy(ctx: object, prec: int, q: Fraction, sigma: Fraction, i: int) -> object:
        asked.append((prec, ctx.prec))  # type: ignore[attr-defined]
        return real(ctx, prec, q, sigma, i)  # type: ignore[arg-type]

    monkeypatch.setattr(mtz19, "_left_tail", spy)
    certified(sgm_rdp, q="0.01", sigma=1, alpha="20.5")
    assert len(asked) >= 40
    assert all(p % 32 == 0 and term <= p < term + 32 for p, term in asked), asked
    assert len({term for _, term in asked}) > len({p for p, _ in asked}) >= 2
    mtz19._z0_at.cache_clear()
    q, one = Fraction(1, 100), Fraction(1)
    with mp.workprec(96):
        at_96 = mtz19._z0(mp, q, one)
    with mp.workprec(53):       # the caller's precision does not matter, the key's does
        assert mtz19._z0_at(mp, 96, q, one) == at_96 != mtz19._z0(mp, q, one)
        assert mtz19._z0_at(mp, 96, q, one) == at_96
    assert mtz19._z0_at.cache_info()[:2] == (1, 1)      # (hits, misses)


@covers("MTZ19:rdp")
@pytest.mark.parametrize(("prec", "binom", "left", "i", "j", "expected"), [
    # floats: size = mag(2^-100) = -99; tails' arguments 39.5 and 38, so log_size =
    # -700 - 38^2/2 = -1422, ceil(-1422 log2 e) = -2051; cond = 1 + 700 + 39.5^2 + 38^2 =
    # 3705.25, mag 12; spare = -(-99 - 2051 + 1) - 12 - 7 - 16 = 2114
    (3000, "2^-100", -700, 40, Fraction(-75, 2), 2114),
    # mpmath (2^-2000 is 0 as a float): size = -1999, the same tails: 4049 - 35 = 4014
    (5000, "2^-2000", -700, 40, Fraction(-75, 2), 4014),
    # an interval binom [2^-2001, 2^-2000]: its larger end counts, as above
    (5000, "[2^-2001, 2^-2000]", -700, 40, Fraction(-75, 2), 4014),
    # nothing to spare: size 1, tails at -0.5 and -2 (log_size 0), cond 1 + 0.25 + 4, mag 3:
    # -(1 + 0 + 1) - 3 - 7 - 16 = -28, clamped to 0
    (3000, "1", 0, 0, Fraction(5, 2), 0),
    # clamped above: prec - 64
    (2000, "2^-100", -700, 40, Fraction(-75, 2), 1936)])
def test_spared_bits_pinned_by_hand(prec: int, binom: str, left: int, i: int, j: Fraction,
                                    expected: int) -> None:
    """``_spare_bits`` at ``z0 = 1/2``, ``sigma = 1``, ``count = 100`` (7 bits), ``left =
    right``, worked by hand from its docstring's bound (values above): the float route, the
    mpmath route and an interval's larger end, and both clamps."""
    values = {"1": mp.one, "2^-100": mp.mpf(2) ** -100, "2^-2000": mp.mpf(2) ** -2000,
              "[2^-2001, 2^-2000]": iv.mpf([mp.mpf(2) ** -2001, mp.mpf(2) ** -2000])}
    with mp.workprec(prec):
        got = mtz19._spare_bits(prec, 100, values[binom], mp.mpf(left), mp.mpf(left),
                                mp.mpf(0.5), i, j, Fraction(1))
    assert got == expected
