"""confseq (Howard et al.): uniform boundaries, the two-sided normal mixture.

confseq takes no mixture precision: it derives it from ``(v_opt, alpha_opt)``,
two-sided ``rho = v_opt / (2 ln(1/a) + ln(1 + 2 ln(1/a)))``; the adapter
inverts that map.  Only the compiled ``confseq.boundaries`` imports under NumPy 2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from reference.tools.conformance.adapters.base import Adapter, imported
from reference.tools.conformance.model import FilterTheorem, Method


class ConfSeq(Adapter):
    name = "confseq"
    module = "confseq.boundaries"
    dist = "confseq"
    url = "https://github.com/gostevehoward/confseq"
    hint = ("not in the extra (sdist only; plain pip fails on Python 3.11): apt-get install "
            "libboost-dev; pip install setuptools wheel 'pybind11>=2.10' cmake scikit-build "
            "ninja; pip install --no-build-isolation confseq==0.0.11")

    def methods(self) -> list[Method]:
        return [
            Method("mixture-boundary", "boundaries.normal_mixture_bound(v, alpha, v_opt, "
                   "alpha_opt=alpha, is_one_sided=False)", _normal_mixture,
                   FilterTheorem("Ville's inequality for the normal-mixture martingale"),
                   implements="sqrt((v+rho) ln((v+rho)/(rho alpha^2)))"),
        ]


def v_opt(rho: float, alpha: float) -> float:
    """The ``v_opt`` for which confseq's two-sided mixture has precision ``rho``."""
    log_term = math.log(1 / alpha)
    return rho * (2 * log_term + math.log(1 + 2 * log_term))


def _normal_mixture(p: Mapping[str, Any]) -> float:
    bounds: Any = imported("confseq.boundaries")
    alpha = p["alpha"]
    return float(bounds.normal_mixture_bound(p["v"], alpha, v_opt(p["rho"], alpha), alpha,
                                             False))
