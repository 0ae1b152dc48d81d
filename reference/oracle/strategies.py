"""Hypothesis strategies for valid and invalid inputs of registered results.

Derived from the parameter specifications (:mod:`reference.core.params`), so every result
gets them for free.  Needs the ``test`` extra (``hypothesis``).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from reference.core.errors import DomainError
from reference.core.model import Result
from reference.core.params import Param

#: Moderate sizes for valid draws: large enough to exercise, small enough to be quick.
REAL_SPAN = 20.0
INT_MAX = 60
SEQ_MAX = 6


def _real(p: Param) -> st.SearchStrategy[float]:
    """Floats inside the domain: a decimal end (``1e-16``) rounds to a double just outside
    it, so the ends are the doubles nearest the domain from inside."""
    lo = float(p.lo) if p.lo is not None else -REAL_SPAN
    if p.lo is not None and Fraction(lo) < p.lo:
        lo = math.nextafter(lo, math.inf)
    hi = float(p.hi) if p.hi is not None else lo + REAL_SPAN
    if p.hi is not None and Fraction(hi) > p.hi:
        hi = math.nextafter(hi, -math.inf)
    return st.floats(lo, hi, exclude_min=p.lo_open or p.lo is None,
                     exclude_max=p.hi_open or p.hi is None, allow_nan=False)


def valid_value(p: Param, size: int = 3) -> st.SearchStrategy[Any]:
    """A valid value of ``p`` (distributions and sequences of length ``size``)."""
    if p.kind == "real":
        return st.one_of(_real(p), st.just(math.inf)) if p.allow_inf else _real(p)
    if p.kind == "int":
        lo = int(p.lo) if p.lo is not None else 0
        hi = min(int(p.hi), INT_MAX) if p.hi is not None else INT_MAX
        return st.integers(lo, max(lo, hi))
    if p.kind == "seq":
        return st.lists(_real(p), min_size=size, max_size=size)
    if p.kind == "intseq":
        return st.lists(st.integers(int(p.lo or 0), INT_MAX), min_size=size, max_size=size)
    weights = st.lists(st.integers(0, 20), min_size=size, max_size=size).filter(
        lambda w: sum(w) > 0)
    return weights.map(lambda w: [Fraction(x, sum(w)) for x in w])


def valid_params(res: Result[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Valid values for all parameters of ``res`` (sequences share one length)."""
    return st.integers(1, SEQ_MAX).flatmap(
        lambda n: st.fixed_dictionaries({p.name: valid_value(p, n) for p in res.params}))


# ---- extremes of a parameter's domain (the catalogue-wide contract) --------------------

#: Magnitudes near zero: the smallest subnormal, the smallest normal double, 1e-300 (as a
#: float and as an exact decimal), 1e-15.
TINY: tuple[Fraction, ...] = (Fraction(5e-324), Fraction(2.2250738585072014e-308),
                              Fraction(1e-300), Fraction(1, 10**300), Fraction(1, 10**15))
#: Magnitudes without an upper bound in the spec: up to the largest double.
HUGE: tuple[Fraction, ...] = (Fraction(10**15), Fraction(1e300), Fraction(1.7976931348623157e308))
#: Relative steps inside a domain boundary.
STEPS: tuple[Fraction, ...] = (Fraction(1, 10**15), Fraction(1, 10**300))


def _decimal_string(q: Fraction) -> str | None:
    """``q`` as an exact decimal string, or None when its expansion does not terminate."""
    d, k = q.denominator, 0
    while d % 10 == 0:
        d, k = d // 10, k + 1
    while d % 2 == 0:
        d, k = d // 2, k + 1
    while d % 5 == 0:
        d, k = d // 5, k + 1
    if d != 1:
        return None
    n = q.numerator * 10**k // q.denominator
    return str(Decimal(f"{n}e-{k}"))


def _forms(q: Fraction) -> list[Any]:
    """Exact representations of ``q``: the Fraction, an exact decimal string, a float."""
    out: list[Any] = [q]
    text = _decimal_string(q)
    if text is not None:
        out.append(text)
    if abs(q) <= Fraction(1.7976931348623157e308) and Fraction(float(q)) == q:
        out.append(float(q))
    return out


def _inside(p: Param, q: Fraction) -> bool:
    try:
        p.convert([q] if p.kind == "seq" else q, "strategy")
    except DomainError:
        return False
    return True


def boundary_values(p: Param) -> list[Any]:
    """The extremes of a real parameter's domain, each in several exact forms: each closed
    end, points a relative 1e-15 and 1e-300 inside each end (and the next double), tiny
    magnitudes (subnormal, 1e-300) and huge ones where the domain reaches them."""
    cands: list[Fraction] = [Fraction(0), Fraction(1, 10), Fraction(1, 2), Fraction(1)]
    for end, inward in ((p.lo, 1), (p.hi, -1)):
        if end is None:
            cands += [-inward * h for h in HUGE]
            continue
        cands.append(end)
        scale = abs(end) if end else Fraction(1)
        if end:
            cands += [end + inward * scale * s for s in STEPS]
            cands.append(Fraction(math.nextafter(float(end), inward * math.inf)))
        cands += [end + inward * t for t in TINY]
    if p.lo is None:  # both signs of tiny magnitudes around zero
        cands += [s * t for t in TINY for s in (1, -1)]
    seen: set[Fraction] = set()
    out: list[Any] = []
    for q in cands:
        if q not in seen and _inside(p, q):
            seen.add(q)
            out += _forms(q)
    return out


def _moderate_decimal(p: Param) -> st.SearchStrategy[Any]:
    """Short exact decimal strings (``"0.37"``, ``"-12.5"``): ``m 10^-e`` with ``|m| <= 2000``,
    ``e <= 4``, inside the domain.  The mantissa is drawn from the range the domain allows
    at each ``e`` (filtering a drawn ``m`` instead rejected most draws for ``(0, 1)``: a
    filter-too-much health check on results with several such sequences)."""
    def ranged(e: int) -> tuple[int, int]:
        scale = 10**e
        lo = -2000 if p.lo is None else max(-2000, math.ceil(p.lo * scale))
        hi = 2000 if p.hi is None else min(2000, math.floor(p.hi * scale))
        return lo, hi

    def text(m: int, e: int) -> str:
        return str(Decimal(m).scaleb(-e))

    # exponents with a value strictly inside (an open end removes at most one m per end)
    usable = [e for e in range(5) if ranged(e)[1] - ranged(e)[0] >= 2
              or any(_inside(p, Fraction(text(m, e))) for m in range(ranged(e)[0],
                                                                      ranged(e)[1] + 1))]
    if not usable:
        return st.nothing()
    return st.sampled_from(usable).flatmap(lambda e: st.integers(*ranged(e)).map(
        lambda m: text(m, e))).filter(lambda t: _inside(p, Fraction(t)))


def extreme_value(p: Param, size: int = 3, int_cap: int | None = None) -> st.SearchStrategy[Any]:
    """A valid value of ``p`` that reaches the extremes of its domain (see
    :func:`boundary_values`) as often as the middle; sequences mix entries of every kind.
    ``int_cap`` bounds an integer parameter whose top values are too slow to evaluate."""
    if p.kind in ("real", "seq"):
        scalar = st.one_of(st.sampled_from(boundary_values(p)), _real(p), _moderate_decimal(p))
        if p.kind == "real":
            return st.one_of(scalar, st.just(math.inf)) if p.allow_inf else scalar
        return st.lists(scalar, min_size=size, max_size=size)
    if p.kind in ("int", "intseq"):
        lo = int(p.lo) if p.lo is not None else -10**30
        hi = int(p.hi) if p.hi is not None else 10**30
        if int_cap is not None:
            hi = min(hi, int_cap)
        ends = sorted({v for v in (lo, lo + 1, hi - 1, hi, 0, 1) if lo <= v <= hi})
        mid = max(lo, min(hi, 0 if lo < 0 else lo))
        ints = st.one_of(st.sampled_from(ends), st.integers(mid, min(hi, mid + INT_MAX)))
        if p.kind == "int":
            return ints
        return st.lists(ints, min_size=size, max_size=size)
    raw = st.sampled_from([Fraction(0), Fraction(1), Fraction(3), Fraction(20), *TINY])
    weights = st.lists(st.one_of(raw, st.integers(0, 20).map(Fraction)), min_size=size,
                       max_size=size).filter(lambda w: sum(w) > 0)
    exact_dist = weights.map(lambda w: [x / sum(w) for x in w])
    return exact_dist.flatmap(lambda d: st.sampled_from(
        [d, [float(x) for x in d], [_decimal_string(x) or x for x in d]]))


def extreme_params(res: Result[Any], int_caps: dict[str, int] | None = None,
                   ) -> st.SearchStrategy[dict[str, Any]]:
    """Values for all parameters of ``res`` from :func:`extreme_value` (sequences share one
    length); ``int_caps`` bounds slow integer parameters by name."""
    caps = int_caps or {}
    return st.integers(1, SEQ_MAX).flatmap(lambda n: st.fixed_dictionaries(
        {p.name: extreme_value(p, n, caps.get(p.name)) for p in res.params}))


def invalid_values(p: Param) -> list[Any]:
    """Values outside the domain of ``p`` (each must give ``DomainError``)."""
    bad: list[Any] = [float("nan"), float("inf"), float("-inf"), "abc", None, True, "1/0"]
    if p.allow_inf:  # this parameter opts in to +inf (Param.allow_inf)
        bad.remove(float("inf"))
    if p.kind in ("real", "int"):
        bad.append([1, 2])
        if p.lo is not None:
            bad.append(float(p.lo) - 1)
            if p.lo_open:
                bad.append(float(p.lo))
        if p.hi is not None:
            bad.append(float(p.hi) + 1)
            if p.hi_open:
                bad.append(float(p.hi))
        if p.kind == "int":
            bad.append(1.5)
        return bad
    if p.min_len >= 1:
        bad.append([])
    bad += ["0.1,,0.2", [float("nan")], [None]]
    if p.lo is not None:
        bad.append([float(p.lo) - 1] * 2)
    if p.kind == "dist":
        bad += [[0.5, 0.6], [1.5, -0.5]]
    return bad


# ---- strategies for other projects' tests (see docs/testing-your-library.md) ----------


def epsilons(min_value: float = 1e-3, max_value: float = 10.0) -> st.SearchStrategy[float]:
    """Privacy parameters eps in ``[min_value, max_value]`` (floats, no NaN/inf)."""
    return st.floats(min_value, max_value, allow_nan=False, allow_infinity=False)


def deltas(min_exponent: int = -15, max_exponent: int = -2) -> st.SearchStrategy[float]:
    """delta in ``(0, 1)``, spread over decades: ``m * 10**e`` with ``e`` in the range."""
    return st.builds(lambda m, e: m * 10.0**e, st.floats(1.0, 9.99), st.integers(min_exponent,
                                                                            max_exponent))


def rhos(min_value: float = 1e-4, max_value: float = 20.0) -> st.SearchStrategy[float]:
    """zCDP levels rho in ``[min_value, max_value]``."""
    return st.floats(min_value, max_value, allow_nan=False, allow_infinity=False)


def epsilon_lists(min_size: int = 1, max_size: int = 12, distinct: int = 3,
                  ) -> st.SearchStrategy[list[float]]:
    """Heterogeneous pure-DP epsilons with at most ``distinct`` different values (so the
    exact composition ``MV16:Thm1.5`` stays cheap)."""
    pool = st.lists(st.sampled_from([0.01, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0]), min_size=1,
                    max_size=distinct, unique=True)
    return pool.flatmap(lambda values: st.lists(st.sampled_from(values), min_size=min_size,
                                                max_size=max_size))


def params_for(result_id: str) -> st.SearchStrategy[dict[str, Any]]:
    """Valid parameters of the registered result ``result_id`` (from its domain)."""
    from reference.results import get

    return valid_params(get(result_id))


__all__ = ["boundary_values", "deltas", "epsilon_lists", "epsilons", "extreme_params",
           "extreme_value", "invalid_values", "params_for", "rhos", "valid_params", "valid_value"]
