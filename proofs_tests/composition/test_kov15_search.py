"""The bisection behind KOV15:Thm3.3-grid: a sound bracket even where the interval
comparison at some lattice points cannot be decided.

Independent route: the truth is a monotone predicate drawn by Hypothesis (feasible up to
``answer``), and any set of points is made undecidable; the bracket must contain
``answer`` and be exact when nothing is undecided.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reference.results import covers
from reference.results.composition.kov15_heterogeneous import _search


@covers("KOV15:Thm3.3-grid")
@given(data=st.data(), top=st.integers(0, 400))
def test_bracket_contains_the_answer_whatever_is_undecided(data: st.DataObject,
                                                           top: int) -> None:
    """With or without a guess (right, wrong, undecided, at the top): a guess adds at most
    two decisions to the bisection's."""
    answer = data.draw(st.integers(0, top), label="answer")
    unknown = data.draw(st.sets(st.integers(1, top) if top else st.nothing()), label="unknown")
    guess = data.draw(st.none() | st.just(answer) | st.integers(0, top), label="guess")
    calls: list[int] = []

    def decide(i: int) -> bool | None:
        calls.append(i)
        return None if i in unknown else i <= answer

    lo, hi = _search(decide, top, guess)
    assert lo <= answer <= hi
    assert lo == 0 or (lo not in unknown and lo <= answer)  # lo was decided feasible
    if not unknown:
        assert (lo, hi) == (answer, answer)
    assert len(calls) <= 2 * (top.bit_length() + 1) + (0 if guess is None else 2)
    if guess == answer and not {answer, answer + 1} & unknown:
        assert len(calls) <= 2           # a right, decided guess is the answer at once


@covers("KOV15:Thm3.3-grid")
def test_a_guess_decided_feasible_with_an_undecided_next_is_not_taken() -> None:
    """The guess 7 is feasible but 8 undecided: the answer may be 8, so the bisection runs."""
    lo, hi = _search(lambda i: None if i == 8 else i <= 8, 10, guess=7)
    assert lo <= 8 <= hi


@covers("KOV15:Thm3.3-grid")
def test_undecided_point_below_feasible_ones_does_not_cut_them_off() -> None:
    """Regression: the first probe (5) undecided while 6 and 7 are feasible.  The former
    search set hi = 4 there and returned (4, 5), a bracket that missed the answer 7."""
    lo, hi = _search(lambda i: None if i == 5 else i <= 7, 10)
    assert lo <= 7 <= hi and hi <= 8
