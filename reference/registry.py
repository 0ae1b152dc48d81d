"""The catalogue: every implemented result, registered with its source and its tests.

``@result(...)`` turns a formula written once over an mpmath context,
``core(ctx, **params)``, into a :class:`Result`:

* ``R(**params)`` converts and checks the inputs exactly, evaluates with ``mp`` at the
  working precision and returns ``mpf`` (or a named tuple of them);
* ``R.certified(**params)`` evaluates the *same code* with ``mpmath.iv`` and returns an
  :class:`~reference.numeric.Interval` enclosing the exact value.

``@inverse(...)`` registers an inverse of a monotone result (a budget from a target
epsilon, ...): calling it returns a :class:`Certificate` whose forward evaluation, in
interval arithmetic, proves the defining inequality.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

import mpmath
from mpmath import iv, mp

from .errors import DomainError
from .numeric import MPF, Ctx, Interval, endpoints, exact, to_ctx, working
from .params import Param

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

ResultKind = Literal["bound", "conversion", "composition", "filter", "odometer", "mechanism",
                     "guarantee", "definition"]
Status = Literal["stated", "corrected", "reconstructed"]

#: Id prefixes and the documents they name (``../shared/seeds`` numbering).
SOURCES: dict[str, str] = {
    "RSWR23": "000 — Rogers, Samorodnitsky, Wu, Ramdas: Adaptive privacy composition for "
              "accuracy-first mechanisms (2023)",
    "WRWR22": "001 — Whitehouse, Ramdas, Wu, Rogers: Brownian noise reduction (2022)",
    "LEC11": "002 — Lecture 11: Advanced composition (lecture notes)",
    "RRUV16": "003 — Rogers, Roth, Ullman, Vadhan: Privacy odometers and filters (2016)",
    "CL23": "004 — Cohen, Lyu: The target-charging technique (2023)",
    "KOV": "external — Kairouz, Oh, Viswanath: The composition theorem for differential "
           "privacy (ICML 2015), cited by RSWR23 Thm 1 and RRUV16 Thm 2.7",
    "CKS20": "external — Canonne, Kamath, Steinke: The discrete Gaussian for "
             "differential privacy (NeurIPS 2020; arXiv 2004.00010), §2.3",
    "BW18": "external — Balle, Wang: Improving the Gaussian mechanism for "
            "differential privacy (ICML 2018), Theorem 8",
    "KOV15": "external — Kairouz, Oh, Viswanath: The composition theorem for "
             "differential privacy (ICML 2015), Theorems 3.3 and 3.5",
    "BS16": "external — Bun, Steinke: Concentrated differential privacy: "
            "simplifications, extensions, and lower bounds (TCC 2016; arXiv "
            "1605.02065)",
    "MIR17": "external — Mironov: Rényi differential privacy (CSF 2017), "
             "randomized response",
    "MV16": "external — Murtagh, Vadhan: The complexity of computing the "
            "optimal composition of differential privacy (TCC 2016; ToC 2018)",
}

_CATALOGUE: dict[str, Result[Any]] = {}


def _check_finite(out: object, rid: str) -> None:
    if isinstance(out, tuple | list):
        for item in out:
            _check_finite(item, rid)
    elif isinstance(out, mpmath.mpf) and mpmath.isnan(out):
        raise RuntimeError(f"internal error: {rid} produced NaN")
    elif isinstance(out, iv.mpf) and (mpmath.isnan(endpoints(out).lo)
                                      or mpmath.isnan(endpoints(out).hi)):
        raise RuntimeError(f"internal error: {rid} produced NaN")


def map_numbers(fn: Callable[[Any], Any], out: Any) -> Any:
    """Apply ``fn`` to every mpmath number inside a (named) tuple structure."""
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*(map_numbers(fn, v) for v in out))
    if isinstance(out, tuple | list):
        return type(out)(map_numbers(fn, v) for v in out)
    if isinstance(out, mpmath.mpf | iv.mpf):
        return fn(out)
    return out


@dataclass
class Result(Generic[R]):
    """A registered result: its metadata and the formula, generic over the context."""

    id: str
    title: str
    kind: ResultKind
    statement: str
    params: tuple[Param, ...]
    core: Callable[..., R]
    status: Status = "stated"
    probabilistic: bool = False
    precondition: Callable[[Mapping[str, Any], str], None] | None = None
    notes: str = ""
    output: str = "value"

    @property
    def source(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def where(self) -> str:
        return f"{self.id} ({self.title})"

    @property
    def function(self) -> str:
        return f"{self.core.__module__}.{self.core.__name__}"

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return self.core.__doc__

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def bind(self, args: tuple[object, ...], kwargs: Mapping[str, object]) -> dict[str, Any]:
        """Exact, checked values of all parameters (defaults filled in)."""
        names = [p.name for p in self.params]
        if len(args) > len(names):
            raise DomainError("arguments", args, f"must be at most {len(names)} values", self.where)
        given: dict[str, object] = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names:
                raise DomainError(key, value, f"is not a parameter (expected {', '.join(names)})",
                                  self.where)
            if key in given:
                raise DomainError(key, value, "is given twice", self.where)
            given[key] = value
        values: dict[str, Any] = {}
        for p in self.params:
            if p.name in given:
                values[p.name] = p.convert(given[p.name], self.where)
            elif p.required:
                raise DomainError(p.name, None, "is required", self.where)
            else:
                values[p.name] = p.convert(p.default, self.where)
        if self.precondition is not None:
            self.precondition(values, self.where)
        return values

    def evaluate(self, ctx: Ctx, values: Mapping[str, Any]) -> R:
        """Evaluate the formula in ``ctx`` on already bound values."""
        with working(ctx):
            args = {k: _lift(ctx, v) for k, v in values.items()}
            out = self.core(ctx, **args)
            _check_finite(out, self.id)
            if ctx is iv:
                out = map_numbers(endpoints, out)
            else:
                out = map_numbers(lambda x: +x, out)
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        return self.evaluate(mp, self.bind(args, kwargs))

    def certified(self, *args: Any, **kwargs: Any) -> Any:
        """An enclosure (``Interval``, or a named tuple of them) of the exact value."""
        return self.evaluate(iv, self.bind(args, kwargs))


def _lift(ctx: Ctx, v: Any) -> Any:
    if isinstance(v, Fraction):
        return to_ctx(ctx, v)
    if isinstance(v, tuple) and v and isinstance(v[0], Fraction):
        return [to_ctx(ctx, q) for q in v]
    return v


@dataclass(frozen=True)
class Certificate:
    """A point returned by an inverse, with the proof that it satisfies its inequality.

    ``value`` satisfies ``forward(value) <= target``, shown by ``forward_at_value``
    (an interval-arithmetic enclosure whose upper end is <= ``target``).  ``lo, hi``
    enclose the exact inverse (the boundary point of the feasible set).
    """

    id: str
    value: MPF
    lo: MPF
    hi: MPF
    forward_id: str
    forward_at_value: Interval
    target: Fraction
    unknown: str

    @property
    def holds(self) -> bool:
        return exact(self.forward_at_value.hi, "forward", self.id) <= self.target

    def __str__(self) -> str:
        return (f"{self.unknown} = {mpmath.nstr(self.value, 20)}  "
                f"({self.forward_id} there lies in {self.forward_at_value} <= "
                f"{float(self.target):.17g}; exact inverse in "
                f"[{mpmath.nstr(self.lo, 20)}, {mpmath.nstr(self.hi, 20)}])")


@dataclass
class InverseResult(Result[Certificate]):
    """A registered inverse of a monotone registered result (see :func:`inverse`)."""

    forward: Result[Any] | None = None
    unknown: str = ""
    target: str = ""
    increasing: bool = True
    forward_output: str | None = None
    fixed: dict[str, str] = field(default_factory=dict)

    @property
    def __doc__(self) -> str | None:  # type: ignore[override]
        return self.core.__doc__

    def _forward(self, ctx: Ctx, u: Fraction, values: Mapping[str, Any]) -> Any:
        assert self.forward is not None
        fwd_values = {self.fixed.get(k, k): v for k, v in values.items() if k != self.target}
        fwd_values[self.unknown] = u
        out = self.forward.evaluate(ctx, fwd_values)
        if self.forward_output is not None:
            out = getattr(out, self.forward_output)
        return out

    def evaluate(self, ctx: Ctx, values: Mapping[str, Any]) -> Any:
        cert = self.certify(values)
        if ctx is iv:
            return Interval(cert.lo, cert.hi)
        return cert.value

    def certify(self, values: Mapping[str, Any]) -> Certificate:
        """Solve approximately, then move outward until interval arithmetic proves validity."""
        with working(mp):
            return self._certify(values)

    def _certify(self, values: Mapping[str, Any]) -> Certificate:
        assert self.forward is not None
        target: Fraction = values[self.target]
        guess = mp.mpf(self.core(mp, **{k: _lift(mp, v) for k, v in values.items()}))
        lower = self.forward.param(self.unknown).lo
        floor = Fraction(0) if lower is None else lower

        def valid(u: Fraction) -> tuple[bool, Interval]:
            enc = self._forward(iv, u, values)
            return exact(enc.hi, "forward", self.id) <= target, enc

        def invalid(u: Fraction) -> bool:
            lower: Fraction = exact(self._forward(iv, u, values).lo, "forward", self.id)
            return lower > target

        # Move towards the feasible side (down if forward increases) in growing steps.
        toward = -1 if self.increasing else 1
        u = max(exact(guess, self.unknown, self.where), floor)
        step = _base_step(u)
        for _ in range(400):
            ok, enc = valid(u)
            if ok:
                break
            u = max(u + toward * step, floor)
            step *= 2
        else:  # pragma: no cover - would mean the solver is wrong
            raise RuntimeError(f"{self.id}: could not certify the solver's point {guess}")
        # Then bracket the exact inverse from the infeasible side.
        other, step2 = u, _base_step(u)
        for _ in range(400):
            nxt = other - toward * step2
            if nxt < floor:  # the feasible set reaches the domain's edge
                other = floor
                break
            other = nxt
            if invalid(other):
                break
            step2 *= 2
        else:  # pragma: no cover
            raise RuntimeError(f"{self.id}: could not bracket the inverse")
        lo, hi = sorted((u, other))
        return Certificate(self.id, to_ctx(mp, u), to_ctx(mp, lo), to_ctx(mp, hi),
                           self.forward.id, enc, target, self.unknown)

    def __call__(self, *args: Any, **kwargs: Any) -> Certificate:
        return self.certify(self.bind(args, kwargs))


def _base_step(u: Fraction) -> Fraction:
    """A step a few hundred ulps wide at the working precision (absolute near zero)."""
    scale = abs(u) if u else Fraction(1)
    return scale * Fraction(1, 2 ** (mp.prec - 8))


def register(obj: Result[Any]) -> None:
    """Put ``obj`` in the catalogue (for Result subclasses built outside the decorators)."""
    if obj.id in _CATALOGUE:
        raise ValueError(f"duplicate result id {obj.id}")
    if obj.source not in SOURCES:
        raise ValueError(f"unknown source prefix in {obj.id}")
    _CATALOGUE[obj.id] = obj
    # A Result is not a function, so doctest would skip its docstring: list the formula
    # in its module's __test__ so `pytest --doctest-modules` runs the doctest.
    module = sys.modules.get(obj.core.__module__)
    if module is not None:
        module.__dict__.setdefault("__test__", {})[obj.core.__name__] = obj.core


def result(rid: str, *, title: str, kind: ResultKind, statement: str, params: list[Param],
           status: Status = "stated", probabilistic: bool = False,
           precondition: Callable[[Mapping[str, Any], str], None] | None = None,
           notes: str = "", output: str = "value",
           ) -> Callable[[Callable[..., R]], Result[R]]:
    """Register ``core(ctx, **params)`` as the result ``rid``."""

    def wrap(core: Callable[..., R]) -> Result[R]:
        obj: Result[R] = Result(rid, title, kind, statement, tuple(params), core, status,
                                   probabilistic, precondition, notes, output)
        register(obj)
        return obj

    return wrap


def inverse(rid: str, *, title: str, statement: str, params: list[Param], forward: Result[Any],
            unknown: str, target: str, increasing: bool, forward_output: str | None = None,
            fixed: dict[str, str] | None = None, status: Status = "stated",
            precondition: Callable[[Mapping[str, Any], str], None] | None = None,
            notes: str = "", output: str = "value",
            ) -> Callable[[Callable[..., MPF]], InverseResult]:
    """Register ``solver(ctx, **params)`` as the certified inverse of ``forward``.

    ``unknown`` is the forward parameter solved for, ``target`` the parameter of this
    result that bounds the forward value; ``increasing`` says how the forward value moves
    with the unknown.  ``fixed`` renames parameters on the way to ``forward``.
    """

    def wrap(solver: Callable[..., MPF]) -> InverseResult:
        obj: InverseResult = InverseResult(
            rid, title, "conversion", statement, tuple(params), solver, status, False,
            precondition, notes, output, forward, unknown, target, increasing, forward_output,
            dict(fixed or {}))
        register(obj)
        return obj

    return wrap


def catalogue() -> list[Result[Any]]:
    """All registered results, sorted by id."""
    from . import families  # noqa: F401  (importing registers every family)

    return [_CATALOGUE[k] for k in sorted(_CATALOGUE)]


def get(rid: str) -> Result[Any]:
    """The registered result ``rid``; ``KeyError`` with close matches if unknown."""
    from . import families  # noqa: F401

    if rid not in _CATALOGUE:
        import difflib

        close = difflib.get_close_matches(rid, list(_CATALOGUE), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"no result {rid!r}{hint}")
    return _CATALOGUE[rid]


def covers(*ids: str) -> Callable[[F], F]:
    """Mark a test as checking the results ``ids`` (read by the catalogue's test index)."""
    for rid in ids:
        get(rid)

    def mark(fn: F) -> F:
        fn.__covers__ = ids  # type: ignore[attr-defined]
        return fn

    return mark

