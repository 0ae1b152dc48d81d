"""A formally-checked reference implementation of differential-privacy accounting.

Each result of the source papers is a small typed function in :mod:`reference.results`,
collected in a catalogue (:func:`catalogue`, :func:`get`), evaluated at arbitrary
precision with :mod:`mpmath` (:func:`precision`), and certifiable in interval arithmetic
(:func:`certified`). The layers, each importing only the ones before it:
:mod:`reference.core` -> :mod:`reference.results` -> :mod:`reference.oracle` ->
:mod:`reference.sim` -> :mod:`reference.tools`.
"""

from __future__ import annotations

from typing import Any

from reference.core.certificates import Certificate
from reference.core.errors import DomainError
from reference.core.model import Result
from reference.core.numeric import Interval, get_dps, precision
from reference.results import catalogue, errata, get


def certified(f: Result[Any] | str, *args: Any, **kwargs: Any) -> Any:
    """Evaluate a result in interval arithmetic: an enclosure of the exact value.

    ``f`` is a result or its catalogue id.

    >>> print(certified("RSWR23:Lem2.2", rho=1, sensitivity=1))
    [0.5, 0.5]
    """
    res = get(f) if isinstance(f, str) else f
    return res.certified(*args, **kwargs)


__all__ = ["Certificate", "DomainError", "Interval", "Result", "catalogue", "certified",
           "errata", "get", "get_dps", "precision"]
