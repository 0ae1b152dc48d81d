"""Privacy odometers: running bounds on the privacy loss of adaptive compositions (RRUV16 §6).

Source: RRUV16 (seed 003): Definition 3.2 (with probability at most ``delta_g`` over
``v ~ V^0``, ``|Loss(v)| > COMP_{delta_g}(eps_1, 0, ..., eps_k, 0)``; the round-``k'``
bound pads the sequence with zeros, since stopping is a feasible adversary), Lemma 6.4
(fixed ``x``) and Theorem 6.5 (the advanced odometer, branches (11) and (12)).  The
basic odometer is ``RRUV16:Thm3.4`` (:mod:`reference.filters`).  An odometer fails iff
``|Loss|`` is strictly greater than its value.  Objects that record rounds one by one
are in :mod:`reference.odometer_objects`; the errata of §6 in
:mod:`reference.odometer_errata`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath  # noqa: F401  (the doctests use it)

from .budget import all_of, decided_result, inv_e_precondition, max_length
from .concentration import half_drift, self_normalized
from .filters import MAX_ROUNDS
from .numeric import MPF, Ctx
from .params import Param, nonneg_seq, positive, unit_open
from .registry import result

#: ``110 e``: ``81/0.74 = 109.46 <= 110`` in the proof of (11).
LOG_110E_ARG = 110


class OdometerValue(NamedTuple):
    """Theorem 6.5: the odometer's value and the branch used, (11) or (12)."""

    value: MPF
    branch: int


def drift_and_square_sum(ctx: Ctx, eps: list[MPF]) -> tuple[MPF, MPF]:
    """``(sum eps_i (e^eps_i - 1)/2, sum eps_i^2)``: the two sums every bound here uses."""
    if not eps:
        return ctx.zero, ctx.zero
    return ctx.fsum(half_drift(ctx, e) for e in eps), ctx.fsum(e * e for e in eps)


def fixed_x_value(ctx: Ctx, drift: MPF, S: MPF, x: MPF, delta_g: MPF) -> MPF:
    """Lemma 6.4 from its sufficient statistics: drift plus Theorem 4.4 at ``delta_g/2``."""
    return drift + self_normalized(ctx, 4 * S, x, ctx.log(2 / delta_g))


def advanced_value(ctx: Ctx, drift: MPF, S: MPF, n: int, delta_g: MPF, branch: int) -> MPF:
    """Theorem 6.5 from its sufficient statistics, on the given branch."""
    log_n = ctx.log(n)
    if branch == 11:
        return drift + ctx.sqrt(2 * S * (ctx.log(LOG_110E_ARG) + 1 + 2 * ctx.log(log_n / delta_g)))
    inv_n2 = ctx.one / (n * n)
    return drift + self_normalized(ctx, 4 * S, inv_n2, ctx.log(4 * (log_n / ctx.ln2) / delta_g))


def branch_of(S: Fraction, n: int) -> int:
    """(11) iff ``1/n^2 <= S <= 1`` (both ends inclusive), exactly; else (12)."""
    return 11 if Fraction(1, n * n) <= S <= 1 else 12


def _branch_decide(values: Mapping[str, Any], where: str) -> dict[str, int]:
    S = sum((e * e for e in values["eps"]), Fraction(0))
    return {"branch": branch_of(S, values["n"])}


@result("RRUV16:Lem6.4", title="Privacy odometer with a fixed x", kind="odometer",
        statement=r"\sum_j\varepsilon_j\tfrac{e^{\varepsilon_j}-1}{2}+\sqrt{2(\sum_i"
                  r"\varepsilon_i^2+x)(1+\tfrac12\log(\tfrac{\sum_i\varepsilon_i^2}{x}+1))"
                  r"\log(2/\delta_g)}",
        params=[nonneg_seq("eps", "0.01,0.01", "epsilons of the rounds run", default=()),
                positive("x", "0.1", "fixed x > 0, chosen before the interaction"),
                unit_open("delta_g", "0.001", "failure probability, below 1/e")],
        probabilistic=True,
        precondition=all_of(inv_e_precondition("delta_g"), max_length("eps", MAX_ROUNDS)),
        notes="x must not depend on the realised epsilons (x = sum eps_i^2 would be "
              "invalid, by (7)). The proof's 'for any beta > 0' means x.")
def fixed_x_odometer(ctx: Ctx, eps: list[MPF], x: MPF, delta_g: MPF) -> MPF:
    """Lemma 6.4's odometer value for the realised epsilons.

    RRUV16 Lemma 6.4: for ``delta_g in (0, 1/e)`` and any fixed ``x > 0``, a valid
    privacy odometer.  Domain: ``eps_i >= 0`` (possibly none), ``x > 0``,
    ``delta_g in (0, 1/e)``.  Catalog-003 §8: 1000 rounds of 0.01, ``x = 0.1``,
    ``delta_g = 1e-3`` give 2.0736316215620523 (double precision: 13 digits agree).

    >>> print(mpmath.nstr(fixed_x_odometer(eps=["0.01"] * 1000, x="0.1", delta_g="1e-3"), 13))
    2.073631621562
    """
    drift, S = drift_and_square_sum(ctx, eps)
    return fixed_x_value(ctx, drift, S, x, delta_g)


@decided_result("RRUV16:Thm6.5", title="Advanced privacy odometer", kind="odometer",
                statement=r"\sum_i\varepsilon_i\tfrac{e^{\varepsilon_i}-1}{2}+\begin{cases}"
                          r"\sqrt{2S(\log(110e)+2\log\frac{\log n}{\delta_g})}&S\in[n^{-2},1]"
                          r"\ (11)\\ \sqrt{2(n^{-2}+S)(1+\frac12\log(1+n^2S))\log\frac{4\log_2n}"
                          r"{\delta_g}}&\text{else (12)}\end{cases},\ S=\sum_i\varepsilon_i^2",
                params=[nonneg_seq("eps", "0.01,0.01", "epsilons of the rounds run",
                                   default=()),
                        Param("n", "int", lo=Fraction(2), example="1000",
                              doc="dataset size n >= 2 (enters through log n, 1/n^2)"),
                        unit_open("delta_g", "0.05", "failure probability, below 1/e")],
                decide=_branch_decide, probabilistic=True,
                precondition=all_of(inv_e_precondition("delta_g"),
                                    max_length("eps", MAX_ROUNDS)),
                notes="Branch by S = sum eps_i^2, exactly, both ends of [1/n^2, 1] inclusive. "
                      "(12) as stated (log(4 log2(n)/delta_g)); its proof prints "
                      "log(2 log2(n)/delta_g) (erratum RRUV16:Thm6.5-proof12). Natural log; "
                      "log2 is base 2. Needs n >= 2 (log n > 0).")
def advanced_odometer(ctx: Ctx, eps: list[MPF], n: int, delta_g: MPF,
                      branch: int) -> OdometerValue:
    """Theorem 6.5's odometer value for the realised epsilons, and its branch.

    RRUV16 Theorem 6.5: for ``delta_g in (0, 1/e)`` a valid privacy odometer, (11) when
    ``sum eps_i^2`` lies in ``[1/n^2, 1]`` and (12) otherwise.  Domain: ``eps_i >= 0``
    (possibly none), integer ``n >= 2``, ``delta_g in (0, 1/e)``.  Catalog-003 §8
    (``n = 10^4``, ``delta_g = 1e-3``): 1000 rounds of 0.01 give 2.239161273812178 by
    (11); 200 rounds of 0.1 give 22.48706441292712 and 10 rounds of 1e-6 give
    0.0004668450204048619, both by (12).

    >>> out = advanced_odometer(eps=["0.01"] * 1000, n=10**4, delta_g="1e-3")
    >>> print(mpmath.nstr(out.value, 13), out.branch)  # catalog in double precision
    2.239161273812 11
    >>> print(mpmath.nstr(advanced_odometer(eps=["0.1"] * 200, n=10**4, delta_g="1e-3").value, 15))
    22.4870644129271
    >>> print(mpmath.nstr(advanced_odometer(eps=["1e-6"] * 10, n=10**4, delta_g="1e-3").value, 15))
    0.000466845020404862
    """
    drift, S = drift_and_square_sum(ctx, eps)
    return OdometerValue(advanced_value(ctx, drift, S, n, delta_g, branch), branch)


def heuristic_value(ctx: Ctx, drift: MPF, S: MPF, delta_g: MPF) -> MPF:
    """The *invalid* "tempting heuristic": Theorem 2.10 on the realised parameters.

    ``sum eps_i (e^eps_i - 1) + sqrt(2 sum eps_i^2 log(1/delta_g))`` (RRUV16 §1.1,
    footnote 2's heterogeneous advanced composition, ``RRUV16:fn2-advanced``) used as an
    odometer.  Theorem 6.1 says no odometer of this order is valid; the stopping-time
    adversary exceeds it with probability about 0.2 at ``delta_g = 0.05`` (catalog-003
    §6).  Not registered: it exists to be rejected by the statistical tests.
    """
    return 2 * drift + ctx.sqrt(2 * S * ctx.log(1 / delta_g))
