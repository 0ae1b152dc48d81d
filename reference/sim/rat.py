"""Simulation of ReducedAboveThreshold (WRWR22 Algorithm 1) and the exact law of its
halting round on a grid.

The registered results (scales, Theorem 5.1, Corollary 5.2) are in
:mod:`reference.results.noise_reduction.rat`; this module holds the vectorised sampler
:func:`reduced_above_threshold` and :func:`halting_probabilities`, which computes
``P[N = k]`` for given utilities exactly up to the discretisation of one integral per round
(the threshold path is a Markov chain in increasing scale: a convolution per round on a fine
grid).  Its ratio under neighbouring utilities is the threshold part of the transcript's
privacy loss (Theorem 5.1's ``E_N`` term), used by the property and stats tests.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import signal

from reference.core.errors import DomainError
from reference.sim.laplace_paths import poisson_process


class RATRun(NamedTuple):
    """Simulated runs: halting round ``N`` (1-based; 0 = no halt), and the noises used."""

    halt: np.ndarray
    zeta: np.ndarray
    xi: np.ndarray


def _schedule(eps: np.ndarray, eps_max: float, where: str) -> None:
    if np.any(eps <= 0) or np.any(eps > eps_max * (1 + 1e-12)):
        raise DomainError("eps", "...", f"must lie in (0, eps_max = {eps_max}]", where)
    if np.any(np.diff(eps, axis=-1) < 0):
        raise DomainError("eps", "...", "must be non-decreasing along the rounds (privacy "
                          "functions)", where)


def reduced_above_threshold(utility: np.ndarray, eps: np.ndarray, eps_max: float,
                            sensitivity: float, tau: float, gen: np.random.Generator,
                            fresh_threshold: bool = False) -> RATRun:
    """Run Algorithm 1 on ``n`` independent paths for up to ``K`` rounds, vectorised.

    ``utility[i, n]`` is ``u(Alg_n(x), x)`` on path ``i`` (the Alg iterates do not depend
    on RAT's noise, so they can be simulated first); ``eps`` is ``(K,)`` or ``(n, K)``.
    ``fresh_threshold=True`` redraws ``zeta_n ~ Lap(S_n)`` every round: the wrong variant
    of the power checks.  All rounds' noises are drawn; ``halt`` is the first success.

    >>> r = reduced_above_threshold(np.zeros((4, 3)), np.array([1.0, 1.0, 1.0]), 1.0, 1.0,
    ...                             0.0, np.random.default_rng(0))
    >>> bool(np.all(r.zeta == r.zeta[:, :1]))    # constant eps: AboveThreshold
    True
    """
    u = np.asarray(utility, dtype=float)
    n, k = u.shape
    e = np.broadcast_to(np.asarray(eps, dtype=float), (n, k))
    _schedule(e, eps_max, "reduced_above_threshold")
    scales = 2 * sensitivity / e
    if fresh_threshold:
        zeta = gen.laplace(0.0, 1.0, (n, k)) * scales
    else:
        proc = poisson_process(2 * sensitivity / eps_max, float(scales.max()), n, gen)
        zeta = np.stack([proc.read(scales[:, j]) for j in range(k)], axis=1)
    xi = gen.laplace(0.0, 1.0, (n, k)) * (4 * sensitivity / e)
    success = u + xi >= tau + zeta
    halt = np.where(success.any(axis=1), success.argmax(axis=1) + 1, 0)
    return RATRun(halt, zeta, xi)


def _laplace_cdf(z: np.ndarray, b: float) -> np.ndarray:
    low = 0.5 * np.exp(np.minimum(z, 0) / b)
    return np.asarray(np.where(z < 0, low, 1 - 0.5 * np.exp(-np.maximum(z, 0) / b)))


def halting_probabilities(gaps: np.ndarray, eps: np.ndarray, sensitivity: float = 1.0,
                          step: float | None = None, fresh_threshold: bool = False
                          ) -> np.ndarray:
    """``P[N = k]`` for ``k = 1..K`` and, last, ``P[no halt in K rounds]``.

    ``gaps[n] = u(Alg_n(x), x) - tau`` and ``eps`` (non-decreasing) are fixed, as when the
    Alg outputs are conditioned on.  In increasing scale the threshold path is a Markov
    chain: ``zeta_K ~ Lap(S_K)``, ``zeta_n = zeta_{n+1}`` w.p. ``(S_{n+1}/S_n)^2``, else plus
    ``Lap(S_n)``.  Hence ``H_n = p_n G_n + (1 - p_n) G_n * Lap(S_n)`` with ``G_n(z) =
    P[xi_n < z - gap_n] H_{n-1}(z)`` (pass probabilities), on a grid of ``step`` (default
    ``S_K/400``) over ``+-45 S_1``, Laplace kernels as exact cell masses (error
    ``O(step^2)``).  ``fresh_threshold=True`` gives the redrawn-threshold variant.

    >>> p = halting_probabilities(np.array([0.0]), np.array([1.0]))
    >>> round(float(p[0]), 6)      # P[Lap(4) >= Lap(2)] = 1/2 by symmetry
    0.5
    """
    d = np.asarray(gaps, dtype=float)
    e = np.asarray(eps, dtype=float)
    _schedule(e, float(e.max()), "halting_probabilities")
    s, b = 2 * sensitivity / e, 4 * sensitivity / e
    h = float(s[-1] / 400) if step is None else step
    half = int(np.ceil(45 * s[0] / h))
    z = h * np.arange(-half, half + 1)
    edges = np.concatenate([z - h / 2, [z[-1] + h / 2]])

    def masses(scale: float) -> np.ndarray:
        return np.diff(_laplace_cdf(edges, scale))

    def kernel(scale: float) -> np.ndarray:
        width = min(half, int(np.ceil(45 * scale / h)))
        grid = h * np.arange(-width, width + 1)
        return np.diff(_laplace_cdf(np.concatenate([grid - h / 2, [grid[-1] + h / 2]]), scale))

    out = np.empty(d.size + 1)
    if fresh_threshold:
        alive = 1.0
        for n in range(d.size):
            moves = float(masses(s[n]) @ _laplace_cdf(z - d[n], b[n]))
            out[n] = alive * (1 - moves)
            alive *= moves
        out[-1] = alive
        return out
    hold = np.ones_like(z)            # H_{n-1}(z) = E[prod of passes before n | zeta_n = z]
    for n in range(d.size):
        passes = _laplace_cdf(z - d[n], b[n])
        out[n] = masses(s[n]) @ ((1 - passes) * hold)
        g = passes * hold
        if n + 1 < d.size:
            p = (s[n + 1] / s[n]) ** 2
            hold = g if p == 1 else p * g + (1 - p) * signal.fftconvolve(g, kernel(s[n]),
                                                                         mode="same")
        else:
            out[-1] = masses(s[n]) @ g
    return out


def threshold_loss(gaps_x: np.ndarray, gaps_xp: np.ndarray, eps: np.ndarray, k: int,
                   sensitivity: float = 1.0, step: float | None = None) -> float:
    """``log P_x[N = k] / P_x'[N = k]`` given the Alg outputs (``k >= 1``): the part of
    RAT's transcript loss beyond ``L^Alg`` (at most ``E_k`` by Theorem 5.1).

    >>> round(threshold_loss(np.array([0.0]), np.array([-1.0]), np.array([1.0]), 1), 4)
    0.1789
    """
    px = halting_probabilities(gaps_x[:k], eps[:k], sensitivity, step)[k - 1]
    pxp = halting_probabilities(gaps_xp[:k], eps[:k], sensitivity, step)[k - 1]
    return float(np.log(px) - np.log(pxp))
