"""Multi-target charging: CL23 Lemma 2.7 (Algorithm 8).

CL23 is Cohen and Lyu (2023), *The target-charging technique for privacy analysis across
interactive computations*, arXiv:2302.11044.  With ``r`` targets per call, r-TCT keeps one
hit counter per target and halts when the target hit least often reaches ``tau``; the
lemma charges it ``r`` times the delta of single-target TCT (:mod:`.charging`).
"""

from __future__ import annotations

from typing import NamedTuple

from reference.core.model import result
from reference.core.numeric import MPF, Ctx
from reference.core.params import count, nonneg, unit_closed_open
from reference.results.tct.base import label_note


class MultiBound(NamedTuple):
    """``(eps', r delta')``-DP of r-target charging."""

    eps: MPF
    delta: MPF


@result("CL23:Lem2.7", title="Privacy of multi-target charging", kind="composition",
        statement=r"(\varepsilon',\delta')\text{ for TCT}\Rightarrow(\varepsilon',r\delta')"
                  r"\text{ for }r\text{-TCT}",
        params=[nonneg("eps_prime", "8.4", "eps' of single-target TCT (same eps, q, tau)"),
                unit_closed_open("delta_prime", "0.00674", "delta' of single-target TCT"),
                count("r", "2", "number of targets per call")],
        status="reconstructed",
        notes=label_note("recovered", "Surviving text: 'The number of targets only multiplies "
                         "the privacy parameter'; the parameter (delta) and the factor r are "
                         "reconstructed, halting at min_j C_j = tau (open question 7)."))
def multi_target(ctx: Ctx, eps_prime: MPF, delta_prime: MPF, r: int) -> MultiBound:
    """r-target charging (halt when every target has ``tau`` hits) is ``(eps', r delta')``-DP.

    CL23 Lemma 2.7 (label *recovered* for "only multiplies the privacy parameter", the
    statement itself reconstructed): each halting transcript is valid for the target
    filled last, so an event splits into ``r`` single-target events.  Domain:
    ``eps' >= 0``, ``delta' in [0, 1)``, integer ``r >= 1`` (the result may exceed 1).

    Proof note.  Only the title of CL23 Lemma 2.7 survives, with the sentence "The number
    of targets only multiplies the [lost] privacy parameter", the prose of Algorithm 8
    (halt at the "best" target "in retrospect (the one that is hit the least number of
    times)") and the proof's skeleton in Appendix B.1.  Implemented: if single-target TCT
    with ``(eps, q, tau)`` is ``(eps', delta')``-DP then r-TCT, halting when
    ``min_j C_j = tau``, is ``(eps', r delta')``-DP.  Steps: (1) call an output sequence
    *valid for j* when single-target TCT_j (the same adaptive calls, target ``T_j`` only)
    would produce it, i.e. it stops at the ``tau``-th hit of ``T_j`` or earlier without
    ``T_j`` reaching ``tau``.  (2) A halting r-TCT sequence is valid for the ``j`` whose
    counter reached ``tau`` last; an unhalted one is valid for any ``j`` with
    ``C_j < tau``.  (3) The next call depends only on the prefix, so on a sequence valid for
    ``j`` both algorithms give it the same probability under either dataset.  (4) Split an
    event ``S`` into ``S_1, ..., S_r`` with ``S_j`` valid for ``j``; summing
    ``P_0(S_j) <= e^{eps'} P_1(S_j) + delta'`` gives ``e^{eps'} P_1(S) + r delta'``.

    >>> multi_target(eps_prime="8.4", delta_prime="0.01", r=3).delta
    mpf('0.03')
    """
    return MultiBound(eps_prime, r * delta_prime)


__all__ = ["MultiBound", "multi_target"]
