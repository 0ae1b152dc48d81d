"""Regenerate docs/figures/odometer-vs-heuristic.png (needs the ``docs`` extra: matplotlib).

    python docs/make_figures.py

The stopping-time adversary of RRUV16 (Algorithm 4's idea: stop at the first round the
bound is crossed) runs ``RR_eps`` rounds with ``eps = 1/n``, ``n = 1000``.  The figure
shows sample paths of the realised privacy loss, the valid odometer of Theorem 6.5 and
the invalid "tempting heuristic" (advanced composition on the realised parameters), with
the exact crossing probabilities from the first-passage dynamic programme.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from reference.results.odometers.rruv16 import advanced_value, heuristic_value
from reference.sim.adversaries import NP, crossing_probability, up_probability
from reference.sim.stats import rng

OUT = Path(__file__).resolve().parent / "figures" / "odometer-vs-heuristic.png"


def main() -> None:
    n, dg = 1000, 0.05
    eps = 1 / n
    t = np.arange(1, n + 1)
    drift, S = t * eps * math.expm1(eps) / 2, t * eps * eps
    valid = np.where((S >= 1 / n**2) & (S <= 1), advanced_value(NP, drift, S, n, dg, 11),
                     advanced_value(NP, drift, S, n, dg, 12))
    heur = heuristic_value(NP, drift, S, dg)
    p_valid, p_heur = crossing_probability(eps, valid), crossing_probability(eps, heur)
    gen = rng("docs-figure")
    paths = np.cumsum(np.where(gen.random((40, n)) < up_probability(eps), eps, -eps), axis=1)
    fig, ax = plt.subplots(figsize=(8, 4.8), dpi=120)
    stopped = 0
    for path in paths:
        crossed = np.nonzero(np.abs(path) > heur)[0]
        stop = crossed[0] + 1 if crossed.size else n
        stopped += bool(crossed.size)
        ax.plot(t[:stop], np.abs(path[:stop]), color="tab:red" if crossed.size else "0.6",
                lw=0.8, alpha=0.9 if crossed.size else 0.5)
        if crossed.size:
            ax.plot(t[stop - 1], abs(path[stop - 1]), "o", color="tab:red", ms=3)
    ax.plot(t, valid, color="tab:blue", lw=2,
            label=f"valid odometer, RRUV16 Theorem 6.5 (crossed with probability {p_valid:.1e})")
    ax.plot(t, heur, color="tab:orange", lw=2, ls="--",
            label="heuristic: advanced composition on realised $\\varepsilon$ "
                  f"(crossed with probability {p_heur:.3f})")
    ax.plot([], [], color="0.6", lw=0.8,
            label=f"simulated runs that never cross the heuristic ({len(paths) - stopped})")
    ax.plot([], [], color="tab:red", lw=0.8, marker="o", ms=3,
            label=f"runs the adversary stops at their crossing ({stopped})")
    ax.set_xlabel(f"round $t$ (each round $\\varepsilon$-DP randomized response, "
                  f"$\\varepsilon = 1/{n}$)")
    ax.set_ylabel("privacy loss $|L_t|$ and bounds (nats)")
    ax.set_title(f"Stopping-time adversary against two odometers ($\\delta_g = {dg}$, "
                 f"{len(paths)} runs)", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    ax.set_xlim(0, n)
    ax.set_ylim(0, None)
    fig.tight_layout()
    OUT.parent.mkdir(exist_ok=True)
    fig.savefig(OUT, metadata={"Software": None})
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
