"""The docs site, built once per test run for the tests that use it (test_docs_site.py,
test_docs_links.py, test_browser.py).  Under ``pytest -n`` the build starts in the background
as soon as the workers have collected (the first worker to get there starts it), so the
two-minute build overlaps the other tests instead of holding a worker that needs the site
while another waits for it."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from proofs_tests.tools.test_docs_site import DOCS, ROOT, build, checkout_env


def build_once(shared: Path) -> Path:
    """``mkdocs build --strict`` into ``shared/docs-site`` unless a build there already
    succeeded: under a file lock, marked done only when it succeeded, so no one is served a
    half-built or failed site (a failed build is retried, and its error raised, by the next
    caller).  Nothing deletes it during the run (pytest removes old runs' roots)."""
    out, done = shared / "docs-site", shared / "docs-site.done"
    with open(shared / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)      # a failed build before
                start = time.monotonic()
                proc = build(DOCS, out)
                assert proc.returncode == 0, (
                    f"mkdocs build --strict failed:\n{proc.stderr[-4000:]}")
                done.write_text(f"{time.monotonic() - start:.1f} s\n")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


def _shared(factory: pytest.TempPathFactory) -> Path:
    """This run's directory for the site: under ``pytest -n`` the parent the workers'
    temporary directories share."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``pytest -n``, if tests that use the site were collected, start
    :func:`build_once` in a background process (once per run)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if not any("site" in getattr(item, "fixturenames", ()) for item in session.items):
        return
    shared = _shared(session.config._tmp_path_factory)  # type: ignore[attr-defined]
    try:
        os.close(os.open(shared / "docs-site.started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:  # another worker started it
        return
    with open(shared / "docs-site.log", "w") as log:
        subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; from "
                          "proofs_tests.tools.conftest import build_once; "
                          "build_once(Path(sys.argv[1]))", str(shared)],
                         cwd=ROOT, env=checkout_env(), stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The strict build of this run (tests that need it skip without mkdocs): the one the
    background process made or is making (the lock waits for it), else built here."""
    return build_once(_shared(tmp_path_factory))
