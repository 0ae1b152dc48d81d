"""Parameter specifications: the domain of every input of every registered result.

A :class:`Param` converts a user value exactly (see :func:`reference.core.numeric.exact`)
and checks it against its domain, raising :class:`DomainError` with the parameter,
the value, the condition and the result.  The same specifications drive the command
line, the generic bad-input test and the Hypothesis strategies of valid inputs.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

import mpmath

from reference.core.decide import below_inv_e
from reference.core.errors import DomainError
from reference.core.numeric import exact

Kind = Literal["real", "int", "seq", "intseq", "dist"]
REQUIRED = object()
#: Tolerance on the total mass of a finite distribution given in floating point.  Masses
#: whose exact total is within it of 1 but not 1 (``0.1, 0.9`` as doubles sum to
#: ``1 + 2**-55``) are read as the distribution they describe: each divided by that total,
#: so every result receives an exact probability vector.
MASS_TOLERANCE = Fraction(1, 2**40)


def is_plus_inf(x: object) -> bool:
    """True for +infinity given as a float, ``Decimal``, ``mpf`` or the string ``"inf"``."""
    if isinstance(x, str):
        return x.strip().lower().removeprefix("+") in ("inf", "infinity")
    if isinstance(x, bool | numbers.Integral | Fraction):
        return False
    if isinstance(x, Decimal):
        return x.is_infinite() and x > 0
    if isinstance(x, mpmath.mpf):
        return bool(x == mpmath.inf)
    if isinstance(x, numbers.Real):
        return float(x) == math.inf
    return False


def _fmt(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{float(q):g}"


#: A domain's end as ``(numerator, denominator, open)``, or None where there is none.
_End = tuple[int, int, bool] | None


@dataclass(frozen=True)
class Param:
    """One input of a result: name, kind, bounds, default and a valid example.

    ``allow_inf`` (kind ``"real"`` only) opts this one parameter in to ``+inf`` (a float,
    ``Decimal``, ``mpf`` or the string ``"inf"``), for a quantity defined there as a limit
    (the Rényi order ``alpha``); the converted value is then ``math.inf``.  Every other
    parameter refuses infinities.  ``exact_ends`` says the formula takes this input as an
    exact rational (``exact_inputs``) and keeps its distance from the domain's ends itself
    (``alpha - 1`` formed exactly, with its own guard bits): the evaluation then adds no
    near-end bits for it (:func:`near_end_bits`).
    """

    name: str
    kind: Kind
    lo: Fraction | None = None
    lo_open: bool = False
    hi: Fraction | None = None
    hi_open: bool = False
    default: object = REQUIRED
    example: str = "1"
    doc: str = ""
    min_len: int = 1
    allow_inf: bool = False
    exact_ends: bool = False

    @functools.cached_property
    def near_ends(self) -> tuple[tuple[int, int, int], ...]:
        """``(|numerator|, numerator, denominator)`` of each finite non-zero end, for
        :func:`near_end_bits` (none with ``exact_ends``)."""
        ends = () if self.exact_ends else (self.lo, self.hi)
        return tuple((abs(e.numerator), e.numerator, e.denominator) for e in ends if e)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def condition(self) -> str:
        """The domain as a phrase, e.g. ``must lie in (0, 1)``."""
        return self._finite_condition() + (" or inf" if self.allow_inf else "")

    def _finite_condition(self) -> str:
        if self.lo is not None and self.hi is not None:
            left = "(" if self.lo_open else "["
            right = ")" if self.hi_open else "]"
            return f"must lie in {left}{_fmt(self.lo)}, {_fmt(self.hi)}{right}"
        if self.lo is not None:
            return f"must be {'>' if self.lo_open else '>='} {_fmt(self.lo)}"
        if self.hi is not None:
            return f"must be {'<' if self.hi_open else '<='} {_fmt(self.hi)}"
        return "must be a finite real number"

    @functools.cached_property
    def _ends(self) -> tuple[_End, _End]:
        """``(numerator, denominator, open)`` of each end, for :meth:`_check_scalar`."""
        def one(end: Fraction | None, is_open: bool) -> _End:
            return None if end is None else (end.numerator, end.denominator, is_open)
        return one(self.lo, self.lo_open), one(self.hi, self.hi_open)

    def _check_scalar(self, q: Fraction, shown: object, where: str) -> None:
        """``q`` in the domain, compared in integers (``Fraction``'s comparisons cost a
        microsecond each, on every call of every result)."""
        n, d = q.numerator, q.denominator
        lo, hi = self._ends
        if lo is not None:
            side = n * lo[1] - lo[0] * d            # the sign of q - lo (denominators > 0)
            if side < 0 or (lo[2] and side == 0):
                raise DomainError(self.name, shown, self.condition(), where)
        if hi is not None:
            side = n * hi[1] - hi[0] * d
            if side > 0 or (hi[2] and side == 0):
                raise DomainError(self.name, shown, self.condition(), where)

    def _int(self, x: object, where: str) -> int:
        q = exact(x, self.name, where)
        if q.denominator != 1:
            raise DomainError(self.name, x, "must be an integer", where)
        self._check_scalar(q, x, where)
        return q.numerator

    def convert(self, x: object, where: str,
                ) -> Fraction | int | float | tuple[Fraction, ...] | tuple[int, ...]:
        """Exact, checked value of this parameter (``math.inf`` only with ``allow_inf``)."""
        if self.kind == "real" and self.allow_inf:
            if is_plus_inf(x):
                return math.inf
            try:
                q = exact(x, self.name, where)
            except DomainError:
                raise DomainError(self.name, x, self.condition(), where) from None
            self._check_scalar(q, x, where)
            return q
        if self.kind == "real":
            q = exact(x, self.name, where)
            self._check_scalar(q, x, where)
            return q
        if self.kind == "int":
            return self._int(x, where)
        items = _as_items(x, self.name, where)
        if len(items) < self.min_len:
            raise DomainError(self.name, x, f"must have at least {self.min_len} entries", where)
        if self.kind == "intseq":
            return tuple(self._int(v, where) for v in items)
        out: list[Fraction] = []
        for v in items:
            q = exact(v, self.name, where)
            self._check_scalar(q, v, where)
            out.append(q)
        if self.kind == "dist":     # the total in integers over a common denominator
            common = math.lcm(*(q.denominator for q in out))
            mass = sum(q.numerator * (common // q.denominator) for q in out)
            if mass != common:      # masses in floating point: the distribution they describe
                total = Fraction(mass, common)
                if abs(total - 1) > MASS_TOLERANCE:
                    raise DomainError(self.name, x, "must sum to 1 (a probability vector)",
                                      where)
                out = [q / total for q in out]
        return tuple(out)


def _as_items(x: object, name: str, where: str) -> list[object]:
    if isinstance(x, str):
        parts = [p for p in x.replace(";", ",").split(",")]
        if any(not p.strip() for p in parts):
            raise DomainError(name, x, "must be a comma-separated list of numbers", where)
        return list(parts)
    if isinstance(x, Sequence):
        return list(x)
    try:
        return list(iter(x))  # type: ignore[call-overload]  # numpy arrays, other iterables
    except TypeError:
        raise DomainError(name, x, "must be a sequence of numbers", where) from None


# ---- constructors for the domains that recur ------------------------------------------
_ZERO, _ONE = Fraction(0), Fraction(1)


def positive(name: str, example: str = "1", doc: str = "", default: object = REQUIRED) -> Param:
    """A real number > 0."""
    return Param(name, "real", lo=_ZERO, lo_open=True, example=example, doc=doc, default=default)


def nonneg(name: str, example: str = "1", doc: str = "", default: object = REQUIRED) -> Param:
    """A real number >= 0."""
    return Param(name, "real", lo=_ZERO, example=example, doc=doc, default=default)


def real(name: str, example: str = "0", doc: str = "", default: object = REQUIRED) -> Param:
    """Any finite real number."""
    return Param(name, "real", example=example, doc=doc, default=default)


def unit_open(name: str, example: str = "0.01", doc: str = "",
              default: object = REQUIRED) -> Param:
    """A real number in (0, 1)."""
    return Param(name, "real", lo=_ZERO, lo_open=True, hi=_ONE, hi_open=True,
                 example=example, doc=doc, default=default)


def unit_closed_open(name: str, example: str = "0", doc: str = "",
                     default: object = REQUIRED) -> Param:
    """A real number in [0, 1)."""
    return Param(name, "real", lo=_ZERO, hi=_ONE, hi_open=True, example=example, doc=doc,
                 default=default)


def count(name: str, example: str = "10", doc: str = "", hi: int | None = None,
          default: object = REQUIRED) -> Param:
    """An integer >= 1, optionally with a computational upper limit ``hi``."""
    return Param(name, "int", lo=_ONE, hi=None if hi is None else Fraction(hi),
                 example=example, doc=doc, default=default)


def nonneg_seq(name: str, example: str = "0.1,0.2", doc: str = "",
               default: object = REQUIRED) -> Param:
    """A non-empty sequence of reals >= 0."""
    return Param(name, "seq", lo=_ZERO, example=example, doc=doc, default=default,
                 min_len=1 if default is REQUIRED else 0)


def unit_seq(name: str, example: str = "0,0", doc: str = "", default: object = REQUIRED) -> Param:
    """A non-empty sequence of reals in [0, 1)."""
    return Param(name, "seq", lo=_ZERO, hi=_ONE, hi_open=True, example=example, doc=doc,
                 default=default, min_len=1 if default is REQUIRED else 0)


def distribution(name: str, example: str = "0.5,0.5", doc: str = "") -> Param:
    """A finite probability vector (entries in [0, 1], total mass 1)."""
    return Param(name, "dist", lo=_ZERO, hi=_ONE, example=example, doc=doc)


# ---- preconditions: conditions between parameters, checked on the exact values ----

def inv_e_precondition(name: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: parameter ``name`` must be < 1/e (decided exactly)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if not below_inv_e(values[name]):
            raise DomainError(name, float(values[name]), "must be < 1/e = 0.36788", where)
    return check


def all_of(*checks: Callable[[Mapping[str, Any], str], None] | None,
           ) -> Callable[[Mapping[str, Any], str], None]:
    """Several preconditions, checked in order."""
    def check(values: Mapping[str, Any], where: str) -> None:
        for c in checks:
            if c is not None:
                c(values, where)
    return check


def max_length(name: str, limit: int) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition bounding the length of sequence ``name`` (evaluation is linear in it)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if len(values[name]) > limit:
            raise DomainError(name, f"<{len(values[name])} entries>",
                              f"must have at most {limit} entries", where)
    return check


def ordered(small: str, large: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: parameter ``small`` must be <= parameter ``large``."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if values[small] > values[large]:
            raise DomainError(small, str(values[small]),
                              f"must be <= {large} = {values[large]}", where)
    return check


def nonzero(name: str, why: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: parameter ``name`` must not be 0 (``why`` says what is undefined)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        if values[name] == 0:
            raise DomainError(name, 0, f"must be nonzero ({why})", where)
    return check


def equal_lengths(*names: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: the sequences ``names`` have as many entries as the first."""
    def check(values: Mapping[str, Any], where: str) -> None:
        n = len(values[names[0]])
        for other in names[1:]:
            if len(values[other]) != n:
                raise DomainError(other, f"<{len(values[other])} entries>",
                                  f"must have as many entries as {names[0]} ({n})", where)
    return check


def non_increasing(name: str, why: str) -> Callable[[Mapping[str, Any], str], None]:
    """A precondition: sequence ``name`` is non-increasing (``why`` says where that comes from)."""
    def check(values: Mapping[str, Any], where: str) -> None:
        ts = values[name]
        if any(ts[i] > ts[i - 1] for i in range(1, len(ts))):
            raise DomainError(name, [str(x) for x in ts], f"must be non-increasing ({why})",
                              where)
    return check


def as_fraction(x: object, name: str, where: str, *, lo: Fraction | None = Fraction(0),
                hi: Fraction | None = None, hi_open: bool = False) -> Fraction:
    """Exact, range-checked conversion for the round-by-round objects."""
    q = exact(x, name, where)
    if lo is not None and q < lo:
        raise DomainError(name, x, f"must be >= {lo}", where)
    if hi is not None and (q > hi or (hi_open and q == hi)):
        raise DomainError(name, x, f"must be {'<' if hi_open else '<='} {hi}", where)
    return q


def near_end_bits(params: Sequence[Param], values: Mapping[str, Any]) -> int:
    """Extra bits of working precision for inputs next to a non-zero end of their domain:
    an input within ``2**-b`` (relative) of a finite non-zero end of its parameter's domain
    (``delta = 1 - 1e-300``) would round onto that end at the working precision and lose what
    separates it (``log(1/delta)`` would come out 0); the evaluation then runs with ``b`` more
    bits (at most ``MAX_NEAR_END_BITS``).  Zero ends and ``exact_ends`` parameters need
    nothing.  An input of magnitude ``2**b`` above ``2**HUGE_BITS`` gets ``b`` more bits
    too: ``e^x`` at ``x = 1e300`` is only known to relative ``x * 2**-prec``."""
    bits = 0
    for p in params:
        v = values.get(p.name)
        ends = p.near_ends
        for q in v if isinstance(v, tuple) else (v,):
            if not isinstance(q, Fraction):
                continue
            n, d = q.numerator, q.denominator
            size = abs(n).bit_length() - d.bit_length()
            if size > HUGE_BITS:  # e^q, or q - (q - 1), needs log2|q| more bits
                bits = max(bits, size)
            for top_n, end_n, end_d in ends:
                top = top_n * d                         # |end| / |q - end| > 256, first
                gap = abs(n * end_d - end_n * d)
                if gap and top > 256 * gap:             # in integers (10x faster)
                    ratio = Fraction(top, gap)
                    bits = max(bits, ratio.numerator.bit_length() - ratio.denominator.bit_length())
    return min(bits + 8, MAX_NEAR_END_BITS) if bits else 0


#: Magnitudes above ``2**HUGE_BITS`` raise the working precision by their bit length.
HUGE_BITS = 64
#: The most extra bits :func:`near_end_bits` adds: enough to separate from 1 every double
#: (``1 - 2**-1074``) and every decimal down to ``1 - 1e-1000``.
MAX_NEAR_END_BITS = 3400
