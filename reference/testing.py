"""Pytest assertions against certified enclosures: :mod:`reference.oracle.testing`.

This path is kept for other projects' test suites; the code lives in the oracle layer.
"""

from reference.oracle.testing import *  # noqa: F403
from reference.oracle.testing import __all__  # noqa: F401
