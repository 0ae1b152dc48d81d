"""How the boundary results are registered: which state a probabilistic guarantee (the flag
makes the contract demand a statistical test and the docs announce one), and the exact
delta they share being a value (immutable, hashable)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from reference.core.model import Result
from reference.results import covers
from reference.results.boundaries import wrwr22
from reference.results.boundaries.wrwr22 import ExactDelta


@covers("WRWR22:Thm3.6-mixture", "WRWR22:Thm3.6-linear", "RSWR23:psi", "WRWR22:Cor3.7",
        "WRWR22:Cor3.7-Gamma", "WRWR22:Cor3.7-Gamma-linear",
        "WRWR22:Thm3.6-mixture-optimal-rho")
def test_boundaries_are_probabilistic_and_their_inversions_are_not() -> None:
    """By the rule used for the other modules (a guarantee is probabilistic when it pays the
    failure probability of a tail bound on a random quantity as its delta): Theorem 3.6's
    mixture and linear boundaries and RSWR23's psi hold except on a crossing event of
    probability at most delta (Ville's inequality; Bachelier-Levy for the line), and
    Corollary 3.7's ex-post guarantee is that event read at the stopping time: probabilistic.
    The times Gamma at which a boundary meets a target invert the closed forms, and the
    optimal rho minimises the boundary over rho at a given time: deterministic statements
    with no failure event of their own."""
    found = {v.id: v.probabilistic for v in vars(wrwr22).values()
             if isinstance(v, Result) and v.core.__module__ == wrwr22.__name__}
    assert found == {"WRWR22:Thm3.6-mixture": True, "WRWR22:Thm3.6-linear": True,
                     "RSWR23:psi": True, "WRWR22:Cor3.7": True,
                     "WRWR22:Cor3.7-Gamma": False, "WRWR22:Cor3.7-Gamma-linear": False,
                     "WRWR22:Thm3.6-mixture-optimal-rho": False}


def test_exact_delta_is_a_value() -> None:
    d = ExactDelta(Fraction(1, 3))
    assert d == ExactDelta(Fraction(1, 3)) and hash(d) == hash(ExactDelta(Fraction(1, 3)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.value = Fraction(1, 2)  # type: ignore[misc]
