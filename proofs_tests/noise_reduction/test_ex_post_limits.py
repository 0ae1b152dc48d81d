"""Ex-post composition at its size limit, its catalogue classification, and the live check
of the erratum on RSWR23 Lemma 5.1's proof (pinned to values derived by hand)."""

from __future__ import annotations

import pytest

from reference.core.errors import DomainError
from reference.results import covers, errata, get
from reference.results.noise_reduction.ex_post import compose_expost


@covers("RSWR23:Lem5.1")
def test_composition_accepts_ten_thousand_rounds_and_refuses_more() -> None:
    """The documented limit is 10^4 rounds: 10^4 equal rounds of (1/4, 2^-10) add up to
    exactly (2500, 9.765625), one more round is a DomainError naming expost."""
    g = compose_expost(expost=["0.25"] * 10_000, deltas=[2.0**-10] * 10_000)
    assert (g.eps, g.delta) == (2500, 9.765625)
    with pytest.raises(DomainError, match="expost"):
        compose_expost(expost=["0.25"] * 10_001, deltas=[2.0**-10] * 10_001)


@covers("RSWR23:Lem5.1")
def test_composition_is_a_probabilistic_guarantee() -> None:
    """Lemma 5.1 bounds a probability (P[L > sum E_i] <= sum delta_i), so the catalogue must
    mark it probabilistic: that is what makes the contract demand its statistical test."""
    assert get("RSWR23:Lem5.1").probabilistic is True


@covers("RSWR23:Lem5.1")
def test_lemma_51_erratum_counterexample() -> None:
    """Randomised response with odds 3 (P = (3/4, 1/4), Q = (1/4, 3/4)) has loss +log 3 with
    probability 3/4 and -log 3 otherwise (by hand).  With E = log 3 and delta = 0 the
    hypothesis P[L > E] = 0 <= delta holds while P[L >= E] = 3/4."""
    check = {e.id: e for e in errata()}["RSWR23:Lem5.1"].verify()
    assert check.confirmed is True
    assert check.detail == ("randomised response with odds 3, E = log 3, delta = 0: "
                            "P[L > E] = 0 (the hypothesis holds) but P[L >= E] = 3/4 > delta, "
                            "so the '>=' conclusion fails for m = 1")
