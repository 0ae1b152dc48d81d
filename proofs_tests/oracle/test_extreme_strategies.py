"""The extreme draws of :mod:`reference.oracle.strategies` are valid inputs.

:func:`~reference.oracle.strategies.extreme_params` is meant to reach every parameter's
extremes (its closed ends, values next to each end, subnormal and huge magnitudes, exact
decimals and binary floats) while staying inside the declared domain; a draw outside it
would turn a test of a result into a test of its input checks.  Each drawn value must pass
its own parameter's conversion, and the ends of a closed domain must be among the draws.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from proofs_tests.profiles import share
from reference.core.model import Result
from reference.core.params import Param, real
from reference.oracle.strategies import boundary_values, extreme_params, valid_value
from reference.results import catalogue

RESULTS = catalogue()


@pytest.mark.parametrize("res", RESULTS, ids=[r.id for r in RESULTS])
@settings(max_examples=share(Fraction(1, 10)), deadline=None)
@given(data=st.data())
def test_extreme_draws_pass_their_parameter_checks(res: Result[Any],
                                                    data: st.DataObject) -> None:
    params = data.draw(extreme_params(res))
    for p in res.params:
        p.convert(params[p.name], res.id)   # raises DomainError if outside the domain


def test_boundary_values_reach_closed_ends_and_stay_inside_open_ones() -> None:
    closed = Param("x", "real", lo=Fraction(0), hi=Fraction(1))
    values = [Fraction(v) for v in boundary_values(closed)]
    assert min(values) == 0 and max(values) == 1
    assert any(0 < v < Fraction(1, 10**299) for v in values)      # next to 0, inside
    opened = Param("x", "real", lo=Fraction(0), lo_open=True, hi=Fraction(1), hi_open=True)
    values = [Fraction(v) for v in boundary_values(opened)]
    assert all(0 < v < 1 for v in values) and min(values) < Fraction(1, 10**299)
    unbounded = [Fraction(v) for v in boundary_values(real("x"))]
    assert min(unbounded) < -10**300 and max(unbounded) > 10**300


@pytest.mark.parametrize(("lo", "hi"), [(Fraction(1, 10**16), Fraction(10**16)),
                                        (Fraction(-1, 10), Fraction(1, 10))])
def test_float_draws_stay_inside_decimal_ends(lo: Fraction, hi: Fraction) -> None:
    """The double nearest a decimal end can lie outside it (``float(1e-16)`` is
    9.99...e-17 < 1/10**16; ``float(-0.1) < -1/10``): the float draws start at the nearest
    double inside.  Before the fix both were drawn (a dev-profile run failed on
    ``BW18:Thm8-rho`` at rho = 1e-16), and Hypothesis' search finds them at once."""
    p = Param("x", "real", lo=lo, hi=hi, hi_open=True)
    with pytest.raises(NoSuchExample):
        find(valid_value(p), lambda x: not lo <= Fraction(x) < hi,
             settings=settings(max_examples=share(Fraction(1)), database=None))
