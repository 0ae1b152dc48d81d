"""Example counts that follow the active Hypothesis profile (see ``conftest.py``).

Slow properties run a share of the profile's ``max_examples`` instead of a fixed number, so
the ``dev`` (random) and ``thorough`` profiles reach them too: ``share(1/2)`` is 30 examples
under ``ci`` and ``dev`` (60) and 1000 under ``thorough`` (2000).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import settings


def share(fraction: Fraction) -> int:
    """``fraction`` of the active profile's ``max_examples``, at least 1."""
    return max(1, round(settings().max_examples * fraction))
