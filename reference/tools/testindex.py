"""Which tests check which results: read from ``@covers("ID", ...)`` in the test folders.

The index is built by parsing the test files (no import), so ``python -m reference
catalog`` can list each result's tests, and a test can fail when a result has none.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

FOLDERS = {"property": "proofs_tests", "stats": "stats_tests"}


def repo_root() -> Path | None:
    """The checkout holding ``reference/`` and the test folders, if there is one."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / FOLDERS["property"]).is_dir() else None


def _covered_ids(node: ast.AST) -> list[str]:
    ids: list[str] = []
    for dec in getattr(node, "decorator_list", []):
        if isinstance(dec, ast.Call):
            name = dec.func.attr if isinstance(dec.func, ast.Attribute) else getattr(
                dec.func, "id", "")
            if name == "covers":
                ids += [a.value for a in dec.args
                        if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return ids


@lru_cache(maxsize=1)
def test_index() -> dict[str, dict[str, list[str]]]:
    """``{result id: {"property": [test names], "stats": [test names]}}``."""
    index: dict[str, dict[str, list[str]]] = {}
    root = repo_root()
    if root is None:
        return index
    for kind, folder in FOLDERS.items():
        for path in sorted((root / folder).glob("test_*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.ClassDef):
                    for rid in _covered_ids(node):
                        entry = index.setdefault(rid, {"property": [], "stats": []})
                        entry[kind].append(f"{folder}/{path.name}::{node.name}")
    return index
