"""Property tests of MV16's exact heterogeneous composition (MV16 Thm 1.5); KOV15 Thm 3.5
and the KOV lattice are in ``test_kov15_heterogeneous.py``.

Independent routes: brute-force enumeration of the 2^k subsets in MV16's statement
(``proofs_tests.composition_support.brute_force_delta``), the anchors report's numbers,
and the orderings that must hold between an exact optimum and valid bounds (optimal <=
KOV three-way min <= advanced, basic).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.arb_support import arb_q
from proofs_tests.composition_support import brute_force_delta, q, small_eps
from proofs_tests.profiles import share
from reference import DomainError, certified
from reference.core.numeric import Interval, exact, to_ctx
from reference.results import covers
from reference.results.composition.kov15 import optimal_delta, optimal_epsilon
from reference.results.composition.kov15_heterogeneous import kov_heterogeneous
from reference.results.composition.mv16 import (
    MAX_TERMS,
    _check,
    hetero_delta_result,
    hetero_epsilon_result,
)
from reference.results.composition.rruv16 import (
    advanced_composition_heterogeneous,
    basic_composition,
)


@covers("MV16:Thm1.5-delta")
@settings(max_examples=share(Fraction(5, 12)))
@given(eps=st.lists(small_eps, min_size=1, max_size=9), eps_g=small_eps,
       with_delta=st.booleans())
def test_hetero_delta_equals_subset_enumeration(eps: list[str], eps_g: str,
                                                with_delta: bool) -> None:
    delta = [["0", "0.001", "0.01"][i % 3] for i in range(len(eps))] if with_delta else None
    enc = certified(hetero_delta_result, eps=eps, eps_g=eps_g, delta=delta or ())
    ref = brute_force_delta(eps, eps_g, delta)
    with mp.workdps(60):
        slack = mp.mpf(10) ** -45
        assert enc.lo - slack <= ref <= enc.hi + slack


@covers("MV16:Thm1.5-delta", "KOV15:Thm3.3-delta")
@settings(max_examples=share(Fraction(1, 3)))
@given(eps=small_eps, k=st.integers(1, 80), eps_g=st.sampled_from(["0", "0.3", "1", "4"]),
       delta=st.sampled_from(["0", "1e-4"]))
def test_hetero_equals_homogeneous_kov_when_all_equal(eps: str, k: int, eps_g: str,
                                                      delta: str) -> None:
    a = certified(hetero_delta_result, eps=[eps] * k, eps_g=eps_g, delta=[delta] * k)
    b = certified(optimal_delta, eps=eps, k=k, eps_g=eps_g, delta=delta)
    assert a.lo <= b.hi and b.lo <= a.hi
    assert abs(a.mid - b.mid) <= mp.mpf(10) ** -40 * (1 + abs(b.mid))


@covers("MV16:Thm1.5", "KOV15:Thm3.3")
@pytest.mark.parametrize(("eps", "k", "published"), [("0.001", 500, "0.0797888542"),
                                                     ("0.1", 500, "12.5178800")])
def test_hetero_inverse_matches_anchors_and_kov(eps: str, k: int, published: str) -> None:
    cert = hetero_epsilon_result(eps=[eps] * k, delta_g="1e-6")
    assert cert.holds
    assert abs(cert.value / mp.mpf(published) - 1) < 1e-8
    kov = optimal_epsilon(eps=eps, k=k, delta_g="1e-6", delta=0)
    assert abs(cert.value - kov.value) < mp.mpf(10) ** -30


@covers("MV16:Thm1.5", "KOV15:Thm3.5", "RRUV16:fn2-advanced", "RRUV16:Thm2.9")
@settings(max_examples=share(Fraction(1, 4)))
@given(eps=st.lists(small_eps, min_size=1, max_size=40),
       delta_g=st.sampled_from(["1e-3", "1e-6", "1e-9"]))
def test_composition_orderings(eps: list[str], delta_g: str) -> None:
    """exact optimum <= KOV15 three-way min <= min(advanced (DRV), basic), same delta."""
    if len({e for e in eps}) > 4 and len(eps) > 20:
        eps = eps[:20]
    best = hetero_epsilon_result(eps=eps, delta_g=delta_g)
    kov = certified(kov_heterogeneous, eps=eps, delta_tilde=delta_g).eps
    adv = certified(advanced_composition_heterogeneous, eps=eps, delta_hat=delta_g).eps
    basic = certified(basic_composition, eps=eps).eps
    assert best.holds and best.value <= kov.lo
    assert kov.hi <= adv.hi and kov.hi <= basic.hi
    # KOV15's guarantee is valid: the exact delta at its epsilon is below its delta
    at_kov = certified(hetero_delta_result, eps=eps, eps_g=kov.hi)
    assert q(at_kov.hi) <= Fraction(delta_g)


@covers("MV16:Thm1.5-delta", "MV16:Thm1.5")
def test_hetero_limits_and_floor() -> None:
    with pytest.raises(DomainError, match="exact enumeration"):
        hetero_delta_result(eps=[str(Fraction(1, n)) for n in range(1, 40)], eps_g=1)
    with pytest.raises(DomainError, match="must exceed"):
        hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.01", delta=["0.01", "0"])
    assert hetero_delta_result(eps=["0", "0"], eps_g=0) == 0
    assert hetero_epsilon_result(eps=["0.1", "0.2"], delta_g="0.5").holds


@covers("MV16:Thm1.5-delta")
def test_enumeration_limit_is_exactly_max_terms() -> None:
    """``prod (k_j + 1)`` at the limit is accepted, one above is refused: 2 x 0.1 and
    66666 x 0.2 give 3 * 66667 = 200001 loss values; 1 x 0.1 and 100000 x 0.2 give
    2 * 100001 = 200002 (the documented limit, independent of the module's constant)."""
    assert MAX_TERMS == 200_001
    tenth, fifth = Fraction(1, 10), Fraction(1, 5)
    _check({"eps": (tenth,) * 2 + (fifth,) * 66666, "delta": ()}, "MV16:Thm1.5-delta")
    with pytest.raises(DomainError, match=r"<= 200001 for exact enumeration \(here 200002\)"):
        _check({"eps": (tenth,) + (fifth,) * 100000, "delta": ()}, "MV16:Thm1.5-delta")


# ---- a delta near 1 (was ValueError / ComplexResult from log1p(-delta) rounded to -1) ------
# Second route: MV16's sum over all 2^k subsets in python-flint arb balls at 3000 bits,
# through the complement 1 - delta_g = prod(1-delta_i) (1 - S) (exact complements, the sign
# of each bracket decided on Fractions), where S is the pure (delta = 0) sum.

TINY = Fraction(2) ** -1074
SLACK = Fraction(1, 10**48)    # rounding of a 50-digit point value near 1


def _mv_complement(eps: list[Fraction], eps_g: Fraction, delta: list[Fraction]) -> arb:
    pure = arb(0)
    for inside in itertools.product([False, True], repeat=len(eps)):
        a = sum((x for x, s in zip(eps, inside, strict=True) if s), Fraction(0))
        b = sum((x for x, s in zip(eps, inside, strict=True) if not s), Fraction(0))
        if a - b > eps_g:
            pure += arb_q(a).exp() - arb_q(eps_g + b).exp()
    for x in eps:
        pure /= 1 + arb_q(x).exp()
    keep = Fraction(1)
    for d in delta:
        keep *= 1 - d
    return arb_q(keep) * (1 - pure)


def _check_mv_forward(eps: list[Any], eps_g: Any, delta: list[Fraction]) -> Interval:
    value = hetero_delta_result(eps=eps, eps_g=eps_g, delta=delta)
    enc = certified(hetero_delta_result, eps=eps, eps_g=eps_g, delta=delta)
    lo, hi = q(enc.lo), q(enc.hi)
    assert lo - SLACK <= q(value) <= hi + SLACK
    with ctx.workprec(3000):
        comp = _mv_complement([q(e) for e in eps], q(eps_g), delta)
        assert bool(arb_q(1 - hi) <= comp) and bool(comp <= arb_q(1 - lo)), (enc, comp)
    return enc


@covers("MV16:Thm1.5-delta")
@pytest.mark.parametrize(("eps", "eps_g", "delta"), [
    ([1.0, 1e-300, 5e-324], "0.3", [1 - TINY, Fraction(0), Fraction(0)]),
    ([1.0, 1e-300, 5e-324], 7.87e-255, [1 - Fraction(1, 10**300), Fraction(1e-300), 1 - TINY]),
    ([1.0], "0.0575", [1 - Fraction(1, 10**300)]),
    (["0.1", "0.2", "0.2"], "0.0575", [Fraction(1e-300), 1 - Fraction(2) ** -53, Fraction(1, 2)]),
    (["2", "0.5"], "0", [1 - Fraction(1, 10**20), Fraction(0)]),
])
def test_hetero_delta_near_one(eps: list[Any], eps_g: Any, delta: list[Fraction]) -> None:
    enc = _check_mv_forward(eps, eps_g, delta)
    assert exact(enc.hi, "hi", "t") - exact(enc.lo, "lo", "t") <= Fraction(1, 10**45)


@covers("MV16:Thm1.5")
def test_hetero_inverse_near_one() -> None:
    """Below the floor: DomainError (was ComplexResult).  Above it by half of
    ``prod(1-delta_i) = 2**-101``: ``S(eps_g) <= 1/2`` for one mechanism of eps 2 (the
    zero-eps one drops out), i.e. ``eps_g* = log((e^2 - 1)/2)`` (by hand, as in
    ``test_kov15_near_one``); the certificate holds, brackets it and is tight."""
    for delta in ([1 - TINY], [1 - Fraction(1, 10**300)]):
        with pytest.raises(DomainError, match="must exceed") as info:
            hetero_epsilon_result(eps=[1.0], delta_g="0.5", delta=delta)
        assert "delta_g" in str(info.value) and "MV16:Thm1.5" in str(info.value)
    keep = Fraction(2) ** -101
    cert = hetero_epsilon_result(eps=["2", "0"], delta_g=1 - keep / 2,
                                 delta=[1 - Fraction(2) ** -100, Fraction(1, 2)])
    assert cert.holds
    with ctx.workprec(3000):
        root = ((arb_q(Fraction(2)).exp() - 1) / 2).log()
        assert bool(arb_q(q(cert.lo)) <= root) and bool(root <= arb_q(q(cert.hi)))
    assert q(cert.hi) - q(cert.lo) <= Fraction(1, 10**40)


_near_one = st.one_of(
    st.builds(lambda m, e: 1 - Fraction(m, 10**e), st.integers(1, 9), st.integers(300, 340)),
    st.builds(lambda n: 1 - Fraction(1, 2**n), st.integers(997, 1200)))
_small = st.sampled_from([Fraction(0), TINY, Fraction(1, 10**300), Fraction(1, 10),
                          Fraction(1, 2), Fraction(1), Fraction(2), Fraction(575, 10**4)])


@covers("MV16:Thm1.5-delta", "MV16:Thm1.5")
@settings(max_examples=share(Fraction(1, 4)))
@given(eps=st.lists(_small, min_size=1, max_size=3), eps_g=_small, data=st.data(),
       delta_g=st.floats(1e-300, 0.999999))
def test_hetero_near_one_encloses_or_domain_error(eps: list[Fraction], eps_g: Fraction,
                                                  data: st.DataObject, delta_g: float) -> None:
    """delta_i in [1 - 1e-300, 1) for at least one mechanism: the forward encloses the arb
    value; the inverse gives a certificate that holds or a DomainError, nothing else."""
    others = st.one_of(_near_one, st.sampled_from([Fraction(0), Fraction(1e-300),
                                                   Fraction(1, 2)]))
    delta = [data.draw(_near_one)] + [data.draw(others) for _ in eps[1:]]
    _check_mv_forward(eps, eps_g, delta)
    keep = Fraction(1)
    for d in delta:
        keep *= 1 - d
    for target in (Fraction(delta_g), 1 - keep / 2):
        try:
            cert = hetero_epsilon_result(eps=eps, delta_g=target, delta=delta)
        except DomainError as err:
            assert "MV16:Thm1.5" in str(err) and "delta_g" in str(err)
            continue
        assert cert.holds


@covers("MV16:Thm1.5-delta")
@pytest.mark.parametrize("eps", [[Fraction(1, 10)] * 2, [Fraction(1, 10), Fraction(1, 7)]])
@pytest.mark.parametrize("below", [Fraction(1, 2**200), Fraction(1, 10**400)])
def test_hetero_at_the_kink_of_the_largest_loss(eps: list[Fraction], below: Fraction) -> None:
    """eps_g = sum eps - below: only the largest loss counts, with weight prod p_i and
    1 - e^(-below) ~ below; the enclosure holds the exact value (arb, 3000 bits) and is
    tight to the working precision (the losses were sums of lifted epsilons, and the
    enclosure at below = 2^-200 was 6% wide)."""
    total = sum(eps, Fraction(0))
    enc = certified(hetero_delta_result, eps=eps, eps_g=total - below)
    lo, hi = q(enc.lo), q(enc.hi)
    with ctx.workprec(3000):
        weight = arb(1)
        for x in eps:
            weight /= 1 + (-arb_q(x)).exp()
        exact_value = weight * -(-arb_q(below)).expm1()
        assert bool(arb_q(lo) <= exact_value) and bool(exact_value <= arb_q(hi))
    assert hi - lo <= lo * Fraction(1, 2**150)


def assert_solver_point_near(lo: Fraction, eps: list[Fraction], delta_g: Fraction,
                             delta: list[Fraction]) -> None:
    """The solver's own point (``core`` at 50 digits, before the certificate walks from
    it) is within 2^-(prec - 20) of ``lo``, an end of the certified bracket."""
    with mp.workdps(50):
        bits = mp.prec
        guess = q(hetero_epsilon_result.core(mp, eps, to_ctx(mp, delta_g),
                                             [to_ctx(mp, d) for d in delta]))
    assert abs(guess - lo) <= lo * Fraction(1, 2 ** (bits - 20))


@covers("MV16:Thm1.5")
@pytest.mark.parametrize(("delta", "delta_g"), [
    ([Fraction(1, 10), Fraction(0)], Fraction(1, 5)),          # keep = 0.9: the expm1 form
    ([Fraction(1, 2), Fraction(3, 5)], Fraction(41, 50)),      # keep = 0.2: the 1 - form
    # 1 - (1 - delta_g)/keep would cancel 100 bits here (delta_g, 1 - keep ~ 1e-30)
    ([Fraction(1, 10**30), Fraction(0)], Fraction(2, 10**30)),
])
def test_hetero_inverse_with_delta_is_the_pure_inverse_at_the_rr_target(
        delta: list[Fraction], delta_g: Fraction) -> None:
    """delta_g = 1 - K + K S(eps_g), K = prod(1 - delta_i): the inverse at delta_g equals the
    pure inverse at t = (delta_g - 1 + K)/K (exact); the brackets meet, and the solver's own
    point (``core``, before the certificate walks from it) is within 2^-(prec - 20) of them."""
    eps = [Fraction(1, 5), Fraction(1, 3)]
    K = (1 - delta[0]) * (1 - delta[1])
    t = (delta_g - 1 + K) / K
    cert = hetero_epsilon_result(eps=eps, delta_g=delta_g, delta=delta)
    pure = hetero_epsilon_result(eps=eps, delta_g=t)
    lo, hi = max(q(cert.lo), q(pure.lo)), min(q(cert.hi), q(pure.hi))
    assert 0 < lo <= hi      # delta_g below its value at eps_g = 0: a positive inverse
    assert_solver_point_near(lo, eps, delta_g, delta)


@covers("MV16:Thm1.5")
@pytest.mark.parametrize("delta_g", [Fraction(2, 10**30), Fraction(11, 10**30)])
def test_solver_point_with_a_tiny_delta_and_a_rare_largest_loss(delta_g: Fraction) -> None:
    """40 x 0.01 and 40 x 0.02 with delta = (1e-30, 0, ...): the pure target
    ``t = (delta_g - 1 + K)/K`` is ~1e-30 and the solution sits where the pure curve's slope
    is ~t, so an absolute error 2^-prec in t (the form ``1 - (1 - delta_g)/K``, which cancels
    100 bits) moves the point by ~2^-prec / t relatively: the solver's point must be within
    2^-(prec - 20) of the certified bracket (the cancelling form is 1e-28 off at 50 digits)."""
    eps = [Fraction(1, 100)] * 40 + [Fraction(1, 50)] * 40
    delta = [Fraction(1, 10**30)] + [Fraction(0)] * 79
    cert = hetero_epsilon_result(eps=eps, delta_g=delta_g, delta=delta)
    lo, hi = q(cert.lo), q(cert.hi)
    assert 1 < lo <= hi and hi - lo <= lo * Fraction(1, 10**13)
    assert_solver_point_near(lo, eps, delta_g, delta)


@covers("MV16:Thm1.5-delta")
@pytest.mark.parametrize(("eps", "eps_g"), [(["3", "2", "1.5"], "0.25"),
                                            (["2.5", "2.5", "1.25", "1.25"], "0.5")])
def test_pruned_enumeration_with_epsilons_above_one(eps: list[str], eps_g: str) -> None:
    """The enumeration drops a partial loss that cannot exceed eps_g even with every later
    group at its largest (``rest``, the sum of ``n_j eps_j``).  With epsilons above 1 a
    wrong ``rest`` (``n_j / eps_j``) drops live terms: for (3, 2, 1.5) at 0.25 the losses
    -3 + 2 + 1.5 = 0.5 > 0.25.  Two-sided against MV16's sum over all subsets."""
    enc = certified(hetero_delta_result, eps=eps, eps_g=eps_g)
    ref = brute_force_delta(eps, eps_g)
    with mp.workdps(60):
        slack = mp.mpf(10) ** -45
        assert enc.lo - slack <= ref <= enc.hi + slack
        assert enc.hi - enc.lo <= ref * mp.mpf(10) ** -13


@covers("MV16:Thm1.5-delta")
def test_zero_epsilons_drop_out_of_the_enumeration() -> None:
    """A mechanism with eps = 0 releases nothing: 1000 of them next to (1, 2) give the value
    of (1, 2) alone (the subset sum of MV16 over the two), and they do not count towards
    the enumeration limit: 10^6 of them next to one eps = 1 pass it (counted as a group of
    multiplicity 10^6 they would make 2 (10^6 + 1) terms, over the limit)."""
    enc = certified(hetero_delta_result, eps=["0"] * 1000 + ["1", "2"], eps_g="0.5")
    ref = brute_force_delta(["1", "2"], "0.5")
    with mp.workdps(60):
        assert enc.lo - mp.mpf(10) ** -45 <= ref <= enc.hi + mp.mpf(10) ** -45
    _check({"eps": (Fraction(0),) * 10**6 + (Fraction(1),), "delta": ()}, "MV16:Thm1.5-delta")
