"""Vectorised samplers of the Laplace noise-reduction processes and of LNR.

Three independent constructions of the same process (WRWR22 §4, RSWR23 App. A):

* :func:`laplace_chain`: Koufogiannis et al.'s chain, WRWR22 eq. (4), on an increasing grid
  with ``t_0 = 0`` (coin flips, forward in time);
* :func:`poisson_process`: WRWR22 eq. (5), jump times of the Poisson process of intensity
  ``2/t`` drawn one after the other (the next jump after ``s`` is ``s U^{-1/2}``), each
  adding a fresh ``Lap(jump time)``, plus ``Lap(eta)`` at ``eta``;
* :func:`levy_process`: RSWR23 App. A, the random measure ``U`` with local Lévy density
  ``t^-2 e^{-|z|/t}``: ``X(t_min) = U([0, t_min])`` is drawn from its law ``Lap(t_min)``
  (it has infinitely many jumps), then ``U((t_min, top])`` as a compound Poisson sum with
  ``Poisson(2 log(top/t_min))`` atoms, atom times of density ``prop. to 2/u`` (the mass of
  the Lévy density at ``u``) and sizes of density ``psi(z; u) u / 2``, i.e. ``Lap(u)``.

A process is simulated once on ``[eta, top]`` and read backwards at any (per-path,
adaptive) scales by :meth:`LaplaceJumps.read`.  ``d >= 1`` coordinates are independent
processes.  ``intensity`` other than 2 (stay probability ``(s/t)^intensity``) exists only
for the power checks.  Floating point throughout: these feed simulations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reference.core.errors import DomainError
from reference.core.params import as_fraction

FloatArray = np.ndarray


def _grid(times: Sequence[float] | FloatArray, where: str) -> FloatArray:
    ts = np.asarray(times, dtype=float)
    if ts.ndim != 1 or ts.size == 0 or not np.all(ts > 0) or np.any(np.diff(ts) <= 0):
        raise DomainError("times", ts.tolist(), "must be strictly increasing positive scales",
                          where)
    return ts


def laplace_chain(times: Sequence[float] | FloatArray, n_paths: int, gen: np.random.Generator,
                  d: int = 0, intensity: float = 2.0) -> FloatArray:
    """``zeta_1, ..., zeta_K`` of WRWR22 eq. (4) on increasing ``times`` (``t_0 = 0``).

    Step ``n`` keeps the previous value with probability ``(t_{n-1}/t_n)^intensity``
    (2 in the source), else adds a fresh ``Lap(t_n)``.  Shape ``(n_paths, K)``, or
    ``(n_paths, K, d)`` with independent coordinates.

    >>> z = laplace_chain([1.0, 2.0], 100_000, np.random.default_rng(0))
    >>> round(float(np.mean(z[:, 0] == z[:, 1])), 2), round(float(np.std(z[:, 1])), 1)
    (0.25, 2.8)
    """
    ts = _grid(times, "laplace_chain")
    shape = (n_paths,) if d == 0 else (n_paths, d)
    out = np.empty((n_paths, ts.size, *shape[1:]))
    current = np.zeros(shape)
    previous = 0.0
    for k, t in enumerate(ts):
        move = gen.random(shape) >= (previous / t) ** intensity
        current = current + np.where(move, gen.laplace(0.0, t, shape), 0.0)
        out[:, k] = current
        previous = t
    return out


@dataclass(frozen=True)
class LaplaceJumps:
    """Independent Laplace processes on ``[eta, top]``, stored as their jumps.

    ``base`` holds the values at ``eta`` (shape ``(n,)`` or ``(n, d)``); jump ``j`` happens
    at ``times[j]`` on path ``path[j]``, coordinate ``coord[j]``, with size ``sizes[j]``.
    """

    eta: float
    top: float
    base: FloatArray
    times: FloatArray
    path: FloatArray
    coord: FloatArray
    sizes: FloatArray

    @property
    def n_paths(self) -> int:
        return int(self.base.shape[0])

    def read(self, t: float | FloatArray) -> FloatArray:
        """``Z_t`` on every path; ``t`` a scale in ``[eta, top]`` or one scale per path."""
        t_arr = np.broadcast_to(np.asarray(t, dtype=float), (self.n_paths,))
        if np.any(t_arr < self.eta * (1 - 1e-12)) or np.any(t_arr > self.top * (1 + 1e-12)):
            raise DomainError("t", "...", f"must lie in [eta, top] = [{self.eta}, {self.top}] "
                              "(Z is defined on [eta, inf), simulated up to top)",
                              "LaplaceJumps.read")
        width = 1 if self.base.ndim == 1 else self.base.shape[1]
        keep = self.times <= t_arr[self.path]
        slot = self.path * width + self.coord
        total = np.bincount(slot, weights=np.where(keep, self.sizes, 0.0),
                            minlength=self.n_paths * width)
        return np.asarray(self.base + total.reshape(self.base.shape))

    def count(self, s: float, t: float) -> FloatArray:
        """Number of jumps in ``(s, t]`` on each path (all coordinates together)."""
        inside = (self.times > s) & (self.times <= t)
        return np.bincount(self.path[inside], minlength=self.n_paths)


def _check_span(eta: float, top: float, where: str) -> None:
    if not (np.isfinite(eta) and np.isfinite(top) and 0 < eta <= top):
        raise DomainError("eta", eta, f"must satisfy 0 < eta <= top = {top}", where)


def poisson_process(eta: float, top: float, n_paths: int, gen: np.random.Generator,
                    d: int = 0, intensity: float = 2.0) -> LaplaceJumps:
    """WRWR22 eq. (5) on ``[eta, top]``: ``Z_t = sum_{n <= P_t} Lap(T_n)``, ``T_0 = eta``.

    Jump times are drawn sequentially: after ``s`` the next is ``s U^{-1/intensity}``
    (no jump in ``(s, r]`` with probability ``(s/r)^intensity``).

    >>> z = poisson_process(0.2, 10.0, 50_000, np.random.default_rng(1))
    >>> round(float(np.mean(z.count(0.2, 10.0))), 1)   # 2 log 50 = 7.82
    7.8
    """
    _check_span(eta, top, "poisson_process")
    width = 1 if d == 0 else d
    base_shape = (n_paths,) if d == 0 else (n_paths, d)
    base = gen.laplace(0.0, eta, base_shape)
    flat_path = np.repeat(np.arange(n_paths), width)
    flat_coord = np.tile(np.arange(width), n_paths)
    current = np.full(n_paths * width, float(eta))
    alive = np.arange(n_paths * width)
    times, paths, coords = [], [], []
    while alive.size:
        current[alive] = current[alive] * gen.random(alive.size) ** (-1.0 / intensity)
        alive = alive[current[alive] <= top]
        times.append(current[alive])
        paths.append(flat_path[alive])
        coords.append(flat_coord[alive])
    jt = np.concatenate(times)
    return LaplaceJumps(eta, top, base, jt, np.concatenate(paths), np.concatenate(coords),
                        gen.laplace(0.0, 1.0, jt.size) * jt)


def levy_process(start: float, top: float, n_paths: int, gen: np.random.Generator,
                 d: int = 0, intensity: float = 2.0) -> LaplaceJumps:
    """RSWR23 App. A's ``X(t) = U([0, t])`` on ``[start, top]``, from its Lévy measure.

    ``X(start) ~ Lap(start)``; ``U((start, top])`` is compound Poisson with Lévy mass
    ``2 log(top/start)``: atom times ``start (top/start)^V`` (density ``prop. to 1/u``), sizes
    ``Lap(u)``.  Returned in the same form as :func:`poisson_process`.  ``intensity``
    replaces the 2 of the Lévy mass (power checks only).
    """
    _check_span(start, top, "levy_process")
    width = 1 if d == 0 else d
    base_shape = (n_paths,) if d == 0 else (n_paths, d)
    base = gen.laplace(0.0, start, base_shape)
    counts = gen.poisson(intensity * np.log(top / start), n_paths * width)
    slot = np.repeat(np.arange(n_paths * width), counts)
    times = start * (top / start) ** gen.random(slot.size)
    sizes = gen.exponential(times) * gen.choice([-1.0, 1.0], slot.size)
    return LaplaceJumps(start, top, base, times, slot // width, slot % width, sizes)


class LaplaceNoiseReduction:
    """LNR on one dataset (WRWR22 Def. 4.1): ``release(t)`` reveals ``f(x) + Z_t``.

    Scales are exact, at least ``eta`` and non-increasing (an equal scale repeats the
    release); the first fixes the top of the simulated process.  ``loss(f_neighbour)`` is
    the realised loss of everything released (the last release's, WRWR22:Def4.1).

    >>> m = LaplaceNoiseReduction([3.0, -1.0], np.random.default_rng(2), eta="1/4")
    >>> y1 = m.release(4); y2 = m.release(1); y3 = m.release(1)
    >>> bool(np.all(y2 == y3)), abs(m.loss([2.0, -1.0])) <= 1.0
    (True, True)
    >>> m.release("1/8")
    Traceback (most recent call last):
    ...
    reference.core.errors.DomainError: t must be >= eta = 1/4 (Z is defined on [eta, inf), ...
    """

    where = "LaplaceNoiseReduction"

    def __init__(self, value: Sequence[float] | FloatArray, gen: np.random.Generator,
                 eta: object) -> None:
        self.value = np.atleast_1d(np.asarray(value, dtype=float))
        if self.value.ndim != 1 or not np.all(np.isfinite(self.value)):
            raise DomainError("value", value, "must be a finite vector f(x)", self.where)
        self.eta = as_fraction(eta, "eta", self.where)
        if self.eta <= 0:
            raise DomainError("eta", eta, "must be > 0", self.where)
        self.gen = gen
        self.times: list[Fraction] = []
        self.noise: list[FloatArray] = []
        self._jumps: LaplaceJumps | None = None

    def release(self, t: object) -> FloatArray:
        """``f(x) + Z_t`` for a scale ``eta <= t <=`` the previous one."""
        q = as_fraction(t, "t", self.where)
        if q < self.eta:
            raise DomainError("t", t, f"must be >= eta = {self.eta} (Z is defined on "
                              "[eta, inf), WRWR22 eq. (5))", self.where)
        if self.times and q > self.times[-1]:
            raise DomainError("t", t, f"must not exceed the previous scale {self.times[-1]} "
                              "(time functions, WRWR22 eq. (3))", self.where)
        if self._jumps is None:
            self._jumps = poisson_process(float(self.eta), float(q), 1, self.gen,
                                          d=self.value.size)
        z = self._jumps.read(float(q))[0]
        self.times.append(q)
        self.noise.append(z)
        return np.asarray(self.value + z)

    def loss(self, neighbour: Sequence[float] | FloatArray) -> float:
        """Realised privacy loss of the releases so far against ``f(x') = neighbour``."""
        if not self.times:
            return 0.0
        y = self.value + self.noise[-1]
        other = np.asarray(neighbour, dtype=float)
        return float(np.sum(np.abs(y - other) - np.abs(y - self.value)) / float(self.times[-1]))
