"""DP-SGD cases: the Poisson-subsampled Gaussian mechanism composed over many steps.

The reference is ``DPSGD:eps``, a certified bracket ``[lo, hi]`` (about 1% wide) of the
*exact* optimal epsilon (add/remove neighbours): a library value below ``lo`` is unsound, at
least ``hi`` is sound, with its excess over ``hi``; inside, undecided.  It costs 3-40 s a
case, so the grid is a subset of ``q x sigma x steps x delta`` that still takes every value of
each parameter: all 15 ``(q, sigma)`` at ``10^4`` steps and a diagonal of five at ``10^3``
steps, each at both deltas, and a diagonal of five at ``10^5`` steps at ``delta = 1e-5``
(45 cases; the full run with Opacus took 98 minutes on one core, two thirds of it
prv-accountant computing each case three times: its adapter now caches every case).
``q = 0.1, sigma = 0.5`` is left out at ``10^5`` steps: its bracket had not finished after
four minutes here (its epsilon is 782 at ``10^4`` steps).
``quick()`` is the two-case subset at ``10^3`` steps for ``--quick`` and the default tests.

The ``dpsgd-issues`` cases are inputs from the libraries' issue trackers, run by the
library they name (``params["library"]``).

>>> len(grid()), len(quick()), {c.params["steps"] for c in grid()} == set(STEPS)
(45, 2, True)
>>> sorted({c.params["q"] for c in grid()}) == sorted(QS)
True
>>> sorted({c.params["sigma"] for c in grid() if c.params["steps"] == 1000}) == sorted(SIGMAS)
True
"""

from __future__ import annotations

from functools import partial

from reference.tools.conformance import references as ref
from reference.tools.conformance.model import Adaptivity, Case
from reference.tools.conformance.severity import DPSGD_LOOSE

CAPABILITY = "dpsgd"
ISSUES = "dpsgd-issues"
DESCRIPTION = ("epsilon at delta of `steps` steps of the Poisson-subsampled Gaussian mechanism "
               "(DP-SGD, add/remove neighbours), judged against a certified bracket of the "
               "exact optimal epsilon (`DPSGD:eps`); sound values more than 5% above its upper "
               "end are loose")
ISSUES_DESCRIPTION = ("DP-SGD inputs from the libraries' issue trackers, each run by the "
                      "library whose tracker it comes from")

QS = (1e-3, 1e-2, 0.1)
SIGMAS = (0.5, 0.8, 1.0, 2.0, 4.0)
DELTAS = (1e-5, 1e-9)
STEPS = (1000, 10_000, 100_000)
#: (q, sigma) run at each number of steps; None: all of them.
POINTS: dict[int, list[tuple[float, float]] | None] = {
    1000: [(1e-3, 0.5), (1e-2, 0.8), (0.1, 1.0), (1e-3, 2.0), (1e-2, 4.0)],
    10_000: None,
    100_000: [(1e-3, 0.5), (1e-2, 0.8), (1e-3, 1.0), (0.1, 2.0), (0.1, 4.0)],
}
#: The live subset (``--quick``, default tests): two settings at 10^3 steps.
QUICK = [(1e-2, 0.8, 1000, 1e-5), (1e-3, 2.0, 1000, 1e-9)]


def label(q: float, sigma: float, steps: int, delta: float) -> str:
    return f"q={q:g},sigma={sigma:g},steps={steps},delta={delta:g}"


def case(q: float, sigma: float, steps: int, delta: float) -> Case:
    return Case(CAPABILITY, label(q, sigma, steps, delta),
                {"q": q, "sigma": sigma, "steps": steps, "delta": delta}, Adaptivity.ADAPTIVE,
                partial(ref.dpsgd, q, sigma, steps, delta, DPSGD_LOOSE))


def grid() -> list[Case]:
    """The 45 DP-SGD cases, by steps, then q, sigma and delta."""
    out = []
    for steps in STEPS:
        pairs = POINTS[steps] or [(q, s) for q in QS for s in SIGMAS]
        deltas = DELTAS[:1] if steps == max(STEPS) else DELTAS
        out += [case(q, s, steps, d) for q, s in sorted(pairs) for d in deltas]
    return out


def quick() -> list[Case]:
    return [case(*point) for point in QUICK]


def issues() -> list[Case]:
    """Inputs from issue trackers (see the report's DP-SGD section for what each shows)."""
    out = []
    # microsoft/prv_accountant#17: "PRV accountant breaks for small delta values"
    # (compute-dp-epsilon, so DPSGDAccountant's default eps_error 0.1, delta_error 1e-9).
    for delta in (1.1e-18, 1.13e-18):
        params = {"q": 0.00033, "sigma": 4.0, "steps": 10_000, "delta": delta,
                  "library": "prv-accountant", "eps_error": 0.1, "delta_error": 1e-9}
        out.append(Case(ISSUES, label(0.00033, 4.0, 10_000, delta) + " (prv_accountant#17)",
                        params, Adaptivity.ADAPTIVE,
                        partial(ref.dpsgd_below_domain, 0.00033, 4.0, 10_000, delta, 1e-11,
                                DPSGD_LOOSE),
                        note="microsoft/prv_accountant#17"))
    return out
