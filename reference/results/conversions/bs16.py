"""Pure DP -> zCDP: Bun, Steinke (2016), *Concentrated differential privacy:
simplifications, extensions, and lower bounds*, TCC 2016, arXiv:1605.02065, Proposition 1.4
(restated as Proposition 3.3 in the body). (``RSWR23:Lem2.3-i`` is the delta-approximate form.)
"""

from __future__ import annotations

from reference.core.model import result
from reference.core.numeric import MPF, Ctx
from reference.core.params import nonneg


@result("BS16:Prop1.4", title="Pure eps-DP implies eps^2/2-zCDP", kind="conversion",
        statement=r"\varepsilon\text{-DP}\Rightarrow\tfrac12\varepsilon^2\text{-zCDP}",
        params=[nonneg("eps", "1", "pure-DP epsilon")])
def puredp_to_zcdp(ctx: Ctx, eps: MPF) -> MPF:
    """The zCDP level ``eps^2 / 2`` of an eps-DP mechanism.

    Bun–Steinke (2016) Proposition 1.4 (restated as Proposition 3.3); OpenDP's
    ``make_pureDP_to_zCDP``.  Domain: ``eps >= 0``.

    >>> puredp_to_zcdp(eps="0.1")
    mpf('0.005')
    """
    return eps * eps / 2
