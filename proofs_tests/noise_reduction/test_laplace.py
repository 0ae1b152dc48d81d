"""Property tests of Laplace noise reduction (WRWR22 §4; RSWR23 §4, App. A).

Independent routes: characteristic functions (the chain and Poisson constructions),
mpmath quadrature (Lévy densities, intensities, the Lévy–Khintchine formula), scipy's
Laplace densities, and whole-path likelihoods built from the transition kernels (atoms
included).  Skellam noise reduction is in ``test_skellam.py``, ex-post privacy in
``test_ex_post.py``; the errata test of these sections stays here.
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

from proofs_tests.profiles import share
from reference.core.errors import DomainError
from reference.results import covers, errata
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
from reference.sim.laplace_paths import (
    LaplaceNoiseReduction,
    laplace_chain,
    levy_process,
    poisson_process,
)

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


@covers("RSWR23:AppA-levy", "RSWR23:Eq13")
@given(z=st.fractions(Fraction(1, 1000), 50, max_denominator=1000),
       t=st.fractions(Fraction(1, 100), 20, max_denominator=100))
def test_levy_densities_are_even_with_exact_values_at_negative_z(z: Fraction,
                                                                 t: Fraction) -> None:
    """g(z; t) = e^{-|z|/t}/|z| and psi(z; t) = t^-2 e^{-|z|/t} are even in z and positive:
    at -z they equal the closed forms written here with |-z| = z (60 digits, rationals)."""
    with mp.workdps(60):
        zz, tt = mp.mpf(z.numerator) / z.denominator, mp.mpf(t.numerator) / t.denominator
        g_closed = mp.exp(-zz / tt) / zz
        psi_closed = mp.exp(-zz / tt) / tt**2
        for side in (-z, z):
            g = levy_density(z=side, t=t)
            psi = local_levy_density(z=side, t=t)
            assert g > 0 and psi > 0
            assert abs(g - g_closed) <= mp.mpf(10) ** -40 * g_closed
            assert abs(psi - psi_closed) <= mp.mpf(10) ** -40 * psi_closed


@covers("RSWR23:AppA-levy")
def test_levy_density_worked_values_at_negative_z() -> None:
    """By hand: g(-1; 1) = 1/e = 0.36787944117, g(-2; 4) = e^{-1/2}/2 = 0.30326532986,
    g(-1/2; 1/4) = 2 e^-2 = 0.27067056647."""
    for z, t, want in (("-1", 1, 0.36787944117144233), ("-2", 4, 0.30326532985631671),
                       ("-0.5", "0.25", 0.27067056647322538)):
        assert abs(float(levy_density(z=z, t=t)) - want) < 1e-15


@covers("RSWR23:AppA-levy")
@settings(max_examples=share(Fraction(2, 15)))
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
    stay probability; the increment's cf is the two-point mixture (RSWR23 Appendix A)."""
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
    # Pinned difference for other neighbours (independently computed: 0.46 against -0.111).
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


# ---- exact second route for the Laplace log-ratio (no cancellation at any scale) ---------

def _exact_gap(u: Fraction, d: Fraction) -> Fraction:
    return abs(u - d) - abs(u)


_scaled = st.builds(lambda m, e: m * Fraction(10) ** e,
                    st.fractions(-10, 10, max_denominator=1000), st.integers(-300, 300))


@covers("RSWR23:LemA.1", "RSWR23:LemA.1-printed")
@given(fx=_scaled, fxp=_scaled, x=_scaled, t=_scaled.filter(lambda q: q > 0))
def test_lnr_losses_against_exact_rationals(fx: Fraction, fxp: Fraction, x: Fraction,
                                            t: Fraction) -> None:
    """Both forms equal the exact rational ``(|X - d| - |X|)/t``: the plain value to 45
    digits, and the enclosure contains it; inputs spread over 600 decades."""
    from reference import certified
    from reference.core.numeric import exact as to_fraction

    def exact_of(x: object) -> Fraction:
        return to_fraction(x, "endpoint", "test")

    cases = [(lnr_loss, {"fx": [fx], "fxp": [fxp], "x": [x], "t": t}, fxp - fx)]
    if fxp - fx > 0:
        cases.append((lnr_loss_printed, {"x": x, "t": t, "sensitivity": fxp - fx}, fxp - fx))
    for res, kw, d in cases:
        exact = _exact_gap(x, d) / t
        with mp.workdps(60):
            q = mp.mpf(exact.numerator) / exact.denominator
            got = res(**kw)
            assert abs(got - q) <= abs(q) * mp.mpf(10) ** -45 + mp.mpf(10) ** -2000
            enc = certified(res, **kw)
            # exactly: q is the exact value rounded to 60 digits, the enclosure may be tighter
            assert exact_of(enc.lo) <= exact <= exact_of(enc.hi)


@covers("RSWR23:LemA.1-printed")
def test_lnr_printed_tiny_sensitivity_regression() -> None:
    """x = -3.3e-236, t = Delta = 3.9e-286: the loss is exactly 1 (it was 0.943)."""
    assert lnr_loss_printed(x="-3.3e-236", t="3.9e-286", sensitivity="3.9e-286") == 1
