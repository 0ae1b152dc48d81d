"""The tests ``conftest.FIRST`` moves to the front of a run exist under those names (a
renamed one would silently lose its place)."""

from __future__ import annotations

from pathlib import Path

from proofs_tests.conftest import FIRST

ROOT = Path(__file__).resolve().parent.parent


def test_first_tests_exist() -> None:
    for nodeid in FIRST:
        path, name = nodeid.split("::")
        text = (ROOT / path).read_text("utf-8")
        if path.endswith(".md"):
            assert name == Path(path).name and ">>> " in text, nodeid
        else:
            assert f"\ndef {name}(" in text, nodeid
