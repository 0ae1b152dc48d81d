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
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.model import inverse, result
from reference.core.numeric import (
    MPF,
    Ctx,
    Interval,
    endpoints,
    exact,
    exp,
    expm1,
    extra_bits,
    get_dps,
    log,
    log1p,
    to_ctx,
    working,
)
from reference.core.params import count, nonneg, unit_closed_open, unit_open
from reference.results.composition.kov15_sums import float_piece, piece_sums

#: Largest k accepted, for time.  On each piece the sum is two polynomials summed outward
#: from the largest weight until the rest is below the working precision (about
#: ``sqrt(k bits)`` terms, not ``k/2``; :mod:`kov15_sums`), certified on Arb's balls, and an
#: inverse's solver and certificate share that one computation.  Measured at 50 digits,
#: 2 cores, eps = 0.01, nothing kept from an earlier call (2026-11-29): the certified
#: forward near delta = 1e-6 takes 1.0 ms at k = 10**5, 2.6 ms at 10**6, 8.4 ms at 10**7,
#: and the certified inverse at delta_g = 1e-6 1.5 ms, 3.5 ms, 10 ms (12 ms at eps = 1e-6,
#: 0.1 s at delta_g = 0.999999, where the answer lies far above the largest term).
MAX_ROUNDS = 10**7
#: Largest size in bits of ``prod (1-delta_i)^powers`` computed exactly to decide a tie.
_EXACT_BITS = 2 * 10**6
#: Smallest ``prod (1-delta_i)^powers`` (as a power of 2) an inverse is certified for.  The
#: solver sees ``delta_g`` rounded, so its point is off by about ``2**-prec / prod``
#: relatively, ``2**(F - prec)`` at ``prod = 2**-F``.  The certificate's steps go from
#: ``2**(8 - prec)`` times the point up to ``2**408`` times it (``Result.certify``), so
#: down to ``2**-300`` they reach with over 100 doublings to spare at every precision.
#: (Under an earlier 400-step walk ``prod = 2**-1074`` at 400 digits never reached the
#: inverse; a lower floor has not been tried since the walk's limit was raised.)
_FLOOR_BITS = 300


def _guard(ctx: Ctx, k: int, eps: MPF) -> contextlib.AbstractContextManager[None]:
    """Extra bits for the long sums and the cancellation in ``D_m`` (at most ``log2(k+1)
    + log2(1 / (1 - e^(-2 eps)))`` bits, :func:`kov15_sums.piece_sums`) of a small eps."""
    size = endpoints(eps).hi
    small = max(0, -int(mp.mag(size))) if size > 0 else 0
    return extra_bits(ctx, 40 + 2 * k.bit_length() + small)


def log_keep(ctx: Ctx, delta: MPF, keep: MPF) -> MPF:
    """``log(1 - delta)`` from ``delta`` and its complement ``keep = 1 - delta``, both lifted
    from exact rationals: ``log1p(-delta)`` while ``delta <= 1/2``, else ``log(keep)``.

    Near 1 the lifted ``delta`` rounds to 1 (``1 - 2**-1074`` at 50 digits), and
    ``log1p(-delta)`` became ``-inf`` in ``mp`` and a ``ValueError`` or ``ComplexResult``
    in ``iv``; the exact complement keeps every digit there.

    >>> from fractions import Fraction
    >>> print(exact_log_keep(mp, Fraction(1) - Fraction(1, 2**1074)) / mp.log(2))
    -1074.0
    """
    if endpoints(delta).hi <= mp.mpf(1) / 2:
        return log1p(ctx, -delta)
    return log(ctx, keep)


def exact_log_keep(ctx: Ctx, delta: Fraction) -> MPF:
    """``log(1 - delta)`` for an exact ``delta < 1`` (see :func:`log_keep`)."""
    return log_keep(ctx, to_ctx(ctx, delta), to_ctx(ctx, 1 - delta))


def with_leak(ctx: Ctx, log_all: MPF, pure: MPF) -> MPF:
    """``1 - K + K pure`` with ``K = e^log_all`` (the leak of every mechanism), computed with
    ``-log2 K`` extra bits (at most ``_FLOOR_BITS + 8``): the value is near 1 when ``K`` is
    small, and an inverse certifies ``delta_g = 1 - c K`` only if the enclosure resolves
    ``K``'s digits (``MV16:Thm1.5`` bracketed ``eps_g`` to 4e-30 at ``K = 2**-101``)."""
    ends = endpoints(log_all)
    bits = -ends.lo / mp.ln2
    with extra_bits(ctx, int(min(max(bits, 0), _FLOOR_BITS + 8))):
        return leak(ctx, log_all, ends) + exp(ctx, log_all) * pure


def leak(ctx: Ctx, log_all: MPF, ends: Interval | None = None) -> MPF:
    """``1 - e^log_all``: ``-expm1`` near 0 (no cancellation); ``1 - exp`` below -1, where
    the subtraction cannot cancel either (both forms are rigorous in ``iv``); ``ends``, if
    given, are ``log_all``'s."""
    if (endpoints(log_all) if ends is None else ends).hi < -1:
        return 1 - exp(ctx, log_all)
    return -expm1(ctx, log_all)


def _prepare(values: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``prepare`` hook, from the exact inputs (lifted with them): the complement ``keep =
    1 - delta``; ``last``, the largest ``j`` with a positive gap ``(k - 2j) eps - eps_g``
    (-1 when there is none), and that gap ``last_gap``, in ``(0, 2 eps]``.

    Only the last term's gap can be small next to ``eps`` (the kink, ``eps_g`` just below a
    lattice point); from lifted inputs it would carry their absolute error, ``2^-prec k eps``,
    and at ``eps_g = k eps - 2^-200`` the enclosure was 30 times wider than the value."""
    eps, k, eps_g = values["eps"], values["k"], values["eps_g"]
    a, b, c, d = eps.numerator, eps.denominator, eps_g.numerator, eps_g.denominator
    # in integers (Fraction arithmetic cost ~10 us a call): eps = a/b, eps_g = c/d
    last = -((c * b - k * a * d) // (2 * a * d)) - 1 if a > 0 else -1      # ceil(...) - 1
    return {"keep": 1 - values["delta"], "last": last,
            "last_gap": Fraction((k - 2 * last) * a * d - c * b, b * d)}


@result("KOV15:Thm3.3-delta", title="Exact delta of optimal k-fold composition",
        kind="composition",
        statement=r"\delta_g=1-(1-\delta)^k+(1-\delta)^k\sum_{j=0}^{k}\binom kj\Big[p^{k-j}"
                  r"(1-p)^j-e^{\varepsilon_g}p^j(1-p)^{k-j}\Big]_+,\ p=\tfrac{e^\varepsilon}"
                  r"{1+e^\varepsilon}",
        params=[nonneg("eps", "0.001", "epsilon of each of the k mechanisms"),
                count("k", "500", "number of mechanisms", hi=MAX_ROUNDS),
                nonneg("eps_g", "0.1", "composed epsilon"),
                unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
        prepare=_prepare, balls=True,
        notes="KOV Thm 3.3 gives the value at the lattice points eps_g=(k-2i)eps; between "
              "them the same hockey-stick sum (LEC11 N22 'exact structure', "
              "RRUV16 Thm 2.10 checked against it) is the exact answer. The sum runs outward "
              "from its largest term with a bound on the rest (about sqrt(k bits) terms); k "
              "is limited to 10**7 for time (0.01 s certified there, on Arb's balls).")
def optimal_delta(ctx: Ctx, eps: MPF, k: int, eps_g: MPF, delta: MPF, keep: MPF, last: int,
                  last_gap: MPF) -> MPF:
    """Smallest ``delta_g`` with k-fold (eps, delta)-DP composition (eps_g, delta_g)-DP.

    Kairouz–Oh–Viswanath (2015) Thm 3.3, cited by RRUV16 Thm 2.7 and RSWR23 Thm 1: the
    hockey-stick divergence at ``eps_g`` of k-fold ``RR_{eps,delta}``,
    ``1-(1-delta)^k + (1-delta)^k sum_j C(k,j) p^(k-j) (1-p)^j [1-e^(eps_g-(k-2j)eps)]_+``.
    Domain: ``eps, eps_g >= 0``, ``1 <= k <= 10**7``, ``delta in [0, 1)``; ``keep`` is
    ``1 - delta`` from the exact input, for ``delta`` near 1, and the sum stops at the
    term ``last``, whose gap ``last_gap`` is exact too (the ``prepare`` hook).

    One round of ``RR_{ln 3}`` has total variation ``3/4 - 1/4 = 1/2`` (by hand):

    >>> import mpmath
    >>> print(optimal_delta(eps=mpmath.log(3), k=1, eps_g=0))
    0.5
    >>> print(mpmath.nstr(optimal_delta(eps="0.001", k=500, eps_g="0.1"), 2))  # LEC11 N7
    1.7e-8
    """
    bits = ctx.prec     # the working precision: where the sums may stop
    with _guard(ctx, k, eps):
        total = ctx.zero
        if last >= 0:       # on the piece of ``last``: D + (1 - e^-g) T, g = last_gap
            below, at_last = piece_sums(ctx, eps, k, last, bits)
            total = below - expm1(ctx, -last_gap) * at_last
        return with_leak(ctx, k * log_keep(ctx, delta, keep), total)




def check_above_floor(target: Fraction, deltas: Sequence[Fraction], powers: int, where: str,
                      formula: str) -> None:
    """``DomainError`` unless ``target > 1 - prod(1 - delta_i)^powers`` (the floor) by a margin
    the working precision resolves: the floor is the composed delta at every ``eps_g``, and
    an inverse certifies its point by an absolute enclosure of the forward value.

    Logarithms of the exact complements ``1 - delta_i`` and ``1 - target`` tell a target
    below the floor from one above it but too close (``delta`` near 1 rounds to 1 when
    lifted: ``log1p(-delta)`` gave ``ValueError``/``ComplexResult``); a tie is decided exactly.
    """
    if not any(deltas):
        return
    # A Fraction past 4300 digits has no repr (int-to-str limit): the message names it.
    shown_target: object = target if target.denominator.bit_length() < 10**4 else (
        f"1 - {mp.nstr(to_ctx(mp, 1 - target), 6)} (a Fraction, "
        f"{target.denominator.bit_length()}-bit denominator)")
    with working(iv, get_dps()):
        log_all = powers * iv.fsum(exact_log_keep(iv, d) for d in deltas if d)
        floor = endpoints(leak(iv, log_all))
        if exact(floor.hi, "floor", where) < target:
            decided = _at_least_least_prod(log_all, deltas, powers)
            if decided:
                return
            if decided is None:
                raise DomainError("delta", ", ".join(f"1 - {mp.nstr(to_ctx(mp, 1 - d), 8)}"
                                                    for d in deltas),
                                  f"gives {formula[2:]} too close to 2**-{_FLOOR_BITS} (the "
                                  "smallest the inverse is certified for) to decide", where)
            raise DomainError("delta_g", shown_target, f"is above {formula}, but {formula[2:]} < "
                              f"2**-{_FLOOR_BITS}: the inverse's search starts from a point "
                              "solved with delta_g rounded to the working precision and "
                              "cannot reach eps_g from there", where)
        log_slack, log_floor = endpoints(log(iv, to_ctx(iv, 1 - target))), endpoints(log_all)
    shown = f"{float(floor.mid):.6g}"
    below = f"must exceed {formula} = {shown}, the composed delta at every eps_g (no eps_g " \
            "achieves less; at equality the answer would be the largest privacy loss, which " \
            "cannot be certified)"
    close = f"exceeds {formula} = {shown} by less than the working precision resolves; raise " \
            "reference.precision"
    if log_slack.hi < log_floor.lo:            # 1 - target < prod: above the floor
        raise DomainError("delta_g", shown_target, close, where)
    if log_slack.lo > log_floor.hi:            # 1 - target > prod: below the floor
        raise DomainError("delta_g", shown_target, below, where)
    keep = _exact_keep(deltas, powers)
    if keep is None:
        raise DomainError("delta_g", shown_target, f"is too close to {formula} = {shown} to decide "
                          "at the working precision; raise reference.precision", where)
    raise DomainError("delta_g", shown_target, below if 1 - target >= keep else close, where)


def _exact_keep(deltas: Sequence[Fraction], powers: int) -> Fraction | None:
    """``prod(1 - delta_i)^powers`` as a Fraction, or None when its size (bits of numerators
    and denominators) would exceed ``_EXACT_BITS``."""
    if powers * sum(d.numerator.bit_length() + d.denominator.bit_length() for d in deltas) \
            > _EXACT_BITS:
        return None
    keep = Fraction(1)
    for d in deltas:
        keep *= 1 - d
    return keep**powers


def _at_least_least_prod(log_all: MPF, deltas: Sequence[Fraction], powers: int) -> bool | None:
    """``prod(1 - delta_i)^powers >= 2**-_FLOOR_BITS``, from the enclosure of its log, or
    exactly when that straddles the limit (a product of exactly ``2**-300`` is accepted);
    None when the exact product would exceed ``_EXACT_BITS``."""
    ends, limit = endpoints(log_all), endpoints(-_FLOOR_BITS * log(iv, 2))
    if ends.lo >= limit.hi or ends.hi < limit.lo:
        return bool(ends.lo >= limit.hi)
    keep = _exact_keep(deltas, powers)
    return None if keep is None else bool(keep * 2**_FLOOR_BITS >= 1)


def _floor_check(values: Mapping[str, Any], where: str) -> None:
    """``delta_g`` must exceed ``1-(1-delta)^k``, the delta of composition at any eps_g."""
    check_above_floor(values["delta_g"], [values["delta"]], values["k"], where, "1-(1-delta)^k")


@inverse("KOV15:Thm3.3", title="Optimal composed epsilon for a target delta",
         statement=r"\varepsilon_g^\star=\min\{\varepsilon_g\ge0:\ \delta_{\rm opt}"
                   r"(\varepsilon_g)\le\delta_g\}",
         params=[nonneg("eps", "0.001", "epsilon of each of the k mechanisms"),
                 count("k", "500", "number of mechanisms", hi=MAX_ROUNDS),
                 unit_open("delta_g", "1e-6", "target composed delta"),
                 unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
         forward=optimal_delta, unknown="eps_g", target="delta_g", increasing=False,
         precondition=_floor_check, balls=True,
         notes="Requires delta_g > 1-(1-delta)^k: at equality the infimum k*eps is exact "
               "but not certifiable in interval arithmetic.")
def optimal_epsilon(ctx: Ctx, eps: MPF, k: int, delta_g: MPF, delta: MPF) -> MPF:
    """Smallest ``eps_g`` at which k-fold (eps, delta)-DP composition is (eps_g, delta_g)-DP.

    Kairouz–Oh–Viswanath (2015) Thm 3.3 inverted in ``eps_g``.  On each piece
    ``(k-2m-2)eps <= eps_g <= (k-2m)eps`` the forward sum is ``D_m + (1 - e^-g) T_m``,
    ``g = (k-2m) eps - eps_g`` (:mod:`kov15_sums`), so the root is ``log((D_m + T_m - t) /
    T_m) + (k-2m) eps`` on the piece with ``D_m < t <= D_(m+1)``, which floats find (a
    walk over the pieces) and the two sums check (a step to a neighbour where they
    disagree); the certificate then reuses the sums of that piece.  Domain: ``eps >= 0``,
    ``1 <= k <= 10**7``, ``delta in [0, 1)``, ``1-(1-delta)^k < delta_g < 1``.

    >>> import mpmath
    >>> cert = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6")
    >>> print(mpmath.nstr(cert.value, 3))  # LEC11 N7
    0.0798
    >>> cert.holds
    True
    """
    bits = ctx.prec     # the working precision: where the sums may stop
    with _guard(ctx, k, eps):
        if not eps > 0:
            return ctx.zero
        log_all = k * log1p(ctx, -delta)
        target = (delta_g + expm1(ctx, log_all)) / exp(ctx, log_all)  # the RR^k part
        last, goal = (k + 1) // 2 - 1, endpoints(target).mid
        m, seen = float_piece(k, eps, target), set()
        while True:     # the piece with D_m < target <= D_(m+1), decided on midpoints
            below, at_m = piece_sums(ctx, eps, k, m, bits)
            left = below - expm1(ctx, -min(2, k - 2 * m) * eps) * at_m     # D_(m+1)
            seen.add(m)
            step = -1 if m > 0 and endpoints(below).mid >= goal else \
                1 if m < last and endpoints(left).mid < goal else 0
            if step == 0 or m + step in seen or len(seen) > 8:   # the certificate decides
                break
            m += step
        if endpoints(left).mid < goal:  # delta(0) is below the target
            return ctx.zero
        return log(ctx, (below + at_m - target) / at_m) + (k - 2 * m) * eps
