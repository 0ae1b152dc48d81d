"""NotPrior targets (CL23 Lemma 2.3, Lemmas C.1–C.3 of Appendix C).

CL23 is Cohen and Lyu (2023), *The target-charging technique for privacy analysis across
interactive computations*, arXiv:2302.11044.

A NotPrior target is "every outcome except a prior ``⊥``".  For an eps-DP algorithm it is a
``1/(e^eps + 1)``-target (also with ``(eps, delta)``), so a sequence of tests whose answers
mostly agree with their priors is charged only for the disagreements, at an overhead near 2
for small eps.  The available text of CL23 lost all formulas here; they were
reconstructed by this project from the proofs' prose and checked against the exact oracle
(:mod:`.oracle`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, exp, expm1, to_ctx
from reference.core.params import Param, distribution, nonneg, unit_closed_open
from reference.results.tct.base import exact_eps, exact_result, label_note, require_pure_pair

_PROB = Param("pi0", "real", lo=Fraction(0), hi=Fraction(1), example="0.1",
              doc="P(outcome 1) on D^0")
_PROB1 = Param("pi1", "real", lo=Fraction(0), hi=Fraction(1), example="0.2",
               doc="P(outcome 1) on D^1")


def notprior_value(ctx: Ctx, eps: MPF) -> MPF:
    """``1 / (e^eps + 1)`` in context ``ctx`` (shared by the constructions built on it)."""
    return 1 / (exp(ctx, eps) + 1)


@result("CL23:Lem2.3", title="NotPrior target value q = 1/(e^eps + 1)", kind="bound",
        statement=r"\mathcal Y\text{ is a }\tfrac{1}{e^\varepsilon+1}\text{-target of an }"
                  r"\varepsilon\text{-DP }\mathcal M:\mathcal X\to\mathcal Y\cup\{\bot\}",
        params=[nonneg("eps", "1", "privacy parameter of the algorithm")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Valid and tight: the oracle's minimum over eps-DP pairs, attained "
                         "at pi1 = e^eps pi0 with pi0 <= 1/(e^eps + 1)."))
def notprior_q(ctx: Ctx, eps: MPF) -> MPF:
    """The q of a NotPrior target of an eps-DP algorithm: ``1 / (e^eps + 1)``.

    CL23 Lemma 2.3 (label *reconstructed and numerically verified*; the available text lost
    the value): every outcome except the prior ``⊥`` is a ``1/(e^eps+1)``-target.
    Tight: the pair ``P(not ⊥) = pi``, ``Q(not ⊥) = e^eps pi`` attains it.  Domain:
    ``eps >= 0``.

    Proof note.  The surviving statement: "Let [M : X -> Y ∪ {⊥}], where [⊥ ∉ Y], be an
    [eps]-DP algorithm. Then the set of outcomes [Y] constitutes an [lost]-target", with
    the remark that for small eps the value approaches [1/2], so "the overhead factor is
    close to [2]"; the paper proves it as the case ``delta = 0`` of Lemma C.1.
    Implemented: ``q = 1/(e^eps + 1)``.  Derivation: for neighbours ``D^0, D^1`` the laws
    ``M(D^0) ~_eps M(D^1)`` are eps-indistinguishable, so Lemma C.2 (CL23:LemC.2) gives
    ``Y`` as a ``q``-target of the pair with ``q >= 1/(e^eps + 1)``; this holds for every
    pair of neighbours, which is Definition 2.1.  Tight: with ``w = e^eps``,
    ``pi_min <= 1/(w+1)`` and ``pi_max = w pi_min`` the two laws are eps-indistinguishable
    (``1 - w pi_min >= (1 - pi_min)/w`` iff ``pi_min <= 1/(w+1)``) and the construction,
    optimal for such pairs (CL23:LemC.3), gives exactly ``1/(w+1)``.

    The exact oracle on the tight pair ``pi = 1/8``, ``e^eps = 3`` gives ``1/4``:

    >>> from fractions import Fraction as F
    >>> from reference.results.tct.oracle import best_q
    >>> best_q([F(7, 8), F(1, 8)], [F(5, 8), F(3, 8)], [1], w=F(3)).q
    Fraction(1, 4)
    >>> import mpmath
    >>> print(notprior_q(eps=mpmath.log(3)))
    0.25
    >>> print(notprior_q(eps=1))  # 1/(e + 1)
    0.268941421369995
    """
    return notprior_value(ctx, eps)


@result("CL23:LemC.1", title="NotPrior target with (eps, delta)", kind="bound",
        statement=r"\mathcal Y\text{ is a }\tfrac{1}{e^\varepsilon+1}\text{-target with }"
                  r"(\varepsilon,\delta)\text{ of an }(\varepsilon,\delta)\text{-DP }\mathcal M",
        params=[nonneg("eps", "1"), unit_closed_open("delta", "0.01", "the algorithm's delta")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Proof: Cor A.3 splits off the delta part, then Lemma C.2 applies to "
                         "the pure parts; q does not depend on delta."))
def notprior_q_approx(ctx: Ctx, eps: MPF, delta: MPF) -> MPF:
    """NotPrior q of an ``(eps, delta)``-DP algorithm: ``1 / (e^eps + 1)``, whatever delta.

    CL23 Lemma C.1 (label *reconstructed and numerically verified*): the
    target is a ``1/(e^eps+1)``-target *with* ``(eps, delta)`` (Definition B.1).  Domain:
    ``eps >= 0``, ``delta in [0, 1)``.

    Proof note.  The surviving statement: "Let [M], where [⊥ ∉ Y], be an [(eps,
    delta)]-DP algorithm. Then the set of outcomes [Y] constitutes an [lost]-target with
    [(eps, delta)]"; the values are lost.  Implemented: ``q = 1/(e^eps + 1)`` whatever
    ``delta``.  Derivation: by Corollary A.3 (CL23:CorA.3), for neighbours ``D^0, D^1``,
    ``M(D^b) = (1-delta) N^b + delta E^b`` with ``N^0 ~_eps N^1``.  Lemma C.2
    (CL23:LemC.2) applied to the pure pair ``(N^0, N^1)`` gives
    ``N^b = p C + (1-p) B^b`` with ``B^0 ~_eps B^1`` and ``min_b B^b(Y) >= 1/(e^eps+1)``.
    Substituting, ``M(D^b) = (1-delta)(p C + (1-p) B^b) + delta E^b``: the decomposition of
    Definition B.1 with the same ``q``.  ``delta = 0`` is Lemma 2.3 (CL23:Lem2.3).

    A pair at the boundary of ``(ln 3, 1/10)``-indistinguishability, checked by the
    oracle: ``P = (1/10, 27/40, 9/40)``, ``Q = (0, 3/8, 5/8)``, prior outcome 1:

    >>> from fractions import Fraction as F
    >>> from reference.results.tct.oracle import best_q
    >>> best_q([F(1, 10), F(27, 40), F(9, 40)], [F(0), F(3, 8), F(5, 8)], [0, 2],
    ...        w=F(3), delta=F(1, 10)).q >= F(1, 4)
    True
    >>> import mpmath
    >>> print(notprior_q_approx(eps=mpmath.log(3), delta="0.1"))
    0.25
    """
    return notprior_value(ctx, eps)


def construction_q(ctx: Ctx, pi0: Fraction, pi1: Fraction, eps: Fraction) -> MPF:
    """Lemma C.3's q: ``pi_min (w - 1) / (w pi_max - pi_min)``, or 1 when ``pi0 = pi1``."""
    if pi0 == pi1:
        return ctx.one
    lo, hi = to_ctx(ctx, min(pi0, pi1)), to_ctx(ctx, max(pi0, pi1))
    grow = expm1(ctx, to_ctx(ctx, eps))
    return lo * grow / (hi * grow + (hi - lo))


def _binary_check(values: Mapping[str, Any], where: str) -> None:
    p0, p1 = values["pi0"], values["pi1"]
    require_pure_pair([1 - p0, p0], [1 - p1, p1], values["eps"], "pi1", where)


@exact_result("CL23:LemC.3", title="Target {1} of a private test: the construction's q",
              kind="bound",
              statement=r"q=\frac{\pi_{\min}(e^\varepsilon-1)}{e^\varepsilon\pi_{\max}-\pi_{\min}}"
                        r"\ \ge\ \frac1{e^\varepsilon+1}",
              params=[_PROB, _PROB1, exact_eps("1")], precondition=_binary_check,
              status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "The construction p, C = point mass on 0, B^b = (P_b - pC)/(1-p) "
                               "of the proof; optimal for binary pairs (equals the oracle)."))
def private_test_q(ctx: Ctx, pi0: Fraction, pi1: Fraction, eps: Fraction) -> MPF:
    """q of {1} for an eps-indistinguishable pair of tests, from Lemma C.3's construction.

    CL23 Lemma C.3 (label *reconstructed and numerically verified*): with
    ``1 - p = (e^eps pi_max - pi_min)/(e^eps - 1)`` and ``C`` the point mass on 0,
    ``q = pi_min (e^eps - 1)/(e^eps pi_max - pi_min) >= 1/(e^eps + 1)``, equal when
    ``pi_max = e^eps pi_min``; 1 when ``pi0 = pi1``.  Domain: ``pi0, pi1 in [0, 1]`` with the
    two Bernoulli laws eps-indistinguishable, ``eps >= 0``.

    Proof note.  The proof of CL23 Lemma C.3 survives in outline ("Definition B.1 is
    satisfied with" a choice of ``p``, ``C`` = point mass on 0 and ``B^b``; the inequalities
    "are tight when" ... and "our selected [p] is the largest possible"); every formula is
    lost.  Implemented, with ``w = e^eps > 1`` and ``pi_0 = pi_min <= pi_1 = pi_max`` the
    probabilities of outcome 1: ``1 - p = (w pi_1 - pi_0)/(w - 1)``, ``C`` = point mass on 0,
    ``B^b = (P_b - p C)/(1 - p)``.  Checks: ``0 <= 1 - p <= 1`` because ``pi_1 >= pi_0`` and
    ``1 - pi_0 <= w (1 - pi_1)``; ``B^b(1) = pi_b/(1-p)``, and
    ``(1-p) B^1(0) = (pi_1 - pi_0)/(w-1)``, ``(1-p) B^0(0) = w (pi_1 - pi_0)/(w-1)`` are
    non-negative.  So ``B^0(0)/B^1(0) = w`` and ``B^1(1)/B^0(1) = pi_1/pi_0 <= w``:
    ``B^0 ~_eps B^1``.  Then ``q = min_b B^b(1) = pi_0 (w-1)/(w pi_1 - pi_0)``, and
    ``pi_1 <= w pi_0`` gives ``q >= (w-1)/(w^2-1) = 1/(w+1)``.  If ``pi_0 = pi_1``, take
    ``p = 0`` and ``B^b = P_b``: ``q = 1``.

    Checked against the exact oracle (``e^eps = 2``, ``pi = 1/10, 3/20``):

    >>> from fractions import Fraction as F
    >>> from reference.results.tct.oracle import best_q
    >>> best_q([F(9, 10), F(1, 10)], [F(17, 20), F(3, 20)], [1], w=F(2)).q
    Fraction(1, 2)
    >>> import mpmath
    >>> print(private_test_q(pi0="0.1", pi1="0.15", eps=mpmath.log(2)))
    0.5
    """
    return construction_q(ctx, pi0, pi1, eps)


def _support_check(values: Mapping[str, Any], where: str) -> None:
    P, Q, prior = values["P"], values["Q"], values["prior"]
    if len(Q) != len(P):
        raise DomainError("Q", values["Q"], f"must have as many entries as P ({len(P)})", where)
    if prior >= len(P):
        raise DomainError("prior", prior, f"must be an outcome index in [0, {len(P)})", where)
    require_pure_pair(P, Q, values["eps"], "Q", where)


@exact_result("CL23:LemC.2", title="NotPrior target of a pair: the construction's q",
              kind="bound",
              statement=r"\mathcal Y=\text{support}\setminus\{\bot\}\text{ is a }q\text{-target}"
                        r",\ q=\frac{\pi_{\min}(e^\varepsilon-1)}"
                        r"{e^\varepsilon\pi_{\max}-\pi_{\min}},\ \pi_b=P_b(\mathcal Y)",
              params=[distribution("P", "0.6,0.3,0.1", "output law on D^0"),
                      distribution("Q", "0.5,0.35,0.15", "output law on D^1"),
                      Param("prior", "int", lo=Fraction(0), example="0",
                            doc="index of the prior outcome ⊥"),
                      exact_eps("0.5")],
              precondition=_support_check, status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "C = point mass on ⊥, B^b proportional to P_b inside Y; equals "
                               "the oracle's best q of Y (pure case)."))
def notprior_pair_q(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], prior: int,
                    eps: Fraction) -> MPF:
    """q of "everything but ``prior``" for an eps-indistinguishable pair (Lemma C.2).

    CL23 Lemma C.2 (label *reconstructed and numerically verified*): the
    Lemma C.3 construction with ``pi_b = 1 - P_b(prior)`` and ``C`` the point mass on the
    prior; at least ``1/(e^eps + 1)``.  Domain: laws of equal length, eps-indistinguishable,
    ``prior`` an index, ``eps >= 0``.

    Proof note.  The surviving proof says it "is very similar to that of Lemma C.3":
    ``C`` is the point mass on ``⊥`` and ``B^b`` is ``⊥`` with some probability and
    otherwise ``P_b`` "conditioned on the outcome being in" ``Y``; the formulas are lost.
    Implemented: the construction of CL23:LemC.3 on ``pi_b = P_b(Y) = 1 - P_b(⊥)``, i.e.
    ``1 - p = (w pi_max - pi_min)/(w - 1)`` (``w = e^eps``), ``B^b(⊥)`` as ``B^b(0)`` there,
    and ``B^b(y) = P_b(y)/(1-p)`` for ``y`` in ``Y``.  Checks: the masses of ``⊥`` and of
    ``Y`` are those of the binary proof (``P_0(⊥) <= w P_1(⊥)`` and
    ``P_0(Y) <= w P_1(Y)`` hold because the pair is eps-indistinguishable), so
    ``B^0(⊥)/B^1(⊥) = w`` and ``B^b(Y) = pi_b/(1-p)``; inside ``Y`` the ratios
    ``B^0(y)/B^1(y) = P_0(y)/P_1(y)`` are within ``e^{±eps}``.  Hence ``B^0 ~_eps B^1`` and
    ``q = min_b B^b(Y) = pi_min (w-1)/(w pi_max - pi_min) >= 1/(w+1)`` as in Lemma C.3.

    The oracle's best q of {1, 2} for the pair below (``e^eps = 2``) is the same 1/2:

    >>> from fractions import Fraction as F
    >>> from reference.results.tct.oracle import best_q
    >>> best_q([F(9, 10), F(1, 20), F(1, 20)], [F(17, 20), F(2, 25), F(7, 100)], [1, 2],
    ...        w=F(2)).q
    Fraction(1, 2)
    >>> import mpmath
    >>> print(notprior_pair_q(P="0.9,0.05,0.05", Q="0.85,0.08,0.07", prior=0,
    ...                       eps=mpmath.log(2)))
    0.5
    """
    return construction_q(ctx, 1 - P[prior], 1 - Q[prior], eps)
