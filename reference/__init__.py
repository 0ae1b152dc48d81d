"""A formally-checked reference implementation of differential-privacy accounting.

Each result of the source documents is a small typed function, registered in a
catalogue (:func:`catalogue`), evaluated at arbitrary precision with :mod:`mpmath`
(:func:`precision`), and certifiable in interval arithmetic (:func:`certified`).
"""

from __future__ import annotations

from typing import Any

from . import families as _families  # noqa: F401  (registers every result)
from .errors import DomainError
from .numeric import Interval, get_dps, precision
from .registry import Certificate, Result, catalogue, get


def certified(f: Result[Any] | str, *args: Any, **kwargs: Any) -> Any:
    """Evaluate a registered result in interval arithmetic: an enclosure of the exact value.

    ``f`` is a registered function or its catalogue id.

    >>> print(certified("RSWR23:Lem2.2", rho=1, sensitivity=1))
    [0.5, 0.5]
    """
    res = get(f) if isinstance(f, str) else f
    return res.certified(*args, **kwargs)


__all__ = ["Certificate", "DomainError", "Interval", "Result", "catalogue", "certified", "get",
           "get_dps", "precision"]
