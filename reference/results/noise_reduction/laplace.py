"""Laplace noise reduction: the Markov chains and processes with Laplace marginals, and LNR.

Sources: WRWR22 §4 — eq. (4) (Koufogiannis et al.'s chain), eq. (5) (the
continuous-time process from a Poisson process of intensity ``2/t``), Definition 4.1 (LNR)
and Proposition 4.2 (ex-post privacy ``Delta_1/T_N``); RSWR23 Appendix A — the
Lévy-measure construction (eq. (13)), the flat-interval probability, Definition A.1 and
Lemma A.1.  ``Lap(b)`` has scale ``b``: density
``exp(-|z|/b)/(2b)``, characteristic function ``1/(1 + b^2 u^2)``.  Time ``t`` is the scale:
more time, more noise.

Decisions where the sources are silent:

* **t_0 in eq. (4)** is 0: the first step moves with probability 1, so ``zeta_1 ~ Lap(t_1)``
  (erratum ``WRWR22:Eq4-t0``).
* **eq. (5) starts at eta > 0** with a single ``Lap(eta)`` draw (the ``n = 0`` term);
  ``Z`` is undefined below ``eta``, so LNR needs ``T_n >= eta`` (``E_n <= Delta_1/eta``);
  the samplers and :func:`lnr_path_loss` refuse smaller times (erratum ``WRWR22:Def4.1-eta``).
  RSWR23's process starts at 0 (infinitely many small jumps); read at finitely many times
  it is the same chain with ``eta`` the smallest time read.
* **d > 1**: independent processes per coordinate (RSWR23 Def. A.1 says so; WRWR22 is
  silent).  A shared stay/move coin would make the coordinates dependent and the
  ``l_1`` loss formula false.
* **Lemma A.1** is exact for the neighbours the proof assumes; the statement's ``Delta_1``
  form is the loss only when ``f(x') - f(x) = Delta_1`` (worst-case neighbours).  The
  implemented loss is the proof's, for any neighbours (erratum ``RSWR23:LemA.1``).
  Samplers: :mod:`reference.sim.laplace_paths`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
from mpmath import mp

from reference.core.errata import Check, Kind, erratum
from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, exp, log, to_ctx
from reference.core.params import (
    Param,
    all_of,
    equal_lengths,
    max_length,
    nonneg,
    nonzero,
    ordered,
    positive,
    real,
)
from reference.results.boundaries.wrwr22 import ExPost
from reference.results.noise_reduction.brownian import MAX_DIM, TIMES_DECREASE, real_seq


class JumpLaw(NamedTuple):
    """Jumps of the eq. (5) process on ``(s, t]``: none w.p. ``no_jump``, ``mean`` on average."""

    no_jump: MPF
    mean: MPF


_STAY_NOTE = ("t_0 is undefined in the text; t_0 = 0 is implemented (the first step always "
              "moves), erratum WRWR22:Eq4-t0. Claim (Koufogiannis et al.): zeta_n ~ Lap(t_n), "
              "Markov; checked by the characteristic-function identity and by KS tests.")


@result("WRWR22:Eq4", title="Stay probability of the Koufogiannis Laplace chain",
        kind="mechanism",
        statement=r"\zeta_n=\zeta_{n-1}\ \text{w.p. }(t_{n-1}/t_n)^2,\ \text{else }"
                  r"\zeta_{n-1}+\mathrm{Lap}(t_n);\quad \zeta_n\sim\mathrm{Lap}(t_n)",
        params=[nonneg("t_prev", "1", "previous scale t_{n-1} (t_0 = 0)"),
                positive("t", "2", "next scale t_n >= t_{n-1}")],
        precondition=ordered("t_prev", "t"), probabilistic=True, notes=_STAY_NOTE)
def stay_probability(ctx: Ctx, t_prev: MPF, t: MPF) -> MPF:
    """Probability ``(t_{n-1}/t_n)^2`` that the chain of WRWR22 eq. (4) does not move.

    With it, ``Lap(t_{n-1})`` plus an independent increment that is 0 or else ``Lap(t_n)``
    is ``Lap(t_n)``: ``p + (1-p)/(1+t^2u^2) = (1+s^2u^2)/(1+t^2u^2)`` at ``p = (s/t)^2``.
    Domain: ``0 <= t_prev <= t``, ``t > 0``; ``t_prev = 0`` is the first step.

    >>> print(stay_probability(t_prev=1, t=2))
    0.25
    """
    return (t_prev / t) ** 2


@result("WRWR22:Eq5", title="Jumps of the continuous-time Laplace process", kind="mechanism",
        statement=r"Z_t=\sum_{n=0}^{P_t}\mathrm{Lap}(\mathcal T_n),\ P\text{ Poisson of intensity "
                  r"}2/t\text{ on }[\eta,\infty):\ \mathbb P(\text{no jump in }(s,t])=(s/t)^2",
        params=[positive("eta", "1/2", "start of the process (a single Lap(eta) draw there)"),
                positive("s", "1", "earlier time, s >= eta"),
                positive("t", "2", "later time, t >= s")],
        precondition=all_of(ordered("eta", "s"), ordered("s", "t")), probabilistic=True,
        notes="Proof of the marginal (missing App. D) reconstructed here (see the proof note). The "
              "no-jump probability equals eq. (4)'s stay probability, so the process has the "
              "chain's finite-dimensional laws; given a jump, Z_t - Z_s ~ Lap(t).")
def jump_law(ctx: Ctx, eta: MPF, s: MPF, t: MPF) -> JumpLaw:
    """No-jump probability ``exp(-int_s^t 2/r dr)`` and mean number of jumps on ``(s, t]``.

    WRWR22 eq. (5): the Poisson process of intensity ``2/t`` on ``[eta, inf)`` has
    ``Poisson(2 log(t/s))`` jumps in ``(s, t]``, none with probability ``(s/t)^2``.
    Domain: ``0 < eta <= s <= t``.

    >>> law = jump_law(eta="0.2", s="0.7", t="2.5")
    >>> print(mpmath.nstr(law.no_jump, 6), mpmath.nstr(law.mean, 6))
    0.0784 2.54593
    """
    mean = 2 * (log(ctx, t) - log(ctx, s))
    return JumpLaw(exp(ctx, -mean), mean)


@result("RSWR23:Eq13", title="Local Lévy density of the Laplace process", kind="definition",
        statement=r"\psi(z;t)=t^{-2}e^{-|z|/t},\quad z\ne0,\ t>0",
        params=[real("z", "1", "jump size (nonzero)"), positive("t", "1", "time (scale)")],
        precondition=nonzero("z", "the Lévy density is not defined at 0"),
        notes="Not the mixture boundary psi(t; gamma, delta) of RSWR23 §6.1 (a name clash in "
              "the source).")
def local_levy_density(ctx: Ctx, z: MPF, t: MPF) -> MPF:
    """``t^-2 exp(-|z|/t)``: the Lévy density, at time ``t``, of the random measure ``U``.

    RSWR23 App. A eq. (13); its mass in ``z`` is ``2/t``, the intensity of WRWR22 eq. (5).
    Domain: ``z != 0``, ``t > 0``.

    >>> print(mpmath.nstr(local_levy_density(z=2, t=2), 12))
    0.0919698602929
    """
    return exp(ctx, -abs(z) / t) / t**2


@result("RSWR23:AppA-levy", title="Lévy density of X(t) = U([0, t]), a Laplace law",
        kind="definition",
        statement=r"\int_0^t\psi(z;u)\,du=g(z;t)=\frac{e^{-|z|/t}}{|z|}",
        params=[real("z", "1", "jump size (nonzero)"), positive("t", "1", "scale of X(t)")],
        precondition=nonzero("z", "the Lévy density is not defined at 0"),
        notes="The integral is checked by quadrature of eq. (13), and g is checked to be the "
              "Lévy density of Lap(t) by the Lévy–Khintchine formula (property tests).")
def levy_density(ctx: Ctx, z: MPF, t: MPF) -> MPF:
    """``exp(-|z|/t)/|z|``: the Lévy density of ``Lap(t)`` and of ``X(t) = U([0, t])``.

    RSWR23 App. A (substitution ``s = 1/u`` in the integral of eq. (13)).  Domain:
    ``z != 0``, ``t > 0``.

    >>> print(mpmath.nstr(levy_density(z=1, t=1), 12))
    0.367879441171
    """
    return exp(ctx, -abs(z) / t) / abs(z)


@result("RSWR23:AppA-flat", title="Flat-interval probability of the Laplace process",
        kind="mechanism",
        statement=r"\mathbb P\big(X\text{ flat on }[t^{(1)},t^{(2)}]\big)=(t^{(1)}/t^{(2)})^2,"
                  r"\quad 0<t^{(1)}\le t^{(2)}",
        params=[positive("t1", "0.7", "left end t^(1)"), positive("t2", "2", "right end t^(2)")],
        precondition=ordered("t1", "t2"), status="corrected", probabilistic=True,
        notes="Printed with the condition 0 < t^(1) < t^(1) (erratum RSWR23:AppA-flat). The "
              "Lévy mass of the increment is 2 log(t2/t1): a compound Poisson variable, zero "
              "when it has no jump.")
def flat_probability(ctx: Ctx, t1: MPF, t2: MPF) -> MPF:
    """``exp(-(Lévy mass of X(t2) - X(t1)))``, the probability of no jump in ``(t1, t2]``.

    RSWR23 App. A.  Domain: ``0 < t1 <= t2``.  0.1225 at ``(0.7, 2)``:

    Proof note.  Jumps of the process in ``(t1, t2]`` form a Poisson process with total
    mass ``int_{t1}^{t2} int psi(z; u) dz du = int_{t1}^{t2} 2/u du = 2 log(t2/t1)``, so
    the path has no jump there with probability ``exp(-2 log(t2/t1)) = (t1/t2)^2``. The
    appendix prints the condition ``0 < t^(1) < t^(1)`` (erratum RSWR23:AppA-flat); the
    statement holds for ``0 < t1 <= t2`` (equality gives 1) and agrees with the stay
    probability of WRWR22 eq. (4).

    >>> print(mpmath.nstr(flat_probability(t1="0.7", t2=2), 6))
    0.1225
    """
    return exp(ctx, -2 * log(ctx, t2 / t1))


_PATH = [Param("times", "seq", lo=Fraction(0), lo_open=True, example="4,2,1",
               doc="release scales T_1 >= ... >= T_n"),
         real_seq("y", "1.5,0.8,1.1", "the released values f(x) + Z_{T_k} (d = 1)"),
         real("fx", "1", "f(x)"), real("fxp", "0", "f(x')")]
_PATH_CHECKS = (equal_lengths("times", "y"), TIMES_DECREASE,
                max_length("times", MAX_DIM))


def _above_eta(values: Mapping[str, Any], where: str) -> None:
    if values["times"][-1] < values["eta"]:
        raise DomainError("times", [str(x) for x in values["times"]], f"must all be >= eta = "
                          f"{values['eta']} (Z is defined on [eta, inf))", where)


def _abs_loss(y: Fraction, fx: Fraction, fxp: Fraction, t: Fraction) -> Fraction:
    """``log p_t(y - f(x)) - log p_t(y - f(x'))`` for ``Lap(t)`` densities, exactly: rounded
    inputs left an error of ``|f| 2^-prec / t`` around a loss that can be exactly 0
    (``+-4.7e-38`` at ``f = y = -1e-300``, ``t = 5e-324``)."""
    return (abs(y - fxp) - abs(y - fx)) / t


@result("WRWR22:Def4.1", title="Adaptive Laplace noise reduction: loss of the released path",
        kind="mechanism",
        statement=r"\mathrm{LNR}(x)=\big(f(x)+Z_{T_n(x)}\big)_{n\ge1},\quad"
                  r"\mathcal L_{1:n}=\frac{|y_n-f(x')|-|y_n-f(x)|}{T_n}",
        params=[*_PATH, positive("eta", "1/2", "start of the process Z (times must be >= eta)")],
        precondition=all_of(*_PATH_CHECKS, _above_eta), status="reconstructed",
        exact_inputs=True,
        notes="The text states no loss formula; the path's likelihood ratio telescopes (the "
              "transition kernels, an atom at 0 plus a Laplace part, do not depend on f). "
              "T_n >= eta is required (erratum WRWR22:Def4.1-eta).")
def lnr_path_loss(ctx: Ctx, times: tuple[Fraction, ...], y: tuple[Fraction, ...],
                  fx: Fraction, fxp: Fraction, eta: Fraction) -> MPF:
    """The privacy loss of LNR's released path ``y_1, ..., y_n``: its last release's.

    WRWR22 Definition 4.1 with the noise-reduction property of §4: ``log p_x(y_{1:n}) /
    p_x'(y_{1:n}) = (|y_n - f(x')| - |y_n - f(x)|)/T_n``.  Domain: non-increasing scales
    ``>= eta``, as many releases, ``d = 1`` (coordinates add: independent processes).

    Proof note.  The process is read at non-increasing scales ``T_1 >= ... >= T_n >= eta``.
    Given ``Z_{T_n}``, the values at the larger scales are ``Z_{T_n}`` plus increments
    whose law (an atom at 0 plus a Laplace part) does not involve ``f``, so the joint
    density of ``y_{1:n}`` is ``p_{T_n}(y_n - f) * prod_k K_k(y_k - y_{k+1})`` and only the
    first factor depends on ``f``: the ratio telescopes to ``(|y_n - f(x')| - |y_n -
    f(x)|)/T_n``. The text states no loss formula; it needs ``T_n >= eta``, the start of
    the process (erratum WRWR22:Def4.1-eta).

    >>> print(lnr_path_loss(times="4,2,1", y="1.5,0.8,0.7", fx=1, fxp=0, eta="1/2"))
    0.4
    """
    return to_ctx(ctx, _abs_loss(y[-1], fx, fxp, times[-1]))


@result("RSWR23:DefA.1", title="Laplace noise reduction (RSWR23): loss of the released path",
        kind="mechanism",
        statement=r"\mathtt{LNR}(x)=\big(t^{(k)},f(x)+X(t^{(k)})\big)_{k\le T(x)},\quad"
                  r"\mathcal L^{(1:T(x))}=\log\frac{p_t(\hat z-f(x))}{p_t(\hat z-f(x'))}",
        params=_PATH, precondition=all_of(*_PATH_CHECKS), exact_inputs=True,
        notes="Eq. (12) instantiated with the Laplace process started at 0; the smallest "
              "time's value is a single Lap draw.")
def lnr_path_loss_rswr23(ctx: Ctx, times: tuple[Fraction, ...], y: tuple[Fraction, ...],
                         fx: Fraction, fxp: Fraction) -> MPF:
    """Eq. (12) for RSWR23 Definition A.1: the loss of the released pairs ``(t^(k), y_k)``
    is the Laplace log-density ratio at the smallest time.  Domain: non-increasing positive
    times, as many releases, ``d = 1``.

    >>> print(lnr_path_loss_rswr23(times="4,2,1", y="1.5,0.8,0.7", fx=1, fxp=0))
    0.4
    """
    return to_ctx(ctx, _abs_loss(y[-1], fx, fxp, times[-1]))


_VEC = all_of(equal_lengths("fx", "fxp", "x"), max_length("fx", MAX_DIM))


@result("RSWR23:LemA.1", title="Privacy loss of Laplace noise reduction (any neighbours)",
        kind="mechanism",
        statement=r"\mathcal L_{\mathtt{LNR}}=-\frac1t\sum_j\big(|X_j|-|X_j-(f(x')_j-f(x)_j)|\big)",
        params=[real_seq("fx", "0", "f(x)"), real_seq("fxp", "0.6", "f(x')"),
                real_seq("x", "0.339", "the noise X(t) of the last release, under x"),
                positive("t", "0.7", "time (scale) of the last release")],
        precondition=_VEC, status="corrected", exact_inputs=True,
        notes="The statement prints Delta_1(f) in place of |f(x) - f(x')|: exact only for "
              "worst-case neighbours with f(x') - f(x) = Delta_1 (erratum RSWR23:LemA.1). "
              "Independent coordinates add.")
def lnr_loss(ctx: Ctx, fx: tuple[Fraction, ...], fxp: tuple[Fraction, ...],
             x: tuple[Fraction, ...], t: Fraction) -> MPF:
    """The privacy loss of LNR stopped at scale ``t`` with noise ``X = X(t)``.

    RSWR23 Lemma A.1 as proved: ``log p_t(y - f(x)) / p_t(y - f(x'))`` at ``y = f(x) + X``,
    summed over independent coordinates; ``|L| <= ||f(x) - f(x')||_1 / t``.  Domain:
    vectors of one length, ``t > 0``.  Example: ``-(0.339 - 0.261)/0.7`` (the printed
    ``Delta_1 = 1`` form gives +0.46):

    Proof note.  With independent coordinates and the ``Lap(t)`` density
    ``e^(-|z|/t)/(2t)``, the release ``y = f(x) + X`` has log-density ratio ``sum_j (|y_j -
    f(x')_j| - |y_j - f(x)_j|)/t = sum_j (|X_j - d_j| - |X_j|)/t`` with ``d = f(x') -
    f(x)``, and the whole path has the loss of its last release (noise reduction). The
    lemma prints ``Delta_1(f)`` in place of ``d``: right only for neighbours with ``d =
    Delta_1``; for others it is neither the loss nor a bound on it (erratum RSWR23:LemA.1).
    The triangle inequality gives ``|L| <= ||d||_1 / t``.

    >>> print(mpmath.nstr(lnr_loss(fx=[0], fxp=["0.6"], x=["0.339"], t="0.7"), 6))
    -0.111429
    """
    # y = f(x) + X: exactly, each coordinate's term is _abs_loss at y_j, rounded once
    return to_ctx(ctx, sum((_abs_loss(a + xi, a, b, t) for a, b, xi in zip(fx, fxp, x,
                                                                         strict=True)),
                           Fraction(0)))


@result("RSWR23:LemA.1-printed", title="Lemma A.1 as stated (worst-case neighbours only)",
        kind="mechanism",
        statement=r"\mathcal L^{(1:T(x))}_{\mathtt{LNR}}=-\frac1t\big(|X|-|X-\Delta_1(f)|\big)",
        params=[real("x", "0.339", "the noise X(t) under x"), positive("t", "0.7", "scale"),
                positive("sensitivity", "1", "Delta_1(f)", default="1")],
        notes="Equals RSWR23:LemA.1 when f(x') - f(x) = Delta_1; for other neighbours it is "
              "neither the loss nor an upper bound on it (erratum RSWR23:LemA.1).",
        exact_inputs=True)
def lnr_loss_printed(ctx: Ctx, x: Fraction, t: Fraction, sensitivity: Fraction) -> MPF:
    """The statement of RSWR23 Lemma A.1: ``-(|X| - |X - Delta_1|)/t`` (``d = 1``).

    The loss of the worst-case pair ``f(x') = f(x) + Delta_1``.  Domain: ``t, Delta_1 > 0``.

    >>> print(mpmath.nstr(lnr_loss_printed(x="0.339", t="0.7"), 6))
    0.46
    """
    return to_ctx(ctx, _abs_loss(x, Fraction(0), sensitivity, t))    # exact


@result("WRWR22:Prop4.2", title="Ex-post privacy of Laplace noise reduction", kind="guarantee",
        statement=r"\mathrm{LNR}_{1:N(\cdot)}(\cdot)\text{ is }(\Delta_1/T_{N(\cdot)}(\cdot),0)"
                  r"\text{-ex-post private}",
        params=[positive("t", "2", "scale T_N at the stopped release"),
                positive("sensitivity", "1", "l1 sensitivity Delta_1 of f", default="1")],
        probabilistic=True,
        notes="Deterministic: |L| <= ||f(x) - f(x')||_1 / T_N for every output, so delta = 0 "
              "at any stopping function.")
def lnr_expost(ctx: Ctx, t: MPF, sensitivity: MPF) -> ExPost:
    """The ex-post guarantee ``(Delta_1/T_N, 0)`` of LNR stopped at scale ``T_N = t``.

    WRWR22 Proposition 4.2: with ``T_n = Delta_1/E_n``, ``(E_N, 0)``.  Domain: ``t, Delta_1 > 0``.

    >>> g = lnr_expost(t=2, sensitivity="0.5")
    >>> print(g.eps, g.delta)
    0.25 0.0
    """
    return ExPost(sensitivity / t, ctx.zero)


@erratum("WRWR22:Eq4-t0", location="WRWR22 §4, eq. (4)", result="WRWR22:Eq4",
         printed="zeta_0 = 0 and stay w.p. (t_{n-1}/t_n)^2, with t_0 undefined",
         corrected="t_0 = 0: the first step moves w.p. 1, so zeta_1 ~ Lap(t_1); any t_0 > 0 "
                   "leaves an atom at 0 in zeta_1", kind=Kind.AMBIGUITY,
         consequence="with t_0 > 0 zeta_1 is not Laplace (atom 0.25 at 0 if t_0 = 1/2, t_1 = 1)")
def _t0_check() -> Check:
    with mp.workdps(30):
        atom = stay_probability(t_prev="0.5", t=1)
        ok = stay_probability(t_prev=0, t=1) == 0 and atom > 0
    return Check(bool(ok), f"t_0 = 0 gives P[zeta_1 = 0] = 0; t_0 = 1/2, t_1 = 1 would give an "
                 f"atom of mass {mpmath.nstr(atom, 3)} at 0, not Lap(1)")


@erratum("WRWR22:Def4.1-eta", location="WRWR22 Definition 4.1", result="WRWR22:Def4.1",
         printed="LNR(x) = (f(x) + Z_{T_n(x)}) with Z defined on [eta, inf) and no condition "
                 "on T_n", corrected="T_n >= eta (E_n <= Delta_1/eta) is required",
         kind=Kind.AMBIGUITY,
         consequence="without T_n >= eta the release is undefined, and shrinking eta does not "
                     "help: 138.16 jumps on average on (1e-30, 1]")
def _eta_check() -> Check:
    with mp.workdps(30):
        mean = jump_law(eta="1e-30", s="1e-30", t=1).mean
    return Check(bool(mean > 100), f"Z is not defined below eta, and shrinking eta is no way out: "
                 f"on (1e-30, 1] the process already has {mpmath.nstr(mean, 5)} jumps on average "
                 "(2 log(t/eta) diverges)")


@erratum("RSWR23:AppA-flat", location="RSWR23 App. A, after eq. (13)", result="RSWR23:AppA-flat",
         printed="on [t^(1), t^(2)] with 0 < t^(1) < t^(1), flat w.p. (t^(1)/t^(2))^2",
         corrected="0 < t^(1) < t^(2)", kind=Kind.TYPO,
         consequence="none: the printed condition t^(1) < t^(1) is empty; t^(1) < t^(2) is evident")
def _flat_check() -> Check:
    with mp.workdps(30):
        t1, t2, u = mp.mpf("0.7"), mp.mpf(2), mp.mpf("1.3")
        p = flat_probability(t1=t1, t2=t2)
        ratio = (1 + t1**2 * u**2) / (1 + t2**2 * u**2)   # cf of X(t2) - X(t1)
        mixture = p + (1 - p) / (1 + t2**2 * u**2)
        ok = abs(ratio - mixture) < mp.mpf(10) ** -25 and not t1 < t1
    return Check(bool(ok), "the printed condition t^(1) < t^(1) is empty; with t^(1) < t^(2) "
                 "the increment's characteristic function is (t1/t2)^2 + (1 - (t1/t2)^2) "
                 "phi_{t2}: flat w.p. (t1/t2)^2 (checked at t1 = 0.7, t2 = 2, u = 1.3)")


@erratum("RSWR23:LemA.1", location="RSWR23 Lemma A.1 (statement vs proof)",
         result="RSWR23:LemA.1", printed="L = -(1/t)(|X| - |X - Delta_1(f)|)",
         corrected="L = -(1/t)(|X| - |X - (f(x') - f(x))|) (the proof's form); only "
                   "|L| <= Delta_1/t holds for all neighbours", kind=Kind.FALSE_AS_STATED,
         consequence="the printed loss is wrong unless f(x') - f(x) = Delta_1: 0.46 instead of "
                     "-0.1114 at f(x') - f(x) = 0.6, Delta_1 = 1; only |L| <= Delta_1/t holds")
def _lemma_a1_check() -> Check:
    with mp.workdps(30):
        x, a, t = mp.mpf("0.339"), mp.mpf("0.6"), mp.mpf("0.7")
        y = x                                       # f(x) = 0, f(x') = a = 0.6
        direct = mp.log(mp.exp(-abs(y) / t) / mp.exp(-abs(y - a) / t))
        exact_loss = lnr_loss(fx=[0], fxp=[a], x=[x], t=t)
        printed = lnr_loss_printed(x=x, t=t, sensitivity=1)
        ok = abs(direct - exact_loss) < mp.mpf(10) ** -25 and printed - direct > mp.mpf("0.5")
    return Check(bool(ok), f"X = 0.339, f(x') - f(x) = 0.6, Delta_1 = 1, t = 0.7: the density "
                 f"ratio gives {mpmath.nstr(direct, 4)}, the printed form "
                 f"{mpmath.nstr(printed, 4)}")


@erratum("WRWR22:LNR-indexing", location="WRWR22 §4, the LNR paragraph", result="WRWR22:Eq4",
         printed="LNR(x) = (f(x) + zeta_K, ..., f(x) + zeta_1); releasing the n-th component "
                 "LNR_n(x) in isolation is the Laplace mechanism at level eps_n",
         corrected="the component carrying zeta_n (the (K+1-n)-th, scale t_n = Delta_1/eps_n) "
                   "is eps_n-DP; LNR_n(x) itself is eps_{K+1-n}-DP", kind=Kind.TYPO,
         consequence="mislabels levels: LNR_1(x) is 1/4-DP, not eps_1 = 1 (K = 3, t = (1, 2, 4))")
def _indexing_check() -> Check:
    scales = [Fraction(1), Fraction(2), Fraction(4)]   # t_1 < t_2 < t_3, eps_n = 1/t_n
    eps_of_first = 1 / scales[-1]   # LNR_1(x) = f(x) + zeta_3; sup of the log-ratio, Delta_1 = 1
    return Check(eps_of_first != 1 / scales[0], f"K = 3, t = (1, 2, 4): LNR_1(x) = f(x) + "
                 f"zeta_3 is {eps_of_first}-DP, not eps_1 = {1 / scales[0]}")
