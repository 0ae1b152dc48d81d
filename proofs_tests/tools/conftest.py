"""The docs site, built once per test session for test_docs_site.py and test_browser.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from proofs_tests.tools.test_docs_site import DOCS, ROOT, build

#: Where ``mkdocs build -f docs/mkdocs.yml`` writes the site (its ``site_dir``).
SITE = ROOT / "build" / "site"


@pytest.fixture(scope="session")
def site() -> Path:
    """``mkdocs build --strict`` into build/site (tests that need it skip without mkdocs)."""
    start = time.monotonic()
    proc = build(DOCS, SITE)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stderr[-4000:]}"
    print(f"mkdocs build --strict: {time.monotonic() - start:.1f} s")
    return SITE
