"""The exact (eps, delta) curve of the Gaussian mechanism (Balle–Wang 2018, Theorem 8).

A Gaussian mechanism ``f(x) + N(0, sigma^2 I)`` on a statistic of l2 sensitivity
``Delta`` is (eps, delta)-DP (eps >= 0) if and only if

    delta >= Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)

(Balle–Wang, ICML 2018, Theorem 8; also Sommer–Meiser–Mohammadi 2019).  The right-hand
side is the hockey-stick divergence ``E[(1 - e^(eps - L))_+]`` of ``N(0, sigma^2)`` from
``N(Delta, sigma^2)``, with privacy loss ``L ~ N(mu^2/2, mu^2)`` under the first law and
``N(-mu^2/2, mu^2)`` under the second; the computation uses no sign of ``eps``, so the
curve holds for every real eps (the paper states eps >= 0; privacy-loss-distribution
accountants also evaluate it at eps < 0).  With
``mu = Delta / sigma`` this is ``Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2)``, ``Q`` the
standard normal upper tail.  The mechanism is ``rho = mu^2/2``-zCDP, so this curve is the
lower bound every sound zCDP -> DP conversion must respect (BS16 >= CKS20 >= this curve).
``Q`` is evaluated rigorously by :func:`reference.core.special.normal_sf`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import mpmath
from mpmath import fp, mp

from reference.core.errors import DomainError
from reference.core.model import inverse, result
from reference.core.numeric import MPF, Ctx, ctx_min, endpoints, exp, expm1, extra_bits, log
from reference.core.params import Param, positive, unit_open
from reference.core.roots import bracket, newton
from reference.core.special import normal_sf

_STATEMENT = (r"\delta(\varepsilon)=\Phi\Big(\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}"
              r"{\Delta}\Big)-e^{\varepsilon}\Phi\Big(-\frac{\Delta}{2\sigma}-\frac{\varepsilon"
              r"\sigma}{\Delta}\Big)")


#: Computational limits: ``mu = Delta/sigma`` in [1e-8, 1e8] and ``|eps| <= 1e12`` keep the
#: exponents of ``Q`` (about ``(eps/mu)^2``) within a few hundred guard bits.
MU_RANGE = (Fraction(1, 10**8), Fraction(10**8))
EPS_MAX = Fraction(10**12)
_EPS = Param("eps", "real", lo=-EPS_MAX, hi=EPS_MAX, example="1",
             doc="epsilon at which delta is wanted, any real in [-1e12, 1e12] "
                 "(eps < 0: the curve of a privacy-loss distribution)")
_RHO = Param("rho", "real", lo=Fraction(1, 10**16), hi=Fraction(10**16), hi_open=True,
             example="1",
             doc="zCDP level Delta^2/(2 sigma^2) of the Gaussian, in [1e-16, 1e16)")


def _mu_in_range(values: Mapping[str, Any], where: str) -> None:
    mu = values["sensitivity"] / values["sigma"]
    if not MU_RANGE[0] <= mu <= MU_RANGE[1]:
        raise DomainError("sigma", values["sigma"], "must give sensitivity/sigma in [1e-8, 1e8] "
                          f"(computational limit; here "
                          f"{mpmath.nstr(mpmath.mpf(mu.numerator) / mu.denominator, 3)})", where)


def gauss_delta(ctx: Ctx, mu: MPF, eps: MPF) -> MPF:
    """``Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2)``, the Gaussian's delta at any real ``eps``.

    For ``eps < 0`` both tails are close to 1 and the difference would cancel (about
    ``log2(1/mu)`` bits near ``eps = 0`` for small ``mu``).  The symmetry of the Gaussian
    pair (the loss has the same law from either side) gives
    ``delta(eps) = 1 - e^eps + e^eps delta(-eps)``: for ``eps < 0`` it is evaluated as
    ``-expm1(eps) + e^eps delta(|eps|)``, a sum of two nonnegative terms, so its relative
    error is that of ``delta(|eps|)``.  It is at most ``1`` (``delta(|eps|) <= 1``); the
    enclosure is cut there, which only drops outward rounding above 1 (on Arb's balls,
    whose radius is rounded up to 30 bits, up to a part in 2^29 of the enclosure's width).
    """
    if endpoints(eps).hi < 0:
        value = -expm1(ctx, eps) + exp(ctx, eps) * _gauss_delta_nonneg(ctx, mu, -eps)
        return ctx_min(ctx, value, ctx.one)
    # eps >= 0 (an interval straddling 0 never arises from exact inputs; the formula below
    # is valid there too, only less tight).
    return _gauss_delta_nonneg(ctx, mu, eps)


def _gauss_delta_nonneg(ctx: Ctx, mu: MPF, eps: MPF) -> MPF:
    """The closed form for ``eps >= 0``.

    The difference cancels about ``log2(eps/mu^2)`` bits (``delta/Q(a) ~ mu/b``), paid for
    with as many guard bits.
    """
    span, eps_hi = endpoints(mu), endpoints(eps).hi
    mu_lo, mu_hi = span.lo, span.hi
    ratio = eps_hi / mu_lo ** 2
    guard = 20 + max(0, int(mpmath.mag(ratio)) if ratio > 0 else 0)
    # exp(-x^2/2) inside Q needs x^2 to absolute accuracy: 2 log2 |x| more bits.
    guard += 2 * max(0, int(mpmath.mag(abs(eps_hi) / mu_lo + mu_hi)))
    with extra_bits(ctx, guard):
        value = gauss_delta_formula(ctx, mu, eps)
    return value


def gauss_delta_formula(ctx: Ctx, mu: MPF, eps: MPF) -> MPF:
    """Balle–Wang (2018) Theorem 8 as written, ``Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2)``,
    with no guard bits and no branch (the form the relations of the prover trace)."""
    return normal_sf(ctx, eps / mu - mu / 2) - exp(ctx, eps) * normal_sf(ctx, eps / mu + mu / 2)


@result("BW18:Thm8", title="Exact (eps, delta) curve of the Gaussian mechanism",
        kind="mechanism", statement=_STATEMENT,
        params=[positive("sigma", "1", "noise standard deviation"),
                _EPS, positive("sensitivity", "1", "l2 sensitivity Delta", default="1")],
        precondition=_mu_in_range, balls=True)
def gaussian_delta(ctx: Ctx, sigma: MPF, eps: MPF, sensitivity: MPF) -> MPF:
    """Smallest delta with the Gaussian mechanism (eps, delta)-DP: Balle–Wang Thm 8.

    ``Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)``.
    Domain: ``sigma > 0``, ``-1e12 <= eps <= 1e12``, ``sensitivity > 0``,
    ``sensitivity/sigma`` in [1e-8, 1e8] (computational limit).  The paper states the
    curve for ``eps >= 0``; it is the hockey-stick divergence ``E[(1 - e^(eps - L))_+]``
    for every real eps (module doc), which PLD accountants also evaluate at ``eps < 0``.

    At ``eps = 0`` this is the total variation ``2 Phi(Delta/(2 sigma)) - 1`` (by hand:
    ``erf(1/(2 sqrt 2))`` = 0.3829249225480262072754... for ``sigma = Delta``); at
    ``eps < 0`` it is ``1 - e^eps + e^eps delta(-eps)``, here ``1 - e^-1 (1 - 0.126936...)``
(the quadrature of ``(p - e^-1 q)_+`` over ``x < 3/2`` gives the same 0.6788179748866...):

    >>> print(mpmath.nstr(gaussian_delta(sigma=1, eps=0), 18))
    0.382924922548026207
    >>> print(mpmath.nstr(gaussian_delta(sigma=1, eps=-1), 18))
    0.678817974886627916
    """
    return gauss_delta(ctx, sensitivity / sigma, eps)


@result("BW18:Thm8-rho", title="Exact Gaussian curve at zCDP level rho",
        kind="mechanism",
        statement=r"\delta(\varepsilon)=Q\big(\tfrac{\varepsilon}{\mu}-\tfrac{\mu}{2}\big)-"
                  r"e^{\varepsilon}Q\big(\tfrac{\varepsilon}{\mu}+\tfrac{\mu}{2}\big),\ "
                  r"\mu=\sqrt{2\rho}",
        params=[_RHO, _EPS], balls=True)
def gaussian_delta_rho(ctx: Ctx, rho: MPF, eps: MPF) -> MPF:
    """Balle–Wang Thm 8 for the Gaussian whose zCDP level is ``rho`` (``mu = sqrt(2 rho)``).

    Domain: ``rho`` in [1e-16, 1e16), ``-1e12 <= eps <= 1e12`` (eps < 0 as in
    ``BW18:Thm8``).  At ``rho = 1``
    the exact eps at ``delta = 1e-6`` is 7.286080966, so:

    >>> print(mpmath.nstr(gaussian_delta_rho(rho=1, eps="7.286080966"), 8))
    1.0e-6
    """
    return gauss_delta(ctx, ctx.sqrt(2 * rho), eps)


def _solve_eps(ctx: Ctx, mu: MPF, delta: MPF) -> MPF:
    """Point solution of ``gauss_delta(mu, eps) = delta`` (0 if already below at eps = 0),
    the inverses' solver point: untrusted, the certificate (``model``) walks from it.  The
    curve is evaluated in ``ctx``: ``mp``, or Arb's balls (the inverses run with
    ``balls=True``; the balls' midpoints are the numbers, three times faster).  Newton
    (:func:`_newton_guess`); the bracket, in ``mp``, only if Newton gives up.

    The test at 0 is the bracket's own sign test (``ln delta - ln delta(0) < 0``), not
    ``delta(0) <= delta``: a delta within rounding of ``delta(0)`` has equal logarithms, and
    the bracket then found no sign change (a RuntimeError at ``sigma = 1`` and delta the
    60-digit truncation of ``erf(1/(2 sqrt 2))``).  The guess 0 is then certified upward.
    """
    curve = _point_curve(ctx, mu)
    mu, log_target = _mid(mu), mp.log(_mid(delta))

    def gap(c: Ctx, e: MPF) -> MPF:
        return log_target - log(mp, curve(e))

    if not _above_at_zero(mu, log_target) and gap(mp, mp.zero) >= 0:
        return mp.zero
    rho = mu * mu / 2
    top = rho + 2 * mp.sqrt(rho * -log_target) + 1  # BS16 route: an upper bound
    point = _newton_guess(ctx, curve, mu, log_target, top)
    return bracket(mp, gap, mp.zero, top) if point is None else point


def _above_at_zero(mu: MPF, log_target: MPF) -> bool:
    """Floats show ``ln delta(0) = ln erf(mu / (2 sqrt 2))`` above the target by more than
    1e-9, far more than their rounding (so the root is positive and the test at 0 is
    spared).  On the domain (``mu >= 1e-8``) ``ln delta(0) >= -19.1``, so where the
    comparison is close both sides are below 20 and rounded to ``20 * 2^-53``; ``erf`` of
    a positive double is positive, so the logarithm is defined."""
    return math.log(math.erf(float(mu) / math.sqrt(8))) > float(log_target) + 1e-9


def _mid(x: MPF) -> MPF:
    """The ``mp`` number at the middle of a ball (or an ``mp`` number itself)."""
    return endpoints(x).mid


def _point_curve(ctx: Ctx, mu: MPF) -> Callable[[MPF], MPF]:
    """``eps -> delta(eps)`` as an ``mp`` number, evaluated in ``ctx`` (a ball's midpoint)."""
    return lambda e: _mid(gauss_delta(ctx, mu, ctx.mpf(e)))


def _float_log_sf(x: float) -> float:
    """``ln Q(x)`` in floats, for the solver's guess only: ``erfc`` below 30, the
    asymptotic series ``-x^2/2 - ln(x sqrt(2 pi)) + ln(1 - x^-2 + 3 x^-4 - 15 x^-6)`` above
    (Abramowitz & Stegun 1964, 26.2.12; an alternating series, so the error is below the
    next term, ``105 x^-8``: 2e-10 at 30)."""
    if x < 30:
        return math.log(math.erfc(x / math.sqrt(2)) / 2)
    return (-x * x / 2 - math.log(x) - math.log(2 * math.pi) / 2
            + math.log1p(-x**-2 + 3 * x**-4 - 15 * x**-6))


def _newton_guess(ctx: Ctx, curve: Callable[[MPF], MPF], mu: MPF, log_target: MPF,
                  top: MPF) -> MPF | None:
    """The solver's point for :func:`_solve_eps` (untrusted; None if Newton gives up):
    Newton steps on ``ln delta_target - ln delta(eps)``, whose slope is
    ``e^eps Q(eps/mu + mu/2) / delta(eps)`` (``d delta/d eps = -e^eps Q(eps/mu + mu/2)``:
    the two density terms cancel, ``phi(a) = e^eps phi(b)``), first in floats (``ln delta =
    ln Q(a) + ln(1 - e^(eps + ln Q(b) - ln Q(a)))``) where those hold the numbers, then in
    ``mp`` from there (or from ``top``), the curve from ``curve`` and the slope's tail in
    ``ctx``."""
    start = top
    with contextlib.suppress(ArithmeticError, ValueError):  # out of float range
        m, t = float(mu), float(log_target)
        # an upper bound near eps*: delta(eps) < Q(eps/mu - mu/2) = delta_target there
        z = -NormalDist().inv_cdf(math.exp(t))
        start = min(top, mp.mpf(m * (z + m / 2)))

        def logs(e: float) -> tuple[float, float]:
            """``ln delta(e)`` and ``e + ln Q(b)``."""
            la, eb = _float_log_sf(e / m - m / 2), e + _float_log_sf(e / m + m / 2)
            return la + math.log(-math.expm1(eb - la)), eb

        def log_gap(c: Ctx, e: float) -> float:
            return t - logs(e)[0]

        def log_slope(c: Ctx, e: float) -> float:
            ld, eb = logs(e)
            return math.exp(eb - ld)

        point = newton(fp, log_gap, log_slope, 0.0, float(top), float(start))
        start = start if point is None else mp.mpf(point)
    last: dict[str, MPF] = {}

    def mp_gap(c: Ctx, e: MPF) -> MPF:
        last["eps"], last["delta"] = e, curve(e)
        return log_target - log(mp, last["delta"])

    def mp_slope(c: Ctx, e: MPF) -> MPF:
        d = last["delta"] if last.get("eps") == e else curve(e)
        return exp(mp, e) * _mid(normal_sf(ctx, ctx.mpf(e / mu + mu / 2))) / d

    return newton(mp, mp_gap, mp_slope, mp.zero, top, start)


@inverse("BW18:Thm8-eps", title="Exact epsilon of the Gaussian mechanism at delta",
         statement=r"\varepsilon(\delta)=\min\{\varepsilon\ge0:\ \delta_{\mathcal N}(\varepsilon)"
                   r"\le\delta\}",
         params=[positive("sigma", "1", "noise standard deviation"),
                 unit_open("delta", "1e-6", "target delta"),
                 positive("sensitivity", "1", "l2 sensitivity Delta", default="1")],
         forward=gaussian_delta, unknown="eps", target="delta", increasing=False,
         precondition=_mu_in_range, floor=Fraction(0), balls=True)
def gaussian_epsilon(ctx: Ctx, sigma: MPF, delta: MPF, sensitivity: MPF) -> MPF:
    """Smallest eps with the Gaussian mechanism (eps, delta)-DP, with a certificate.

    Inverse of Balle–Wang Thm 8 (``delta(eps)`` is decreasing); the certificate's forward
    enclosure proves ``delta(value) <= delta``.  Domain: ``sigma > 0``,
    ``delta in (0, 1)``, ``sensitivity > 0``, ``sensitivity/sigma`` in [1e-8, 1e8].
    The inverse ranges over ``eps >= 0`` only (0 when ``delta(0) <= delta``), although the
    forward curve is defined at ``eps < 0`` too.

    With mpmath at 50 digits, ``sigma = 1/sqrt(2)`` (rho = 1) at 1e-6 gives 7.286080966; here
    ``sigma = 1`` (rho = 1/2):

    >>> cert = gaussian_epsilon(sigma=1, delta="1e-6")
    >>> cert.holds
    True
    >>> print(mpmath.nstr(cert.value, 12))
    4.88655411746
    """
    return _solve_eps(ctx, sensitivity / sigma, delta)


@inverse("BW18:Thm8-rho-eps", title="Exact epsilon of the Gaussian at zCDP level rho",
         statement=r"\varepsilon(\delta)\text{ of the Gaussian with }\mu=\sqrt{2\rho}",
         params=[_RHO, unit_open("delta", "1e-6", "target delta")],
         forward=gaussian_delta_rho, unknown="eps", target="delta", increasing=False,
         floor=Fraction(0), balls=True)
def gaussian_epsilon_rho(ctx: Ctx, rho: MPF, delta: MPF) -> MPF:
    """Smallest eps with the rho-zCDP Gaussian (eps, delta)-DP: Balle–Wang (2018) Theorem 8
    inverted (the inverse of ``BW18:Thm8-rho``).

    The lower bound for every zCDP -> DP conversion at ``(rho, delta)``.  Domain:
    ``rho > 0``, ``delta in (0, 1)``; the inverse ranges over ``eps >= 0`` only.
    mpmath at 50 digits: 8.703243855 at ``(1.3527, 1e-6)``.

    >>> print(mpmath.nstr(gaussian_epsilon_rho(rho="1.3527", delta="1e-6").value, 10))
    8.703243855
    """
    return _solve_eps(ctx, ctx.sqrt(2 * rho), delta)
