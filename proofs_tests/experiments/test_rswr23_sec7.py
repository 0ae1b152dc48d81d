"""Property tests of the RSWR23 §7 application (stopping condition, doubling schedule,
the experiment itself).

Independent routes: direct search of the acceptance set, exact rational simulation of
the doubling schedule, and an exact replay of logged trials through the filters.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.core.numeric import exact
from reference.results import covers
from reference.results.experiments.rswr23_sec7 import acceptance, doubling_run
from reference.tools.experiments.relative_error import (
    METHODS,
    accept,
    replay,
    run,
    run_size,
    table,
)


@covers("RSWR23:Sec7.2-accept")
@given(alpha=st.floats(0.01, 0.9), y=st.floats(-1000, 1000), s=st.floats(0.01, 10))
def test_acceptance_closed_form(alpha: float, y: float, s: float) -> None:
    """The printed condition (ratio and |y| > s) accepts exactly y >= upper s or
    y < -lower s (RSWR23 §7), away from the two boundary points."""
    th = acceptance(alpha=alpha)
    up, low = float(th.upper) * s, float(th.lower) * s
    if min(abs(y - up), abs(y + low)) < 1e-9 * (1 + abs(y)):
        return
    assert bool(accept(np.array([y]), s, alpha)[0]) == (y >= up or y < -low)


@covers("RSWR23:Sec7.2-accept")
@given(alpha=st.floats(0.01, 0.9), k=st.floats(0, 1), noise=st.floats(-1, 1))
def test_accepted_counts_have_half_alpha_relative_error(alpha: float, k: float,
                                                         noise: float) -> None:
    """An accepted y > 0 within s of the truth has relative error <= alpha/2."""
    th = acceptance(alpha=alpha)
    y_hat = float(th.upper) * (1 + 10 * k)     # accepted, s = 1
    truth = y_hat - noise
    assert abs(y_hat / truth - 1) <= float(th.guarantee) * (1 + 1e-12)


@covers("RSWR23:Sec7.1-doubling-run")
@given(e1=st.fractions(Fraction(1, 10**4), 1), ratio=st.fractions(1, 10**6))
def test_doubling_run_below_the_published_bounds(e1: Fraction, ratio: Fraction) -> None:
    """Overshoot^2 < 2 and spend < 4, simulated exactly in rationals."""
    r = doubling_run(eps1_sq=e1, target_sq=e1 * ratio)
    assert 1 <= r.overshoot_sq < 2 and r.spend < 4


@covers("RSWR23:Sec7.2-accept", "RSWR23:Thm6")
def test_experiment_tiny_run_and_exact_replay() -> None:
    """Two trials at the smallest size: noise reduction returns more, the table renders,
    and each logged trial's charges pass through the exact filters without a HALT."""
    res = run(trials=2, sizes=(8000,), progress=None)
    text = table(res, 2)
    assert "noise red." in text and "8000" in text
    for m in METHODS:
        out = run_size(8000, 2, m, keep_log=1)
        assert out.returned.min() >= 1 and replay(out.log[0], m)


def _simulate(eps1_sq: Fraction, target_sq: Fraction) -> tuple[Fraction, Fraction]:
    """The doubling schedule step by step in exact rationals."""
    sq, total = eps1_sq, eps1_sq
    while sq < target_sq:
        sq *= 2
        total += sq
    return sq / target_sq, total / target_sq


def _q(x: object) -> Fraction:
    return exact(x, "x", "test")


@covers("RSWR23:Sec7.1-doubling-run")
@pytest.mark.parametrize(("eps1_sq", "target_sq"), [
    ("1/10", "1/10"),                  # was ValueError: undecidable interval comparison
    (Fraction(1, 10**300), Fraction(1, 10**300)),
    (5e-324, Fraction(1, 10**300)),
    ("1e-4", "0.1024"),                # lands exactly on a doubling step
    ("1e-4", "0.1024000001"),
    (Fraction(1, 3), Fraction(1, 3) * 2**4000),  # the precondition's largest ratio
])
def test_doubling_run_exact_at_the_edges(eps1_sq: object, target_sq: object) -> None:
    """Both outputs are rationals: the enclosure holds the exact simulation and is a
    point up to rounding; the plain value agrees."""
    over, spend = _simulate(Fraction(eps1_sq), Fraction(target_sq))  # type: ignore[arg-type]
    plain = doubling_run(eps1_sq=eps1_sq, target_sq=target_sq)
    enc = doubling_run.certified(eps1_sq=eps1_sq, target_sq=target_sq)
    for value, box, ref in ((plain.overshoot_sq, enc.overshoot_sq, over),
                            (plain.spend, enc.spend, spend)):
        assert _q(box.lo) <= ref <= _q(box.hi)
        assert _q(box.hi) - _q(box.lo) <= ref * Fraction(1, 10**55)
        assert abs(_q(value) - ref) <= ref * Fraction(1, 10**49)
    assert 1 <= over < 2 and spend < 4


@covers("RSWR23:Sec7.1-doubling")
def test_doubling_bound_next_to_ratio_one() -> None:
    """r^2 = 1 + 1e-300 (was ZeroDivisionError: ratio_sq - 1 rounded to 0): overshoot
    sqrt(1 + t), spend (1 + t)^2 / t = 10^300 + 2 + 10^-300 exactly (t = 10^-300);
    sqrt(1 + t) lies in [1 + t/2 - t^2/8, 1 + t/2]."""
    from reference.results.conversions.rswr23 import doubling_bound

    t = Fraction(1, 10**300)
    spend = (1 + t) ** 2 / t
    plain = doubling_bound(ratio_sq=1 + t)
    enc = doubling_bound.certified(ratio_sq=1 + t)
    assert _q(enc.spend.lo) <= spend <= _q(enc.spend.hi)
    assert _q(enc.spend.hi) - _q(enc.spend.lo) <= spend * Fraction(1, 10**45)
    assert abs(_q(plain.spend) - spend) <= spend * Fraction(1, 10**48)
    assert _q(enc.overshoot.lo) <= 1 + t / 2 - t * t / 8 and 1 + t / 2 <= _q(enc.overshoot.hi)
