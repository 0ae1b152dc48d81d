"""The normal tail helper against mpmath's erfc (at higher precision) and scipy.

``normal_sf`` is not a registered result (no ``@covers``); it carries LEC11:GaussTail.
"""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import iv, mp
from scipy import stats

# every test here runs on both routes of normal_sf(iv, .): Arb's erfc and the series
from proofs_tests.arb_support import normal_tail_routes  # noqa: F401
from reference.core.numeric import endpoints, working
from reference.core.special import normal_sf

GRID = [-40, -8.5, -3, -1, -0.25, 0, 1e-30, 0.1, 0.5, 1, 2, 3.5, 7, 10, 15.9, 16.5, 17.2,
        17.9, 18.4, 19, 25, 37.5, 60, 150, 1e4]


def _reference(x: float | str, dps: int = 120) -> mpmath.mpf:
    """``Q(x)`` to ``dps`` digits, and for ``x < 0`` (``Q = 1 - Q(-x)``, ``Q(-x)`` below
    ``e^(-x^2/2)``) with the ``x^2 / (2 ln 10)`` more digits that resolve ``1 - Q``: the
    enclosures (Arb's ball ends, exact) can be narrower than ``dps`` digits around 1, and a
    reference rounded to 1 would fall outside (``x = -18.9375``: ``Q = 1 - 2.7e-80``)."""
    with mp.workdps(dps + (int(float(x) ** 2 / 4.6) + 10 if float(x) < 0 else 0)):
        return mpmath.erfc(mp.mpf(x) / mp.sqrt(2)) / 2


def _enclosure(x: float | str, dps: int = 50) -> tuple[mpmath.mpf, mpmath.mpf]:
    with working(iv, dps):
        ends = endpoints(normal_sf(iv, iv.mpf(x)))
    return ends.lo, ends.hi


@pytest.mark.parametrize("x", GRID)
def test_enclosure_contains_erfc_and_is_tight(x: float) -> None:
    lo, hi = _enclosure(x)
    ref = _reference(x)
    assert lo <= ref <= hi
    assert hi - lo <= mpmath.mpf("1e-45") * ref


@given(st.floats(-60, 300, allow_nan=False))
def test_enclosure_contains_erfc_everywhere(x: float) -> None:
    lo, hi = _enclosure(x, dps=30)
    ref = _reference(x, 80)
    assert lo <= ref <= hi
    assert hi - lo <= mpmath.mpf("1e-25") * ref


@pytest.mark.parametrize("dps", [15, 100, 300])
@pytest.mark.parametrize("x", [0.7, 12.0, 30.0, 45.0])
def test_precision_follows_the_context(dps: int, x: float) -> None:
    lo, hi = _enclosure(x, dps)
    ref = _reference(x, dps + 60)
    assert lo <= ref <= hi
    assert hi - lo <= mpmath.mpf(10) ** (5 - dps) * ref


def test_series_switch_is_seamless() -> None:
    # The Taylor/asymptotic switch lies near sqrt(2 (prec + 40) ln 2) + 1 (about 19.5 at
    # 60 digits): both sides must enclose the reference.
    for x in [19.0 + k / 50 for k in range(60)]:
        lo, hi = _enclosure(x)
        ref = _reference(x)
        assert lo <= ref <= hi


@given(st.floats(-30, 37, allow_nan=False))
def test_point_version_matches_scipy(x: float) -> None:
    with mp.workdps(30):
        value = float(normal_sf(mp, mp.mpf(x)))
    expected = float(stats.norm.sf(x))
    assert math.isclose(value, expected, rel_tol=1e-12, abs_tol=0.0)


@given(st.floats(-20, 40, allow_nan=False), st.floats(0, 5, allow_nan=False))
def test_interval_argument_uses_monotonicity(a: float, width: float) -> None:
    b = a + width
    with working(iv, 30):
        ends = endpoints(normal_sf(iv, iv.mpf([a, b])))
    for point in (a, b, (a + b) / 2):
        assert ends.lo <= _reference(point, 60) <= ends.hi
    # The lower end is the (tight) value at the right end point: nothing is lost.
    with mp.workdps(40):
        at_b = _enclosure(b, 30)[0]
        assert abs(ends.lo - at_b) <= mpmath.mpf("1e-25") * at_b


def test_symmetry_and_infinities() -> None:
    with working(iv, 40):
        for x in ["0.3", "2", "25"]:
            total = normal_sf(iv, iv.mpf(x)) + normal_sf(iv, -iv.mpf(x))
            assert endpoints(total).lo <= 1 <= endpoints(total).hi
        assert endpoints(normal_sf(iv, iv.mpf("inf"))).hi == 0
        assert endpoints(normal_sf(iv, iv.mpf("-inf"))).lo == 1
        whole = endpoints(normal_sf(iv, iv.mpf(["-inf", "inf"])))
        assert (whole.lo, whole.hi) == (0, 1)
    assert normal_sf(mp, mp.inf) == 0
    assert normal_sf(mp, -mp.inf) == 1


def test_nan_is_refused() -> None:
    with pytest.raises(ValueError):
        normal_sf(mp, mp.nan)
    with working(iv, 20):  # mpmath turns NaN into the whole line: the enclosure is [0, 1]
        whole = endpoints(normal_sf(iv, iv.mpf(mp.nan)))
    assert (whole.lo, whole.hi) == (0, 1)


@given(st.floats(0.5, 18, allow_nan=False), st.integers(100, 400))
def test_argument_with_more_bits_than_mp_prec(x: float, shift: int) -> None:
    # An interval end point can carry more bits than mp.prec (here x + 2^-shift held at
    # iv precision ~435 bits while mp.prec is 53, as inside a guarded evaluation); the
    # series must use it exactly, not rounded to mp.prec.
    with mp.workprec(800):
        point = mp.mpf(x) + mp.mpf(2) ** -shift
    with working(iv, 120):
        arg = iv.mpf([point, point])
        with mp.workprec(53):
            ends = endpoints(normal_sf(iv, arg))
    with mp.workprec(1600):
        ref = mpmath.erfc(point / mp.sqrt(2)) / 2
    assert ends.lo <= ref <= ends.hi


@pytest.mark.parametrize("x", ["1e-300", "1e-40", "3e-9"])
def test_tiny_arguments_enclose_one_half_minus_the_density_slope(x: str) -> None:
    lo, hi = _enclosure(x)
    ref = _reference(x, 400)
    assert lo <= ref <= hi and lo < mpmath.mpf("0.5")


def test_normal_sf_keeps_negative_endpoints_finer_than_mp() -> None:
    """Regression: ``Q(t) = 1 - Q(-t)`` for ``t < 0`` negated ``t`` in ``mp``, which rounded a
    261-bit endpoint to mp's 203 bits; the enclosure of BW18:Thm8-rho at rho =
    1.000000000000001e-16, eps = 7.448e-87 then missed the exact value by 1e-70 (found by
    the python-flint second route).  Reference: mpmath's erfc at 150 digits."""
    from reference.core.numeric import extra_bits, working

    with mp.workprec(261):
        t = mp.mpf(-1) / 141421356 * (1 + mp.mpf(2) ** -250)
    assert t._mpf_[3] > 203   # more bits than mp keeps at 60 digits
    with working(iv), extra_bits(iv, 58):
        point = iv.mpf(t)
        assert endpoints(point).lo == endpoints(point).hi  # t is exact at 261 bits
        enc = endpoints(normal_sf(iv, point))
    with mp.workdps(150):
        exact = mp.erfc(t / mp.sqrt(2)) / 2
        assert enc.lo <= exact <= enc.hi
        assert enc.hi - enc.lo < mp.mpf(10) ** -75


def test_gaussian_curve_at_the_small_rho_end_encloses_the_exact_value() -> None:
    from fractions import Fraction

    from reference import get

    rho, eps = Fraction(1000000000000001, 10**31), Fraction(7.448008287747795e-87)
    enc = get("BW18:Thm8-rho").certified(rho=rho, eps=eps)
    with mp.workdps(150):
        r = mp.mpf(rho.numerator) / rho.denominator
        e = mp.mpf(eps.numerator) / eps.denominator
        a, b = e / mp.sqrt(2 * r), mp.sqrt(r / 2)
        exact = mp.ncdf(-a + b) - mp.exp(e) * mp.ncdf(-a - b)
        assert enc.lo <= exact <= enc.hi
        assert enc.hi - enc.lo < exact * mp.mpf(10) ** -45
