"""Odometers a user drives round by round (RRUV16 Definition 3.2).

After each round runs, ``record(eps, delta)`` adds its parameters and returns the running
bound: the odometer evaluated on the rounds so far padded with zeros.  Each object keeps
its history (:class:`Reading`), takes exact inputs and raises ``DomainError`` on invalid
ones; ``certified()`` re-evaluates the registered result on the whole history in
interval arithmetic.

>>> odo = AdvancedOdometer(n=1000, delta_g="0.05")
>>> for _ in range(100):
...     bound = odo.record("0.01")
>>> print(mpmath.nstr(bound, 6), odo.branch)  # (11); 0.5628293 in floating point
0.562829 11
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
from mpmath import iv, mp

from reference.core.errors import DomainError
from reference.core.numeric import MPF, Interval, endpoints, exact, to_ctx, working
from reference.core.params import as_fraction
from reference.results.concentration.rruv16 import half_drift
from reference.results.filters.objects import RunningSum, midpoint
from reference.results.filters.rruv16 import basic_filter, lifted_failure
from reference.results.odometers.rruv16 import (
    advanced_odometer,
    advanced_value,
    branch_of,
    fixed_x_odometer,
    fixed_x_value,
    heuristic_value,
)


@dataclass(frozen=True)
class Reading:
    """The odometer after one round: round number, its parameters, the running bound."""

    round: int
    eps: Fraction
    delta: Fraction
    bound: MPF


class PrivacyOdometer:
    """Base class: history and the running bound."""

    where = "privacy odometer"

    def __init__(self) -> None:
        self.history: list[Reading] = []
        self._eps: list[Fraction] = []
        self.S = Fraction(0)
        self.drift = RunningSum()

    @property
    def eps(self) -> list[Fraction]:
        """The epsilons recorded so far."""
        return list(self._eps)

    @property
    def value(self) -> MPF:
        """The current bound (the empty composition's bound before any round)."""
        return self.history[-1].bound if self.history else self._bound()

    def _bound(self) -> MPF:
        raise NotImplementedError

    def record(self, eps: object, delta: object = 0) -> MPF:
        """Add a round that ran with ``(eps, delta)``; return the running bound."""
        e = as_fraction(eps, "eps", self.where)
        d = as_fraction(delta, "delta", self.where, hi=Fraction(1), hi_open=True)
        self._add(e, d)   # raises before any state changes on a refused round
        self._eps.append(e)
        bound = self._bound()
        self.history.append(Reading(len(self.history) + 1, e, d, bound))
        return bound

    def _add(self, eps: Fraction, delta: Fraction) -> None:
        if delta != 0:
            raise DomainError("delta", delta, "must be 0 for a pure-DP odometer (wrap it in "
                              "ApproxOdometer, Lemma 3.3)", self.where)
        self.drift.enclosure = self.drift.plus(lambda ctx: half_drift(ctx, to_ctx(ctx, eps)))
        self.S += eps * eps

    def certified(self) -> Interval:
        """An enclosure of the exact bound for the whole history."""
        raise NotImplementedError

    def exceeded_by(self, loss: object) -> bool:
        """Whether ``|loss| > bound`` (the odometer's failure event), exactly."""
        q = exact(loss, "loss", self.where)
        enc = self.certified()
        if mpmath.isinf(enc.hi):
            return False
        if abs(q) > exact(enc.hi, "bound", self.where):
            return True
        if abs(q) <= exact(enc.lo, "bound", self.where):
            return False
        raise RuntimeError(f"{self.where}: loss {q} too close to the bound to decide")


class BasicOdometer(PrivacyOdometer):
    """RRUV16 Theorem 3.4: ``sum eps_i`` (valid for every ``delta_g >= 0``), exactly.

    >>> odo = BasicOdometer()
    >>> odo.record("0.1"), odo.record("0.2")
    (mpf('0.1'), mpf('0.3'))
    """

    where = "BasicOdometer (RRUV16:Thm3.4)"

    def _bound(self) -> MPF:
        with working(mp):
            return +to_ctx(mp, sum(self.eps, Fraction(0)))

    def certified(self) -> Interval:
        out = basic_filter.certified(eps=self.eps, eps_g=0)
        return out.total  # type: ignore[no-any-return]


class AdvancedOdometer(PrivacyOdometer):
    """RRUV16 Theorem 6.5 (branches (11) and (12), chosen exactly by ``sum eps_i^2``)."""

    where = "AdvancedOdometer (RRUV16:Thm6.5)"

    def __init__(self, n: int, delta_g: object) -> None:
        values = advanced_odometer.bind((), {"n": n, "delta_g": delta_g})
        self.n: int = values["n"]
        self.delta_g: Fraction = values["delta_g"]
        super().__init__()

    @property
    def branch(self) -> int:
        return branch_of(self.S, self.n)

    def _bound(self) -> MPF:
        with working(iv):
            enc = advanced_value(iv, self.drift.enclosure, to_ctx(iv, self.S), self.n,
                                 to_ctx(iv, self.delta_g), self.branch)
        return midpoint(enc)

    def certified(self) -> Interval:
        out = advanced_odometer.certified(eps=self.eps, n=self.n, delta_g=self.delta_g)
        return out.value  # type: ignore[no-any-return]


class FixedXOdometer(PrivacyOdometer):
    """RRUV16 Lemma 6.4 with ``x`` fixed before the interaction."""

    where = "FixedXOdometer (RRUV16:Lem6.4)"

    def __init__(self, x: object, delta_g: object) -> None:
        values = fixed_x_odometer.bind((), {"x": x, "delta_g": delta_g})
        self.x: Fraction = values["x"]
        self.delta_g: Fraction = values["delta_g"]
        super().__init__()

    def _bound(self) -> MPF:
        with working(iv):
            enc = fixed_x_value(iv, self.drift.enclosure, to_ctx(iv, self.S),
                                to_ctx(iv, self.x), to_ctx(iv, self.delta_g))
        return midpoint(enc)

    def certified(self) -> Interval:
        return fixed_x_odometer.certified(eps=self.eps, x=self.x,  # type: ignore[no-any-return]
                                          delta_g=self.delta_g)


class HeuristicOdometer(PrivacyOdometer):
    """INVALID: advanced composition applied to the realised parameters (do not use).

    Kept to show what goes wrong (RRUV16 §1.1, Theorem 6.1): the stopping-time adversary
    exceeds it with probability well above ``delta_g`` (see ``docs/filters-odometers.md``).
    """

    where = "HeuristicOdometer (invalid)"

    def __init__(self, delta_g: object) -> None:
        self.delta_g = as_fraction(delta_g, "delta_g", self.where, hi=Fraction(1),
                                   hi_open=True)
        if self.delta_g == 0:
            raise DomainError("delta_g", delta_g, "must be > 0", self.where)
        super().__init__()

    def _bound(self) -> MPF:
        with working(iv):
            enc = heuristic_value(iv, self.drift.enclosure, to_ctx(iv, self.S),
                                  to_ctx(iv, self.delta_g))
        return midpoint(enc)

    def certified(self) -> Interval:
        with working(iv):
            enc = heuristic_value(iv, self.drift.enclosure, to_ctx(iv, self.S),
                                  to_ctx(iv, self.delta_g))
        return endpoints(enc)


class ApproxOdometer(PrivacyOdometer):
    """RRUV16 Lemma 3.3 (corrected): ``+inf`` once the summed failure exceeds ``delta_g'``,
    otherwise the inner pure-DP odometer on ``2 eps_i``; fails with probability at most
    ``delta_g + delta_g'``.

    >>> odo = ApproxOdometer(BasicOdometer(), delta_g_prime="1e-3")
    >>> import mpmath
    >>> odo.record("0.5", "1e-4"), odo.record(0, "1e-4") == mpmath.inf
    (mpf('1.0'), True)
    """

    where = "ApproxOdometer (RRUV16:Lem3.3)"

    def __init__(self, inner: PrivacyOdometer, delta_g_prime: object) -> None:
        values = lifted_failure.bind((), {"delta_g_prime": delta_g_prime})
        if inner.history:
            raise DomainError("inner", f"{len(inner.history)} rounds", "must be a fresh "
                              "odometer (its rounds' deltas are unknown)", self.where)
        self.delta_g_prime: Fraction = values["delta_g_prime"]
        self.inner = inner
        self.deltas: list[Fraction] = []
        super().__init__()

    def _add(self, eps: Fraction, delta: Fraction) -> None:
        self.inner.record(2 * eps, 0)
        self.deltas.append(delta)

    def _exceeded(self) -> bool:
        return bool(lifted_failure(eps=[*self.eps_so_far()], delta=self.deltas,
                                   delta_g_prime=self.delta_g_prime).halt)

    def eps_so_far(self) -> list[Fraction]:
        return [e / 2 for e in self.inner.eps]

    def _bound(self) -> MPF:
        return mp.inf if self._exceeded() else self.inner.value

    def certified(self) -> Interval:
        if self._exceeded():
            return Interval(mp.inf, mp.inf)
        return self.inner.certified()


__all__ = ["AdvancedOdometer", "ApproxOdometer", "BasicOdometer", "FixedXOdometer",
           "HeuristicOdometer", "PrivacyOdometer", "Reading"]
