"""The Brownian mechanism: privacy loss, its sensitivity bound, noise reduction.

Source: WRWR22 Definition 3.1, Lemma 3.2, Theorem 3.4; RSWR23
Definition 4.4, Lemma 4.1, Theorem 4.

The mechanism releases ``y_k = f(x) + B_{T_k}`` at non-increasing times ``T_1 >= T_2 >= ...``
(time = noise variance).  For neighbours with ``f(x) - f(x') = u``, the loss of the
released path is that of its last release (Lemma 3.2), ``|u|^2/(2T) + <u, B_T>/T``
(Theorem 3.4).  RSWR23 Theorem 4 prints the inner product with ``f(x') - f(x)``: same law,
opposite sign pathwise (erratum ``RSWR23:Thm4-sign``).  The samplers are in
:mod:`reference.sim.brownian_paths`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import mp

from reference.core.errata import Check, Kind, erratum
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, pos_part, to_ctx
from reference.core.params import (
    Param,
    all_of,
    equal_lengths,
    max_length,
    non_increasing,
    positive,
    real,
)

#: Longest vector or path a registered formula accepts (evaluation is linear in it).
MAX_DIM = 10_000


#: Precondition: the release times of a path decrease (time functions, WRWR22 eq. (3)).
TIMES_DECREASE = non_increasing("times", "time functions, WRWR22 eq. (3)")


def real_seq(name: str, example: str, doc: str) -> Param:
    """A non-empty sequence of arbitrary reals."""
    return Param(name, "seq", example=example, doc=doc)


def _loss(ctx: Ctx, fx: Sequence[Any], fxp: Sequence[Any], b: Sequence[Any], t: Any) -> Any:
    """``|u|^2/(2t) + <u, b>/t`` with ``u = f(x) - f(x')``.  The results pass the exact
    inputs: the loss is rational in them, so it is computed exactly and rounded once
    (rounded inputs put an error of ``|f| 2^-prec / t`` on a loss that can be exactly 0:
    ``+-1.4e267`` at ``t = 5e-324``).  Other numbers (numpy arrays, for the simulations)
    go through the same formula."""
    u = [p - q for p, q in zip(fx, fxp, strict=True)]
    square = sum((a * a for a in u), 0)
    value = square / (2 * t) + sum((a * c for a, c in zip(u, b, strict=True)), 0) / t
    return to_ctx(ctx, value) if isinstance(value, Fraction) else value


_VECTORS = all_of(equal_lengths("fx", "fxp", "b"), max_length("fx", MAX_DIM))
_LOSS_PARAMS = [real_seq("fx", "1,0", "f(x), the statistic on the true data"),
                real_seq("fxp", "0,0", "f(x'), the statistic on the neighbour"),
                real_seq("b", "0.7,0", "the Brownian noise B_T of the release, under x"),
                positive("t", "1", "time (noise variance) of the last release")]


@result("WRWR22:Thm3.4", title="Privacy loss of the Brownian mechanism", kind="mechanism",
        statement=r"\mathcal L_{1:n}=\frac{\|f(x)-f(x')\|_2^2}{2T_n}+\frac{\langle f(x)-f(x'),"
                  r"B_{T_n}\rangle}{T_n}",
        params=_LOSS_PARAMS, precondition=_VECTORS, exact_inputs=True,
        notes="Proof in the missing App. B, reconstructed in the docstring. Also holds at a "
              "stopping function N(x) in place of n.")
def brownian_loss(ctx: Ctx, fx: tuple[Fraction, ...], fxp: tuple[Fraction, ...],
                  b: tuple[Fraction, ...], t: Fraction) -> MPF:
    """The privacy loss ``|u|^2/(2T) + <u, B_T>/T`` (``u = f(x) - f(x')``) of the Brownian
    mechanism's releases up to the one at time ``T``.

    WRWR22 Theorem 3.4: ``log p_x(y)/p_x'(y)`` at ``y = f(x) + B_T``; in law
    ``N(|u|^2/(2T), |u|^2/T)``.  Domain: vectors of one length, ``t > 0``.  By hand:
    ``f(x) = e_1``, ``f(x') = 0``, ``B = 0.7 e_1``, ``T = 1`` gives ``1/2 + 0.7 = 1.2``:

    >>> print(brownian_loss(fx="1,0", fxp="0,0", b="0.7,0", t=1))
    1.2
    """
    return _loss(ctx, fx, fxp, b, t)


@result("RSWR23:Thm4", title="Privacy loss of Brownian noise reduction (sign corrected)",
        kind="mechanism",
        statement=r"\mathcal L^{(1:T(x))}=\frac{\|f(x)-f(x')\|_2^2}{2t}+\frac{\langle f(x)-f(x'),"
                  r"B^{(t)}\rangle}{t}",
        params=_LOSS_PARAMS, precondition=_VECTORS, exact_inputs=True, status="corrected",
        notes="Printed with <f(x') - f(x), B>: same law, opposite sign pathwise "
              "(erratum RSWR23:Thm4-sign).")
def brownian_loss_rswr23(ctx: Ctx, fx: tuple[Fraction, ...], fxp: tuple[Fraction, ...],
                         b: tuple[Fraction, ...], t: Fraction) -> MPF:
    """RSWR23 Theorem 4 (Whitehouse et al.), with the inner product's sign corrected.

    The loss of ``BM^{(1:T(x))}(x)`` against ``x'`` at the stopped time value ``t``, the
    reference measure being the unshifted Brownian motion.  Domain: as WRWR22:Thm3.4.
    The printed sign would give ``1/2 - 0.7 = -0.2`` here, the exact log-ratio is 1.2:

    Proof note.  The release at time ``t`` is ``y = f(x) + B_t`` with ``B_t ~ N(0, t I)``;
    its log-density ratio against ``x'`` is ``(|y - f(x')|^2 - |y - f(x)|^2)/(2t) = (|u +
    B_t|^2 - |B_t|^2)/(2t) = |u|^2/(2t) + <u, B_t>/t`` with ``u = f(x) - f(x')``, and by
    the noise-reduction property (WRWR22 Lemma 3.2) the whole released path has the loss of
    its last release. The paper prints ``<f(x') - f(x), B>``: the same law (``B`` is
    symmetric), so the bounds with ``W^+`` are unchanged, but the opposite value on every
    path (erratum RSWR23:Thm4-sign).

    >>> print(brownian_loss_rswr23(fx="1,0", fxp="0,0", b="0.7,0", t=1))
    1.2
    """
    return _loss(ctx, fx, fxp, b, t)


@result("WRWR22:Thm3.4-bound", title="Sensitivity bound on the Brownian privacy loss",
        kind="bound",
        statement=r"\mathcal L_n\le\frac{\Delta_2^2}{2T_n}+\frac{\Delta_2}{T_n}W^+_{T_n}",
        params=[positive("t", "1", "time of the last release"),
                real("w", "0.7", "W_T = <v, B_T>, v the unit vector along f(x) - f(x')"),
                positive("sensitivity", "1", "l2 sensitivity Delta_2", default="1")])
def loss_bound(ctx: Ctx, t: MPF, w: MPF, sensitivity: MPF) -> MPF:
    """The bound ``Delta^2/(2T) + Delta W_T^+ / T`` on the loss of any pair of neighbours.

    WRWR22 Theorem 3.4 (second part), RSWR23 Theorem 4: for ``c = |f(x) - f(x')| <= Delta``
    the loss is ``c^2/(2T) + c W_T/T``, at most the bound.  At ``W = 0`` it is the zCDP
    cost ``1/(2T) = eps^2/2`` of a release at ``T = 1/eps^2`` (RSWR23 §7.1).
    Domain: ``t > 0``, any ``w``, ``sensitivity > 0``.

    >>> print(loss_bound(t=100, w=0))
    0.005
    """
    return sensitivity**2 / (2 * t) + sensitivity / t * pos_part(ctx, w)


@result("WRWR22:Lem3.2", title="The Brownian mechanism is a noise reduction mechanism",
        kind="mechanism",
        statement=r"\mathcal L_{1:n}(x,x')=\mathcal L_n(x,x')",
        params=[Param("times", "seq", lo=Fraction(0), lo_open=True, example="4,2,1",
                      doc="release times T_1 >= ... >= T_n"),
                real_seq("y", "1.5,0.8,1.1", "the released values f(x) + B_{T_k} (d = 1)"),
                real("fx", "1", "f(x)"), real("fxp", "0", "f(x')")],
        precondition=all_of(equal_lengths("times", "y"), TIMES_DECREASE,
                            max_length("times", MAX_DIM)),
        exact_inputs=True,
        notes="Proof in the missing App. B; the joint density telescopes. "
              "The property test computes the joint Gaussian likelihood ratio of the whole "
              "path, covariance min(T_i, T_j), independently.")
def path_loss(ctx: Ctx, times: tuple[Fraction, ...], y: tuple[Fraction, ...], fx: Fraction,
              fxp: Fraction) -> MPF:
    """The privacy loss of a whole released path: that of its last release alone.

    WRWR22 Lemma 3.2 (RSWR23 Lemma 4.1): ``log p_x(y_{1:n})/p_x'(y_{1:n}) =
    ((y_n - f(x'))^2 - (y_n - f(x))^2) / (2 T_n)``, because the increments
    ``y_k - y_{k+1}`` do not depend on ``f``.  Domain: non-increasing positive times, as
    many releases, ``d = 1`` (the vector case is coordinate-wise).

    >>> print(path_loss(times="4,2,1", y="1.5,0.8,1.1", fx=1, fxp=0))
    0.6
    """
    # (y - f')^2 - (y - f)^2 factored: the difference of squares cancels every digit when
    # |y| is large (y = 1e288 put the point value outside its own enclosure); rational in
    # the inputs, so computed exactly and rounded once (see _loss).
    last = y[-1]
    return to_ctx(ctx, (fx - fxp) * ((last - fx) + (last - fxp)) / (2 * times[-1]))


@erratum("RSWR23:Thm4-sign", location="RSWR23 Theorem 4 and the last display of App. A",
         printed="L = |f(x')-f(x)|^2/(2t) + |f(x')-f(x)|/t <(f(x')-f(x))/|f(x')-f(x)|, B^(t)>",
         corrected="L = |f(x)-f(x')|^2/(2t) + <f(x)-f(x'), B^(t)>/t (B the noise under x); the "
                   "law and the bound with W^+ are unchanged", result="RSWR23:Thm4",
         kind=Kind.TYPO,
         consequence="none for the law of L or the bound with W^+; the printed path-wise formula "
                     "has the wrong sign (-0.2 instead of 1.2 in the check)")
def _sign_check() -> Check:
    """Direct evaluation of the Gaussian log-density ratio at one point."""
    with mp.workdps(30):
        y, t = mp.mpf("1.7"), mp.mpf(1)      # f(x) = 1, f(x') = 0, B = 0.7
        exact_ratio = (-(y - 1) ** 2 + y**2) / (2 * t)
        printed = mp.mpf(1) / 2 + (0 - 1) * mp.mpf("0.7") / t
        implemented = brownian_loss_rswr23(fx=[1], fxp=[0], b=["0.7"], t=1)
        ok = abs(implemented - exact_ratio) < mp.mpf(10) ** -25 and abs(printed - exact_ratio) > 1
    return Check(bool(ok), f"log p_x(y)/p_x'(y) = {mpmath.nstr(exact_ratio, 6)} at f(x)=1, "
                 f"f(x')=0, B=0.7, t=1; the printed sign gives {mpmath.nstr(printed, 6)}")
