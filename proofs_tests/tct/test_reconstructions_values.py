"""What the CL23 reconstruction checks print, against routes of their own.

The numbers a check prints are pinned against exact rational binomial tails, Chernoff forms
at 30 digits and closed forms derived by hand; each number an erratum's consequence states
(what ``python -m reference errata`` shows a user) must be what its live check prints.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import mpmath
import pytest
from mpmath import mp

from proofs_tests.tct.reconstruction_support import (
    as_mpf,
    chernoff,
    exact_tail,
)
from reference.results.tct import reconstructions as rec

# --- what the checks print, against routes of their own --------------------------------

def test_tail_rows_are_the_exact_tail_and_both_chernoff_forms() -> None:
    detail = rec._check_tail.verify().detail
    for q, alpha, tau in (("0.475", "0.5", 20), ("0.475", "1", 50), ("0.2689", "2", 10),
                          ("0.05", "0.25", 8), ("0.95", "4", 3)):
        _, exact = exact_tail(F(q), tau, F(alpha))
        raw, simplified = chernoff(tau, F(alpha))
        with mp.workdps(30):
            row = (f"(q={q}, alpha={alpha}, tau={tau}): {mpmath.nstr(as_mpf(exact), 3)} <= "
                   f"{mpmath.nstr(raw, 3)} <= {mpmath.nstr(simplified, 3)}")
        assert row in detail, (row, detail)
    assert detail.count("; ") == 4


def test_worst_ratio_of_exact_tail_to_raw_chernoff_on_the_grid() -> None:
    worst = max(as_mpf(exact_tail(q, tau, alpha)[1]) / chernoff(tau, alpha)[0]
                for q in (F(1, 50), F(1, 4), F(19, 40), F(49, 50))
                for alpha in (F(1, 10), F(1, 2), F(2)) for tau in (1, 3, 8, 21))
    assert 0.39 < worst < 0.40
    assert f"<= {float(worst):.4f} < 1 over" in rec._check_rounding.verify().detail


def test_between_thresholds_value_is_26_over_81() -> None:
    # (1 - (2/3)^4) / (3/2 + 1) = (65/81) (2/5) = 26/81 = 0.320987654...
    detail = rec._check_between.verify().detail
    assert detail.endswith(": 0.32098765; CL23:LemG.1: 0.32098765")


def test_gap_values_are_a_third_of_one_minus_two_to_the_minus_gap() -> None:
    detail = rec._check_gap.verify().detail
    assert "gaps 1, 3, 8: 1/6, 7/24, 85/256 = (1/3)" in detail


def test_coefficients_are_the_chernoff_inverses() -> None:
    # simplified 2(1+a)/a^2, raw 1/(a - ln(1+a)) at ln(1/delta) = 1
    simp = [2 * (1 + a) / a**2 for a in (0.5, 1.0, 2.0)]
    raw = [round(1 / (a - math.log1p(a)), 2) for a in (0.5, 1.0, 2.0)]
    assert rec._check_coefficients.verify().detail == f"simplified {simp}, raw {raw}"


# --- what the errata state, the checks compute -----------------------------------------

STATED = ("CL23:R1-tail", "CL23:R2-LemG.1", "CL23:Q1-Lem2.8", "CL23:Q2-Lem2.9", "CL23:Q3-LemF.1",
          "CL23:Q4-big-O", "CL23:Q5-ThmB.4", "CL23:Q7-Lem2.7", "CL23:Q8-BSU17")


@pytest.mark.parametrize("eid", STATED)
def test_each_number_an_erratum_states_is_printed_by_its_check(eid: str) -> None:
    """The consequence a user reads (``python -m reference errata``) is backed by the live
    check: each number it states, with its printed digits, appears in the check's detail
    (a number followed by further digits does not count)."""
    entry = next(e for e in rec.__dict__.values() if getattr(e, "id", None) == eid)
    detail = entry.verify().detail
    numbers = re.findall(r"\d+/\d+|\d+\.\d+(?:e-?\d+)?", entry.consequence)
    assert numbers, entry.consequence
    for number in numbers:
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", detail), (number, detail)
