"""The size limit of the DP-SGD privacy-loss-distribution brackets: a composition whose
product would exceed ``MAX_LENGTH`` coefficients is refused (``TooLong`` in ``compose``, a
``DomainError`` naming ``steps`` from the four results), instead of squaring for minutes.

Independent routes: the lengths of the repeated squaring traced by hand (a law of ``n``
points convolved ``T`` times has ``T (n - 1) + 1``; a product of lengths ``a`` and ``b`` has
``a + b - 1``), and the input a sweep of drawn inputs found taking 266 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from flint import arb, fmpz_poly

from reference import DomainError
from reference.results import covers, get
from reference.results.dpsgd import pld, pld_compose, wor
from reference.results.dpsgd.pld_compose import MAX_LENGTH, TooLong, compose
from reference.results.dpsgd.pld_grid import Step


def _step(coeffs: list[int], bits: int) -> Step:
    return Step(0, fmpz_poly(coeffs), arb(0), arb(0), arb(0), 1, Fraction(1, 8), bits)


@pytest.fixture(autouse=True)
def _fresh_brackets() -> Iterator[None]:
    pld.bracket.cache_clear()
    wor.wor_bracket.cache_clear()
    yield
    pld.bracket.cache_clear()
    wor.wor_bracket.cache_clear()


@covers("DPSGD:eps", "DPSGD:delta")
@pytest.mark.parametrize(("steps", "longest"), [(4, 9), (5, 11), (7, 15), (8, 17)])
def test_compose_refuses_one_coefficient_beyond_its_longest_product(
        steps: int, longest: int) -> None:
    """A law of 3 points with no cuts (``budget = 0``, every coefficient positive): its
    products, traced by hand (``T = 5``: squarings to 5 and 9 points, then 9 times 3 = 11),
    are at most ``longest`` long (``T = 7``: 3, then 3 times 5 = 7, then 7 times 9 = 15).
    At that limit ``compose`` is what it is without one; one
    below, ``TooLong`` names the product's length and the limit."""
    step = _step([2**30, 2**31, 2**30], 32)
    free = compose(step, steps, Fraction(0))
    assert free[1].length() == 2 * steps + 1
    assert compose(step, steps, Fraction(0), limit=longest) == free
    with pytest.raises(TooLong) as caught:
        compose(step, steps, Fraction(0), limit=longest - 1)
    assert (caught.value.length, caught.value.limit) == (longest, longest - 1)


_SMALL: dict[str, dict[str, Any]] = {
    "DPSGD:eps": {"delta": "1e-5"}, "DPSGD:delta": {"eps": "2"},
    "DPSGD:eps-wor": {"delta": "1e-5"}, "DPSGD:delta-wor": {"eps": "2"}}


@covers("DPSGD:eps", "DPSGD:delta", "DPSGD:eps-wor", "DPSGD:delta-wor")
@pytest.mark.parametrize("rid", sorted(_SMALL))
def test_each_bracket_refuses_a_composition_beyond_the_limit(
        rid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit lowered to 1000 coefficients, 100 steps of the Gaussian (``q = 1``)
    need more: each of the four results refuses, plain and certified, with a DomainError
    naming ``steps``, the limit, ``q``, ``sigma`` and the result (here from ``compose``'s
    products: the prediction before composing is switched off)."""
    monkeypatch.setattr(pld_compose, "MAX_LENGTH", 1000)
    monkeypatch.setattr(pld_compose, "PREDICTION_MARGIN", 10**9)
    res = get(rid)
    for f in (res, res.certified):
        with pytest.raises(DomainError, match=r"steps must keep the composed privacy-loss law "
                           r"within 1000 coefficients at q = 1, sigma = 1 \(it needs at least "
                           rf"\d+; .*\): fewer steps, a larger sigma or a smaller q for {rid}, "
                           r"got 100") as caught:
            f(q=1, sigma=1, steps=100, **_SMALL[rid])
        assert caught.value.param == "steps" and caught.value.value == 100


@covers("DPSGD:delta-wor")
def test_the_input_found_taking_minutes_is_refused() -> None:
    """``DPSGD:delta-wor`` at ``q = 1``, ``sigma = 1``, 99999 steps, ``eps = 25.6`` squared
    for 266 s (a sweep of drawn inputs found it); its composed law would exceed
    ``MAX_LENGTH = 2^20`` coefficients (about 50 million, predicted from the coarse pass), so
    it is refused before the fine grid's table is built: only the sizing table and the
    coarse pass's are (a spy counts them)."""
    assert MAX_LENGTH == 2**20 and pld_compose.PREDICTION_MARGIN == 4
    tables: list[Fraction] = []
    real = pld.single_step

    def counted(*args: Any, **kwargs: Any) -> Any:
        tables.append(args[3])      # the grid step h
        return real(*args, **kwargs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pld, "single_step", counted)
        with pytest.raises(DomainError, match=r"within 1048576 coefficients at q = 1, sigma "
                           r"= 1 \(it needs about \d+, predicted from a coarser grid;") as caught:
            get("DPSGD:delta-wor").certified(q=1, sigma=1, steps=99999, eps="25.6")
    assert caught.value.param == "steps" and len(tables) == 2


def test_refuse_larger_at_its_margin() -> None:
    """A law of 1000 coefficients on the grid 1/8 has 8000 on the grid 1/64: refused above
    4 times the limit only, naming the predicted length as estimated."""
    h, finer = Fraction(1, 8), Fraction(1, 64)
    pld_compose.refuse_larger(1000, h, finer, limit=2000)           # 8000 = 4 x 2000
    with pytest.raises(TooLong) as caught:
        pld_compose.refuse_larger(1000, h, finer, limit=1999)
    assert (caught.value.length, caught.value.limit, caught.value.estimated) == (8000, 1999, True)
    assert "a product of about 8000 coefficients (limit 1999)" in str(caught.value)
    pld_compose.refuse_larger(1000, h, h, limit=1000)               # the same grid: no more
    with pytest.raises(TooLong):                                    # ceil(1001 * 8) = 8008
        pld_compose.refuse_larger(1001, h, finer, limit=2001)
    assert not TooLong(5, 4).estimated and "a product of 5 coefficients" in str(TooLong(5, 4))


@covers("DPSGD:eps", "DPSGD:delta-wor")
@pytest.mark.parametrize(("rid", "params", "low", "high"), [
    ("DPSGD:eps", {"q": "0.9", "sigma": "0.6", "steps": 1, "delta": "1e-5"}, 0.99, 1.01),
    ("DPSGD:delta-wor", {"q": "0.1", "sigma": "1", "steps": 100, "eps": "1"}, 1.7, 2.1)])
def test_the_prediction_against_the_composed_length(rid: str, params: dict[str, Any],
                                                    low: float, high: float) -> None:
    """The prediction (the coarse law's length times the ratio of the grid steps) against the
    fine law's length as composed, measured: equal within 1% for an epsilon bracket (both
    passes cut the same tails), about 2x over for a delta bracket whose second pass cuts at
    the delta found (0.3 here) instead of 2^-40; the margin of 4 leaves room for both."""
    predicted: list[int] = []
    composed: list[tuple[Fraction, int]] = []
    real_predict, real_compose = pld.refuse_larger, pld.compose

    def spy_predict(length: int, h: Fraction, finer: Fraction, limit: Any = None) -> None:
        predicted.append(-(-length * h // finer))
        composed.append((finer, -1))
        real_predict(length, h, finer, limit)

    def spy_compose(step: Step, *args: Any) -> Any:
        out = real_compose(step, *args)
        composed.append((step.h, out[1].length()))
        return out
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pld, "refuse_larger", spy_predict)
        mp.setattr(pld, "compose", spy_compose)
        get(rid)(**params)
    finer = composed[[n for _, n in composed].index(-1)][0]
    fine = [n for h, n in composed if h == finer and n >= 0]
    assert predicted and fine
    assert low <= predicted[0] / fine[0] <= high, (predicted, fine)
