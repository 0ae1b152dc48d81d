"""Property tests of ex-post privacy (WRWR22 §2, RSWR23 §5): the excess over an ex-post
bound and basic composition of ex-post guarantees.

Independent route: exact Fraction sums.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.noise_reduction.ex_post import (
    compose_expost,
    expost_excess,
    expost_excess_given,
)
from reference.sim.ex_post import check_expost


@covers("WRWR22:Def2.2", "RSWR23:Def4.1")
@given(loss=st.floats(-10, 10), bound=st.floats(0, 10))
def test_expost_excess(loss: float, bound: float) -> None:
    q = Fraction(loss) - Fraction(bound)
    for fn in (expost_excess, expost_excess_given):
        value = fn(loss=loss, bound=bound)
        assert value >= 0 and (value > 0) == (q > 0)
        assert abs(Fraction(float(value)) - max(q, Fraction(0))) <= Fraction(1, 10**12)
    assert check_expost(np.array([loss]), bound, 0.0).rejected == (q > 1e-9 * (1 + bound))


@covers("RSWR23:Lem5.1")
@given(e=st.lists(st.fractions(0, 5), min_size=1, max_size=6), data=st.data())
def test_basic_composition_adds_bounds_and_deltas(e: list[Fraction],
                                                  data: st.DataObject) -> None:
    d = data.draw(st.lists(st.fractions(0, Fraction(1, 10)), min_size=len(e), max_size=len(e)))
    g = compose_expost(expost=e, deltas=d)
    with mp.workdps(50):
        assert abs(g.eps - mp.mpf(sum(e, Fraction(0)).numerator) / sum(e, Fraction(0))
                   .denominator) < mp.mpf(10) ** -40
        dd = sum(d, Fraction(0))
        assert abs(g.delta - mp.mpf(dd.numerator) / dd.denominator) < mp.mpf(10) ** -40
    with pytest.raises(DomainError, match="as many entries"):
        compose_expost(expost=e, deltas=[*d, Fraction(0)])
