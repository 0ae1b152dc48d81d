"""Certified inverses (reference.core.model: ``@inverse``, ``Result.certify``) on small
forward results whose exact inverses are known by hand: c u <= t has the largest solution
u = t / c, c / u <= t the smallest u = c / t, 1 - e^-u <= t the largest u = -log(1 - t).

Each certificate is checked against the exact inverse (Fractions), including the one-sided
facts the docstrings state: ``value`` satisfies the inequality (``holds``), ``[lo, hi]``
contains the exact inverse, bracketed from the infeasible side in steps a few hundred ulps
wide, and a feasible set reaching the edge of the domain ends the bracket there.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from fractions import Fraction
from typing import Any

import flint
import pytest
from mpmath import iv, mp

from reference.core.certificates import Certificate, tight
from reference.core.certificates import base_step as _base_step
from reference.core.model import inverse, result
from reference.core.numeric import Interval, endpoints, exact, exp, working
from reference.core.params import Param, nonneg, positive, real, unit_open

#: Relative error planted in the solvers (the certification must repair it).
OFFSET: dict[str, Fraction] = {"rel": Fraction(0)}
Pair = namedtuple("Pair", "value other")


def _off(ctx: Any, x: Any) -> Any:
    return x * (1 + ctx.mpf(OFFSET["rel"].numerator) / OFFSET["rel"].denominator)


@result("T:Lin", title="c u", kind="bound", statement="c u", params=[nonneg("u"),
        positive("c", default=1)])
def lin(ctx: Any, u: Any, c: Any) -> Any:
    """c u."""
    return c * u


@inverse("T:Lin-inverse", title="largest u with c u <= t", statement="t / c",
         params=[nonneg("t"), positive("c", default=1)], forward=lin, unknown="u",
         target="t", increasing=True)
def lin_inverse(ctx: Any, t: Any, c: Any) -> Any:
    """t / c (times the planted error)."""
    return _off(ctx, t / c)


@inverse("T:Lin-floor", title="largest u with c u <= t", statement="t / c",
         params=[nonneg("t"), positive("c", default=1)], forward=lin, unknown="u",
         target="t", increasing=True)
def lin_floor(ctx: Any, t: Any, c: Any) -> Any:
    """t / c rounded down to an integer (a crude solver)."""
    return ctx.floor(t / c)


@result("T:Recip", title="c / u", kind="bound", statement="c / u",
        params=[Param("u", "real", lo=Fraction(1)), positive("k", default=1)])
def recip(ctx: Any, u: Any, k: Any) -> Any:
    """k / u (decreasing in u), as a named tuple: the inverse reads one field."""
    return Pair(k / u, -u)


@inverse("T:Recip-inverse", title="smallest u >= 1 with c / u <= t", statement="c / t",
         params=[positive("t"), positive("c", default=1)], forward=recip, unknown="u",
         target="t", increasing=False, forward_output="value", fixed={"c": "k"})
def recip_inverse(ctx: Any, t: Any, c: Any) -> Any:
    """c / t (times the planted error); the domain u >= 1 may cut it off."""
    return _off(ctx, c / t)


@inverse("T:Recip-floor", title="smallest u >= 1/4 with c / u <= t", statement="c / t",
         params=[positive("t"), positive("c", default=1)], forward=recip, unknown="u",
         target="t", increasing=False, forward_output="value", fixed={"c": "k"},
         floor=Fraction(1, 4))
def recip_floor(ctx: Any, t: Any, c: Any) -> Any:
    """c / t."""
    return c / t


@inverse("T:Lin-one", title="largest u with u <= t", statement="t",
         params=[nonneg("t"), positive("c", default=1)], forward=lin, unknown="u",
         target="t", increasing=True)
def lin_one(ctx: Any, t: Any, c: Any) -> Any:
    """1, whatever t (a solver that is wrong, to reach the search's limits)."""
    return ctx.one


@inverse("T:Recip-one", title="smallest u >= 1 with c / u <= t", statement="c / t",
         params=[positive("t"), positive("c", default=1)], forward=recip, unknown="u",
         target="t", increasing=False, forward_output="value", fixed={"c": "k"})
def recip_one(ctx: Any, t: Any, c: Any) -> Any:
    """1, whatever t and c (a solver that is wrong)."""
    return ctx.one


@inverse("T:Lin-long", title="largest u with u <= t", statement="t",
         params=[nonneg("t"), positive("c", default=1)], forward=lin, unknown="u",
         target="t", increasing=True)
def lin_long(ctx: Any, t: Any, c: Any) -> Any:
    """1 + 2^-9 + 2^-168, whatever t (a full-length mantissa at 50 digits)."""
    return ctx.one + ctx.mpf(2) ** -9 + ctx.mpf(2) ** -168


@inverse("T:Recip-third", title="smallest u >= 1/3 with c / u <= t", statement="c / t",
         params=[positive("t"), positive("c", default=1)], forward=recip, unknown="u",
         target="t", increasing=False, forward_output="value", fixed={"c": "k"},
         floor=Fraction(1, 3))
def recip_third(ctx: Any, t: Any, c: Any) -> Any:
    """c / t."""
    return c / t


@result("T:Ident", title="u", kind="bound", statement="u", params=[real("u")])
def ident(ctx: Any, u: Any) -> Any:
    """u."""
    return +u


@inverse("T:Ident-inverse", title="largest u with u <= t", statement="t",
         params=[real("t")], forward=ident, unknown="u", target="t", increasing=True)
def ident_inverse(ctx: Any, t: Any) -> Any:
    """t."""
    return +t


@result("T:Sat", title="1 - e^-u", kind="bound", statement="1 - e^-u", params=[positive("u")])
def sat(ctx: Any, u: Any) -> Any:
    """1 - e^(-u)."""
    return 1 - exp(ctx, -u)


@inverse("T:Sat-inverse", title="largest u with 1 - e^-u <= t", statement="-log(1 - t)",
         params=[unit_open("t")], forward=sat, unknown="u", target="t", increasing=True)
def sat_inverse(ctx: Any, t: Any) -> Any:
    """-log(1 - t)."""
    return -ctx.log1p(-t)


def q(x: Any) -> Fraction:
    return exact(x, "x", "test")


@pytest.fixture(autouse=True)
def _no_planted_error() -> Any:
    yield
    OFFSET["rel"] = Fraction(0)


def _ulp_steps(cert: Certificate, exact_inverse: Fraction) -> tuple[Fraction, Fraction]:
    """The bracket's reach below and above the exact inverse, in units of the exact
    inverse's ulp at the working precision."""
    with working(mp):
        ulp = abs(exact_inverse) / 2**mp.prec
    return (exact_inverse - q(cert.lo)) / ulp, (q(cert.hi) - exact_inverse) / ulp


def test_an_exact_solver_point_is_kept_and_bracketed_from_above() -> None:
    """2 u <= 1: u = 1/2 exactly, where the forward enclosure is the point 1 = t (valid:
    the inequality is <=); the bracket's other end is one base step (2^8 ulps) above."""
    cert = lin_inverse(t=1, c=2)
    assert isinstance(cert, Certificate) and cert.holds and cert.unknown == "u"
    assert q(cert.value) == q(cert.lo) == Fraction(1, 2)
    assert q(cert.forward_at_value.lo) == q(cert.forward_at_value.hi) == 1 == cert.target
    below, above = _ulp_steps(cert, Fraction(1, 2))
    assert below == 0 and 100 <= above <= 1000          # "a few hundred ulps"
    assert q(lin.certified(u=q(cert.hi), c=2).lo) > 1   # hi is infeasible, proven
    assert cert.forward_id == "T:Lin" and "u = 0.5" in str(cert)


@pytest.mark.parametrize("rel", [Fraction(1, 2**100), Fraction(-1, 2**100), Fraction(1, 10**6),
                                 Fraction(-1, 10**6)])
def test_a_wrong_solver_point_is_moved_and_the_bracket_holds_the_exact_inverse(
        rel: Fraction) -> None:
    """c u <= t with c = 3, t = 1: u* = 1/3 (not a binary number).  A solver off by rel is
    moved to the feasible side in growing steps; the bracket contains 1/3 and is a few
    times the solver's error wide at most."""
    OFFSET["rel"] = rel
    cert = lin_inverse(t=1, c=3)
    star = Fraction(1, 3)
    assert cert.holds and 3 * q(cert.value) <= 1
    assert q(cert.lo) <= star <= q(cert.hi) and q(cert.lo) <= q(cert.value) <= q(cert.hi)
    width = q(cert.hi) - q(cert.lo)
    assert width <= 4 * abs(rel) * star + star / 2**150
    assert star - q(cert.value) <= 4 * abs(rel) * star + star / 2**150
    assert q(lin.certified(u=q(cert.hi), c=3).lo) > 1
    enc = lin_inverse.certified(t=1, c=3)                # iv: the bracket, mp: the value
    assert isinstance(enc, Interval) and q(enc.lo) <= star <= q(enc.hi)
    assert lin_inverse.evaluate(mp, {"t": Fraction(1), "c": Fraction(3)}) == cert.value


def test_the_bracket_end_is_proven_infeasible_even_next_to_the_inverse() -> None:
    """3 u <= t with t = 3 (1 + s), s the first bracket step from u = 1: the crude solver
    gives 1 (feasible), the first step lands on u* = 1 + s exactly, where 3 u = t is still
    feasible; the bracket goes on to a point whose forward enclosure exceeds t."""
    with working(mp):
        s = _base_step(Fraction(1))
    t = 3 * (1 + s)
    cert = lin_floor(t=t, c=3)
    assert q(cert.value) == q(cert.lo) == 1 and cert.holds
    assert q(cert.hi) > 1 + s and q(lin.certified(u=q(cert.hi), c=3).lo) > t


def test_a_decreasing_forward_a_named_output_and_a_renamed_parameter() -> None:
    """c / u <= t with c = 1, t = 2: the smallest u is 1/2 ... but u >= 1 in the forward's
    domain, so the certificate is the domain's end 1 (c / 1 = 1 <= 2); with c = 6, t = 2
    it is u = 3 exactly, bracketed from below (the infeasible side)."""
    cert = recip_inverse(t=2, c=1)
    assert q(cert.value) == q(cert.lo) == q(cert.hi) == 1 and cert.holds
    cert = recip_inverse(t=2, c=6)
    assert q(cert.value) == q(cert.hi) == 3 and cert.holds
    below, above = _ulp_steps(cert, Fraction(3))
    assert 100 <= below <= 1000 and above == 0
    assert q(recip.certified(u=q(cert.lo), k=6).value.lo) > 2
    OFFSET["rel"] = Fraction(-1, 10**9)                   # solver below: infeasible, moved up
    cert = recip_inverse(t=2, c=6)
    assert cert.holds and q(cert.lo) <= 3 <= q(cert.value) <= 3 * (1 + Fraction(4, 10**9))


def test_an_explicit_floor_replaces_the_domain_end() -> None:
    """With floor 1/4 the smallest u with 1 / u <= 2 is 1/2 itself (no longer cut at 1);
    with t = 8 it would be 1/8, below the floor: the certificate is the floor."""
    cert = recip_floor(t=2, c=1)
    assert q(cert.value) == q(cert.hi) == Fraction(1, 2) and cert.holds
    cert = recip_floor(t=8, c=1)
    assert q(cert.value) == q(cert.lo) == q(cert.hi) == Fraction(1, 4) and cert.holds


def test_an_unbounded_unknown_ranges_from_zero() -> None:
    """u <= t over the reals: the largest u is t itself; an unknown without a lower bound
    ranges over u >= 0 (the Inverse docstring's default floor), which 1/2 and 2^-40 are."""
    for t in (Fraction(1, 2), Fraction(1, 2**40)):
        cert = ident_inverse(t=t)
        assert q(cert.value) == q(cert.lo) == t and cert.holds


def test_a_target_next_to_its_domain_end_is_told_apart() -> None:
    """1 - e^-u <= t at t = 1 - 2^-300 (within 2^-300 of the end 1): u* = 300 log 2.  At 50
    digits the forward value would round to 1 and never prove <= t; the extra digits for
    the target let it.  The bracket holds u* (arb at 2000 bits)."""
    t = 1 - Fraction(1, 2**300)
    cert = sat_inverse(t=t)
    assert cert.holds
    flint.ctx.prec = 2000
    star = 300 * flint.arb.const_log2()
    assert flint.arb(flint.fmpq(*q(cert.lo).as_integer_ratio())) < star
    assert star < flint.arb(flint.fmpq(*q(cert.hi).as_integer_ratio()))
    assert q(cert.hi) - q(cert.lo) < Fraction(1, 2**150)


def test_holds_is_the_inequality_at_its_boundary_and_records_are_frozen() -> None:
    enc = Interval(mp.mpf(0), mp.mpf(1))
    cert = Certificate("T:x", mp.one, mp.one, mp.one, "T:f", enc, Fraction(1), "u")
    assert cert.holds                                      # forward hi == target: <= holds
    assert not dataclasses.replace(cert, target=Fraction(1) - Fraction(1, 2**200)).holds
    assert dataclasses.replace(cert, target=Fraction(2)).holds
    with pytest.raises(dataclasses.FrozenInstanceError):
        cert.value = mp.zero  # type: ignore[misc]
    inv = lin_inverse.inverse
    assert inv is not None and inv.fixed == {} and inv.floor is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        inv.unknown = "c"  # type: ignore[misc]
    assert recip_inverse.inverse is not None and recip_inverse.inverse.fixed == {"c": "k"}
    assert not lin_inverse.probabilistic and lin_inverse.kind == "conversion"
    assert endpoints(iv.mpf(1)).lo == 1


def test_both_searches_give_up_past_their_last_step() -> None:
    """From u = 1 the points tried are 1 + s 2^e, s the base step and e = 0 .. prec + 400
    (the search for a feasible point upward, the bracket's from the point proven valid):
    an inverse at the last point is certified, one past it refused ("could not certify" /
    "could not bracket").  The exponents are found by galloping (0, 1, 3, 7, ...) and
    bisection, about 2 log2(e) evaluations (the walk took one per e: 1800 at 800 digits)."""
    with working(mp):
        s, limit = _base_step(Fraction(1)), mp.prec + 400
    last = 1 + s * 2**limit
    cert = recip_one(t=1, c=last)                        # exact inverse c / t = last
    assert cert.holds and q(cert.lo) <= last <= q(cert.value)
    with pytest.raises(RuntimeError, match="could not certify"):
        recip_one(t=1, c=last + s * 2 ** (limit - 2))
    t = 1 + s * 2 ** (limit - 1)                     # the bracket from u = 1 upward, then
    cert = lin_one(t=t)                              # bisected: the value moves up to t
    assert cert.holds and q(cert.value) <= t <= q(cert.hi)
    with working(mp):
        assert tight(q(cert.lo), q(cert.hi), mp.prec)
    with pytest.raises(RuntimeError, match="could not bracket"):
        lin_one(t=1 + s * 2 ** (limit + 1))


def test_the_value_is_the_point_proven_valid() -> None:
    """Regression: the certificate stored its point rounded to nearest at the working
    precision.  From the solver's 1 + 2^-9 + 2^-168 one step down is a point u1 of 329 bits;
    with t just above u1 (u <= t: u* = t) the forward enclosure at u1 proved u1 <= t, but u1
    rounded to nearest (up, by 2^-170) exceeded t, and so did the bracket's lower end: value
    1.00195... > t with holds True.  Now every point tried is a working-precision number."""
    k = 1 + Fraction(1, 2**9) + Fraction(1, 2**168)
    with working(mp):
        u1 = k - _base_step(k)
    for j in range(12):
        t = u1 + j * Fraction(1, 2**204)
        cert = lin_long(t=t)
        assert cert.holds and q(cert.value) <= t, j
        assert q(cert.lo) <= t <= q(cert.hi), j
        assert q(lin.certified(u=q(cert.value)).hi) <= t
    # the bracket's end one step up, k + step (329 bits), is proven infeasible for t just
    # below it; rounded down it would fall under t = u*: the ends are rounded outward
    with working(mp):
        up = k + _base_step(k)
    for t in (up - Fraction(1, 2**300), up - Fraction(1, 2**250)):
        cert = lin_long(t=t)
        assert q(cert.value) == k and q(cert.lo) <= t <= q(cert.hi)


def test_a_floor_off_the_binary_grid_is_kept() -> None:
    """With floor 1/3 (no binary number) and 1 / u <= 8 the smallest u would be 1/8: the
    certificate's value is the least working-precision number >= 1/3 (inside the range the
    inverse ranges over), the bracket reaches down to 1/3."""
    cert = recip_third(t=8, c=1)
    with working(mp):
        ulp = Fraction(1, 2**(mp.prec + 1))            # 1/3 lies in [1/4, 1/2)
    assert Fraction(1, 3) <= q(cert.value) < Fraction(1, 3) + ulp and cert.holds
    assert q(cert.lo) <= Fraction(1, 3) and q(cert.hi) == q(cert.value)


def test_an_inverse_at_zero_is_bracketed_by_an_absolute_step() -> None:
    """2 u <= 0: u* = 0, where a relative step would be 0; the bracket's step there is
    absolute, 2^(8 - prec) ("absolute near zero"), and the bisection then halves it prec
    times, each midpoint decided invalid (never tight relative to 0, never undecided: no
    escalation), to exactly 2^(8 - 2 prec)."""
    cert = lin_inverse(t=0, c=2)
    assert q(cert.value) == q(cert.lo) == 0 and cert.holds
    with working(mp):
        assert q(cert.hi) == Fraction(1, 2 ** (2 * mp.prec - 8))


@result("T:Neg", title="-u", kind="bound", statement="-u", params=[real("u")])
def neg(ctx: Any, u: Any) -> Any:
    """-u (decreasing in u, over all reals)."""
    return -u


with working(mp):
    _S = _base_step(Fraction(1))
#: the 400th point of the bracket search down from 1 (steps s, 2s, 4s, ...): 1 - s(2^400 - 1)
EDGE = 1 - _S * (2**400 - 1)


@inverse("T:Neg-edge", title="smallest u >= EDGE with -u <= t", statement="-t",
         params=[real("t")], forward=neg, unknown="u", target="t", increasing=False,
         floor=EDGE)
def neg_edge(ctx: Any, t: Any) -> Any:
    """1, whatever t (a solver that is wrong, to reach the search's limit)."""
    return ctx.one


def test_a_bracket_reaching_the_floor_on_its_last_step_is_certified() -> None:
    """-u <= t with t = -EDGE + 1: every u >= EDGE is feasible, so the bracket search from
    the solver's 1 runs down to the floor (EDGE was the 400th point of the old doubling
    walk, which met it exactly).  Meeting it ends the search there (the feasible set
    reaches the domain's edge): a certificate with the floor as its lower end, not "could
    not bracket" (which ``nxt < floor`` gave: one more step was needed to pass below)."""
    cert = neg_edge(t=-EDGE + 1)
    assert cert.holds and q(cert.lo) <= EDGE <= q(cert.value) <= q(cert.hi)
    with working(mp):      # then bisected from [EDGE, 1] down to the floor: tight at EDGE
        assert tight(q(cert.lo), q(cert.hi), mp.prec)
    with working(mp):
        assert EDGE - q(cert.lo) <= abs(EDGE) / 2**(mp.prec - 1)   # the floor rounded down
