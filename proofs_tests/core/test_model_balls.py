"""``balls=True`` (reference.core.model): the enclosure, the plain value and an inverse's
solver run the same formula on Arb's balls; the plain value comes from ``mp`` where the balls
do not pin it to a faithful rounding.  Toy results with exact answers (Fractions) check what
each path returns.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import namedtuple
from fractions import Fraction
from typing import Any

import pytest
from mpmath import iv, mp

from proofs_tests.arb_support import frac
from reference.core.certificates import base_step
from reference.core.fastballs import FAST
from reference.core.model import Result, inverse, result
from reference.core.numeric import Interval, exp, get_dps, log, pos_part
from reference.core.params import nonneg, positive, unit_open

F = Fraction
Pair = namedtuple("Pair", "value twice")
SEEN: list[Any] = []


@result("T:Balls-pair", title="e^u and 2 e^u", kind="bound", statement="(e^u, 2 e^u)",
        params=[nonneg("u", "1")], balls=True)
def pair(ctx: Any, u: Any) -> Any:
    """``(e^u, 2 e^u)``, recording the context it ran in."""
    SEEN.append(ctx)
    v = exp(ctx, u)
    return Pair(v, 2 * v)


Nested = namedtuple("Nested", "parts label count")


@result("T:Balls-nested", title="(v, 2 v), v = 1/(1 + e^u), with a label and a count",
        kind="bound", statement="((v, 2 v), 'x', 3)", params=[nonneg("u", "1")], balls=True)
def nested(ctx: Any, u: Any) -> Any:
    """Two numbers inside a tuple inside a named tuple, beside a string and an int."""
    SEEN.append(ctx)
    v = 1 / (1 + exp(ctx, u))
    return Nested((v, 2 * v), "x", 3)


@result("T:Balls-decay", title="e^-u", kind="bound", statement="e^-u",
        params=[nonneg("u", "1")], balls=True)
def decay(ctx: Any, u: Any) -> Any:
    """``e^-u``, decreasing in u."""
    return exp(ctx, -u)


@inverse("T:Balls-decay-inverse", title="least u with e^-u <= t", statement="-log t",
         params=[unit_open("t", "1/3")], forward=decay, unknown="u", target="t",
         increasing=False, balls=True)
def decay_inverse(ctx: Any, t: Any) -> Any:
    """``-log t``, recording the context it ran in."""
    SEEN.append(ctx)
    return -log(ctx, t)


@result("T:Balls-shrink", title="1/(1+u)", kind="bound", statement="1/(1+u)",
        params=[nonneg("u", "1")], balls=True)
def shrink(ctx: Any, u: Any) -> Any:
    """``1/(1+u)``, decreasing in u, 1 at the floor u = 0."""
    return 1 / (1 + u)


@inverse("T:Balls-shrink-inverse", title="least u with 1/(1+u) <= t",
         statement="max(1/t - 1, 0)", params=[positive("t", "1/2")], forward=shrink,
         unknown="u", target="t", increasing=False, balls=True)
def shrink_inverse(ctx: Any, t: Any) -> Any:
    """``max(1/t - 1, 0)``: exactly 0, the floor, for ``t >= 1``."""
    return pos_part(ctx, 1 / t - 1)


def count_forward(monkeypatch: pytest.MonkeyPatch) -> list[Fraction]:
    """The points at which inverses evaluate their forward result from now on (a spy)."""
    calls: list[Fraction] = []
    real = Result._forward

    def counted(self: Result[Any], ctx: Any, u: Fraction, values: Any, *rest: Any) -> Any:
        calls.append(u)
        return real(self, ctx, u, values, *rest)

    monkeypatch.setattr(Result, "_forward", counted)
    return calls


def test_enclosure_and_plain_value_on_balls() -> None:
    SEEN.clear()
    got = pair.certified(u=F(1, 3))
    assert SEEN == [FAST]
    assert isinstance(got, Pair) and all(isinstance(x, Interval) for x in got)
    with mp.workprec(400):
        e13 = frac(mp.exp(mp.mpf(1) / 3))
    for enc, exact in zip(got, (e13, 2 * e13), strict=True):
        lo, hi = frac(enc.lo), frac(enc.hi)
        assert lo <= exact <= hi and hi - lo < exact * F(1, 2**160)
    SEEN.clear()
    plain = pair(u=F(1, 3))
    assert SEEN == [FAST] and isinstance(plain, Pair)
    with mp.workdps(50):
        bits = mp.prec
    for value, exact in zip(plain, (e13, 2 * e13), strict=True):
        assert isinstance(value, mp.mpf) and value._mpf_[1].bit_length() <= bits
        assert abs(frac(value) - exact) < exact * F(1, 2**bits)    # within one ulp: faithful


@result("T:Balls-cancel", title="e^u - e^u + 2^-1000", kind="bound", statement="2^-1000",
        params=[nonneg("u", "1")], balls=True)
def cancel(ctx: Any, u: Any) -> Any:
    """``e^u - e^u``: exactly 0 in ``mp``, a ball around 0 on balls; plus ``2^-1000``."""
    SEEN.append(ctx)
    return exp(ctx, u) - exp(ctx, u) + ctx.mpf(2) ** -1000


@result("T:Balls-cancel-log", title="log(e^u - e^u + 2^-1000)", kind="bound",
        statement="-1000 log 2", params=[nonneg("u", "1")], balls=True)
def cancel_log(ctx: Any, u: Any) -> Any:
    """``log`` of :func:`cancel`: undefined on its ball (which reaches below 0)."""
    return log(ctx, cancel.core(ctx, u))


@result("T:Balls-side", title="(e^u, 1/3)", kind="bound", statement="(e^u, 1/3)",
        params=[nonneg("u", "1")], balls=True)
def side(ctx: Any, u: Any) -> Any:
    """``e^u`` in the context, and ``1/3`` made in ``mp`` on the side (no ball vouches)."""
    SEEN.append(ctx)
    return Pair(exp(ctx, u), mp.mpf(1) / 3)


def _fuzzy(extra: int) -> Any:
    @result("T:Balls-fuzzy", title="e^u in a ball of set radius", kind="bound",
            statement="e^u", params=[nonneg("u", "1")], balls=True)
    def fuzzy(ctx: Any, u: Any) -> Any:
        """``e^u``; on balls widened to a radius ``2^-(p + extra)`` of it (``p`` the working
        precision in bits)."""
        SEEN.append(ctx)
        v = exp(ctx, u)
        if ctx is FAST:
            with mp.workdps(get_dps()):
                r = mp.ldexp(1, -(mp.prec + extra))
            v = v + FAST.mpf((-r, r)) * v
        return v
    return fuzzy


@pytest.mark.parametrize(("extra", "pinned"), [(4, False), (7, False), (10, True), (14, True)])
def test_a_ball_pins_the_value_only_below_two_to_the_minus_p_plus_8(extra: int,
                                                                    pinned: bool) -> None:
    """The plain value comes from the ball only when its radius is below ``2^-(p+8)`` of it
    (then the rounding to ``p`` bits is faithful); a wider ball leaves it to mp."""
    fuzzy = _fuzzy(extra)
    SEEN.clear()
    value = fuzzy(u=F(1, 3))
    assert SEEN == ([FAST] if pinned else [FAST, mp])
    with mp.workprec(400):
        e13 = frac(mp.exp(mp.mpf(1) / 3))
    with mp.workdps(get_dps()):
        bits = mp.prec
    assert abs(frac(value) - e13) < e13 * F(1, 2**bits)


def test_a_number_of_another_context_leaves_the_plain_value_to_mp() -> None:
    SEEN.clear()
    value = side(u=F(1, 3))
    assert SEEN == [FAST, mp] and isinstance(value.value, mp.mpf)
    with mp.workprec(400):
        e13 = frac(mp.exp(mp.mpf(1) / 3))
    assert abs(frac(value.value) - e13) < e13 * F(1, 2**160)


def test_a_ball_that_does_not_pin_the_value_leaves_it_to_mp() -> None:
    """A ball wider than the value (the cancellation ``e^u - e^u``) is loose: the plain
    value is mp's, exact here; a formula that fails on balls (``log`` of a ball reaching 0)
    gets its plain value from mp too, and its enclosure from iv, where it fails too."""
    SEEN.clear()
    assert cancel(u=F(1, 3)) == mp.mpf(2) ** -1000 and SEEN == [FAST, mp]
    enc = cancel.certified(u=F(1, 3))
    assert enc.lo <= mp.mpf(2) ** -1000 <= enc.hi and enc.lo < 0
    SEEN.clear()
    with mp.workdps(60):
        exact = -1000 * mp.log(2)
    assert abs(cancel_log(u=F(1, 3)) - exact) < mp.mpf(10) ** -45 and SEEN == [FAST, mp]
    with pytest.raises(ValueError, match="logarithm of a negative number"):   # iv's error
        cancel_log.certified(u=F(1, 3))


@result("T:Balls-overflow", title="e^u, beyond Arb", kind="bound", statement="e^u",
        params=[nonneg("u", "1")], balls=True)
def beyond(ctx: Any, u: Any) -> Any:
    """``e^u``, failing on balls as a formula does whose intermediates leave Arb's range."""
    SEEN.append(ctx)
    if ctx is FAST:
        raise OverflowError("too many digits in integer")
    return exp(ctx, u)


def test_a_formula_that_fails_on_balls_is_certified_on_iv() -> None:
    """Balls are an accelerator: where the formula fails on them, the enclosure comes from
    the reference evaluator ``iv`` and the plain value from ``mp``."""
    SEEN.clear()
    enc = beyond.certified(u=F(1, 3))
    assert SEEN == [FAST, iv]
    with mp.workprec(400):
        e13 = frac(mp.exp(mp.mpf(1) / 3))
    assert frac(enc.lo) <= e13 <= frac(enc.hi) and enc.hi - enc.lo < mp.mpf(2) ** -160
    SEEN.clear()
    assert abs(frac(beyond(u=F(1, 3))) - e13) < e13 * F(1, 2**160) and SEEN == [FAST, mp]


def test_the_same_result_on_iv_agrees() -> None:
    """``dataclasses.replace(res, balls=False)`` is the reference evaluator (mpmath iv)."""
    SEEN.clear()
    on_iv = dataclasses.replace(pair, balls=False).certified(u=F(1, 3))
    assert SEEN == [iv]
    on_balls = pair.certified(u=F(1, 3))
    for a, b in zip(on_iv, on_balls, strict=True):
        assert max(a.lo, b.lo) <= min(a.hi, b.hi)


@pytest.mark.parametrize("t", [F(1, 3), F(1, 10**30), F(999, 1000)])
def test_inverse_on_balls_brackets_its_root_with_two_forward_evaluations(
        t: Fraction, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver runs on balls; its midpoint, moved half a step toward the feasible side,
    is proven feasible at once and the step behind it infeasible: two forward evaluations,
    and the exact inverse ``-log t`` inside a bracket one step wide."""
    calls = count_forward(monkeypatch)
    SEEN.clear()
    cert = decay_inverse(t=t)
    assert SEEN == [FAST] and cert.holds and len(calls) == 2
    with mp.workprec(600):
        exact = frac(-mp.log(mp.mpf(t.numerator) / t.denominator))
    lo, hi, value = frac(cert.lo), frac(cert.hi), frac(cert.value)
    assert lo <= exact <= hi and lo <= value <= hi
    with mp.workdps(50):
        step = base_step(value)
    assert exact < value <= exact + step           # on the feasible side, within one step
    assert hi - lo <= 2 * step


def test_an_inverse_whose_solver_gives_its_floor_stays_there() -> None:
    """A solver answer at the floor of the unknown is not moved (half a step would turn an
    exact 0 into a tiny positive number)."""
    for t, exact in ((F(2), F(0)), (F(1), F(0)), (F(1, 4), F(3))):
        cert = shrink_inverse(t=t)
        assert cert.holds and frac(cert.lo) <= exact <= frac(cert.hi)
        if exact == 0:
            assert cert.value == 0 and cert.lo == 0


def _within(x: Any, enc: Interval) -> bool:
    """``x`` in the enclosure rounded outward to the working precision (the contract's
    comparison: a plain value is rounded to it, an enclosure's ends need not be)."""
    with mp.workprec(170):
        return bool(enc.lo * (1 - mp.mpf(2) ** -160) <= x <= enc.hi * (1 + mp.mpf(2) ** -160))


def test_a_ball_past_arbs_exponents_leaves_the_enclosure_to_iv() -> None:
    """``e^(10^3000)`` overflows Arb's exponent range (its ball is ``[-inf, inf]``, an
    enclosure that says nothing): the certified value then comes from ``iv``, finite and
    narrow; ``e^(10^19)`` stays on balls (finite there), equal to ``iv``'s to its width; the
    plain values go to ``mp`` and pin respectively, within the enclosures rounded outward."""
    SEEN.clear()
    far = pair.certified(u=10**3000)
    assert SEEN[-1] is iv and len(SEEN) == 2          # balls first, then iv
    assert all(mp.isfinite(e) for part in far for e in (part.lo, part.hi))
    assert _within(pair(u=10**3000).value, far.value)
    SEEN.clear()
    near = pair.certified(u=10**19)
    assert SEEN == [FAST]
    assert _within(pair(u=10**19).value, near.value)
    with mp.workprec(200):
        assert near.value.hi - near.value.lo <= near.value.hi * mp.mpf(2) ** -150


def test_an_unbounded_ball_inside_a_nested_output_leaves_it_to_iv() -> None:
    """``LEC11:LRR`` returns a pair of tuples; at ``eps = 10^3000`` the balls of the two
    ``e^-eps``-sized masses leave Arb's exponents (``[-inf, inf]``; at ``10^2000`` they are
    still finite), and one such part sends the whole output to ``iv`` (it came back with
    two infinite parts before): every part finite, the tiny masses positive and equal, each
    part containing the plain value (which falls back to ``mp`` the same way), and the
    other parts as narrow as ever.  (``e^-(10^3000)`` itself is known only roughly: the
    near-end bits stop at 3400, far below the 10^4 bits of ``eps``.)"""
    from reference.results import get
    lrr = get("LEC11:LRR")
    enc, plain = lrr.certified(eps="1e3000", delta="0.01"), lrr(eps="1e3000", delta="0.01")
    parts = [*enc.P, *enc.Q]
    assert all(mp.isfinite(e.lo) and mp.isfinite(e.hi) for e in parts)
    assert all(_within(x, e) for x, e in zip([*plain.P, *plain.Q], parts, strict=True))
    tiny = enc.P[1]
    assert 0 < tiny.lo <= tiny.hi and enc.Q[0] == tiny
    with mp.workprec(200):
        assert all(e.hi - e.lo <= e.hi * mp.mpf(2) ** -150 for e in parts if e != tiny)


def test_a_nested_output_stays_on_balls_unless_a_part_is_unbounded() -> None:
    """Strings and ints beside the numbers are not enclosures: a finite nested output is
    the balls' (one evaluation); ``1/(1 + e^(10^3000))`` is past Arb's exponents in both parts,
    so ``iv`` evaluates the whole output: finite, positive, the second part overlapping
    twice the first."""
    SEEN.clear()
    near = nested.certified(u=1)
    assert SEEN == [FAST] and near.label == "x" and near.count == 3
    with mp.workprec(400):
        e1 = 1 / (1 + mp.e)
        assert near.parts[0].lo <= e1 <= near.parts[0].hi
        assert near.parts[0].hi - near.parts[0].lo <= e1 * mp.mpf(2) ** -150
    SEEN.clear()
    far = nested.certified(u=10**3000)
    assert SEEN[-1] is iv and len(SEEN) == 2
    first, second = far.parts
    assert 0 < first.lo <= first.hi and mp.isfinite(second.hi)
    assert second.lo <= mp.ldexp(first.hi, 1) and mp.ldexp(first.lo, 1) <= second.hi


def test_the_balls_load_on_a_first_plain_value_in_a_fresh_interpreter() -> None:
    """``import reference`` leaves python-flint unloaded; the first result on balls loads
    the balls context (and the next call reads it back): in a fresh interpreter both plain
    calls give the same value, within 2^-150 of ``mp`` without the balls (``LEC11:AdvComp``
    at k = 10, eps = 1/10, delta' = 1e-6)."""
    code = ("import sys, dataclasses, mpmath; import reference; from reference.results import get\n"
            "assert 'reference.core.fastballs' not in sys.modules\n"
            "r = get('LEC11:AdvComp'); a = r(eps='0.1', k=10, delta_prime='1e-6')\n"
            "assert 'reference.core.fastballs' in sys.modules\n"
            "b = r(eps='0.1', k=10, delta_prime='1e-6')\n"
            "c = dataclasses.replace(r, balls=False)(eps='0.1', k=10, delta_prime='1e-6')\n"
            "assert a == b and all(abs(x - y) <= abs(y) * mpmath.mpf(2) ** -150 "
            "for x, y in zip(a, c)), (a, c)\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
