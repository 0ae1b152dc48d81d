"""Property tests of the Brownian mechanism (WRWR22 §3, RSWR23 §4).

Independent routes: scipy's Gaussian log-densities (the loss), the joint Gaussian
likelihood of the whole released path with covariance min(T_i, T_j) (Lemma 3.2), and
moment checks of the samplers.  Its e-values (RSWR23 §6.1) are in ``test_evalues.py``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp
from scipy import stats

from reference.core.errors import DomainError
from reference.results import covers
from reference.results.noise_reduction.brownian import (
    brownian_loss,
    brownian_loss_rswr23,
    loss_bound,
    path_loss,
)
from reference.sim.brownian_paths import BrownianMechanism, backward_paths, bridge_step

coords = st.floats(-5, 5)


@st.composite
def neighbours(draw: st.DrawFn) -> tuple[list[float], list[float], list[float], float]:
    d = draw(st.integers(1, 5))
    vec = st.lists(coords, min_size=d, max_size=d)
    return draw(vec), draw(vec), draw(vec), draw(st.floats(0.01, 100))


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
@given(case=neighbours())
def test_loss_is_the_gaussian_log_density_ratio(
        case: tuple[list[float], list[float], list[float], float]) -> None:
    """log p_x(y) - log p_x'(y) at y = f(x) + B_T, from scipy's multivariate normal."""
    fx, fxp, b, t = case
    y = np.add(fx, b)
    cov = t * np.eye(len(fx))
    direct = (stats.multivariate_normal.logpdf(y, fx, cov)
              - stats.multivariate_normal.logpdf(y, fxp, cov))
    for result in (brownian_loss, brownian_loss_rswr23):
        value = float(result(fx=fx, fxp=fxp, b=b, t=t))
        assert abs(value - direct) <= 1e-9 * (1 + abs(direct))


@covers("WRWR22:Thm3.4", "WRWR22:Thm3.4-bound")
@given(case=neighbours(), extra=st.floats(1, 3))
def test_loss_below_the_sensitivity_bound(
        case: tuple[list[float], list[float], list[float], float], extra: float) -> None:
    """c^2/(2T) + c W/T <= D^2/(2T) + D W^+/T for c = |u| <= D, W = <u/|u|, B>."""
    fx, fxp, b, t = case
    u = np.subtract(fx, fxp)
    c = float(np.linalg.norm(u))
    assume(c > 1e-6)
    w = float(u @ np.asarray(b) / c)
    with mp.workdps(50):
        loss = brownian_loss(fx=fx, fxp=fxp, b=b, t=t)
        for sens in (c, c * extra):
            bound = loss_bound(t=t, w=w, sensitivity=sens)
            assert loss <= bound + mp.mpf(10) ** -9 * (1 + abs(bound))


@covers("WRWR22:Thm3.4-bound")
@given(t=st.floats(0.01, 100), w=st.floats(-50, 50), d=st.floats(0.01, 10))
def test_bound_increasing_in_w_and_sensitivity(t: float, w: float, d: float) -> None:
    assert loss_bound(t=t, w=w + 1, sensitivity=d) >= loss_bound(t=t, w=w, sensitivity=d)
    assert loss_bound(t=t, w=w, sensitivity=2 * d) > loss_bound(t=t, w=w, sensitivity=d)
    # At W = 0 and T = 1/eps^2 the bound is the zCDP cost eps^2/2.
    with mp.workdps(50):
        assert abs(loss_bound(t=100, w=0) - mp.mpf(1) / 200) < mp.mpf(10) ** -45


@covers("WRWR22:Lem3.2")
@given(n=st.integers(1, 5), seed=st.integers(0, 2**32 - 1), fx=coords, fxp=coords)
def test_path_loss_equals_joint_gaussian_likelihood_ratio(n: int, seed: int, fx: float,
                                                          fxp: float) -> None:
    """The joint density of (y_1..y_n) under f(x) vs f(x'), covariance min(T_i, T_j),
    computed by scipy from the whole path, equals the last-iterate formula."""
    gen = np.random.default_rng(seed)
    times = np.sort(gen.uniform(0.05, 10, n))[::-1]
    cov = np.minimum.outer(times, times)
    y = gen.multivariate_normal(np.full(n, fx), cov)
    joint = (stats.multivariate_normal.logpdf(y, np.full(n, fx), cov)
             - stats.multivariate_normal.logpdf(y, np.full(n, fxp), cov))
    value = float(path_loss(times=times.tolist(), y=y.tolist(), fx=fx, fxp=fxp))
    assert abs(value - joint) <= 1e-7 * (1 + abs(joint))


@covers("WRWR22:Lem3.2", "WRWR22:Thm3.4")
def test_path_loss_rejects_increasing_times_and_matches_the_sampler() -> None:
    with pytest.raises(DomainError, match="non-increasing"):
        path_loss(times="1,2", y="0,0", fx=1, fxp=0)
    m = BrownianMechanism([1.0], np.random.default_rng(3))
    ys = [float(m.release(t)[0]) for t in ("8", "3", "3", "1/2")]
    loss = path_loss(times="8,3,3,0.5", y=ys, fx=1, fxp=0)
    assert abs(float(loss) - m.loss([0.0])) < 1e-9
    assert abs(float(brownian_loss(fx=[1], fxp=[0], b=[ys[-1] - 1], t="0.5")) - m.loss([0.0])) \
        < 1e-9


@covers("WRWR22:Lem3.2")
def test_backward_sampler_covariance_and_bridge() -> None:
    """Cov(B_s, B_t) = min(s, t) on the grid sampler (d = 3) and after bridge steps."""
    gen = np.random.default_rng(11)
    times = np.array([5.0, 2.0, 0.5])
    b = backward_paths(times, 100_000, gen, d=3)
    for i in range(3):
        for j in range(3):
            c = np.mean(b[:, i, 0] * b[:, j, 0])
            assert abs(c - min(times[i], times[j])) < 0.05 * max(times[i], times[j])
    b5 = np.sqrt(5.0) * gen.standard_normal(100_000)
    b2 = bridge_step(b5, 5.0, 2.0, gen)
    assert abs(np.mean(b2 * b5) - 2.0) < 0.1 and abs(np.var(b2) - 2.0) < 0.1
    with pytest.raises(DomainError):
        backward_paths([1.0, 2.0], 10, gen)


_big = st.builds(lambda m, e: m * Fraction(10) ** e,
                 st.fractions(-10, 10, max_denominator=100), st.integers(-200, 300))


@covers("WRWR22:Lem3.2")
@given(y=_big, fx=_big, fxp=_big, t=_big.filter(lambda q: q > 0))
def test_path_loss_against_exact_rationals(y: Fraction, fx: Fraction, fxp: Fraction,
                                           t: Fraction) -> None:
    """The last-release loss equals the exact rational ((y - f')^2 - (y - f)^2)/(2t) to 45
    digits at every scale (y = 1e288 lost every digit in the difference of squares), and
    the enclosure contains it."""
    from reference import certified
    from reference.core.numeric import exact as to_fraction

    def exact_of(x: object) -> Fraction:
        return to_fraction(x, "endpoint", "test")

    exact = ((y - fxp) ** 2 - (y - fx) ** 2) / (2 * t)
    kw = {"times": [t * 2, t], "y": [y, y], "fx": fx, "fxp": fxp}
    with mp.workdps(60):
        q = mp.mpf(exact.numerator) / exact.denominator
        assert abs(path_loss(**kw) - q) <= abs(q) * mp.mpf(10) ** -45
        enc = certified(path_loss, **kw)
        # exactly: q is the exact value rounded to 60 digits, the enclosure may be tighter
        assert exact_of(enc.lo) <= exact <= exact_of(enc.hi)
