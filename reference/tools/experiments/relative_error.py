"""RSWR23 §7: counts within a relative error, doubling (Theorem 2) vs Brownian noise
reduction (Theorem 6), on Zipf data.

``python -m reference experiment relative-error [--trials N]`` prints the table and writes
``relative-error.png`` (needs matplotlib, the ``docs`` extra).  Each round the analyst
picks the top remaining count with the exponential mechanism (Gumbel noise of scale
``1/eps_EM``, ``eps_EM^2/8``-zCDP), then measures it until the noisy value passes the
stopping condition of §7.2 (:func:`accept`) or the budget runs out:

* **doubling** (§7.1): independent Gaussians of standard deviation ``1/eps`` with
  ``eps^2 = 1e-4, 2e-4, 4e-4, ...``; every attempt is charged ``eps^2/2`` (Theorem 2);
* **noise reduction** (§7.2): one Brownian path read at ``t = 1/eps^2`` for 1000 equally
  spaced ``eps^2`` from ``1e-4`` to the largest the remaining budget allows (condition
  (4)), from the noisiest; only the stopped release is charged, ``1/(2t) = eps^2/2``
  (Theorem 6).

Budget: ``(eps, delta'') = (10, 1e-6)``, i.e. ``sum eps^2 <= 2 rho*`` with
``rho* = 1.353015`` certified by RSWR23:Lem2.3-inverse ("roughly 2.705" in §7.2).

Assumptions the paper leaves open: the dataset is drawn once per sample
size (seeded) and reused by every trial; the exponential mechanism is charged to the same
budget; a selected item is removed from later selections; a round starts only if the
remaining budget pays the EM and the smallest measurement (``eps^2 = 1e-4``); doubling's
last attempt is capped at the remaining budget; a failed measurement consumes the budget
it used (for noise reduction, all of it: the grid ends at the remaining budget); a true
count of 0 is never "within" relative error; the stopping condition is the printed one,
``1 - alpha < |(y + s)/(y - s)| <= 1 + alpha`` and ``|y| > s`` with ``s = 1/eps``.
Spending is tracked in floating point against ``2 rho*`` lowered by ``1e-12`` (so
rounding can never overspend); :func:`replay` re-runs a trial's charges through the exact
filters (``ZCDPFilter``, ``UnifiedBrownianFilter``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TextIO

import mpmath  # noqa: F401  (the doctests use it)
import numpy as np

from reference.results.conversions.rswr23 import zcdp_budget
from reference.sim.stats import rng

SIZES = (8000, 16000, 32000, 64000, 128000)
ZIPF_A, DOMAIN, ALPHA, EPS_EM = 0.75, 300, 0.1, 0.1
EPS2_MIN, GRID = 1e-4, 1000
EM_COST = EPS_EM**2 / 4          # eps_EM^2/8 zCDP, in sum-of-eps^2 units (2 rho)
METHODS = ("doubling", "noise reduction")


#: Legend label of each method.
LABELS = {"doubling": "doubling (Theorem 2)",
          "noise reduction": "Brownian noise reduction (Theorem 6)"}

def budget() -> float:
    """The sum-of-squares budget ``2 rho*(10, 1e-6)`` (certified), lowered by 1e-12."""
    cert = zcdp_budget(eps=10, delta="1e-6")
    assert cert.holds
    return 2 * float(cert.value) - 1e-12


def accept(noisy: np.ndarray, s: np.ndarray | float, alpha: float = ALPHA) -> np.ndarray:
    """RSWR23 §7.2's stopping condition on a noisy count with noise scale ``s = 1/eps``.

    >>> accept(np.array([21.0, 20.9, -19.0, -19.1, 0.05]), 1.0).tolist()
    [True, False, False, True, False]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.abs((noisy + s) / (noisy - s))
    return np.asarray((ratio > 1 - alpha) & (ratio <= 1 + alpha) & (np.abs(noisy) > s))


def zipf_counts(n: int, gen: np.random.Generator) -> np.ndarray:
    """Counts of ``n`` draws from ``P(k) ∝ k^-a`` on ``{1, ..., 300}``."""
    p = np.arange(1, DOMAIN + 1, dtype=float) ** -ZIPF_A
    return np.asarray(gen.multinomial(n, p / p.sum()), dtype=float)


@dataclass
class Outcome:
    """Per-trial results of one method at one sample size."""

    returned: np.ndarray
    correct: np.ndarray
    log: list[list[tuple[str, float]]] = field(default_factory=list)

    @property
    def precision(self) -> np.ndarray:
        return np.where(self.returned > 0, self.correct / np.maximum(self.returned, 1), 1.0)


def _doubling(y: np.ndarray, remaining: np.ndarray, gen: np.random.Generator,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Doubling on each active trial: (returned, noisy, cost, final eps^2)."""
    k_max = int(np.ceil(np.log2(max(remaining.max(), EPS2_MIN) / EPS2_MIN))) + 2
    sq = EPS2_MIN * 2.0 ** np.arange(k_max)
    before = np.concatenate([[0.0], np.cumsum(sq)[:-1]])
    room = remaining[:, None] - before[None, :]
    eps2 = np.minimum(sq[None, :], room)          # the last attempt is capped
    valid = room > 0
    noisy = y[:, None] + gen.standard_normal(eps2.shape) / np.sqrt(np.where(valid, eps2, 1.0))
    ok = accept(noisy, 1 / np.sqrt(np.where(valid, eps2, 1.0))) & valid
    hit = np.asarray(ok.any(axis=1))
    first = ok.argmax(axis=1)
    rows = np.arange(y.size)
    cost = np.where(hit, before[first] + eps2[rows, first], remaining)
    return hit, noisy[rows, first], cost, eps2[rows, first]


def _noise_reduction(y: np.ndarray, remaining: np.ndarray, gen: np.random.Generator,
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Brownian noise reduction on each active trial: (returned, noisy, cost, eps^2)."""
    j = np.arange(GRID) / (GRID - 1)
    eps2 = EPS2_MIN + (remaining[:, None] - EPS2_MIN) * j[None, :]   # increasing eps^2
    t = 1 / eps2                                                     # decreasing times
    var = np.diff(t[:, ::-1], axis=1, prepend=0.0)                   # increments, rising t
    b = np.cumsum(gen.standard_normal(t.shape) * np.sqrt(var), axis=1)[:, ::-1]
    noisy = y[:, None] + b
    ok = accept(noisy, np.sqrt(t))
    hit = np.asarray(ok.any(axis=1))
    first = ok.argmax(axis=1)
    rows = np.arange(y.size)
    cost = np.where(hit, eps2[rows, first], remaining)
    return hit, noisy[rows, first], cost, eps2[rows, first]


def run_size(n: int, trials: int, method: str, seed: str = "rswr23-sec7",
             keep_log: int = 0) -> Outcome:
    """Run ``trials`` interactions of one method at sample size ``n`` (vectorised)."""
    counts = zipf_counts(n, rng(f"{seed}-data-{n}"))
    gen = rng(f"{seed}-{method}-{n}")
    measure = _doubling if method == "doubling" else _noise_reduction
    total = budget()
    remaining = np.full(trials, total)
    chosen = np.zeros((trials, DOMAIN), dtype=bool)
    out = Outcome(np.zeros(trials), np.zeros(trials), [[] for _ in range(keep_log)])
    while True:
        active = np.nonzero((remaining >= EM_COST + EPS2_MIN) & ~chosen.all(axis=1))[0]
        if active.size == 0:
            return out
        scores = counts[None, :] + gen.gumbel(0.0, 1 / EPS_EM, (active.size, DOMAIN))
        scores[chosen[active]] = -np.inf
        pick = scores.argmax(axis=1)
        chosen[active, pick] = True
        remaining[active] -= EM_COST
        y = counts[pick]
        hit, noisy, cost, eps2 = measure(y, remaining[active], gen)
        remaining[active] = np.maximum(remaining[active] - cost, 0.0)
        good = hit & (y > 0) & (np.abs(np.abs(noisy / np.where(y > 0, y, 1)) - 1) < ALPHA)
        out.returned[active] += hit
        out.correct[active] += good
        for i, trial in enumerate(active):
            if trial < keep_log:
                out.log[trial] += [("em", EM_COST), ("measure", float(cost[i])),
                                   ("final", float(eps2[i]))]


def replay(log: Sequence[tuple[str, float]], method: str) -> bool:
    """Re-run one trial's charges through the exact filter; True if it never halts early.

    Doubling: each EM call and attempt through
    :class:`~reference.results.filters.objects.ZCDPFilter`
    (RSWR23 Theorem 2) is summarised by its total spend (all attempts are zCDP rounds);
    noise reduction: EM calls as zCDP rounds and each measurement as a Brownian round
    stopped at ``t = 1/eps^2`` in :class:`UnifiedBrownianFilter` (Theorem 6).
    """
    from reference.results.filters.brownian_objects import UnifiedBrownianFilter
    from reference.results.filters.objects import Action, ZCDPFilter

    if method == "doubling":
        zf = ZCDPFilter(eps=10, delta_pp="1e-6")
        return all(zf.propose(Fraction(c) / 2) is Action.CONT for kind, c in log
                   if kind != "final")
    uf = UnifiedBrownianFilter.from_dp(eps=10, delta_pp="1e-6")
    for kind, c in log:
        if kind == "em" and uf.propose_zcdp(Fraction(c) / 2) is Action.HALT:
            return False
        if kind == "measure" and uf.propose_brownian(1 / Fraction(c)) is Action.HALT:
            return False
        if kind == "measure":
            uf.record_brownian(1 / Fraction(c))
    return True


def _bar(done: int, total: int, label: str, stream: TextIO) -> None:
    width = 30
    fill = int(width * done / total)
    stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {label:<28}")
    if done == total:
        stream.write("\n")
    stream.flush()


def run(trials: int = 1000, sizes: Sequence[int] = SIZES, seed: str = "rswr23-sec7",
        progress: TextIO | None = sys.stderr) -> dict[str, dict[int, Outcome]]:
    """Both methods at every sample size."""
    results: dict[str, dict[int, Outcome]] = {m: {} for m in METHODS}
    steps = [(m, n) for n in sizes for m in METHODS]
    for i, (m, n) in enumerate(steps):
        if progress is not None:
            _bar(i, len(steps), f"{m}, n={n}", progress)
        results[m][n] = run_size(n, trials, m, seed)
    if progress is not None:
        _bar(len(steps), len(steps), "done", progress)
    return results


def table(results: dict[str, dict[int, Outcome]], trials: int) -> str:
    """Mean (standard deviation) of results returned and precision, per sample size."""
    lines = [f"RSWR23 §7.2, Zipf a={ZIPF_A}, {DOMAIN} values, alpha={ALPHA}, eps_EM={EPS_EM}, "
             f"(eps, delta'')=(10, 1e-6), {trials} trials",
             f"{'n':>7} | {'doubling: results':>18} {'precision':>16} | "
             f"{'noise red.: results':>19} {'precision':>16}"]
    for n in results[METHODS[0]]:
        cells = []
        for m in METHODS:
            o = results[m][n]
            cells.append(f"{o.returned.mean():8.1f} ({o.returned.std():4.1f})"
                         f"{'':>4}{o.precision.mean():.3f} ({o.precision.std():.3f})")
        lines.append(f"{n:>7} | {cells[0]:>35} | {cells[1]:>36}")
    return "\n".join(lines)


def figure(results: dict[str, dict[int, Outcome]], path: Path) -> Path:
    """Mean counts returned and mean precision against n, with 95% Student-t intervals of
    the mean over the runs (PNG; needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from scipy import stats

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), dpi=110)
    trials = 0
    for m, colour, marker in zip(METHODS, ("tab:orange", "tab:blue"), "os", strict=True):
        ns = sorted(results[m])
        for ax, key in zip(axes, ("returned", "precision"), strict=True):
            vals = [np.asarray(getattr(results[m][n], key), dtype=float) for n in ns]
            trials = vals[0].size
            half = [stats.t.ppf(0.975, v.size - 1) * v.std(ddof=1) / math.sqrt(v.size)
                    for v in vals]
            ax.errorbar(ns, [v.mean() for v in vals], yerr=half, marker=marker, ms=5,
                        color=colour, capsize=3, label=LABELS[m])
    axes[0].set_ylabel("counts returned per run (mean)")
    axes[1].set_ylabel("precision: fraction returned within\n10% relative error "
                       "(dimensionless, mean)")
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("sample size $n$ (records)")
        ax.legend(fontsize=8, title=f"error bars: 95% CI of the mean, {trials} runs",
                  title_fontsize=8)
    fig.suptitle("RSWR23 §7, Zipf data: counts released within 10% relative error "
                 "under a (10, $10^{-6}$)-DP budget", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def main(trials: int, out: Path, seed: str = "rswr23-sec7") -> int:
    """The command: table on stdout, figure at ``out/relative-error.png`` if possible."""
    results = run(trials, seed=seed)
    print(table(results, trials))
    try:
        path = figure(results, out / "relative-error.png")
    except ImportError:
        print("matplotlib is not installed (pip install '.[docs]'): no figure written",
              file=sys.stderr)
    else:
        print(f"figure: {path}")
    return 0
