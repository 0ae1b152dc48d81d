"""The memo tables results keep between calls, and one way to drop them all.

Some results keep what they computed for the next call (the DP-SGD PLD brackets, the Rényi
order a search found, the normal tails of ``MTZ19``'s series, the last few binomial sums of
``KOV15``): a repeated call with the same inputs is then fast, and a timing of repeated calls
says nothing about the first.  Each such table registers how to clear itself here, and
:func:`forget_all` clears every one: ``python -m reference bench --results`` calls it before
each timed call, so that every call is timed from scratch.  (Not registered: the cache of
parsed decimal strings and the loaded catalogue, which serve any call's input handling, not
one result's work.)
"""

from __future__ import annotations

from collections.abc import Callable

_CLEARS: list[Callable[[], None]] = []


def kept(clear: Callable[[], None]) -> None:
    """Register ``clear`` (a memo table's ``cache_clear``, say) with :func:`forget_all`."""
    _CLEARS.append(clear)


def forget_all() -> None:
    """Clear every registered memo table (of the modules loaded so far)."""
    for clear in _CLEARS:
        clear()
