"""Opacus (Meta): its three DP-SGD accountants, RDP, PRV and GDP.

Opacus needs PyTorch, so it is not in the ``conformance`` extra but in its own ``opacus``
extra (``pip install -e '.[opacus]'``); without it the adapter is skipped.  Each accountant
is given its history directly, ``history = [(sigma, q, steps)]``: the state that ``steps``
calls of ``step(noise_multiplier=sigma, sample_rate=q)`` leave (each ``step`` with the same
parameters increments the last entry's count).  ``get_epsilon`` uses Opacus's defaults: the
RDP accountant's orders (1.1 to 10.9 by 0.1, 12 to 63), the PRV accountant's
``eps_error=0.01, delta_error=delta/1000``, and the GDP accountant's Poisson CLT
(``poisson=True``), which Opacus itself warns may under-report (meta-pytorch/opacus#384).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import Adapter, imported, quiet
from reference.tools.conformance.adapters.dpsgd_common import (
    EPS_RDP,
    PRV,
    RDP,
    dpsgd_methods,
)
from reference.tools.conformance.model import CompositionTheorem, Method

GDP = CompositionTheorem("Gaussian DP central limit approximation (Bu et al. 2020)")


class Opacus(Adapter):
    name = "opacus"
    module = "opacus.accountants"
    dist = "opacus"
    url = "https://github.com/meta-pytorch/opacus"
    hint = ("not in the conformance extra (needs torch): pip install -e '.[opacus]', then "
            "python -m reference conformance --library opacus")

    def methods(self) -> list[Method]:
        return [
            *dpsgd_methods("accountants.RDPAccountant(), history [(sigma, q, steps)], "
                           "get_epsilon(delta)", "opacus RDP",
                           lambda p: _epsilon("RDPAccountant", p), RDP,
                           "RDP at its default orders, CKS20 conversion", formula=EPS_RDP),
            *dpsgd_methods("accountants.PRVAccountant(), history [(sigma, q, steps)], "
                           "get_epsilon(delta)", "opacus PRV",
                           lambda p: _epsilon("PRVAccountant", p), PRV,
                           "Opacus's port of the PRV accountant; the upper end"),
            *dpsgd_methods("accountants.GaussianAccountant(), history [(sigma, q, steps)], "
                           "get_epsilon(delta, poisson=True)", "opacus GDP",
                           lambda p: _epsilon("GaussianAccountant", p), GDP,
                           "mu = q sqrt(steps (e^(1/sigma^2) - 1)), mu-GDP converted"),
        ]


def _epsilon(accountant: str, p: Mapping[str, Any]) -> float:
    module = imported("opacus.accountants")
    with quiet():
        acc = getattr(module, accountant)()
        acc.history = [(p["sigma"], p["q"], p["steps"])]
        return float(acc.get_epsilon(delta=p["delta"]))
