"""Property tests of the Brownian mechanism and its e-values (WRWR22 §3, RSWR23 §4, §6.1).

Independent routes: scipy's Gaussian log-densities (the loss), the joint Gaussian
likelihood of the whole released path with covariance min(T_i, T_j) (Lemma 3.2),
quadrature over the Brownian bridge (the reverse-martingale property), exact normal
tails (Theorem 5), and moment checks of the samplers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from mpmath import mp
from scipy import stats

from reference.core.errors import DomainError
from reference.core.special import normal_sf
from reference.results import covers
from reference.results.filters.rswr23_brownian import brownian_filter
from reference.results.noise_reduction.brownian import (
    brownian_loss,
    brownian_loss_rswr23,
    loss_bound,
    path_loss,
)
from reference.results.noise_reduction.evalues import (
    backward_martingale,
    composed_expost,
    product_evalue,
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
    # Audit A4: at W = 0 and T = 1/eps^2 the bound is the zCDP cost eps^2/2.
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


@covers("RSWR23:Lem6.1")
@given(lam=st.floats(-3, 3), t=st.floats(0.5, 10), frac=st.floats(0.05, 0.95),
       z=st.floats(-3, 3))
def test_reverse_martingale_property_by_quadrature(lam: float, t: float, frac: float,
                                                   z: float) -> None:
    """For s < t: E[M_s | B_t = b] = M_t, integrating over the bridge law
    B_s | B_t ~ N(s b/t, s(t - s)/t); and E[M_t] = 1 over B_t ~ N(0, t)."""
    s, b = t * frac, z * np.sqrt(t)
    m = backward_martingale.core          # the registered formula, on mp numbers
    with mp.workdps(30):
        lam_, s_, t_ = mp.mpf(lam), mp.mpf(s), mp.mpf(t)
        mean, sd = s_ * b / t_, mp.sqrt(s_ * (t_ - s_) / t_)
        cuts = [-40, -10, 0, 10, 40]          # the Gaussian weight is below e^-800 outside
        cond = mp.quad(lambda u: m(mp, lam_, mean + sd * u, s_) * mp.exp(-u * u / 2)
                       / mp.sqrt(2 * mp.pi), cuts)
        assert abs(cond / backward_martingale(lam=lam, b=b, t=t) - 1) < 1e-12
        unc = mp.quad(lambda u: m(mp, lam_, mp.sqrt(t_) * u, t_) * mp.exp(-u * u / 2)
                      / mp.sqrt(2 * mp.pi), cuts)
        assert abs(unc - 1) < 1e-12


@covers("RSWR23:Eq2", "RSWR23:Lem6.1")
@given(lam=st.floats(-3, 3), b=st.lists(st.floats(-5, 5), min_size=1, max_size=6),
       data=st.data())
def test_product_is_the_product_of_the_stopped_evalues(lam: float, b: list[float],
                                                       data: st.DataObject) -> None:
    tau = data.draw(st.lists(st.floats(0.01, 10), min_size=len(b), max_size=len(b)))
    with mp.workdps(50):
        prod = mp.fprod(backward_martingale(lam=lam, b=x, t=t) for x, t in zip(b, tau,
                                                                                strict=True))
        assert abs(product_evalue(lam=lam, b=b, tau=tau) / prod - 1) < mp.mpf(10) ** -40


@covers("RSWR23:Eq2")
def test_product_rejects_mismatched_lengths() -> None:
    with pytest.raises(DomainError, match="as many entries"):
        product_evalue(lam=1, b="1,2", tau="1")


@covers("RSWR23:Thm5")
@pytest.mark.parametrize(("v", "expected"), [(1, 1.3e-4), (10, 1.2e-3), (100, 5.3e-4)])
def test_corrected_threshold_exact_tail_for_one_mechanism(v: int, expected: float) -> None:
    """One mechanism at fixed t = 1/V: loss N(V/2, V); P[loss >= corrected threshold] is the
    exact normal tail, below delta = 0.05 (catalog-000 §5: 1.3e-4, 1.2e-3, 5.3e-4)."""
    thr = composed_expost(t=[mp.mpf(1) / v], gamma=1, delta="0.05")
    p = float(normal_sf(mp, (thr - mp.mpf(v) / 2) / mp.sqrt(v)))
    assert p <= 0.05 and abs(p / expected - 1) < 0.05


@covers("RSWR23:Thm5")
@given(ts=st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=6), gamma=st.floats(1e-3, 1e3))
def test_printed_threshold_drops_below_the_mean_loss(ts: list[float], gamma: float) -> None:
    """The printed Theorem 5 threshold is psi(V) alone; the mean loss is V/2, and
    corrected - printed = V/2 exactly. For large V, psi(V) < V/2: the printed claim fails."""
    with mp.workdps(50):
        v = mp.fsum(1 / mp.mpf(t) for t in ts)
        corrected = composed_expost(t=ts, gamma=gamma, delta="0.05")
        printed = corrected - v / 2
        assert printed > 0
        big = composed_expost(t=["1e-4"], gamma=1, delta="0.05") - 5000
        assert big < 5000


@covers("RSWR23:Thm5", "RSWR23:Lem6.2")
@given(rho=st.floats(1e-3, 100), gamma=st.floats(1e-4, 1e4), delta=st.floats(1e-12, 0.5))
def test_filter_never_worse_than_the_odometer_bound(rho: float, gamma: float,
                                                    delta: float) -> None:
    """rho + 2 sqrt(rho log(1/delta)) <= Theorem 5's bound at V = 2 rho, for every gamma
    (catalog-000 §5, Lemma 6.2 (a))."""
    eps = brownian_filter(rho=rho, delta=delta).eps
    with mp.workdps(50):
        odo = composed_expost(t=[1 / (2 * mp.mpf(rho))], gamma=gamma, delta=delta)
        assert eps <= odo * (1 + mp.mpf(10) ** -40)


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
