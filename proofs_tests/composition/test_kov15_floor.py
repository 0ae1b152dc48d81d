"""The inverse of exact optimal composition (KOV15 Thm 3.3) near its documented limit:
certified only while ``(1-delta)^k >= 2**-300`` (``reference.results.composition.kov15``,
``_FLOOR_BITS``); below it a target above the floor is a DomainError, not a wrong answer.

Independent route: for k = 1 and ``delta_g = 1 - (1-delta)/2`` the pure part must be at
most 1/2, i.e. ``(e^eps - e^eps_g)/(1 + e^eps) <= 1/2``, so ``eps_g* = log((e^eps - 1)/2)``
(in python-flint ``arb``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from flint import arb, ctx
from mpmath import iv, mp

from proofs_tests.arb_support import arb_q
from reference import DomainError, precision
from reference.core.numeric import endpoints, exact, get_dps, log, working
from reference.results import covers
from reference.results.composition.kov15 import (
    check_above_floor,
    exact_log_keep,
    leak,
    optimal_epsilon,
)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("keep", [Fraction(2) ** -299, Fraction(5, 4) * Fraction(2) ** -300,
                                  Fraction(2) ** -300])
def test_inverse_just_above_the_limit_is_certified(keep: Fraction) -> None:
    """(1-delta) = 2**-299, 1.25 * 2**-300 and exactly 2**-300 (the limit itself, decided
    exactly: its log's enclosure straddles ``-300 ln 2``; refused before): the certificate
    brackets log((e^2 - 1)/2)."""
    with precision(400):
        cert = optimal_epsilon(eps=2, k=1, delta=1 - keep, delta_g=1 - keep / 2)
    assert cert.holds
    with ctx.workprec(2000):
        root = ((arb(2).exp() - 1) / 2).log()
        lo, hi = exact(cert.lo, "lo", "t"), exact(cert.hi, "hi", "t")
        assert bool(arb_q(lo) <= root) and bool(root <= arb_q(hi))
        assert hi - lo < Fraction(1, 10**40)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("keep", [Fraction(3, 4) * Fraction(2) ** -300, Fraction(2) ** -301])
def test_inverse_just_below_the_limit_is_a_domain_error(keep: Fraction) -> None:
    """(1-delta) = 0.75 * 2**-300 and 2**-301 (resolved at 400 digits): DomainError."""
    with precision(400), pytest.raises(DomainError, match="cannot reach eps_g"):
        optimal_epsilon(eps=2, k=1, delta=1 - keep, delta_g=1 - keep / 2)


WHERE, FORMULA = "test", "1-(1-delta)^k"


@covers("KOV15:Thm3.3")
def test_the_limit_too_close_to_decide_is_named() -> None:
    """``1 - delta = 2**-300 (1 + 3**-(10**6))``: above the limit by less than 400 digits'
    logs resolve, and the exact product would exceed ``_EXACT_BITS`` (its size is about
    3.2e6 bits): refused as undecided, not as "below 2**-300"."""
    keep = Fraction(2) ** -300 * (1 + Fraction(1, 3 ** 10**6))
    with precision(400), pytest.raises(DomainError, match=r"too close to 2\*\*-300 .* to decide"):
        check_above_floor(1 - keep / 2, [1 - keep], 1, WHERE, FORMULA)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize(("factor", "ok"), [(Fraction(1), True),
                                            (1 + Fraction(1, 2**1500), True),
                                            (1 - Fraction(1, 2**1500), False)])
def test_the_limit_is_decided_exactly_for_a_power(k: int, factor: Fraction, ok: bool) -> None:
    """``(1-delta)^k`` exactly ``2**-300`` (``1 - delta = 2**(-300/k)``, k = 1, 2, 3), and
    that times ``1 +- 2**-1500`` (a relative difference below the ~2**-1329 that 400
    digits' logs resolve, so the exact product decides): at or above the limit passes,
    below it is refused."""
    keep = Fraction(2) ** (-300 // k) * factor
    args = (1 - keep**k / 2, [1 - keep], k, WHERE, FORMULA)
    with precision(400):
        if ok:
            check_above_floor(*args)
        else:
            with pytest.raises(DomainError, match="cannot reach eps_g"):
                check_above_floor(*args)


def _keeps_touching_the_limit() -> list[Fraction]:
    """Products ``1 - delta`` (dyadic: ``e^x`` for ``x`` a fraction of an ulp above the
    upper end of ``-300 ln 2``'s enclosure at the working precision) whose log's enclosure
    has its lower end exactly at that upper end."""
    with working(iv, get_dps()):
        limit = endpoints(-300 * log(iv, 2))
        with mp.workprec(iv.prec + 200):
            ulp = mp.ldexp(1, int(mp.mag(limit.hi)) - iv.prec)
            keeps = [exact(mp.exp(mp.mpf(limit.hi) + j * ulp / 8), "keep", "test")
                     for j in range(1, 9)]
            return [keep for keep in keeps
                    if endpoints(exact_log_keep(iv, 1 - keep)).lo == limit.hi]


@covers("KOV15:Thm3.3")
def test_a_log_enclosure_touching_the_limit_from_above_is_accepted() -> None:
    """A product whose log's enclosure starts exactly at the upper end of ``-300 ln 2``'s is
    above ``2**-300`` (its log is at least that end, which is above the irrational
    ``-300 ln 2``): accepted (a ``>`` for the ``>=`` deciding it refused it)."""
    with precision(120):
        keeps = _keeps_touching_the_limit()
        assert keeps, "no product found whose log's enclosure touches the limit"
        for keep in keeps:
            assert keep > Fraction(2) ** -300
            check_above_floor(1 - keep / 2, [1 - keep], 1, WHERE, FORMULA)


@covers("KOV15:Thm3.3")
def test_the_limit_is_decided_exactly_up_to_its_size_limit() -> None:
    """``1 - delta = 2**-300 (1 + 1/N)`` with ``N = 3 * 2**999699 + 1``: delta has exactly
    ``_EXACT_BITS`` = 2 * 10**6 bits of numerator and denominator, so the straddling
    enclosure is still decided exactly (accepted); and a product the enclosure decides
    (``2**-299 (1 + 3**-(10**6))``, 3.2e6 bits) is accepted without the exact route."""
    keep = Fraction(2) ** -300 * (1 + Fraction(1, 3 * 2**999699 + 1))
    delta = 1 - keep
    assert delta.numerator.bit_length() + delta.denominator.bit_length() == 2 * 10**6
    with precision(400):
        check_above_floor(1 - keep / 2, [delta], 1, WHERE, FORMULA)
        big = Fraction(2) ** -299 * (1 + Fraction(1, 3 ** 10**6))
        check_above_floor(1 - big / 2, [1 - big], 1, WHERE, FORMULA)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("delta", "k"), [(Fraction(1, 2), 1), (Fraction(1, 4), 2),
                                          (Fraction(1, 3), 3)])
def test_a_target_exactly_at_the_floor_is_refused(delta: Fraction, k: int) -> None:
    """1 - (1-delta)^k exactly (dyadic for the first two, so the floor's enclosure is a
    point): no eps_g achieves less, at equality none can be certified; just above it by
    2^-400, unresolvable at 50 digits, the message says so (decided exactly)."""
    floor = 1 - (1 - delta) ** k
    with pytest.raises(DomainError, match="must exceed"):
        check_above_floor(floor, [delta], k, WHERE, FORMULA)
    with pytest.raises(DomainError, match="by less than the working precision resolves"):
        check_above_floor(floor + Fraction(1, 2**400), [delta], k, WHERE, FORMULA)


@covers("KOV15:Thm3.3")
def test_exact_tie_decision_up_to_its_size_limit() -> None:
    """A tie with the floor is decided exactly while prod (1-delta_i)^powers has at most
    2 * 10**6 bits of numerator and denominator (delta = 2/3^11: 2 + 18 bits per power, so
    10**5 powers are exactly at the limit), and refused with advice past it."""
    delta = Fraction(2, 3**11)
    for powers, message in ((10**5, "must exceed"), (10**5 + 1, "too close to")):
        floor = 1 - (1 - delta) ** powers
        with pytest.raises(DomainError, match=message):
            check_above_floor(floor, [delta], powers, WHERE, FORMULA)


@covers("KOV15:Thm3.3")
@pytest.mark.parametrize(("bits", "named"), [(9999, False), (10**4, True)])
def test_a_huge_target_is_named_from_ten_thousand_bits(bits: int, named: bool) -> None:
    """A target whose denominator has 10**4 bits or more is shown by its complement (a repr
    past 4300 digits fails); below that, as the Fraction itself."""
    target = Fraction(1, 2 ** (bits - 1))
    with pytest.raises(DomainError, match="must exceed") as err:
        check_above_floor(target, [Fraction(1, 2)], 1, WHERE, FORMULA)
    assert ("-bit denominator" in str(err.value)) is named
    assert ("Fraction(1, " in str(err.value)) is not named


@covers("KOV15:Thm3.3")
def test_a_target_at_the_upper_end_of_the_floor_enclosure_is_too_close() -> None:
    """The precondition encloses the floor 1 - (1/3)^3 (at the working precision, from
    logarithms); a target equal to that enclosure's upper end is above the floor but not
    resolved from it: refused as too close (decided exactly), not accepted."""
    delta, k = Fraction(2, 3), 3
    with working(iv, get_dps()):
        floor = endpoints(leak(iv, k * iv.fsum([exact_log_keep(iv, delta)])))
    target = exact(floor.hi, "floor", "test")
    assert target > 1 - (1 - delta) ** k
    with pytest.raises(DomainError, match="by less than the working precision resolves"):
        check_above_floor(target, [delta], k, WHERE, FORMULA)
