"""Expected numbers from the DP libraries' own test suites, mapped to our catalogue results.

The model (what a :class:`Case` records and how it is checked) is in
:mod:`proofs_tests.peers.peer_case`; the cases are in :mod:`proofs_tests.peers.expectations_dpa`
(dp-accounting) and :mod:`proofs_tests.peers.expectations_others` (OpenDP, diffprivlib,
prv-accountant).
"""

from __future__ import annotations

from proofs_tests.peers import expectations_dpa, expectations_others
from proofs_tests.peers.peer_case import Case

CASES: list[Case] = [*expectations_dpa.CASES, *expectations_others.CASES]

__all__ = ["CASES", "Case"]
