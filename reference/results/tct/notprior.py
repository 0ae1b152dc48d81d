"""NotPrior targets (CL23 Lemma 2.3, Lemmas C.1–C.3; catalog-004 §5).

A NotPrior target is "every outcome except a prior ``⊥``".  For an eps-DP algorithm it is a
``1/(e^eps + 1)``-target (also with ``(eps, delta)``), so a sequence of tests whose answers
mostly agree with their priors is charged only for the disagreements, at an overhead near 2
for small eps.  All formulas here were lost from the seed; they are the catalog's
reconstructions, checked against the exact oracle (:mod:`.oracle`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, expm1, to_ctx
from reference.core.params import Param, distribution, nonneg, unit_closed_open
from reference.results.tct.base import exact_result, label_note, require_pure_pair

_PROB = Param("pi0", "real", lo=Fraction(0), hi=Fraction(1), example="0.1",
              doc="P(outcome 1) on D^0")
_PROB1 = Param("pi1", "real", lo=Fraction(0), hi=Fraction(1), example="0.2",
               doc="P(outcome 1) on D^1")


def notprior_value(ctx: Ctx, eps: MPF) -> MPF:
    """``1 / (e^eps + 1)`` in context ``ctx`` (shared by the constructions built on it)."""
    return 1 / (ctx.exp(eps) + 1)


@result("CL23:Lem2.3", title="NotPrior target value q = 1/(e^eps + 1)", kind="bound",
        statement=r"\mathcal Y\text{ is a }\tfrac{1}{e^\varepsilon+1}\text{-target of an }"
                  r"\varepsilon\text{-DP }\mathcal M:\mathcal X\to\mathcal Y\cup\{\bot\}",
        params=[nonneg("eps", "1", "privacy parameter of the algorithm")],
        status="reconstructed", probabilistic=True,
        notes=label_note("reconstructed and numerically verified",
                         "Valid and tight: the oracle's minimum over eps-DP pairs, attained "
                         "at pi1 = e^eps pi0 with pi0 <= 1/(e^eps + 1)."))
def notprior_q(ctx: Ctx, eps: MPF) -> MPF:
    """The q of a NotPrior target of an eps-DP algorithm: ``1 / (e^eps + 1)``.

    CL23 Lemma 2.3 (catalog-004 §5, label *reconstructed and numerically verified*; the
    seed lost the value): every outcome except the prior ``⊥`` is a ``1/(e^eps+1)``-target.
    Tight: the pair ``P(not ⊥) = pi``, ``Q(not ⊥) = e^eps pi`` attains it.  Domain:
    ``eps >= 0``.

    The exact oracle on the tight pair ``pi = 1/8``, ``e^eps = 3`` gives ``1/4``:

    >>> from fractions import Fraction as F
    >>> from reference.results.tct.oracle import best_q
    >>> best_q([F(7, 8), F(1, 8)], [F(5, 8), F(3, 8)], [1], w=F(3)).q
    Fraction(1, 4)
    >>> import mpmath
    >>> print(notprior_q(eps=mpmath.log(3)))
    0.25
    >>> print(notprior_q(eps=1))  # 1/(e + 1), catalog-004 §5 table: 0.268941
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

    CL23 Lemma C.1 (catalog-004 §5, label *reconstructed and numerically verified*): the
    target is a ``1/(e^eps+1)``-target *with* ``(eps, delta)`` (Definition B.1).  Domain:
    ``eps >= 0``, ``delta in [0, 1)``.

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
              params=[_PROB, _PROB1, nonneg("eps", "1")], precondition=_binary_check,
              status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "The construction p, C = point mass on 0, B^b = (P_b - pC)/(1-p) "
                               "of the proof; optimal for binary pairs (equals the oracle)."))
def private_test_q(ctx: Ctx, pi0: Fraction, pi1: Fraction, eps: Fraction) -> MPF:
    """q of {1} for an eps-indistinguishable pair of tests, from Lemma C.3's construction.

    CL23 Lemma C.3 (catalog-004 §5, label *reconstructed and numerically verified*): with
    ``1 - p = (e^eps pi_max - pi_min)/(e^eps - 1)`` and ``C`` the point mass on 0,
    ``q = pi_min (e^eps - 1)/(e^eps pi_max - pi_min) >= 1/(e^eps + 1)``, equal when
    ``pi_max = e^eps pi_min``; 1 when ``pi0 = pi1``.  Domain: ``pi0, pi1 in [0, 1]`` with the
    two Bernoulli laws eps-indistinguishable, ``eps >= 0``.

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
                      nonneg("eps", "0.5")],
              precondition=_support_check, status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "C = point mass on ⊥, B^b proportional to P_b inside Y; equals "
                               "the oracle's best q of Y (pure case)."))
def notprior_pair_q(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], prior: int,
                    eps: Fraction) -> MPF:
    """q of "everything but ``prior``" for an eps-indistinguishable pair (Lemma C.2).

    CL23 Lemma C.2 (catalog-004 §5, label *reconstructed and numerically verified*): the
    Lemma C.3 construction with ``pi_b = 1 - P_b(prior)`` and ``C`` the point mass on the
    prior; at least ``1/(e^eps + 1)``.  Domain: laws of equal length, eps-indistinguishable,
    ``prior`` an index, ``eps >= 0``.

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
