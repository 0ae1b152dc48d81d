"""Property tests of the Brownian mechanism's e-values (RSWR23 §6.1, Eq 2, Theorem 5).

Independent routes: quadrature over the Brownian bridge (the reverse-martingale
property) and exact normal tails (Theorem 5).  The mechanism itself (WRWR22 §3,
RSWR23 §4) is in ``test_brownian.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from reference.core.errors import DomainError
from reference.core.special import normal_sf
from reference.results import covers
from reference.results.filters.rswr23_brownian import brownian_filter
from reference.results.noise_reduction.evalues import (
    backward_martingale,
    composed_expost,
    product_evalue,
)


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
    exact normal tail, below delta = 0.05 (independently computed: 1.3e-4, 1.2e-3, 5.3e-4)."""
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
    (RSWR23 Lemma 6.2 (a))."""
    eps = brownian_filter(rho=rho, delta=delta).eps
    with mp.workdps(50):
        odo = composed_expost(t=[1 / (2 * mp.mpf(rho))], gamma=gamma, delta=delta)
        assert eps <= odo * (1 + mp.mpf(10) ** -40)
