"""Errors found in the source documents, each re-verified live by a counterexample.

An entry states what the source prints, what is implemented instead and why, and a
``check`` that recomputes the counterexample (or the inconsistency) from the library's
own exact routes each time ``python -m reference errata`` or the tests run. An erratum is
a value in the module of the result it corrects; the catalogue collects it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    """Outcome of re-verifying an erratum: ``confirmed`` iff the printed form fails."""

    confirmed: bool
    detail: str


@dataclass(frozen=True)
class Erratum:
    """One error or inconsistency of a source document."""

    id: str
    location: str
    printed: str
    corrected: str
    kind: str
    result: str | None
    check: Callable[[], Check]

    @property
    def module(self) -> str:
        return self.check.__module__

    def verify(self) -> Check:
        return self.check()


def erratum(eid: str, *, location: str, printed: str, corrected: str, kind: str = "error",
            result: str | None = None) -> Callable[[Callable[[], Check]], Erratum]:
    """Make ``check()`` (which recomputes the counterexample) the erratum ``eid``.

    ``kind`` is ``error`` (a false statement), ``typo`` (a slip with an obvious fix),
    ``inconsistency`` (two places disagree) or ``gap`` (an unstated condition).
    ``result`` is the catalogue id of the implemented (corrected) result, if any.
    """

    def wrap(check: Callable[[], Check]) -> Erratum:
        return Erratum(eid, location, printed, corrected, kind, result, check)

    return wrap
