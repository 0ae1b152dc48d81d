"""Conditional release, revisions and BetweenThresholds (CL23 Lemmas 2.4, 2.5, D.1, D.2, G.1).

``ConditionalRelease(M, T)`` publishes ``y ~ M(D)`` when ``y in T`` and ``⊥`` otherwise;
``ReviseCR`` later extends the target of a stored computation (Algorithm 2, rebuilt by
this project).  The finite helpers :func:`bottom_replace` (``P^{[T]}``) and
:func:`condition` (``P|_T``) are the two operations of Appendix D.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, NamedTuple, TypeVar

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, expm1
from reference.core.params import nonneg, positive, unit_closed_open
from reference.results.tct.base import label_note
from reference.results.tct.notprior import notprior_value

Y = TypeVar("Y")


class CallSpec(NamedTuple):
    """How a call enters TCT: its privacy parameters and the q of its target."""

    eps: MPF
    delta: MPF
    q: MPF


class Indistinguishability(NamedTuple):
    """``(eps, delta)``-indistinguishability parameters."""

    eps: MPF
    delta: MPF


# ---- finite operations of Appendix D ---------------------------------------------------

def bottom_replace(P: Sequence[Fraction], target: Sequence[int]) -> tuple[Fraction, ...]:
    """``P^{[T]}``: outcomes in ``T`` kept, the rest merged into ``⊥`` (appended last).

    >>> from fractions import Fraction as F
    >>> bottom_replace([F(1, 2), F(1, 4), F(1, 4)], [1])
    (Fraction(0, 1), Fraction(1, 4), Fraction(0, 1), Fraction(3, 4))
    """
    T = set(target)
    kept = tuple(p if y in T else Fraction(0) for y, p in enumerate(P))
    return (*kept, sum((p for y, p in enumerate(P) if y not in T), Fraction(0)))


def condition(P: Sequence[Fraction], target: Sequence[int]) -> tuple[Fraction, ...]:
    """``P|_T``: ``P`` conditioned on ``T`` (zero outside ``T``); needs ``P(T) > 0``.

    >>> from fractions import Fraction as F
    >>> condition([F(1, 2), F(1, 4), F(1, 4)], [1, 2])
    (Fraction(0, 1), Fraction(1, 2), Fraction(1, 2))
    """
    T = set(target)
    mass = sum((p for y, p in enumerate(P) if y in T), Fraction(0))
    if mass <= 0:
        raise DomainError("target", sorted(T), "must have positive probability", "condition()")
    return tuple(p / mass if y in T else Fraction(0) for y, p in enumerate(P))


# ---- Algorithm 2: conditional release with revisions -----------------------------------

@dataclass
class _Stored(Generic[Y]):
    value: Y
    target: Callable[[Y], bool]
    released: bool


@dataclass
class ConditionalReleases(Generic[Y]):
    """Algorithm 2: ``release`` draws once and stores; ``revise`` extends the target.

    ``charges`` counts target hits: a computation is charged at most once, exactly when
    its stored value lies in its final target.  Revising a released computation is a
    no-op (``None``).  A target is a predicate on outcomes.

    >>> cr: ConditionalReleases[int] = ConditionalReleases()
    >>> cr.release("a", 7, lambda y: y > 10), cr.revise("a", lambda y: 5 < y <= 10)
    (None, 7)
    >>> cr.revise("a", lambda y: y <= 5), cr.charges
    (None, 1)
    """

    stored: dict[Hashable, _Stored[Y]] = field(default_factory=dict)
    charges: int = 0
    log: list[tuple[str, Hashable, Y | None]] = field(default_factory=list)

    def release(self, h: Hashable, value: Y, target: Callable[[Y], bool]) -> Y | None:
        """ConditionalRelease of an already drawn ``value ~ M(D)``: ``value`` or ``None`` (⊥)."""
        if h in self.stored:
            raise DomainError("h", h, "must be a new computation identifier",
                              "ConditionalRelease (CL23 Algorithm 2)")
        hit = bool(target(value))
        self.stored[h] = _Stored(value, target, hit)
        return self._publish("release", h, value if hit else None)

    def revise(self, h: Hashable, extension: Callable[[Y], bool]) -> Y | None:
        """ReviseCR: publish the stored value iff it lies in ``extension``; extend the target."""
        if h not in self.stored:
            raise DomainError("h", h, "must name a stored computation", "ReviseCR (CL23 "
                              "Algorithm 2)")
        s = self.stored[h]
        if s.released:
            return self._publish("revise", h, None)
        old = s.target
        s.target = lambda y: bool(old(y) or extension(y))
        s.released = bool(extension(s.value))
        return self._publish("revise", h, s.value if s.released else None)

    def _publish(self, kind: str, h: Hashable, out: Y | None) -> Y | None:
        if out is not None:
            self.charges += 1
        self.log.append((kind, h, out))
        return out


# ---- registered results ----------------------------------------------------------------

@result("CL23:Lem2.4", title="ConditionalRelease: privacy of M, NotPrior target",
        kind="bound",
        statement=r"\mathrm{ConditionalRelease}(\mathcal M,T)\text{ is }(\varepsilon,\delta)"
                  r"\text{-DP with the NotPrior target }T,\ q=\tfrac1{e^\varepsilon+1}",
        params=[nonneg("eps", "1"), unit_closed_open("delta", "0", default="0")],
        status="reconstructed",
        notes=label_note("recovered", "Surviving text: 'satisfies the privacy parameters of "
                         "[M] and [T] is a NotPrior target of [it]'; the value of q is "
                         "CL23:Lem2.3's reconstructed 1/(e^eps+1)."))
def conditional_release(ctx: Ctx, eps: MPF, delta: MPF) -> CallSpec:
    """ConditionalRelease of an ``(eps, delta)``-DP M enters TCT as ``(eps, delta, 1/(e^eps+1))``.

    CL23 Lemma 2.4 (label *recovered from surviving text*, with the q of
    Lemma 2.3, *reconstructed*): publishing ``y`` if ``y in T`` and ``⊥`` otherwise is a
    post-processing of M, and ``T`` is the NotPrior target of prior ``⊥``; a hit iff
    ``y in T``.  Domain: ``eps >= 0``, ``delta in [0, 1)``.

    Proof note.  The surviving text says that ConditionalRelease "satisfies the privacy
    parameters of [M] and [T] is a NotPrior target of [it]"; the symbols are this
    project's. ConditionalRelease publishes ``y`` if ``y in T`` and ``⊥`` otherwise: a
    post-processing of ``M``, hence ``(eps, delta)``-DP. Its outcomes are ``T`` and ``⊥``,
    and ``T`` does not contain the prior outcome ``⊥``, so Lemma C.1 (CL23:LemC.1; Lemma
    2.3 when ``delta = 0``) makes ``T`` a ``1/(e^eps + 1)``-target with ``(eps, delta)``.
    The call hits its target exactly when ``y in T``, i.e. when something is released.

    >>> print(conditional_release(eps="0.5").q)  # closed form in floats: 0.377541
    0.377540668798145
    """
    return CallSpec(eps, delta, notprior_value(ctx, eps))


@result("CL23:LemD.1", title="⊥-replacement preserves (eps, delta)-indistinguishability",
        kind="bound",
        statement=r"P\approx_{\varepsilon,\delta}Q\Rightarrow P^{[T]}\approx_{\varepsilon,"
                  r"\delta}Q^{[T]}",
        params=[nonneg("eps", "1"), unit_closed_open("delta", "0", default="0")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified", "Post-processing."))
def bottom_replace_privacy(ctx: Ctx, eps: MPF, delta: MPF) -> Indistinguishability:
    """``P^{[T]}`` and ``Q^{[T]}`` keep the ``(eps, delta)`` of ``P ~ Q`` (post-processing).

    CL23 Lemma D.1 (label *reconstructed and numerically verified*).
    Domain: ``eps >= 0``, ``delta in [0, 1)``.

    Proof note.  ``P^{[T]}`` replaces every outcome outside ``T`` by ``⊥``: a deterministic
    post-processing ``g``. For any set ``S`` of outcomes, ``P^{[T]}(S) = P(g^{-1}(S)) <=
    e^eps Q(g^{-1}(S)) + delta = e^eps Q^{[T]}(S) + delta``, and symmetrically, so the pair
    keeps ``(eps, delta)``. The exact oracle confirms it on random pairs.

    >>> bottom_replace_privacy(eps="0.5", delta="0.01")
    Indistinguishability(eps=mpf('0.5'), delta=mpf('0.01'))
    """
    return Indistinguishability(eps, delta)


@result("CL23:LemD.2", title="Conditioning on a set doubles the privacy parameter",
        kind="bound",
        statement=r"P\approx_\varepsilon Q\Rightarrow P|_T\approx_{2\varepsilon}Q|_T",
        params=[nonneg("eps", "1")], status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "The factor 2 is tight in the limit P(a) = e^eps Q(a), "
                         "P(b) = e^-eps Q(b), Q(a) -> 0."))
def conditioned_epsilon(ctx: Ctx, eps: MPF) -> MPF:
    """``P|_T ~_{2 eps} Q|_T`` whenever ``P ~_eps Q`` (and ``P(T), Q(T) > 0``).

    CL23 Lemma D.2 (label *reconstructed and numerically verified*): each
    conditional probability is a ratio of two masses that each move by ``e^eps``.  Tight
    in the limit.  Domain: ``eps >= 0``.

    Proof note.  For ``S`` inside ``T``, ``P|_T(S) = P(S)/P(T)``. Pure
    ``eps``-indistinguishability bounds the numerator by ``e^eps Q(S)`` and the denominator
    from below by ``e^-eps Q(T)``, so ``P|_T(S) <= e^{2 eps} Q|_T(S)``, and symmetrically.
    The factor 2 is tight: on ``T = {a, b}`` with ``P(a) = e^eps Q(a)``, ``P(b) = e^-eps
    Q(b)`` and ``Q(a) -> 0``, the ratio of the conditioned laws at ``a`` tends to ``e^{2
    eps}``.

    >>> conditioned_epsilon(eps="0.25")
    mpf('0.5')
    """
    return 2 * eps


@result("CL23:Lem2.5", title="A ReviseCR call: 2 eps-DP with a NotPrior target",
        kind="bound",
        statement=r"\mathrm{ReviseCR}\text{ is a TCT call to a }2\varepsilon\text{-DP "
                  r"algorithm, NotPrior target, }q=\tfrac1{e^{2\varepsilon}+1}",
        params=[nonneg("eps", "1")], status="reconstructed",
        notes=label_note("recovered", "Surviving text: 'doubled privacy parameter on revise "
                         "calls'. q is CL23:Lem2.3 at 2 eps (reconstructed). A delta of M is "
                         "charged once, on the initial ConditionalRelease; revise calls are "
                         "pure."))
def revise_call(ctx: Ctx, eps: MPF) -> CallSpec:
    """A ReviseCR call on an eps-DP computation enters TCT as ``(2 eps, 0, 1/(e^{2 eps}+1))``.

    CL23 Lemma 2.5 (label *recovered from surviving text* for the doubled
    parameter; the q is Lemma 2.3's, *reconstructed*).  Given ⊥ so far, the stored value
    is ``M(D)|_{Y \\ T_h}`` (Lemma D.2: 2 eps-DP) and the call is its ConditionalRelease on
    the extension.  For an ``(eps, delta)``-DP M the delta is charged once, on the
    initial call.  Domain: ``eps >= 0``.

    Proof note.  The surviving text gives only the "doubled privacy parameter on revise
    calls". A revise call happens after the stored value ``y = M(D)`` missed every earlier
    target ``T_h``: given that, ``y`` is distributed as ``M(D)`` conditioned on ``Y \
    T_h``, which is ``2 eps``-DP by Lemma D.2 (CL23:LemD.2). The call is a
    ConditionalRelease of that conditioned algorithm on the new target, so Lemma 2.4
    (CL23:Lem2.4) applies with ``2 eps``: ``q = 1/(e^{2 eps} + 1)`` and no new ``delta``
    (the ``delta``-part of ``M``, Corollary A.3, is drawn once with the stored value and
    charged on the initial call).

    >>> print(revise_call(eps="0.5").q)  # 1/(e + 1) in floats: 0.2689
    0.268941421369995
    """
    return CallSpec(2 * eps, ctx.zero, notprior_value(ctx, 2 * eps))


@result("CL23:LemG.1", title="BetweenThresholds: the 'between' outcome is a target",
        kind="bound",
        statement=r"\{B\}\text{ is a }\frac{1-e^{-(t_r-t_\ell)\varepsilon}}{e^\varepsilon+1}"
                  r"\text{-target of BetweenThresholds}",
        params=[positive("eps", "0.5", "Laplace noise is Lap(1/eps)"),
                positive("gap", "4", "t_r - t_l, the distance between the thresholds")],
        status="reconstructed",
        notes=label_note("reconstructed and numerically verified",
                         "Surviving text: 'reduced by a factor of [gap factor]'. Exact "
                         "infimum: attained when both values lie below t_l at distance 1."))
def between_thresholds_q(ctx: Ctx, eps: MPF, gap: MPF) -> MPF:
    """q of {B} for BetweenThresholds: ``(1 - e^{-gap eps}) / (e^eps + 1)``.

    CL23 Lemma G.1 (label *reconstructed and numerically verified*): below
    ``t_l``, B is the fixed fraction ``1 - e^{-gap eps}`` of "not L", so the NotPrior
    decomposition with prior L gives that fraction of its q.  Domain: ``eps > 0``,
    ``gap > 0`` (for a 1-Lipschitz function and ``Lap(1/eps)`` noise).

    Proof note.  The surviving text says the NotPrior q is "reduced by a factor of [gap
    factor]". BetweenThresholds answers ``L`` (noisy value below ``t_l``), ``B`` (between)
    or ``H`` (above ``t_r``), with noise ``Lap(1/eps)``. When the value is below ``t_l``,
    the Laplace tail beyond ``t_l`` is memoryless: ``P[above t_r | not L] = e^{-gap eps}``,
    so ``B`` is the fixed fraction ``1 - e^{-gap eps}`` of "not ``L``" on both neighbours.
    "Not ``L``" is a NotPrior target with prior ``L`` (``q = 1/(e^eps + 1)``, Lemma 2.3),
    and splitting each part of its decomposition by the same fraction keeps the
    decomposition, giving ``{B}`` that fraction of ``q``; the exact infimum is attained
    with both values below ``t_l`` at distance 1 (checked against the exact oracle).

    >>> print(between_thresholds_q(eps="0.5", gap=4))  # closed form in floats: 0.326446
    0.326446095453008
    """
    return -expm1(ctx, -gap * eps) * notprior_value(ctx, eps)


def between_thresholds_law(w: Fraction, mu: int, t_left: int, t_right: int
                           ) -> tuple[Fraction, Fraction, Fraction]:
    """Exact ``(P[L], P[B], P[H])`` of ``mu + Lap(1/eps)`` with ``e^eps = w``, integer inputs.

    ``L`` below ``t_left``, ``H`` above ``t_right``, ``B`` between (``t_left < t_right``).
    Rational because every exponent is an integer multiple of eps.

    >>> between_thresholds_law(Fraction(2), 0, 1, 3)
    (Fraction(3, 4), Fraction(3, 16), Fraction(1, 16))
    """
    def below(t: int) -> Fraction:  # P[mu + Lap(1/eps) < t]
        return 1 - Fraction(1, 2) / w ** (t - mu) if t >= mu else Fraction(1, 2) * w ** (t - mu)

    low, high = below(t_left), 1 - below(t_right)
    return low, 1 - low - high, high


__all__: list[Any] = ["CallSpec", "ConditionalReleases", "Indistinguishability",
                      "between_thresholds_law", "bottom_replace", "condition"]
