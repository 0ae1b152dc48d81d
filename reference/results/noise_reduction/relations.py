"""Relations of the noise-reduction results, proved on whole domains (see
:mod:`reference.core.relations`): the printed RSWR23 Theorem 5, which drops the drift, fails
on a whole box of its parameters."""

from __future__ import annotations

from typing import Any

from reference.core.relations import relation
from reference.core.special import normal_sf
from reference.results.boundaries.wrwr22 import companion_psi


@relation("RSWR23:Thm5/printed-fails", kind="erratum",
          statement="the printed Theorem 5 (threshold psi(V; gamma, delta), the drift V/2 "
                    "dropped) fails: one Brownian mechanism stopped at the fixed time t = 1/V "
                    "has loss N(V/2, V), which exceeds psi with probability Q((psi - V/2)/sqrt "
                    "V) > delta on the whole box",
          uses=("RSWR23:Thm5", "RSWR23:psi"),
          source="RSWR23 Theorem 5 (§6.1) and its proof (the loss V/2 + S); erratum "
                 "RSWR23:Thm5",
          domain={"V": ("200", "10000"), "gamma": ("1/100", "100"), "delta": ("1e-6", "1/2")},
          log_scale=("V", "gamma", "delta"),
          cuts="V > 10^4: (psi - V/2)/sqrt V = sqrt((1 + gamma/V)(log(1 + V/gamma) + 2 "
               "log(1/delta))) - sqrt(V)/2 keeps falling (the first term grows like "
               "sqrt(log V)), so the probability only grows towards 1. Smaller V, or delta "
               "and gamma outside the box: the printed bound may hold there (at V = 1, "
               "gamma = 1, delta = 1e-6: psi = 7.5 > V/2 and the tail is 1.1e-12); the box is "
               "a region where it provably fails, not the exact failure set.")
def printed_thm5_fails(ctx: Any, V: Any, gamma: Any, delta: Any) -> Any:
    psi = companion_psi.core(ctx, V, gamma, delta)
    return normal_sf(ctx, (psi - V / 2) / ctx.sqrt(V)) - delta
