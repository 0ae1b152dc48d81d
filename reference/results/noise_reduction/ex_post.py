"""Ex-post privacy (WRWR22 Def. 2.2, RSWR23 Def. 4.1) and its basic composition (RSWR23 Lem. 5.1).

A mechanism ``A`` is ``(E, delta)``-ex-post private if, for all neighbours, its realised
privacy loss exceeds the output-dependent bound ``E(A(x))`` with probability at most
``delta``.  The registered definitions return the *excess* ``(L - E)^+`` of one realised
loss over its bound (0 when the bound holds); :func:`reference.sim.ex_post.check_expost`
turns many simulated runs into the Clopper–Pearson test of ``P[L > E] <= delta``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from reference.core.errata import Check, Kind, erratum
from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, pos_part
from reference.core.params import all_of, max_length, nonneg, nonneg_seq, real
from reference.results.boundaries.wrwr22 import ExPost

MAX_MECHANISMS = 10_000

_DEF_PARAMS = [real("loss", "1.2", "realised privacy loss L(A(x)) against a neighbour"),
               nonneg("bound", "1", "ex-post bound E(A(x)) at the same output")]


@result("WRWR22:Def2.2", title="Ex-post privacy: excess of the loss over the bound",
        kind="definition",
        statement=r"\mathbb P\big(\mathcal L(x,x')>\mathcal E(A(x))\big)\le\delta",
        params=_DEF_PARAMS,
        notes="Ligett et al. (2017). The event of the definition is 'excess > 0'.")
def expost_excess(ctx: Ctx, loss: MPF, bound: MPF) -> MPF:
    """``(L - E)^+``: by how much one realised loss exceeds its ex-post bound.

    WRWR22 Definition 2.2: ``A`` is ``(E, delta)``-ex-post private when this is positive
    with probability at most ``delta``, for all ``x ~ x'``.  Domain: any loss, ``bound >= 0``.

    >>> print(expost_excess(loss="1.2", bound=1), expost_excess(loss="0.5", bound=1))
    0.2 0.0
    """
    return pos_part(ctx, loss - bound)


@result("RSWR23:Def4.1", title="Ex-post privacy given public inputs: excess of the loss",
        kind="definition",
        statement=r"\Pr\big[\mathcal L(A(x;y))>\mathcal E(A(x;y);y)\big]\le\delta(y)"
                  r"\quad\forall y",
        params=_DEF_PARAMS,
        notes="As WRWR22 Def. 2.2, for every value y of the public (earlier) outcomes: the "
              "bound and delta may depend on y.")
def expost_excess_given(ctx: Ctx, loss: MPF, bound: MPF) -> MPF:
    """``(L - E(.; y))^+`` for RSWR23 Definition 4.1, the conditional form used by filters.

    Domain: any loss, ``bound >= 0``.

    >>> print(expost_excess_given(loss="-0.3", bound="0.1"))
    0.0
    """
    return expost_excess.core(ctx, loss, bound)


def _lengths(values: Mapping[str, Any], where: str) -> None:
    if len(values["expost"]) != len(values["deltas"]):
        raise DomainError("deltas", f"<{len(values['deltas'])} entries>",
                          f"must have as many entries as expost ({len(values['expost'])})",
                          where)


@result("RSWR23:Lem5.1", title="Basic composition of ex-post private mechanisms",
        kind="composition",
        statement=r"A_{1:m}\text{ is }\Big(\sum_{i=1}^m\mathcal E_i(A_i(\cdot);\cdot),"
                  r"\sum_{i=1}^m\delta_i\Big)\text{-ex-post private}",
        params=[nonneg_seq("expost", "0.5,0.25", "realised ex-post bounds E_i(A_i(x))"),
                nonneg_seq("deltas", "0.01,0.02", "fixed delta_i of the mechanisms")],
        precondition=all_of(_lengths, max_length("expost", MAX_MECHANISMS)),
        status="corrected", probabilistic=True,
        notes="Union bound. The proof concludes P[L >= sum E_i] <= sum delta_i from the "
              "hypothesis with '>' (erratum RSWR23:Lem5.1); the '>' form is implemented. Not "
              "improvable for general ex-post mechanisms (E_i = L_i).")
def compose_expost(ctx: Ctx, expost: list[MPF], deltas: list[MPF]) -> ExPost:
    """``(sum E_i, sum delta_i)``: the ex-post guarantee of ``m`` adaptively chosen rounds.

    RSWR23 Lemma 5.1 (the losses add, a union bound adds the deltas).  Domain: equally long
    sequences of nonnegative bounds and deltas, at most ``10^4`` rounds.

    Proof note.  If round ``i`` is ``(E_i, delta_i)``-ex-post private, ``P[L_i > E_i] <=
    delta_i`` given the past, hence unconditionally. The total loss is ``L = sum L_i`` and
    ``{L > sum E_i}`` lies in the union of the events ``{L_i > E_i}``, so a union bound
    gives ``P[L > sum E_i] <= sum delta_i``. The paper's proof concludes ``P[L >= sum
    E_i]`` from hypotheses with ``>``, which does not follow when all rounds sit on their
    bounds (erratum RSWR23:Lem5.1); the strict form is used throughout. Not improvable in
    general (take ``E_i = L_i``).

    >>> g = compose_expost(expost="0.5,0.25", deltas="0.01,0.02")
    >>> print(g.eps, g.delta)
    0.75 0.03
    """
    return ExPost(ctx.fsum(expost), ctx.fsum(deltas))


@erratum("RSWR23:Lem5.1", location="RSWR23 Lemma 5.1, proof", result="RSWR23:Lem5.1",
         printed="Pr[L_i >= E_i] <= delta_i, hence Pr[L_A >= sum E_i] <= sum delta_i",
         corrected="Pr[L_A > sum E_i] <= sum delta_i, from Pr[L_i > E_i] <= delta_i "
                   "(Def. 4.1); the two agree for continuous losses only",
         kind=Kind.FALSE_PROOF_STEP,
         consequence="none for continuous losses; for discrete ones the '>=' step fails "
                     "(randomised response with odds 3: P[L >= E] = 3/4 with delta = 0)")
def _lemma51_check() -> Check:
    # Randomised response with odds 3: P = (3/4, 1/4), Q = (1/4, 3/4), so L = +-log 3.  With
    # E = log 3 the event L > E is p/q > 3 and L >= E is p/q >= 3, decided on exact ratios.
    P, Q, odds = (Fraction(3, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(3, 4)), 3
    strict = sum((p for p, q in zip(P, Q, strict=True) if p / q > odds), Fraction(0))
    weak = sum((p for p, q in zip(P, Q, strict=True) if p / q >= odds), Fraction(0))
    delta = Fraction(0)
    return Check(strict <= delta < weak, f"randomised response with odds 3, E = log 3, "
                 f"delta = {delta}: P[L > E] = {strict} (the hypothesis holds) but "
                 f"P[L >= E] = {weak} > delta, so the "
                 "'>=' conclusion fails for m = 1")
