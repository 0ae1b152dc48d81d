"""Statistical test of ex-post privacy (WRWR22 Def. 2.2, RSWR23 Def. 4.1) from simulated runs.

The definitions themselves are in :mod:`reference.results.noise_reduction.ex_post`;
:func:`check_expost` turns many simulated realised losses into the Clopper–Pearson test of
``P[L > E] <= delta`` (:func:`reference.sim.stats.check_rate`).
"""

from __future__ import annotations

import numpy as np

from reference.sim.stats import ALPHA, RateCheck, check_rate


def check_expost(losses: np.ndarray, bounds: np.ndarray | float, delta: float,
                 alpha: float = ALPHA) -> RateCheck:
    """Test ``P[L > E] <= delta`` from simulated realised losses and their ex-post bounds.

    One-sided Clopper–Pearson at level ``alpha``; with ``delta = 0`` (a pure bound) a single
    exceedance rejects.  A relative slack of ``1e-9`` absorbs floating-point rounding of
    losses that meet their bound with equality.

    >>> check_expost(np.array([0.5, 1.0]), 1.0, 0.0).rejected
    False
    """
    b = np.asarray(bounds, dtype=float)
    events = np.asarray(losses, dtype=float) > b + 1e-9 * (1 + np.abs(b))
    return check_rate(events, None, delta, alpha)
