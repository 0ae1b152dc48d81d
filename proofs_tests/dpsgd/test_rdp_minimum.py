"""The DP-SGD RDP minimum on Arb's balls (:mod:`reference.results.dpsgd.rdp_minimum`): the
balls' enclosure against the same proof run in mpmath's ``iv`` (each must hold the exact
minimum, so the two overlap; both about ``2^-80`` wide), the plain value against ``mp`` at
twice the precision (a faithful rounding), and the routes taken where Arb fails (``iv`` and
``mp`` do the work, with the same answers as those evaluators give directly)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import flint
import mpmath
import pytest
from mpmath import iv, mp

from proofs_tests.arb_support import BrokenBalls
from proofs_tests.dpsgd_accountant_support import _STD, _independent_min
from reference import certified
from reference.core import fastballs
from reference.core.fastballs import FAST
from reference.core.numeric import to_ctx
from reference.results import covers
from reference.results.conversions.cks20 import _log_inv
from reference.results.dpsgd import rdp_accountant as ra
from reference.results.dpsgd import rdp_minimum as rm
from reference.results.dpsgd.rdp_accountant import dpsgd_delta_rdp, dpsgd_eps_rdp

F = Fraction
#: (q, sigma, steps, delta or eps, ratio): the eps form (ratio) and the delta form, at the
#: docstring's input, a small q, sigma = 10^6 (normal tails beyond |x| = 65536) and a
#: large step count.
_CASES = [(*_STD, True), (F(1, 1000), F(4, 5), 100_000, F(1, 10**9), True),
          (F(1, 1000), F(10**6), 1, F(1, 10**5), True), (F(1, 100), F(1), 100, F(1, 2), False),
          (F(1, 10), F(2), 10**6, F(3), False)]


def _objective(case: tuple[Any, ...]) -> tuple[rm.Objective, bool]:
    q, sigma, steps, target, ratio = case

    def extra(c: Any, alpha: Fraction) -> Any:
        if ratio:
            return _log_inv(c, target) + ra._order_terms(c, alpha)
        return -to_ctx(c, (alpha - 1) * target) + ra._order_terms(c, alpha)
    return ra._rdp_objective(q, sigma, steps, extra), ratio


def _order(h: rm.Objective, ratio: bool) -> Fraction:
    with mpmath.workprec(rm._SCAN_BITS):
        return rm._search(lambda a: rm._value(h, ratio, a, mp.prec), F(rm.MAX_SEARCH_ORDER))


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize("case", _CASES, ids=["std", "q1e-3", "sigma1e6", "delta", "delta-T1e6"])
def test_balls_and_intervals_prove_overlapping_narrow_enclosures(case: tuple[Any, ...]) -> None:
    h, ratio = _objective(case)
    a_hat = _order(h, ratio)
    found = {}
    for ctx in (FAST, iv):
        with rm.at_bits(ctx, rm._IV_BITS):
            found[ctx] = rm._enclose(ctx, h, ratio, a_hat)
    (lo_b, hi_b), (lo_i, hi_i) = found[FAST], found[iv]
    assert mpmath.isfinite(lo_b) and mpmath.isfinite(lo_i)       # both proved a minimum
    assert max(lo_b, lo_i) <= min(hi_b, hi_i)                     # each holds the minimum
    with mp.workprec(400):
        for lo, hi in (found[FAST], found[iv]):
            assert hi - lo <= abs(hi) * mp.mpf(2) ** -70 + mp.mpf(2) ** -400
        # the same proof in two evaluators: widths within 4x of each other
        assert hi_b - lo_b <= 4 * (hi_i - lo_i) and hi_i - lo_i <= 4 * (hi_b - lo_b)


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
@pytest.mark.parametrize("case", _CASES[:3], ids=["std", "q1e-3", "sigma1e6"])
@pytest.mark.parametrize("bits", [64, 200])
def test_plain_value_is_a_faithful_rounding(case: tuple[Any, ...], bits: int) -> None:
    """Off Arb's ball at ``bits`` bits: within one unit in the last place of ``mp``'s value
    at twice the bits plus 64 (the ball is asked to pin the rounding with 8 bits to spare)."""
    h, ratio = _objective(case)
    alpha = F(17, 2) + F(1, 10**6)
    got = rm._value(h, ratio, alpha, bits)
    with mpmath.workprec(2 * bits + 64):
        want = h(mp, alpha) / (alpha - 1) if ratio else h(mp, alpha)
        assert abs(got - want) <= abs(want) * mp.mpf(2) ** (1 - bits)


@covers("DPSGD:eps-rdp", "DPSGD:delta-rdp")
def test_where_arb_fails_iv_and_mp_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every use of the balls failing, the enclosure is the ``iv`` proof's (the same
    ends as :func:`rm._enclose` in ``iv``), the plain value ``mp``'s, and ``delta_bound``
    (the PLD's cap) the ``iv`` one's; the answers hold the balls' answers' minimum."""
    q, sigma, steps, delta = _STD
    eps = F(7)
    with_balls = (certified(dpsgd_eps_rdp, q=q, sigma=sigma, steps=steps, delta=delta),
                  certified(dpsgd_delta_rdp, q=q, sigma=sigma, steps=steps, eps=eps),
                  dpsgd_eps_rdp(q=q, sigma=sigma, steps=steps, delta=delta),
                  ra.delta_bound(q, sigma, steps, eps))
    h, ratio = _objective((*_STD, True))
    a_hat = _order(h, ratio)
    with rm.at_bits(iv, rm._IV_BITS):
        iv_lo, iv_hi = rm._enclose(iv, h, ratio, a_hat)
    monkeypatch.setattr(rm, "FAST", BrokenBalls())
    monkeypatch.setattr(ra, "FAST", BrokenBalls())
    monkeypatch.setattr(fastballs, "FAST", BrokenBalls())   # the enclosure's (ends_on_balls)
    enc = certified(dpsgd_eps_rdp, q=q, sigma=sigma, steps=steps, delta=delta)
    assert (enc.lo, enc.hi) == (iv_lo, iv_hi)
    assert max(enc.lo, with_balls[0].lo) <= min(enc.hi, with_balls[0].hi)
    enc_delta = certified(dpsgd_delta_rdp, q=q, sigma=sigma, steps=steps, eps=eps)
    assert max(enc_delta.lo, with_balls[1].lo) <= min(enc_delta.hi, with_balls[1].hi)
    plain = dpsgd_eps_rdp(q=q, sigma=sigma, steps=steps, delta=delta)
    assert enc.lo <= plain <= enc.hi
    assert abs(plain - with_balls[2]) <= abs(plain) * mp.mpf(10) ** -40
    bound = ra.delta_bound(q, sigma, steps, eps)
    assert abs(bound - with_balls[3]) <= bound * mp.mpf(2) ** -50 and bound >= enc_delta.hi


@covers("DPSGD:eps-rdp")
def test_an_order_off_the_optimum_still_gives_an_enclosure_of_the_minimum() -> None:
    """From an order 2^-20 (relative, in alpha - 1) off the one found, the value there lies
    above the minimum by about 2^-40 of it, so only the proved lower end (the four points'
    secants) keeps the minimum inside: the enclosure's lower end is the lesser of the two,
    and it holds the independent minimum (mpmath's findroot on the slope, 60 digits)."""
    h, ratio = _objective((*_STD, True))
    a_hat = _order(h, ratio)
    off = 1 + (a_hat - 1) * (1 + F(1, 2**20))
    want, _ = _independent_min(_STD)
    for ctx in (FAST, iv):
        with rm.at_bits(ctx, rm._IV_BITS):
            lo, hi = rm._enclose(ctx, h, ratio, off)
            at_off = rm._enclose(ctx, h, ratio, a_hat)
        with mp.workprec(300):
            assert lo <= want <= hi, (ctx, lo, want, hi)
            assert want < at_off[1] < hi                  # the value at the off order: above
            assert hi - want > want * mp.mpf(2) ** -50    # by far more than the widths


def _spy(h: rm.Objective, seen: list[Any]) -> rm.Objective:
    def spied(ctx: Any, alpha: Fraction) -> Any:
        seen.append(ctx)
        return h(ctx, alpha)
    return spied


@covers("DPSGD:eps-rdp")
@pytest.mark.parametrize("bits", [64, 128, 200])
def test_plain_values_come_from_the_balls_where_they_pin_the_rounding(bits: int) -> None:
    """At the standard input the ball at ``bits + 16`` bits pins the value: ``mp`` never runs."""
    h, ratio = _objective((*_STD, True))
    seen: list[Any] = []
    rm._value(_spy(h, seen), ratio, F(17, 2) + F(1, 10**6), bits)
    assert seen == [FAST]


@covers("DPSGD:eps-rdp")
def test_a_ball_too_wide_to_pin_the_rounding_leaves_the_value_to_mp() -> None:
    """A ball whose radius is about ``2^-(bits+4)`` of it (fewer than ``bits + 8`` bits)
    does not pin: the value is mp's (here, deliberately, another number, so the route
    shows); at ``2^-(bits+12)`` the ball's midpoint, rounded."""
    bits = 100

    def h(ctx: Any, alpha: Fraction) -> Any:
        if ctx is FAST:
            return flint.arb(1, flint.arb(2) ** -(bits + shift))
        return mp.mpf(2)

    for shift, want in ((4, 2), (12, 1)):
        assert rm._value(h, False, F(3, 2), bits) == want, shift


_OFF_CASES = [_STD, (F(1, 1000), F(4, 5), 100_000, F(1, 10**9)),
              (F(1, 10), F(4), 1000, F(1, 10**5))]


@covers("DPSGD:eps-rdp")
@pytest.mark.parametrize("case", _OFF_CASES, ids=["std", "q1e-3", "q0.1"])
@pytest.mark.parametrize("k", [12, 24, 33])
@pytest.mark.parametrize("side", [-1, 1])
def test_from_orders_around_the_optimum_the_proof_holds_the_minimum(
        case: tuple[Any, ...], k: int, side: int) -> None:
    """The four-point proof from orders ``2^-k`` (relative, in ``alpha - 1``) left and right
    of the optimum: the enclosure holds the independent minimum (mpmath, 60 digits), on
    balls and in iv, and its upper end (the value there) is above it by about ``2^-2k``:
    the proved lower end, not the value, keeps the minimum inside."""
    h, ratio = _objective((*case, True))
    a_hat = _order(h, ratio)
    off = 1 + (a_hat - 1) * (1 + side * F(1, 2**k))
    want, _ = _independent_min(case)
    for ctx in (FAST, iv):
        with rm.at_bits(ctx, rm._IV_BITS):
            lo, hi = rm._enclose(ctx, h, ratio, off)
        with mp.workprec(300):
            assert lo <= want <= hi, (ctx, lo, want, hi)
            assert hi - want > want * mp.mpf(2) ** -(2 * k + 12)
            assert want - lo <= want * mp.mpf(2) ** -k     # proved, not vacuous
