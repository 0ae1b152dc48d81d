"""The shared grid: the cases every library is run on, per capability.

Inputs are Python floats and ints, passed unchanged to the library *and* (exactly) to
our reference, so both sides judge the same numbers.  The grid reuses the points of
the library comparison made when this harness was built and adds the edges where
defects showed up (k = 1023/1024 for dp-accounting, eps0 = 2 and 1 for prv-accountant,
delta = 0 for autodp).

>>> caps = sorted({c.capability for c in grid()})
>>> caps  # doctest: +NORMALIZE_WHITESPACE
['advanced-composition', 'composition-delta0', 'dpsgd', 'dpsgd-issues', 'filter',
 'gaussian-curve', 'heterogeneous-composition', 'mixture-boundary', 'odometer',
 'optimal-composition', 'zcdp-to-dp']
>>> len({c.id for c in grid()}) == len(grid())
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import Any

from reference.tools.conformance import dpsgd_cases
from reference.tools.conformance import references as ref
from reference.tools.conformance.model import Adaptivity, Case

#: Capabilities, in report order, with one line each.
CAPABILITIES: dict[str, str] = {
    "zcdp-to-dp": "epsilon at delta of a rho-zCDP mechanism (valid: CKS20 Cor. 13, else BS16; "
                  "floor: the Gaussian curve of Balle–Wang, which every sound conversion meets)",
    "gaussian-curve": "exact epsilon at delta of the Gaussian mechanism N(0, sigma^2), "
                      "sensitivity 1 (Balle–Wang 2018 Thm 8)",
    "advanced-composition": "closed-form composition theorems for k rounds of eps0-DP at "
                            "delta, judged against the exact optimum (KOV15 Thm 3.3)",
    "optimal-composition": "numerical accountants (PLD, PRV, RDP, zCDP route) for k rounds "
                           "of eps0-DP at delta, judged against the exact optimum",
    "heterogeneous-composition": "rounds of different eps_i-DP at delta, judged against the "
                                 "exact heterogeneous optimum (Murtagh–Vadhan 2016)",
    "composition-delta0": "k rounds of eps0-DP at delta = 0: exactly k eps0",
    "mixture-boundary": "two-sided normal-mixture uniform boundary on S_v (WRWR22 Thm 3.6 "
                        "with sensitivity 1: t psi(t) - 1/2)",
    "filter": "a privacy filter fed equal rounds of eps0-DP with budget (eps_g, delta_g): "
              "rounds admitted, against proven filters (RRUV16 Thm 3.4/5.1, RSWR23 Thm 2) "
              "and the fixed-parameter optimum",
    "odometer": "a zCDP odometer over Gaussian rounds: reported rho against the exact sum",
    dpsgd_cases.CAPABILITY: dpsgd_cases.DESCRIPTION,
    dpsgd_cases.ISSUES: dpsgd_cases.ISSUES_DESCRIPTION,
}

ZCDP_POINTS = [(0.01, 1e-6), (0.1, 1e-6), (1.0, 1e-6), (1.3527, 1e-6), (0.01, 1e-9),
               (0.1, 1e-9), (1.0, 1e-9), (1.3527, 1e-9)]
ADVANCED_POINTS = [(0.001, 500), (0.001, 1023), (0.001, 1024), (0.001, 10_000), (0.1, 500),
                   (0.1, 10_000)]
OPTIMAL_POINTS = [(0.001, 500), (0.001, 10_000), (0.1, 500), (0.1, 10_000), (1.0, 200),
                  (2.0, 50)]
#: (eps_i, count) groups of heterogeneous pure-DP rounds.
HETEROGENEOUS_POINTS = [((0.1, 20), (0.5, 10), (1.0, 5)), ((0.01, 200), (0.05, 100))]
DELTA0_POINTS = [(0.1, 500), (1.0, 10)]
#: (rho, alpha, v): the confseq boundary comparison.
MIXTURE_POINTS = [(1.0, 0.05, 1.0), (1.0, 0.05, 100.0), (1.0, 0.05, 1e6), (1.0, 1e-6, 1e4),
                  (100.0, 0.05, 1.0), (100.0, 1e-6, 1e6)]
#: (eps0, eps_g, delta_g): the diffprivlib budget case and a second budget.
FILTER_POINTS = [(0.001, 0.11, 1e-6), (0.01, 1.0, 1e-6)]
ODOMETER_SCALES = [[1.0, 2.0, 0.5], [10.0] * 20]
#: Relative slack for confseq: it re-derives the mixture precision from (v_opt, alpha_opt)
#: in double precision (<= 1e-15 relative), far below any real discrepancy (measured with
#: confseq 0.0.11: the conventions differ by 2-14 %).
MIXTURE_SLACK = 1e-13
DELTA = 1e-6


def _g(x: float) -> str:
    return f"{x:g}"


def filter_limit(eps0: float, eps_g: float) -> int:
    """More rounds than any filter at this budget could admit (>= the fixed optimum)."""
    ratio = eps_g / eps0
    return int(ratio * ratio / 4 + 2 * ratio) + 10


def grid(quick: bool = False) -> list[Case]:
    """All cases, in report order (references are computed lazily, once); ``quick``: only
    the two-case DP-SGD subset (:func:`dpsgd_cases.quick`) and none of its issue cases."""
    cases: list[Case] = []
    for rho, delta in ZCDP_POINTS:
        cases.append(Case("zcdp-to-dp", f"rho={_g(rho)},delta={_g(delta)}",
                          {"rho": rho, "delta": delta}, Adaptivity.NON_ADAPTIVE,
                          partial(ref.zcdp_to_dp, rho, delta)))
    for rho, delta in ZCDP_POINTS:
        sigma = 1 / math.sqrt(2 * rho)
        cases.append(Case("gaussian-curve", f"sigma={sigma:.6g},delta={_g(delta)}",
                          {"sigma": sigma, "delta": delta}, Adaptivity.NON_ADAPTIVE,
                          partial(ref.gaussian_curve, sigma, delta),
                          note=f"sigma = 1/sqrt(2 rho), rho = {_g(rho)}"))
    for cap, points in (("advanced-composition", ADVANCED_POINTS),
                        ("optimal-composition", OPTIMAL_POINTS)):
        for eps0, k in points:
            cases.append(Case(cap, f"eps0={_g(eps0)},k={k},delta=1e-6",
                              {"eps0": eps0, "k": k, "delta": DELTA}, Adaptivity.ADAPTIVE,
                              partial(ref.optimal_composition, eps0, k, DELTA)))
    for groups in HETEROGENEOUS_POINTS:
        eps = [e for e, n in groups for _ in range(n)]
        label = "+".join(f"{n}x{_g(e)}" for e, n in groups) + ",delta=1e-6"
        cases.append(Case("heterogeneous-composition", label, {"eps": eps, "delta": DELTA},
                          Adaptivity.ADAPTIVE, partial(ref.heterogeneous, eps, DELTA)))
    for eps0, k in DELTA0_POINTS:
        cases.append(Case("composition-delta0", f"eps0={_g(eps0)},k={k},delta=0",
                          {"eps0": eps0, "k": k, "delta": 0}, Adaptivity.ADAPTIVE,
                          partial(ref.basic_at_zero, eps0, k)))
    for rho, alpha, v in MIXTURE_POINTS:
        cases.append(Case("mixture-boundary", f"rho={_g(rho)},alpha={_g(alpha)},v={_g(v)}",
                          {"rho": rho, "alpha": alpha, "v": v}, Adaptivity.FULLY_ADAPTIVE,
                          partial(ref.mixture_level, v, rho, alpha, MIXTURE_SLACK),
                          note="two-sided; reference widened by 1e-13 relative (confseq "
                               "re-derives rho in double precision)"))
    for eps0, eps_g, delta_g in FILTER_POINTS:
        limit = filter_limit(eps0, eps_g)
        cases.append(Case("filter", f"eps0={_g(eps0)},budget=({_g(eps_g)},{_g(delta_g)})",
                          {"eps0": eps0, "eps_g": eps_g, "delta_g": delta_g, "limit": limit},
                          Adaptivity.FULLY_ADAPTIVE,
                          partial(ref.filter_counts, eps0, eps_g, delta_g, limit)))
    for scales in ODOMETER_SCALES:
        rhos = [1 / (2 * Fraction(s) ** 2) for s in scales]  # exact levels of the floats
        label = "sigmas=" + ",".join(_g(s) for s in scales) if len(scales) < 5 else \
            f"sigmas={_g(scales[0])}x{len(scales)}"
        cases.append(Case("odometer", label, {"sigmas": list(scales)}, Adaptivity.FULLY_ADAPTIVE,
                          partial(ref.zcdp_odometer, rhos)))
    if quick:
        return cases + dpsgd_cases.quick()
    return cases + dpsgd_cases.grid() + dpsgd_cases.issues()


def groups(eps: list[float]) -> list[tuple[float, int]]:
    """Equal epsilons grouped, in order of first appearance.

    >>> groups([0.1, 0.1, 0.5, 0.1])
    [(0.1, 3), (0.5, 1)]
    """
    counts: dict[float, int] = {}
    for e in eps:
        counts[e] = counts.get(e, 0) + 1
    return list(counts.items())


def params_text(params: dict[str, Any]) -> str:
    """Inputs as ``name=value`` text (long lists shortened)."""
    parts = []
    for k, v in params.items():
        if isinstance(v, list) and len(v) > 4:
            v = f"[{v[0]!r} x {len(v)}]"
        parts.append(f"{k}={v}")
    return ", ".join(parts)
