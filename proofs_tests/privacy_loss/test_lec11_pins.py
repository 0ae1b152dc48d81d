"""LEC11 privacy-loss results (N11-N18): the pins that test_lec11.py leaves open.

Which results are probabilistic (decided from their statements), the cores' Python
defaults (other modules call cores directly), LEC11:Ex1's unstated condition
``eps <= 4(2 - sqrt 2) ln(1/delta)`` decided within 2^-88 of the bound (the bound in
python-flint's ``arb``), and the errata checks N11, N13, N14: ``confirmed`` and every
number of ``detail``, each from an independent route (``arb``'s erfc and tanh, exact
fractions enumerated by hand).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
from mpmath import mp

from proofs_tests.arb_support import arb_ends, frac
from proofs_tests.privacy_loss_support import arb_shown, mpq
from reference import DomainError
from reference.core.fastballs import FAST
from reference.core.model import Result
from reference.core.numeric import endpoints, log, to_ctx
from reference.results import covers, errata
from reference.results.privacy_loss import lec11
from reference.results.privacy_loss.lec11 import (
    gaussian_loss_law,
    gaussian_loss_tail,
    notes_gaussian_sigma,
)


def _detail(eid: str) -> str:
    (entry,) = [e for e in errata() if e.id == eid]
    check = entry.verify()
    assert check.confirmed
    return check.detail


@covers("LEC11:GaussLoss", "LEC11:GaussTail", "LEC11:Ex1", "LEC11:RRLoss", "LEC11:NameShame",
        "LEC11:LRR")
def test_probabilistic_flags() -> None:
    """Probabilistic: the statements whose output is the law or a tail probability of the
    random privacy loss ``I`` of the Gaussian mechanism (``I ~ N(...)``, ``P[I > eps] =
    ...``): LEC11:GaussLoss and LEC11:GaussTail.  Not probabilistic: LEC11:Ex1 (its output
    is a deterministic sigma; the probability it bounds is GaussTail's), LEC11:RRLoss (a
    number, the exact mean of a finite pair) and the pairs NameShame and LRR (explicit
    probability vectors, checked by exact divergences)."""
    found = {v.id: v.probabilistic for v in vars(lec11).values()
             if isinstance(v, Result) and v.core.__module__ == lec11.__name__}
    assert len(found) == 6
    assert {i for i, p in found.items() if p} == {"LEC11:GaussLoss", "LEC11:GaussTail"}


@covers("LEC11:GaussLoss", "LEC11:GaussTail")
def test_core_defaults_are_unit_sensitivity() -> None:
    # The cores' own default sensitivity is the declared Delta = 1 (LEC11 N13 states Ex. 1
    # for Delta = 1): sigma = 2 gives N(1/8, 1/4); sigma = 1 puts the mean 1/2 at eps = 1/2,
    # so P[I > 1/2] = Q(0) = 1/2.
    assert gaussian_loss_law.param("sensitivity").default == "1"
    assert gaussian_loss_tail.param("sensitivity").default == "1"
    with mp.workdps(30):
        law = gaussian_loss_law.core(mp, mp.mpf(2))
        assert law.mean == mp.mpf(1) / 8 and law.variance == mp.mpf(1) / 4
        tail = gaussian_loss_tail.core(mp, mp.mpf(1), mp.mpf(1) / 2)
        assert abs(tail - mp.mpf(1) / 2) <= mp.mpf("1e-25")


def _ex1_bound(delta: Fraction) -> flint.arb:
    old = flint.ctx.prec
    flint.ctx.prec = 400
    try:
        return 4 * (2 - flint.arb(2).sqrt()) * flint.arb(flint.fmpq(delta.denominator,
                                                                     delta.numerator)).log()
    finally:
        flint.ctx.prec = old


@covers("LEC11:Ex1")
@pytest.mark.parametrize("delta", [Fraction(1, 2), Fraction(1, 10**6), Fraction(99, 100)])
def test_ex1_condition_decided_next_to_the_bound(delta: Fraction) -> None:
    # eps at 2^-88 on either side of 4(2 - sqrt 2) ln(1/delta): beyond what 64 bits resolve,
    # so the condition is decided only by raising the precision.
    bound = _ex1_bound(delta)
    lo, hi = arb_ends(bound)
    assert hi - lo < Fraction(1, 2**120)
    step = Fraction(1, 2**88)
    inside = Fraction(int((lo - step) * 2**96), 2**96)
    outside = Fraction(int((hi + step) * 2**96) + 1, 2**96)
    assert lo - 2 * step < inside < lo and hi < outside < hi + 2 * step
    sigma = notes_gaussian_sigma(eps=inside, delta=delta)
    with mp.workdps(60):
        expected = 2 * mp.sqrt(mp.log(1 / mpq(delta))) / mpq(inside)
        assert abs(sigma - expected) <= mp.mpf("1e-45") * expected
    with pytest.raises(DomainError, match=f"must be <= {_EX1_SHOWN} = "
                       + arb_shown(bound, 8).replace(".", r"\.") + " "):
        notes_gaussian_sigma(eps=outside, delta=delta)


_EX1_SHOWN = r"4\(2 - sqrt 2\) ln\(1/delta\)"


@covers("LEC11:Ex1")
def test_n13_check_pinned() -> None:
    # eps = 10, delta = 1/2: sigma = 2 sqrt(ln 2)/10, I ~ N(1/(2 s^2), 1/s^2), so
    # P[I > 10] = Q((10 - 1/(2 s^2)) s) = erfc(x/sqrt 2)/2; eps = 1, delta = 1e-6 likewise
    # with sigma = 2 sqrt(ln 1e6).
    def tail(sigma: flint.arb, eps: int) -> flint.arb:
        x = (eps - 1 / (2 * sigma**2)) * sigma
        return (x / flint.arb(2).sqrt()).erfc() / 2

    bad = tail(2 * flint.arb(2).log().sqrt() / 10, 10)
    ok = tail(2 * flint.arb(10**6).log().sqrt(), 1)
    assert _detail("LEC11:N13") == (
        f"eps=10, delta=0.5: P[I > eps] = {arb_shown(bad, 4)} > delta (LEC11:Ex1 refuses: True); "
        f"eps=1, delta=1e-6: {arb_shown(ok, 3)} <= delta")


@covers("LEC11:RRLoss")
def test_n14_check_pinned() -> None:
    # E[I] of RR at eps = 0.1 is eps tanh(eps/2) (LEC11 N14), the KL divergence of the pair.
    eps = flint.arb(flint.fmpq(1, 10))
    mean = arb_shown(eps * (eps / 2).tanh(), 8)
    e = Fraction(1, 10)   # the printed approximations, by hand: eps/2 and eps^2/2
    assert _detail("LEC11:N14") == (f"eps=0.1: E[I] = {mean} (KL of RR: {mean}); "
                                    f"printed ~eps/2 = {float(e / 2)}, eps^2/2 = "
                                    f"{float(e * e / 2)}")


@covers("RSWR23:Def2.3")
def test_n11_check_pinned() -> None:
    # x = 0, y = (0, 0): truthful twice, 3/4 * 9/10 = 27/40 (the chain rule with the prefix
    # y_1); the printed prefix replaces 9/10 by round 2's marginal 3/4 * 9/10 + 1/4 * 2/3
    # = 101/120, giving 3/4 * 101/120 = 101/160.
    joint = Fraction(3, 4) * Fraction(9, 10)
    printed = Fraction(3, 4) * (Fraction(3, 4) * Fraction(9, 10) + Fraction(1, 4) * Fraction(2, 3))
    assert (joint, printed) == (Fraction(27, 40), Fraction(101, 160))
    assert _detail("LEC11:N11") == (
        f"x=0, y=(0,0): joint {joint}, prefix y_(1:j-1) {joint}, printed prefix y_(1:j-2) "
        f"{printed}; losses of the joint law equal the sums with the correct prefix: True")


def _enclosure(bits: int, delta: Fraction) -> tuple[Fraction, Fraction]:
    """The ends of the bound's enclosure as Ex1's condition computes it at ``bits`` bits
    (on Arb's balls)."""
    old = FAST.prec
    FAST.prec = bits
    try:
        ends = endpoints(4 * (2 - FAST.sqrt(FAST.mpf(2))) * log(FAST, 1 / to_ctx(FAST, delta)))
    finally:
        FAST.prec = old
    return frac(ends.lo), frac(ends.hi)


@covers("LEC11:Ex1")
def test_ex1_condition_at_its_last_step() -> None:
    # The condition is decided by enclosures of the bound at 64 ... 16384 bits, compared with
    # the exact eps; one the 16384-bit enclosure cannot place is refused.  At its ends: the
    # lower end is below the bound (a 16400-bit enclosure shows it) and accepted; the upper
    # end is above it (beyond the 16385- and 16400-bit enclosures) but refused as not
    # comparable, not as too large: the last step is 16384 bits.
    delta = Fraction(1, 2)
    lo, hi = _enclosure(16384, delta)
    fine_lo, fine_hi = _enclosure(16400, delta)
    assert lo < fine_lo < fine_hi < hi and _enclosure(16385, delta)[1] < hi
    notes_gaussian_sigma(eps=lo, delta=delta)
    with pytest.raises(DomainError, match="could not be compared"):
        notes_gaussian_sigma(eps=hi, delta=delta)
