"""Privacy-loss examples of the advanced-composition lecture notes.

Source: LEC11 (lecture notes on advanced composition), displays N11-N18: the law of the Gaussian
mechanism's privacy loss and its tail, the notes' calibration of ``sigma`` (with its
unstated condition made explicit), the expected loss of randomized response, and the
"Name & Shame" and leaky-randomized-response pairs.  Three slips of the notes are
registered as errata (N11, N13, N14).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
from mpmath import iv, mp

from reference.core.errata import Check, Kind, erratum
from reference.core.errors import DomainError
from reference.core.fastballs import FAST, ends_on_balls
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, compare, endpoints, exp, expm1, log, to_ctx
from reference.core.params import Param, nonneg, positive, unit_open
from reference.core.special import normal_sf
from reference.results.privacy_loss.rruv16 import randomized_response
from reference.results.privacy_loss.rswr23 import FinitePair, privacy_loss_distribution, renyi

_DELTA = Param("delta", "real", lo=Fraction(0), hi=Fraction(1), example="0.01")


class NormalLaw(NamedTuple):
    """The normal law ``N(mean, variance)``."""

    mean: MPF
    variance: MPF


@result("LEC11:GaussLoss", title="Law of the Gaussian mechanism's privacy loss", kind="bound",
        statement=r"I=\frac{\Delta^2-2\Delta Z}{2\sigma^2}\sim N\Big(\frac{\Delta^2}{2\sigma^2},"
                  r"\frac{\Delta^2}{\sigma^2}\Big)",
        params=[positive("sigma", "2", "standard deviation of the noise Z"),
                nonneg("sensitivity", "1", "|f(x) - f(x')| = Delta", default="1")],
        probabilistic=True)
def gaussian_loss_law(ctx: Ctx, sigma: MPF, sensitivity: MPF = 1) -> NormalLaw:
    """Law ``N(Delta^2/(2 sigma^2), Delta^2/sigma^2)`` of the Gaussian mechanism's privacy loss.

    LEC11 N13 (Example 1, stated for ``Delta = 1``): with ``Y = f(x) + Z``,
    ``Z ~ N(0, sigma^2)`` and ``|f(x') - f(x)| = Delta``, the loss is
    ``((Y - f(x'))^2 - (Y - f(x))^2)/(2 sigma^2) = (Delta^2 - 2 Delta Z)/(2 sigma^2)``
    (the sign of ``Z`` flips for ``f(x') < f(x)``; same law).
    Domain: ``sigma > 0``, ``sensitivity >= 0``.

    >>> gaussian_loss_law(sigma=2)  # 1/(2*4) and 1/4
    NormalLaw(mean=mpf('0.125'), variance=mpf('0.25'))
    """
    ratio = sensitivity / sigma
    return NormalLaw(ratio**2 / 2, ratio**2)


@result("LEC11:GaussTail", title="Tail P[I > eps] of the Gaussian privacy loss", kind="bound",
        statement=r"\mathbb P[I>\varepsilon]=\bar\Phi\Big(\big(\varepsilon-\tfrac{\Delta^2}"
                  r"{2\sigma^2}\big)\tfrac{\sigma}{\Delta}\Big)",
        params=[positive("sigma", "2", "standard deviation of the noise"),
                nonneg("eps", "1"),
                positive("sensitivity", "1", "|f(x) - f(x')| = Delta", default="1")],
        probabilistic=True, balls=True)
def gaussian_loss_tail(ctx: Ctx, sigma: MPF, eps: MPF, sensitivity: MPF = 1) -> MPF:
    """``P[I > eps]`` for the Gaussian mechanism's loss ``I ~ N(Delta^2/(2s^2), Delta^2/s^2)``.

    LEC11 N10/N13: ``P[I > eps] <= delta`` suffices for ``(eps, delta)``-DP.  The normal
    tail is certified by :func:`reference.core.special.normal_sf`.  Domain: ``sigma > 0``,
    ``eps >= 0``, ``sensitivity > 0``.

    >>> gaussian_loss_tail(sigma=1, eps="0.5")  # the mean of I is 1/2: half the mass
    mpf('0.5')
    >>> from mpmath import nstr  # LEC11 N13: 8.8e-14 at the notes' sigma
    >>> print(nstr(gaussian_loss_tail(sigma=notes_gaussian_sigma(eps=1, delta="1e-6"), eps=1), 2))
    8.8e-14
    """
    return normal_sf(ctx, (eps - sensitivity**2 / (2 * sigma**2)) * sigma / sensitivity)


_EX1_CONSTANT = "4(2 - sqrt 2) ln(1/delta)"


def _ex1_condition(values: Mapping[str, Any], where: str) -> None:
    """``eps <= 4(2 - sqrt 2) ln(1/delta)``, decided exactly up to 16384 bits.

    Equality is impossible for rational ``eps > 0`` and ``delta``: it would make
    ``1/delta = e^a`` with ``a`` algebraic and nonzero, which is transcendental
    (Lindemann–Weierstrass), so raising the precision always decides; each step compares
    a rigorous enclosure of the bound with the exact ``eps``, so a step that decides gives
    the exact answer, and the message's value is computed apart from the steps.  An ``eps``
    that the 16384-bit enclosure cannot place is refused ("could not be compared").
    """
    eps, delta = values["eps"], values["delta"]
    old = FAST.prec, iv.prec
    try:
        for bits in (64, 256, 1024, 4096, 16384):
            FAST.prec = iv.prec = bits  # Arb's balls: as rigorous as iv, ten times faster
            bound = ends_on_balls(lambda c: endpoints(
                4 * (2 - c.sqrt(c.mpf(2))) * log(c, 1 / to_ctx(c, delta))))
            if compare(bound.lo, eps) >= 0:     # eps <= bound.lo
                return
            if compare(bound.hi, eps) < 0:      # eps > bound.hi
                shown = mpmath.nstr(4 * (2 - mp.sqrt(2)) * log(mp, 1 / to_ctx(mp, delta)), 8)
                raise DomainError("eps", float(eps), f"must be <= {_EX1_CONSTANT} = {shown} "
                                  "(unstated in the notes)", where)
    finally:
        FAST.prec, iv.prec = old
    raise DomainError("eps", float(eps), f"could not be compared with {_EX1_CONSTANT}", where)


@result("LEC11:Ex1", title="The notes' Gaussian calibration sigma = 2 sqrt(ln(1/delta))/eps",
        kind="conversion",
        statement=r"\sigma=\frac{2\sqrt{\ln(1/\delta)}}{\varepsilon}\ \Rightarrow\ \mathbb P[I>"
                  r"\varepsilon]\le\delta\quad\text{if }\varepsilon\le4(2-\sqrt2)\ln(1/\delta)",
        params=[positive("eps", "1"), unit_open("delta", "1e-6")],
        status="corrected", precondition=_ex1_condition,
        notes="The condition eps <= 4(2 - sqrt 2) ln(1/delta) ~ 2.343 ln(1/delta) is unstated "
              "in the notes (erratum LEC11:N13); it holds e.g. for eps <= 1, delta <= 0.65.",
        balls=True)
def notes_gaussian_sigma(ctx: Ctx, eps: MPF, delta: MPF) -> MPF:
    """Noise ``sigma = 2 sqrt(ln(1/delta))/eps`` for which ``P[I > eps] <= delta`` (sensitivity 1).

    LEC11 N13, with the condition the notes leave out.

    Proof note.  The privacy loss of the Gaussian mechanism with sensitivity 1 is
    ``I ~ N(1/(2 sigma^2), 1/sigma^2)``, so ``P[I > eps] = Q((eps - 1/(2 sigma^2)) sigma)``.
    With ``L = ln(1/delta)`` and the notes' ``sigma`` the standardized threshold is
    ``z = 2 sqrt L - eps/(4 sqrt L)``; ``Q(z) <= e^(-z^2/2)``
    for ``z >= 0`` gives ``Q(z) <= delta`` once ``z >= sqrt(2 L)``, i.e.
    ``eps <= 4(2 - sqrt 2) L``.  Beyond it the claim fails (``eps = 10, delta = 1/2``:
    ``P[I > eps] = 0.91``).  Domain: ``eps > 0``, ``delta in (0, 1)``,
    ``eps <= 4(2 - sqrt 2) ln(1/delta)``.

    >>> from mpmath import nstr
    >>> print(nstr(notes_gaussian_sigma(eps=1, delta="1e-6"), 4))  # 2 sqrt(ln 1e6); N13: 7.434
    7.434
    """
    return 2 * ctx.sqrt(log(ctx, 1 / delta)) / eps


@result("LEC11:RRLoss", title="Expected privacy loss of randomized response", kind="bound",
        statement=r"\mathbb E[I]=\varepsilon\frac{e^\varepsilon-1}{e^\varepsilon+1}="
                  r"\varepsilon\tanh(\varepsilon/2)\le\varepsilon^2/2",
        params=[nonneg("eps", "0.1")],
        notes="The notes' '~ eps/2 for eps <= 1' is a typo for eps^2/2 (erratum LEC11:N14).")
def rr_expected_loss(ctx: Ctx, eps: MPF) -> MPF:
    """``E[I] = eps (e^eps - 1)/(e^eps + 1)`` for randomized response with ratio ``e^eps``.

    LEC11 N14: the loss is ``+eps`` w.p. ``e^eps/(1+e^eps)`` and ``-eps`` otherwise; the
    mean is the KL divergence of the RR pair, ``~ eps^2/2`` for small ``eps`` (the notes'
    ``~ eps/2`` is a typo).  Domain: ``eps >= 0``.

    >>> from mpmath import nstr
    >>> print(nstr(rr_expected_loss(eps="0.1"), 5))  # LEC11 N14: 0.0049958
    0.0049958
    """
    growth = expm1(ctx, eps)
    return eps * growth / (growth + 2)


@result("LEC11:NameShame", title="Name & Shame: laws of the differing record's output",
        kind="mechanism",
        statement=r"P=(\delta,0,1-\delta),\ Q=(0,\delta,1-\delta)\text{ on }(0,1,\perp)",
        params=[_DELTA],
        notes="P is the law of y_i when x_i = 0, Q when x_i' = 1; the other records' outputs "
              "have the same law under both and are left out.")
def name_and_shame(ctx: Ctx, delta: MPF) -> FinitePair:
    """Laws of ``y_i`` in ``NS_delta`` for ``x_i = 0`` (``P``) and ``x_i' = 1`` (``Q``).

    LEC11 N15: ``y_i = x_i`` w.p. ``delta`` and ``bot`` otherwise, over outcomes
    ``(0, 1, bot)``.  The pair is ``(0, delta)``-indistinguishable although its privacy
    loss is ``+inf`` with probability ``delta``.  Domain: ``delta in [0, 1]``.

    >>> pair = name_and_shame(delta="0.25")
    >>> pair.P, pair.labels
    ((mpf('0.25'), mpf('0.0'), mpf('0.75')), ('0', '1', 'bot'))
    >>> pair.Q
    (mpf('0.0'), mpf('0.25'), mpf('0.75'))
    """
    return FinitePair((delta, ctx.zero, 1 - delta), (ctx.zero, delta, 1 - delta),
                      ("0", "1", "bot"))


@result("LEC11:LRR", title="The leaky randomized response pair (U, V)", kind="mechanism",
        statement=r"P_U=\big(\tfrac{(1-\delta)e^\varepsilon}{1+e^\varepsilon},"
                  r"\tfrac{1-\delta}{1+e^\varepsilon},\delta,0\big),\ "
                  r"P_V=\big(\tfrac{1-\delta}{1+e^\varepsilon},"
                  r"\tfrac{(1-\delta)e^\varepsilon}{1+e^\varepsilon},0,\delta\big)",
        params=[nonneg("eps", "0.5"), _DELTA],
        notes="Outcomes (0, 1, U, V); the same pair as RRUV16:Def2.6 up to relabelling.",
        balls=True)
def leaky_rr(ctx: Ctx, eps: MPF, delta: MPF) -> FinitePair:
    """The LRR pair ``(P_U, P_V)`` over outcomes ``(0, 1, "U", "V")``.

    LEC11 N18 (table): randomized response with ratio ``e^eps`` on ``{0, 1}`` w.p.
    ``1 - delta``, and a leak naming the input (``"U"`` or ``"V"``) w.p. ``delta``;
    exactly ``(eps, delta)``-indistinguishable.  Domain: ``eps >= 0``, ``delta in [0, 1]``.

    >>> leaky_rr(eps=0, delta="0.5").P
    (mpf('0.25'), mpf('0.25'), mpf('0.5'), mpf('0.0'))
    """
    likely = (1 - delta) / (1 + exp(ctx, -eps))
    unlikely = (1 - delta) / (1 + exp(ctx, eps))
    return FinitePair((likely, unlikely, delta, ctx.zero), (unlikely, likely, ctx.zero, delta),
                      ("0", "1", "U", "V"))


# ---- errata ---------------------------------------------------------------------------
@erratum("LEC11:N13", location="LEC11, Example 1 (Gaussian mechanism)",
         printed=r"\sigma=2\sqrt{\ln(1/\delta)}/\varepsilon\text{ (no condition)}",
         corrected=r"\text{valid for }\varepsilon\le4(2-\sqrt2)\ln(1/\delta)", result="LEC11:Ex1",
         kind=Kind.FALSE_AS_STATED,
         consequence="without the unstated condition the printed sigma is not (eps, delta)-DP: at "
                     "eps = 10, delta = 0.5 the loss exceeds eps with probability 0.9095")
def _check_n13() -> Check:
    with mp.workdps(50):
        sigma_bad = 2 * mp.sqrt(mp.log(2)) / 10  # eps = 10, delta = 1/2: outside
        tail_bad = gaussian_loss_tail(sigma=sigma_bad, eps=10)
        try:
            notes_gaussian_sigma(eps=10, delta="0.5")
            refused = False
        except DomainError:
            refused = True
        tail_ok = gaussian_loss_tail(sigma=notes_gaussian_sigma(eps=1, delta="1e-6"), eps=1)
    return Check(tail_bad > 0.5 and tail_ok <= mp.mpf("1e-6") and refused,
                 f"eps=10, delta=0.5: P[I > eps] = {mpmath.nstr(tail_bad, 4)} > delta "
                 f"(LEC11:Ex1 refuses: {refused}); eps=1, delta=1e-6: "
                 f"{mpmath.nstr(tail_ok, 3)} <= delta")


@erratum("LEC11:N14", location="LEC11, Example 2 (randomized response)",
         printed=r"\mathbb E[I]=\varepsilon\frac{e^\varepsilon-1}{e^\varepsilon+1}\approx"
                 r"\frac{\varepsilon}{2}",
         corrected=r"\approx\frac{\varepsilon^2}{2}", result="LEC11:RRLoss",
         kind=Kind.TYPO,
         consequence="the approximation is off by a factor 1/eps: eps/2 = 0.05 against E[I] = "
                     "0.005 at eps = 0.1; the exact formula beside it is right")
def _check_n14() -> Check:
    with mp.workdps(50):
        mean = rr_expected_loss(eps="0.1")
        rr = randomized_response(eps="0.1", delta=0)
        kl = renyi(P=rr.P, Q=rr.Q, alpha=1)
        half, half_sq = mp.mpf("0.05"), mp.mpf("0.005")
        ok = abs(mean - kl) < mp.mpf("1e-40") and abs(mean - half_sq) < abs(mean - half) / 100
    return Check(ok, f"eps=0.1: E[I] = {mpmath.nstr(mean, 8)} (KL of RR: {mpmath.nstr(kl, 8)}); "
                     f"printed ~eps/2 = 0.05, eps^2/2 = 0.005")


def _adaptive_two_rounds() -> tuple[dict[int, dict[tuple[int, int], Fraction]],
                                    dict[int, dict[tuple[int, int], Fraction]],
                                    dict[int, dict[tuple[int, int], Fraction]]]:
    """Joint law, correct-prefix product and printed-prefix product of a 2-round program.

    Round 1 reports the bit ``x`` truthfully w.p. 3/4; round 2 is chosen from ``y_1``:
    truthful w.p. 9/10 after ``y_1 = 0``, 2/3 after ``y_1 = 1``.  The joint law is found by
    enumerating the coins; the printed prefix ``y_{1:j-2}`` is empty for ``j = 2``, so
    round 2 appears unconditioned on ``y_1`` (its marginal law).
    """
    keep1, keep2 = Fraction(3, 4), {0: Fraction(9, 10), 1: Fraction(2, 3)}

    def k1(x: int, y1: int) -> Fraction:
        return keep1 if y1 == x else 1 - keep1

    def k2(x: int, y1: int, y2: int) -> Fraction:
        return keep2[y1] if y2 == x else 1 - keep2[y1]

    joint: dict[int, dict[tuple[int, int], Fraction]] = {}
    correct: dict[int, dict[tuple[int, int], Fraction]] = {}
    printed: dict[int, dict[tuple[int, int], Fraction]] = {}
    outcomes = [(a, b) for a in (0, 1) for b in (0, 1)]
    for x in (0, 1):
        law = dict.fromkeys(outcomes, Fraction(0))
        for truthful1, w1 in ((True, keep1), (False, 1 - keep1)):
            y1 = x if truthful1 else 1 - x
            for truthful2, w2 in ((True, keep2[y1]), (False, 1 - keep2[y1])):
                law[(y1, x if truthful2 else 1 - x)] += w1 * w2
        joint[x] = law
        correct[x] = {(a, b): k1(x, a) * k2(x, a, b) for a, b in outcomes}
        printed[x] = {(a, b): k1(x, a) * sum(k1(x, c) * k2(x, c, b) for c in (0, 1))
                      for a, b in outcomes}
    return joint, correct, printed


@erratum("LEC11:N11", location="LEC11, composition of privacy losses",
         printed=r"P[A(x)=y_{1:k}]=\prod_j P[A_j(x;y_{1:j-2})=y_j]",
         corrected=r"P[A(x)=y_{1:k}]=\prod_j P[A_j(x;y_{1:j-1})=y_j]",
         kind=Kind.TYPO,
         consequence="none for a careful reader; taken literally the product gives a wrong joint "
                     "law (101/160 instead of 27/40 in the check)")
def _check_n11() -> Check:
    joint, correct, printed = _adaptive_two_rounds()
    outcomes = sorted(joint[0])
    pld = privacy_loss_distribution(P=[joint[0][o] for o in outcomes],
                                    Q=[joint[1][o] for o in outcomes])
    with mp.workdps(50):
        def loss(law: dict[int, dict[tuple[int, int], Fraction]], o: tuple[int, int]) -> MPF:
            return mp.log(mp.mpf(law[0][o].numerator) * law[1][o].denominator
                          / (mp.mpf(law[0][o].denominator) * law[1][o].numerator))
        loss_ok = all(abs(ell - loss(correct, o)) < mp.mpf("1e-40")
                      for ell, o in zip(pld.losses, outcomes, strict=True))
        loss_bad = any(abs(ell - loss(printed, o)) > mp.mpf("1e-3")
                       for ell, o in zip(pld.losses, outcomes, strict=True))
    ok = joint == correct and joint != printed and loss_ok and loss_bad
    return Check(ok, f"x=0, y=(0,0): joint {joint[0][(0, 0)]}, prefix y_(1:j-1) "
                     f"{correct[0][(0, 0)]}, printed prefix y_(1:j-2) {printed[0][(0, 0)]}; "
                     f"losses of the joint law equal the sums with the correct prefix: {loss_ok}")


__all__ = ["NormalLaw", "gaussian_loss_law", "gaussian_loss_tail", "leaky_rr", "name_and_shame",
           "notes_gaussian_sigma", "rr_expected_loss"]
