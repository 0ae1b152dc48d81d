"""Every result certified on Arb's balls (``balls=True``) against the reference evaluator.

The same formula runs on mpmath's ``iv`` (``dataclasses.replace(res, balls=False)``): at the
example inputs and at valid fuzzed inputs, both enclosures hold the plain value (with the
contract's slack), they intersect (each holds the exact value, so a miss is a bug in one of
them), and neither is much wider than the other.  For an inverse, both certificates hold and
their brackets of the exact inverse intersect.  Results are found by walking the catalogue,
so one switched to balls later is checked without writing anything here.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from proofs_tests.profiles import share
from proofs_tests.test_contract import _numbers
from reference import DomainError, catalogue
from reference.core.certificates import Certificate
from reference.core.model import Result
from reference.oracle.strategies import valid_params

ON_BALLS = [r for r in catalogue() if r.balls]
IDS = [r.id for r in ON_BALLS]


def test_the_fast_results_are_the_ones_documented() -> None:
    """The list the docs (numeric-contract.md, "Two enclosing evaluators") give; a change
    must update them."""
    assert sorted(IDS) == [
        "BW18:Thm8", "BW18:Thm8-eps", "BW18:Thm8-rho", "BW18:Thm8-rho-eps", "CL23:Lem2.2-advanced",
        "CL23:Lem2.8", "CL23:Lem2.9-conservative", "CL23:Lem2.9-exact", "CL23:LemE.1",
        "CL23:LemE.2-conservative", "CL23:LemE.2-exact", "CL23:RemB.5", "CL23:Thm2.10",
        "CL23:Thm2.10-basic", "CL23:ThmB.4-tail", "CL23:ThmI.3",
        "KOV15:Thm3.3", "KOV15:Thm3.3-delta", "LEC11:AdvComp", "LEC11:Ex1", "LEC11:GaussTail",
        "LEC11:LRR", "MIR17:RR-renyi", "MTZ19:rdp", "MV16:Thm1.5-delta", "RRUV16:Def2.6",
        "RRUV16:Lem2.3-ii", "RRUV16:Lem3.3", "RRUV16:Lem6.4", "RRUV16:Thm2.10", "RRUV16:Thm4.1",
        "RRUV16:Thm4.2", "RRUV16:Thm4.4", "RRUV16:Thm4.5", "RRUV16:Thm5.1", "RRUV16:Thm6.1",
        "RRUV16:Thm6.5", "RRUV16:fn2-advanced", "RSWR23:Eq2", "RSWR23:Lem2.3", "RSWR23:Lem5.2",
        "RSWR23:Lem6.2", "RSWR23:Thm2", "RSWR23:Thm3", "RSWR23:Thm5", "RSWR23:Thm6",
        "RSWR23:Thm6-printed", "RSWR23:psi", "WRWR22:Cor3.7", "WRWR22:Cor5.2",
        "WRWR22:Sec4-Skellam", "WRWR22:Sec4-Skellam-NR", "WRWR22:Thm3.6-mixture"]
    # the docs name each of them: proofs_tests/tools/test_docs_tables.py (the mutation
    # tester's copies hold no docs)


def _agree(res: Result[Any], params: dict[str, Any]) -> None:
    on_iv = dataclasses.replace(res, balls=False)
    if res.inverse is not None:
        a, b = res(**params), on_iv(**params)
        assert isinstance(a, Certificate) and isinstance(b, Certificate)
        assert a.holds and b.holds
        assert max(a.lo, b.lo) <= min(a.hi, b.hi), (res.id, params, a, b)
        return
    plain = _numbers(res(**params))
    fast, ref = _numbers(res.certified(**params)), _numbers(on_iv.certified(**params))
    assert len(fast) == len(ref) == len(plain)
    with mp.workdps(60):
        for x, a, b in zip(plain, fast, ref, strict=True):
            if mp.isinf(x):     # an infinite value (a filter's infinite term): same ends
                assert a == b and x in (a.lo, a.hi), (res.id, params, x, a, b)
                continue
            slack = mp.mpf(10) ** -35 * (1 + abs(x))
            for e in (a, b):
                assert e.lo - slack <= x <= e.hi + slack, (res.id, params, x, a, b)
            assert max(a.lo, b.lo) <= min(a.hi, b.hi), (res.id, params, a, b)
            with mp.workprec(300):  # widths rounded to 300 bits, not Fractions: an end like
                # e^(-1.2e10) (the Gaussian curve far out) has 10^10 bits
                wa, wb = a.hi - a.lo, b.hi - b.lo
                floor = abs(x) * mp.mpf(2) ** -150 + mp.mpf(2) ** -600
                assert wa <= 16 * wb + floor and wb <= 16 * wa + floor, (res.id, params, a, b)


@pytest.mark.parametrize("res", ON_BALLS, ids=IDS)
def test_example_inputs_agree(res: Result[Any]) -> None:
    _agree(res, {p.name: p.example for p in res.params})


@pytest.mark.parametrize("res", ON_BALLS, ids=IDS)
@settings(max_examples=share(Fraction(1, 6)), deadline=None)
@given(data=st.data())
def test_valid_inputs_agree(res: Result[Any], data: st.DataObject) -> None:
    params = data.draw(valid_params(res))
    try:
        _agree(res, params)
    except DomainError as err:       # a cross-parameter condition, as in the contract
        assert res.id in str(err)
