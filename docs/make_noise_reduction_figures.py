"""Regenerate the figure of docs/noise-reduction.md (needs the ``docs`` extra: matplotlib).

    python docs/make_noise_reduction_figures.py

``noise-reduction-laplace-rat.png``:

* left: 12 paths of the continuous-time Laplace process (WRWR22 eq. (5), ``eta = 0.05``)
  read backwards from scale 4, against the ``Lap(t)`` quartiles ``+- t log 2``: the path is
  flat between jumps, so released values repeat (stay probability ``(s/t)^2``);
* right: ``max |log P_x[N = k] / P_x'[N = k]| / eps_k`` of ReducedAboveThreshold by round
  (exact halting probabilities, trivial Alg, ``u(x) = tau``, ``u(x') = tau - Delta``,
  constant and increasing eps), for Algorithm 1 and for the variant that redraws the
  threshold noise each round.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from reference.sim.laplace_paths import poisson_process
from reference.sim.rat import halting_probabilities
from reference.sim.stats import rng

OUT = Path(__file__).resolve().parent / "figures"


def main() -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    grid = np.geomspace(4, 0.05, 600)
    proc = poisson_process(0.05, 4.0, 12, rng("figure-laplace"))
    values = np.stack([proc.read(t) for t in grid], axis=1)
    for row in values:
        left.step(grid, row, where="post", lw=0.9, alpha=0.8)
    left.plot([], [], color="0.4", lw=0.9,
              label=f"noise paths $Z_t$ ({len(values)}, one colour each)")
    left.plot(grid, grid * np.log(2), "k--", lw=1,
              label="quartiles $\\pm t \\ln 2$ of Lap($t$)")
    left.plot(grid, -grid * np.log(2), "k--", lw=1)
    left.set_xscale("log")
    left.invert_xaxis()
    left.set_xlabel("Laplace scale $t$, units of the statistic (released from large to small)")
    left.set_ylabel("noise $Z_t$ (units of the statistic)")
    left.set_title("Laplace noise-reduction paths (WRWR22 eq. (5))", fontsize=10)
    left.margins(y=0.06)
    left.legend(loc="lower right", fontsize=8)

    k = 12
    rounds = np.arange(1, k + 1)
    for eps, style in ((np.ones(k), "-"), (np.linspace(0.5, 1.5, k), ":")):
        for fresh, colour, name in ((False, "C0", "Algorithm 1"),
                                    (True, "C3", "threshold noise redrawn each round")):
            px = halting_probabilities(np.zeros(k), eps, fresh_threshold=fresh)[:-1]
            pxp = halting_probabilities(-np.ones(k), eps, fresh_threshold=fresh)[:-1]
            ratio = np.abs(np.log(px / pxp)) / eps
            label = f"{name}, $\\varepsilon_k$ {'constant' if style == '-' else 'increasing'}"
            right.plot(rounds, ratio, style, color=colour, marker="o", ms=3, label=label)
    right.axhline(1, color="k", lw=1, label="Theorem 5.1's bound: ratio 1")
    right.set_xlabel("halting round $k$")
    right.set_ylabel("$|\\ln(P_x[N=k] / P_{x'}[N=k])| / \\varepsilon_k$ (dimensionless)")
    right.set_title("ReducedAboveThreshold: exact loss ratio by halting round", fontsize=10)
    right.legend(fontsize=8)
    fig.tight_layout()
    OUT.mkdir(exist_ok=True)
    fig.savefig(OUT / "noise-reduction-laplace-rat.png", dpi=130, metadata={"Software": None})


if __name__ == "__main__":
    main()
