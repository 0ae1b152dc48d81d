"""Our side of each comparison: certified enclosures of registered results, by id.

Every reference is ``get(id).certified(**params)`` evaluated on *exactly* the numbers
the library received (a float is the binary number it holds), so a disagreement is the
library's.  Results that are not registered yet give ``None`` and the case reports
``no-reference``; where a weaker registered result exists it is used instead and named.
Enclosures are cached per (id, inputs): several libraries share one grid.
"""

from __future__ import annotations

import functools
import time
from fractions import Fraction
from typing import Any

from mpmath import iv

from reference.core.numeric import Interval, endpoints, exact, to_ctx, working
from reference.results import get
from reference.tools.conformance.model import FilterReference, Reference

#: Candidate results for the best proven-valid zCDP -> DP conversion, best first.
ZCDP_VALID = ("CKS20:Cor13", "RSWR23:Lem2.3")
#: The exact (eps, delta) curve of the Gaussian mechanism, parameterised by rho: a floor
#: for every zCDP -> DP conversion (the Gaussian is rho-zCDP).
GAUSS_RHO = "BW18:Thm8-rho-eps"
GAUSS_SIGMA = "BW18:Thm8-eps"
OPTIMAL = "KOV15:Thm3.3"
OPTIMAL_DELTA = "KOV15:Thm3.3-delta"
HETEROGENEOUS = "MV16:Thm1.5"
BASIC = "RRUV16:Thm2.9"
MIXTURE = "WRWR22:Thm3.6-mixture"
ZCDP_SUM = "RSWR23:Lem2.4"
DPSGD_EXACT = "DPSGD:eps"
DPSGD_RDP = "DPSGD:eps-rdp"


def registered(rid: str) -> bool:
    """Is ``rid`` in the catalogue (every family is registered on import, above)?"""
    try:
        get(rid)
    except KeyError:
        return False
    return True


def _freeze(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))


@functools.lru_cache(maxsize=512)
def _cached(rid: str, frozen: tuple[tuple[str, Any], ...], output: str | None) -> Interval:
    out = get(rid).certified(**{k: list(v) if isinstance(v, tuple) else v for k, v in frozen})
    if output is not None:
        out = getattr(out, output)
    if not isinstance(out, Interval):
        raise TypeError(f"{rid} did not give an enclosure")
    return out


def enclosure(rid: str, output: str | None = None, **params: Any) -> Interval | None:
    """``get(rid).certified(**params)`` (field ``output`` of a named tuple), or None if
    ``rid`` is not registered."""
    if not registered(rid):
        return None
    return _cached(rid, _freeze(params), output)


def first_registered(candidates: tuple[str, ...]) -> str | None:
    return next((rid for rid in candidates if registered(rid)), None)


# ---- references per capability ------------------------------------------------------

def zcdp_to_dp(rho: float, delta: float) -> Reference:
    """Valid: CKS20 Cor. 13 (else BS16 = RSWR23:Lem2.3); floor: the Gaussian curve."""
    valid_id = first_registered(ZCDP_VALID)
    valid = None if valid_id is None else enclosure(valid_id, rho=rho, delta=delta)
    floor = enclosure(GAUSS_RHO, rho=rho, delta=delta)
    return Reference(valid, floor, valid_id, GAUSS_RHO if floor is not None else None,
                     note="no zCDP -> DP conversion can go below the Gaussian mechanism's "
                          "exact curve, since the Gaussian with mu = sqrt(2 rho) is rho-zCDP")


def gaussian_curve(sigma: float, delta: float) -> Reference:
    """Exact: the Balle–Wang curve of N(0, sigma^2) with sensitivity 1."""
    enc = enclosure(GAUSS_SIGMA, sigma=sigma, delta=delta)
    rid = GAUSS_SIGMA if enc is not None else None
    return Reference(enc, enc, rid, rid)


def optimal_composition(eps: float, k: int, delta: float) -> Reference:
    """Exact: the optimal epsilon of k-fold eps-DP composition at delta (KOV15 Thm 3.3)."""
    enc = enclosure(OPTIMAL, eps=eps, k=k, delta_g=delta)
    return Reference(enc, enc, OPTIMAL, OPTIMAL)


def heterogeneous(eps: list[float], delta: float) -> Reference:
    """Exact: the optimal epsilon of composing eps_i-DP rounds at delta (MV16 Thm 1.5)."""
    enc = enclosure(HETEROGENEOUS, eps=eps, delta_g=delta)
    rid = HETEROGENEOUS if enc is not None else None
    return Reference(enc, enc, rid, rid)


def basic_at_zero(eps: float, k: int) -> Reference:
    """Exact at delta = 0: k eps (k-fold RR_eps has privacy loss k eps with probability
    p^k > 0, so no smaller epsilon has delta 0)."""
    enc = enclosure(BASIC, "eps", eps=[eps] * k)
    return Reference(enc, enc, BASIC, BASIC,
                     note="basic composition is exact at delta = 0")


def mixture_level(v: float, rho: float, alpha: float, slack: float) -> Reference:
    """The two-sided normal-mixture boundary on S_v, ``t psi(t) - 1/2`` of WRWR22 Thm 3.6
    (sensitivity 1): ``sqrt((v+rho) ln((v+rho)/(rho alpha^2)))``.  Exact for its claim:
    the mixture martingale of a continuous path reaches 1/alpha with probability alpha."""
    psi = enclosure(MIXTURE, t=v, rho=rho, delta=alpha, sensitivity=1)
    if psi is None:
        return Reference(None, None, None, None)
    with working(iv):
        t = to_ctx(iv, Fraction(v))
        level = endpoints(t * iv.mpf([psi.lo, psi.hi]) - iv.mpf(1) / 2)
    return Reference(level, level, MIXTURE, MIXTURE, slack=slack)


def zcdp_odometer(rhos: list[Fraction]) -> Reference:
    """Exact: composed Gaussians of levels rho_i are exactly (sum rho_i)-zCDP."""
    enc = enclosure(ZCDP_SUM, "rho", rho=rhos)
    return Reference(enc, enc, ZCDP_SUM, ZCDP_SUM)


def dpsgd(q: float, sigma: float, steps: int, delta: float, loose: float) -> Reference:
    """Exact, bracketed: the optimal epsilon of ``steps`` steps of the Poisson-subsampled
    Gaussian mechanism (add/remove), ``DPSGD:eps``'s certified ``[lo, hi]`` (about 1%
    wide).  A value below ``lo`` is unsound; at least ``hi``, sound (excess from ``hi``)."""
    start = time.perf_counter()
    enc = enclosure(DPSGD_EXACT, q=q, sigma=sigma, steps=steps, delta=delta)
    rid = DPSGD_EXACT if enc is not None else None
    return Reference(enc, enc, rid, rid, bracket=True, loose=loose,
                     note=f"bracket computed in {time.perf_counter() - start:.1f} s")


def dpsgd_below_domain(q: float, sigma: float, steps: int, delta: float, floor_delta: float,
                       loose: float) -> Reference:
    """For ``delta`` below ``DPSGD:eps``'s domain: the floor is the bracket's ``lo`` at the
    larger ``floor_delta`` (the optimal epsilon does not increase with delta), the valid
    bound ``DPSGD:eps-rdp`` at ``delta`` itself (an upper bound on the exact epsilon)."""
    floor = enclosure(DPSGD_EXACT, q=q, sigma=sigma, steps=steps, delta=floor_delta)
    valid = enclosure(DPSGD_RDP, q=q, sigma=sigma, steps=steps, delta=delta)
    return Reference(valid, floor, DPSGD_RDP if valid is not None else None,
                     f"{DPSGD_EXACT} at delta={floor_delta:g}" if floor is not None else None,
                     loose=loose, note="eps(delta) is non-increasing in delta")


# ---- filters ------------------------------------------------------------------------

def _stopped(make: Any, rounds: list[Any]) -> int:
    from reference.results.filters.objects import stopped

    return stopped(make(), rounds)


@functools.lru_cache(maxsize=32)
def filter_counts(eps0: float, eps_g: float, delta_g: float, limit: int) -> FilterReference:
    """How many rounds of ``eps0``-DP each proven filter admits at ``(eps_g, delta_g)``,
    and the most that fixed parameters allow (exact optimal composition)."""
    from reference.results.filters.objects import AdvancedFilter, BasicFilter, ZCDPFilter

    e0 = Fraction(eps0)
    counts = {
        "RRUV16:Thm3.4": _stopped(lambda: BasicFilter(eps_g=eps_g), [e0] * limit),
        "RRUV16:Thm5.1": _stopped(lambda: AdvancedFilter(eps_g=eps_g, delta_g=delta_g),
                                  [e0] * limit),
        # eps-DP rounds are eps^2/2-zCDP (BS16 Prop 3.3); Whitehouse et al.'s filter.
        "RSWR23:Thm2": _stopped(lambda: ZCDPFilter(eps=eps_g, delta_pp=delta_g),
                                [e0 * e0 / 2] * limit),
    }
    best = max(counts, key=lambda rid: counts[rid])
    return FilterReference(counts[best], best, fixed_count(eps0, eps_g, delta_g, limit),
                           OPTIMAL_DELTA, counts)


def fixed_exceeds(eps0: float, k: int, eps_g: float, delta_g: float) -> bool:
    """Whether k rounds of eps0-DP fixed in advance are provably not (eps_g, delta_g)-DP."""
    enc = enclosure(OPTIMAL_DELTA, eps=eps0, k=k, eps_g=eps_g)
    assert enc is not None
    return exact(enc.lo, "delta", OPTIMAL_DELTA) > Fraction(delta_g)


def fixed_count(eps0: float, eps_g: float, delta_g: float, limit: int) -> int:
    """Largest k <= limit with k fixed eps0-DP rounds provably (eps_g, delta_g)-DP."""

    def fits(k: int) -> bool:
        enc = enclosure(OPTIMAL_DELTA, eps=eps0, k=k, eps_g=eps_g)
        assert enc is not None
        return exact(enc.hi, "delta", OPTIMAL_DELTA) <= Fraction(delta_g)

    lo, hi = 0, limit  # fits(lo) (no rounds) holds; find the last k that fits
    if fits(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo
