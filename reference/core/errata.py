"""Errors found in the source documents, each re-verified live by a counterexample.

An entry states what the source prints, what is implemented instead and why, what goes
wrong for someone who uses the printed form (its ``consequence``), and a ``check`` that
recomputes the counterexample (or the inconsistency) from the library's own exact routes
each time ``python -m reference errata`` or the tests run. An erratum is a value in the
module of the result it corrects; the catalogue collects it.

Every erratum has one :class:`Kind`; the kinds are ordered by severity, most serious first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """What an erratum is, most serious first (the order of the members).

    The value (``false-as-stated``, ...) is what ``python -m reference errata --json``
    prints as ``kind``; :attr:`label` is the reader-facing name.

    >>> [k.value for k in Kind][:2]
    ['false-as-stated', 'wrong-constant']
    >>> Kind.TYPO.label, Kind.TYPO.severity
    ('typo', 6)
    """

    #: The printed result or numeric claim is false: a counterexample refutes it, and a
    #: guarantee used as printed fails.
    FALSE_AS_STATED = "false-as-stated"
    #: The form is right but a constant or term is wrong; the printed value is loose, or off
    #: by the constant where no guarantee of the source relies on it.
    WRONG_CONSTANT = "wrong-constant"
    #: A step of a proof (or of a remark's argument) is false; the result it supports holds.
    FALSE_PROOF_STEP = "false-proof-step"
    #: An unstated condition, an undefined symbol, or two places of the source disagree.
    AMBIGUITY = "ambiguity"
    #: The formula is lost from the source and this project could not recover it with
    #: certainty; the entry records the form implemented and why.
    OPEN_QUESTION = "open-question"
    #: The formula is lost from the source; this project recovered it and verifies it
    #: numerically (against an exact oracle where one exists).
    RECONSTRUCTED = "reconstructed"
    #: An obvious slip; the intended statement is clear from the context.
    TYPO = "typo"

    @property
    def label(self) -> str:
        """Reader-facing name, e.g. ``false as stated``."""
        return self.value.replace("-", " ")

    @property
    def severity(self) -> int:
        """0 for the most serious kind."""
        return list(Kind).index(self)

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]

    def counted(self, n: int) -> str:
        """``n`` entries of this kind in words: ``1 typo``, ``2 typos``, ``3 false as stated``.

        >>> Kind.AMBIGUITY.counted(2), Kind.FALSE_AS_STATED.counted(2)
        ('2 ambiguities', '2 false as stated')
        """
        return f"{n} {self.label if n == 1 else _PLURALS.get(self, self.label)}"


_PLURALS = {Kind.WRONG_CONSTANT: "wrong constants", Kind.FALSE_PROOF_STEP: "false proof steps",
            Kind.AMBIGUITY: "ambiguities", Kind.OPEN_QUESTION: "open questions",
            Kind.TYPO: "typos"}

_DESCRIPTIONS = {
    Kind.FALSE_AS_STATED: "the printed result or numeric claim is false: a counterexample "
                          "refutes it, and a guarantee used as printed fails",
    Kind.WRONG_CONSTANT: "the form is right but a constant or term is wrong; the printed value "
                         "is loose, or off by the constant where no guarantee relies on it",
    Kind.FALSE_PROOF_STEP: "a step of a proof or of a remark's argument is false; the result it "
                           "supports holds",
    Kind.AMBIGUITY: "an unstated condition, an undefined symbol, or two places of the source "
                    "that disagree",
    Kind.OPEN_QUESTION: "the formula is lost from the source and could not be recovered with "
                        "certainty; the entry records the form implemented and why",
    Kind.RECONSTRUCTED: "the formula is lost from the source; this project recovered it and "
                        "verifies it numerically",
    Kind.TYPO: "an obvious slip; the intended statement is clear from the context",
}


@dataclass(frozen=True)
class Check:
    """Outcome of re-verifying an erratum: ``confirmed`` iff the printed form fails."""

    confirmed: bool
    detail: str


@dataclass(frozen=True)
class Erratum:
    """One error, inconsistency or lost formula of a source document."""

    id: str
    location: str
    printed: str
    corrected: str
    kind: Kind
    consequence: str
    result: str | None
    check: Callable[[], Check]

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise TypeError(f"erratum {self.id}: kind must be a Kind, not {self.kind!r}")
        if not self.consequence.strip() or "\n" in self.consequence:
            raise ValueError(f"erratum {self.id}: consequence must be one non-empty line")

    @property
    def module(self) -> str:
        return self.check.__module__

    def verify(self) -> Check:
        return self.check()


def erratum(eid: str, *, location: str, printed: str, corrected: str, kind: Kind,
            consequence: str, result: str | None = None
            ) -> Callable[[Callable[[], Check]], Erratum]:
    """Make ``check()`` (which recomputes the counterexample) the erratum ``eid``.

    ``kind`` is a :class:`Kind`; ``consequence`` is one line saying what goes wrong for
    someone who uses the printed form (``none: ...`` when nothing does). ``result`` is the
    catalogue id of the implemented (corrected) result, if any.
    """

    def wrap(check: Callable[[], Check]) -> Erratum:
        return Erratum(eid, location, printed, corrected, kind, consequence, result, check)

    return wrap


def by_kind(errata: list[Erratum]) -> dict[Kind, list[Erratum]]:
    """``errata`` grouped by kind, most serious kind first, ids sorted within a kind; every
    kind is a key (possibly with an empty list)."""
    groups: dict[Kind, list[Erratum]] = {k: [] for k in Kind}
    for e in sorted(errata, key=lambda e: e.id):
        groups[e.kind].append(e)
    return groups


def in_severity_order(errata: list[Erratum]) -> list[Erratum]:
    """``errata`` with the most serious kind first, by id within a kind."""
    return [e for es in by_kind(errata).values() for e in es]


def kind_counts(errata: list[Erratum]) -> str:
    """``43 entries: 6 false as stated, ...`` (kinds without entries left out)."""
    parts = [k.counted(len(es)) for k, es in by_kind(errata).items() if es]
    return f"{len(errata)} entries: " + ", ".join(parts)
