"""Throughput of the vectorised AdaptParamComp simulator (issue 3's performance figure).

Runs ``RUNS`` randomized-response walks of the constant-eps adversary over ``ROUNDS``
rounds against Theorem 6.5's odometer (n = 1000, delta_g = 0.05) on one core and prints
the time, the walk-steps per second and the crossing frequency next to the exact
first-passage probability.  Usage::

    python docs/bench_adaptive.py [RUNS] [ROUNDS]      # default 1000000 1000
"""

from __future__ import annotations

import math
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from reference.results.odometers.rruv16 import advanced_value
from reference.sim.adversaries import NP, crossing_probability, simulate_constant
from reference.sim.stats import rng


def thm65_bounds(eps: float, rounds: int, n: int, delta_g: float) -> np.ndarray:
    """Theorem 6.5's running bound after each round of a constant-eps sequence."""
    t = np.arange(1, rounds + 1)
    s, drift = t * eps * eps, t * eps * math.expm1(eps) / 2
    b11 = advanced_value(NP, drift, s, n, delta_g, 11)
    b12 = advanced_value(NP, drift, s, n, delta_g, 12)
    return np.asarray(np.where((s >= 1 / n**2) & (s <= 1), b11, b12))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10**6
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    eps, n, delta_g = 0.01, 1000, 0.05
    bounds = thm65_bounds(eps, rounds, n, delta_g)
    start = time.perf_counter()
    run = simulate_constant(eps, bounds, runs, rng("bench-adaptive"))
    elapsed = time.perf_counter() - start
    exact = crossing_probability(eps, bounds)
    print(f"{runs} runs x {rounds} rounds in {elapsed:.1f} s "
          f"({runs * rounds / elapsed:.3g} walk-steps/s, one core)")
    print(f"crossing frequency {run.crossed.mean():.3g}; exact first-passage probability "
          f"{exact:.3g}; delta_g = {delta_g}")


if __name__ == "__main__":
    main()
