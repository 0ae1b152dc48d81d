"""prv-accountant (Microsoft): PRV accountant for pure DP and the Gaussian mechanism.

``compute_epsilon`` returns ``(lower, estimate, upper)``; the upper end is the bound a
user relies on and is judged (for DP-SGD all three are judged: each is someone's number).
DP-SGD uses ``dpsgd.DPSGDAccountant`` with ``eps_error=0.01, delta_error=delta/1000`` (the
settings Opacus uses), or an issue case's own settings.  ``PureDPMechanism.rdp`` is not the
RDP of eps-DP, so the automatic domain is too small and mass is cut for large eps0.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import Adapter, imported, quiet
from reference.tools.conformance.adapters.dpsgd_common import PRV, dpsgd_methods
from reference.tools.conformance.cases import groups
from reference.tools.conformance.model import CompositionTheorem, Method


class PrvAccountant(Adapter):
    name = "prv-accountant"
    module = "prv_accountant"
    dist = "prv-accountant"
    url = "https://github.com/microsoft/prv_accountant"

    def methods(self) -> list[Method]:
        prv = CompositionTheorem("PRV accountant (Gopi–Lee–Wutschitz 2021), upper end")
        return [
            Method("optimal-composition", "PRVAccountant([PureDPMechanism(eps0)], eps_error=1e-2,"
                   " delta_error=1e-9).compute_epsilon(delta, [k])[2]", _pure, prv,
                   implements="discretised PRV of eps0-DP, composed by FFT; upper end",
                   applies=lambda p: p["eps0"] * p["k"] <= 200),  # eps0=0.1, k=1e4: ~40 s
            Method("gaussian-curve", "PRVAccountant([GaussianMechanism(sigma)], eps_error=1e-3, "
                   "delta_error=delta/1000).compute_epsilon(delta, [1])[2]", _gaussian, prv,
                   implements="discretised Gaussian PRV; upper end"),
            Method("heterogeneous-composition", "PRVAccountant([PureDPMechanism(eps_i), ...], "
                   "eps_error=1e-2, delta_error=1e-9).compute_epsilon(delta, [count_i, ...])[2]",
                   _pure_list, prv, implements="discretised PRVs, composed by FFT; upper end"),
            *[m for i, end in enumerate(("lower", "estimate", "upper"))
              for m in dpsgd_methods(
                  "dpsgd.DPSGDAccountant(sigma, q, steps, eps_error=0.01, delta_error=delta/1000)"
                  f".compute_epsilon(delta, steps)[{i}]  ({end})", f"prv {end}",
                  functools.partial(_dpsgd_end, i), PRV,
                  f"discretised PRV of the sampled Gaussian, composed by FFT; {end}")],
        ]


def _accountant(prv: Any, k: int, eps_error: float, delta_error: float) -> Any:
    module = imported("prv_accountant")
    return module.PRVAccountant(prvs=[prv], max_self_compositions=[k], eps_error=eps_error,
                                delta_error=delta_error)


def _pure(p: Mapping[str, Any]) -> float:
    rv = imported("prv_accountant.privacy_random_variables")
    with quiet():
        acc = _accountant(rv.PureDPMechanism(p["eps0"]), p["k"], 1e-2, 1e-9)
        return float(acc.compute_epsilon(p["delta"], [p["k"]])[2])


def _pure_list(p: Mapping[str, Any]) -> float:
    rv = imported("prv_accountant.privacy_random_variables")
    module = imported("prv_accountant")
    parts = groups(p["eps"])
    counts = [n for _, n in parts]
    with quiet():
        acc = module.PRVAccountant(prvs=[rv.PureDPMechanism(e) for e, _ in parts],
                                   max_self_compositions=counts, eps_error=1e-2,
                                   delta_error=1e-9)
        return float(acc.compute_epsilon(p["delta"], counts)[2])


def _gaussian(p: Mapping[str, Any]) -> float:
    rv = imported("prv_accountant.privacy_random_variables")
    with quiet():
        acc = _accountant(rv.GaussianMechanism(noise_multiplier=p["sigma"]), 1, 1e-3,
                          p["delta"] / 1000)
        return float(acc.compute_epsilon(p["delta"], [1])[2])


@functools.cache  # all cases: the harness loops methods outside cases
def _dpsgd(q: float, sigma: float, steps: int, delta: float, eps_error: float,
           delta_error: float) -> tuple[float, float, float]:
    module = imported("prv_accountant.dpsgd")
    with quiet():
        acc = module.DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q,
                                     max_steps=steps, eps_error=eps_error,
                                     delta_error=delta_error)
        low, est, up = acc.compute_epsilon(delta=delta, num_steps=steps)
    return float(low), float(est), float(up)


def _dpsgd_end(i: int, p: Mapping[str, Any]) -> float:
    """One end of the triple (computed once per case: the three methods share it)."""
    triple = _dpsgd(p["q"], p["sigma"], p["steps"], p["delta"], p.get("eps_error", 0.01),
                    p.get("delta_error", p["delta"] / 1000))
    return triple[i]
