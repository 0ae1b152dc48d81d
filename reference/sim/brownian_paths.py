"""Samplers of the Brownian mechanism (WRWR22 Def. 3.1, RSWR23 Def. 4.4), run backwards.

* :class:`BrownianMechanism`: one dataset, releases ``f(x) + B_t`` at exact,
  non-increasing times chosen adaptively (each release drawn from the Brownian bridge
  from 0 at time 0 to the previous value).
* :func:`backward_paths`: many independent paths on one decreasing grid, vectorised
  (independent increments in increasing time, then reversed).
* :func:`bridge_step`: one backward step for many paths with per-path times.
* :func:`first_true`: the index of the first event along the released order, for stopping
  rules that look only at released values.

Floating point (``numpy``) throughout: these feed simulations, not certified values.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from reference.core.errors import DomainError
from reference.core.params import as_fraction

FloatArray = np.ndarray


def backward_paths(times: Sequence[float] | FloatArray, n_paths: int,
                   gen: np.random.Generator, d: int = 0) -> FloatArray:
    """``B`` at strictly decreasing ``times`` for ``n_paths`` independent standard paths.

    Shape ``(n_paths, K)``, or ``(n_paths, K, d)`` for ``d >= 1`` independent coordinates.
    Column ``k`` is the release at ``times[k]``, so ``Cov(B_{t_i}, B_{t_j}) = min(t_i, t_j)``.

    >>> b = backward_paths([4.0, 1.0], 200_000, np.random.default_rng(0))
    >>> [round(float(v), 1) for v in np.cov(b.T).ravel()]
    [4.0, 1.0, 1.0, 1.0]
    """
    ts = np.asarray(times, dtype=float)
    if ts.ndim != 1 or ts.size == 0 or not np.all(ts > 0) or np.any(np.diff(ts) >= 0):
        raise DomainError("times", ts.tolist(), "must be strictly decreasing positive times",
                          "backward_paths")
    rising = ts[::-1]
    scale = np.sqrt(np.diff(rising, prepend=0.0))
    shape = (n_paths, ts.size) if d == 0 else (n_paths, ts.size, d)
    z = gen.standard_normal(shape)
    z *= scale[:, None] if d else scale
    np.cumsum(z, axis=1, out=z)
    return np.asarray(z[:, ::-1])


def bridge_step(b: FloatArray, t: FloatArray | float, s: FloatArray | float,
                gen: np.random.Generator) -> FloatArray:
    """``B_s`` given ``B_t = b`` for ``0 < s <= t`` (elementwise; trailing axes are coordinates).

    ``B_s | B_t = b ~ N((s/t) b, s (t - s)/t)``: the bridge from 0 at time 0 to ``b`` at
    ``t``.  By the Markov property, later (larger-time) releases add nothing.
    """
    t_arr, s_arr = np.asarray(t, dtype=float), np.asarray(s, dtype=float)
    if np.any(s_arr > t_arr) or np.any(s_arr <= 0):
        raise DomainError("s", "...", "must satisfy 0 < s <= t", "bridge_step")
    extra = b.ndim - t_arr.ndim
    shape = t_arr.shape + (1,) * extra
    ratio = (s_arr / t_arr).reshape(shape)
    sd = np.sqrt(s_arr * (t_arr - s_arr) / t_arr).reshape(shape)
    return np.asarray(ratio * b + sd * gen.standard_normal(b.shape))


def first_true(events: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per row: whether any event happens, and the index of the first (or the last index)."""
    hit = np.asarray(events.any(axis=1))
    first = np.where(hit, events.argmax(axis=1), events.shape[1] - 1)
    return hit, np.asarray(first)


class BrownianMechanism:
    """The Brownian mechanism on one dataset: ``release(t)`` reveals ``f(x) + B_t``.

    WRWR22 Definition 3.1 / RSWR23 Definition 4.4.  Times are exact (``Fraction``,
    ``str``, ...) and must not increase (WRWR22 eq. (3)); an equal time repeats the
    previous release.  ``loss(f_neighbour)`` is the realised privacy loss of everything
    released so far (WRWR22:Thm3.4 at the last time, by Lemma 3.2).

    >>> m = BrownianMechanism([3.0, -1.0], np.random.default_rng(1))
    >>> y1 = m.release(4); y2 = m.release("1/2"); y3 = m.release("1/2")
    >>> bool(np.all(y2 == y3)), m.times
    (True, [Fraction(4, 1), Fraction(1, 2), Fraction(1, 2)])
    >>> m.release(1)
    Traceback (most recent call last):
    ...
    reference.core.errors.DomainError: t must not exceed the previous time 1/2 (time functions, ...
    """

    where = "BrownianMechanism"

    def __init__(self, value: Sequence[float] | FloatArray, gen: np.random.Generator) -> None:
        self.value = np.atleast_1d(np.asarray(value, dtype=float))
        if self.value.ndim != 1 or not np.all(np.isfinite(self.value)):
            raise DomainError("value", value, "must be a finite vector f(x)", self.where)
        self.gen = gen
        self.times: list[Fraction] = []
        self.noise: list[FloatArray] = []

    def release(self, t: object) -> FloatArray:
        """``f(x) + B_t`` for a time ``t`` no larger than the previous one."""
        q = as_fraction(t, "t", self.where)
        if q <= 0:
            raise DomainError("t", t, "must be > 0", self.where)
        if not self.times:
            b = np.sqrt(float(q)) * self.gen.standard_normal(self.value.shape)
        elif q > self.times[-1]:
            raise DomainError("t", t, f"must not exceed the previous time {self.times[-1]} "
                              "(time functions, WRWR22 eq. (3))", self.where)
        elif q == self.times[-1]:
            b = self.noise[-1]
        else:
            b = bridge_step(self.noise[-1], float(self.times[-1]), float(q), self.gen)
        self.times.append(q)
        self.noise.append(b)
        return np.asarray(self.value + b)

    def loss(self, neighbour: Sequence[float] | FloatArray) -> float:
        """Realised privacy loss of the releases so far against ``f(x') = neighbour``."""
        if not self.times:
            return 0.0
        u = self.value - np.asarray(neighbour, dtype=float)
        t = float(self.times[-1])
        return float(u @ u / (2 * t) + u @ self.noise[-1] / t)

