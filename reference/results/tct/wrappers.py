"""The boundary wrapper (Algorithm 4; CL23 Lemmas 2.8, 2.9, E.1, E.2) and run-twice (F.1).

Algorithm 4 (rebuilt by this project, consistent with every surviving number): with
``pi~ = min(1/2, 1 - max_y P(y))`` return the boundary outcome ``⊤`` with probability
``pi~/(1 + pi~)`` and otherwise a sample of ``M(D)``.  The wrapper's privacy ``t(eps)`` and
the q of ``{⊤}`` were lost from the available text; the forms here are this project's, verified
against the exact oracle.
Lemma 2.8's printed ``t`` is an open question: the exact value for tests (E.1) is strictly
smaller than for algorithms with three or more outcomes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from reference.core.model import result
from reference.core.numeric import MPF, Ctx, exp, expm1, log1p
from reference.core.params import nonneg, positive
from reference.results.privacy_loss.rruv16 import ctx_max
from reference.results.tct.base import label_note

HALF = Fraction(1, 2)


class WrapperPrivacy(NamedTuple):
    """Privacy parameter ``t`` of a wrapped eps-DP algorithm."""

    t: MPF


class BoundaryTarget(NamedTuple):
    """``{⊤}`` is a ``q``-target of the wrapped algorithm, with privacy parameter ``t``."""

    q: MPF
    t: MPF


class RunTwiceTarget(NamedTuple):
    """``{y1 != y2}`` is a ``q``-target of run-twice, which is ``eps2 = 2 eps``-DP."""

    q: MPF
    eps2: MPF


# ---- the algorithms on finite output laws ----------------------------------------------

def boundary_probability(P: Sequence[Fraction]) -> Fraction:
    """``pi~/(1 + pi~)`` with ``pi~ = min(1/2, 1 - max P)``: the probability of ``⊤``."""
    pi = min(HALF, 1 - max(P))
    return pi / (1 + pi)


def boundary_wrap(P: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """Output law of Algorithm 4 applied to an algorithm with output law ``P``; ``⊤`` last.

    >>> from fractions import Fraction as F
    >>> boundary_wrap([F(9, 10), F(1, 10)])  # test: ⊤ and minority 1/11 each
    (Fraction(9, 11), Fraction(1, 11), Fraction(1, 11))
    >>> boundary_wrap([F(1, 3)] * 3)[-1]    # no dominant outcome: ⊤ at its cap 1/3
    Fraction(1, 3)
    """
    pi = min(HALF, 1 - max(P))
    return (*(p / (1 + pi) for p in P), pi / (1 + pi))


def run_twice(P: Sequence[Fraction]) -> tuple[tuple[Fraction, ...], list[int]]:
    """Law of two independent runs (outcome ``i n + j``) and the target ``{i != j}``.

    >>> from fractions import Fraction as F
    >>> run_twice([F(1, 2), F(1, 2)])
    ((Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)), [1, 2])
    """
    n = len(P)
    law = tuple(a * b for a, b in itertools.product(P, P))
    return law, [i * n + j for i in range(n) for j in range(n) if i != j]


# ---- registered results ----------------------------------------------------------------

def wrapper_test_t(ctx: Ctx, eps: MPF) -> MPF:
    """``max(eps, ln(3(2e^eps - 1)/(2e^eps + 1)))`` (shared by E.1 and E.2)."""
    return ctx_max(ctx, eps, wrapper_test_branch(ctx, eps))


def wrapper_test_branch(ctx: Ctx, eps: MPF) -> MPF:
    """``ln(3(2e^eps - 1)/(2e^eps + 1))``, the second term of :func:`wrapper_test_t`'s
    maximum (the relations trace it)."""
    grow = expm1(ctx, eps)  # 3(2w - 1)/(2w + 1) = 1 + 4(w - 1)/(2w + 1)
    return log1p(ctx, 4 * grow / (2 * grow + 3))


def general_wrapper_t(ctx: Ctx, eps: MPF) -> MPF:
    """``ln(3 e^{2 eps}/(2 e^eps + 1)) = 2 eps - ln((2 e^eps + 1)/3)`` (shared by 2.8, 2.9)."""
    return 2 * eps - log1p(ctx, 2 * expm1(ctx, eps) / 3)


def conservative_q(ctx: Ctx, eps: MPF, t: MPF) -> MPF:
    """``(e^t - 1) / (2 (e^{eps + t} - 1))``: the construction of the proof of E.2."""
    return expm1(ctx, t) / (2 * expm1(ctx, eps + t))


def exact_q(ctx: Ctx, eps: MPF, t: MPF) -> MPF:
    """``(e^t - 1) / (2 e^{t + eps} - e^t + e^eps - 2)``: the LP optimum for tests."""
    return expm1(ctx, t) / (2 * expm1(ctx, t + eps) - expm1(ctx, t) + expm1(ctx, eps))


@result("CL23:LemE.1", title="Privacy of a wrapped private test", kind="bound",
        statement=r"t_{\rm test}(\varepsilon)=\max\Big\{\varepsilon,\ \ln\frac{3(2e^\varepsilon-1)}"
                  r"{2e^\varepsilon+1}\Big\}",
        params=[nonneg("eps", "0.1", "privacy parameter of the test")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Exact supremum over binary tests; about 4 eps/3 for small eps, "
                         "equal to eps once e^eps >= 3/2. Valid for tests only (CL23:Lem2.8)."),
        balls=True)
def wrapped_test_privacy(ctx: Ctx, eps: MPF) -> WrapperPrivacy:
    """A boundary-wrapped eps-DP test is ``t_test(eps)``-DP (exact supremum).

    CL23 Lemma E.1 (label *reconstructed and numerically verified*; the
    printed closed form is *uncertain*): cases (3)–(7) of the proof give
    ``max(eps, ln(3(2e^eps - 1)/(2e^eps + 1)))``.  Binary outputs only: for three or more
    outcomes use CL23:Lem2.8.  Domain: ``eps >= 0``.

    Proof note.  For a test (two outcomes) ``pi~`` is the minority probability capped at
    1/2. The proof's cases (3)-(7) bound the ratio of each of the three wrapped outcomes
    (``⊤`` and the two answers) between neighbours; their maximum is ``max(e^eps, 3(2 e^eps
    - 1)/(2 e^eps + 1))``, attained in the limit of the extreme pairs, so it is the exact
    supremum over tests. For three or more outcomes ``1 + pi~`` moves further and Lemma 2.8
    applies.

    >>> print(wrapped_test_privacy(eps="0.1").t)  # closed form in floats: 0.123138
    0.123137695109468
    """
    return WrapperPrivacy(wrapper_test_t(ctx, eps))


@result("CL23:Lem2.8", title="Privacy of a wrapped algorithm (three or more outcomes)",
        kind="bound",
        statement=r"t(\varepsilon)=\ln\frac{3e^{2\varepsilon}}{2e^\varepsilon+1}\le\tfrac43"
                  r"\varepsilon",
        params=[nonneg("eps", "0.1", "privacy parameter of the algorithm")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Exact supremum over algorithms with >= 3 outcomes, strictly above "
                         "the test value CL23:LemE.1 for every eps > 0. Which form the paper "
                         "prints is an open question (erratum entry CL23:Q1-Lem2.8)."), balls=True)
def wrapped_privacy(ctx: Ctx, eps: MPF) -> WrapperPrivacy:
    """Algorithm 4 applied to any eps-DP algorithm is ``ln(3e^{2eps}/(2e^eps + 1))``-DP.

    CL23 Lemma 2.8 (label *reconstructed and numerically verified*): the
    non-⊤ probabilities are ``P(y)/(1 + pi~)`` and ``1 + pi~`` moves by at most
    ``3e^eps/(2e^eps + 1)``; the family ``P = (1-s-r, s, r)``, ``P' = (1/2 - e^-eps s,
    e^-eps s, 1/2)``, ``r = e^-eps/2``, ``s -> 0`` attains it.  At most ``4 eps/3``.
    Domain: ``eps >= 0``.

    Proof note.  Algorithm 4 returns ``⊤`` with probability ``pi~/(1 + pi~)`` and ``y``
    with probability ``P(y)/(1 + pi~)``, ``pi~ = min(1/2, 1 - max_y P(y))``. Between
    neighbours ``P(y)`` moves by ``e^eps`` and ``1 + pi~`` by at most ``3 e^eps/(2 e^eps +
    1)``, so every outcome's probability moves by at most ``3 e^{2 eps}/(2 e^eps + 1) =
    e^{t(eps)}``; the family in the next sentence attains it, so ``t(eps)`` is the supremum
    over algorithms with three or more outcomes. ``t <= 4 eps/3``: with ``w = e^eps``, ``3
    w^2/(2w + 1) <= w^{4/3}`` is ``w^{2/3} <= (w + w + 1)/3``, the AM-GM inequality. Which
    form the paper prints is open (erratum CL23:Q1-Lem2.8).

    >>> print(wrapped_privacy(eps=1).t)  # closed form in floats: 1.236617
    1.23661748460986
    """
    return WrapperPrivacy(general_wrapper_t(ctx, eps))


_Q_NOTE = "This project infers the conservative form from the surviving remnants (q ~ 2/7 " \
          "for small eps, overhead 7/6); the exact form is the LP optimum (4/13 as eps -> 0)."


@result("CL23:LemE.2-conservative", title="Boundary target of a wrapped test (conservative q)",
        kind="bound",
        statement=r"q=\frac{e^{t}-1}{2(e^{\varepsilon+t}-1)},\ t=t_{\rm test}(\varepsilon)",
        params=[positive("eps", "0.1")], status="reconstructed",
        notes=label_note("reconstructed and numerically verified", _Q_NOTE), balls=True)
def wrapped_test_target(ctx: Ctx, eps: MPF) -> BoundaryTarget:
    """``{⊤}`` of a wrapped eps-DP test is a ``(e^t-1)/(2(e^{eps+t}-1))``-target, ``t = t_test``.

    CL23 Lemma E.2 (label *reconstructed and numerically verified*): the
    proof's construction (``C`` = the majority outcome, ``B^b`` = all of ⊤ and of the
    minority outcome) with ``x_1 <= e^eps x_0``.  Valid, not tight.  Domain: ``eps > 0``.

    Proof note.  The proof's construction: ``C`` takes the majority answer (common to both
    neighbours up to the ``e^eps`` ratio) and ``B^b`` all of ``⊤`` and of the minority
    answer, with minority probabilities ``x_1 <= e^eps x_0``. The ``B^b`` are
    ``t``-indistinguishable for ``t = t_test(eps)`` (Lemma E.1) and both put mass at least
    ``(e^t - 1)/(2(e^{eps + t} - 1))`` on ``⊤`` relative to their total, which is the
    stated ``q``; valid, not tight (CL23:LemE.2-exact).

    >>> print(wrapped_test_target(eps="0.001").q)  # closed form in floats: 0.285469 (-> 2/7)
    0.285469...
    """
    t = wrapper_test_t(ctx, eps)
    return BoundaryTarget(conservative_q(ctx, eps, t), t)


@result("CL23:LemE.2-exact", title="Boundary target of a wrapped test (exact q)", kind="bound",
        statement=r"q^\star=\frac{e^{t}-1}{2e^{t+\varepsilon}-e^{t}+e^{\varepsilon}-2},\ "
                  r"t=t_{\rm test}(\varepsilon)",
        params=[positive("eps", "0.1")], status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Exact infimum over tests (approached as the minority probability "
                         "-> 0 with ratio e^eps); equals the conservative form when t = eps."),
        balls=True)
def wrapped_test_target_exact(ctx: Ctx, eps: MPF) -> BoundaryTarget:
    """Best q of ``{⊤}`` over all wrapped eps-DP tests, with ``t = t_test(eps)``.

    CL23 Lemma E.2, exact form (label *reconstructed and numerically
    verified*): the LP also puts ``x_0 (e^t - e^eps)/(e^t - 1)`` of the minority outcome in
    ``C``.  Tends to 4/13 as ``eps -> 0``.  Domain: ``eps > 0``.

    Proof note.  The linear program of Definition B.1 also puts ``x_0 (e^t - e^eps)/(e^t -
    1)`` of the minority answer into ``C``; solving it in closed form gives ``q* = (e^t -
    1)/(2 e^{t + eps} - e^t + e^eps - 2)``, the infimum over tests (approached as the
    minority probability tends to 0 with ratio ``e^eps``). It equals the conservative form
    when ``t = eps`` and tends to 4/13 as ``eps -> 0``; checked against the exact oracle.

    >>> print(wrapped_test_target_exact(eps="0.1").q)  # closed form in floats: 0.276388
    0.276388...
    """
    t = wrapper_test_t(ctx, eps)
    return BoundaryTarget(exact_q(ctx, eps, t), t)


@result("CL23:Lem2.9-conservative", title="Boundary target of a wrapped algorithm "
        "(conservative q)", kind="bound",
        statement=r"q=\frac{e^{t}-1}{2(e^{\varepsilon+t}-1)},\ t=\ln\frac{3e^{2\varepsilon}}"
                  r"{2e^\varepsilon+1}",
        params=[positive("eps", "0.1")], status="reconstructed",
        notes=label_note("reconstructed and numerically verified", _Q_NOTE), balls=True)
def wrapped_target(ctx: Ctx, eps: MPF) -> BoundaryTarget:
    """``{⊤}`` of a wrapped eps-DP algorithm: ``(e^t-1)/(2(e^{eps+t}-1))``-target, ``t = t(eps)``.

    CL23 Lemma 2.9 (label *reconstructed and numerically verified*) with
    the general wrapper privacy of CL23:Lem2.8.  About 2/7 for small eps.  Domain:
    ``eps > 0``.

    Proof note.  Lost from the text except remnants (``q`` about 2/7 for small ``eps``, an
    overhead near 7/6). Implemented: the construction of Lemma E.2's proof (``C`` the
    majority outcome, ``B^b`` all of ``⊤`` and of the other outcomes with the ``e^eps``
    ratio constraint) with the privacy ``t = t(eps)`` of Lemma 2.8 in place of ``t_test``;
    the construction uses only that the wrapped laws are ``t``-indistinguishable and that
    ``⊤`` has probability ``pi~/(1 + pi~)``. Valid, not tight (the LP optimum is
    CL23:Lem2.9-exact); checked against the exact q-target oracle on random pairs.

    >>> print(wrapped_target(eps="0.5").q)  # closed form in floats: 0.210842
    0.210841780423621
    """
    t = general_wrapper_t(ctx, eps)
    return BoundaryTarget(conservative_q(ctx, eps, t), t)


@result("CL23:Lem2.9-exact", title="Boundary target of a wrapped algorithm (LP form)",
        kind="bound",
        statement=r"q^\star=\frac{e^{t}-1}{2e^{t+\varepsilon}-e^{t}+e^{\varepsilon}-2},\ "
                  r"t=\ln\frac{3e^{2\varepsilon}}{2e^\varepsilon+1}",
        params=[positive("eps", "0.1")], status="reconstructed",
        notes=label_note("uncertain", "It was found and verified only by local search over "
                         "3- and 4-outcome pairs; the property tests hold it against the exact "
                         "oracle on random pairs. Use the conservative form where in doubt."),
        balls=True)
def wrapped_target_exact(ctx: Ctx, eps: MPF) -> BoundaryTarget:
    """The LP form ``q*(eps, t(eps))`` of the boundary target of a wrapped algorithm.

    CL23 Lemma 2.9, exact form (label *uncertain* beyond tests: found by
    local search; checked here against the oracle).  Domain: ``eps > 0``.

    Proof note.  The best ``q`` of ``{⊤}`` as the optimum of the q-target linear program
    (CL23:DefB.1) over the boundary family of Lemma 2.8, in closed form; found by local
    search over 3- and 4-outcome pairs and checked against the exact oracle on random pairs
    in the property tests. It exceeds the conservative form (CL23:Lem2.9-conservative),
    which remains the safe choice.

    >>> print(wrapped_target_exact(eps="0.5").q)  # closed form in floats: 0.223933
    0.223933...
    """
    t = general_wrapper_t(ctx, eps)
    return BoundaryTarget(exact_q(ctx, eps, t), t)


@result("CL23:LemF.1", title="Run twice: the target 'two different outcomes'", kind="bound",
        statement=r"\{y_1\ne y_2\}\text{ is a }\frac{e^\varepsilon+1}{e^\varepsilon+1+2e^"
                  r"{2\varepsilon}}\text{-target of the }2\varepsilon\text{-DP run-twice}",
        params=[positive("eps", "0.1")], status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "A valid bound for all eps > 0, derived from the proof outline with "
                         "explicit constants; the paper's printed q and its condition on eps "
                         "are uncertain (erratum entry CL23:Q3-LemF.1)."))
def run_twice_target(ctx: Ctx, eps: MPF) -> RunTwiceTarget:
    """Run an eps-DP M twice: ``{y1 != y2}`` is a ``q_F``-target w.r.t. ``2 eps``.

    CL23 Lemma F.1 (label *reconstructed and numerically verified* as a
    valid bound): the common part sits on the diagonal,
    ``c_i = (e^{2eps} min(p_i, q_i)^2 - max^2)/(e^{2eps} - 1)``, giving
    ``q_F = (e^eps + 1)/(e^eps + 1 + 2 e^{2 eps})``, which tends to 1/2.  Domain: ``eps > 0``.

    Proof note.  Running an eps-DP ``M`` twice is ``2 eps``-DP. For the target ``{y_1 !=
    y_2}`` the common part ``C`` can sit only on the diagonal ``y_1 = y_2``: at ``(i, i)``
    the largest mass common to both neighbours with ``e^{2 eps}``-bounded remainders is
    ``c_i = (e^{2 eps} min(p_i, q_i)^2 - max(p_i, q_i)^2)/(e^{2 eps} - 1)`` (clipped at 0).
    Bounding the remaining diagonal mass against the off-diagonal mass over all eps-DP
    pairs gives the target value ``q_F = (e^eps + 1)/(e^eps + 1 + 2 e^{2 eps})``, valid for
    every ``eps > 0`` and tending to 1/2; the paper's printed ``q`` and its condition on
    ``eps`` are not recovered (erratum CL23:Q3-LemF.1).

    >>> print(run_twice_target(eps=1).q)  # closed form in floats: 0.2010
    0.201027390699394
    """
    w = exp(ctx, eps)
    return RunTwiceTarget((w + 1) / (w + 1 + 2 * w * w), 2 * eps)
