"""Property tests of Laplace and Skellam noise reduction and of ex-post privacy
(WRWR22 §2, §4; RSWR23 §4–§5, App. A).

Independent routes: characteristic functions (the chain and Poisson constructions),
mpmath quadrature (Lévy densities, intensities, the Lévy–Khintchine formula), scipy's
Laplace and Skellam densities, whole-path likelihoods built from the transition kernels
(atoms included), Poisson convolutions, and exact Fraction sums.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mpmath import mp
from scipy import stats

from reference.core.errors import DomainError
from reference.results import covers, errata
from reference.results.noise_reduction.ex_post import (
    compose_expost,
    expost_excess,
    expost_excess_given,
)
from reference.results.noise_reduction.laplace import (
    flat_probability,
    jump_law,
    levy_density,
    lnr_expost,
    lnr_loss,
    lnr_loss_printed,
    lnr_path_loss,
    lnr_path_loss_rswr23,
    local_levy_density,
    stay_probability,
)
from reference.results.noise_reduction.skellam import skellam_path_loss, skellam_pmf
from reference.sim.ex_post import check_expost
from reference.sim.laplace_paths import (
    LaplaceNoiseReduction,
    laplace_chain,
    levy_process,
    poisson_process,
)
from reference.sim.skellam_paths import skellam_paths

scales = st.floats(0.05, 20)
small = st.floats(-5, 5)


def phi(t: mpmath.mpf, u: mpmath.mpf) -> mpmath.mpf:
    """Characteristic function of Lap(t)."""
    return 1 / (1 + t**2 * u**2)


@covers("WRWR22:Eq4")
@given(s=st.floats(0, 10), extra=st.floats(0.01, 10), u=st.floats(-20, 20))
def test_chain_step_preserves_the_laplace_law(s: float, extra: float, u: float) -> None:
    """phi_s(u) [p + (1 - p) phi_t(u)] = phi_t(u) at p = stay probability (exact identity,
    50 digits), and the tempting p = s/t breaks it."""
    with mp.workdps(50):
        s_, t_, u_ = mp.mpf(s), mp.mpf(s) + mp.mpf(extra), mp.mpf(u)
        p = stay_probability(t_prev=s_, t=t_)
        assert abs(phi(s_, u_) * (p + (1 - p) * phi(t_, u_)) - phi(t_, u_)) < mp.mpf(10) ** -40
        if s > 0.01 and abs(u) > 0.5:
            wrong = s_ / t_
            assert abs(phi(s_, u_) * (wrong + (1 - wrong) * phi(t_, u_)) - phi(t_, u_)) \
                > mp.mpf(10) ** -12


@covers("WRWR22:Eq4")
def test_chain_sampler_starts_moving_and_rejects_bad_grids() -> None:
    z = laplace_chain([0.5, 1.0, 1.0 + 1e-9, 3.0], 2000, np.random.default_rng(5), d=2)
    assert z.shape == (2000, 4, 2) and np.all(z[:, 0] != 0)     # t_0 = 0: always moves
    assert np.mean(z[:, 1] == z[:, 2]) > 0.99                    # stay prob ~ 1 - 2e-9
    with pytest.raises(DomainError):
        laplace_chain([2.0, 1.0], 10, np.random.default_rng(0))
    with pytest.raises(DomainError, match="t_prev must be <= t"):
        stay_probability(t_prev=2, t=1)


@covers("WRWR22:Eq5", "WRWR22:Eq4")
@given(eta=st.floats(0.01, 5), a=st.floats(0, 5), b=st.floats(0, 5), u=st.floats(-10, 10))
def test_poisson_construction_has_laplace_marginals(eta: float, a: float, b: float,
                                                    u: float) -> None:
    """Integrating d/dt log phi_{Z_t}(u) = -(2/t)(1 - phi_t(u)) (a jump of Lap(t) at rate
    2/t) from Lap(eta) at eta gives phi_t (quadrature); the no-jump probability is eq. (4)'s
    stay probability; the mean count is the integral of the intensity."""
    with mp.workdps(30):
        e, s = mp.mpf(eta), mp.mpf(eta) + mp.mpf(a)
        t, u_ = s + mp.mpf(b), mp.mpf(u)
        law = jump_law(eta=e, s=s, t=t)
        assert abs(law.no_jump - stay_probability(t_prev=s, t=t)) < mp.mpf(10) ** -25
        assert abs(law.mean - mp.quad(lambda r: 2 / r, [s, t])) < mp.mpf(10) ** -20
        log_phi = mp.log(phi(e, u_)) - mp.quad(lambda r: 2 / r * (1 - phi(r, u_)), [e, t])
        assert abs(log_phi - mp.log(phi(t, u_))) < mp.mpf(10) ** -15


@covers("WRWR22:Eq5")
def test_process_samplers_are_piecewise_constant_with_jumps_in_range() -> None:
    gen = np.random.default_rng(11)
    for proc in (poisson_process(0.3, 5.0, 400, gen, d=2), levy_process(0.3, 5.0, 400, gen)):
        assert np.all((proc.times > 0.3) & (proc.times <= 5.0))
        assert np.array_equal(proc.read(0.3), proc.base)        # Z_eta: one Lap(eta) draw
        path = int(proc.path[0])
        inside = np.sort(proc.times[proc.path == path])
        if inside.size:                                        # constant between jumps
            lo = inside[0]
            hi = inside[1] if inside.size > 1 else 5.0
            mid = np.full(proc.n_paths, 0.3)
            mid[path] = (lo + hi) / 2
            right = mid.copy()
            right[path] = lo + (hi - lo) * 0.999
            assert np.array_equal(proc.read(mid)[path], proc.read(right)[path])
        with pytest.raises(DomainError, match="eta"):
            proc.read(0.29)
    with pytest.raises(DomainError):
        poisson_process(2.0, 1.0, 5, gen)


@covers("RSWR23:Eq13", "RSWR23:AppA-levy")
@given(z=st.floats(0.05, 10), t=st.floats(0.1, 10), sign=st.sampled_from([-1, 1]))
def test_levy_density_is_the_integral_of_the_local_density(z: float, t: float,
                                                           sign: int) -> None:
    """int_0^t psi(z; u) du = g(z; t) (quadrature), and psi(.; t) has mass 2/t."""
    with mp.workdps(30):
        zz = sign * mp.mpf(z)
        integral = mp.quad(lambda u: local_levy_density.core(mp, zz, u), [0, t / 4, t])
        assert abs(integral - levy_density(z=zz, t=t)) < mp.mpf(10) ** -18 * (1 + integral)
        mass = 2 * mp.quad(lambda x: local_levy_density.core(mp, x, mp.mpf(t)), [0, mp.inf])
        assert abs(mass - 2 / mp.mpf(t)) < mp.mpf(10) ** -18


@covers("RSWR23:AppA-levy")
@settings(max_examples=8)
@given(t=st.floats(0.1, 5), u=st.floats(0.1, 5))
def test_levy_khintchine_gives_the_laplace_characteristic_function(t: float, u: float) -> None:
    """int (cos(uz) - 1) g(z; t) dz = -log(1 + t^2 u^2): g is the Lévy density of Lap(t)."""
    with mp.workdps(20):
        f = lambda x: 2 * (mp.cos(u * x) - 1) * levy_density.core(mp, x, mp.mpf(t))  # noqa: E731
        exponent = mp.quad(f, [*mp.linspace(0, 40 * t, 41), mp.inf])
        assert abs(exponent + mp.log(1 + mp.mpf(t) ** 2 * mp.mpf(u) ** 2)) < mp.mpf(10) ** -12


@covers("RSWR23:AppA-flat", "WRWR22:Eq4")
@given(t1=st.floats(0.05, 10), extra=st.floats(0, 10), u=st.floats(-10, 10))
def test_flat_interval_probability(t1: float, extra: float, u: float) -> None:
    """exp(-Lévy mass of the increment) by double quadrature of eq. (13); equal to the
    stay probability; the increment's cf is the two-point mixture (catalog-000 §7)."""
    with mp.workdps(30):
        a, b, u_ = mp.mpf(t1), mp.mpf(t1) + mp.mpf(extra), mp.mpf(u)
        p = flat_probability(t1=a, t2=b)
        # the z-mass of eq. (13) at scale s is 2/s (checked by quadrature above)
        mass = mp.quad(lambda s: 2 / s, [a, b])
        assert abs(p - mp.exp(-mass)) < mp.mpf(10) ** -15
        assert abs(p - stay_probability(t_prev=a, t=b)) < mp.mpf(10) ** -25
        assert abs(phi(b, u_) / phi(a, u_) - (p + (1 - p) * phi(b, u_))) < mp.mpf(10) ** -25
    with pytest.raises(DomainError):
        flat_probability(t1=2, t2=1)


@st.composite
def lnr_case(draw: st.DrawFn) -> tuple[list[float], list[float], list[float], float]:
    d = draw(st.integers(1, 4))
    vec = st.lists(small, min_size=d, max_size=d)
    return draw(vec), draw(vec), draw(vec), draw(scales)


@covers("RSWR23:LemA.1", "WRWR22:Prop4.2")
@given(case=lnr_case())
def test_lnr_loss_is_the_laplace_log_density_ratio(
        case: tuple[list[float], list[float], list[float], float]) -> None:
    """The loss equals scipy's Laplace log-density ratio summed over coordinates and never
    exceeds the ex-post bound ||f(x) - f(x')||_1 / t in absolute value."""
    fx, fxp, x, t = case
    y = np.add(fx, x)
    direct = float(np.sum(stats.laplace.logpdf(y, fx, t) - stats.laplace.logpdf(y, fxp, t)))
    value = lnr_loss(fx=fx, fxp=fxp, x=x, t=t)
    assert abs(float(value) - direct) <= 1e-9 * (1 + abs(direct))
    l1 = sum((abs(Fraction(a) - Fraction(b)) for a, b in zip(fx, fxp, strict=True)),
             Fraction(0))
    assume(l1 > Fraction(1, 10**9))
    bound = lnr_expost(t=t, sensitivity=l1)
    assert bound.delta == 0 and abs(value) <= bound.eps * (1 + mp.mpf(10) ** -30)


@covers("RSWR23:LemA.1-printed", "RSWR23:LemA.1")
@given(x=small, t=scales, delta1=st.floats(0.01, 5))
def test_printed_lemma_a1_is_the_loss_of_worst_case_neighbours(x: float, t: float,
                                                               delta1: float) -> None:
    with mp.workdps(40):
        exact = lnr_loss(fx=[0], fxp=[delta1], x=[x], t=t)
        assert abs(lnr_loss_printed(x=x, t=t, sensitivity=delta1) - exact) < mp.mpf(10) ** -35
    # Pinned difference for other neighbours (catalog-000 §7: 0.46 against -0.111).
    printed = lnr_loss_printed(x="0.339", t="0.7", sensitivity=1)
    actual = lnr_loss(fx=[0], fxp=["0.6"], x=["0.339"], t="0.7")
    assert abs(float(printed) - 0.46) < 1e-12 and abs(float(actual) + 0.078 / 0.7) < 1e-12


@covers("WRWR22:Prop4.2")
@given(t=scales, delta1=st.floats(0.01, 5), x=st.floats(0, 5))
def test_lnr_bound_is_attained(t: float, delta1: float, x: float) -> None:
    """For y beyond both statistics the loss is exactly Delta_1/t: the bound is tight."""
    with mp.workdps(40):
        loss = lnr_loss(fx=[delta1], fxp=[0], x=[x], t=t)
        assert abs(loss - lnr_expost(t=t, sensitivity=delta1).eps) < mp.mpf(10) ** -30


def chain_joint_loglik(times: np.ndarray, y: np.ndarray, f: float) -> float:
    """log-likelihood of releases at non-increasing scales, built forward in scale from
    the transition kernels of eq. (4): Lap(T_n) at the smallest scale, then each step up
    an atom at 0 of mass (s/t)^2 or a Lap(t) increment of mass 1 - (s/t)^2."""
    total = float(stats.laplace.logpdf(y[-1] - f, 0, times[-1]))
    for k in range(len(y) - 2, -1, -1):
        s, t, inc = times[k + 1], times[k], y[k] - y[k + 1]
        p = (s / t) ** 2
        total += np.log(p) if inc == 0 else np.log1p(-p) + stats.laplace.logpdf(inc, 0, t)
    return total


@covers("WRWR22:Def4.1", "RSWR23:DefA.1")
@given(n=st.integers(1, 5), seed=st.integers(0, 2**32 - 1), fx=small, fxp=small)
def test_lnr_path_loss_equals_joint_likelihood_ratio(n: int, seed: int, fx: float,
                                                     fxp: float) -> None:
    """Whole-path likelihood ratio (atoms included, eq. (4) kernels) on sampled paths with
    ties = the registered last-release formulas."""
    gen = np.random.default_rng(seed)
    rising = np.sort(gen.uniform(0.2, 5, n))
    chain = laplace_chain(rising, 1, gen)[0]
    times, y = rising[::-1], (fx + chain)[::-1]
    joint = chain_joint_loglik(times, y, fx) - chain_joint_loglik(times, y, fxp)
    for value in (lnr_path_loss(times=times, y=y, fx=fx, fxp=fxp, eta="0.2"),
                  lnr_path_loss_rswr23(times=times, y=y, fx=fx, fxp=fxp)):
        assert abs(float(value) - joint) <= 1e-8 * (1 + abs(joint))


@covers("WRWR22:Def4.1")
def test_lnr_mechanism_domain_and_sampler_agree() -> None:
    with pytest.raises(DomainError, match="non-increasing"):
        lnr_path_loss(times="1,2", y="0,0", fx=1, fxp=0, eta="0.5")
    with pytest.raises(DomainError, match="eta"):
        lnr_path_loss(times="2,0.25", y="0,0", fx=1, fxp=0, eta="0.5")
    m = LaplaceNoiseReduction([1.0], np.random.default_rng(3), eta="1/8")
    ys = [float(m.release(t)[0]) for t in ("8", "3", "3", "1/2")]
    loss = lnr_path_loss(times="8,3,3,0.5", y=ys, fx=1, fxp=0, eta="1/8")
    assert abs(float(loss) - m.loss([0.0])) < 1e-12
    with pytest.raises(DomainError, match="previous scale"):
        m.release(1)


@covers("WRWR22:Sec4-Skellam")
@given(k=st.integers(-25, 25), t=st.floats(0.1, 10), l1=st.floats(0.05, 4),
       l2=st.floats(0.05, 4))
def test_skellam_pmf_against_scipy_and_poisson_convolution(k: int, t: float, l1: float,
                                                            l2: float) -> None:
    m1, m2 = t * l1, t * l2
    value = skellam_pmf(k=k, t=t, lam1=l1, lam2=l2)
    ref = float(stats.skellam.pmf(k, m1, m2))
    assert abs(float(value) - ref) <= 1e-9 * ref + 1e-300
    with mp.workdps(40):
        m1, m2 = mp.mpf(t) * mp.mpf(l1), mp.mpf(t) * mp.mpf(l2)     # exact products
        conv = mp.fsum(mp.exp(-m1 - m2) * m1 ** (j + k) * m2**j
                       / (mp.factorial(j + k) * mp.factorial(j)) for j in range(max(0, -k), 300))
        assert abs(value - conv) <= mp.mpf(10) ** -30 * (1 + conv)


@covers("WRWR22:Sec4-Skellam")
def test_skellam_pmf_moments_enclosure_and_domain() -> None:
    t, l1, l2 = Fraction(3, 2), Fraction(3, 2), Fraction(4, 5)
    with mp.workdps(30):
        p = {k: skellam_pmf(k=k, t=t, lam1=l1, lam2=l2) for k in range(-40, 60)}
        mass = mp.fsum(p.values())
        mean = mp.fsum(k * v for k, v in p.items())
        var = mp.fsum(k * k * v for k, v in p.items()) - mean**2
        assert abs(mass - 1) < mp.mpf(10) ** -20
        assert abs(mean - t * (l1 - l2)) < mp.mpf(10) ** -18
        assert abs(var - t * (l1 + l2)) < mp.mpf(10) ** -18
    enc = skellam_pmf.certified(k=-3, t=1000, lam1=1, lam2="0.9")
    point = skellam_pmf(k=-3, t=1000, lam1=1, lam2="0.9")
    with mp.workdps(70):
        slack = mp.mpf(10) ** -45 * point
        assert enc.lo - slack <= point <= enc.hi + slack
        assert enc.hi - enc.lo < mp.mpf(10) ** -45 * enc.hi
    with pytest.raises(DomainError, match="lam1"):
        skellam_pmf(k=0, t=2000, lam1=1, lam2=1)


@covers("WRWR22:Sec4-Skellam-NR")
@given(n=st.integers(1, 4), seed=st.integers(0, 2**32 - 1), fx=st.integers(-3, 3),
       fxp=st.integers(-3, 3))
def test_skellam_path_loss_equals_joint_pmf_ratio(n: int, seed: int, fx: int, fxp: int) -> None:
    """Joint pmf of the released path from independent Skellam increments (scipy) under f
    and f': the ratio is the registered last-release formula."""
    gen = np.random.default_rng(seed)
    times = np.sort(gen.uniform(0.3, 4, n))[::-1]
    lam1, lam2 = 1.2, 0.7
    y = fx + skellam_paths(times, 1, gen, lam1, lam2)[0]

    def joint(f: int) -> float:
        total = float(stats.skellam.logpmf(y[-1] - f, times[-1] * lam1, times[-1] * lam2))
        for k in range(n - 1):
            dt = times[k] - times[k + 1]
            total += float(stats.skellam.logpmf(y[k] - y[k + 1], dt * lam1, dt * lam2))
        return total

    value = skellam_path_loss(times=times, y=[int(v) for v in y], fx=fx, fxp=fxp,
                              lam1=lam1, lam2=lam2)
    assert abs(float(value) - (joint(fx) - joint(fxp))) < 1e-8
    with pytest.raises(DomainError, match="integer"):
        skellam_path_loss(times=times, y=[int(v) for v in y], fx=0.5, fxp=0, lam1=1, lam2=1)


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


@covers("WRWR22:Eq4", "RSWR23:AppA-flat", "RSWR23:LemA.1", "WRWR22:Def4.1",
        "WRWR22:Sec4-Skellam", "WRWR22:Sec4-Skellam-NR", "RSWR23:Lem5.1")
def test_errata_of_these_sections_are_confirmed() -> None:
    ids = {"WRWR22:Eq4-t0", "WRWR22:Def4.1-eta", "RSWR23:AppA-flat", "RSWR23:LemA.1",
           "WRWR22:LNR-indexing", "WRWR22:Sec4-Skellam-wording", "WRWR22:Sec4-Skellam-integer",
           "RSWR23:Lem5.1", "WRWR22:Thm5.1-transcript"}
    found = {e.id: e for e in errata() if e.id in ids}
    assert set(found) == ids
    for e in found.values():
        check = e.verify()
        assert check.confirmed, (e.id, check.detail)
