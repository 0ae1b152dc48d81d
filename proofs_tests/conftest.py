"""Hypothesis profiles: ``ci`` (deterministic, bounded; used when CI is set), ``dev``, ``thorough``.

Choose one with ``HYPOTHESIS_PROFILE=thorough pytest ...``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: The longest tests of the default run (a minute or more each, in subprocesses: the landing
#: page runs the README's audit and the conformance check, the deployments page audits its
#: claims again): run first, so that under ``pytest -n`` each starts a worker's queue instead
#: of keeping one worker busy alone at the end.
FIRST = ("proofs_tests/tools/test_landing_page.py::test_landing_page_examples_run",
         "docs/deployments.md::deployments.md")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests of :data:`FIRST` to the front, in that order (the rest keep theirs)."""
    items.sort(key=lambda item: FIRST.index(item.nodeid) if item.nodeid in FIRST
               else len(FIRST))
