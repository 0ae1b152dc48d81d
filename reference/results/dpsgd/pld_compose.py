"""The composition of one step's grid law, and its hockey-stick divergence.

``compose`` convolves the integer law of :class:`reference.results.dpsgd.pld_grid.Step`
``T`` times by repeated squaring in exact integers (python-flint's ``fmpz_poly``), flooring
each product back to ``bits`` bits and cutting its negligible ends: every coefficient of the
result stays below the true probability of its grid point (see the ``pld_grid`` docstring).
``delta_at`` reads the hockey-stick divergence off such a law.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

from flint import arb, fmpz, fmpz_poly

from reference.core.errors import DomainError
from reference.results.dpsgd.pld_grid import Step

T = TypeVar("T")

#: Most coefficients one product of :func:`compose` may have (the time of a composition
#: grows with its longest product: see ``docs/speed.md``, "Known slow spots").
MAX_LENGTH = 2**20


#: A law predicted (:func:`refuse_larger`) to be longer than this many times the limit is
#: refused before it is tabulated and composed.
PREDICTION_MARGIN = 4


class TooLong(Exception):
    """A product of :func:`compose` would have ``length`` coefficients, above its limit (or,
    ``estimated``, the composed law would have about ``length``: :func:`refuse_larger`)."""

    def __init__(self, length: int, limit: int, estimated: bool = False) -> None:
        size = f"about {length}" if estimated else f"{length}"
        super().__init__(f"a product of {size} coefficients (limit {limit})")
        self.length, self.limit, self.estimated = length, limit, estimated


def refuse_larger(length: int, h: Fraction, finer: Fraction, limit: int | None = None) -> None:
    """:class:`TooLong` (estimated) when a composed law of ``length`` coefficients on the grid
    ``h`` would have more than :data:`PREDICTION_MARGIN` times the limit on the grid ``finer``:
    its support in loss units is about the same on both (the ends cut hold the same masses;
    a delta bracket's second pass may cut deeper tails, up to about 2x narrower), so its
    length scales as ``h / finer``.  The law is then refused before its table and its
    squarings are computed (seconds); one predicted within the margin is composed, and
    refused only if a product does exceed the limit."""
    most = MAX_LENGTH if limit is None else limit
    predicted = math.ceil(length * h / finer)
    if predicted > PREDICTION_MARGIN * most:
        raise TooLong(predicted, most, estimated=True)


def cut_ends(poly: fmpz_poly, units: int) -> tuple[fmpz_poly, int]:
    """Drop the longest low and high ends of total (integer) mass at most ``units`` each;
    return the rest and how many low coefficients went.  The ends are short, so each is
    found by a doubling search from its side (cost proportional to the end's length)."""
    n = poly.length()

    def low(k: int) -> bool:  # the k lowest coefficients sum to at most units
        return int(poly.truncate(k)(1)) <= units

    def high(k: int) -> bool:  # the k highest coefficients sum to at most units
        return int(poly.right_shift(n - k)(1)) <= units
    k_low = _longest(low, n)
    k_high = _longest(high, n - k_low)
    kept = poly.truncate(n - k_high)
    return (kept.right_shift(k_low) if k_low else kept), k_low


def _longest(ok: Callable[[int], bool], n: int) -> int:
    """The largest ``k <= n`` with ``ok(k)`` (``ok`` monotone, ``ok(0)`` true)."""
    good, step = 0, 1
    while good + step <= n and ok(good + step):
        good, step = good + step, 2 * step
    bad = min(good + step, n + 1)
    while bad - good > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


def compose(step: Step, steps: int, budget: Fraction,
            limit: int | None = None) -> tuple[int, fmpz_poly]:
    """``(offset, r)``: the ``steps``-fold convolution of ``step``'s law by repeated
    squaring, floored to ``step.bits`` bits after each product, with negligible ends cut;
    :class:`TooLong` before a product of more than ``limit`` (default :data:`MAX_LENGTH`)
    coefficients.

    What a cut drops from a block of ``n`` steps is lost again in every block built from it:
    up to ``2 steps / n`` times in the result.  So each end of a block of ``n`` steps may
    drop ``budget n / (6 L steps)`` (``L`` the bit length of ``steps``): the cuts together
    drop at most about ``budget`` (``2 L`` squarings' and ``L`` products' two ends)."""
    scale = fmpz(2) ** step.bits
    per_step = budget * 2**step.bits / (6 * steps.bit_length() * steps)
    most = MAX_LENGTH if limit is None else limit

    def times(a: fmpz_poly, b: fmpz_poly) -> fmpz_poly:
        length = a.length() + b.length() - 1
        if length > most:
            raise TooLong(length, most)
        return (a * b) // scale

    acc: tuple[int, fmpz_poly] | None = None
    base, size = (step.offset, step.poly), 1
    k = steps
    while k:
        if k & 1:
            if acc is None:
                acc = base
            else:
                poly, dropped = cut_ends(times(acc[1], base[1]), int(per_step * steps))
                acc = (acc[0] + base[0] + dropped, poly)
        k >>= 1
        if k:
            size *= 2
            poly, dropped = cut_ends(times(base[1], base[1]), int(per_step * size))
            base = (2 * base[0] + dropped, poly)
    assert acc is not None
    return acc


def fraction_of(x: arb) -> Fraction:
    """The midpoint of an exact arb (``lower()``/``upper()``) as a Fraction."""
    man, exp = x.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def delta_at(offset: int, poly: fmpz_poly, h: Fraction, bits: int, index: int) -> arb:
    """``sum_i r_i (1 - e^(s - s_i))_+`` at ``s = index h`` (``s_i = (offset + i) h``):
    the hockey-stick divergence of the tabulated law at ``e^s`` (a ball)."""
    k = max(index - offset + 1, 0)
    if k >= poly.length():  # no grid point above s (index may be huge: eps = 1e308)
        return arb(0)
    tail = poly.right_shift(k) if k else poly
    if tail.length() == 0:
        return arb(0)
    ha = arb(h.numerator) / h.denominator
    w = (-ha).exp()
    gap = offset + k - index  # s_{k} - s in grid steps, >= 1
    b = tail(w) * (-ha * gap).exp()
    return (arb(int(tail(1))) - b) / arb(2) ** bits


def sized(where: str, q: Fraction, sigma: Fraction, steps: int,
          run: Callable[[], T]) -> T:
    """``run()``; a composition longer than :data:`MAX_LENGTH` coefficients
    (its squarings would take more than about 10 s) refused as a DomainError naming
    ``steps``."""
    try:
        return run()
    except TooLong as e:
        need = (f"about {e.length}, predicted from a coarser grid" if e.estimated else
                f"at least {e.length}")
        raise DomainError("steps", steps, f"must keep the composed privacy-loss law within "
                          f"{e.limit} coefficients at q = {q}, sigma = {sigma} (it needs "
                          f"{need}; at the limit the squarings take up to about 10 s): "
                          f"fewer steps, a larger sigma or a smaller q", where) from None
