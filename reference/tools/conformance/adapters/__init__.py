"""One small adapter per library; each imports its library lazily (see ``base``).

>>> [a.name for a in ADAPTERS]
['dp-accounting', 'opendp', 'autodp', 'prv-accountant', 'confseq', 'diffprivlib', 'opacus']
"""

from __future__ import annotations

from reference.tools.conformance.adapters.autodp import AutoDP
from reference.tools.conformance.adapters.base import Adapter
from reference.tools.conformance.adapters.confseq import ConfSeq
from reference.tools.conformance.adapters.diffprivlib import DiffPrivLib
from reference.tools.conformance.adapters.dp_accounting import DpAccounting
from reference.tools.conformance.adapters.opacus import Opacus
from reference.tools.conformance.adapters.opendp import OpenDP
from reference.tools.conformance.adapters.prv_accountant import PrvAccountant

ADAPTERS: list[Adapter] = [DpAccounting(), OpenDP(), AutoDP(), PrvAccountant(), ConfSeq(),
                           DiffPrivLib(), Opacus()]


def by_name(name: str) -> Adapter:
    """The adapter called ``name`` (case-insensitive; ``_`` and ``-`` alike)."""
    key = name.lower().replace("_", "-")
    for adapter in ADAPTERS:
        if adapter.name == key or adapter.dist == key:
            return adapter
    raise KeyError(f"no adapter {name!r} (known: {', '.join(a.name for a in ADAPTERS)})")


__all__ = ["ADAPTERS", "Adapter", "by_name"]
