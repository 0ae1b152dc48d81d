"""Throughput of the vectorised backward-time Brownian sampler (issue 4's performance figure).

Samples ``PATHS`` standard Brownian paths at ``STEPS`` strictly decreasing times on one
core, twice: the whole grid at once (``backward_paths``) and step by step through the
Brownian bridge (``bridge_step``, as a filter that reveals one time at a time does).
Prints path-steps per second for each and a sanity check of the law
(``Var B_{t_last}`` against ``t_last``).  Usage::

    python docs/bench_brownian.py [PATHS] [STEPS]      # default 100000 1000
"""

from __future__ import annotations

import itertools
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from reference.sim.brownian_paths import backward_paths, bridge_step


def main() -> None:
    paths = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    times = np.linspace(1.0, 1e-3, steps)
    gen = np.random.default_rng(2026)

    start = time.perf_counter()
    grid = backward_paths(times, paths, gen)
    grid_s = time.perf_counter() - start
    var_grid = float(grid[:, -1].var())
    del grid

    start = time.perf_counter()
    b = np.sqrt(times[0]) * gen.standard_normal(paths)
    for t, s in itertools.pairwise(times):
        b = bridge_step(b, float(t), float(s), gen)
    bridge_s = time.perf_counter() - start

    n = paths * steps
    print(f"{paths} paths x {steps} times (t from {times[0]} down to {times[-1]:.0e})")
    print(f"grid   (backward_paths): {grid_s:6.2f} s  {n / grid_s:.3g} path-steps/s"
          f"  Var B_tlast = {var_grid:.5f} (expect {times[-1]:.5f})")
    print(f"bridge (bridge_step):    {bridge_s:6.2f} s  {n / bridge_s:.3g} path-steps/s"
          f"  Var B_tlast = {float(b.var()):.5f} (expect {times[-1]:.5f})")


if __name__ == "__main__":
    main()
