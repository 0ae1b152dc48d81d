"""Advanced composition as the lecture notes state it, and the notes' errata.

Source: Lecture 11, *Advanced composition* (course lecture notes; N-numbers are the notes'
numbered displays). The exact optimal composition the notes are held against is
Kairouz–Oh–Viswanath (:mod:`reference.results.composition.kov15`).
"""

from __future__ import annotations

import mpmath
from mpmath import mp

from reference.core.errata import Check, Kind, erratum
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, log
from reference.core.params import count, nonneg, unit_closed_open, unit_open
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.rruv16 import DPGuarantee, _tanh_half


@result("LEC11:AdvComp", title="Advanced composition (lecture notes, tanh form)",
        kind="composition",
        statement=r"\tilde\varepsilon=\varepsilon\sqrt{2k\ln(1/\delta')}+k\varepsilon"
                  r"\frac{e^\varepsilon-1}{e^\varepsilon+1},\quad\tilde\delta=k\delta+\delta'",
        params=[nonneg("eps", "0.001", "epsilon of each mechanism"),
                count("k", "500", "number of mechanisms"),
                unit_open("delta_prime", "1e-6", "slack delta' of the concentration step"),
                unit_closed_open("delta", "0", "delta of each mechanism", default="0")],
        status="corrected", probabilistic=True,
        notes="N5 prints ln(1/delta'); the lemma N22 prints ln(1/delta), a typo (undefined "
              "at delta = 0, erratum LEC11:N22). Valid guarantee: the minimum with basic "
              "composition.", balls=True)
def advanced_composition_tanh(ctx: Ctx, eps: MPF, k: int, delta_prime: MPF, delta: MPF,
                              ) -> DPGuarantee:
    """k-fold composition of (eps, delta)-DP is (eps~, k delta + delta')-DP (tanh mean term).

    Lecture notes N5 and N22 (with ``ln(1/delta')`` as in N5):
    ``eps~ = eps sqrt(2k ln(1/delta')) + k eps (e^eps - 1)/(e^eps + 1)``.  Domain:
    ``eps >= 0``, integer ``k >= 1``, ``delta' in (0, 1)``, ``delta in [0, 1)``.

    Proof note.  N22 prints ``ln(1/delta)`` under the root, undefined at ``delta = 0``
    (erratum LEC11:N22); N5 and the proof use the concentration slack ``delta'``.  By the
    simulation lemma each (eps, delta)-DP round is, except with probability ``delta``, a
    post-processing of eps-randomized response, whose privacy loss lies in ``[-eps, eps]``
    and has mean ``eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2)`` (the KL divergence of
    RR_eps).  The centred losses form a martingale with increments in an interval of length
    ``2 eps``, so Azuma–Hoeffding gives ``P[sum (L_i - mu_i) > t] <= exp(-t^2/(2 k eps^2))``,
    which is ``delta'`` at ``t = eps sqrt(2k ln(1/delta'))``.  A union bound over the ``k``
    rounds' ``delta`` adds ``k delta``.  The result is valid but not tight: the minimum with
    basic composition ``k eps`` is also valid, and KOV15:Thm3.3 is exact.

    >>> g = advanced_composition_tanh(eps="0.001", k=500, delta_prime="1e-6")
    >>> print(mpmath.nstr(g.eps, 6))  # N7 claims <= 0.1 here: erratum LEC11:N7
    0.117789
    """
    eps_t = eps * ctx.sqrt(2 * k * log(ctx, 1 / delta_prime)) + k * eps * _tanh_half(ctx, eps)
    return DPGuarantee(eps_t, k * delta + delta_prime)



# ---- errata of the lecture notes ------------------------------------------

@erratum("LEC11:N7", location="Lecture 11, numeric example (N7)",
         printed="k=500, eps=0.001: advanced composition gives eps~ <= 0.1 at delta~=1e-6",
         corrected="the formula of N5 gives 0.117789 > 0.1; only exact optimal composition "
                   "(KOV) gives <= 0.1, namely 0.0798", result="LEC11:AdvComp",
         kind=Kind.FALSE_AS_STATED,
         consequence="the claimed eps~ <= 0.1 does not follow from advanced composition, whose "
                     "formula gives 0.1178; only exact composition (0.0798) reaches it")
def _check_n7() -> Check:
    formula = advanced_composition_tanh.certified(eps="0.001", k=500, delta_prime="1e-6",
                                                  delta=0).eps
    best = optimal_epsilon(eps="0.001", k=500, delta_g="1e-6", delta=0)
    confirmed = bool(formula.lo > mp.mpf("0.1")) and best.holds and best.value <= mp.mpf("0.1")
    return Check(confirmed, f"LEC11:AdvComp gives eps~ in {formula} > 0.1; KOV15:Thm3.3 gives "
                            f"{mpmath.nstr(best.value, 6)} (certified) <= 0.1")


@erratum("LEC11:N22", location="Lecture 11, lemma on k-fold leaky randomized response (N22)",
         printed=r"eps~ = eps sqrt(2k ln(1/delta)) + k eps (e^eps-1)/(e^eps+1)",
         corrected=r"eps~ = eps sqrt(2k ln(1/delta')) + ... as in N5", result="LEC11:AdvComp",
         kind=Kind.TYPO,
         consequence="the printed eps~ ignores delta' and is undefined at delta = 0 (used in N7); "
                     "at (0.1, 100, 1e-5, 1e-3) it gives 5.29811 instead of 4.21651")
def _check_n22() -> Check:
    def printed(eps: str, k: int, delta: str) -> MPF:
        e, d = mp.mpf(eps), mp.mpf(delta)
        return e * mp.sqrt(2 * k * mp.log(1 / d)) + k * e * mp.tanh(e / 2)

    undefined = False
    try:
        printed("0.001", 500, "0")  # the N7 example has delta = 0
    except ZeroDivisionError:
        undefined = True
    as_printed = printed("0.1", 100, "1e-5")
    fixed = advanced_composition_tanh.certified(eps="0.1", k=100, delta_prime="1e-3",
                                                delta="1e-5").eps
    confirmed = undefined and bool(as_printed > fixed.hi + mp.mpf("0.5"))
    return Check(confirmed, "printed form is undefined at delta=0 (N7 uses delta=0); at "
                            "(eps, k, delta, delta')=(0.1, 100, 1e-5, 1e-3) it gives "
                            f"{mpmath.nstr(as_printed, 6)} (independent of delta') against "
                            f"{mpmath.nstr(fixed.mid, 6)} from N5 (the notes: 4.2165)")


@erratum("LEC11:N21", location="Lecture 11, consequence of the post-processing lemma (N21)",
         printed="(u_1..u_k) ~_{eps,delta} (v_1..v_k) => A(x) ~_{eps,delta} A(x')",
         corrected="with the composed parameters (eps~, delta~) on both sides",
         kind=Kind.TYPO, result="KOV15:Thm3.3-delta",
         consequence="taken literally it says composition keeps (eps, delta): 2-fold leaky RR at "
                     "(0.5, 0.01) has delta 0.1693 at eps = 0.5")
def _check_n21() -> Check:
    exact2 = optimal_delta.certified(eps="0.5", k=2, eps_g="0.5", delta="0.01")
    confirmed = bool(exact2.lo > mp.mpf("0.01"))
    return Check(confirmed, "2-fold leaky RR with (eps, delta)=(0.5, 0.01) has exact delta "
                            f"{exact2} > 0.01 at eps=0.5, so it is not (eps, delta)-"
                            "indistinguishable; the parameters must be (eps~, delta~)")
