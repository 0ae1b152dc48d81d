"""Exact optimal composition of k (eps, delta)-DP mechanisms, and errata of LEC11.

Kairouz–Oh–Viswanath (2015) Thm 3.3, cited by RRUV16 Thm 2.7 and RSWR23 Thm 1.  By the
simulation theorem (RRUV16 Thm 2.7) every (eps, delta)-DP mechanism is a post-processing
of ``RR_{eps,delta}`` (RRUV16 Def 2.6), so k-fold adaptive composition is exactly as
private as the pair ``RR^k(0), RR^k(1)``: its smallest ``delta_g`` at ``eps_g`` is that
pair's hockey-stick divergence.  The errata of the lecture notes are checked
against it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.model import inverse, result
from reference.core.numeric import (
    MPF,
    Ctx,
    endpoints,
    exact,
    expm1,
    extra_bits,
    get_dps,
    log1p,
    pos_part,
    to_ctx,
    working,
)
from reference.core.params import count, nonneg, unit_closed_open, unit_open

#: Largest k accepted, for time: the sum has up to k/2 terms.  At 50 digits k = 10**5
#: takes about 1.5 s in ``mp`` and 5 s in ``iv``, its certified inverse 10-15 s
#: (k = 500: 10 ms, 20 ms and 40 ms; k = 10**4: 0.2 s, 0.5 s and 0.9 s).
MAX_ROUNDS = 10**5
#: Terms with ``e^(-gap) > 1 - 2**-_KINK_BITS`` use expm1; the others lose at most
#: ``_KINK_BITS`` bits in ``1 - e^(-gap)``, paid for by as many guard bits.
_KINK_BITS = 16


def _guard(ctx: Ctx, k: int, eps: MPF) -> contextlib.AbstractContextManager[None]:
    """Extra bits for the length-k recurrences and the cancellations of a small eps."""
    size = endpoints(eps).hi
    small = max(0, -int(mp.mag(size))) if size > 0 else 0
    return extra_bits(ctx, 24 + _KINK_BITS + 2 * k.bit_length() + small)


def _surely_nonpositive(x: MPF) -> bool:
    return bool(endpoints(x).hi <= 0)


@result("KOV15:Thm3.3-delta", title="Exact delta of optimal k-fold composition",
        kind="composition",
        statement=r"\delta_g=1-(1-\delta)^k+(1-\delta)^k\sum_{j=0}^{k}\binom kj\Big[p^{k-j}"
                  r"(1-p)^j-e^{\varepsilon_g}p^j(1-p)^{k-j}\Big]_+,\ p=\tfrac{e^\varepsilon}"
                  r"{1+e^\varepsilon}",
        params=[nonneg("eps", "0.001", "epsilon of each of the k mechanisms"),
                count("k", "500", "number of mechanisms", hi=MAX_ROUNDS),
                nonneg("eps_g", "0.1", "composed epsilon"),
                unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
        notes="KOV Thm 3.3 gives the value at the lattice points eps_g=(k-2i)eps; between "
              "them the same hockey-stick sum (LEC11 N22 'exact structure', "
              "RRUV16 Thm 2.10 checked against it) is the exact answer. k is limited to 10**5 "
              "for time (about k/2 terms).")
def optimal_delta(ctx: Ctx, eps: MPF, k: int, eps_g: MPF, delta: MPF) -> MPF:
    """Smallest ``delta_g`` with k-fold (eps, delta)-DP composition (eps_g, delta_g)-DP.

    Kairouz–Oh–Viswanath (2015) Thm 3.3, cited by RRUV16 Thm 2.7 and RSWR23 Thm 1: the
    hockey-stick divergence at ``eps_g`` of k-fold ``RR_{eps,delta}``,
    ``1-(1-delta)^k + (1-delta)^k sum_j C(k,j) p^(k-j) (1-p)^j [1-e^(eps_g-(k-2j)eps)]_+``.
    Domain: ``eps, eps_g >= 0``, ``1 <= k <= 10**5``, ``delta in [0, 1)``.

    One round of ``RR_{ln 3}`` has total variation ``3/4 - 1/4 = 1/2`` (by hand):

    >>> import mpmath
    >>> print(optimal_delta(eps=mpmath.log(3), k=1, eps_g=0))
    0.5
    >>> print(mpmath.nstr(optimal_delta(eps="0.001", k=500, eps_g="0.1"), 2))  # LEC11 N7
    1.7e-8
    """
    with _guard(ctx, k, eps):
        ratio = ctx.exp(-eps)              # (1-p)/p
        grow = ctx.exp(2 * eps)
        weight = ctx.exp(-k * log1p(ctx, ratio))  # C(k,0) p^k
        shortfall = ctx.exp(-pos_part(ctx, k * eps - eps_g))  # e^(eps_g-(k-2j)eps), j = 0
        near = 1 - ctx.mpf(2) ** -_KINK_BITS
        total = ctx.zero
        for j in range(k + 1):
            gap = (k - 2 * j) * eps - eps_g
            if _surely_nonpositive(gap):   # this term and all later ones are zero
                break
            if endpoints(shortfall).hi < endpoints(near).lo:
                total += weight * (1 - shortfall)
            else:                          # at the kink: 1 - e^(-gap) without cancellation
                total += weight * -expm1(ctx, -pos_part(ctx, gap))
            weight = weight * ((k - j) * ratio) / (j + 1)
            shortfall = shortfall * grow
        log_keep = k * log1p(ctx, -delta)   # log (1-delta)^k
        return -expm1(ctx, log_keep) + ctx.exp(log_keep) * total


def _floor_check(values: Mapping[str, Any], where: str) -> None:
    """``delta_g`` must exceed ``1-(1-delta)^k``, the delta of composition at any eps_g."""
    k, delta, target = values["k"], values["delta"], values["delta_g"]
    if delta == 0:
        return
    with working(iv, get_dps()):
        floor = endpoints(-expm1(iv, k * log1p(iv, -to_ctx(iv, delta))))
    if exact(floor.hi, "floor", where) < target:
        return
    shown = f"{float(floor.mid):.6g}"
    if exact(floor.lo, "floor", where) > target or target <= 1 - (1 - delta) ** k:
        raise DomainError("delta_g", values["delta_g"],
                          f"must exceed 1-(1-delta)^k = {shown}, the delta of the composition "
                          "at every eps_g (no eps_g achieves less; at equality the answer "
                          "would be k*eps, which cannot be certified)", where)
    raise DomainError("delta_g", values["delta_g"],
                      f"exceeds 1-(1-delta)^k = {shown} by less than the working precision "
                      "resolves; raise reference.precision", where)


@inverse("KOV15:Thm3.3", title="Optimal composed epsilon for a target delta",
         statement=r"\varepsilon_g^\star=\min\{\varepsilon_g\ge0:\ \delta_{\rm opt}"
                   r"(\varepsilon_g)\le\delta_g\}",
         params=[nonneg("eps", "0.001", "epsilon of each of the k mechanisms"),
                 count("k", "500", "number of mechanisms", hi=MAX_ROUNDS),
                 unit_open("delta_g", "1e-6", "target composed delta"),
                 unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
         forward=optimal_delta, unknown="eps_g", target="delta_g", increasing=False,
         precondition=_floor_check,
         notes="Requires delta_g > 1-(1-delta)^k: at equality the infimum k*eps is exact "
               "but not certifiable in interval arithmetic.")
def optimal_epsilon(ctx: Ctx, eps: MPF, k: int, delta_g: MPF, delta: MPF) -> MPF:
    """Smallest ``eps_g`` at which k-fold (eps, delta)-DP composition is (eps_g, delta_g)-DP.

    Kairouz–Oh–Viswanath (2015) Thm 3.3 inverted in ``eps_g``.  On each piece
    ``(k-2m-2)eps <= eps_g <= (k-2m)eps`` the forward sum is ``A_m - e^eps_g B_m`` with
    ``A_m, B_m`` partial binomial sums, so the root is ``log((A_m - t)/B_m)`` on the first
    piece whose left end reaches the target ``t``.  Domain: ``eps >= 0``,
    ``1 <= k <= 10**5``, ``delta in [0, 1)``, ``1-(1-delta)^k < delta_g < 1``.

    >>> import mpmath
    >>> cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6")
    >>> print(mpmath.nstr(cert.value, 3))  # LEC11 N7
    0.0798
    >>> cert.holds
    True
    """
    with _guard(ctx, k, eps):
        log_keep = k * log1p(ctx, -delta)
        target = (delta_g + expm1(ctx, log_keep)) / ctx.exp(log_keep)  # the RR^k part
        if not eps > 0:
            return ctx.zero
        ratio, inverse_ratio = ctx.exp(-eps), ctx.exp(eps)
        shrink = ctx.exp(-2 * eps)
        weight = ctx.exp(-k * log1p(ctx, ratio))          # C(k,m) p^(k-m) (1-p)^m
        mirror = ctx.exp(-k * log1p(ctx, inverse_ratio))  # C(k,m) p^m (1-p)^(k-m)
        scale = ctx.exp((k - 2) * eps)                   # e^(left end of piece m)
        heads, tails = ctx.zero, ctx.zero                # A_m, B_m
        for m in range((k + 1) // 2):
            heads += weight
            tails += mirror
            at_left = heads - (scale * tails if k - 2 * m - 2 > 0 else tails)
            if at_left >= target:
                return ctx.log((heads - target) / tails)
            weight = weight * ((k - m) * ratio) / (m + 1)
            mirror = mirror * ((k - m) * inverse_ratio) / (m + 1)
            scale = scale * shrink
        return ctx.zero
