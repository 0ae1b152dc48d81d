"""Certified inverses (reference.core.model ``Result.certify``) whose forward enclosures
cannot decide every point: the escalation to 4x the digits, its limit, and an enclosure
that touches the target from above (undecided, never infeasible).

Toy forwards whose exact inverses are known by hand (u <= t: u* = t; max(u - 1, 0) <= 0:
u* = 1), enclosed more loosely than needed (valid enclosures), so that the undecided zone
around the inverse is known exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mpmath import iv, mp

from reference import precision
from reference.core.certificates import tight
from reference.core.model import inverse, result
from reference.core.numeric import exact, working
from reference.core.params import nonneg, real


def q(x: Any) -> Fraction:
    return exact(x, "x", "test")


# ---- escalation: a forward whose enclosure cannot tell points close to the inverse ----
#: The half-width of T:Fuzzy's enclosure: 2^-(prec/2) relative to the precision (it
#: shrinks as digits are added), or a fixed 2^-20 (it never does).
NOISE: dict[str, int | None] = {"bits": None}


@result("T:Fuzzy", title="u, enclosed loosely", kind="bound", statement="u",
        params=[real("u")])
def fuzzy(ctx: Any, u: Any) -> Any:
    """u; in iv widened by 2^-(prec/2) (or by 2^-NOISE bits): a valid, loose enclosure."""
    if ctx is not iv:
        return +u
    bits = NOISE["bits"] if NOISE["bits"] is not None else iv.prec // 2
    r = iv.mpf(2) ** -bits
    return u + iv.mpf([-r.b, r.b])


@inverse("T:Fuzzy-inverse", title="largest u with u <= t", statement="t",
         params=[real("t")], forward=fuzzy, unknown="u", target="t", increasing=True)
def fuzzy_inverse(ctx: Any, t: Any) -> Any:
    """t (the exact inverse)."""
    return +t


@pytest.fixture()
def _noise() -> Any:
    yield NOISE
    NOISE["bits"] = None


@pytest.mark.parametrize("dps", [15, 50, 2500])
def test_an_undecided_midpoint_escalates_to_four_times_the_digits(dps: int, _noise: Any) -> None:
    """u <= t has the largest solution t, but the forward's enclosure is 2^-(prec/2) wide:
    at the working precision every point within that of t is undecided, so the bracket
    stops about 2^(prec/2) ulps wide, far wider than the 2^(16 - prec) relative
    ``tight`` allows.  With 4x the digits the enclosure is 2^-(2 prec) wide and the
    bracket tight at the caller's precision.  At dps 2500, 4 x 2500 is exactly the limit
    (10000 digits, MAX_INVERSE_DPS): still escalated.  (At dps 15 the forward's guard
    digits already narrow the zone below the tolerance: the certificate is tight without
    escalating, which the same assertions check.)"""
    t = Fraction(7, 3)
    with precision(dps), working(mp):
        bits = mp.prec
        cert = fuzzy_inverse(t=t)
    assert cert.holds and q(cert.value) <= t
    assert q(cert.lo) <= t <= q(cert.hi)
    assert tight(q(cert.lo), q(cert.hi), bits)
    # one precision only would have stopped at least 2^-(prec/2) away from t on each side
    assert t - q(cert.value) < Fraction(1, 2 ** (bits // 2))


def test_escalation_stops_at_the_digit_limit_and_reports_the_undecided_bracket(
        _noise: Any) -> None:
    """With a fixed 2^-20 half-width no precision decides points within 2^-20 of t: the
    digits go 50, 200, 800, 3200 and stop there (4 x 3200 > 10000); the certificate still
    holds, brackets t, and is as wide as the undecided zone (not tight)."""
    NOISE["bits"] = 20
    t = Fraction(7, 3)
    cert = fuzzy_inverse(t=t)
    noise = Fraction(1, 2**20)
    assert cert.holds and q(cert.value) <= t - noise
    assert q(cert.lo) <= t - noise and t + noise <= q(cert.hi)
    with working(mp):
        assert not tight(q(cert.lo), q(cert.hi), mp.prec)
    assert q(cert.hi) - q(cert.lo) <= 8 * noise


@result("T:Flat", title="max(u - 1, 0), enclosed loosely on [1/2, 1]", kind="bound",
        statement="max(u - 1, 0)", params=[real("u")])
def flat(ctx: Any, u: Any) -> Any:
    """max(u - 1, 0): exactly 0 for u <= 1.  In iv its enclosure on [1/2, 1] is [0, 2^-30]
    (valid but loose: its lower end equals the value, 0, its upper end does not)."""
    if ctx is not iv:
        return ctx.mpf(max(u - 1, 0))
    x = u - 1
    if x.b <= 0 and u.a >= iv.mpf(1) / 2:
        return iv.mpf([0, iv.mpf(2) ** -30])
    return iv.mpf([max(x.a, 0), max(x.b, 0)])


@inverse("T:Flat-inverse", title="largest u with max(u - 1, 0) <= t", statement="1 + t",
         params=[nonneg("t")], forward=flat, unknown="u", target="t", increasing=True)
def flat_inverse(ctx: Any, t: Any) -> Any:
    """1 + t."""
    return 1 + t


def test_an_enclosure_touching_the_target_from_above_is_not_infeasible() -> None:
    """max(u - 1, 0) <= 0 holds exactly for u <= 1 (u* = 1), but on [1/2, 1] the forward
    is only enclosed as [0, 2^-30]: its lower end equals the target.  Such a point may be
    feasible (here it is), so it is undecided, not infeasible: the bracket must still
    reach u* = 1 (calling it infeasible ends the bracket below 1, a certificate that
    misses the exact inverse), and its proven-valid value lies below 1/2."""
    cert = flat_inverse(t=0)
    assert cert.holds and q(cert.value) < Fraction(1, 2)
    assert q(cert.lo) <= 1 <= q(cert.hi)
