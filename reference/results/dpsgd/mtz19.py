"""Rényi DP of the Poisson-subsampled Gaussian mechanism: Mironov, Talwar, Zhang (2019),
*Rényi differential privacy of the sampled Gaussian mechanism*, arXiv:1908.10530.

The sampled Gaussian mechanism (each record enters the sum with probability ``q``, then
``N(0, sigma^2)`` noise is added to a sum of sensitivity 1) under add/remove-one neighbours
is dominated by the pair ``mu0 = N(0, sigma^2)``, ``mu = (1-q) N(0, sigma^2) + q N(1, sigma^2)``;
its RDP of order ``alpha > 1`` is ``ln(A_alpha) / (alpha - 1)`` with
``A_alpha = E_{z ~ mu0}[(mu(z)/mu0(z))^alpha]`` (MTZ19 Section 3; they also show that the
other direction, ``D_alpha(mu0 || mu)``, is never larger, which the property tests check by
quadrature).

* Integer ``alpha`` (MTZ19 Sec. 3.3): ``A = sum_{i=0}^{alpha} C(alpha,i) (1-q)^(alpha-i) q^i
  e^((i^2-i)/(2 sigma^2))``, a finite sum.  Here it is evaluated as ``1 + sum_{i>=2} ...
  expm1((i^2-i)/(2 sigma^2))`` (the weights sum to 1 and the terms ``i < 2`` have a zero
  exponent), so ``ln A`` loses nothing when ``A`` is close to 1.
* Fractional ``alpha`` (MTZ19 Sec. 3.3): with ``z0 = sigma^2 ln(1/q - 1) + 1/2`` (where
  ``mu/mu0`` crosses ``2(1-q)``) the expectation splits at ``z0`` and each part is a binomial
  series: ``A = sum_i (t_i + t'_i)``,
  ``t_i = C(alpha,i) (1-q)^(alpha-i) q^i e^((i^2-i)/(2 sigma^2)) Phi((z0-i)/sigma)``,
  ``t'_i = C(alpha,i) (1-q)^i q^(alpha-i) e^((j^2-j)/(2 sigma^2)) Phi((j-z0)/sigma)``,
  ``j = alpha - i``.  The published computation (and dp-accounting's) stops when a term is
  small; its terms decay only like ``i^(-alpha-2)``, so no such stop is certified.

Certified tail (our addition; proof in :func:`_tail`): from ``m = ceil(alpha)`` on the terms
alternate in sign and ``a_k = |t_(m+k)| + |t'_(m+k)|`` is a Hausdorff moment sequence, so the
acceleration of Cohen, Rodriguez Villegas and Zagier (2000, *Convergence acceleration of
alternating series*, Exp. Math. 9, Algorithm 1 and Proposition 1) sums the tail with error at
most ``a_0 / d_n``, ``d_n = ((3+sqrt 8)^n + (3-sqrt 8)^n)/2``: geometric convergence, about
0.39 terms per bit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath

from reference.core.caches import kept
from reference.core.errors import DomainError
from reference.core.fastballs import at_bits, rough_ends
from reference.core.model import result
from reference.core.numeric import (
    MPF,
    Ctx,
    ball,
    binary_order,
    endpoints,
    exp,
    expm1,
    extra_bits,
    is_interval,
    log,
    log1p,
    to_ctx,
)
from reference.core.params import Param, positive
from reference.core.special import normal_sf

#: Largest order accepted: the integer sum has ``alpha + 1`` terms (a few products each).
MAX_ORDER = 10_000
#: Largest fractional order: the series has ``ceil(alpha)`` terms before its tail, each with
#: two rigorous normal tails (about 1 s certified at 256).
MAX_FRACTIONAL_ORDER = 256


#: Largest sigma at a fractional order: the series sums to ``1 + A - 1`` with ``A - 1``
#: about ``alpha (alpha - 1) q^2 / (2 sigma^2)``, so each factor 2 of sigma costs two more
#: bits and about one more term of the tail (a second at 1e6, minutes at 1e300).
MAX_FRACTIONAL_SIGMA = 10**6


def _fractional_cap(values: Mapping[str, Any], where: str) -> None:
    alpha = values["alpha"]
    if alpha.denominator == 1:
        return
    if alpha > MAX_FRACTIONAL_ORDER:
        raise DomainError("alpha", str(alpha), f"must be an integer when above "
                          f"{MAX_FRACTIONAL_ORDER} (a fractional order costs two normal "
                          f"tails per unit)", where)
    if values["sigma"] > MAX_FRACTIONAL_SIGMA:
        raise DomainError("sigma", str(values["sigma"]), f"must be at most "
                          f"{MAX_FRACTIONAL_SIGMA} at a fractional order (alpha = {alpha}): "
                          f"the series cancels to about q^2/sigma^2", where)

_STATEMENT = (r"\varepsilon(\alpha)=\frac{1}{\alpha-1}\ln\mathbb{E}_{z\sim\mathcal N(0,\sigma^2)}"
              r"\Big[\Big(1-q+q\,e^{(2z-1)/(2\sigma^2)}\Big)^{\alpha}\Big]")


@lru_cache(maxsize=64)
def cvz_weights(n: int) -> tuple[int, tuple[Fraction, ...]]:
    """``(d_n, w)`` of Cohen–Rodriguez Villegas–Zagier Algorithm 1 for ``n`` terms, exactly.

    ``sum_k w_k a_k`` approximates ``sum_k (-1)^k a_k`` (``w_k = c_k / d_n`` carries the
    sign); ``d_n = ((3+sqrt 8)^n + (3-sqrt 8)^n)/2`` is an integer (``u_(n+1) = 6 u_n -
    u_(n-1)``, ``u_0 = 2``, ``u_1 = 6``), and so is each ``c_k``.  With two terms,
    ``ln 2 = 1 - 1/2 + 1/3 - ...`` is ``16/17 - 8/17 * 1/2 = 12/17`` within ``1/17``:

    >>> cvz_weights(2)
    (17, (Fraction(16, 17), Fraction(-8, 17)))
    """
    u0, u1 = 2, 6
    for _ in range(n):
        u0, u1 = u1, 6 * u1 - u0
    d = u0 // 2
    b, c = Fraction(-1), Fraction(-d)
    weights = []
    for k in range(n):
        c = b - c
        weights.append(c / d)
        b = b * (k + n) * (k - n) / (Fraction(2 * k + 1, 2) * (k + 1))
    return d, tuple(weights)


def _integer_excess(ctx: Ctx, q: Fraction, s2: Fraction, n: int) -> MPF:
    """``A_n - 1 = sum_{i=2}^{n} C(n,i) (1-q)^(n-i) q^i (E_i - 1)``, ``E_i = g^(i(i-1)/2)``,
    ``g = e^(1/sigma^2)``: every term positive, so no cancellation.

    By recurrences (a few products per term instead of a power and an ``expm1``): the weight
    ``C(n,i) (1-q)^(n-i) q^i`` gains the exact factor ``(n-i+1)/i * q/(1-q)``; ``D_k = g^k - 1
    = g D_(k-1) + (g - 1)`` and ``X_i = E_i - 1 = X_(i-1) (D_(i-1) + 1) + D_(i-1)`` add only
    positive numbers, from ``g - 1 = expm1(1/sigma^2)``.
    """
    g1 = expm1(ctx, to_ctx(ctx, 1 / s2))
    g = g1 + 1
    weight = to_ctx(ctx, 1 - q) ** n           # i = 0
    ratio = q / (1 - q)
    d_prev, x = ctx.zero, ctx.zero             # D_0, X_1
    total = ctx.zero
    for i in range(1, n + 1):
        weight = weight * to_ctx(ctx, Fraction(n - i + 1, i) * ratio)
        if i >= 2:
            d_prev = d_prev * g + g1           # D_(i-1)
            x = x * (d_prev + 1) + d_prev      # X_i
            total += weight * x
    return total


def _z0(ctx: Ctx, q: Fraction, sigma: Fraction) -> MPF:
    """``sigma^2 ln(1/q - 1) + 1/2``, where the two series split."""
    return to_ctx(ctx, sigma * sigma) * log(ctx, to_ctx(ctx, (1 - q) / q)) + ctx.mpf(0.5)


#: A left tail's precision is the term's rounded up to a multiple of this: terms of nearby
#: precisions (and the orders a search visits) share the tail and its ``z0``.
TAIL_BITS_STEP = 32


@lru_cache(maxsize=256)
def _z0_at(ctx: Ctx, prec: int, q: Fraction, sigma: Fraction) -> MPF:
    """:func:`_z0` at ``prec`` bits (cached: every left tail at that precision uses it)."""
    with at_bits(ctx, prec):
        return _z0(ctx, q, sigma)


@lru_cache(maxsize=4096)
def _left_tail(ctx: Ctx, prec: int, q: Fraction, sigma: Fraction, i: int) -> MPF:
    """``Phi((z0 - i)/sigma)``, which does not depend on alpha: cached, since the orders an
    optimisation over alpha visits share it (``ctx`` and ``prec`` name the context)."""
    with at_bits(ctx, prec):
        return normal_sf(ctx, (i - _z0_at(ctx, prec, q, sigma)) / to_ctx(ctx, sigma))


for _table in (cvz_weights, _z0_at, _left_tail):
    kept(_table.cache_clear)


def _terms(ctx: Ctx, q: Fraction, sigma: Fraction, alpha: Fraction, start: int, count: int,
           binom: MPF) -> tuple[list[MPF], MPF]:
    """``|t_i + t'_i|`` for ``i = start .. start+count-1`` (see the module docstring), and
    ``C(alpha, start+count)``; ``binom`` is ``C(alpha, start)``.  ``t_i`` and ``t'_i`` have
    the sign of ``C(alpha, i)``, so the sum of their sizes is the size of their sum."""
    s2 = sigma * sigma
    ls = to_ctx(ctx, sigma)
    # ln(1-q) from the exact 1 - q near 1 (q lifted first rounds 1 - 1e-300 to 1), by log1p
    # near 0 (where 1 - q lifted would round to 1)
    log_q = log(ctx, to_ctx(ctx, q))
    log_1q = log1p(ctx, -to_ctx(ctx, q)) if q < Fraction(1, 2) else log(ctx, to_ctx(ctx, 1 - q))
    z0 = _z0(ctx, q, sigma)
    half = to_ctx(ctx, 1 / (2 * s2))        # the exponents' 1/(2 sigma^2), rounded once
    out = []
    for i in range(start, start + count):
        j = alpha - i
        lj = to_ctx(ctx, j)
        left = lj * log_1q + i * log_q + (i * i - i) * half
        right = i * log_1q + lj * log_q + lj * (lj - 1) * half
        with extra_bits(ctx, -_spare_bits(ctx.prec, count, binom, left, right, z0, i, j, sigma)):
            size = abs(binom) * (exp(ctx, left)
                                 * _left_tail(ctx, _tail_bits(ctx.prec), q, sigma, i)
                                 + exp(ctx, right) * normal_sf(ctx, (z0 - lj) / ls))
        out.append(size)
        binom = binom * lj / (i + 1)
    return out, binom


def _tail_bits(prec: int) -> int:
    return -(-prec // TAIL_BITS_STEP) * TAIL_BITS_STEP


#: Fewest bits a term of the series is evaluated with.
MIN_TERM_BITS = 64


def _spare_bits(prec: int, count: int, binom: MPF, left: MPF, right: MPF, z0: MPF, i: int,
                j: Fraction, sigma: Fraction) -> int:
    """Bits a term of the series can drop from ``prec`` and still be known to ``2^-prec`` over
    ``count`` terms.

    The series sums to ``A >= 1`` (Jensen: the ``alpha``-th moment of a likelihood ratio), so
    every term is needed only to ``2^-prec`` absolute, shared among ``count`` terms: a term of
    size ``2^-s`` needs about ``prec - s`` bits.  Its size is at most ``|binom| (e^left Q(x) +
    e^right Q(y))``, ``x = (i - z0)/sigma``, ``y = (z0 - j)/sigma``, with ``Q(x) <= e^(-x^2/2)``
    for ``x >= 0`` and ``Q <= 1``; its rounding at ``p`` bits costs ``2^-p`` times the
    condition numbers of ``exp`` (``|left|``, ``|right|``) and of ``Q`` (``x^2 + 1``) and a few
    ulps of the products.  Size and condition numbers are estimated at 53 bits with 16 bits of
    margin: the estimate only saves work, every evaluation stays rigorous (``iv``, balls; a wrong
    estimate widens an enclosure, it never moves it off the exact value), and at most ``prec -
    MIN_TERM_BITS`` bits are dropped.  At ``q = 2^-1022``, ``alpha = 1 + 10^-300`` the series
    has 100 terms, two normal tails each, at 3300 bits (five minutes certified in ``iv``, 0.01 s
    on balls); all but the first two terms are below ``2^-4000``.
    """
    # in floats (a fifth of the time; a ball's ends read off its midpoint and radius) unless
    # a number leaves their range, else in mpmath from the exact ends
    rough = [e for v in (binom, left, right, z0) for e in _float_ends(v)]
    est, top = (math.nan, math.nan), max(abs(rough[0]), abs(rough[1]))
    if float(sigma) > 0 and all(map(math.isfinite, rough)):   # sigma = 1e-400: 0 as a float
        est = _size_and_condition(rough[2:], float(sigma), i, float(j))
    if all(map(math.isfinite, est)) and 0 < top < math.inf:
        size = math.frexp(top)[1]
    else:
        b, lt, rt, zc = (endpoints(v) for v in (binom, left, right, z0))
        ends = (lt.lo, lt.hi, rt.lo, rt.hi, zc.lo, zc.hi)
        with mpmath.workprec(53):
            est = _size_and_condition(ends, mpmath.mpf(sigma.numerator) / sigma.denominator,
                                      i, mpmath.mpf(j.numerator) / j.denominator)
        size = mpmath.mag(max(abs(b.lo), abs(b.hi)))
    up, mag = _ceil_and_mag(est[0] * _LOG2_E, est[1])
    spare = -(size + up + 1) - mag - count.bit_length() - 16
    return max(0, min(spare, prec - MIN_TERM_BITS))


_LOG2_E = 1.4426950408889634


def _ceil_and_mag(x: Any, y: Any) -> tuple[int, int]:
    """``ceil(x)`` and ``mag(y)`` (``2^(mag-1) <= |y| < 2^mag``, ``y != 0``) of two floats by
    ``math`` (mpmath's ``ceil`` and ``mag`` convert a float first: 3 us a term), of mpmath
    numbers by mpmath."""
    if isinstance(x, float) and isinstance(y, float):
        return math.ceil(x), math.frexp(y)[1]
    return int(mpmath.ceil(x)), int(mpmath.mag(y))


def _float_ends(x: MPF) -> tuple[float, float]:
    """The ends of a number as floats, for :func:`_spare_bits`' estimates only (a ball's
    midpoint -+ radius in floats, :func:`reference.core.fastballs.rough_ends`; else its exact
    ends rounded); out of the floats' range they are 0 or infinite."""
    rough = rough_ends(x)
    if rough is None:
        e = endpoints(x)
        return float(e.lo), float(e.hi)
    return rough


def _size_and_condition(ends: Sequence[Any], s: Any, i: int, j: Any) -> tuple[Any, Any]:
    """For :func:`_spare_bits`, in floats or in mpmath numbers: the log of the bound on a
    term's size over ``|binom|``, and ``1 +`` the sum of the condition numbers."""
    lt_lo, lt_hi, rt_lo, rt_hi, z_lo, z_hi = ends
    x_lo, x_hi = (i - z_hi) / s, (i - z_lo) / s      # ends of the first tail's argument
    y_lo, y_hi = (z_lo - j) / s, (z_hi - j) / s      # and of the second's
    x_pos, y_pos = max(x_lo, 0), max(y_lo, 0)        # (products: a float ** overflows)
    log_size = max(lt_hi - x_pos * x_pos / 2, rt_hi - y_pos * y_pos / 2)
    cond = (1 + max(abs(lt_lo), abs(lt_hi), abs(rt_lo), abs(rt_hi))
            + max(x_lo * x_lo, x_hi * x_hi) + max(y_lo * y_lo, y_hi * y_hi))
    return log_size, cond


def _tail(ctx: Ctx, sizes: list[MPF], weights: tuple[Fraction, ...], d: int) -> MPF:
    """``sum_{k>=0} (-1)^k a_k`` from ``a_0 .. a_(n-1)``: CVZ Algorithm 1, plus ``[-a_0/d_n,
    a_0/d_n]`` in an enclosing context (``iv``, balls).

    Why the error bound applies (CVZ Proposition 1 needs ``a_k = int_0^1 x^k dnu`` with
    ``nu >= 0``; then ``|S - S_n| <= S / d_n <= a_0 / d_n``): for ``i > alpha`` the factor
    ``alpha - i`` of ``C(alpha, i+1) = C(alpha, i) (alpha-i)/(i+1)`` is negative, and
    ``C(alpha, m) > 0`` for ``m = ceil(alpha)``, so the signs alternate from ``m`` on.  Sizes:
    ``|C(alpha, i)| = (|sin pi alpha| / pi) int_0^1 y^(i-alpha-1) (1-y)^alpha dy`` (reflection
    formula and the Beta integral), a moment sequence in ``k = i - m`` with the positive weight
    ``y^(m-alpha-1)(1-y)^alpha``.  With ``x = q e^((2z-1)/(2 sigma^2))`` and ``r = x/(1-q) =
    e^((z-z0)/sigma^2)``: ``t_i = C(alpha,i) (1-q)^alpha E[r^i; z <= z0]`` and ``t'_i =
    C(alpha,i) (1-q)^alpha E[r^alpha (1/r)^i; z >= z0]``, moments of ``r`` on ``(0, 1]`` and of
    ``1/r`` on ``(0, 1]``.  Products and sums of moment sequences are moment sequences (the
    product is the moment of the image of the product measure under ``(y, y') -> y y'``).
    """
    total = ctx.zero
    for w, a in zip(weights, sizes, strict=True):
        total += to_ctx(ctx, w) * a
    if is_interval(ctx):
        total += ball(ctx, endpoints(sizes[0] / d).hi)
    return total


def _fractional_log_a(ctx: Ctx, q: Fraction, sigma: Fraction, alpha: Fraction) -> MPF:
    m = math.ceil(alpha)
    head, binom = _terms(ctx, q, sigma, alpha, 0, m, ctx.one)
    first, _ = _terms(ctx, q, sigma, alpha, m, 1, binom)
    # The tail is >= 0 (a moment sequence alternated) and A >= max(1, head): an error
    # a_0 / d_n below 2^-prec of that needs log2(a_0 / max(1, head)) + prec bits of d_n,
    # d_n > (3 + sqrt 8)^n / 2 (about 2.54 bits per term).
    total = ctx.zero
    for t in head:
        total += t
    size = endpoints(first[0]).hi
    need = ctx.prec + 4 + (int(mpmath.mag(size)) if size else -ctx.prec) - max(
        0, int(mpmath.mag(endpoints(total).lo)))
    n = max(1, -(-need * 1000 // 2543))
    d, weights = cvz_weights(n)
    sizes, _ = _terms(ctx, q, sigma, alpha, m, n, binom)
    return log(ctx, total + _tail(ctx, sizes, weights, d))


def _guard(q: Fraction, sigma: Fraction, alpha: Fraction) -> int:
    """Guard bits for ``ln A`` when ``A - 1`` is small: ``A - 1`` is about
    ``alpha (alpha-1) q^2 / (2 sigma^2)`` for small ``q`` and large ``sigma``."""
    return (20 + max(0, -binary_order(alpha - 1)) + 2 * max(0, -binary_order(q))
            + 2 * max(0, binary_order(sigma)) + math.ceil(alpha).bit_length())


def log_moment(ctx: Ctx, q: Fraction, sigma: Fraction, alpha: Fraction) -> MPF:
    """``ln A_alpha`` (exact inputs in the domain of :func:`sgm_rdp`): ``(alpha - 1)`` times
    the RDP of order ``alpha``, convex in ``alpha`` (a cumulant generating function of the
    privacy loss), computed with the guard bits ``A`` close to 1 needs."""
    if q == 0:
        return ctx.zero
    if q == 1:
        return to_ctx(ctx, alpha * (alpha - 1) / (2 * sigma * sigma))
    with extra_bits(ctx, _guard(q, sigma, alpha)):
        if alpha.denominator == 1:
            out = log1p(ctx, _integer_excess(ctx, q, sigma * sigma, int(alpha)))
        else:
            out = _fractional_log_a(ctx, q, sigma, alpha)
    return out


@result("MTZ19:rdp", title="Rényi DP of the Poisson-subsampled Gaussian mechanism",
        kind="mechanism", statement=_STATEMENT,
        params=[Param("q", "real", lo=Fraction(0), hi=Fraction(1), example="0.01",
                      doc="sampling probability"),
                positive("sigma", "1", "noise multiplier (noise std / l2 sensitivity)"),
                Param("alpha", "real", lo=Fraction(1), lo_open=True, hi=Fraction(MAX_ORDER),
                      example="2.5", doc="Rényi order", exact_ends=True)],
        precondition=_fractional_cap, exact_inputs=True, balls=True)
def sgm_rdp(ctx: Ctx, q: Fraction, sigma: Fraction, alpha: Fraction) -> MPF:
    """RDP of order ``alpha`` of the sampled Gaussian mechanism (add/remove neighbours).

    Mironov, Talwar, Zhang (2019) Section 3: ``ln(A_alpha)/(alpha-1)``, ``A_alpha`` the
    ``alpha``-th moment of the likelihood ratio of ``(1-q) N(0, sigma^2) + q N(1, sigma^2)`` to
    ``N(0, sigma^2)``; a finite sum at integer orders, two binomial series at fractional ones
    (the tail certified by CVZ acceleration: see the module docstring).  ``q = 0`` gives 0,
    ``q = 1`` the Gaussian mechanism's ``alpha / (2 sigma^2)``.  Domain: ``q in [0, 1]``,
    ``sigma > 0``, ``1 < alpha <= 10000``; fractional orders up to 256 with
    ``sigma <= 10^6``.

    By hand at ``alpha = 2``: ``A_2 = 1 + q^2 (e^(1/sigma^2) - 1)``, so at ``q = 1/2``,
    ``sigma = 1`` the RDP is ``ln(1 + (e - 1)/4)`` = 0.357374019508788537...:

    >>> print(mpmath.nstr(sgm_rdp(q="0.5", sigma=1, alpha=2), 18))
    0.357374019508788537
    """
    with extra_bits(ctx, 10):
        return log_moment(ctx, q, sigma, alpha) / to_ctx(ctx, alpha - 1)
