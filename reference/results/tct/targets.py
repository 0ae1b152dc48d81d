"""Targets of finite pairs, registered: CL23 Def 2.1, Def B.1, Lemma A.1, Cor A.3, Lemma B.3.

CL23 is Cohen and Lyu (2023), *The target-charging technique for privacy analysis across
interactive computations*, arXiv:2302.11044; the available text lost every formula, so the
statements below were reconstructed by this project from its surviving prose.

Each result takes two output distributions ``P`` (on ``D^0``) and ``Q`` (on ``D^1``) over the
same outcomes ``0..n-1`` and, where it matters, a target ``T`` (outcome indices).  The
q-target values come from the exact oracle of :mod:`.oracle`; the mixture results
(A.1, A.3) are explicit formulas over the context, so they are certified directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from reference.core.errors import DomainError
from reference.core.fastballs import at_bits, ends_on_balls
from reference.core.numeric import (
    MPF,
    Ctx,
    Interval,
    ctx_min,
    endpoints,
    expm1,
    is_interval,
    to_ctx,
)
from reference.core.params import Param, distribution, unit_closed_open
from reference.results.privacy_loss.rruv16 import ctx_max
from reference.results.privacy_loss.rswr23 import hockey_stick_divergence
from reference.results.tct.base import (
    check_target,
    exact_eps,
    exact_result,
    fraction_to_ctx,
    label_note,
    ratio_bracket,
)
from reference.results.tct.oracle import ZERO, Optimum, best_q

#: Largest number of outcomes accepted by the oracle results (the exact LP grows as n^2).
MAX_OUTCOMES = 12


class TargetQ(NamedTuple):
    """Best ``q`` of a target, and the smallest ``delta`` at which the pair is indistinguishable."""

    q: MPF
    delta_min: MPF


class Mixture(NamedTuple):
    """Lemma A.1 / Cor A.3: ``P = (1-delta) N0 + e0``, ``Q = (1-delta) N1 + e1``."""

    N0: tuple[MPF, ...]
    N1: tuple[MPF, ...]
    e0: tuple[MPF, ...]
    e1: tuple[MPF, ...]


_PAIR = [distribution("P", "0.5,0.3,0.2", "output law on D^0"),
         distribution("Q", "0.4,0.35,0.25", "output law on the neighbour D^1")]
_TARGET = Param("T", "intseq", lo=Fraction(0), example="1,2",
                doc="target: outcome indices (0-based) of P and Q")


def _pair_check(values: Mapping[str, Any], where: str) -> None:
    n = len(values["P"])
    if len(values["Q"]) != n:
        raise DomainError("Q", values["Q"], f"must have as many entries as P ({n})", where)
    if n > MAX_OUTCOMES:
        raise DomainError("P", n, f"must have at most {MAX_OUTCOMES} outcomes (exact LP size)",
                          where)
    if "T" in values:
        check_target(values["T"], n, "T", where)


def _delta_min(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction) -> MPF:
    """The pair's smallest delta at ``eps`` (the larger hockey-stick divergence); in ``iv``
    the same formula enclosed on Arb's balls (``iv`` where they fail), at ``iv``'s bits."""
    def formula(c: Ctx) -> MPF:
        p = [to_ctx(c, x) for x in P]
        q = [to_ctx(c, x) for x in Q]
        e = to_ctx(c, eps)
        return ctx_max(c, hockey_stick_divergence(c, p, q, e), hockey_stick_divergence(c, q, p, e))

    if not is_interval(ctx):
        return formula(ctx)
    bits = ctx.prec

    def enclose(c: Ctx) -> Interval:
        with at_bits(c, bits):
            return endpoints(formula(c))

    out = ends_on_balls(enclose)
    return ctx.mpf((out.lo, out.hi))


def oracle_value(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], T: Sequence[int],
                 eps: Fraction, delta: Fraction) -> MPF:
    """Best q at ``e^eps``: the point at ``w_lo``, or the enclosure ``[q(w_lo), q(w_hi)]``."""
    lo, hi = ratio_bracket(eps)
    low: Optimum = best_q(P, Q, T, w=lo, delta=delta)
    if not is_interval(ctx):
        return to_ctx(ctx, low.q)
    high = low if hi == lo else best_q(P, Q, T, w=hi, delta=delta)
    return fraction_to_ctx(ctx, low.q, high.q)


@exact_result("CL23:Def2.1", title="Best q of a target (pure DP pair)", kind="definition",
              statement=r"q^\star=\max\{q:\ P=pC+(1-p)B^0,\ Q=pC+(1-p)B^1,\ B^0\approx_"
                        r"\varepsilon B^1,\ \min_bB^b(T)\ge q\}",
              params=[*_PAIR, _TARGET, exact_eps("0.5")], precondition=_pair_check,
              status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "Exact: closed form of the separable optimum, enclosed over "
                               "a rational bracket of e^eps. q = 0 when no q > 0 works."))
def target_q(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], T: Sequence[int],
             eps: Fraction) -> TargetQ:
    """Largest ``q`` with ``T`` a q-target of ``(P, Q)`` with privacy parameter ``eps``.

    CL23 Definition 2.1 for one pair of neighbouring outputs (label *reconstructed and
    numerically verified*).  With ``delta = 0`` the optimum separates:
    ``q* = min_b P_b(T) / (1 - sum_{y not in T} u_y)``, ``u_y = (e^eps min - max)/(e^eps - 1)``
    (see :mod:`reference.results.tct.oracle`).  ``q = 0`` when ``T`` is empty or the pair is not
    ``eps``-indistinguishable; ``delta_min`` is the smallest such delta (Lemma A.1).
    Domain: laws of equal length (at most 12 outcomes), ``T`` indices, ``eps >= 0``.

    Proof note.  What survives of CL23 Definition 2.1: for any pair of neighbouring
    datasets "there exist [p], and three distributions [C, B^0, B^1] such that" (1) the two
    output laws "can be written as the following mixtures" [lost], (2) "[B^0, B^1] are
    [eps]-indistinguishable", (3) [lost]; the roles of ``p``, ``C``, ``B^b`` and the ``min``
    are fixed by the proofs of Theorem B.4 and Lemma C.3.  Implemented: for one pair, the
    largest ``q`` with ``P = p C + (1-p) B^0``, ``Q = p C + (1-p) B^1``, ``B^0 ~_eps B^1``,
    ``min_b B^b(T) >= q``.  Derivation (``w = e^eps``): put ``c = p C`` and
    ``beta_b = (1-p) B^b = P_b - c >= 0``; the conditions are ``beta_0 <= w beta_1`` and
    ``beta_1 <= w beta_0`` pointwise, and ``q = min_b beta_b(T)/(1 - sum c)``.  (a) Common
    mass on ``T`` never helps: moving it into both ``beta_b`` adds the same amount to the
    numerator and denominator of a ratio ``<= 1`` and keeps the ratio constraints.  (b) Off
    ``T`` more common mass only lowers the denominator, and ``c_y`` is feasible iff
    ``c_y <= u_y = (w min(P_y, Q_y) - max(P_y, Q_y))/(w - 1)``; none is when an outcome's
    ratio exceeds ``w`` (then ``q = 0``).  So ``q* = min_b P_b(T)/(1 - sum_{y not in T}
    u_y)``.  The optimum is non-decreasing in ``w``, so its exact values at a rational
    bracket of ``e^eps`` enclose it.

    Randomized response ``RR_{ln 3}`` with target {1}: ``q = P(1)(3-1)/(3 Q(1) - P(1))``
    ``= (1/4)(2)/(9/4 - 1/4) = 1/4`` (by hand, from Lemma C.3's construction):

    >>> import mpmath
    >>> v = target_q(P="0.75,0.25", Q="0.25,0.75", T="1", eps=mpmath.log(3))
    >>> print(mpmath.nstr(v.q, 15))
    0.25
    """
    return TargetQ(oracle_value(ctx, P, Q, T, eps, ZERO), _delta_min(ctx, P, Q, eps))


@exact_result("CL23:DefB.1", title="Best q of a target with (eps, delta)", kind="definition",
              statement=r"q^\star=\max\{q:\ P_b=(1-\delta)(pC+(1-p)B^b)+\delta E^b,\ B^0"
                        r"\approx_\varepsilon B^1,\ \min_bB^b(T)\ge q\}",
              params=[*_PAIR, _TARGET, exact_eps("0.5"),
                      unit_closed_open("delta", "0.05", "failure weight delta", default="0")],
              precondition=_pair_check, status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "Exact LP (Charnes–Cooper, rational simplex) enclosed over a "
                               "rational bracket of e^eps; at most 12 outcomes."))
def target_q_approx(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], T: Sequence[int],
                    eps: Fraction, delta: Fraction) -> TargetQ:
    """Largest ``q`` with ``T`` a q-target of ``(P, Q)`` with ``(eps, delta)``.

    CL23 Definition B.1 (label *reconstructed and numerically verified*): the
    linear-fractional program over the decomposition
    ``P_b = (1-delta)(p C + (1-p) B^b) + delta E^b`` solved exactly.  ``delta = 0`` is
    Definition 2.1.  Domain: laws of equal length (at most 12), ``T`` indices,
    ``eps >= 0``, ``delta in [0, 1)``.

    Proof note.  What survives of CL23 Definition B.1 is its "five distributions ... (for
    [b in {0, 1}])" and the use of ``p``, ``C``, ``B^b``, ``E^b`` in the simulator of
    Theorem B.4 (a biased coin designates the ``delta`` branch a failure, a second one
    samples ``C``); the display is lost.  Implemented: the largest ``q`` with
    ``P_b = (1-delta)(p C + (1-p) B^b) + delta E^b``, ``B^0 ~_eps B^1``,
    ``min_b B^b(T) >= q``.  Derivation (``w = e^eps``): with unnormalised
    ``c = (1-delta) p C``, ``e_b = delta E^b`` and ``beta_b = P_b - e_b - c``, the feasible
    parts form the polytope ``c, e_b, beta_b >= 0``, ``sum e_b = delta``,
    ``beta_0 <= w beta_1 <= w^2 beta_0``, and since ``sum beta_b = (1-delta)(1-p)`` the
    objective is ``min_b beta_b(T)/(1 - delta - sum c)``.  The Charnes–Cooper substitution
    ``z = 1/(1 - delta - sum c)`` (variables ``c z``, ``e_b z``) makes maximising this
    common-denominator ratio a linear program, solved exactly in rationals (:mod:`.lp`).
    ``p = 1`` is feasible iff ``sum min(P_0, P_1) >= 1 - delta`` and then every non-empty
    ``T`` is a 1-target.  The enclosure over a rational bracket of ``e^eps`` is as in
    CL23:Def2.1 (a larger ``w`` only relaxes the constraints).

    A failure weight of 1/4 absorbs the whole difference of the pair below (total
    variation 1/4), so ``p = 1`` and every non-empty target is a 1-target:

    >>> v = target_q_approx(P="0.5,0.5", Q="0.25,0.75", T="0", eps=0, delta="0.25")
    >>> print(v.q, v.delta_min)
    1.0 0.25
    """
    return TargetQ(oracle_value(ctx, P, Q, T, eps, delta), _delta_min(ctx, P, Q, eps))


@exact_result("CL23:LemA.1", title="Mixture characterisation of (eps, delta)-indistinguishability",
              kind="definition",
              statement=r"P\approx_{\varepsilon,\delta}Q\iff P=(1-\delta)P'+\delta E_P,\ Q=(1-"
                        r"\delta)Q'+\delta E_Q,\ P'\approx_\varepsilon Q'",
              params=[*_PAIR, exact_eps("0.5"),
                      unit_closed_open("delta", "0.05", "failure weight delta")],
              precondition=_pair_check, status="reconstructed",
              notes=label_note("reconstructed and numerically verified",
                               "Explicit mixture: N0 = m + l0 (min(P, e^eps Q) - m) with "
                               "m = min(P, Q), scaled to mass 1 - delta."))
def mixture(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction,
            delta: Fraction) -> Mixture:
    """An explicit Lemma A.1 mixture: ``P = (1-delta) N0 + e0``, ``Q = (1-delta) N1 + e1``.

    CL23 Lemma A.1 (label *reconstructed and numerically verified*), the
    "only if" direction made explicit: with ``m = min(P, Q)``, ``a = min(P, e^eps Q)``,
    ``b = min(Q, e^eps P)``, take ``(1-delta) N0 = m + l_a (a - m)`` with ``l_a`` fixing the
    mass at ``1 - delta`` (and ``N0 = N1`` proportional to ``m`` when ``sum m >= 1 - delta``);
    then ``N0 ~_eps N1`` and ``e_b >= 0`` of mass ``delta``.  Exists iff ``delta >=
    delta_min`` (the larger hockey-stick divergence), else DomainError.  Domain: laws of
    equal length, ``eps >= 0``, ``delta in [0, 1)``.

    Proof note.  The surviving statement: "Let [P, Q] be two distributions. Then
    [P ~_{eps, delta} Q] if and only if we can express them as mixtures [lost] where
    [lost]."  Implemented: the "only if" mixture, explicitly, existing iff ``delta`` is at
    least ``delta_min = max(sum (P - wQ)_+, sum (Q - wP)_+)`` (``w = e^eps``).  If: from the
    mixtures, ``P(S) <= (1-delta) P'(S) + delta <= (1-delta) w Q'(S) + delta <=
    w Q(S) + delta``, and symmetrically.  Only if: with ``m, a, b`` as above,
    ``n_0 = m + l_a (a - m)`` and ``n_1 = m + l_b (b - m)``; ``sum a = 1 - sum (P - wQ)_+ >=
    1 - delta`` (likewise ``sum b``), so ``l_a``, ``l_b`` in ``[0, 1]`` giving both masses
    ``1 - delta`` exist when ``sum m < 1 - delta``.  Pointwise, where ``P_y <= Q_y``:
    ``a_y = m_y = P_y``, so ``n_0 = P_y`` and ``P_y <= n_1 <= b_y <= w P_y``; where
    ``P_y > Q_y`` symmetrically.  Hence ``n_0 <= w n_1``, ``n_1 <= w n_0``, i.e.
    ``N0 ~_eps N1`` after dividing by ``1 - delta``, and ``e_0 = P - n_0 >= 0``
    (``n_0 <= a <= P``), ``e_1 = Q - n_1 >= 0``, each of mass ``delta``.  When
    ``sum m >= 1 - delta``, ``N0 = N1`` proportional to ``m``.

    >>> v = mixture(P="0.5,0.5", Q="0.25,0.75", eps=0, delta="0.25")  # TV = 1/4
    >>> [str(x) for x in v.N0], [str(x) for x in v.e0]
    (['0.333333333333333', '0.666666666666667'], ['0.25', '0.0'])
    """
    return explicit_mixture(ctx, P, Q, eps, delta, "CL23:LemA.1")


def explicit_mixture(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction,
                     delta: Fraction, where: str) -> Mixture:
    """The mixture of :func:`mixture`; DomainError (naming ``where``) below ``delta_min``."""
    keep = 1 - delta
    lo, hi = ratio_bracket(eps)
    need = max(_hs(P, Q, lo), _hs(Q, P, lo))
    if delta < need:
        shown = f"{float(delta):g}"
        if delta < max(_hs(P, Q, hi), _hs(Q, P, hi)):
            raise DomainError("delta", shown, "must be at least the pair's smallest delta at "
                              "eps (Lemma A.1: no mixture exists below it)", where)
        raise DomainError("delta", shown, "is within the working precision of the pair's "
                          "smallest delta; raise reference.precision", where)
    m = [min(a, b) for a, b in zip(P, Q, strict=True)]
    mass = sum(m, ZERO)
    if mass >= keep:
        n = [x * keep / mass for x in m]
        common = [to_ctx(ctx, x) for x in n]
        parts0 = (common, [to_ctx(ctx, p - x) for p, x in zip(P, n, strict=True)])
        parts1 = (common, [to_ctx(ctx, q - x) for q, x in zip(Q, n, strict=True)])
    else:
        g = expm1(ctx, to_ctx(ctx, eps))
        parts0 = _lower(ctx, P, Q, g, keep - mass)
        parts1 = _lower(ctx, Q, P, g, keep - mass)
    scale = to_ctx(ctx, keep)
    return Mixture(tuple(x / scale for x in parts0[0]), tuple(x / scale for x in parts1[0]),
                   tuple(parts0[1]), tuple(parts1[1]))


def _hs(P: Sequence[Fraction], Q: Sequence[Fraction], w: Fraction) -> Fraction:
    return sum((max(ZERO, p - w * q) for p, q in zip(P, Q, strict=True)), ZERO)


def _lower(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], g: MPF,
           short: Fraction) -> tuple[list[MPF], list[MPF]]:
    """``n = m + l (min(P, w Q) - m)`` of total mass ``keep``, and ``e = P - n``.

    Written without cancellation: where ``d = P - Q > 0``, ``min(P, w Q) - m =
    min(d, (w - 1) Q)`` with ``d`` exact and ``w - 1 = expm1(eps)`` (``g``); elsewhere it is
    0.  ``short = keep - sum m > 0`` is exact, and so is each ``e = d_+ - l t``'s ``d_+``.
    """
    d = [p - q for p, q in zip(P, Q, strict=True)]
    t = [ctx_min(ctx, to_ctx(ctx, x), g * to_ctx(ctx, q)) if x > 0 else ctx.zero
         for x, q in zip(d, Q, strict=True)]
    lam = to_ctx(ctx, short) / ctx.fsum(t)
    n = [to_ctx(ctx, min(p, q)) + lam * y for p, q, y in zip(P, Q, t, strict=True)]
    e = [to_ctx(ctx, max(x, ZERO)) - lam * y for x, y in zip(d, t, strict=True)]
    return n, e


@exact_result("CL23:CorA.3", title="Decomposition of an approximate-DP algorithm's outputs",
              kind="definition",
              statement=r"\mathcal M\ (\varepsilon,\delta)\text{-DP}\iff\mathcal M(D^b)=(1-\delta)"
                        r"N^b+\delta E^b,\ N^0\approx_\varepsilon N^1",
              params=[*_PAIR, exact_eps("0.5"),
                      unit_closed_open("delta", "0.05", "the algorithm's delta")],
              precondition=_pair_check, status="reconstructed",
              notes=label_note("reconstructed and numerically verified", "Immediate from "
                               "CL23:LemA.1, whose explicit mixture it returns."))
def algorithm_decomposition(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction],
                            eps: Fraction, delta: Fraction) -> Mixture:
    """Cor A.3: an (eps, delta)-DP algorithm's outputs on neighbours split as Lemma A.1.

    CL23 Corollary A.3 (label *reconstructed and numerically verified*):
    applied to ``M(D^0), M(D^1)`` the explicit mixture of :func:`mixture` gives pure parts
    ``N^0 ~_eps N^1`` and failure parts of weight ``delta``, the split Theorem B.4's simulator
    designates as failure.  Domain as in CL23:LemA.1.

    Proof note.  The surviving statement: "An algorithm is [(eps, delta)]-DP if and only if
    for any two neighboring datasets [D^0, D^1] we can represent each distribution [M(D^b)]
    ([b in {0, 1}]) as a mixture [lost] where [lost]", introduced as "immediate from Lemma
    A.1".  Implemented: ``M(D^b) = (1-delta) N^b + delta E^b`` with ``N^0 ~_eps N^1``, the
    explicit mixture of CL23:LemA.1 for the pair ``(M(D^0), M(D^1))``.  Derivation: ``M``
    is (eps, delta)-DP iff ``M(D^0) ~_{eps, delta} M(D^1)`` for every pair of neighbours (the
    definition), and Lemma A.1 turns each such pair into this mixture and back.

    >>> v = algorithm_decomposition(P="0.75,0.25", Q="0.25,0.75", eps=0, delta="0.5")
    >>> [str(x) for x in v.N0 + v.N1]
    ['0.5', '0.5', '0.5', '0.5']
    """
    return explicit_mixture(ctx, P, Q, eps, delta, "CL23:CorA.3")


@exact_result("CL23:LemB.3", title="A q-target exists iff the pair is indistinguishable",
              kind="definition",
              statement=r"\exists\,q\text{-target with }(\varepsilon,\delta)\iff P\approx_"
                        r"{\varepsilon,\delta}Q;\ \text{then the full support is a 1-target}",
              params=[*_PAIR, exact_eps("0.5"),
                      unit_closed_open("delta", "0", "failure weight delta", default="0")],
              precondition=_pair_check, status="stated",
              notes=label_note("recovered", "Surviving text of (ii): 'if an algorithm is "
                               "-DP then it has a 1-target (the set ) with .' The value is "
                               "the oracle's best q of the full support: 1 or 0."))
def full_support_q(ctx: Ctx, P: Sequence[Fraction], Q: Sequence[Fraction], eps: Fraction,
                   delta: Fraction) -> MPF:
    """Best q of the full support: 1 if ``P ~_{eps, delta} Q``, else 0 (no target exists).

    CL23 Lemma B.3 (label *recovered from surviving text*): a pair with any
    q-target with ``(eps, delta)`` is ``(eps, delta)``-indistinguishable, and an
    indistinguishable pair has the full support as a 1-target.  Computed by the exact
    oracle, so it also checks Lemma A.1's threshold ``delta_min``.  Domain as CL23:DefB.1.

    >>> print(full_support_q(P="0.5,0.5", Q="0.25,0.75", eps=0, delta="0.25"),
    ...       full_support_q(P="0.5,0.5", Q="0.25,0.75", eps=0, delta="0.24"))
    1.0 0.0
    """
    return oracle_value(ctx, P, Q, range(len(P)), eps, delta)
