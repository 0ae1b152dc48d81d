"""Fixtures of the TCT tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from reference.results.tct import reconstructions


@pytest.fixture
def patch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, Any], None]]:
    """Replace a name the CL23 reconstruction checks use (undone after the test)."""
    def set_(name: str, value: Any) -> None:
        monkeypatch.setattr(reconstructions, name, value)
    yield set_
