"""How bad a graded value is: one ordered scale for the report's table and findings.

A :class:`~reference.tools.conformance.model.Grade` says what was proven about one value
(sound, UNSOUND, undecided, ...); its :class:`Severity` adds how far off the value is, so
that a 28 % under-reported epsilon and a shortfall of a few ulps are not shown alike.
Severity is derived from the grade and its numbers only (``tight_to`` and the measure),
never stored on its own.

From worst to best:

* ``unsound``: UNSOUND by more than :data:`ROUNDING` relative (an epsilon below the
  certified lower end of the true value), or a filter admitting more rounds than even
  parameters fixed in advance allow (a whole round: never rounding);
* ``unsound within rounding``: UNSOUND by at most :data:`ROUNDING` relative;
* ``error``: an exception, NaN or an infinity;
* ``loose``: sound, and more than :data:`LOOSE` relative above the best proven-valid value
  (for a filter: it admits fewer than ``1 - LOOSE`` of the rounds of the best proven
  filter);
* ``tight``: sound within :data:`LOOSE`;

and the non-findings ``undecided`` (neither proven; also: no registered reference, and a
filter admitting more rounds than any proven filter while a fixed-parameter composition
theorem would allow them), ``skipped`` (library not installed) and ``no case``.

>>> o = Outcome("lib", "1", "demo", "c", "api", Grade.UNSOUND, value=1.0, tight_to=-1e-16)
>>> severity(o).value
'unsound within rounding'
>>> worst([Severity.TIGHT, Severity.ERROR, Severity.LOOSE]).value
'error'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from reference.tools.conformance.model import Grade, Measure, Outcome

#: An UNSOUND value short of the true value's floor by at most this (relative) is a
#: floating-point rounding difference, not an under-reported epsilon.
ROUNDING = 1e-12

#: A sound value more than this (relative) above the best proven-valid value is loose;
#: for a filter, leaving more than this fraction of the proven filter's rounds unused.
LOOSE = 0.01

#: DP-SGD: a sound epsilon more than this (relative) above the upper end of the certified
#: bracket of the exact epsilon is loose.  The bracket is itself about 1% wide, and the
#: numerical accountants that track the privacy-loss distribution (PLD, PRV) land within
#: about 2% of it, while the RDP route's theorem alone costs 5-20% at these settings:
#: 5% separates an accountant that computes the exact curve from one that bounds it.
DPSGD_LOOSE = 0.05


class Severity(enum.Enum):
    """The scale, declared from worst to best (:attr:`rank` 0 is the worst)."""

    UNSOUND = "unsound"
    UNSOUND_ROUNDING = "unsound within rounding"
    ERROR = "error"
    LOOSE = "loose"
    TIGHT = "tight"
    UNDECIDED = "undecided"
    SKIPPED = "skipped"
    NO_CASE = "no case"

    @property
    def rank(self) -> int:
        return list(Severity).index(self)

    @property
    def finding(self) -> bool:
        """Whether the level says something is wrong (the first three) or could be better."""
        return self.rank <= Severity.LOOSE.rank

    def __str__(self) -> str:
        return self.value


#: One sentence per level, for the report's legend.
MEANING: dict[Severity, str] = {
    Severity.UNSOUND: (f"below the certified lower end of the true value by more than "
                       f"{ROUNDING:g} relative (an under-reported epsilon), or a filter "
                       f"admitting more rounds than even parameters fixed in advance allow"),
    Severity.UNSOUND_ROUNDING: (f"below the certified lower end of the true value by at most "
                                f"{ROUNDING:g} relative: a floating-point rounding difference"),
    Severity.ERROR: "an exception, NaN or an infinity",
    Severity.LOOSE: (f"sound, but more than {LOOSE:.0%} above the best value we can prove "
                     f"valid (a filter: using fewer than {1 - LOOSE:.0%} of the rounds of "
                     f"the best proven filter; DP-SGD: more than {DPSGD_LOOSE:.0%} above the "
                     f"upper end of the exact epsilon's bracket)"),
    Severity.TIGHT: f"sound, and within {LOOSE:.0%} of the best value we can prove valid",
    Severity.UNDECIDED: ("neither proven sound nor proven unsound (or no registered "
                         "reference)"),
    Severity.SKIPPED: "the library is not installed or does not import",
    Severity.NO_CASE: "the library has no entry point for this capability",
}


def severity(o: Outcome) -> Severity:
    """The level of one graded value (see the module docstring for the definitions)."""
    if o.verdict is Grade.ERROR:
        return Severity.ERROR
    if o.verdict is Grade.SKIPPED:
        return Severity.SKIPPED
    if o.verdict in (Grade.UNDECIDED, Grade.NO_REFERENCE):
        return Severity.UNDECIDED
    if o.verdict is Grade.UNSOUND:
        # a filter's count is an integer past the fixed-parameter optimum: never rounding;
        # for an epsilon, tight_to is the (negative) shortfall below the true value's floor
        if o.measure is Measure.COUNT or o.tight_to is None or -o.tight_to > ROUNDING:
            return Severity.UNSOUND
        return Severity.UNSOUND_ROUNDING
    # sound: tight_to is the relative excess over the best valid value (for a filter,
    # the fraction of the proven filter's rounds left unused); unknown counts as loose
    if o.tight_to is None or o.tight_to > (LOOSE if o.loose is None else o.loose):
        return Severity.LOOSE
    return Severity.TIGHT


def worst(levels: Iterable[Severity]) -> Severity:
    """The worst of ``levels`` (``no case`` when there are none)."""
    return min(levels, key=lambda s: s.rank, default=Severity.NO_CASE)
