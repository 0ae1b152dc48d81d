"""Hypothesis strategies for valid and invalid inputs of registered results.

Derived from the parameter specifications (:mod:`reference.core.params`), so every result
gets them for free.  Needs the ``test`` extra (``hypothesis``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from reference.core.model import Result
from reference.core.params import Param

#: Moderate sizes for valid draws: large enough to exercise, small enough to be quick.
REAL_SPAN = 20.0
INT_MAX = 60
SEQ_MAX = 6


def _real(p: Param) -> st.SearchStrategy[float]:
    lo = float(p.lo) if p.lo is not None else -REAL_SPAN
    hi = float(p.hi) if p.hi is not None else lo + REAL_SPAN
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


__all__ = ["deltas", "epsilon_lists", "epsilons", "invalid_values", "params_for", "rhos",
           "valid_params", "valid_value"]
