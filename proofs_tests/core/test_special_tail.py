"""How tight the upper end of ``special.marsaglia_sum`` is: pinned to the bound its docstring
states, two-sided, so that a looser (still valid) tail bound fails.

``S(x) = sum_n T_n`` with ``T_n = x^(2n+1)/(2n+1)!!``.  The docstring's rule: stop at the
first ``N >= 1`` with ``T_N <= 2^-bits sum_{n<N} T_n`` and ``x^2/(2N+3) < 1/2``, and bound
the tail by ``T_N / (1 - x^2/(2N+3))`` (the ratios ``T_{m+1}/T_m = x^2/(2m+3)`` decrease).
So, in units of ``2^-frac``, the upper end should be

    U = sum_{n<N} T_n + T_N / (1 - x^2/(2N+3))

up to the rounding of the integer recurrence.  Rounding slack, derived by hand: with
``hi_m = ceil(hi_{m-1} x^2/(2m+1)) <= hi_{m-1} x^2/(2m+1) + 1``, induction gives
``hi_m <= T_m (1 + e_m)`` with ``e_m = e_0 + sum_{1<=k<=m} 1/T_k`` (``e_0 = 1/T_0`` when the
first term is itself rounded up, else 0).  The sum therefore exceeds ``U`` by at most
``sum_{n<N} T_n e_n + T_N e_N / (1 - x^2/(2N+3)) + 1`` (the last unit: the ceiling of the
remainder).  The code may stop later than ``N`` (its test uses the rounded term against the
rounded-down sum), which only lowers the bound: ``U_{N+1} <= U_N`` because the ratio
decreases.  Everything here is exact rational arithmetic (python-flint ``fmpq``); the
lower end is pinned the same way, to at least ``sum_{n<N} T_n`` minus the same slack (each
floor loses at most a unit, so the floored ``T_n`` is at least ``T_n (1 - e_n)``).

A tail ratio ``x^2/(2N-3)`` instead of ``x^2/(2N+3)`` (still a valid, wider bound) puts
the upper end ``T_N 6 x^2/((2N-3-x^2)(2N+3-x^2))`` higher: at ``x = 5``, 40 bits that is
about ``3e8`` units, against a slack of a few thousand.
"""

from __future__ import annotations

from fractions import Fraction

import flint
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_tests.arb_support import dyadic_points
from proofs_tests.profiles import share
from reference.core.special import marsaglia_sum


def _spec(man: int, exp: int, bits: int, frac: int,
          ) -> tuple[flint.fmpq, list[tuple[flint.fmpq, flint.fmpq]]]:
    """``sum_{n<N} T_n`` and ``[(U_N, slack_N), (U_{N+1}, slack_{N+1})]`` in units of
    ``2^-frac``, exactly (see the module doc): the code stops at ``N`` or ``N + 1`` (at
    ``N + 1`` the rounded term is at most ``T_N/2`` plus a few units, far below the
    rounded-down sum's ``2^-bits``, which is at least ``2^15`` units)."""
    scale = flint.fmpq(2) ** frac
    x = flint.fmpq(man) * flint.fmpq(2) ** exp
    x2 = x * x
    term = x * scale
    total = term
    err = flint.fmpq(0) if exp + frac >= 0 else 1 / term     # e_0
    slack = flint.fmpq(0)                                    # sum_{n<N} T_n e_n
    n = 0
    stop = None
    bounds = []
    while len(bounds) < 2:
        term = term * x2 / (2 * n + 3)
        n += 1
        err += 1 / term
        ratio = x2 / (2 * n + 3)
        if stop is None and 2 * ratio < 1 and term * 2**bits <= total:
            stop = total
        if stop is not None:
            tail = term / (1 - ratio)
            bounds.append((total + tail, slack + tail * err + 1))
        total += term
        slack += term * err
    assert stop is not None
    return stop, bounds


def _check(man: int, exp: int, bits: int) -> None:
    frac = bits + 16 + max(0, -(exp + man.bit_length()))     # as normal_sf chooses it
    lo, hi = marsaglia_sum(man, exp, bits, frac)
    partial, ((u_n, slack_n), (u_next, slack_next)) = _spec(man, exp, bits, frac)
    # all rounding is upward: at least U at the code's stop, and U_{N+1} <= U_N
    assert u_next <= hi <= max(u_n + slack_n, u_next + slack_next), float(hi - u_n)
    # lower end: the partial sum up to the code's stop (N or N + 1), each floored term
    # below its exact value by at most T_n e_n (as above, with floors)
    assert partial - slack_n <= lo <= u_n


def points() -> st.SearchStrategy[tuple[int, int]]:
    """``x = man 2^exp`` from ``2^-300`` to 12 (a few hundred exact terms at most)."""
    return dyadic_points(40, (-300, 4), 12)


@settings(max_examples=share(Fraction(1, 2)))
@given(point=points(), bits=st.integers(8, 300))
def test_upper_end_is_the_stated_geometric_bound(point: tuple[int, int], bits: int) -> None:
    _check(*point, bits)


def test_upper_end_at_hand_worked_points() -> None:
    """``x = 5`` (terms grow to ``T_12`` before they fall: the slack is amplified rounding),
    ``x = 1``, ``x = 3/2``, ``x = 7/8``, ``x = 2^-40`` (one term, the tail after it at once)."""
    for man, exp, bits in ((5, 0, 40), (1, 0, 40), (3, -1, 100), (7, -3, 200), (1, -40, 8),
                           (11, 0, 300)):
        _check(man, exp, bits)
