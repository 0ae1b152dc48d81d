"""Vectorised AdaptParamComp with randomized response, adversaries, and exact first passage.

RRUV16 Algorithms 2–4 with the worst-case mechanism ``RR_eps`` (Theorem 2.7): under
``b = 0`` a round of parameter ``eps`` has privacy loss ``+eps`` with probability
``p = e^eps/(1+e^eps)`` and ``-eps`` otherwise (under ``b = 1`` the signs swap).  Runs
are simulated in parallel with numpy: a round draws raw 64-bit words from the generator
and compares them with ``floor(p 2^64)``, so a step's probability is ``p`` up to
``2^-64``.  The bounds are the library's own formulas, evaluated in float64 through the
numpy context :data:`NP` (the same code as the mpmath and interval evaluations).

The exact route (:func:`crossing_probability`, :func:`stopped_violation`) propagates the
law of the number of up-steps round by round (first-passage dynamic programming).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


class NumpyContext:
    """The subset of an mpmath context the bounds use, on float64 arrays."""

    zero, one, e, ln2, inf = 0.0, 1.0, math.e, math.log(2), math.inf

    @staticmethod
    def mpf(x: Any) -> float:
        return float(x)

    log = staticmethod(np.log)
    sqrt = staticmethod(np.sqrt)
    exp = staticmethod(np.exp)
    expm1 = staticmethod(np.expm1)
    tanh = staticmethod(np.tanh)

    @staticmethod
    def fsum(xs: Any) -> Any:
        return sum(xs)


#: Evaluate a library formula ``f(ctx, ...)`` in float64 with ``f(NP, ...)``.
NP = NumpyContext()


def up_probability(eps: float, b: int = 0) -> float:
    """``P[Loss_i = +eps]`` for ``RR_eps``: ``e^eps/(1+e^eps)`` under ``b = 0``."""
    p = 1.0 / (1.0 + math.exp(-eps))
    return p if b == 0 else 1.0 - p


def _threshold(p: float) -> np.uint64:
    return np.uint64(min(int(p * 2.0**64), 2**64 - 1))


def steps(gen: np.random.Generator, thr: Any, size: int) -> Array:
    """Boolean up-steps, ``True`` with probability ``thr / 2^64`` (``thr`` scalar or array)."""
    raw = gen.bit_generator.random_raw(size)
    return np.asarray(raw < thr)


def count_thresholds(eps: float, bounds: Array) -> tuple[Array, Array]:
    """Integer thresholds on the up-count ``U_t``: ``|eps (2U - t)| > b_t`` iff
    ``U > hi_t`` or ``U < lo_t`` (``bounds[t-1] = b_t``, ``t = 1..T``)."""
    t = np.arange(1, len(bounds) + 1, dtype=float)
    c = np.asarray(bounds, dtype=float) / eps
    hi = np.floor((t + c) / 2)
    lo = np.ceil((t - c) / 2)
    return hi.astype(np.int64), lo.astype(np.int64)


@dataclass(frozen=True)
class ConstantRun:
    """Outcome of :func:`simulate_constant` per run."""

    crossed: Array     # |Loss_t| > b_t at some round t <= stop (the odometer failed)
    final_loss: Array  # Loss at the stopping time (in units of eps: 2U - t)
    stop: Array        # stopping round (T if the adversary never stopped)


def simulate_constant(eps: float, bounds: Array, n_runs: int, gen: np.random.Generator,
                      stop_hi: Array | None = None, b: int = 0,
                      chunk: int = 1 << 16) -> ConstantRun:
    """``n_runs`` walks of a constant-``eps`` adversary over ``T = len(bounds)`` rounds.

    ``bounds[t-1]`` is the odometer's value after ``t`` rounds.  If ``stop_hi`` is given
    (integer thresholds on ``U_t``), the adversary stops after the first round with
    ``U_t >= stop_hi[t-1]`` (Algorithm 4); afterwards its parameters are 0 and nothing
    changes.  Vectorised over runs, in chunks that fit in cache.
    """
    T = len(bounds)
    hi, lo = count_thresholds(eps, bounds)
    thr = _threshold(up_probability(eps, b))
    crossed = np.zeros(n_runs, bool)
    final = np.zeros(n_runs, np.int64)
    stop = np.full(n_runs, T, np.int64)
    for start in range(0, n_runs, chunk):
        m = min(chunk, n_runs - start)
        U = np.zeros(m, np.int32)
        hit = np.zeros(m, bool)
        alive = np.ones(m, bool)
        st = np.full(m, T, np.int64)
        for t in range(T):
            U += steps(gen, thr, m) & alive
            hit |= ((U > hi[t]) | (U < lo[t])) & alive
            if stop_hi is not None:
                now = alive & (U >= stop_hi[t])
                st[now] = t + 1
                alive &= ~now
        final[start:start + m] = 2 * U.astype(np.int64) - st
        crossed[start:start + m] = hit
        stop[start:start + m] = st
    return ConstantRun(crossed, final, stop)


# ---- exact first passage ---------------------------------------------------------------

def crossing_probability(eps: float, bounds: Array, b: int = 0) -> float:
    """Exact ``P[exists t <= T: |Loss_t| > b_t]`` for the constant-``eps`` RR walk.

    This is the failure probability of the odometer ``b`` against the adversary that
    stops at the first crossing (RRUV16 Definition 3.2 with Algorithm 4's stopping idea).
    Dynamic programming over the up-count, ``O(T^2)``.
    """
    hi, lo = count_thresholds(eps, bounds)
    p = up_probability(eps, b)
    law = np.array([1.0])
    crossed = 0.0
    for t in range(len(bounds)):
        nxt = np.zeros(len(law) + 1)
        nxt[:-1] += law * (1 - p)
        nxt[1:] += law * p
        u = np.arange(len(nxt))
        out = (u > hi[t]) | (u < lo[t])
        crossed += float(nxt[out].sum())
        nxt[out] = 0.0
        law = nxt
    return crossed


def stopped_violation(eps: float, bounds: Array, stop_hi: Array, b: int = 0) -> float:
    """Exact ``P[|Loss_tau| > b_tau]`` when the adversary stops at the first
    ``U_t >= stop_hi[t-1]`` (or at ``T``): the odometer's failure under Algorithm 4."""
    hi, lo = count_thresholds(eps, bounds)
    p = up_probability(eps, b)
    law = np.array([1.0])
    violated = 0.0
    T = len(bounds)
    for t in range(T):
        nxt = np.zeros(len(law) + 1)
        nxt[:-1] += law * (1 - p)
        nxt[1:] += law * p
        u = np.arange(len(nxt))
        bad = (u > hi[t]) | (u < lo[t])
        stopping = u >= stop_hi[t] if t < T - 1 else np.ones(len(nxt), bool)
        violated += float(nxt[stopping & bad].sum())
        nxt[stopping] = 0.0
        law = nxt
    return violated


def algorithm4_stop(eps: float, T: int, C: float, n: int, delta: float) -> Array:
    """Algorithm 4's stopping thresholds on ``U_t``: stop once
    ``sum_j (X_j - eps tanh(eps/2)) >= C eps sqrt(t log(log(n)/delta))``, i.e.
    ``2U - t - t tanh(eps/2) >= C sqrt(t log(log n/delta))``."""
    t = np.arange(1, T + 1, dtype=float)
    need = (t + t * math.tanh(eps / 2) + C * np.sqrt(t * math.log(math.log(n) / delta))) / 2
    return np.ceil(need).astype(np.int64)


# ---- adaptive adversaries against a filter -------------------------------------------

Policy = Callable[[int, Array], Array]


def constant_policy(level: int) -> Policy:
    """Always propose ``levels[level]``."""
    return lambda t, loss: np.full(len(loss), level)


def bold_policy(small: int, big: int, threshold: float) -> Policy:
    """Propose ``levels[big]`` when the running loss exceeds ``threshold``, else ``small``
    (bold near the budget)."""
    return lambda t, loss: np.where(loss > threshold, big, small)


@dataclass(frozen=True)
class FilterRun:
    """Outcome of :func:`simulate_filter` per run: final loss, rounds run, level counts."""

    loss: Array
    rounds: Array
    counts: Array
    crossed: Array  # |Loss_t| > odometer(t) at some round (if an odometer was given)


def simulate_filter(levels: list[Fraction], policy: Policy,
                    statistic: Callable[[Array, Array, Array], Array], budget: float, T: int,
                    n_runs: int, gen: np.random.Generator, b: int = 0,
                    odometer: Callable[[Array, Array], Array] | None = None) -> FilterRun:
    """PrivacyFilterComp (RRUV16 Algorithm 3) with RR mechanisms, vectorised over runs.

    Each round the policy proposes a level per run; the filter's
    ``statistic(drift, S, total)`` (sums of ``eps(e^eps-1)/2``, ``eps^2``, ``eps``)
    on the prefix *including* the proposal is compared with ``budget``; HALT ends the
    run.  Levels should be dyadic so the float sums of losses and squares are exact.
    With ``odometer(drift, S)`` given, also records whether ``|Loss_t|`` ever exceeded it
    (use ``budget = inf`` to run an odometer alone).
    """
    lv = np.array([float(q) for q in levels])
    half = np.array([float(q) * math.expm1(float(q)) / 2 for q in levels])
    thr = np.array([_threshold(up_probability(float(q), b)) for q in levels], np.uint64)
    loss = np.zeros(n_runs)
    drift = np.zeros(n_runs)
    S = np.zeros(n_runs)
    total = np.zeros(n_runs)
    counts = np.zeros((n_runs, len(levels)), np.int64)
    alive = np.ones(n_runs, bool)
    rounds = np.zeros(n_runs, np.int64)
    crossed = np.zeros(n_runs, bool)
    for t in range(T):
        idx = np.nonzero(alive)[0]
        if idx.size == 0:
            break
        k = policy(t, loss[idx])
        stat = statistic(drift[idx] + half[k], S[idx] + lv[k] ** 2, total[idx] + lv[k])
        cont = stat <= budget
        alive[idx[~cont]] = False
        run, kk = idx[cont], k[cont]
        up = steps(gen, thr[kk], run.size)
        loss[run] += np.where(up, lv[kk], -lv[kk])
        drift[run] += half[kk]
        S[run] += lv[kk] ** 2
        total[run] += lv[kk]
        counts[run, kk] += 1
        rounds[run] += 1
        if odometer is not None:
            crossed[run] |= np.abs(loss[run]) > odometer(drift[run], S[run])
    return FilterRun(loss, rounds, counts, crossed)


def binomial_tail_violation(eps: Fraction, k: int, eps_g: Fraction, b: int = 0) -> float:
    """Exact ``P[|Loss| > eps_g]`` after exactly ``k`` rounds of ``RR_eps`` (no stopping):
    the loss is ``eps (2U - k)`` with ``U ~ Binomial(k, p)``."""
    from scipy import stats

    p = up_probability(float(eps), b)
    u = np.arange(k + 1)
    loss = [(2 * int(x) - k) * eps for x in u]
    bad = np.array([abs(q) > eps_g for q in loss])
    return float(stats.binom.pmf(u[bad], k, p).sum())
