"""The one result model: a formula written once over an mpmath context, with its metadata.

``@result(...)`` turns ``core(ctx, **params)`` into a :class:`Result`:

* ``R(**params)`` converts and checks the inputs exactly, evaluates with ``mp`` at the
  working precision and returns ``mpf`` (or a named tuple of them);
* ``R.certified(**params)`` evaluates the *same code* with ``mpmath.iv`` and returns an
  :class:`~reference.core.numeric.Interval` enclosing the exact value.

Variations are hooks on the one class, not subclasses:

* ``prepare(values, where)`` returns exact values merged over the bound inputs before the
  formula runs: exact decisions (a filter's ``halt``, an odometer's ``branch``, decided once
  on the exact inputs: the point value and the enclosure share them) or a regrouping;
* ``exact_inputs=True`` hands the formula the exact ``Fraction`` inputs instead of context
  numbers (the exact linear programs of the target-charging family);
* ``inverse=Inverse(...)`` (built by ``@inverse(...)``) makes the result a certified
  inverse of a monotone forward result: calling it returns a :class:`Certificate` whose
  forward evaluation, in interval arithmetic, proves the defining inequality;
* ``balls=True``: the enclosure, an inverse's solver and the plain value (where the ball
  pins it to a faithful rounding, else ``mp``) from Arb's balls, :mod:`.fastballs`; where
  the formula fails on balls, from ``iv`` and ``mp``.

A result is a value in its module; the catalogue (:mod:`reference.core.catalogue`)
collects them from an explicit list of modules. Nothing registers on import.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, TypeVar

import mpmath
from mpmath import iv, mp

from reference.core.certificates import Certificate, base_step, least_step, on_grid, tight
from reference.core.errors import DomainError
from reference.core.numeric import (
    MPF,
    READERS,
    Ctx,
    Interval,
    endpoints,
    exact,
    extra_bits,
    get_dps,
    precision,
    to_ctx,
    working,
)
from reference.core.params import Param, near_end_bits

#: Guard digits of a plain value: the formula runs at the working precision plus these,
#: and its result is rounded once to the working precision, so that rounding errors of the
#: formula's steps stay below the final rounding (the plain value is then faithfully
#: rounded wherever the formula is numerically stable; ``proofs_tests/test_contract.py``
#: checks it lies inside its enclosure rounded outward).
PLAIN_GUARD_DIGITS = 10

#: Most digits an inverse escalates to (the bound of :func:`precision`).
MAX_INVERSE_DPS = 10_000

R = TypeVar("R")

ResultKind = Literal["bound", "conversion", "composition", "filter", "odometer", "mechanism",
                     "guarantee", "definition"]
Status = Literal["stated", "corrected", "reconstructed"]
Hook = Callable[[Mapping[str, Any], str], Mapping[str, Any]]
Precondition = Callable[[Mapping[str, Any], str], None]


def _fast() -> Ctx:  # python-flint loads on first use (80 ms); then read from sys.modules
    if "reference.core.fastballs" not in sys.modules:   # (an import statement costs 0.6 us)
        from reference.core import fastballs  # noqa: F401
    return sys.modules["reference.core.fastballs"].FAST


def _pin(x: Any, bits: int, loose: list[Any]) -> Any:
    """A ball's plain value (:func:`.fastballs.point`); a loose ball goes to ``loose``."""
    if (value := _fast().point(x, bits)) is None:
        loose.append(x)
    return value


def check_finite(out: object, rid: str) -> None:
    """``RuntimeError`` if a formula produced NaN anywhere in its output (a bug, never input)."""
    if isinstance(out, tuple | list):
        for item in out:
            check_finite(item, rid)
    elif isinstance(out, mpmath.mpf) and mpmath.isnan(out):
        raise RuntimeError(f"internal error: {rid} produced NaN")
    elif isinstance(out, iv.mpf) and (mpmath.isnan(endpoints(out).lo)
                                      or mpmath.isnan(endpoints(out).hi)):
        raise RuntimeError(f"internal error: {rid} produced NaN")


def _unbounded(enc: Any) -> bool:
    """An infinite end in an enclosure, or in any inside a (nested) tuple (past Arb's range)."""
    if isinstance(enc, tuple | list):
        return any(_unbounded(e) for e in enc)
    return isinstance(enc, Interval) and bool(mpmath.isinf(enc.width))


def map_numbers(fn: Callable[[Any], Any], out: Any) -> Any:
    """Apply ``fn`` to every mpmath number inside a (named) tuple structure."""
    if isinstance(out, tuple) and hasattr(out, "_fields"):
        return type(out)(*(map_numbers(fn, v) for v in out))
    if isinstance(out, tuple | list):
        return type(out)(map_numbers(fn, v) for v in out)
    if isinstance(out, mpmath.mpf | iv.mpf) or type(out) in READERS:   # READERS: balls
        return fn(out)
    return out


def lift(ctx: Ctx, values: Mapping[str, Any]) -> dict[str, Any]:
    """Exact parameter values as numbers of ``ctx`` (sequences of rationals as lists)."""
    out: dict[str, Any] = {}
    for key, v in values.items():
        if isinstance(v, Fraction):
            out[key] = to_ctx(ctx, v)
        elif isinstance(v, tuple) and v and isinstance(v[0], Fraction):
            out[key] = [to_ctx(ctx, q) if isinstance(q, Fraction) else q for q in v]
        else:
            out[key] = v
    return out


@dataclass(frozen=True)
class Inverse:
    """How a result inverts a monotone forward result.

    ``unknown`` is the forward parameter solved for, ``target`` the parameter of the
    inverse that bounds the forward value; ``increasing`` says how the forward value moves
    with the unknown; ``fixed`` renames parameters on the way to ``forward``; ``floor`` is
    the least value of the unknown the inverse ranges over (default: the lower bound of the
    forward parameter, else 0), for an inverse defined on part of the forward's domain.
    """

    forward: Result[Any]
    unknown: str
    target: str
    increasing: bool
    forward_output: str | None = None
    fixed: Mapping[str, str] = field(default_factory=dict)
    floor: Fraction | None = None


@dataclass(eq=False)
class Result(Generic[R]):
    """A result: its metadata and its formula, generic over the context (see module doc)."""

    id: str
    title: str
    kind: ResultKind
    statement: str
    params: tuple[Param, ...]
    core: Callable[..., R]
    status: Status = "stated"
    probabilistic: bool = False
    precondition: Precondition | None = None
    notes: str = ""
    output: str = "value"
    prepare: Hook | None = None
    exact_inputs: bool = False
    inverse: Inverse | None = None
    balls: bool = False

    def __post_init__(self) -> None:
        # A Result is not a function, so doctest would skip its docstring: list the formula
        # in its module's ``__test__`` so that ``pytest --doctest-modules`` runs its examples.
        module = sys.modules.get(self.core.__module__)
        if module is not None:
            module.__dict__.setdefault("__test__", {})[self.core.__name__] = self.core

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

    def evaluate(self, ctx: Ctx, values: Mapping[str, Any]) -> Any:
        """Evaluate on already bound values: the value in ``mp``, an enclosure in ``iv``."""
        if self.inverse is not None:
            cert = self.certify(values)
            return Interval(cert.lo, cert.hi) if ctx is iv else cert.value
        if self.prepare is not None:  # with the digits that keep inputs off their domain ends
            bits = near_end_bits(self.params, values)
            with precision(get_dps() + (bits * 31 + 99) // 100):
                values = {**values, **self.prepare(values, self.where)}
        bits = near_end_bits(self.params, values)
        if self.balls:  # the enclosure from Arb's balls, and the value where they pin it
            try:
                out = self._run(_fast(), 0, values, bits)
            except Exception:   # (beyond Arb's range, say): the reference evaluator decides
                pass
            else:
                loose: list[Any] = []
                if ctx is iv:   # a ball past Arb's exponents is [-inf, inf]: iv decides
                    enc = map_numbers(endpoints, out)
                    if not _unbounded(enc):
                        return enc
                else:
                    with working(mp):
                        value = map_numbers(lambda x: _pin(x, mp.prec + 8, loose), out)
                    if not loose:
                        return value
        out = self._run(ctx, PLAIN_GUARD_DIGITS if ctx is mp else 0, values, bits)
        if ctx is iv:
            return out
        with working(mp):  # one rounding of the guarded value to the working precision
            return map_numbers(lambda x: +x, out)

    def _run(self, run: Ctx, guard: int, values: Mapping[str, Any], bits: int) -> Any:
        """The formula in ``run`` with ``guard`` digits and ``bits`` bits more."""
        with working(run, get_dps() + guard), extra_bits(run, bits):
            out = self.core(run, **(dict(values) if self.exact_inputs else lift(run, values)))
            check_finite(out, self.id)
            return map_numbers(endpoints, out) if run is iv else out

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        values = self.bind(args, kwargs)
        if self.inverse is not None:
            return self.certify(values)  # type: ignore[return-value]
        return self.evaluate(mp, values)  # type: ignore[no-any-return]

    def certified(self, *args: Any, **kwargs: Any) -> Any:
        """An enclosure (``Interval``, or a named tuple of them) of the exact value."""
        return self.evaluate(iv, self.bind(args, kwargs))

    # ---- inverses -------------------------------------------------------------------

    def _forward(self, ctx: Ctx, u: Fraction, values: Mapping[str, Any],
                 bits: int | None = None) -> Any:
        inv = self.inverse
        assert inv is not None
        fwd_values = {inv.fixed.get(k, k): v for k, v in values.items() if k != inv.target}
        fwd_values[inv.unknown] = u
        # A target next to its domain's end (delta_g = 1 - 1e-300) needs the digits apart.
        bits = near_end_bits(self.params, values) if bits is None else bits
        with precision(get_dps() + (bits * 31 + 99) // 100):
            out = inv.forward.evaluate(ctx, fwd_values)
        if inv.forward_output is not None:
            out = getattr(out, inv.forward_output)
        return out

    def certify(self, values: Mapping[str, Any]) -> Certificate:
        """Solve approximately, move outward until interval arithmetic proves validity and
        narrow the bracket of the exact inverse by bisection; again with 4x the digits (up to
        MAX_INVERSE_DPS) while it is wider than the working precision warrants (``tight``):
        the forward values at its midpoint could not be told from the target."""
        if self.inverse is None:
            raise TypeError(f"{self.id} is not an inverse")
        dps = get_dps()
        with working(mp):
            bits = mp.prec
        while True:
            with precision(dps), working(mp):
                cert, undecided = self._certify(self.inverse, values, bits)
            if not undecided or 4 * dps > MAX_INVERSE_DPS:
                return cert
            dps *= 4

    def _certify(self, inv: Inverse, values: Mapping[str, Any],
                 bits: int) -> tuple[Certificate, bool]:
        target: Fraction = values[inv.target]
        run = _fast() if self.balls else mp     # on balls: the midpoint is the guess
        near, seen = near_end_bits(self.params, values), {}
        with working(run), extra_bits(run, near):
            guess = endpoints(self.core(run, **lift(run, values))).mid
        guess = +guess
        floor = inv.floor if inv.floor is not None else inv.forward.param(inv.unknown).lo
        floor = Fraction(0) if floor is None else floor

        def side(u: Fraction) -> tuple[int, Interval]:
            """1 where the forward enclosure proves validity, -1 invalidity, else 0 (once)."""
            if u not in seen:
                enc = self._forward(iv, u, values, near)
                seen[u] = (1 if exact(enc.hi, "forward", self.id) <= target else
                           -1 if exact(enc.lo, "forward", self.id) > target else 0), enc
            return seen[u]

        # Move toward the feasible side in steps base 2^e (least e by galloping: least_step;
        # value: the very point proven valid), then bracket the inverse from the other side.
        toward = -1 if inv.increasing else 1
        least = on_grid(floor, up=True)
        u0 = max(exact(guess, inv.unknown, self.where), least)
        if self.balls and u0 > least:   # a ball's midpoint is the root: half a step inward
            u0 = max(on_grid(u0 + toward * base_step(u0) / 2, up=toward > 0), least)
        base, fast, limit = base_step(u0), mp.prec - 16, mp.prec + 400

        def ahead(e: int) -> Fraction:
            return max(on_grid(u0 + toward * base * 2**e, up=toward > 0), least)

        u = u0 if side(u0)[0] > 0 else ahead(least_step(
            lambda e: side(ahead(e))[0] > 0, fast, limit,
            f"{self.id}: could not certify the solver's point {guess}"))
        enc, base2 = side(u)[1], base_step(u)

        def behind(e: int) -> Fraction:   # (the feasible set may reach the domain's edge)
            return max(floor, u - toward * base2 * (1 << e))

        # A point proven invalid within two steps of u (the solver's) closes the bracket.
        bad = [v for v, (s, _) in seen.items() if s < 0 and 0 < toward * (u - v) <= 2 * base2]
        other = min(bad, key=lambda v: abs(u - v)) if bad else behind(least_step(
            lambda e: behind(e) == floor or side(behind(e))[0] < 0, fast, limit,
            f"{self.id}: could not bracket the inverse"))
        # Bisect while the bracket is wider than `bits` warrant (a solver point far off);
        # stop, undecided, where the forward cannot tell the midpoint's side.
        undecided = False
        for _ in range(mp.prec):
            a, b = min(u, other), max(u, other)
            m = on_grid((a + b) / 2, up=False)
            if tight(a, b, bits) or not a < m < b:
                break
            where, at_m = side(m)
            if where > 0:
                u, enc = m, at_m
            elif where < 0:
                other = m
            else:
                undecided = True
                break
        lo, hi = on_grid(min(u, other), up=False), on_grid(max(u, other), up=True)
        return Certificate(self.id, to_ctx(mp, u), to_ctx(mp, lo), to_ctx(mp, hi),
                           inv.forward.id, enc, target, inv.unknown), undecided


def result(rid: str, *, title: str, kind: ResultKind, statement: str, params: list[Param],
           status: Status = "stated", probabilistic: bool = False,
           precondition: Precondition | None = None, notes: str = "", output: str = "value",
           prepare: Hook | None = None, exact_inputs: bool = False, balls: bool = False,
           ) -> Callable[[Callable[..., R]], Result[R]]:
    """Make ``core(ctx, **params)`` the result ``rid`` (see the module doc for the hooks)."""

    def wrap(core: Callable[..., R]) -> Result[R]:
        return Result(rid, title, kind, statement, tuple(params), core, status, probabilistic,
                      precondition, notes, output, prepare, exact_inputs, balls=balls)

    return wrap


def inverse(rid: str, *, title: str, statement: str, params: list[Param], forward: Result[Any],
            unknown: str, target: str, increasing: bool, forward_output: str | None = None,
            fixed: dict[str, str] | None = None, status: Status = "stated",
            precondition: Precondition | None = None, notes: str = "", output: str = "value",
            floor: Fraction | None = None, balls: bool = False,
            ) -> Callable[[Callable[..., MPF]], Result[Certificate]]:
    """Make ``solver(ctx, **params)`` the certified inverse ``rid`` of ``forward``."""

    def wrap(solver: Callable[..., MPF]) -> Result[Certificate]:
        return Result(rid, title, "conversion", statement, tuple(params), solver, status,
                      False, precondition, notes, output,
                      inverse=Inverse(forward, unknown, target, increasing, forward_output,
                                      dict(fixed or {}), floor), balls=balls)

    return wrap
