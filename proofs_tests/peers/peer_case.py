"""The model of the peer-expectation table: where a number comes from, how it is checked.

Every :class:`Case` records where a number comes from (peer library, repository, file, test,
commit read), the inputs, the number the peer's test expects, the tolerance that test uses
(translated to an absolute tolerance, with the peer's rule spelled out), and the id and
parameters of OUR result that computes the same quantity.  The numbers are facts read from
the peers' test files; the table is written here, no peer code is used.

Only literal expected numbers qualify, or numbers a test derives in closed form from a
stated formula (then re-derived here and said so in ``mapping``).  Tests whose expected
value is computed by the peer's own code, and quantities that are not exactly one of our
results (Poisson-subsampled mechanisms, Laplace hockey-stick curves, noise calibration,
RDP of the Gaussian at a fixed order, ...), are left out.

``check`` says what the peer asserts about the exact quantity:

* ``"close"``: ``|expected - exact| <= tol`` (two-sided);
* ``"upper"``: ``exact <= expected + tol`` (the peer states only an upper bound);
* ``"refused"``: the peer returns "no answer" (``None``); our result must refuse the input.

``expected_disagreement`` (an explanation) marks a case where the peer's number and our
enclosure are known to differ by more than ``tol``; the test asserts the disagreement and
its side (``peer_above``).  OpenDP's exact float equalities are read as agreement to 4 ulps
(:func:`ulps`), fixed before comparing; its outward rounding puts a few of its numbers
slightly further above the exact value, recorded as float-level disagreements.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

Check = Literal["close", "upper", "refused"]


@dataclass(frozen=True)
class Source:
    peer: str
    repo: str
    path: str
    test: str
    commit: str


@dataclass(frozen=True)
class Case:
    source: Source
    result: str                              # our catalogue id
    params: tuple[tuple[str, Any], ...]      # keyword arguments of our result
    expected: float | str | None             # the peer's number (str: more digits than a float)
    tol: float                               # absolute tolerance from the peer's rule
    tol_rule: str                            # the peer's own assertion, as written there
    mapping: str                             # why the peer's quantity is exactly our result
    check: Check = "close"
    field: str | None = None                 # component of a named-tuple result
    both_orders: bool = False                # quantity = max(res(P, Q), res(Q, P))
    expected_disagreement: str | None = None
    peer_above: bool | None = None           # for a disagreement: is the peer's number larger?

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.source.repo, self.source.path, self.source.test, self.result,
                self.params, self.field, self.both_orders)

    @property
    def label(self) -> str:
        args = ",".join(f"{k}={_short(v)}" for k, v in self.params)
        part = f".{self.field}" if self.field else ""
        return f"{self.source.peer}:{self.source.test}:{self.result}{part}({args})"


def _short(v: Any) -> str:
    if isinstance(v, tuple):
        return f"<{len(v)}>" if len(v) > 4 else "(" + ",".join(_short(x) for x in v) + ")"
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _p(**kw: Any) -> tuple[tuple[str, Any], ...]:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in kw.items())


# --- tolerance rules of the peers' assertions ------------------------------------------

def places(n: int) -> float:
    """unittest ``assertAlmostEqual(places=n)``: ``round(a - b, n) == 0``."""
    return 0.5 * 10.0**-n


def allclose(expected: float, rtol: float, atol: float = 1e-8) -> float:
    """numpy ``allclose(actual, expected, rtol)``: ``|a - e| <= atol + rtol |e|``."""
    return atol + rtol * abs(expected)


def approx(expected: float, rel: float = 1e-6, abs_: float = 1e-12) -> float:
    """``pytest.approx`` with its defaults."""
    return max(rel * abs(expected), abs_)


def ulps(expected: float, n: int = 4) -> float:
    """Exact float equality (``assert_eq!`` / ``==``) of a value computed in binary64
    with outward rounding: read as agreement to ``n`` units in the last place."""
    return n * math.ulp(expected)


# --- sources -----------------------------------------------------------------------------

_GDP = ("google/differential-privacy", "b5b0286e313b64a692abfc8c528d54ef47d960a0")
_DPA = "python/dp_accounting/dp_accounting/"
_ODP = ("opendp/opendp", "bc6e18b86fb5f8cbab5a79da1a6cedea6b181f24")
_IBM = ("IBM/differential-privacy-library", "5d9c9d873c99295f14b0cfb61866fafbf3cc4684")
_PRV = ("microsoft/prv_accountant", "a844f7200af2722d6a81e0386b2b7351688ecf35")


def _dpa(path: str, test: str) -> Source:
    return Source("dp-accounting", _GDP[0], _DPA + path, test, _GDP[1])


def _odp(path: str, test: str) -> Source:
    return Source("opendp", _ODP[0], path, test, _ODP[1])


def _ibm(test: str) -> Source:
    return Source("diffprivlib", _IBM[0], "tests/test_BudgetAccountant.py", test, _IBM[1])


def _prv(path: str, test: str) -> Source:
    return Source("prv-accountant", _PRV[0], path, test, _PRV[1])


# --- finite pairs of the randomized-response tests ---------------------------------------

def rr_replace_one(p: Fraction | float, k: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """k-ary RR that outputs a uniform bucket with probability p, on two different inputs."""
    hit, miss = 1 - p + p / k, p / k
    P = (hit,) + (miss,) * (k - 1)
    Q = (miss, hit) + (miss,) * (k - 2) if k >= 2 else P
    return P, Q


def rr_replace_special(p: Fraction | float, k: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """k-ary RR on a real input against the special input, whose output is uniform."""
    P, _ = rr_replace_one(p, k)
    return P, (Fraction(1, k),) * k
