"""The architecture of ``reference`` (docs/architecture.md), checked on the real code.

* the import-linter contracts of ``pyproject.toml``: the five layers ``core -> results ->
  oracle -> sim -> tools`` import only downwards, and neither ``core`` nor ``results``
  imports numpy or scipy (directly or through another module);
* the import graph of ``reference`` (grimp, which also sees imports inside functions) has
  no cycle;
* no module of ``reference`` is longer than 400 lines;
* the committed figure ``docs/figures/architecture.svg`` is what
  ``docs/make_architecture_figure.py`` draws from the import graph now.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400


def test_import_contracts_are_kept() -> None:
    # In a subprocess: in-process, import-linter's console output breaks once another test
    # has imported the conformance peers (their logging takes over sys.stderr).
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, "
            "no_logo=True))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 2 kept, 0 broken." in proc.stdout, proc.stdout


def _cycles(adj: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a self-import)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(adj[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in adj[v]:
                found.append(sorted(comp))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(adj) + 100))
    try:
        for m in sorted(adj):
            if m not in index:
                visit(m)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_import_graph_has_no_cycles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    graph = grimp.build_graph("reference", cache_dir=None)
    adj = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert len(adj) > 50
    assert _cycles(adj) == []


def test_no_module_is_too_long() -> None:
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in (ROOT / "reference").rglob("*.py")}
    assert sizes
    assert {p: n for p, n in sizes.items() if n > MAX_LINES} == {}


def test_architecture_figure_is_current(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    script = ROOT / "docs" / "make_architecture_figure.py"
    spec = importlib.util.spec_from_file_location("make_architecture_figure", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    drawn = module.render()
    assert "numpy / scipy" in drawn and 'stroke="#c00"' not in drawn   # no upward arrow
    assert module.OUT.read_text(encoding="utf-8") == drawn, (
        "docs/figures/architecture.svg is stale: run python docs/make_architecture_figure.py")
