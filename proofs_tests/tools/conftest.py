"""The docs site, built once per test session (per worker under ``pytest -n``) for
test_docs_site.py and test_browser.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from proofs_tests.tools.test_docs_site import DOCS, build


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` into a directory of this session's own (tests that need it
    skip without mkdocs): under ``pytest -n`` each worker builds its copy, and a shared
    build/site would be cleaned by one worker while another serves it."""
    out = tmp_path_factory.mktemp("site")
    start = time.monotonic()
    proc = build(DOCS, out)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stderr[-4000:]}"
    print(f"mkdocs build --strict: {time.monotonic() - start:.1f} s")
    return out
