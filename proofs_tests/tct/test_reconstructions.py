"""The CL23 reconstruction and open-question checks can fail.

``test_errata_confirmed`` shows each check passes on the library as it is; that alone
would let a check that can no longer fail (a conjunct dropped, a comparison weakened) pass
too.  Here each piece of evidence a check relies on is replaced, one at a time, by a value
that breaks exactly one of its conditions (and, where a condition is an inequality, by one
that meets it with equality), and the check must then refuse or accept as its statement
says.  What the checks print: ``test_reconstructions_values.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction as F
from types import SimpleNamespace
from typing import Any

import pytest
from mpmath import mp

from proofs_tests.tct.reconstruction_support import (
    TINY,
    as_mpf,
    boundary_oracle_q,
    confirmed,
    fake_result,
    point,
    up,
    wrapper_loss,
)
from reference.core.numeric import Interval, exact
from reference.results.tct import reconstructions as rec
from reference.results.tct import selection
from reference.results.tct.charging import hits_for_delta, tct_tail
from reference.results.tct.oracle import best_q
from reference.results.tct.selection import SelectionBound
from reference.results.tct.transcripts import profile_delta
from reference.results.tct.wrappers import (
    BoundaryTarget,
    RunTwiceTarget,
    WrapperPrivacy,
    boundary_wrap,
)


def test_formulas_check_needs_the_exact_q_the_enclosure_and_the_witness(
        patch: Callable[[str, Any], None]) -> None:
    opt = best_q([F(7, 8), F(1, 8)], [F(5, 8), F(3, 8)], [1], w=F(3))
    for q in (F(1, 4) + F(1, 10**60), F(1, 4) - F(1, 10**60)):
        patch("best_q", lambda *a, q=q, **k: replace(opt, q=q))
        assert not confirmed(rec._check_formulas)
    patch("best_q", lambda *a, **k: replace(opt, witness=None))
    assert not confirmed(rec._check_formulas)
    bad: Any = SimpleNamespace(check=lambda P, Q: False)
    patch("best_q", lambda *a, **k: replace(opt, witness=bad))
    assert not confirmed(rec._check_formulas)
    patch("best_q", best_q)
    for lo, hi, ok in ((up(0.25), 0.3, False), (0.2, mp.mpf("0.25") - 2.0**-40, False),
                       (0.2, 0.3, True), (0.25, 0.25, True)):
        patch("notprior_q", fake_result(lambda eps, lo=lo, hi=hi: Interval(mp.mpf(lo), mp.mpf(hi))))
        assert confirmed(rec._check_formulas) is ok, (lo, hi)


def test_tail_check_needs_every_row_ordered(patch: Callable[[str, Any], None]) -> None:
    real = tct_tail
    for broken_q in ("0.475", "0.95"):
        for field, other in (("exact", "raw"), ("raw", "simplified")):
            def fake(q: Any, tau: Any, alpha: Any, broken_q: str = broken_q, field: str = field,
                     other: str = other) -> Any:
                b = real.certified(q=q, tau=tau, alpha=alpha)
                if q != broken_q or tau not in (20, 3):
                    return b
                return b._replace(**{field: point(up(getattr(b, other).lo))})
            patch("tct_tail", fake_result(fake))
            assert not confirmed(rec._check_tail), (broken_q, field)
    def touching(q: Any, tau: Any, alpha: Any) -> Any:
        b = real.certified(q=q, tau=tau, alpha=alpha)
        return b._replace(exact=point(b.raw.lo), simplified=point(b.raw.hi))
    patch("tct_tail", fake_result(touching))
    result = rec._check_tail.verify()
    assert result.confirmed, result.detail


def test_rounding_check_fails_when_one_exact_tail_exceeds_raw(
        patch: Callable[[str, Any], None]) -> None:
    real = tct_tail
    for where in ((F(1, 50), 1, F(1, 10)), (F(49, 50), 21, F(2))):
        def fake(q: Any, tau: Any, alpha: Any, where: Any = where) -> Any:
            b = real.certified(q=q, tau=tau, alpha=alpha)
            if (q, tau, alpha) != where:
                return b
            return b._replace(exact=point(b.raw.lo))
        patch("tct_tail", fake_result(fake))
        result = rec._check_rounding.verify()
        assert not result.confirmed and "<= 1.0000 < 1" in result.detail


def test_between_check_needs_oracle_and_closed_form_to_agree(
        patch: Callable[[str, Any], None]) -> None:
    # the check compares at 53 bits: a shift of 1e-12 shows, 1e-20 would not
    for shift, ok in ((F(1, 10**12), False), (-F(1, 10**12), False), (F(0), True)):
        patch("best_q", lambda *a, shift=shift, **k: replace(best_q(*a, **k),
                                                              q=best_q(*a, **k).q + shift))
        assert confirmed(rec._check_between) is ok


def test_wrapper_check_puts_the_loss_strictly_above_the_test_value_and_at_most_the_general(
        patch: Callable[[str, Any], None]) -> None:
    loss = wrapper_loss()
    assert abs(loss - mp.mpf("0.12608115")) < 1e-8
    with mp.workdps(80):
        below = loss - TINY
    cases = (((below, loss), True), ((loss, loss), False), ((below, below), False))
    for (test_hi, gen_lo), ok in cases:
        patch("wrapped_test_privacy", fake_result(
            lambda eps, h=test_hi: WrapperPrivacy(Interval(h - 1, h))))
        patch("wrapped_privacy", fake_result(
            lambda eps, lo=gen_lo: WrapperPrivacy(Interval(lo, lo + 1))))
        assert confirmed(rec._check_wrapper_t) is ok, (test_hi, gen_lo)


def test_boundary_q_check_orders_conservative_exact_and_oracle(
        patch: Callable[[str, Any], None]) -> None:
    q, tol = boundary_oracle_q(), mp.mpf("1e-4")
    # (cons.hi, ex.lo, ex.hi) -> confirmed
    cases = (((q - 1, q, q), True), ((q - 1, up(q), up(q)), False),
             ((q - 1 / 2, q - 1 / 2, q), False), ((q - 2, q - 1, q - tol + 1e-12), True),
             ((q - 2, q - 1, q - tol - 1e-12), False))
    for (cons_hi, ex_lo, ex_hi), ok in cases:
        patch("wrapped_test_target", fake_result(
            lambda eps, c=cons_hi: BoundaryTarget(Interval(c - 1, c), point(0))))
        patch("wrapped_test_target_exact", fake_result(
            lambda eps, lo=ex_lo, hi=ex_hi: BoundaryTarget(Interval(lo, hi), point(0))))
        assert confirmed(rec._check_boundary_q) is ok, (cons_hi, ex_lo, ex_hi)


def test_run_twice_check_needs_derived_below_oracle_below_the_limit(
        patch: Callable[[str, Any], None]) -> None:
    w = F(11, 10)
    limit = (w + 1) / (w + 1 + w * w)
    oracle = best_q
    calls: list[F] = []

    def spy(*a: Any, **k: Any) -> Any:
        opt = oracle(*a, **k)
        calls.append(opt.q)
        return opt
    patch("best_q", spy)
    assert confirmed(rec._check_run_twice)
    q = as_mpf(calls[-1])
    for hi, ok in ((q, True), (up(q), False)):
        patch("run_twice_target", fake_result(
            lambda eps, hi=hi: RunTwiceTarget(Interval(hi - 1, hi), point(0))))
        assert confirmed(rec._check_run_twice) is ok
    patch("run_twice_target", fake_result(
        lambda eps: RunTwiceTarget(point(0), point(0))))
    patch("best_q", lambda *a, **k: replace(oracle(*a, **k), q=limit))
    assert not confirmed(rec._check_run_twice)


def test_big_o_check_needs_the_limit_and_a_rising_constant(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ln = mp.log(10**12)
    limit = 2 / mp.log(2)
    cases = (((limit + mp.mpf("0.009"), 3, 4), True), ((limit + mp.mpf("0.011"), 3, 4), False),
             ((limit - mp.mpf("0.011"), 3, 4), False), ((2.89, 2.889, 4), False),
             ((2.89, 4.001, 4), False), ((2.89, 5, 4), False))
    for cs, ok in cases:
        table = dict(zip(("0.001", "0.1", "0.5"), cs, strict=True))

        def fake(eps: str, delta: str, table: Any = table) -> SelectionBound:
            with mp.workdps(40):
                return SelectionBound(mp.mpf(table[eps]) * mp.mpf(eps) * ln, mp.mpf(delta),
                                      mp.mpf(1))
        monkeypatch.setattr(selection, "top_one", fake)
        result = rec._check_big_o.verify()
        assert result.confirmed is ok, cs
    assert "at delta = 1e-12: 2.89, 5.0, 4.0 at eps = 0.001, 0.1, 0.5 (limit 2/ln 2 = 2.885)" \
        in result.detail


def test_coefficients_check_needs_both_lists(patch: Callable[[str, Any], None]) -> None:
    real = hits_for_delta
    for alpha, field in (("2", "simplified"), ("0.5", "raw")):
        def fake(delta: Any, alpha: str, bad: str = alpha, field: str = field) -> Any:
            r = real(delta=delta, alpha=alpha)
            return r if alpha != bad else r._replace(**{field: getattr(r, field) + mp.mpf("0.01")})
        patch("hits_for_delta", fake)
        assert not confirmed(rec._check_coefficients), (alpha, field)


def test_multi_check_needs_the_pair_strictly_above_each_single_and_at_most_their_sum(
        patch: Callable[[str, Any], None]) -> None:
    real = profile_delta
    values: list[F] = []

    def spy(*a: Any) -> F:
        values.append(real(*a))
        return values[-1]
    patch("profile_delta", spy)
    assert confirmed(rec._check_multi)
    d2, da, db = values[-3:]
    for new, ok in ((max(da, db), False), (da + db, True), (da + db + F(1, 10**30), False),
                    (max(da, db) + F(1, 10**30), True)):
        seq = iter((new, da, db))
        patch("profile_delta", lambda *a, seq=seq: next(seq))
        assert confirmed(rec._check_multi) is ok, new
    assert d2 > max(da, db)


def test_gap_check_needs_each_gap_on_the_closed_form_and_rising(
        patch: Callable[[str, Any], None]) -> None:
    for gap_index in range(3):
        count = iter(range(3))

        def fake(*a: Any, gap_index: int = gap_index, count: Any = count, **k: Any) -> Any:
            opt = best_q(*a, **k)
            return replace(opt, q=opt.q - F(1, 10**9)) if next(count) == gap_index else opt
        patch("best_q", fake)
        assert not confirmed(rec._check_gap), gap_index


def test_wrapper_check_reads_the_ratio_both_ways(patch: Callable[[str, Any], None]) -> None:
    """With the two laws swapped the largest ratio is some b/a: the same loss, confirmed."""
    w, s = F(11, 10), F(1, 10**6)
    a_in = [1 - s - 1 / (2 * w), s, 1 / (2 * w)]
    b_in = [F(1, 2) - s / w, s / w, F(1, 2)]
    patch("boundary_wrap", lambda p: boundary_wrap(b_in if p == a_in else a_in))
    result = rec._check_wrapper_t.verify()
    assert result.confirmed and "loss 0.12608115 >" in result.detail


def test_the_laws_the_checks_build_are_distributions(patch: Callable[[str, Any], None]) -> None:
    seen: list[list[F]] = []

    def spy(p: list[F]) -> Any:
        seen.append(list(p))
        return boundary_wrap(p)
    patch("boundary_wrap", spy)
    assert confirmed(rec._check_wrapper_t) and confirmed(rec._check_boundary_q)
    assert len(seen) == 4
    for p in seen:
        assert sum(p) == 1 and min(p) >= 0, p


def exact_fraction(x: Any) -> F:
    return exact(x, "x", "test")


def test_between_check_tolerance_is_strict_and_1e_30(patch: Callable[[str, Any], None]) -> None:
    """The oracle and closed form must differ by less than ``10**-30`` (as a 53-bit number):
    equal to it is refused, half of it accepted."""
    t = mp.mpf(10) ** -30
    patch("between_thresholds_q", fake_result(lambda eps, gap: point(0)))
    for q, ok in ((exact_fraction(t), False), (exact_fraction(t) / 2, True)):
        patch("best_q", lambda *a, q=q, **k: replace(best_q(*a, **k), q=q))
        assert confirmed(rec._check_between) is ok, q


def test_boundary_q_check_refuses_an_oracle_exactly_1e_4_above_the_exact_form(
        patch: Callable[[str, Any], None]) -> None:
    q = boundary_oracle_q()
    with mp.workdps(100):
        ex_hi = q - mp.mpf("1e-4")      # exact: q - ex_hi is then 1e-4 to the bit at 53 bits
    assert q - ex_hi == mp.mpf("1e-4")
    patch("wrapped_test_target", fake_result(lambda eps: BoundaryTarget(point(q - 1), point(0))))
    for hi, ok in ((ex_hi, False), (ex_hi + mp.mpf(2) ** -60, True)):
        patch("wrapped_test_target_exact", fake_result(
            lambda eps, hi=hi: BoundaryTarget(Interval(q - 1 / 2, hi), point(0))))
        assert confirmed(rec._check_boundary_q) is ok, hi


def test_big_o_check_needs_strictly_rising_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    """Constants equal at two eps are refused.  The fake returns ``K * eps * ln(10**12)``
    exactly (at 400 digits), so the check's quotient at 40 digits is ``K`` to the bit."""
    with mp.workdps(40):
        k0, ln = 2 / mp.log(2), mp.log(10**12)
        # abs(c0 - limit) is exact (Sterbenz); it can equal 0.01 only if limit +- 0.01 is a
        # 40-digit number, which it is not: '<' and '<=' there cannot differ
        assert (k0 + mp.mpf("0.01")) - k0 != mp.mpf("0.01")
        assert k0 - (k0 - mp.mpf("0.01")) != mp.mpf("0.01")
    for cs, ok in (((k0, k0, mp.mpf(8)), False), ((k0, mp.mpf(8), mp.mpf(8)), False),
                   ((k0, mp.mpf(4), mp.mpf(8)), True)):
        table = dict(zip(("0.001", "0.1", "0.5"), cs, strict=True))

        def fake(eps: str, delta: str, table: Any = table) -> SelectionBound:
            with mp.workdps(40):
                d = mp.mpf(eps) * ln
            with mp.workdps(400):
                return SelectionBound(table[eps] * d, mp.mpf(delta), mp.mpf(1))
        monkeypatch.setattr(selection, "top_one", fake)
        assert rec._check_big_o.verify().confirmed is ok, cs


def test_rounding_check_reads_every_grid_value(patch: Callable[[str, Any], None]) -> None:
    """One exact tail pushed up to its raw bound at a point using q = 1/4, alpha = 1/2,
    tau = 3, and at one using q = 19/40, alpha = 2, tau = 8: each is on the grid."""
    real = tct_tail
    for where in ((F(1, 4), 3, F(1, 2)), (F(19, 40), 8, F(2))):
        def fake(q: Any, tau: Any, alpha: Any, where: Any = where) -> Any:
            b = real.certified(q=q, tau=tau, alpha=alpha)
            return b._replace(exact=point(b.raw.lo)) if (q, tau, alpha) == where else b
        patch("tct_tail", fake_result(fake))
        assert not confirmed(rec._check_rounding), where


def test_rounding_check_counts_a_ratio_within_5e_13_of_one_as_one(
        patch: Callable[[str, Any], None]) -> None:
    """The worst ratio is read at 12 significant digits, rounded to nearest: 1 - 1e-13
    reads as 1 (refused), 1 - 1e-11 as itself (accepted)."""
    real = tct_tail
    for gap, ok in ((mp.mpf("1e-13"), False), (mp.mpf("1e-11"), True)):
        def fake(q: Any, tau: Any, alpha: Any, gap: Any = gap) -> Any:
            b = real.certified(q=q, tau=tau, alpha=alpha)
            if (q, tau, alpha) != (F(1, 50), 1, F(1, 10)):
                return b
            with mp.workdps(60):
                return b._replace(exact=point(b.raw.lo * (1 - gap)))
        patch("tct_tail", fake_result(fake))
        assert confirmed(rec._check_rounding) is ok, gap
