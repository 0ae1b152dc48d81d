"""Every registered result either has an independent route or a stated reason why not.

A result added later fails here until it is classified: a route in ``routes*.py`` or an
entry of :data:`NO_SECOND_ROUTE`.
"""

from __future__ import annotations

from proofs_tests.second_routes.routes import ROUTES
from reference import catalogue

_INV = "an inverse: checked through its forward result's route and its certificate"
_LP = "an exact linear program or decomposition on Fractions (no closed form to re-derive)"
_DEC = "a filter/odometer decision on exact inputs; its arithmetic is a sum routed elsewhere"
_ROOT = "defined by a root or an infimum over orders (no closed form; a solver, not a formula)"

NO_SECOND_ROUTE: dict[str, str] = {
    "BW18:Thm8-eps": _INV + " (BW18:Thm8)",
    "BW18:Thm8-rho-eps": _INV + " (BW18:Thm8-rho)",
    "KOV15:Thm3.3": _INV + " (KOV15:Thm3.3-delta)",
    "MV16:Thm1.5": _INV + " (MV16:Thm1.5-delta)",
    "WRWR22:Cor3.7-Gamma": _INV + " (WRWR22:Thm3.6-mixture)",
    "KOV15:Thm3.3-grid": "a lattice search over KOV15:Thm3.3-delta (routed)",
    "CKS20:Cor13": _ROOT,
    "CKS20:Cor13-delta": _ROOT,
    "CKS20:Cor13-order": _ROOT,
    "WRWR22:Thm3.6-mixture-optimal-rho": _ROOT,
    "CL23:CorA.3": _LP,
    "CL23:Def2.1": _LP,
    "CL23:DefB.1": _LP,
    "CL23:LemA.1": _LP,
    "CL23:LemB.3": _LP,
    "CL23:LemC.2": "not yet routed: the construction's q needs the prior's index convention",
    "RRUV16:Lem3.3": _DEC,
    "RRUV16:Thm5.1": _DEC,
    "RRUV16:Thm6.5": _DEC,
    "RSWR23:Lem5.2": _DEC,
    "RSWR23:Lem6.2": _DEC,
    "RSWR23:Thm2": _DEC,
    "RSWR23:Thm3": _DEC,
    "RSWR23:Thm6": _DEC,
    "RSWR23:Thm6-printed": _DEC,
    "RSWR23:Def2.3": "not yet routed: a list of (loss, probability) atoms in the library's order",
    "RSWR23:Def4.1": "not yet routed: the excess of a loss over a bound (a definition)",
    "WRWR22:Def2.2": "not yet routed: the excess of a loss over a bound (a definition)",
    "RSWR23:Sec7.1-doubling-run": "a simulation of the doubling schedule (an experiment)",
    "RSWR23:Sec7.2-accept": "not yet routed: a stopping condition solved in closed form",
    "DPSGD:eps-rdp": _ROOT,
    "DPSGD:delta-rdp": _ROOT,
    "DPSGD:eps": "a bracket from a composed grid law, not a formula; its independent routes "
                 "(closed forms at one step and at q = 1, quadrature at two steps, the RDP "
                 "route, dp-accounting, sampling) are in proofs_tests/dpsgd and stats_tests/dpsgd",
    "DPSGD:delta": "a bracket from a composed grid law (as DPSGD:eps)",
    "DPSGD:eps-wor": "two brackets' ends from composed grid laws (as DPSGD:eps); its "
                     "independent routes (the law's curve by quadrature, closed forms at one "
                     "step and at q = 1, quadrature at two steps, a float FFT) are in "
                     "proofs_tests/dpsgd/test_wor.py",
    "DPSGD:delta-wor": "two brackets' ends from composed grid laws (as DPSGD:eps-wor)",
    "MTZ19:rdp": "not yet routed here: its independent routes (the finite sum in arb, arb's "
                 "rigorous integral of the definition, quadrature) are in proofs_tests/dpsgd",
}


def test_every_result_is_classified_once() -> None:
    ids = {r.id for r in catalogue()}
    routed, excused = set(ROUTES), set(NO_SECOND_ROUTE)
    assert not routed & excused, f"both routed and excused: {sorted(routed & excused)}"
    missing = ids - routed - excused
    assert not missing, f"results with neither a second route nor a reason: {sorted(missing)}"
    stale = (routed | excused) - ids
    assert not stale, f"classified but not registered: {sorted(stale)}"


def test_reasons_are_stated() -> None:
    assert all(reason.strip() for reason in NO_SECOND_ROUTE.values())
