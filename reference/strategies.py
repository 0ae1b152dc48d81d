"""Hypothesis strategies for valid DP parameters: :mod:`reference.oracle.strategies`.

This path is kept for other projects' test suites; the code lives in the oracle layer.
"""

from reference.oracle.strategies import *  # noqa: F403
from reference.oracle.strategies import __all__  # noqa: F401
