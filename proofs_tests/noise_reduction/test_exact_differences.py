"""The Brownian and Laplace losses take the differences of their inputs exactly.

Found by the thorough Hypothesis profile: rounded before subtracting, equal statistics
(``f(x) = f(x') = -1e-300``) left an enclosure of ``|f| 2^-prec / t`` around the exact loss
0, which at ``t = 5e-324`` was ``+-4.7e-38`` (RSWR23:DefA.1) and ``+-1.4e267`` (RSWR23:Thm4,
five coordinates).  Every loss here is rational in its inputs, so the expected values are
exact Fractions: the enclosure must contain them and be tight.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.arb_support import frac
from reference.results import covers, get

TINY_TIMES = st.sampled_from([Fraction(5, 10**324), Fraction(2) ** -1074, Fraction(1, 10**300),
                              Fraction(1, 3), Fraction(7)])
VALUES = st.one_of(st.sampled_from([Fraction(-1, 10**300), Fraction(0), Fraction(1, 10**300),
                                    Fraction(10**288)]),
                   st.fractions(-10**6, 10**6, max_denominator=10**9))


def _tight(rid: str, exact: Fraction, **kw: object) -> None:
    enc = get(rid).certified(**kw)
    lo, hi = frac(enc.lo), frac(enc.hi)
    assert lo <= exact <= hi, f"{rid}: {exact} outside [{lo}, {hi}]"
    if exact == 0:
        assert lo == hi == 0, f"{rid}: exact 0, enclosure [{lo}, {hi}]"
    else:
        assert hi - lo <= abs(exact) * Fraction(1, 10**45), f"{rid}: [{lo}, {hi}] for {exact}"
    plain = frac(get(rid)(**kw))
    assert abs(plain - exact) <= abs(exact) * Fraction(1, 10**45)


def _abs_loss(y: Fraction, fx: Fraction, fxp: Fraction, t: Fraction) -> Fraction:
    return (abs(y - fxp) - abs(y - fx)) / t


@covers("RSWR23:DefA.1", "WRWR22:Def4.1")
@given(VALUES, VALUES, VALUES, TINY_TIMES, st.booleans())
def test_laplace_path_losses_are_exact(y: Fraction, fx: Fraction, fxp: Fraction, t: Fraction,
                                       same: bool) -> None:
    if same:
        fxp = fx
    exact = _abs_loss(y, fx, fxp, t)
    _tight("RSWR23:DefA.1", exact, times=[t], y=[y], fx=fx, fxp=fxp)
    _tight("WRWR22:Def4.1", exact, times=[t], y=[y], fx=fx, fxp=fxp, eta=t)


@covers("RSWR23:LemA.1")
@given(st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=1, max_size=4), TINY_TIMES,
       st.booleans())
def test_laplace_loss_is_exact(rows: list[tuple[Fraction, Fraction, Fraction]], t: Fraction,
                               same: bool) -> None:
    fx = [r[0] for r in rows]
    fxp = fx if same else [r[1] for r in rows]
    x = [r[2] for r in rows]
    exact = sum((abs(xi - (b - a)) - abs(xi) for a, b, xi in zip(fx, fxp, x, strict=True)),
                Fraction(0)) / t
    _tight("RSWR23:LemA.1", exact, fx=fx, fxp=fxp, x=x, t=t)


@covers("WRWR22:Thm3.4", "RSWR23:Thm4")
@given(st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=1, max_size=5), TINY_TIMES,
       st.booleans())
def test_brownian_losses_are_exact(rows: list[tuple[Fraction, Fraction, Fraction]],
                                   t: Fraction, same: bool) -> None:
    fx = [r[0] for r in rows]
    fxp = fx if same else [r[1] for r in rows]
    b = [r[2] for r in rows]
    u = [p - q for p, q in zip(fx, fxp, strict=True)]
    exact = sum((ui * ui for ui in u), Fraction(0)) / (2 * t) + \
        sum((ui * bi for ui, bi in zip(u, b, strict=True)), Fraction(0)) / t
    for rid in ("WRWR22:Thm3.4", "RSWR23:Thm4"):
        _tight(rid, exact, fx=fx, fxp=fxp, b=b, t=t)


@covers("WRWR22:Lem3.2")
@given(VALUES, VALUES, VALUES, TINY_TIMES, st.booleans())
def test_brownian_path_loss_is_exact(y: Fraction, fx: Fraction, fxp: Fraction, t: Fraction,
                                     same: bool) -> None:
    if same:
        fxp = fx
    exact = ((y - fxp) ** 2 - (y - fx) ** 2) / (2 * t)
    _tight("WRWR22:Lem3.2", exact, times=[t], y=[y], fx=fx, fxp=fxp)


def test_the_thorough_profile_examples() -> None:
    """The inputs the thorough profile found, as they were drawn."""
    _tight("RSWR23:DefA.1", Fraction(0), fx="-1E-300", y=["-1E-300"], fxp="-1E-300",
           times=[5e-324])
    row = ["2.47", "-184.8", "20.0", -13.043659116409621, "20.0"]
    _tight("RSWR23:Thm4", Fraction(0), fx=row, fxp=row, t=5e-324,
           b=["-184.8", "-345", "0.0813", -8.068638436421587, "-1E-300"])
