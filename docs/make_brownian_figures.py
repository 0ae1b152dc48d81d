"""Regenerate the figures of docs/boundaries-brownian.md (needs the ``docs`` extra: matplotlib).

    python docs/make_brownian_figures.py [--trials N]

* ``brownian-boundaries.png``: the mixture (WRWR22 Thm 3.6, rho tuned at t = 1), linear
  (tuned at t = 1) and companion (RSWR23 psi, gamma = 1) boundaries against the realised
  privacy loss of simulated Brownian-mechanism runs (worst-case neighbours, Delta = 1,
  delta = 0.1), released from large to small t; paths that cross the mixture boundary
  are drawn in red.
* ``relative-error-zipf.png``: the RSWR23 §7 experiment (``python -m reference experiment
  relative-error``), 200 trials by default: mean results returned and mean precision per
  sample size, with 95% Student-t confidence intervals of the mean over the trials.

Both are deterministic: every random number comes from a generator seeded by a fixed label.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from reference.results.boundaries.wrwr22 import linear_boundary, mixture_boundary, optimal_rho
from reference.results.noise_reduction.evalues import composed_expost
from reference.sim.brownian_paths import backward_paths
from reference.sim.stats import rng
from reference.tools.experiments import relative_error

OUT = Path(__file__).resolve().parent / "figures"


def boundaries_figure(path: Path) -> None:
    delta = 0.1
    grid = np.geomspace(1e3, 1e-3, 300)
    rho = float(optimal_rho(t=1, delta=delta).rho)
    a = math.sqrt(math.log(1 / delta) / 2)
    mix = np.array([float(mixture_boundary(t=t, rho=rho, delta=delta)) for t in grid])
    lin = np.array([float(linear_boundary(t=t, a=a, b=math.log(1 / delta) / (2 * a)))
                    for t in grid])
    comp = np.array([float(composed_expost(t=[t], gamma=1, delta=delta)) for t in grid])
    w = backward_paths(grid, 60, rng("docs-brownian"))
    loss = 1 / (2 * grid) + w / grid
    fig, ax = plt.subplots(figsize=(8, 4.8), dpi=120)
    crossing = 0
    for path_loss in loss:
        crossed = bool((path_loss > mix).any())
        crossing += crossed
        ax.plot(grid, np.abs(path_loss), color="tab:red" if crossed else "0.6",
                lw=0.8 if crossed else 0.5, alpha=0.9 if crossed else 0.5)
    ax.plot(grid, mix, lw=2, color="tab:blue",
            label=f"mixture boundary $\\psi^M$ ($\\rho = {rho:.3g}$, tuned at $t = 1$)")
    ax.plot(grid, lin, lw=2, ls="--", color="tab:orange",
            label="linear boundary $\\psi^L$ (tuned at $t = 1$)")
    ax.plot(grid, comp, lw=2, ls=":", color="tab:green",
            label="RSWR23 boundary $\\psi^C$ ($\\gamma = 1$)")
    ax.plot([], [], color="0.6", lw=0.5,
            label=f"simulated runs below $\\psi^M$ throughout ({len(loss) - crossing})")
    ax.plot([], [], color="tab:red", lw=0.8,
            label=f"simulated runs crossing $\\psi^M$ ({crossing})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.invert_xaxis()
    ax.set_xlabel("time $t$ = noise variance, in units of $\\Delta^2$ "
                  "(released from left to right)")
    ax.set_ylabel("privacy loss $|L_t|$ and boundaries (nats)")
    ax.set_title(f"Time-uniform boundaries against the privacy loss of {len(loss)} runs "
                 f"($\\delta = {delta}$, $\\Delta = 1$)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    path.parent.mkdir(exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=200)
    args = ap.parse_args()
    boundaries_figure(OUT / "brownian-boundaries.png")
    results = relative_error.run(args.trials)
    print(relative_error.table(results, args.trials))
    relative_error.figure(results, OUT / "relative-error-zipf.png")


if __name__ == "__main__":
    main()
