"""The docs site, built once per test run for test_docs_site.py and test_browser.py (under
``pytest -n`` the first worker that needs it builds it, the others wait for that build)."""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from pathlib import Path

import pytest

from proofs_tests.tools.test_docs_site import DOCS, build


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` into a directory of this run's own (tests that need it skip
    without mkdocs).  Under ``pytest -n`` the workers' temporary directories share a parent:
    the build goes there, under a file lock, and is marked done only when it succeeded, so a
    worker never serves a half-built or cleaned site and the two-minute build runs once, not
    once per worker.  Nothing deletes it during the run (pytest removes old runs' roots)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out, done = shared / "docs-site", shared / "docs-site.done"
    with open(shared / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)      # a failed build of another worker
                start = time.monotonic()
                proc = build(DOCS, out)
                assert proc.returncode == 0, (
                    f"mkdocs build --strict failed:\n{proc.stderr[-4000:]}")
                done.write_text(f"{time.monotonic() - start:.1f} s\n")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out
