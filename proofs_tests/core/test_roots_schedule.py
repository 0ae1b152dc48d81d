"""The roots mutants listed as "equivalent for the contract" keep the contract.

``reference/tools/mutation_equivalent/core.roots.toml`` lists survivors of the mutation
tester that change only the step schedule of ``core.roots.bracket`` (which points are
evaluated).  The claim is checked here, mutant by mutant: each one is planted in a copy of
the module, and on every known-root case of ``test_roots.py`` at 15, 50 and 200 digits
its enclosure must contain the root (python-flint arb), be at most 2^(10 - prec)
relatively wide, take at most 3 log2(bits) + 6 evaluations, and its mp point must lie
within 2^(10 - prec) of the root: the same assertions as for the module itself.  A
schedule entry whose mutant breaks any of them is not equivalent and fails here.
"""

from __future__ import annotations

import math
import tomllib
import types
from pathlib import Path
from typing import Any

import flint
import pytest
from mpmath import iv, mp

from proofs_tests.core.test_roots import CASES, _arb
from reference.core.numeric import endpoints, working
from reference.tools.mutation_report import EQUIVALENT_DIR
from reference.tools.mutation_sites import mutants, mutated_source

MODULE = "reference/core/roots.py"
SOURCE = (Path(__file__).parents[2] / MODULE).read_text()
SCHEDULE = [e for e in tomllib.loads((EQUIVALENT_DIR / "core.roots.toml").read_text())
            ["equivalent"] if e["reason"].startswith("Equivalent for the contract")]


def test_the_schedule_entries_are_there() -> None:
    """The list is not empty (a renamed file or reason would make the test below vacuous)."""
    assert len(SCHEDULE) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("entry", SCHEDULE, ids=lambda e: f"{e['line']}:{e['mutated']}")
def test_a_schedule_mutant_keeps_the_contract(entry: dict[str, Any]) -> None:
    found = [m for m in mutants(MODULE, SOURCE) if m.line == entry["line"]
             and m.original == entry["original"] and m.mutated == entry["mutated"]]
    assert len(found) == 1, entry
    module = types.ModuleType("roots_mutant")
    exec(compile(mutated_source(SOURCE, found[0]), "roots_mutant", "exec"), module.__dict__)
    old = flint.ctx.prec
    flint.ctx.prec = 1200
    try:
        for name, (h, lo, hi, root) in CASES.items():
            for dps in (15, 50, 200):
                calls = 0

                def counted(c: Any, x: Any, h: Any = h) -> Any:
                    nonlocal calls
                    calls += 1
                    return h(c, x)

                with working(iv, dps):
                    enc = endpoints(module.bracket(iv, counted, iv.mpf(lo), iv.mpf(hi)))
                    bits = iv.prec
                assert _arb(enc.lo) < root < _arb(enc.hi), (name, dps)
                width = abs(root) * flint.arb(2) ** (10 - bits) + flint.arb(2) ** (12 - 2 * bits)
                assert _arb(enc.hi) - _arb(enc.lo) < width, (name, dps)
                assert calls <= 3 * math.log2(bits) + 6, (name, dps, calls)
                with mp.workdps(dps):
                    point = module.bracket(mp, h, mp.mpf(lo), mp.mpf(hi))
                    bits = mp.prec
                assert abs(_arb(point) - root) < abs(root) * flint.arb(2) ** (10 - bits), name
    finally:
        flint.ctx.prec = old
