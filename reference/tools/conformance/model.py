"""Types of the conformance harness: settings, theorems, claims, cases and outcomes.

Two notions are kept apart on purpose:

* a :class:`CompositionTheorem` bounds the privacy of k mechanisms whose privacy
  parameters are fixed before the first one runs (the mechanisms themselves may be
  chosen adaptively);
* a :class:`FilterTheorem` is a stopping rule that stays valid when every round's
  parameters are chosen adaptively from the past (RRUV16 Def. 3.1, WRRW23).

Which one a case needs is its :class:`Adaptivity`, modelled on OpenDP's
``Adaptivity {NonAdaptive, Adaptive, FullyAdaptive}`` (``combinators/sequential_composition``):
a theorem covers a setting when its own adaptivity is at least the setting's.

>>> kov = CompositionTheorem("KOV15 Thm 3.5")
>>> kov.covers(Adaptivity.ADAPTIVE), kov.covers(Adaptivity.FULLY_ADAPTIVE)
(True, False)
>>> FilterTheorem("RRUV16 Thm 5.1").covers(Adaptivity.FULLY_ADAPTIVE)
True
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reference.core.numeric import Interval


class Adaptivity(enum.Enum):
    """How much of a sequence of mechanisms may depend on earlier outputs (OpenDP's enum)."""

    NON_ADAPTIVE = "NonAdaptive"      # mechanisms and their parameters fixed in advance
    ADAPTIVE = "Adaptive"             # mechanisms chosen adaptively, parameters fixed in advance
    FULLY_ADAPTIVE = "FullyAdaptive"  # the privacy parameters chosen adaptively too

    @property
    def rank(self) -> int:
        return list(Adaptivity).index(self)


@dataclass(frozen=True)
class CompositionTheorem:
    """A bound for privacy parameters fixed in advance (at most ``Adaptive``)."""

    name: str
    adaptivity: Adaptivity = Adaptivity.ADAPTIVE

    def __post_init__(self) -> None:
        if self.adaptivity is Adaptivity.FULLY_ADAPTIVE:
            raise ValueError("a composition theorem does not cover adaptively chosen "
                             "parameters: use FilterTheorem")

    @property
    def kind(self) -> str:
        return "composition theorem"

    def covers(self, setting: Adaptivity) -> bool:
        return setting.rank <= self.adaptivity.rank


@dataclass(frozen=True)
class FilterTheorem:
    """A stopping rule valid for adaptively chosen parameters (``FullyAdaptive``)."""

    name: str

    @property
    def adaptivity(self) -> Adaptivity:
        return Adaptivity.FULLY_ADAPTIVE

    @property
    def kind(self) -> str:
        return "filter theorem"

    def covers(self, setting: Adaptivity) -> bool:
        return True


Theorem = CompositionTheorem | FilterTheorem


class Grade(enum.Enum):
    """How the report presents one library call on one case.

    ``sound`` and ``UNSOUND`` are :class:`reference.core.decide.Verdict` ``holds`` and
    ``violated`` of the library's claim "the true value is at most my number" (against the
    proven-valid bound and the true value's floor); the other grades say why there is no
    such verdict.
    """

    SOUND = "sound"                # value >= certified upper end of the best valid value
    UNSOUND = "UNSOUND"            # value < certified lower end of the true value
    UNDECIDED = "undecided"        # between the two (or not covered by a theorem)
    ERROR = "error"                # exception, NaN, infinity
    NO_REFERENCE = "no-reference"  # the reference result is not registered (yet)
    SKIPPED = "skipped"            # library not installed / not importable

    def __str__(self) -> str:
        return self.value


class Measure(enum.Enum):
    """What a library's number is."""

    UPPER = "upper bound"          # an epsilon (or boundary) the library guarantees
    COUNT = "admitted spends"      # a filter: how many rounds it lets through


@dataclass(frozen=True)
class Reference:
    """Certified enclosures a library value is judged against.

    ``valid`` encloses the best value we can prove valid (a library value at or above
    ``valid.hi`` is sound); ``floor`` encloses a proven lower limit of the true value (a
    value below ``floor.lo`` is unsound).  For an exact reference both are the same
    enclosure.  ``slack`` (relative) widens both, for inputs the library re-derives in
    floating point before using them (documented per case).  ``bracket``: ``valid`` is a
    certified bracket ``[lo, hi]`` of the true value (not a point), so a value's excess is
    measured from ``hi``, the least value proven valid; ``loose`` replaces the report's
    default looseness threshold for this reference (relative excess).
    """

    valid: Interval | None
    floor: Interval | None
    valid_id: str | None
    floor_id: str | None
    slack: float = 0.0
    note: str = ""
    bracket: bool = False
    loose: float | None = None

    @property
    def exact(self) -> bool:
        return self.valid_id is not None and self.valid_id == self.floor_id


@dataclass(frozen=True)
class FilterReference:
    """Spend counts a filter is judged against, for rounds of equal epsilon.

    ``proven`` is the largest count a proven filter theorem admits (``proven_id`` names
    it); ``fixed`` the largest count admissible when the parameters are fixed in advance
    (exact optimal composition): no filter may admit more.
    """

    proven: int
    proven_id: str
    fixed: int
    fixed_id: str
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    """One point of the shared grid: a capability, its inputs, the setting it needs."""

    capability: str
    label: str
    params: Mapping[str, Any]
    setting: Adaptivity
    reference: Callable[[], Reference | FilterReference]
    note: str = ""

    @property
    def id(self) -> str:
        return f"{self.capability}/{self.label}"


@dataclass(frozen=True)
class Formula:
    """The registered result a library says it implements, and its inputs for a case
    (``None``: not checked on this case, e.g. too slow)."""

    id: str
    params: Callable[[Mapping[str, Any]], dict[str, Any] | None]
    output: str | None = None


@dataclass(frozen=True)
class Method:
    """One library entry point for one capability."""

    capability: str
    api: str
    call: Callable[[Mapping[str, Any]], float | int]
    theorem: Theorem
    measure: Measure = Measure.UPPER
    implements: str = ""   # the formula it implements, in words (and an id when we have one)
    applies: Callable[[Mapping[str, Any]], bool] | None = None
    formula: Formula | None = None
    short: str = ""        # a column name in a pivot table (the DP-SGD table)


@dataclass(frozen=True)
class Outcome:
    """The verdict on one (library, method, case)."""

    library: str
    version: str
    capability: str
    case: str
    api: str
    verdict: Grade
    value: float | int | None = None
    reference: str = ""          # the enclosure(s) used, as text
    reference_ids: tuple[str, ...] = ()
    tight_to: float | None = None  # relative excess over the best valid value
    detail: str = ""
    theorem: str = ""
    seconds: float = 0.0
    formula: str = ""            # the value against the formula it implements, as text
    measure: Measure = Measure.UPPER  # what the value is (an upper bound, or a count)
    loose: float | None = None   # the looseness threshold of its reference (None: default)
    short: str = ""              # the method's column name in a pivot table
    ref_seconds: float = 0.0     # time to compute the reference (0 when cached)
