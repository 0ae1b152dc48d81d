"""Auditing published claims: parse a claims file, decide each claim on certified enclosures.

A claim names a registered result, its inputs, a relation (``<=``, ``<``, ``>=``,
``>``, ``==`` with an absolute ``tolerance``) and a value.  The result is evaluated
in interval arithmetic; the verdict is ``holds`` when the whole enclosure satisfies
the relation, ``violated`` when none of it does, and otherwise the precision is raised
(the working precision, then 100, 200, 400 digits: :func:`reference.core.decide.decide`)
before answering ``undecided``.  Comparisons with the claimed value are exact (rationals).
The file format is in ``docs/claims.md``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from reference.core.certificates import Certificate
from reference.core.decide import RELATIONS, Verdict, decide
from reference.core.errors import DomainError
from reference.core.numeric import Interval, exact, get_dps
from reference.results import get


class ClaimsFileError(ValueError):
    """A malformed claims file: names the claim and the field."""


@dataclass(frozen=True)
class Claim:
    """One published claim about a registered result."""

    id: str
    source: str
    text: str
    result: str
    params: dict[str, Any]
    relation: str
    value: Fraction
    tolerance: Fraction = Fraction(0)
    output: str | None = None
    expect: Literal["holds", "violated"] = "holds"


@dataclass(frozen=True)
class Outcome:
    """The verdict on a claim, the enclosure it rests on and the margin."""

    claim: Claim
    verdict: Verdict
    enclosure: Interval | None
    margin: Fraction | None
    dps: int
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def unexpected(self) -> bool:
        return self.verdict != "undecided" and self.verdict != self.claim.expect


def _field(raw: dict[str, Any], name: str, label: str, required: bool = True) -> Any:
    if name not in raw:
        if required:
            raise ClaimsFileError(f"claim {label}: missing field '{name}'")
        return None
    return raw[name]


def _param_value(v: Any, label: str, name: str) -> Any:
    if isinstance(v, dict):
        if set(v) != {"repeat", "value"} or not isinstance(v["repeat"], int) or v["repeat"] < 1:
            raise ClaimsFileError(f"claim {label}: field 'params.{name}' must be a number, a "
                                  "list, or {repeat = N, value = X} with N >= 1")
        return [v["value"]] * v["repeat"]
    if isinstance(v, bool) or not isinstance(v, int | float | str | list):
        raise ClaimsFileError(f"claim {label}: field 'params.{name}' has an unsupported type")
    return v


def parse_claims(text: str, origin: str = "<claims>") -> list[Claim]:
    """Parse a TOML claims document (never evaluated: data only)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ClaimsFileError(f"{origin}: not valid TOML: {err}") from None
    raws = doc.get("claim")
    if not isinstance(raws, list) or not raws:
        raise ClaimsFileError(f"{origin}: expected one or more [[claim]] tables")
    claims, seen = [], set()
    for i, raw in enumerate(raws, 1):
        label = f"#{i}"
        cid = _field(raw, "id", label)
        if not isinstance(cid, str) or not cid:
            raise ClaimsFileError(f"claim {label}: field 'id' must be a non-empty string")
        label = f"#{i} ({cid})"
        if cid in seen:
            raise ClaimsFileError(f"claim {label}: duplicate id")
        seen.add(cid)
        rid = _field(raw, "result", label)
        try:
            get(rid)
        except KeyError as err:
            raise ClaimsFileError(f"claim {label}: field 'result': {err.args[0]}") from None
        params = _field(raw, "params", label)
        if not isinstance(params, dict):
            raise ClaimsFileError(f"claim {label}: field 'params' must be a table")
        relation = _field(raw, "relation", label)
        if relation not in RELATIONS:
            raise ClaimsFileError(f"claim {label}: field 'relation' must be one of {RELATIONS}")
        expect = raw.get("expect", "holds")
        if expect not in ("holds", "violated"):
            raise ClaimsFileError(f"claim {label}: field 'expect' must be 'holds' or 'violated'")
        unknown = set(raw) - {"id", "source", "text", "result", "params", "relation", "value",
                              "tolerance", "output", "expect"}
        if unknown:
            raise ClaimsFileError(f"claim {label}: unknown field(s) {sorted(unknown)}")
        try:
            value = exact(_field(raw, "value", label), "value", f"claim {label}")
            tol = exact(raw.get("tolerance", 0), "tolerance", f"claim {label}")
        except DomainError as err:
            raise ClaimsFileError(f"claim {label}: field '{err.param}' {err.condition}") from None
        if tol < 0:
            raise ClaimsFileError(f"claim {label}: field 'tolerance' must be >= 0")
        claims.append(Claim(cid, str(raw.get("source", "")), str(raw.get("text", "")), rid,
                            {k: _param_value(v, label, k) for k, v in params.items()},
                            relation, value, tol, raw.get("output"), expect))
    return claims


def load_claims(path: str | Path | None = None) -> list[Claim]:
    """Claims from ``path``, or all claims files shipped in ``reference/tools/audit/claims/``."""
    if path is None:
        claims: list[Claim] = []
        folder = resources.files("reference.tools.audit").joinpath("claims")
        for item in sorted(folder.iterdir(), key=lambda f: f.name):
            if item.name.endswith(".toml"):
                origin = f"reference/tools/audit/claims/{item.name}"
                claims += parse_claims(item.read_text("utf-8"), origin)
        ids = [c.id for c in claims]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ClaimsFileError(f"shipped claims: duplicate ids {dupes}")
        return claims
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise ClaimsFileError(f"{p}: cannot read: {err.strerror}") from None
    return parse_claims(text, str(p))


def _enclosure(claim: Claim) -> tuple[Interval, dict[str, Any]]:
    res = get(claim.result)
    extra: dict[str, Any] = {}
    if res.inverse is not None:
        cert: Certificate = res(**claim.params)
        extra["certificate"] = cert
        return Interval(cert.lo, cert.hi), extra
    out = res.certified(**claim.params)
    if claim.output is not None:
        if not hasattr(out, claim.output):
            raise ClaimsFileError(f"claim {claim.id}: field 'output': {claim.result} has no "
                                  f"output '{claim.output}'")
        out = getattr(out, claim.output)
    elif isinstance(out, tuple):
        out = out[0]
    if not isinstance(out, Interval):
        raise ClaimsFileError(f"claim {claim.id}: the output of {claim.result} is not a number;"
                              " name one with 'output'")
    return out, extra


def audit_claim(claim: Claim) -> Outcome:
    """Decide one claim (:func:`reference.core.decide.decide`: the precision is raised while
    the enclosure straddles the claimed value)."""
    extra: dict[str, Any] = {}

    def enclose() -> Interval:
        enc, more = _enclosure(claim)
        extra.update(more)
        return enc

    try:
        j = decide(enclose, claim.relation, claim.value, tol=claim.tolerance, where=claim.id)
    except DomainError as err:
        return Outcome(claim, Verdict.UNDECIDED, None, None, get_dps(), error=str(err))
    return Outcome(claim, j.verdict, j.enclosure, j.margin, j.dps, extra=extra)


def audit(claims: list[Claim]) -> list[Outcome]:
    """Decide every claim."""
    return [audit_claim(c) for c in claims]
