"""What the DP-SGD entry points of every adapter share: the theorem they claim, the formula
the RDP-based ones implement, and the two capabilities a method is registered for.

Every DP-SGD entry point is run on the ``dpsgd`` grid and on the ``dpsgd-issues`` cases
(the harness runs an issue case only with the library it names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reference.tools.conformance.dpsgd_cases import CAPABILITY, ISSUES
from reference.tools.conformance.model import CompositionTheorem, Formula, Method, Theorem

#: What the RDP accountants compute: RDP of the sampled Gaussian at a set of orders, the
#: CKS20 Prop. 12 conversion; ``DPSGD:eps-rdp`` is its infimum over all real orders.
EPS_RDP = Formula("DPSGD:eps-rdp", lambda p: {k: p[k] for k in ("q", "sigma", "steps",
                                                                  "delta")})
RDP = CompositionTheorem("RDP of the sampled Gaussian (Mironov et al. 2019) + conversion")
PLD = CompositionTheorem("privacy-loss distribution of the dominating pair (Zhu et al. 2022)")
PRV = CompositionTheorem("PRV accountant (Gopi–Lee–Wutschitz 2021)")


def dpsgd_methods(api: str, short: str, call: Callable[[Mapping[str, Any]], float],
                  theorem: Theorem, implements: str, formula: Formula | None = None,
                  applies: Callable[[Mapping[str, Any]], bool] | None = None) -> list[Method]:
    """One entry point, registered for the DP-SGD grid and the issue-tracker cases."""
    return [Method(cap, api, call, theorem, implements=implements, formula=formula,
                   applies=applies, short=short) for cap in (CAPABILITY, ISSUES)]
