"""Every core test leaves the precisions as it found them (``iv``, ``mp`` and Arb's global
one): tests set them to draw their cases, and a precision leaking into the next test would
make its outcome depend on the order."""

from __future__ import annotations

from collections.abc import Iterator

import flint
import pytest
from mpmath import iv, mp


@pytest.fixture(autouse=True)
def _restore_precisions() -> Iterator[None]:
    old = iv.prec, mp.prec, flint.ctx.prec
    yield
    iv.prec, mp.prec, flint.ctx.prec = old
