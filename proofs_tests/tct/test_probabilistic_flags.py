"""Which CL23 results of the target, NotPrior, release, wrapper and multi-target modules state
a probabilistic guarantee, decided from their statements (the flag makes the contract
demand a statistical test and the docs announce one)."""

from __future__ import annotations

from reference.core.model import Result
from reference.results import covers
from reference.results.tct import (
    charging,
    multi_target,
    notprior,
    release,
    selection,
    targets,
    wrappers,
)

IDS = ("CL23:CorA.3", "CL23:Def2.1", "CL23:DefB.1", "CL23:LemA.1", "CL23:LemB.3",
       "CL23:Lem2.3", "CL23:LemC.1", "CL23:LemC.2", "CL23:LemC.3",
       "CL23:Lem2.4", "CL23:Lem2.5", "CL23:LemD.1", "CL23:LemD.2", "CL23:LemG.1",
       "CL23:Lem2.8", "CL23:LemE.1", "CL23:LemE.2-conservative", "CL23:LemE.2-exact",
       "CL23:Lem2.9-conservative", "CL23:Lem2.9-exact", "CL23:LemF.1", "CL23:Lem2.7")


@covers(*IDS)
def test_no_probabilistic_guarantee_in_these_modules() -> None:
    """None of these results is probabilistic, by the rule used for the composition, filter
    and zCDP results: a guarantee is probabilistic when it pays the failure probability of
    a tail bound on a random quantity (the privacy loss, a hit count) as part of its delta.

    Here every statement is about the output laws themselves, holding for every pair of
    neighbours with no failure event: q-targets (Def 2.1, B.1, Lemmas 2.3, C.1-C.3, 2.9,
    E.2, F.1, G.1) are decompositions of the two laws; A.1, A.3 and B.3 characterise
    (eps, delta)-indistinguishability by mixtures; D.1, D.2, 2.5 and the wrapper's
    privacy (Lemmas 2.8, E.1) bound ratios of the laws (divergence bounds, like the Laplace
    mechanism's eps-DP); ConditionalRelease (Lemma 2.4) is post-processing and carries the
    algorithm's own delta unchanged; multi-target charging (Lemma 2.7) multiplies a given
    delta by r through a union over events, adding no tail.  (The tail-bound results of
    target charging, Theorem B.4 and its corollaries, live in ``charging`` and
    ``selection``.)"""
    found = {v.id: v.probabilistic for m in (targets, notprior, release, wrappers, multi_target)
             for v in vars(m).values()
             if isinstance(v, Result) and v.core.__module__ == m.__name__}
    assert sorted(found) == sorted(IDS)
    assert not any(found.values())


@covers("CL23:Lem2.6", "CL23:ThmI.1", "CL23:ThmI.3", "CL23:Thm2.10", "CL23:Thm2.10-basic")
def test_selection_bounds_pay_a_tail_and_are_probabilistic() -> None:
    """By the same rule: Theorems I.1, I.3 and 2.10 (both forms) bound the number of calls
    by a tail bound of TCT (Theorem B.4: geometric for one hit, the simplified Chernoff
    tail ``e^{-alpha^2 k/(2(1+alpha))}`` for k hits) and pay its failure probability in
    delta, so they are probabilistic; Lemma 2.6 is the exact equivalence of top-k with k
    hits of 2 eps-DP calls (no failure event)."""
    found = {v.id: v.probabilistic for v in vars(selection).values()
             if isinstance(v, Result) and v.core.__module__ == selection.__name__}
    assert found == {"CL23:Lem2.6": False, "CL23:ThmI.1": True, "CL23:ThmI.3": True,
                     "CL23:Thm2.10": True, "CL23:Thm2.10-basic": True}


CHARGING = ("CL23:ThmB.4-tail", "CL23:ThmB.4", "CL23:ThmB.4-advanced", "CL23:ThmB.4-exact",
            "CL23:Lem2.2", "CL23:Lem2.2-advanced")


@covers(*CHARGING, "CL23:RemB.5")
def test_target_charging_bounds_pay_a_tail_and_are_probabilistic() -> None:
    """By the same rule every result of ``charging`` is probabilistic: Theorem B.4 (basic,
    advanced, exact tail) and Lemma 2.2 (both forms) halt TCT at ``tau`` hits and pay the
    probability that more than ``m`` calls are needed (``P[Bin(m, q) <= tau - 1]`` or its
    Chernoff forms) in delta; ThmB.4-tail is that failure probability itself.  Remark B.5
    is not a guarantee: it solves a tail bound for the number of hits (a calculation)."""
    found = {v.id: v.probabilistic for v in vars(charging).values()
             if isinstance(v, Result) and v.core.__module__ == charging.__name__}
    assert found == {**dict.fromkeys(CHARGING, True), "CL23:RemB.5": False}
