"""Property tests of DP-SGD with batches drawn without replacement, replace-one neighbours
(DPSGD:eps-wor, DPSGD:delta-wor).

The certified value is ``[lo, hi]``: ``lo`` the lower end for a pair of datasets (the
Poisson pair at noise ``sigma/2``), ``hi`` the upper end for the symmetric dominating law.
Expected values share no code with it (``proofs_tests/dpsgd_wor_support.py`` and
``dpsgd_pld_support.py``, mpmath):

* the symmetric law's hockey-stick curve against ``int (p - a q)_+`` by quadrature, both
  for ``a >= 1`` and ``a < 1`` (the claim its proof rests on);
* ``T = 1, 2``: the upper end's exact epsilon/delta (closed form; quadrature) inside, at
  most the bracket's own width above; the lower pair's exact value (same routes) inside;
* ``q = 1``: both ends are the Gaussian mechanism with sensitivity 2;
* ``T = 100``: a float FFT composition of the symmetric law (numpy), within 1%.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.dpsgd_pld_support import (
    delta_gaussian,
    delta_one_step,
    delta_two_steps,
    eps_from,
    mpf,
)
from proofs_tests.dpsgd_wor_support import delta1_sym, hockey, sym_profile
from proofs_tests.profiles import share
from reference import DomainError, certified
from reference.results import covers
from reference.results.dpsgd.wor import dpsgd_delta_wor, dpsgd_eps_wor

_D5 = Fraction(1, 10**5)


def _enc(delta: Fraction, q: Fraction, sigma: Fraction, steps: int) -> Any:
    return certified(dpsgd_eps_wor, q=q, sigma=sigma, steps=steps, delta=delta)


def _slack(eps: Any) -> Any:
    """What one bracket end may lie beyond its exact value: the grid's target width
    ``max(eps, 1)/100``, doubled (as in ``test_pld``'s width check)."""
    return max(eps, 1) / 50


@covers("DPSGD:eps-wor", "DPSGD:delta-wor")
@settings(max_examples=share(Fraction(1, 10)), deadline=None)
@given(q=st.fractions(Fraction(1, 1000), 1, max_denominator=1000),
       s=st.fractions(Fraction(1, 2), 20, max_denominator=20),
       c=st.fractions(-4, 4, max_denominator=100))
@example(q=Fraction(1, 100), s=Fraction(1), c=Fraction(-1, 100))
@example(q=Fraction(1), s=Fraction(1, 2), c=Fraction(-3))
def test_symmetric_law_has_the_dominating_curve(q: Fraction, s: Fraction, c: Fraction) -> None:
    """The law of the upper end gives ``H_(e^c)(P || Q)`` for ``c >= 0`` and ``H_(e^c)(Q ||
    P)`` for ``c < 0`` (the module's proof), ``P, Q`` the pair at noise ``s``."""
    with mp.workdps(30):
        qq, ss, cc = mpf(q), mpf(s), mpf(c)
        law = delta1_sym(qq, ss, cc)
        direct = hockey(qq, ss, mp.exp(cc), reverse=c < 0)
        assert abs(law - direct) <= mp.mpf(10) ** -20 * (1 + direct), (law, direct)


_CASES = [(Fraction(1, 100), Fraction(2), _D5), (Fraction(1, 10), Fraction(1), Fraction(1, 10**3)),
          (Fraction(1, 2), Fraction(4), Fraction(1, 10**9)), (Fraction(1, 20), Fraction(3), _D5)]


@covers("DPSGD:eps-wor")
@pytest.mark.parametrize("steps", [1, 2])
@pytest.mark.parametrize(("q", "sigma", "delta"), _CASES,
                         ids=[f"q{q}-s{s}-d{d}" for q, s, d in _CASES])
def test_one_and_two_steps_eps(q: Fraction, sigma: Fraction, delta: Fraction,
                               steps: int) -> None:
    """Both exact ends inside the bracket, each bracket end within ``_slack`` of its exact
    value (two-sided), the plain value (the upper law's estimate) inside.  The profiles
    decrease, so each comparison is read off the profile at a bracket end (no root-finding:
    one quadrature each at two steps): ``eps_up <= hi`` iff ``upper(hi) <= delta``."""
    def upper(e: Any) -> mpmath.mpf:
        return sym_profile(q, sigma, steps, e)

    def lower(e: Any) -> mpmath.mpf:
        half = sigma / 2
        return delta_one_step(q, half, e) if steps == 1 else delta_two_steps(q, half, e)
    enc = _enc(delta, q, sigma, steps)
    d = mpf(delta)
    assert upper(enc.hi) <= d and lower(enc.lo) >= d, enc          # both exact ends inside
    assert upper(enc.hi - _slack(enc.hi)) > d, enc                  # hi not far above
    assert enc.lo == 0 or lower(enc.lo + _slack(enc.hi)) < d, enc   # lo not far below
    plain = dpsgd_eps_wor(q=q, sigma=sigma, steps=steps, delta=delta)
    assert enc.lo <= plain <= enc.hi
    near = _slack(enc.hi) / 8   # the plain value is the upper law's own estimate: close to it
    assert upper(plain + near) < d and (plain <= near or upper(plain - near) > d), (plain, enc)


@covers("DPSGD:delta-wor")
@pytest.mark.parametrize(("q", "sigma", "eps", "steps"), [
    (Fraction(1, 100), Fraction(2), Fraction(1, 2), 1),
    (Fraction(1, 10), Fraction(1), Fraction(1), 2),
    (Fraction(1, 3), Fraction(3), Fraction(0), 2),
    (Fraction(1, 20), Fraction(2), Fraction(2), 2)])
def test_one_and_two_steps_delta(q: Fraction, sigma: Fraction, eps: Fraction,
                                 steps: int) -> None:
    """The exact deltas of both ends inside the bracket, which is at most 25% (relative)
    beyond them on each side."""
    half = sigma / 2
    up = sym_profile(q, sigma, steps, eps)
    with mp.workdps(40):
        low = delta_one_step(q, half, eps) if steps == 1 else delta_two_steps(q, half, eps)
    enc = certified(dpsgd_delta_wor, q=q, sigma=sigma, steps=steps, eps=eps)
    assert enc.lo <= low <= up <= enc.hi, (enc, low, up)
    assert enc.hi <= up * mp.mpf("1.25") and enc.lo >= low * mp.mpf("0.75"), (enc, low, up)
    assert enc.lo <= dpsgd_delta_wor(q=q, sigma=sigma, steps=steps, eps=eps) <= enc.hi


@covers("DPSGD:eps-wor")
@settings(max_examples=share(Fraction(1, 20)), deadline=None)
@given(sigma=st.fractions(1, 20, max_denominator=10), steps=st.integers(1, 200),
       delta=st.sampled_from([Fraction(1, 100), _D5, Fraction(1, 10**9)]))
@example(sigma=Fraction(2), steps=100, delta=_D5)
def test_whole_batches_are_the_gaussian_mechanism(sigma: Fraction, steps: int,
                                                  delta: Fraction) -> None:
    """``q = 1``: every step is the Gaussian mechanism with sensitivity 2: both ends are
    its epsilon, ``mu = 2 sqrt(T)/sigma``."""
    exact = eps_from(lambda e: delta_gaussian(sigma / 2, steps, e), delta)
    enc = _enc(delta, Fraction(1), sigma, steps)
    assert enc.lo <= exact <= enc.hi, (enc, exact)
    assert enc.hi - enc.lo <= 2 * _slack(exact), (enc, exact)
    eps = Fraction(1, 2)
    d = delta_gaussian(sigma / 2, steps, eps)
    box = certified(dpsgd_delta_wor, q=1, sigma=sigma, steps=steps, eps=eps)
    assert box.lo <= d <= box.hi and box.hi - box.lo <= d / 2 + mp.mpf(10) ** -12, (box, d)


@covers("DPSGD:eps-wor", "DPSGD:delta-wor")
def test_domain_ends_are_accepted() -> None:
    """The ends of the documented domain evaluate: ``sigma = 1`` and ``200``, ``delta =
    1e-12``, ``q = 0`` (exactly 0 in both directions)."""
    for sigma in ("1", "200"):
        assert dpsgd_eps_wor(q="0.01", sigma=sigma, steps=3, delta="1e-12") > 0
    assert dpsgd_eps_wor(q=0, sigma=2, steps=3, delta="1e-5") == 0
    assert dpsgd_delta_wor(q=0, sigma=2, steps=3, eps=0) == 0


def _fft_eps(q: float, s: float, steps: int, delta: float, h: float = 1e-3) -> float:
    """The symmetric law on a grid of step ``h`` (nearest rounding, floats), composed by FFT,
    epsilon by bisection: an approximation, independent of the grid code."""
    z = np.linspace(0.5, 1 + 14 * s, 400_001)
    dz = z[1] - z[0]
    ell = np.log1p(q * np.expm1((2 * z - 1) / (2 * s * s)))
    pq = np.exp(-z * z / (2 * s * s)) / (s * np.sqrt(2 * np.pi)) * dz
    pp = (1 - q) * pq + q * np.exp(-(z - 1) ** 2 / (2 * s * s)) / (s * np.sqrt(2 * np.pi)) * dz
    top = int(np.ceil(ell.max() / h)) + 1
    law = np.zeros(2 * top + 1)
    np.add.at(law, np.rint(ell / h).astype(int) + top, pp)
    np.add.at(law, np.rint(-ell / h).astype(int) + top, pq)
    law[top] += 1 - law.sum()
    size = 1 << int(np.ceil(np.log2(steps * len(law))))
    out = np.maximum(np.fft.irfft(np.fft.rfft(law, size) ** steps, size), 0)
    xs = (np.arange(size) - steps * top) * h
    lo, hi = 0.0, 100.0
    for _ in range(60):
        mid = (lo + hi) / 2
        m = xs > mid
        d = float(np.sum(out[m] * -np.expm1(mid - xs[m])))
        lo, hi = (mid, hi) if d > delta else (lo, mid)
    return hi


@covers("DPSGD:eps-wor")
@pytest.mark.parametrize(("q", "sigma"), [(Fraction(1, 100), Fraction(2)),
                                          (Fraction(1, 10), Fraction(3))])
def test_upper_end_against_a_float_composition(q: Fraction, sigma: Fraction) -> None:
    """``T = 100``: the bracket's upper end within 1% of a float FFT composition of the
    same law (nearest rounding at step 1e-3: error well below 1%)."""
    approx = _fft_eps(float(q), float(sigma) / 2, 100, 1e-5)
    hi = float(_enc(_D5, q, sigma, 100).hi)
    assert approx * 0.99 <= hi <= approx * 1.02, (hi, approx)


@covers("DPSGD:eps-wor", "DPSGD:delta-wor")
@pytest.mark.parametrize(("name", "value"), [("sigma", "0.99"), ("sigma", "201"),
                                             ("delta", "1e-13")])
def test_domain_errors_name_the_parameter(name: str, value: str) -> None:
    args = {"q": "0.01", "sigma": "2", "steps": 10, "delta": "1e-5"}
    args[name] = value
    with pytest.raises(DomainError, match=name):
        dpsgd_eps_wor(**args)
    if name == "sigma":
        with pytest.raises(DomainError, match=name):
            dpsgd_delta_wor(q="0.01", sigma=value, steps=10, eps=1)
