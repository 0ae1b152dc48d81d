"""The entry points stay light: ``import reference`` and ``python -m reference value`` load
neither numpy nor scipy, and ``get`` finds every id through the generated module index.

Timings are not asserted here (``python -m reference bench`` reports them as ratios).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from proofs_tests.tools.test_docs_site import checkout_env
from reference.results import catalogue, get
from reference.results.index import DEFINED_IN
from reference.tools import catalogue_index

ROOT = Path(__file__).resolve().parent.parent
HEAVY = "sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy'))"


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True,
                          env=checkout_env(), check=True, timeout=120)


def test_import_reference_loads_no_numpy_or_scipy() -> None:
    out = _run("-c", f"import reference, sys; print({HEAVY})").stdout
    assert out.strip() == "[]"


def test_value_command_loads_no_numpy_or_scipy() -> None:
    # runpy runs reference.__main__ as the command does; the modules are listed at exit.
    code = ("import atexit, json, runpy, sys\n"
            f"atexit.register(lambda: print(json.dumps({HEAVY})))\n"
            "sys.argv = ['reference', 'value', 'RSWR23:Lem2.3', 'rho=1', 'delta=1e-6']\n"
            "runpy.run_module('reference', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=checkout_env())
    assert proc.returncode == 0, proc.stderr
    value, heavy = proc.stdout.strip().splitlines()
    assert value.startswith("8.43384437769967")
    assert json.loads(heavy) == []


def test_value_command_output() -> None:
    out = _run("-m", "reference", "value", "RSWR23:Lem2.3", "rho=1", "delta=1e-6").stdout
    assert out.startswith("8.43384437769967")


def test_module_index_is_current() -> None:
    expected = catalogue_index.render()
    assert catalogue_index.PATH.read_text(encoding="utf-8") == expected, (
        "reference/results/index.py is stale: run python -m reference.tools.catalogue_index")


def test_get_finds_every_id_through_the_index() -> None:
    assert set(DEFINED_IN) == {r.id for r in catalogue()}
    for res in catalogue():
        assert get(res.id) is res
    assert get("KOV:optimal") is get("KOV15:Thm3.3")
