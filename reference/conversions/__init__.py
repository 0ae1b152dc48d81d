"""Conversions and compositions the field uses, so the oracle can judge library output.

* :mod:`.cks` — Canonne–Kamath–Steinke (2020) zCDP -> (eps, delta), optimal order.
* :mod:`.gaussian` — Balle–Wang (2018) exact (eps, delta) curve of the Gaussian mechanism.
* :mod:`.renyi` — Bun–Steinke (2016) pure DP -> zCDP; Rényi divergence of randomized
  response (Mironov 2017), the tight RDP curve of pure DP.
* :mod:`.kov` — Kairouz–Oh–Viswanath (2015) heterogeneous Theorem 3.5 three-way minimum
  (autodp, diffprivlib) and the lattice ("grid") form of Theorem 3.3 (dp-accounting).
* :mod:`.hetero` — Murtagh–Vadhan (2016) exact optimal composition of heterogeneous
  (eps_i, delta_i)-DP mechanisms, by enumeration over the distinct epsilons.

Importing the package registers these results; their source prefixes are in
:data:`reference.registry.SOURCES`.
"""

from __future__ import annotations

from . import cks, gaussian, hetero, kov, renyi

__all__ = ["cks", "gaussian", "hetero", "kov", "renyi"]
