"""RSWR23 §7 (Rogers, Samorodnitsky, Wu, Ramdas 2023, arXiv:2306.13824): the two closed
forms behind the relative-error experiment. The experiment itself (Zipf data, doubling vs
Brownian noise reduction) is :mod:`reference.tools.experiments.relative_error`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath  # noqa: F401  (the doctests use it)

from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, to_ctx
from reference.core.params import positive, unit_open


class Acceptance(NamedTuple):
    """Accept iff ``y >= upper * s`` or ``y < -lower * s``; then the relative error is at most
    ``guarantee`` whenever the noise is at most ``s``."""

    upper: MPF
    lower: MPF
    guarantee: MPF


class DoublingRun(NamedTuple):
    """One run of the doubling schedule: ``(eps^(m)/eps*)^2`` and ``sum eps^(i)^2/eps*^2``."""

    overshoot_sq: MPF
    spend: MPF


@result("RSWR23:Sec7.2-accept", title="Relative-error stopping condition, closed form",
        kind="bound",
        statement=r"1-\alpha<\Big|\frac{\hat y+s}{\hat y-s}\Big|\le1+\alpha,\ |\hat y|>s"
                  r"\iff\hat y\ge\frac{2+\alpha}{\alpha}s\ \text{or}\ \hat y<-\frac{2-\alpha}"
                  r"{\alpha}s",
        params=[unit_open("alpha", "0.1", "target relative error")], status="reconstructed",
        notes="Closed form and the alpha/2 guarantee derived here (see the proof note).")
def acceptance(ctx: Ctx, alpha: MPF) -> Acceptance:
    """The thresholds of RSWR23 §7.2's stopping condition in units of the noise scale ``s``.

    The printed condition accepts a noisy count ``y`` iff ``y >= (2 + alpha)/alpha s`` or
    ``y < -(2 - alpha)/alpha s``; an accepted ``y > 0`` within ``s`` of the true count has
    relative error at most ``alpha/2``.  Domain: ``alpha in (0, 1)``.  21 and 19
    at ``alpha = 0.1``.

    Proof note.  For ``y > s`` the ratio ``(y + s)/(y - s)`` exceeds 1, so the condition is
    ``y + s <= (1 + alpha)(y - s)``, i.e. ``y >= (2 + alpha) s/alpha``. For ``y < -s``,
    with ``w = -y``, the ratio is ``(w - s)/(w + s) < 1`` and the condition ``w - s > (1 -
    alpha)(w + s)`` is ``w > (2 - alpha) s/alpha``. If ``y >= (2 + alpha) s/alpha`` and
    ``|y - c| <= s`` for the true count ``c``, then ``|y - c|/c <= s/(y - s) <=
    s/((2/alpha) s) = alpha/2``.

    >>> print(acceptance(alpha="0.1"))
    Acceptance(upper=mpf('21.0'), lower=mpf('19.0'), guarantee=mpf('0.05'))
    """
    return Acceptance((2 + alpha) / alpha, (2 - alpha) / alpha, alpha / 2)


def _first_below(values: Mapping[str, Any], where: str) -> None:
    if values["eps1_sq"] > values["target_sq"]:
        raise DomainError("eps1_sq", values["eps1_sq"], "must be <= target_sq (the first "
                          "attempt must not overshoot already)", where)
    if values["target_sq"] / values["eps1_sq"] > Fraction(2) ** 4000:
        raise DomainError("target_sq", values["target_sq"], "must be within 2^4000 of eps1_sq",
                          where)


@result("RSWR23:Sec7.1-doubling-run", title="One run of the doubling schedule", kind="bound",
        statement=r"\varepsilon^{(i+1)}=\sqrt2\varepsilon^{(i)},\ m=\min\{i:\varepsilon^{(i)}"
                  r"\ge\varepsilon^\star\}:\ (\varepsilon^{(m)}/\varepsilon^\star)^2<2,\ "
                  r"\sum_{i\le m}(\varepsilon^{(i)})^2<4(\varepsilon^\star)^2",
        params=[positive("eps1_sq", "1e-4", "first squared parameter"),
                positive("target_sq", "0.1024000001", "squared parameter eps*^2 that would pass")],
        precondition=_first_below, exact_inputs=True)
def doubling_run(ctx: Ctx, eps1_sq: Fraction, target_sq: Fraction) -> DoublingRun:
    """Doubling the squared parameter from ``eps1^2`` until it reaches ``eps*^2``: the
    overshoot ``(eps^(m)/eps*)^2`` and the spend ``sum_i (eps^(i))^2 / eps*^2``.

    RSWR23 §7.1: both stay below 2 and 4; the sups are approached when ``eps*^2``
    just exceeds a doubling step.  Domain: ``0 < eps1_sq <= target_sq``.

    The number of doublings ``m - 1`` is the least ``k >= 0`` with ``2^k eps1_sq >=
    target_sq``, decided on the exact inputs (an interval comparison of equal inputs such
    as ``eps1_sq = target_sq = 1/10`` is undecidable); then both outputs are the exact
    rationals ``2^k eps1_sq / target_sq`` and ``(2^(k+1) - 1) eps1_sq / target_sq``.

    >>> r = doubling_run(eps1_sq="1e-4", target_sq="0.1024000001")
    >>> print(mpmath.nstr(r.overshoot_sq, 12), mpmath.nstr(r.spend, 12))
    1.99999999805 3.99902343359
    """
    ratio = target_sq / eps1_sq
    k = max(0, ratio.numerator.bit_length() - ratio.denominator.bit_length() - 1)  # 2^k < ratio
    while 2**k < ratio:
        k += 1
    return DoublingRun(to_ctx(ctx, 2**k / ratio), to_ctx(ctx, (2 ** (k + 1) - 1) / ratio))
