"""``roots.bracket`` where the interval sign of ``h`` is undecided: at a starting end (a
caller's bug: refused), and around the root (the bracket is closed from both sides by
steps that quadruple from ``tol |x|``, or ``tol (b - a)`` when ``x = 0``; ``tol = 2^(8 -
prec)``, the module's stopping width).

``h(x) = x - c + [-w, w]`` has an undecided sign exactly on ``[c - w, c + w]``, ``h < 0``
left of it, ``h > 0`` right of it (``w`` is a power of 10, the steps are dyadic, so no
step lands on an end of the zone).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mpmath import iv, mp

from reference.core.numeric import endpoints, exact, working
from reference.core.roots import bracket


def _noisy(c: int, k: int) -> Any:
    """``x - c + [-10^-k, 10^-k]``."""
    def h(ctx: Any, x: Any) -> Any:
        return x - c + iv.mpf([-iv.mpf(10) ** -k, iv.mpf(10) ** -k])
    return h


def test_an_undecided_sign_at_a_starting_end_is_refused() -> None:
    """``h(lo)`` or ``h(hi)`` straddling 0 is no certified sign change."""
    with working(iv, 30):
        with pytest.raises(RuntimeError, match="no certified sign change"):
            bracket(iv, _noisy(1, 20), iv.mpf(1), iv.mpf(3))
        with pytest.raises(RuntimeError, match="no certified sign change"):
            bracket(iv, _noisy(1, 20), iv.mpf(-3), iv.mpf(1))


@pytest.mark.parametrize("wide_left", [True, False])
def test_an_uneven_undecided_zone_is_closed_on_both_sides(wide_left: bool) -> None:
    """``h(x) = x - 1 + [-w, w]`` with ``w = 10^-17`` on one side of 1 and ``10^-20`` on the
    other: the zone is 1000 times longer on one side.  On ``[0, 2]`` the first (secant)
    step is exactly 1 (value estimates -1 and 1), undecided; the short side is decided
    first and the search must go on until the long side is decided too (else that end
    stays at 0 or 2).  Each end is then within one quadrupling of the zone: at most
    ``4 * 10^-17`` from 1 on the long side, ``4 * 10^-20`` on the short one."""
    def h(ctx: Any, x: Any) -> Any:
        wide = (x.b < 1) == wide_left
        w = iv.mpf(10) ** (-17 if wide else -20)
        return x - 1 + iv.mpf([-w, w])

    with working(iv, 50):
        enc = endpoints(bracket(iv, h, iv.mpf(0), iv.mpf(2)))
    lo, hi = exact(enc.lo, "lo", "t"), exact(enc.hi, "hi", "t")
    long_, short = Fraction(1, 10**17), Fraction(1, 10**20)
    left, right = (long_, short) if wide_left else (short, long_)
    assert 1 - 4 * left <= lo < 1 - left and 1 + right < hi <= 1 + 4 * right


def test_the_search_from_an_undecided_zero_steps_from_tol_times_the_width() -> None:
    """``h(x) = x + [-10^-20, 10^-20]`` on ``[-1, 2]``: the first (secant) step is exactly
    ``2 - 2 (2 - (-1)) / (2 - (-1)) = 0`` (the value estimates are the midpoints -1 and 2),
    where the sign is undecided; from ``x = 0`` the steps are ``s_k = 3 tol 4^k`` and the
    bracket is ``[-s_k, s_k]`` at the first ``s_k`` beyond ``10^-20``, exactly."""
    with working(iv, 50):
        calls: list[Any] = []

        def h(ctx: Any, x: Any) -> Any:
            calls.append(x)
            return _noisy(0, 20)(ctx, x)

        enc = endpoints(bracket(iv, h, iv.mpf(-1), iv.mpf(2)))
        prec = mp.prec
    assert exact(calls[2].a, "x", "t") == 0 == exact(calls[2].b, "x", "t")
    step = Fraction(3) * Fraction(2) ** (8 - prec)
    while step <= Fraction(1, 10**20):
        step *= 4
    assert (exact(enc.lo, "lo", "t"), exact(enc.hi, "hi", "t")) == (-step, step)


@pytest.mark.parametrize("dps", [15, 50])
def test_a_root_of_multiplicity_15_costs_at_most_bisection_and_the_close(dps: int) -> None:
    """``h(x) = (x - 1)^15`` on ``[0.3, 3]``: secant steps crawl towards a multiple root,
    so the safeguard must bisect whenever two steps have not halved the bracket (module
    docstring: "the worst case is bisection").  That allows 3 evaluations per halving of
    ``[0.3, 3]`` down to ``tol`` (``3 (prec - 8 + 2)``), plus the close of the undecided zone
    around 1 (two per quadrupling from ``tol``: at most ``prec``): ``4 prec`` in all.
    Without the safeguard it takes about 13 ``prec``.  The bracket must contain 1."""
    calls = 0

    def h(ctx: Any, x: Any) -> Any:
        nonlocal calls
        calls += 1
        return (x - 1) ** 15

    with working(iv, dps):
        enc = endpoints(bracket(iv, h, iv.mpf("0.3"), iv.mpf(3)))
        bits = mp.prec
    assert exact(enc.lo, "lo", "t") < 1 < exact(enc.hi, "hi", "t")
    assert calls <= 4 * bits, (calls, bits)
