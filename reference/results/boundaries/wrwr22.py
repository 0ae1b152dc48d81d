"""Time-uniform privacy boundaries for Brownian noise reduction (WRWR22 §3, RSWR23 §6.1).

Source: WRWR22 Theorem 3.6 (mixture and linear boundaries) and Corollary 3.7
(ex-post privacy at a stopping function, and the time ``Gamma`` that meets a target);
RSWR23 §6.1, the Gaussian-mixture boundary ``psi(t; gamma, delta)``.  Time ``t`` is the noise
*variance*: more time, less privacy loss.

Both papers use the same inner formula, the level at which the normal-mixture
martingale ``sqrt(prec/(v+prec)) exp(S^2/(2(v+prec)))`` reaches ``1/delta``:
:func:`mixture_level`.  WRWR22 applies it to ``W_t`` in variance time, RSWR23 to
``W_t/t`` in precision time ``v = 1/t``; hence ``psi^C_gamma(t) = psi^M_{gamma t^2}(t)``,
checked in ``proofs_tests/boundaries/test_wrwr22.py``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
from mpmath import fp, iv, mp

from reference.core.errata import Check, Kind, erratum
from reference.core.errors import DomainError
from reference.core.model import inverse, result
from reference.core.numeric import (
    MPF,
    Ctx,
    ball,
    endpoints,
    get_dps,
    is_interval,
    log,
    log1p,
    to_ctx,
)
from reference.core.params import positive, unit_open
from reference.core.roots import bracket, newton


class ExPost(NamedTuple):
    """An ex-post privacy guarantee: the loss exceeds ``eps`` with probability <= ``delta``."""

    eps: MPF
    delta: MPF


class OptimalRho(NamedTuple):
    """The mixture parameter minimising ``psi^M_rho(t)`` and the minimal boundary value."""

    rho: MPF
    boundary: MPF


@dataclass(frozen=True)
class ExactDelta:
    """The exact delta, handed to the formulas by ``prepare`` (a Fraction would be lifted to
    the context first): ``ln(1/delta)`` is then formed from ``1 - delta`` exactly."""

    value: Fraction


def _exact_delta(values: Mapping[str, Any], where: str) -> dict[str, Any]:
    return {"delta": ExactDelta(values["delta"])}


def log_inv(ctx: Ctx, delta: MPF | ExactDelta) -> MPF:
    """``ln(1/delta)``; from an exact delta as ``-log1p(-(1 - delta))`` near 1, so that
    ``delta = 1 - 1e-300`` keeps ``ln(1/delta) = 1e-300`` (lifted first, delta is an
    enclosure of 1 and its log reaches below 0: the square root of :func:`mixture_level`
    then failed)."""
    if not isinstance(delta, ExactDelta):
        return log(ctx, 1 / delta)
    if delta.value < Fraction(1, 2):
        return -log(ctx, to_ctx(ctx, delta.value))
    return -log1p(ctx, -to_ctx(ctx, 1 - delta.value))


def delta_value(ctx: Ctx, delta: MPF | ExactDelta) -> MPF:
    """delta as a number of ``ctx`` (for outputs that report it)."""
    return to_ctx(ctx, delta.value) if isinstance(delta, ExactDelta) else delta


def mixture_level(ctx: Ctx, v: MPF, prec: MPF, delta: MPF | ExactDelta) -> MPF:
    """``sqrt((v + prec) log((v + prec) / (prec delta^2)))``: where the normal mixture
    (mixing precision ``prec``) of ``exp(l S - l^2 v / 2)`` reaches ``1/delta``."""
    return ctx.sqrt((v + prec) * (log1p(ctx, v / prec) + 2 * log_inv(ctx, delta)))


_T = positive("t", "1", "Brownian time T_N (variance of the noise at the stopped release)")
_RHO = positive("rho", "1", "precision of the Gaussian mixing law (not a zCDP level)")
_DELTA = unit_open("delta", "0.05", "crossing probability")
_SENS = positive("sensitivity", "1", "l2 sensitivity Delta_2 of f", default="1")


@result("WRWR22:Thm3.6-mixture", title="Mixture privacy boundary", kind="bound",
        statement=r"\psi^M_\rho(t)=\frac{\Delta_2^2}{2t}+\frac{\Delta_2}{t}\sqrt{2(t+\rho)"
                  r"\log\Big(\frac1\delta\sqrt{\frac{t+\rho}{\rho}}\Big)}",
        params=[_T, _RHO, _DELTA, _SENS], probabilistic=True, prepare=_exact_delta,
        notes="Proof (missing App. B) reconstructed: Ville's inequality for the "
              "normal-mixture martingale; two-sided, exactly delta, so the one-sided "
              "privacy event has probability about delta/2.", balls=True)
def mixture_boundary(ctx: Ctx, t: MPF, rho: MPF, delta: MPF | ExactDelta,
                     sensitivity: MPF) -> MPF:
    """The mixture boundary ``psi^M_rho(t)``: the Brownian mechanism's loss exceeds it at
    some release, whatever the time functions, with probability at most ``delta``.

    WRWR22 Theorem 3.6 (1).  Domain: ``t, rho > 0``, ``delta in (0, 1)``,
    ``sensitivity > 0``.  Computed with mpmath at 50 digits: 8.02650892465936.

    >>> print(mpmath.nstr(mixture_boundary(t=1, rho=1, delta="1e-6"), 15))
    8.02650892465936
    """
    return sensitivity**2 / (2 * t) + sensitivity / t * mixture_level(ctx, t, rho, delta)


@result("WRWR22:Thm3.6-linear", title="Linear privacy boundary", kind="bound",
        statement=r"\psi^L_{a,b}(t)=\frac{\Delta_2}{t}\Big(\frac{\Delta_2}{2}+b\Big)+\Delta_2 a,"
                  r"\quad 2ab=\log(1/\delta)",
        params=[_T, positive("a", "0.5", "slope of the line b + a t that W must cross"),
                positive("b", "1", "intercept; delta = exp(-2ab)"), _SENS],
        probabilistic=True,
        notes="Parametrised by (a, b): the boundary's delta is exp(-2ab), so 2ab = log(1/delta) "
              "holds by construction (a rational a, b can never meet a given rational delta "
              "exactly). The crossing probability is exactly delta (Bachelier–Lévy).")
def linear_boundary(ctx: Ctx, t: MPF, a: MPF, b: MPF, sensitivity: MPF) -> MPF:
    """The linear boundary ``psi^L_{a,b}(t)``, a ``delta = exp(-2ab)`` privacy boundary.

    WRWR22 Theorem 3.6 (2): the loss exceeds it at some release with probability at most
    ``exp(-2ab)``.  Its floor ``Delta a`` is never crossed downward: it cannot certify a
    loss below ``Delta a``.  Domain: ``t, a, b > 0``, ``sensitivity > 0``.  By hand:
    ``t=1, a=1/2, delta=1e-6`` (``b = log(1e6)``) gives 14.8155105579643:

    >>> import math
    >>> print(mpmath.nstr(linear_boundary(t=1, a="0.5", b=math.log(1e6)), 14))
    14.815510557964
    """
    return sensitivity / t * (sensitivity / 2 + b) + sensitivity * a


@result("RSWR23:psi", title="Gaussian-mixture boundary psi(t; gamma, delta)", kind="bound",
        statement=r"\psi(t;\gamma,\delta)=\sqrt{(t+\gamma)\log\frac{t+\gamma}{\delta^2\gamma}}",
        params=[positive("t", "1", "precision time: V = sum of 1/tau_s"),
                positive("gamma", "1", "precision of the Gaussian mixing law"), _DELTA],
        probabilistic=True, prepare=_exact_delta,
        notes="Here t is the *precision* clock V (RSWR23 §6.1), not WRWR22's variance time. "
              "P[exists m: |S_m| >= psi(V_m)] <= delta for S_m = sum B_s/tau_s.", balls=True)
def companion_psi(ctx: Ctx, t: MPF, gamma: MPF, delta: MPF | ExactDelta) -> MPF:
    """``psi(t; gamma, delta)``: ``|sum_s B_s/tau_s|`` stays below it at every round,
    with the precision clock ``t = sum_s 1/tau_s``, except with probability ``delta``.

    RSWR23 §6.1 (Howard et al. 2021, Prop. 5).  Domain: ``t, gamma > 0``,
    ``delta in (0, 1)``.  Equals WRWR22's inner level ``g_rho`` with ``rho = gamma``:
    at ``t = gamma = 1``, ``delta = 1e-6``, ``psi^M = 1/2 + psi = 8.0265089246594``.

    >>> print(mpmath.nstr(companion_psi(t=1, gamma=1, delta="1e-6") + 0.5, 14))
    8.0265089246594
    """
    return mixture_level(ctx, t, gamma, delta)


@result("WRWR22:Cor3.7", title="Ex-post privacy of the Brownian mechanism at a stopping "
        "function", kind="guarantee",
        statement=r"\sup_{x\sim x'}\mathbb P\big(\mathcal L_{N(x)}\ge\psi(T_{N(x)})\big)\le\delta",
        params=[_T, _RHO, _DELTA, _SENS], probabilistic=True, prepare=_exact_delta,
        notes="Instantiated with the mixture boundary; t is the stopped time T_N(x).", balls=True)
def expost_at_stop(ctx: Ctx, t: MPF, rho: MPF, delta: ExactDelta, sensitivity: MPF) -> ExPost:
    """The ex-post guarantee ``(psi^M_rho(T_N), delta)`` of ``BM_{1:N}`` stopped at ``T_N = t``.

    WRWR22 Corollary 3.7 (part 1) with the mixture boundary: a time-uniform boundary holds
    at every random index, so at the stopping function's.  Domain: as Theorem 3.6.

    >>> g = expost_at_stop(t=10, rho=1, delta="0.05", sensitivity=2)
    >>> print(mpmath.nstr(g.eps, 14), g.delta)
    2.1212803857737 0.05
    """
    return ExPost(mixture_boundary.core(ctx, t, rho, delta, sensitivity), delta_value(ctx, delta))


def _solve_decreasing(f: Any, target: MPF, guess: MPF | None = None) -> MPF:
    """The root ``t`` of a continuous strictly decreasing ``f`` on ``(0, inf)`` with
    ``f(0+) = inf``, ``f(inf) = 0`` (mp): a bracket from ``guess (1 +- 2^(7 - prec))`` (or
    1) widened in steps of 16, then :func:`reference.core.roots.bracket` (regula falsi:
    none when the guess's bracket holds, else 15 to 25 evaluations)."""
    f = functools.cache(f)        # (bracket re-reads the ends)
    lo = hi = mp.mpf(1)
    if guess is not None:
        lo, hi = (guess * (1 + k * mp.ldexp(1, 7 - mp.prec)) for k in (-1, 1))
    while f(lo) <= target:
        lo /= 16
    while f(hi) > target:
        hi *= 16
    if f(hi) == target:
        return hi
    return bracket(mp, lambda _, t: target - f(t), lo, hi)


def _mixture_guess(eps: MPF, rho: MPF, delta: MPF, sensitivity: MPF) -> MPF | None:
    """A near root of ``psi^M_rho(t) = eps`` (untrusted: only where the search starts): a
    bracket in steps of 16 and Newton in floats (the boundary in ``fp``), then Newton in mp
    with the float slope (about 16 digits a step); None where floats fail."""
    floats = [float(x) for x in (eps, rho, delta, sensitivity)]

    def gap(c: Ctx, t: Any) -> Any:         # eps - psi(t): increasing
        e, r, d, s = (eps, rho, delta, sensitivity) if c is mp else floats
        return e - mixture_boundary.core(c, t, r, d, s)

    def slope(_: Ctx, t: Any) -> Any:       # -psi'(t), psi = s^2/(2t) + s q(t)/t
        x, (_e, r, d, s) = float(t), floats
        q = mixture_level(fp, x, r, d)      # q^2 = (x + r)(log1p(x/r) + 2 ln(1/delta))
        return (s * s / 2 + s * q) / x**2 - s * (q * q / (x + r) + 1) / (2 * x * q)
    try:
        lo = hi = 1.0
        while gap(fp, lo) > 0 and lo > 1e-290:
            lo /= 16
        while gap(fp, hi) < 0 and hi < 1e290:
            hi *= 16
        point = newton(fp, gap, slope, lo, hi, math.sqrt(lo * hi))
    except (ArithmeticError, ValueError):
        return None
    x = mp.mpf(point) if point is not None and 0 < point < math.inf else None
    return None if x is None else newton(mp, gap, slope, x / 2, 2 * x, x)


@inverse("WRWR22:Cor3.7-Gamma", title="Time at which the mixture boundary meets a target",
         statement=r"\Gamma(E)=\inf\{t>0:\psi^M_\rho(t)\le E\}",
         params=[positive("eps", "1", "target privacy level E_n"), _RHO, _DELTA, _SENS],
         forward=mixture_boundary, unknown="t", target="eps", increasing=False,
         status="corrected",
         notes="Printed as inf{t >= 0: psi(t) >= E}, which is 0 for every decreasing boundary "
               "(erratum WRWR22:Cor3.7-Gamma); implemented as the root of psi(t) = E.")
def mixture_time(ctx: Ctx, eps: MPF, rho: MPF, delta: MPF, sensitivity: MPF) -> MPF:
    """The time ``Gamma(E)`` with ``psi^M_rho(Gamma) = E``, returned with a certificate
    that ``psi^M_rho`` at the returned time is at most ``E``.

    WRWR22 Corollary 3.7 (part 2), read as follows: running the mechanism at
    ``T_n = Gamma(E_n)`` makes it ``(E_N, delta)``-ex-post private.  Domain: ``E > 0``
    and the mixture boundary's.  Computed with mpmath at 50 digits at ``E = 2``: 8.81973548643302.

    Proof note.  The corollary prints ``Gamma(E) = inf{t >= 0: psi(t) >= E}``. The mixture
    boundary decreases in ``t`` (from ``+inf`` as ``t -> 0`` to 0 as ``t -> inf``; checked
    by the property tests), so that set always contains times near 0 and the printed
    infimum is 0 for every ``E`` (erratum WRWR22:Cor3.7-Gamma). The time the corollary
    needs is the first from which the boundary stays at or below ``E``: ``inf{t > 0: psi(t)
    <= E}``, the root of ``psi(t) = E`` by continuity and monotonicity. Releasing at ``T_n
    = Gamma(E_n)`` then puts the loss of the stopped release below ``psi(T_N) <= E_N`` on
    the event of Theorem 3.6, whose probability is at least ``1 - delta``: ``(E_N,
    delta)``-ex-post privacy. The returned time carries an interval certificate of
    ``psi(Gamma) <= E``.

    >>> cert = mixture_time(eps=2, rho=1, delta="1e-6")
    >>> print(mpmath.nstr(cert.value, 15), cert.holds)
    8.81973548643302 True
    """
    return _solve_decreasing(lambda t: mixture_boundary.core(mp, t, rho, delta, sensitivity), eps,
                             _mixture_guess(eps, rho, delta, sensitivity))


def _above_floor(values: Mapping[str, Any], where: str) -> None:
    if values["eps"] <= values["sensitivity"] * values["a"]:
        raise DomainError("eps", values["eps"], "must exceed the linear boundary's "
                          "floor sensitivity * a (the target is never met)", where)


@inverse("WRWR22:Cor3.7-Gamma-linear", title="Time at which the linear boundary meets a target",
         statement=r"\Gamma(E)=\frac{\Delta_2(\Delta_2/2+b)}{E-\Delta_2a}\quad(E>\Delta_2a)",
         params=[positive("eps", "2", "target privacy level E_n"),
                 positive("a", "0.5", "slope"), positive("b", "1", "intercept"), _SENS],
         forward=linear_boundary, unknown="t", target="eps", increasing=False,
         status="corrected", precondition=_above_floor,
         notes="Same reading of Gamma as WRWR22:Cor3.7-Gamma; closed form.")
def linear_time(ctx: Ctx, eps: MPF, a: MPF, b: MPF, sensitivity: MPF) -> MPF:
    """The time ``Gamma(E) = Delta(Delta/2 + b)/(E - Delta a)`` at which ``psi^L = E``.

    WRWR22 Corollary 3.7 with the linear boundary; the target must exceed the floor
    ``Delta a``.  Domain: ``E > Delta a``, ``a, b, sensitivity > 0``.

    Proof note.  Same reading of ``Gamma`` as ``WRWR22:Cor3.7-Gamma``. The linear boundary
    is ``psi^L(t) = Delta a + Delta (Delta/2 + b)/t``, decreasing to its floor ``Delta a``;
    ``psi^L(t) = E`` has the single root ``t = Delta (Delta/2 + b)/(E - Delta a)`` when ``E
    > Delta a`` and none otherwise.

    >>> print(linear_time(eps=2, a="0.5", b=1).value)
    1.0
    """
    return sensitivity * (sensitivity / 2 + b) / (eps - sensitivity * a)


def _excess(ctx: Ctx, r: MPF) -> MPF:
    """``r - log(1 + r)`` at a point ``r > 0`` (an enclosure in ``iv``).  Below ``2^-8`` the
    alternating series ``r^2/2 - r^3/3 + ...`` with its remainder (at most the next term):
    the difference cancels ``log2(1/r)`` bits, all of them once ``r^2`` is below the
    precision relative to ``r`` (``r* ~ sqrt(2c)`` for ``delta -> 1``)."""
    if r >= mp.mpf(2) ** -8:
        x = ctx.mpf(r)
        return x - log1p(ctx, x)
    return excess_series(ctx, r, (ctx.prec + 10) // -int(mp.mag(r)) + 3)


def excess_series(ctx: Ctx, r: MPF, n_terms: int) -> MPF:
    """``sum_{k=2}^{n_terms} (-1)^k r^k/k``, and in ``iv`` plus ``[-t, t]`` with ``t`` the
    first omitted term ``r^(n_terms+1)/(n_terms+1)``: for ``0 < r < 1`` the terms of the
    alternating series of ``r - log(1 + r)`` decrease, so the rest lies within ``t``."""
    x = ctx.mpf(r)
    total, power = ctx.zero, x
    for k in range(2, n_terms + 1):
        power = power * x
        total += (-1) ** k * power / k
    size = endpoints(power * x / (n_terms + 1)).hi
    return total + ball(ctx, size) if is_interval(ctx) else total


def _rstar_point(c: MPF) -> MPF:
    """The root of ``r - log(1 + r) = c`` (``c > 0``): Newton from the right (the left
    side is convex and increasing, so the iterates decrease monotonically to the root).
    Start ``sqrt(6c)`` for small c: there ``r - log(1+r) >= r^2/2 - r^3/3 >= r^2/6 = c``."""
    r = mp.mpf(1) if c >= mp.mpf(1) / 6 else mp.sqrt(6 * c)
    while _excess(mp, r) < c:
        r *= 2
    for _ in range(10_000):
        step = (_excess(mp, r) - c) * (1 + r) / r
        if step <= r * mp.mpf(2) ** (-mp.prec):
            break
        r -= step
    return r


def ratio_star(ctx: Ctx, delta: MPF | ExactDelta) -> MPF:
    """``r*`` with ``r* - log(1 + r*) = 2 log(1/delta)``; an enclosure in ``iv``.

    The interval version brackets the root for every ``c`` in the enclosure of
    ``2 log(1/delta)`` and proves the bracket by the monotonicity of ``r - log(1+r)``.
    """
    c = 2 * log_inv(ctx, delta)
    if not is_interval(ctx):
        with mp.workdps(get_dps() + 20):
            return ctx.mpf(_rstar_point(c))
    ends = endpoints(c)
    with mp.workdps(iv.dps + 20):
        lo, hi = _rstar_point(ends.lo), _rstar_point(ends.hi)
    widen = mp.mpf(2) ** (-iv.prec + 4)
    for _ in range(200):
        lo, hi = lo * (1 - widen), hi * (1 + widen)
        left = endpoints(_excess(iv, lo)).hi
        right = endpoints(_excess(iv, hi)).lo
        if left < ends.lo and right > ends.hi:
            return iv.mpf((lo, hi))
        widen *= 4
    raise RuntimeError("could not certify r*")  # pragma: no cover


@result("WRWR22:Thm3.6-mixture-optimal-rho", title="Mixture parameter minimising the boundary "
        "at a given time", kind="bound",
        statement=r"\rho^*(t)=t/r^*,\quad r^*-\log(1+r^*)=2\log(1/\delta)",
        params=[_T, _DELTA, _SENS], status="reconstructed", prepare=_exact_delta,
        notes="Derived here (see the proof note): rho -> psi^M_rho(t) is unimodal.")
def optimal_rho(ctx: Ctx, t: MPF, delta: ExactDelta, sensitivity: MPF) -> OptimalRho:
    """The ``rho`` minimising ``psi^M_rho(t)`` at time ``t`` and the minimal value.

    Tuning WRWR22 Theorem 3.6's mixture for a target time: with
    ``rho = t/r``, ``g^2 = t (1 + 1/r)(log(1 + r) + 2 log(1/delta))``, minimised where
    ``r - log(1 + r) = 2 log(1/delta)``.  Domain: as Theorem 3.6.  At ``t = 1``,
    ``delta = 1e-6`` the argmin is 0.0321545 (``r* = 31.100``; a direct numeric
    minimisation of ``psi^M_rho(1)`` agrees).

    Proof note.  Write ``psi^M_rho(t) = Delta^2/(2t) + Delta g/t`` with ``g^2 = 2 (t + rho)
    log(sqrt((t + rho)/rho)/delta) = (t + rho)(2 log(1/delta) + log(1 + t/rho))``. With
    ``rho = t/r``, ``g^2 = t h(r)``, ``h(r) = (1 + 1/r)(c + log(1 + r))``, ``c = 2
    log(1/delta)``. Then ``h'(r) = (r - c - log(1 + r))/r^2``; ``r - log(1 + r)`` increases
    from 0, so ``h'`` changes sign once, at the root of ``r - log(1 + r) = c``: ``h`` is
    unimodal with its minimum there, and so is ``rho -> psi^M_rho(t)``.

    >>> print(mpmath.nstr(optimal_rho(t=1, delta="1e-6").rho, 6))
    0.0321545
    """
    rho = t / ratio_star(ctx, delta)
    return OptimalRho(rho, mixture_boundary.core(ctx, t, rho, delta, sensitivity))


@erratum("WRWR22:Cor3.7-Gamma", location="WRWR22 Corollary 3.7, definition of Gamma_n",
         printed="Gamma_n := inf{t >= 0 : psi(t) >= E_n}",
         corrected="Gamma_n := inf{t > 0 : psi(t) <= E_n}, the root of psi(t) = E_n",
         kind=Kind.TYPO, result="WRWR22:Cor3.7-Gamma",
         consequence="taken literally Gamma_n = 0 (psi^M(1e-30) = 5.8e30 >= E_n = 5); the "
                     "intended root of psi^M = 5 is 1.936233362")
def _gamma_reading() -> Check:
    """Every boundary of Theorem 3.6 tends to infinity as t -> 0, so the printed set
    contains arbitrarily small times and its infimum is 0 (no noise)."""
    tiny = mpmath.mpf(10) ** -30
    value = mixture_boundary(t=tiny, rho=1, delta="1e-6")
    root = mixture_time(eps=5, rho=1, delta="1e-6").value
    return Check(value >= 5 and root > 1,
                 f"psi^M(1e-30) = {mpmath.nstr(value, 5)} >= E = 5, so the printed infimum is "
                 f"0; the root of psi^M = 5 is t = {mpmath.nstr(root, 12)} (by hand: "
                 "1.93623336200345)")
