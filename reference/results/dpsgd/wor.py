"""DP-SGD with batches sampled without replacement, replace-one neighbours: the optimal epsilon
(and delta) bracketed between a pair of datasets and a dominating pair.

**The mechanism.** A dataset of ``n`` records; each of ``T`` steps draws a batch of ``m``
records uniformly without replacement (``q = m/n``) and releases the sum of the records' clipped
gradients (each of norm at most ``C``, chosen adaptively from the past releases) plus ``N(0,
sigma^2 C^2 I)``. Neighbouring datasets differ in one record (replaced: ``n`` fixed), so one
gradient moves by up to ``2C``. In units of ``C`` write ``N(mu) = N(mu, sigma^2)``, ``P = (1-q)
N(0) + q N(2)``, ``Q = N(0)``.

**Upper end (a dominating pair).** Dong, Roth, Su (2022, "Gaussian differential privacy",
JRSS-B, arXiv:1905.02383, Thm 4.2): subsampling without replacement turns an ``f``-DP mechanism
(replace-one) into a ``C_q(f) = min(f_q, f_q^-1)**``-DP one, ``f_q = q f + (1 - q) Id``; for the
Gaussian step ``f = T(N(2), N(0))``. In hockey-stick terms (proved here for our case): for every
neighbouring ordered pair and ``alpha >= 1``, ``H_alpha(M(D) || M(D')) <= H_alpha(P || Q)`` —
condition on the batch without the differing record and a uniform record outside it (a uniform
``(m-1)``-set ``S`` of the others; with probability ``q`` the batch is ``S`` and the record,
else ``S`` and a uniform ``j`` outside ``S`` and the record): both outputs are the same mixture
over ``(S, j)`` of ``(1-q) N(c + a) + q N(c + b)`` against ``(1-q) N(c + a) + q N(c + b')`` with
``|a|, |b|, |b'| <= 1`` (``c`` the sum over ``S``). By joint convexity and the advanced joint
convexity of Balle, Barthe, Gaboardi (2018, arXiv:1807.01647, Thm 2), with ``alpha = 1 + q
(alpha' - 1)`` and ``beta = alpha / alpha'``, each is at most ``q ((1 - beta) H_alpha'(N(b) ||
N(a)) + beta H_alpha'(N(b) || N(b'))) <= q H_alpha'(N(2) || N(0)) = H_alpha(P || Q)`` (shifts of
at most 2; the last equality because ``P - alpha Q = q (N(2) - alpha' N(0))``). For ``alpha <
1`` the identity ``H_alpha(A || B) = 1 - alpha + alpha H_(1/alpha)(B || A)`` applied to the
reversed pair gives ``H_alpha(Q || P)``. The pair ``(P~, Q~)`` whose privacy loss under ``P~``
has law ``omega`` = (the law of ``L = ln dP/dQ`` under ``P`` on ``L > 0``) + (the law of ``-L``
under ``Q`` on ``L > 0``) + an atom at 0 with the rest of the mass, ``(1 - q) (2 Phi(1/sigma) -
1)``, has exactly these hockey-stick values: for ``alpha >= 1`` only ``omega`` on ``(ln alpha,
inf)`` counts, which is ``L``'s law there; for ``alpha < 1``, with ``u = ln(1/alpha)``,
``E_omega (1 - alpha e^-X)_+ = P(L > 0) - alpha Q(L > 0) + (1 - alpha) (1 - P(L > 0) - Q(L > 0))
+ Q(0 < L < u) - alpha P(0 < L < u) = 1 - alpha + E_P (alpha - e^-L)_+ = H_alpha(Q || P)``; and
``omega`` is symmetric (``P~`` and ``Q~`` are mirror images). Dominating pairs compose (Zhu,
Dong, Wang 2022, arXiv:2106.08567), so ``delta(eps) <= H_(e^eps)(P~^T || Q~^T) = E (1 - e^(eps -
S))_+``, ``S`` a sum of ``T`` independent draws of ``omega``.

**Lower end (a pair of datasets).** ``D = (x, x', ..., x')`` and ``D'`` with ``x`` replaced by
``x'``, ``g(x) = C e = -g(x')``: ``M(D') = N(-m C e)`` exactly and ``M(D) = (1-q) N(-m C e) + q
N(-m C e + 2 C e)``: ``(P, Q)`` in every step, so ``delta(eps) >= max(H(P^T || Q^T), H(Q^T ||
P^T))`` (the ordered pair either way round). That is the add/remove Poisson pair of
:mod:`reference.results.dpsgd.pld` at noise multiplier ``sigma/2``.

The two ends differ (``q = 1/100, sigma = 2, 10^3`` steps, ``delta = 1e-5``: about 1.82 and
2.20): where the exact optimal epsilon lies between them is not settled by any result we know
(adaptive gradients can switch between the orientations; Lebeda, Regehr, Kamath, Steinke 2024,
arXiv:2405.20769, on why self-composing one step's worst pair can be wrong). Both ends are
certified brackets' outer ends, computed by the grid of :mod:`reference.results.dpsgd.pld_grid`
(the symmetric law there). The pair ``(1-q) N(0) + q N(1)`` against ``(1-q) N(0) + q N(-1)``
(the other gradients 0: the pair dp-accounting composes for replace-one neighbours) is another
pair of datasets, so its composition lies below the upper end too; at the setting above a float
estimate of it is 1.21, below the lower end: self-composing it does not bound this mechanism.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import mpmath  # noqa: F401  (the doctests use it)

from reference.core.caches import kept
from reference.core.model import result
from reference.core.numeric import MPF, Ctx
from reference.core.params import Param, count, nonneg, positive, unit_open
from reference.results.dpsgd.pld import (
    MAX_STEPS,
    MIN_SIGMA,
    Triple,
    _answer,
    bracket,
    grid_limits,
)
from reference.results.dpsgd.pld_compose import sized

_Q = Param("q", "real", lo=Fraction(0), hi=Fraction(1), example="0.01",
           doc="batch size / dataset size (m/n)")
_SIGMA = positive("sigma", "2", "noise multiplier (noise std / clipping norm C; replacing a "
                  "record moves the sum by up to 2C)")
_STEPS = count("steps", "1000", "number of steps (compositions)", hi=MAX_STEPS)
MAX_SIGMA = Fraction(200)


@lru_cache(maxsize=16)
def wor_bracket(kind: str, q: Fraction, sigma: Fraction, steps: int, x: Fraction) -> Triple:
    """``(lo, estimate, hi)``: ``lo`` the lower end of the datasets' pair (Poisson pair at
    ``sigma/2``), ``hi`` the upper end of the symmetric law, the estimate the symmetric law's
    (what an accountant should report), clamped into ``[lo, hi]``."""
    half = sigma / 2
    lower = bracket(kind, q, half, steps, x)
    upper = bracket(kind, q, half, steps, x, symmetric=True)
    lo, hi = lower[0], upper[2]
    return lo, min(max(upper[1], lo), hi), hi


kept(wor_bracket.cache_clear)

_limits = grid_limits(2 * MIN_SIGMA, MAX_SIGMA, "the grid of the Poisson pair at sigma/2 is "
                      "sized for these")


@result("DPSGD:eps-wor", title="DP-SGD epsilon, sampling without replacement, replace-one "
        "(bracketed)", kind="composition",
        statement=r"\varepsilon_\delta(P^T,Q^T)\le\varepsilon^*\le\varepsilon_\delta(\tilde P^T,"
                  r"\tilde Q^T),\ P=(1-q)\mathcal N(0,\sigma^2)+q\mathcal N(2,\sigma^2),\ "
                  r"Q=\mathcal N(0,\sigma^2),\ T(\tilde P,\tilde Q)=C_q(T(\mathcal N(2,"
                  r"\sigma^2),Q))",
        params=[_Q, _SIGMA, _STEPS, unit_open("delta", "1e-5", "target delta")],
        precondition=_limits, exact_inputs=True)
def dpsgd_eps_wor(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int,
                  delta: Fraction) -> MPF:
    """The optimal epsilon of ``steps`` steps of DP-SGD with batches of ``m = q n`` records
    drawn without replacement, replace-one neighbours, noise multiplier ``sigma``.

    Enclosed between the certified lower end for a pair of datasets and the certified upper
    end for the dominating pair of Dong, Roth, Su (see the module docstring: the gap between
    the two is in the theory, not in the numerics).  The plain value is the upper pair's
    estimate.  Domain: ``0 <= q <= 1``, ``1 <= sigma <= 200``, ``1 <= steps <= 10^5``,
    ``10^-12 <= delta < 1``; a composed law of more than ``2^20`` coefficients is refused
    (:func:`reference.results.dpsgd.pld_compose.sized`).

    With ``q = 1/100``, ``sigma = 2``, 100 steps and ``delta = 1e-5`` the optimal epsilon is
    between about 0.714 and 0.772 (Poisson sampling with add/remove neighbours: about 0.19; at
    ``10^3`` steps 1.82 to 2.20 against 0.62):

    >>> box = dpsgd_eps_wor.certified(q="0.01", sigma=2, steps=100, delta="1e-5")
    >>> print(mpmath.nstr(box.lo, 3), mpmath.nstr(box.hi, 3))
    0.714 0.772
    """
    if q == 0:
        return ctx.zero
    return _answer(ctx, sized("DPSGD:eps-wor", q, sigma, steps,
                             lambda: wor_bracket("eps", q, sigma, steps, delta)))


@result("DPSGD:delta-wor", title="DP-SGD delta, sampling without replacement, replace-one "
        "(bracketed)", kind="composition",
        statement=r"\max(H_{e^\varepsilon}(P^T\|Q^T),H_{e^\varepsilon}(Q^T\|P^T))\le\delta^*\le "
                  r"H_{e^\varepsilon}(\tilde P^T\|\tilde Q^T)",
        params=[_Q, _SIGMA, _STEPS, nonneg("eps", "2", "target epsilon")],
        precondition=_limits, exact_inputs=True)
def dpsgd_delta_wor(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int, eps: Fraction) -> MPF:
    """The optimal delta at ``eps`` of ``steps`` steps of DP-SGD with batches drawn without
    replacement, replace-one neighbours: the converse of :func:`dpsgd_eps_wor`, enclosed the
    same way.  Domain: ``0 <= q <= 1``, ``1 <= sigma <= 200``, ``1 <= steps <= 10^5``, ``eps
    >= 0``; a composed law of more than ``2^20`` coefficients is refused, as for
    :func:`dpsgd_eps_wor` (at ``q = 1``, ``sigma = 1``, ``eps = 25.6``: 3000 steps run,
    3500 are refused).

    At ``eps = 0.75``, inside the epsilon bracket of :func:`dpsgd_eps_wor`'s example at
    ``delta = 1e-5``, the delta bracket holds ``1e-5``:

    >>> box = dpsgd_delta_wor.certified(q="0.01", sigma=2, steps=100, eps="0.75")
    >>> print(mpmath.nstr(box.lo, 2), mpmath.nstr(box.hi, 2))
    6.8e-6 1.3e-5
    """
    if q == 0:
        return ctx.zero
    return _answer(ctx, sized("DPSGD:delta-wor", q, sigma, steps,
                             lambda: wor_bracket("delta", q, sigma, steps, eps)))
