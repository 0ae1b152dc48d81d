"""RSWR23 §6.1 e-values pinned exactly: the exponent limit at its boundary, Theorem 5's
bound by hand, and the three errata's checks (``confirmed`` and every number in ``detail``).

Independent routes: exact rationals for the exponent size, plain ``math`` (floats) for
``psi(V; gamma, delta) = sqrt((V + gamma) log((V + gamma)/(delta^2 gamma)))`` (RSWR23 §6.1,
Howard et al. 2021 Prop. 5) and the normal tail ``P[N(V/2, V) >= psi]``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_ends, frac
from reference.core.errors import DomainError
from reference.results import covers
from reference.results.noise_reduction import evalues
from reference.results.noise_reduction.evalues import (
    backward_martingale,
    composed_expost,
    product_evalue,
)

LIMIT = 10**12  # |lam b / t| + lam^2 / (2 t) summed over the factors, RSWR23 eq. (2)


def psi(v: float, gamma: float, delta: float) -> float:
    return math.sqrt((v + gamma) * math.log((v + gamma) / (delta * delta * gamma)))


@covers("RSWR23:Lem6.1")
def test_exponent_limit_boundary_one_factor() -> None:
    """lam = 10^6, b = 0, t = 1/2: the size lam^2/(2t) is 10^12 exactly, accepted (the value
    is e^-(10^12)); one part in 10^12 more is refused, also through |lam b / t| alone with a
    negative b (the absolute value) and a b that only matters divided by t."""
    got = backward_martingale(lam=10**6, b=0, t=Fraction(1, 2))
    with mp.workdps(60):
        assert abs(got / mp.exp(-mp.mpf(LIMIT)) - 1) < mp.mpf(10) ** -45
    refused = [dict(lam=10**6, b=0, t=Fraction(1, 2) - Fraction(1, 10**13)),
               dict(lam=1, b=-(LIMIT + 1), t=1),
               dict(lam=1, b=-LIMIT, t=Fraction(1, 2)),         # |b/t| = 2e12, b alone 1e12
               dict(lam=-1, b=LIMIT, t=Fraction(1, 2))]
    for kwargs in refused:
        with pytest.raises(DomainError) as err:
            backward_martingale(**kwargs)
        assert err.value.param == "lam"
    # |lam b / t| = 10^12 - 1/2 and lam^2/(2t) = 1/2: exactly the limit again, accepted
    # (the value is e^-(10^12)); 10^-9 more in |b| is refused.
    b = -(LIMIT - Fraction(1, 2))
    got = backward_martingale(lam=1, b=b, t=1)
    with mp.workdps(60):
        assert abs(got / mp.exp(-mp.mpf(LIMIT)) - 1) < mp.mpf(10) ** -45
    with pytest.raises(DomainError):
        backward_martingale(lam=1, b=b - Fraction(1, 10**9), t=1)


def _size(lam: Fraction, bs: list[Fraction], ts: list[Fraction]) -> Fraction:
    return sum((abs(lam * b / t) + lam * lam / (2 * t) for b, t in zip(bs, ts, strict=True)),
               Fraction(0))


@st.composite
def _near_the_limit(draw: st.DrawFn) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """Factors scaled so that the exact size is the limit times ``1 + r``, ``r`` drawn from
    +-10^-5 down to +-10^-300 and 0, or inputs beyond the doubles' range."""
    n = draw(st.integers(1, 4))
    lam = draw(st.fractions(-10**6, 10**6, max_denominator=10**6).filter(bool))
    bs = [draw(st.fractions(-10**6, 10**6, max_denominator=10**9)) for _ in range(n)]
    ts = [draw(st.fractions(Fraction(1, 10**6), 10**6, max_denominator=10**9))
          for _ in range(n)]
    if draw(st.booleans()):                          # beyond floats: huge or tiny
        bs[0] = draw(st.sampled_from([Fraction(10) ** 400, -Fraction(10) ** 400]))
        ts[0] = draw(st.sampled_from([Fraction(1, 10**400), Fraction(10) ** 400, ts[0]]))
        return lam, bs, ts
    r = draw(st.sampled_from([Fraction(0), Fraction(1, 10**5), Fraction(1, 10**7),
                              Fraction(1, 10**300)])) * draw(st.sampled_from([1, -1]))
    scale = LIMIT * (1 + r) / _size(lam, bs, ts)    # size is linear in 1/t: scale every t
    return lam, bs, [t / scale for t in ts]


@covers("RSWR23:Eq2")
@given(_near_the_limit())
def test_exponent_limit_decides_as_exact_rationals(
        case: tuple[Fraction, list[Fraction], list[Fraction]]) -> None:
    """The float shortcut never changes the decision: refused exactly when the exact size
    exceeds 10^12, at the limit, a part in 10^300 from it, and past the doubles' range."""
    lam, bs, ts = case
    values = {"lam": lam, "b": tuple(bs), "tau": tuple(ts)}
    if _size(lam, bs, ts) > LIMIT:
        with pytest.raises(DomainError):
            evalues._exponent_limit(values, "test")
    else:
        evalues._exponent_limit(values, "test")


@covers("RSWR23:Eq2")
def test_exponent_limit_boundary_sums_over_factors() -> None:
    """Eq. (2): the sizes add over the factors.  b = (5e11 - 1/2, 5e11 - 1/2), tau = (1, 1),
    lam = 1: 2 (5e11 - 1/2) + 2 (1/2) = 10^12, accepted; one more 1/2 in b is refused."""
    half = Fraction(1, 2)
    b = [LIMIT // 2 - half] * 2
    got = product_evalue(lam=1, b=b, tau=[1, 1])
    with mp.workdps(60):
        assert abs(got / mp.exp(mp.mpf(LIMIT - 1) - 1) - 1) < mp.mpf(10) ** -45
    with pytest.raises(DomainError) as err:
        product_evalue(lam=1, b=[LIMIT // 2 - half, LIMIT // 2], tau=[1, 1])
    assert err.value.param == "lam"
    with pytest.raises(DomainError) as err:  # a negative factor still adds its size
        product_evalue(lam=1, b=[-(LIMIT // 2), LIMIT // 2], tau=[1, 1])
    assert err.value.param == "lam"


@covers("RSWR23:Lem6.1", "RSWR23:Eq2")
def test_evalues_by_hand() -> None:
    """exp(lam b/t - lam^2/(2t)): lam = 3, b = 2, t = 4 gives e^(3/2 - 9/8) = e^(3/8);
    eq. (2) with b = (2, -1), tau = (4, 1/2), lam = 3: e^(3 (1/2 - 2) - 9 (1/4 + 2)/2)."""
    with mp.workdps(60):
        assert abs(backward_martingale(lam=3, b=2, t=4) / mp.exp(mp.mpf(3) / 8) - 1) \
            < mp.mpf(10) ** -45
        expected = mp.exp(3 * (mp.mpf(1) / 2 - 2) - 9 * (mp.mpf(1) / 4 + 2) / 2)
        got = product_evalue(lam=3, b=[2, -1], tau=[4, Fraction(1, 2)])
        assert abs(got / expected - 1) < mp.mpf(10) ** -45


@covers("RSWR23:Thm5")
@pytest.mark.parametrize(("t", "gamma", "delta"), [
    ([100.0], 1.0, 0.05), ([0.01], 1.0, 0.05), ([0.5, 0.25, 2.0], 3.0, 1e-6),
    ([4.0, 4.0], 0.125, 0.5)])
def test_composed_expost_by_hand(t: list[float], gamma: float, delta: float) -> None:
    """V/2 + psi(V; gamma, delta) with V = sum 1/t_i, in floats (t = 1/100 gives the
    docstring's 82.7302: 50 + sqrt(101 log(40400))), and at 60 digits from the floats'
    exact binary values (the inputs the code sees): pinned to 1e-45, the working precision."""
    v = sum(1 / x for x in t)
    expected = v / 2 + psi(v, gamma, delta)
    got = composed_expost(t=t, gamma=gamma, delta=delta)
    assert abs(float(got) - expected) <= 1e-12 * expected
    with mp.workdps(60):
        vq = sum((1 / Fraction(x) for x in t), Fraction(0))
        V, g, d = (mp.mpf(q.numerator) / q.denominator
                   for q in (vq, Fraction(gamma), Fraction(delta)))
        want = V / 2 + mp.sqrt((V + g) * mp.log((V + g) / (d * d * g)))
        assert abs(got - want) < mp.mpf(10) ** -45 * want


@covers("RSWR23:Thm5")
def test_thm5_erratum_check_pinned() -> None:
    """psi(100; 1, 0.05) = sqrt(101 log 40400) = 32.73 < 50 and P[N(50, 100) >= psi] =
    Phi((50 - psi)/10) = 0.9579 (erfc), above delta = 0.05."""
    check = evalues._thm5_counterexample.verify()
    assert check.confirmed is True
    p = psi(100, 1, 0.05)
    tail = math.erfc((p - 50) / 10 / math.sqrt(2)) / 2
    assert check.detail == (f"V = 100, gamma = 1, delta = 0.05: psi = {p:.4g} < V/2 = 50 and "
                            f"P[L >= psi] >= {tail:.4g} (exact normal tail) > delta")
    # arb at 300 bits (review): psi = 32.73018624, tail = 0.9579144958
    assert (round(p, 2), round(tail, 4)) == (32.73, 0.9579)
    # The helper returns lower ends of enclosures: below arb balls at 400 bits, within 1e-40.
    flint = pytest.importorskip("flint")
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        psi_arb = (flint.arb(101) * flint.arb(40400).log()).sqrt()  # delta = 1/20 exactly
        tail_arb = ((psi_arb - 50) / 10 / flint.arb(2).sqrt()).erfc() / 2
        (psi_a, _), (tail_a, _) = arb_ends(psi_arb), arb_ends(tail_arb)
    finally:
        flint.ctx.prec = old
    p_lo, psi_lo = evalues._printed_thm5_failure(100, 1, "0.05")
    assert frac(p_lo) <= tail_a and tail_a - frac(p_lo) < Fraction(1, 10**40)
    assert frac(psi_lo) <= psi_a and psi_a - frac(psi_lo) < Fraction(1, 10**40)


@covers("RSWR23:psi")
def test_psi_display_erratum_check_pinned() -> None:
    check = evalues._display_check.verify()
    assert check.confirmed is True
    p = psi(100, 1, 0.05)
    assert check.detail == (f"V = 100: the display bounds |S| by {50 + p:.6g}; the mixture "
                            f"bounds it by psi = {p:.6g}; Theorem 5 then drops V/2 "
                            "from the loss threshold altogether")


@covers("RSWR23:Lem6.1")
def test_remark3_erratum_check_pinned() -> None:
    check = evalues._remark3_check.verify()
    assert check.confirmed is True
    assert check.detail == (f"M^(t) = exp(1 - 1/2) = {math.exp(0.5):.6g} > 1 at B^(t) = t = "
                            "lambda = 1, and it is G^(s)-measurable for s < t")


@covers("RSWR23:Eq2", "RSWR23:Thm5")
def test_times_must_be_positive() -> None:
    """Stopped times are variances: tau = 0 or t = 0 is refused (1/tau would be infinite),
    any tau > 0, however small, is accepted."""
    with pytest.raises(DomainError) as err:
        product_evalue(lam=1, b=[1, 1], tau=[1, 0])
    assert err.value.param == "tau"
    with pytest.raises(DomainError) as err:
        composed_expost(t=[1, 0], gamma=1, delta="0.05")
    assert err.value.param == "t"
    tiny = Fraction(1, 10**30)
    assert product_evalue(lam=0, b=[0], tau=[tiny]) == 1
    v = 10**30
    with mp.workdps(60):
        expected = mp.mpf(v) / 2 + mp.sqrt((v + 1) * mp.log(mp.mpf(v + 1) * 400))
        assert abs(composed_expost(t=[tiny], gamma=1, delta="0.05") / expected - 1) \
            < mp.mpf(10) ** -45


@covers("RSWR23:Lem6.1", "RSWR23:Eq2", "RSWR23:Thm5", "WRWR22:Thm3.4", "RSWR23:Thm4",
        "WRWR22:Thm3.4-bound", "WRWR22:Lem3.2")
def test_probabilistic_flags() -> None:
    """Which results state a probabilistic guarantee, decided from their statements.

    Probabilistic: Lemma 6.1 (E[M^(tau)] <= 1 at reverse stopping times: an e-value, a
    statement about the law), eq. (2) (the product is a supermartingale in expectation) and
    Theorem 5 (P[exists m: ...] <= delta).  Not probabilistic: the Brownian mechanism's
    loss (WRWR22 Thm 3.4, RSWR23 Thm 4) and Lemma 3.2 are identities on each path, and the
    sensitivity bound of Thm 3.4 holds on every path (c W <= Delta W^+ for c <= Delta).
    """
    from reference.core.model import Result
    from reference.results.noise_reduction import brownian
    found = {v.id: v.probabilistic for m in (evalues, brownian)
             for v in vars(m).values()
             if isinstance(v, Result) and v.core.__module__ == m.__name__}  # not imports
    assert {i for i, p in found.items() if p} == {"RSWR23:Lem6.1", "RSWR23:Eq2", "RSWR23:Thm5"}
    assert len(found) == 7
