"""The contract every catalogue result meets, tested once for all of them.

Coverage by tests (every result has a property test in ``proofs_tests/<topic>/``, every
probabilistic result a statistical test in ``stats_tests/<topic>/``, read from the
``@covers`` decorators by :mod:`reference.tools.testindex`), ids that follow the scheme,
the example inputs' point value inside its own certified enclosure (or, for a result with
an inverse, a certificate that holds), a ``DomainError`` naming the parameter and the
result for every bad input, and valid fuzzed inputs that never crash.

These walk every registered result, so a result added later is checked without writing
anything here; the per-paper files under ``proofs_tests/<topic>/`` test what each result
implies.
"""

from __future__ import annotations

import importlib
import pkgutil
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

import reference.results
from proofs_tests.profiles import share
from reference import DomainError, catalogue
from reference.core.certificates import Certificate
from reference.core.model import Result
from reference.core.numeric import Interval
from reference.oracle.strategies import invalid_values, valid_params
from reference.tools.testindex import test_index as build_test_index

RESULTS = catalogue()
IDS = [r.id for r in RESULTS]


def test_every_result_has_its_tests() -> None:
    index = build_test_index()
    missing = [r.id for r in RESULTS if not index.get(r.id, {}).get("property")]
    assert not missing, f"results without a property test: {missing}"
    no_stats = [r.id for r in RESULTS if r.probabilistic and not index.get(r.id, {}).get("stats")]
    assert not no_stats, f"probabilistic results without a stats test: {no_stats}"
    unknown = sorted(set(index) - set(IDS))
    assert not unknown, f"tests name results that are not registered: {unknown}"


def test_contract_covers_every_result() -> None:
    """The parametrised tests below run over ``RESULTS``: every ``Result`` defined at the top
    level of any module under ``reference/results`` is in it, once, under its own id (a
    result in a module missing from ``MODULES`` would escape the contract)."""
    assert len(set(IDS)) == len(IDS), "duplicate ids in the catalogue"
    defined: dict[str, str] = {}
    for info in pkgutil.walk_packages(reference.results.__path__, "reference.results."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Result) and value.core.__module__ == info.name:
                defined[value.id] = info.name
    missing = sorted(set(defined) - set(IDS))
    assert not missing, f"results outside the contract: {[(r, defined[r]) for r in missing]}"
    assert set(IDS) <= set(defined), sorted(set(IDS) - set(defined))
    for test in (test_example_inputs_evaluate_and_enclose, test_bad_input_gives_domain_error,
                 test_valid_inputs_never_crash):
        marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
        listed = [p.values[0] if hasattr(p, "values") else p for p in marks[0].args[1]]
        assert marks and [r.id for r in listed] == IDS, test.__name__


def test_ids_follow_the_scheme() -> None:
    for r in RESULTS:
        prefix, sep, number = r.id.partition(":")
        assert sep and number and prefix in (
            "RSWR23", "WRWR22", "LEC11", "RRUV16", "CL23",
            "CKS20", "BW18", "KOV15", "BS16", "MIR17", "MV16", "MTZ19", "DPSGD",
        )
        assert r.status in ("stated", "corrected", "reconstructed")
        assert r.core.__doc__ and r.statement and r.title


def _example(res: Result[Any]) -> dict[str, str]:
    return {p.name: p.example for p in res.params}


def _numbers(out: Any) -> list[Any]:
    if isinstance(out, Certificate):
        return [out.value]
    if isinstance(out, tuple | list):
        return [x for item in out for x in _numbers(item)]
    return [out] if isinstance(out, mpmath.mpf | Interval) else []


def _check_point_in_enclosure(res: Result[Any], params: dict[str, Any]) -> None:
    point = res(**params)
    enc = res.certified(**params)
    if res.inverse is not None:
        assert isinstance(point, Certificate) and point.holds
        assert point.lo <= point.value <= point.hi
        return
    pts, encs = _numbers(point), _numbers(enc)
    assert len(pts) == len(encs)
    with mp.workdps(60):
        for x, e in zip(pts, encs, strict=True):
            assert not mpmath.isnan(x)
            if mpmath.isinf(x):
                assert e.lo == x or e.hi == x
                continue
            slack = mp.mpf(10) ** -35 * (1 + abs(x))
            assert e.lo - slack <= x <= e.hi + slack, (res.id, params, x, e)


@pytest.mark.parametrize("res", RESULTS, ids=IDS)
def test_example_inputs_evaluate_and_enclose(res: Result[Any]) -> None:
    _check_point_in_enclosure(res, _example(res))


@pytest.mark.parametrize("res", RESULTS, ids=IDS)
def test_bad_input_gives_domain_error(res: Result[Any]) -> None:
    base = _example(res)
    for p in res.params:
        for bad in invalid_values(p):
            with pytest.raises(DomainError) as info:
                res(**{**base, p.name: bad})
            msg = str(info.value)
            assert p.name in msg and res.id in msg, msg
    with pytest.raises(DomainError, match="not a parameter"):
        res(**{**base, "no_such_parameter": 1})
    required = [p for p in res.params if p.required]
    if required:
        args = {k: v for k, v in base.items() if k != required[0].name}
        with pytest.raises(DomainError, match="is required"):
            res(**args)


#: The DP-SGD accountants cost seconds per input (a PLD grid convolved thousands of times, or
#: an RDP minimisation over orders, each certified: 20 to 30 s per result for the full share
#: in the CI profile): the default run draws a quarter of the share for them
#: (:func:`test_costly_valid_inputs_never_crash`), the full share runs under ``-m slow``;
#: their own properties are in ``proofs_tests/dpsgd/``.
COSTLY = {r.id for r in RESULTS if r.id.startswith("DPSGD:")}


def _valid_input_check(res: Result[Any], data: st.DataObject) -> None:
    params = data.draw(valid_params(res))
    try:
        _check_point_in_enclosure(res, params)
    except DomainError as err:
        assert res.id in str(err)


@pytest.mark.parametrize("res", [pytest.param(r, marks=pytest.mark.slow) if r.id in COSTLY
                                 else r for r in RESULTS], ids=IDS)
@settings(max_examples=share(Fraction(5, 12)))
@given(data=st.data())
def test_valid_inputs_never_crash(res: Result[Any], data: st.DataObject) -> None:
    """Valid draws give a non-NaN value inside its certified enclosure, or a DomainError
    from a cross-parameter condition; never another exception."""
    _valid_input_check(res, data)


@pytest.mark.parametrize("res", [r for r in RESULTS if r.id in COSTLY],
                         ids=[r.id for r in RESULTS if r.id in COSTLY])
@settings(max_examples=share(Fraction(5, 48)))
@given(data=st.data())
def test_costly_valid_inputs_never_crash(res: Result[Any], data: st.DataObject) -> None:
    _valid_input_check(res, data)


def test_costly_results_exist() -> None:
    assert len(COSTLY) == 6 and COSTLY <= set(IDS)
    marks = [m for m in getattr(test_costly_valid_inputs_never_crash, "pytestmark", [])
             if m.name == "parametrize"]
    assert sorted(r.id for r in marks[0].args[1]) == sorted(COSTLY)
