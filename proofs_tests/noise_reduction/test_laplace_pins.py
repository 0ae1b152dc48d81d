"""Pins of Laplace noise reduction (WRWR22 §4; RSWR23 App. A) beyond the property tests:
which results are probabilistic (decided from the statements) and the domain of the
released path's times.

Independent routes: the statements themselves, and for the times the definition of the
process (a scale ``T_n > 0``; WRWR22 Def. 4.1 needs ``T_n >= eta``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from reference.core.errors import DomainError
from reference.core.model import Result
from reference.results import covers, errata
from reference.results.noise_reduction import laplace
from reference.results.noise_reduction.laplace import lnr_path_loss, lnr_path_loss_rswr23


@covers("WRWR22:Eq4", "WRWR22:Eq5", "RSWR23:Eq13", "RSWR23:AppA-levy", "RSWR23:AppA-flat",
        "WRWR22:Def4.1", "RSWR23:DefA.1", "RSWR23:LemA.1", "RSWR23:LemA.1-printed",
        "WRWR22:Prop4.2")
def test_probabilistic_flags() -> None:
    """Probabilistic: the statements about laws and events of the random process, each
    checked by sampling: eq. (4) (the chain's stay probability, with zeta_n ~ Lap(t_n)),
    eq. (5) (no jump in (s, t] w.p. (s/t)^2), the flat-interval probability of App. A, and
    Prop. 4.2 (ex-post privacy: a bound on the loss for every output, a statement about
    the random release).  Deterministic: the Lévy densities (definitions and an integral
    identity) and the privacy-loss formulas of the released path (Def. 4.1, Def. A.1,
    Lemma A.1 as proved and as printed), identities of log-density ratios."""
    found = {v.id: v.probabilistic for v in vars(laplace).values() if isinstance(v, Result)}
    assert len(found) == 10
    assert {i for i, p in found.items() if p} == {
        "WRWR22:Eq4", "WRWR22:Eq5", "RSWR23:AppA-flat", "WRWR22:Prop4.2"}


@covers("WRWR22:Def4.1", "RSWR23:DefA.1")
def test_path_times_are_positive_scales_of_any_size() -> None:
    """Times are scales T_n > 0: a time 0 is refused by both path losses (DomainError, not
    a division by zero), and times below 1 are accepted.  By hand: T = 1/4, y_n = 1/2,
    f(x) = 1, f(x') = 0 gives (|1/2 - 0| - |1/2 - 1|)/(1/4) = 0 (and 4 (|3/4| - |1/4|) = 2
    at y_n = 3/4); the last time may equal eta (WRWR22 Def. 4.1), not fall below it."""
    for times, y in (("1,0", "1,1"), ("0", "1")):
        with pytest.raises(DomainError) as err:
            lnr_path_loss_rswr23(times=times, y=y, fx=1, fxp=0)
        assert err.value.param == "times"
        with pytest.raises(DomainError):
            lnr_path_loss(times=times, y=y, fx=1, fxp=0, eta=Fraction(1, 8))
    assert lnr_path_loss_rswr23(times="1/2,1/4", y="1,3/4", fx=1, fxp=0) == 2
    assert lnr_path_loss(times="1/2,1/4", y="1,1/2", fx=1, fxp=0, eta=Fraction(1, 8)) == 0
    # Z is defined on [eta, inf): the last time may equal eta ((3/4 - 1/4)/(1/2) = 1) but
    # not fall below it
    assert lnr_path_loss(times="1,1/2", y="1,3/4", fx=1, fxp=0, eta=Fraction(1, 2)) == 1
    with pytest.raises(DomainError) as err:
        lnr_path_loss(times="1,1/2", y="1,3/4", fx=1, fxp=0,
                      eta=Fraction(1, 2) + Fraction(1, 10**40))
    assert err.value.param == "times"


@covers("WRWR22:Eq4", "WRWR22:Def4.1", "RSWR23:LemA.1")
def test_errata_evidence_carries_the_hand_derived_numbers() -> None:
    """The live checks' evidence states the numbers of the errata, derived here by hand:
    t_0 = 1/2, t_1 = 1 leaves an atom (1/2)^2 = 0.25 at 0; on (1e-30, 1] the process has
    2 ln(10^30) = 60 ln 10 = 138.155... jumps on average; at X = 0.339, d = 0.6, t = 0.7
    the loss is (|0.339 - 0.6| - 0.339)/0.7 = -0.078/0.7 = -0.11142... and the printed form
    (|0.339 - 1| - 0.339)/0.7 = 0.322/0.7 = 0.46; with t = (1, 2, 4) the release carrying
    zeta_3 (scale 4, Delta_1 = 1) is 1/4-DP, not eps_1 = 1/t_1 = 1."""
    assert (_LOSS, _PRINTED) == (Fraction(-78, 700), Fraction(46, 100))  # the hand values
    details = {e.id: e.verify() for e in errata() if e.id in _DETAILS}
    assert set(details) == set(_DETAILS)
    for eid, parts in _DETAILS.items():
        assert details[eid].confirmed
        for part in parts:
            assert part in details[eid].detail, (eid, part, details[eid].detail)


# the numbers of the details, from the hand derivations above in exact rationals
_X, _D, _T = Fraction("0.339"), Fraction("0.6"), Fraction("0.7")
_LOSS = (abs(_X - _D) - _X) / _T            # -0.078/0.7 = -0.11142...
_PRINTED = (abs(_X - 1) - _X) / _T          # 0.322/0.7 = 0.46 exactly
_ATOM = (Fraction(1, 2) / 1) ** 2           # (t_0/t_1)^2
_LEVEL = Fraction(1, 4)                     # Delta_1/t_3 = 1/4

_DETAILS = {"WRWR22:Eq4-t0": ["P[zeta_1 = 0] = 0;", f"atom of mass {float(_ATOM)} at 0"],
            "WRWR22:Def4.1-eta": [f"{60 * math.log(10):.2f} jumps"],
            "RSWR23:LemA.1": [f"gives {float(_LOSS):.4f}, the printed form {float(_PRINTED)}"],
            "WRWR22:LNR-indexing": [f"is {_LEVEL}-DP, not eps_1 = 1"]}
