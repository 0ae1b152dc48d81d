"""Edges of the registered target results (CL23 Def 2.1, Lemma A.1, Cor A.3): the outcome
limit, target index 0, the enclosure over the bracket of ``e^eps``, the mixture exactly at
``delta_min``, the two refusals below it, and the mixture of a pure pair at ``delta = 0``
(masses down to subnormals, where the old difference of lifted masses divided 0 by 0).

Expected values are derived by hand in each test (exact rationals, or mpmath at 100 digits
on a closed form derived from the definition, with ``expm1`` against cancellation).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from mpmath import libmp, mp

from proofs_tests.arb_support import frac
from proofs_tests.tct_support import log
from reference import DomainError
from reference.results import covers
from reference.results.tct.targets import (
    MAX_OUTCOMES,
    algorithm_decomposition,
    mixture,
    target_q,
    target_q_approx,
)

F = Fraction
HALF = F(1, 2)


@covers("CL23:Def2.1", "CL23:DefB.1", "CL23:LemA.1")
def test_outcome_limit_is_twelve() -> None:
    """Twelve outcomes are accepted, thirteen refused (the documented limit of the exact LP).

    Twelve outcomes, target {0}, ``P`` uniform, ``Q`` = 1/24 on outcomes 0..5 and 1/8 on
    6..11, ``w = e``: by Def 2.1, off ``T`` the common part is at most
    ``u_y = (w min - max)/(w - 1)``, i.e. ``(w - 2)/(24(w - 1))`` on 1..5 and
    ``(2w - 3)/(24(w - 1))`` on 6..11, summing to ``(17w - 28)/(24(w - 1))``; the smaller
    mass of ``T`` is 1/24, so ``q* = (1/24)/(1 - that) = (w - 1)/(7w + 4)``."""
    assert MAX_OUTCOMES == 12
    P = [F(1, 12)] * 12
    Q = [F(1, 24)] * 6 + [F(1, 8)] * 6
    enc = target_q.certified(P=P, Q=Q, T=[0], eps=1)
    with mp.workdps(60):
        q = (mp.e - 1) / (7 * mp.e + 4)
        assert q in enc.q and enc.q.hi - enc.q.lo < mp.mpf(10) ** -14
        assert enc.delta_min.lo <= 0 <= enc.delta_min.hi      # every ratio <= 2 < e
    assert mixture(P=P, Q=Q, eps=1, delta=0).e0 == (0,) * 12
    for res, extra in ((target_q, {"T": [0]}), (target_q_approx, {"T": [0], "delta": 0}),
                       (mixture, {"delta": 0})):
        with pytest.raises(DomainError, match=r"at most 12 outcomes"):
            res(P=[F(1, 13)] * 13, Q=[F(1, 13)] * 13, eps=1, **extra)


@covers("CL23:Def2.1")
def test_target_index_zero_is_accepted() -> None:
    """Outcome 0 is a valid target index: RR_{ln 3} (P = (3/4, 1/4), Q = (1/4, 3/4)) with
    T = {0}: Lemma C.3's construction with the roles swapped, pi = P_b(0) = 3/4, 1/4:
    ``q = (1/4)(3 - 1)/(3 (3/4) - 1/4) = 1/4``."""
    v = target_q.certified(P=[F(3, 4), F(1, 4)], Q=[F(1, 4), F(3, 4)], T=[0],
                           eps=log(F(3), up=True))
    with mp.workdps(60):
        assert abs(v.q.mid - mp.mpf(1) / 4) < mp.mpf(10) ** -30
    with pytest.raises(DomainError, match="T"):
        target_q(P=[HALF, HALF], Q=[HALF, HALF], T=[-1], eps=1)


@covers("CL23:Def2.1")
def test_enclosure_spans_the_bracket_of_e_eps() -> None:
    """The certified q encloses the exact value where q moves fast with e^eps.

    ``eps = 10^-12``, ``P = (1/2, 1/2)``, ``Q = (1/2 + d, 1/2 - d)``, ``d = eps/4`` (ratios
    ``1 + eps/2`` and ``1/(1 - eps/2)``, both below ``e^eps``), target {1}.  Two outcomes: the
    only common mass off ``T`` is ``c_0 <= (w/2 - 1/2 - d)/(w - 1)``, so
    ``q* = (1/2 - d)/(1 - c_0) = (1/2 - d)(w - 1)/((w - 1)/2 + d)`` (the Lemma C.3 value),
    ``dq/dw ~ 2/(9 eps)``: a point at either end of a rational bracket of ``e^eps`` misses
    the exact value by far more than the width of the enclosure.  Both contexts are checked
    against ``q*`` at 100 digits, using ``expm1(eps) = w - 1``."""
    eps = F(1, 10**12)
    d = eps / 4
    P, Q = [HALF, HALF], [HALF + d, HALF - d]
    enc = target_q.certified(P=P, Q=Q, T=[1], eps=eps)
    point = target_q(P=P, Q=Q, T=[1], eps=eps)
    with mp.workdps(100):
        g = mp.expm1(mp.mpf(eps.numerator) / eps.denominator)
        dd = mp.mpf(d.numerator) / d.denominator
        q = (mp.mpf(1) / 2 - dd) * g / (g / 2 + dd)
        assert q in enc.q
        assert enc.q.hi - enc.q.lo < mp.mpf(10) ** -40
        assert abs(point.q - q) < mp.mpf(10) ** -14


@covers("CL23:LemA.1", "CL23:CorA.3")
def test_mixture_at_exactly_the_smallest_delta() -> None:
    """``eps = 0``, ``P = (1/2, 1/2)``, ``Q = (1/4, 3/4)``: the smallest delta is the total
    variation 1/4, and at exactly 1/4 the mixture exists: all of ``min(P, Q) = (1/4, 1/2)``
    (mass 3/4 = 1 - delta) is the common part, ``N0 = N1 = (1/3, 2/3)``,
    ``e0 = P - (1/4, 1/2) = (1/4, 0)``, ``e1 = (0, 1/4)``.  Above it (delta = 1/2) the part
    ``(1 - delta) N0`` is ``min(P, Q)`` scaled to mass 1/2: ``N0 = N1 = (1/3, 2/3)``,
    ``e0 = (1/2, 1/2) - (1/6, 1/3) = (1/3, 1/6)``, ``e1 = (1/12, 5/12)``."""
    P, Q = [HALF, HALF], [F(1, 4), F(3, 4)]
    cases = [(F(1, 4), (F(1, 4), F(0)), (F(0), F(1, 4))),
             (HALF, (F(1, 3), F(1, 6)), (F(1, 12), F(5, 12)))]
    for delta, e0, e1 in cases:
        for res in (mixture, algorithm_decomposition):
            m = res.certified(P=P, Q=Q, eps=0, delta=delta)
            expected = ((F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)), e0, e1)
            for got, want in zip(m, expected, strict=True):
                for g, x in zip(got, want, strict=True):
                    with mp.workdps(60):
                        assert g.lo <= mp.mpf(x.numerator) / x.denominator <= g.hi
                        assert g.hi - g.lo < mp.mpf(10) ** -14


@covers("CL23:LemA.1", "CL23:CorA.3")
def test_mixture_refusals_below_the_smallest_delta() -> None:
    """Below the smallest delta: a definite refusal when the bracket of ``e^eps`` decides it,
    a "raise the precision" refusal when it cannot.

    (a) ``e^eps = 3/2`` (eps = ln(3/2) to 60 digits), ``P = (1/2, 1/2)``, ``Q = (1/4, 3/4)``:
    ``sum (P - wQ)_+ = 1/2 - 3/8 = 1/8`` while ``sum (Q - wP)_+ = (3/4 - 3/4)_+ = 0``, so the
    smallest delta is the larger one, ~1/8, and delta = 1/16 is certainly below it.
    (b) ``eps = 0``: delta = 1/8 below the total variation 1/4.
    (c) ``eps = ln 2`` to 60 digits with the same pair: the smallest delta is
    ``(1/2 - e^eps/4)_+``, within 1e-60 of 0, so delta = 0 cannot be placed against it at
    15 digits: the refusal asks for more precision."""
    P, Q = [HALF, HALF], [F(1, 4), F(3, 4)]
    for res in (mixture, algorithm_decomposition):
        for eps, delta in ((log(F(3, 2)), F(1, 16)), (0, F(1, 8))):
            with pytest.raises(DomainError, match="must be at least the pair's smallest"):
                res(P=P, Q=Q, eps=eps, delta=delta)
        with pytest.raises(DomainError, match="within the working precision"):
            res(P=P, Q=Q, eps=log(F(2)), delta=0)


_TINY = F(6032057205060441, 2**1074)  # a subnormal double, exactly
_WEIGHTS = st.one_of(st.sampled_from([F(0), F(1), _TINY, F(10) ** -300, F(1, 3)]),
                     st.fractions(F(0), F(10), max_denominator=10**6))


@covers("CL23:LemA.1", "CL23:CorA.3")
@given(st.lists(st.tuples(_WEIGHTS, _WEIGHTS), min_size=2, max_size=5))
@example([(F(1), F(1)), (F(1), F(1)), (F(0), F(0)), (F(10) ** -300 / 2, F(10) ** -300)])
@example([(F(1), F(1)), (F(1), F(1)), (F(0), F(0)), (_TINY, _TINY * 2)])
def test_pure_pair_at_delta_zero_is_its_own_mixture(pairs: list[tuple[Fraction, Fraction]],
                                                    ) -> None:
    """At ``delta = 0`` a pair with ``P <= e^eps Q`` and ``Q <= e^eps P`` can only split as
    ``N0 = P``, ``N1 = Q``, ``e0 = e1 = 0`` (the failure parts are non-negative of mass
    0).  The laws are the drawn weights normalised, zero where both weights are zero (else
    the pair is not pure), with ``eps`` a rational above ``ln`` of the largest exact ratio.
    Each part's enclosure holds the exact value (compared exactly) and is tight: relative to
    it, or for the e-parts (0, computed as ``(P - Q)_+ (1 - l)`` with ``l`` enclosed next to
    1) relative to ``|P - Q|``.  The first example divided 0 by 0 before the fix (plain:
    ZeroDivisionError; certified: every enclosure [-inf, inf])."""
    pairs = [(a, b) if a and b else (F(0), F(0)) for a, b in pairs]
    sa, sb = sum(a for a, _ in pairs), sum(b for _, b in pairs)
    if sa == 0:
        return
    P = [a / sa for a, _ in pairs]
    Q = [b / sb for _, b in pairs]
    ratio = max(max(p / q, q / p) for p, q in zip(P, Q, strict=True) if p)
    with mp.workdps(30):
        eps = F(str(mp.log(mp.mpf(ratio.numerator) / ratio.denominator))) + F(1, 100)
    gaps = [abs(p - q) for p, q in zip(P, Q, strict=True)]  # e = (P - Q)_+ (1 - l), l ~ 1
    bits = mp.prec  # the plain value's precision: it lies in the enclosure rounded outward
    for res in (mixture, algorithm_decomposition):
        m = res.certified(P=P, Q=Q, eps=eps, delta=0)
        plain = res(P=P, Q=Q, eps=eps, delta=0)
        for got, flat, want in zip(m, plain, (P, Q, [F(0)] * len(P), [F(0)] * len(P)),
                                   strict=True):
            for g, v, x, gap in zip(got, flat, want, gaps, strict=True):
                assert frac(g.lo) <= x <= frac(g.hi)
                lo = mp.make_mpf(libmp.mpf_pos(g.lo._mpf_, bits, libmp.round_floor))
                hi = mp.make_mpf(libmp.mpf_pos(g.hi._mpf_, bits, libmp.round_ceiling))
                assert lo <= v <= hi
                assert frac(g.hi) - frac(g.lo) <= max(x, gap) * F(1, 10**13)


def _hs(P: list[Fraction], Q: list[Fraction], w: Fraction) -> Fraction:
    return sum((max(F(0), p - w * q) for p, q in zip(P, Q, strict=True)), F(0))


_LAW = st.lists(st.integers(0, 50), min_size=2, max_size=6).filter(lambda v: sum(v) > 0)


@covers("CL23:Def2.1", "CL23:DefB.1")
@given(a=_LAW, b=_LAW, eps=st.sampled_from([F(0), F(1, 10**9), F(1, 3), F(2), F(40)]))
@example(a=[1, 0], b=[0, 1], eps=F(1, 3))           # delta_min = 1 (disjoint supports)
@example(a=[3, 1], b=[1, 3], eps=F(0))
def test_delta_min_enclosure_holds_the_rational_bracket_s_values(
        a: list[int], b: list[int], eps: Fraction) -> None:
    """``delta_min = max(sum (P - wQ)_+, sum (Q - wP)_+)`` at ``w = e^eps``, decreasing in
    ``w``: exact rationals at ``w`` just below and above ``e^eps`` (mpmath's exponential at
    80 digits, a part in 2^250 either side) bracket it.  The certified ``delta_min`` (on
    Arb's balls) holds the bracket and is as narrow as the working precision; the plain
    value lies in it."""
    n = min(len(a), len(b))
    P = [F(x, sum(a[:n])) for x in a[:n]] if sum(a[:n]) else [F(1, n)] * n
    Q = [F(x, sum(b[:n])) for x in b[:n]] if sum(b[:n]) else [F(1, n)] * n
    with mp.workdps(80):        # e^eps to 2^-260 relative: a part in 2^250 brackets it
        e = frac(mp.exp(mp.mpf(eps.numerator) / eps.denominator))
    gap = F(1, 2**250) if eps else F(0)       # (e^0 = 1 exactly)
    w_lo, w_hi = e * (1 - gap), e * (1 + gap)
    lo = max(_hs(P, Q, w_hi), _hs(Q, P, w_hi))
    hi = max(_hs(P, Q, w_lo), _hs(Q, P, w_lo))
    for res, extra in ((target_q, {}), (target_q_approx, {"delta": F(99, 100)})):
        enc = res.certified(P=P, Q=Q, T=[0], eps=eps, **extra).delta_min
        assert frac(enc.lo) <= lo and hi <= frac(enc.hi)
        assert frac(enc.hi) - frac(enc.lo) <= F(1, 10**48) + (hi - lo)
        plain = res(P=P, Q=Q, T=[0], eps=eps, **extra).delta_min
        assert frac(enc.lo) - F(1, 10**49) <= frac(plain) <= frac(enc.hi) + F(1, 10**49)
