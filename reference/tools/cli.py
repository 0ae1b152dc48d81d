"""Command line: ``python -m reference {catalog, value, audit, errata, experiment,
conformance, bench, prove, check, vectors}``.

This interface is a public contract (other tools script against it): keep command
names, options and JSON keys stable.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reference.core.errata import Kind, in_severity_order, kind_counts
from reference.core.errors import DomainError
from reference.core.numeric import get_dps, precision
from reference.results import catalogue, errata, get
from reference.tools.render import decimal_str, lower_str, primary, to_jsonable, to_text, upper_str

if TYPE_CHECKING:
    from reference.tools.audit import Outcome

# The subcommands other than ``value`` import their modules when they run (audit, the test
# index, experiments, conformance, bench), so that ``python -m reference value`` stays fast.


def _catalog(args: argparse.Namespace) -> int:
    from reference.tools.testindex import test_index

    index = test_index()
    rows: list[dict[str, Any]] = []
    for res in catalogue():
        tests = index.get(res.id, {"property": [], "stats": []})
        rows.append({"id": res.id, "source": res.source, "title": res.title, "kind": res.kind,
                     "status": res.status, "function": res.function,
                     "statement": res.statement, "probabilistic": res.probabilistic,
                     "params": [{"name": p.name, "domain": p.condition(), "kind": p.kind,
                                 "required": p.required, "doc": p.doc} for p in res.params],
                     "notes": res.notes,
                     "property_tests": tests["property"], "stats_tests": tests["stats"]})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for r in rows:
        params = " ".join(p["name"] for p in r["params"])
        print(f"{r['id']:<26} {r['kind']:<12} {r['status']:<13} {r['title']}  [{params}]  "
              f"tests: {len(r['property_tests'])} property, {len(r['stats_tests'])} stats")
    return 0


def _parse_assignments(items: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise DomainError("argument", item, "must be written name=value", "the command line")
        params[name.strip()] = value.strip()
    return params


def _value(args: argparse.Namespace) -> int:
    try:
        res = get(args.id)
    except KeyError as err:
        print(f"error: {err.args[0]}", file=sys.stderr)
        return 2
    params = _parse_assignments(args.params)
    digits = args.dps
    with precision(digits):
        out = res(**params)
        enc = res.certified(**params) if args.certified else None
    if args.json:
        obj: dict[str, Any] = {"id": res.id, "value": decimal_str(primary(out), digits),
                               "dps": digits, "params": params}
        full = to_jsonable(out, digits)
        if isinstance(full, dict) and res.inverse is None:
            obj["outputs"] = full
        if res.inverse is not None:
            obj["certificate"] = full
        if enc is not None:
            first = enc if not isinstance(enc, tuple) else enc[0]
            obj["lo"], obj["hi"] = lower_str(first.lo, digits), upper_str(first.hi, digits)
            if isinstance(enc, tuple) and hasattr(enc, "_fields"):
                obj["enclosures"] = to_jsonable(enc, digits)
        print(json.dumps(obj, indent=2, ensure_ascii=False))
        return 0
    print(to_text(out, digits))
    if enc is not None:
        print("certified: " + to_text(enc, digits))
    return 0


def _outcome_json(o: Outcome) -> dict[str, Any]:
    c = o.claim
    return {"id": c.id, "source": c.source, "text": c.text, "result": c.result,
            "relation": c.relation, "value": decimal_str(c.value, 30),
            "tolerance": decimal_str(c.tolerance, 30), "expect": c.expect,
            "verdict": o.verdict, "unexpected": o.unexpected,
            "enclosure": None if o.enclosure is None else
            [lower_str(o.enclosure.lo, 30), upper_str(o.enclosure.hi, 30)],
            "margin": None if o.margin is None else decimal_str(o.margin, 12),
            "dps": o.dps, "error": o.error}


def _audit(args: argparse.Namespace) -> int:
    from reference.tools.audit import ClaimsFileError, audit, load_claims

    try:
        claims = load_claims(args.file)
        outcomes = audit(claims)
    except ClaimsFileError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    bad = [o for o in outcomes if o.verdict == "violated" and o.claim.expect == "holds"]
    errors = [o for o in outcomes if o.error]
    if args.json:
        print(json.dumps({"claims": [_outcome_json(o) for o in outcomes],
                          "violated_unexpectedly": [o.claim.id for o in bad]}, indent=2,
                         ensure_ascii=False))
    else:
        for o in outcomes:
            c = o.claim
            enc = "" if o.enclosure is None else (
                f" value in [{lower_str(o.enclosure.lo, 12)}, {upper_str(o.enclosure.hi, 12)}]")
            margin = "" if o.margin is None else f" margin {decimal_str(o.margin, 6)}"
            note = " (expected violation)" if c.expect == "violated" and o.verdict == "violated" \
                else " (UNEXPECTED)" if o.unexpected else ""
            tol = f" ± {decimal_str(c.tolerance, 6)}" if c.relation == "==" else ""
            print(f"{o.verdict.upper():<9} {c.id}: {c.result} {c.relation} "
                  f"{decimal_str(c.value, 12)}{tol}{enc}{margin}{note}")
            if o.error:
                print(f"          error: {o.error}")
        n = len(outcomes)
        counts = {v: sum(o.verdict == v for o in outcomes) for v in ("holds", "violated",
                                                                      "undecided")}
        print(f"\n{n} claims: {counts['holds']} hold, {counts['violated']} violated "
              f"({len(bad)} unexpectedly), {counts['undecided']} undecided")
    if errors:
        return 2
    return 1 if bad else 0


def _errata(args: argparse.Namespace) -> int:
    rows = []
    failed = 0
    for e in in_severity_order(errata()):
        chk = e.verify()
        failed += not chk.confirmed
        rows.append({"id": e.id, "location": e.location, "kind": e.kind.value,
                     "consequence": e.consequence, "result": e.result,
                     "printed": e.printed, "corrected": e.corrected,
                     "confirmed": chk.confirmed, "check": chk.detail})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        for r in rows:
            status = "confirmed" if r["confirmed"] else "NOT CONFIRMED"
            print(f"{r['id']}  [{Kind(str(r['kind'])).label}, {status}]  {r['location']}")
            print(f"    consequence: {r['consequence']}")
            print(f"    printed:     {r['printed']}")
            print(f"    corrected:   {r['corrected']}")
            print(f"    check:       {r['check']}")
        print(f"\n{kind_counts(errata())}; {len(rows) - failed} of {len(rows)} re-verified")
    return 1 if failed else 0


def _experiment(args: argparse.Namespace) -> int:
    from pathlib import Path

    from reference.tools.experiments import (
        relative_error,  # lazy: numpy simulation, optional matplotlib
    )

    if args.trials < 1:
        raise DomainError("--trials", args.trials, "must be >= 1", "experiment relative-error")
    return relative_error.main(args.trials, Path(args.out), args.seed)


def _conformance(args: argparse.Namespace) -> int:
    from reference.tools.conformance import cli as conformance_cli  # lazy: imports other libraries

    return int(conformance_cli.run(args))


def _bench(args: argparse.Namespace) -> int:
    if getattr(args, "results", False):
        from reference.tools import bench_results  # lazy: every result's timing

        return int(bench_results.run(args))
    if getattr(args, "sweep", False):
        from reference.tools import sweep  # lazy: Hypothesis (the test extra)

        return int(sweep.run(args))
    from reference.tools import bench  # lazy: timing harness

    return int(bench.run(args))


def _prove(args: argparse.Namespace) -> int:
    from reference.tools import prove  # lazy: python-flint

    return prove.run_prove(args)


def _check(args: argparse.Namespace) -> int:
    from reference.tools import prove  # lazy: python-flint

    return prove.run_check(args)


def _vectors(args: argparse.Namespace) -> int:
    from reference.tools import vectors  # lazy: evaluates the whole table

    return vectors.run(args)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m reference",
                                 description="Reference implementation of DP accounting.")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("catalog", help="list the registered results and their tests")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_catalog)
    p = sub.add_parser("value", help="evaluate a registered result: ID name=value ...")
    p.add_argument("id")
    p.add_argument("params", nargs="*", metavar="name=value")
    p.add_argument("--dps", type=int, default=get_dps(), help="decimal digits (default 50)")
    p.add_argument("--certified", action="store_true", help="also print an enclosure")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_value)
    p = sub.add_parser("audit", help="decide the claims of a claims file (default: shipped)")
    p.add_argument("file", nargs="?", default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_audit)
    p = sub.add_parser("errata", help="the errors found in the sources, re-verified live")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_errata)
    p = sub.add_parser("experiment", help="reproduce an experiment of the sources")
    p.add_argument("name", choices=["relative-error"], help="RSWR23 §7: doubling vs Brownian "
                   "noise reduction on Zipf data")
    p.add_argument("--trials", type=int, default=1000, help="trials per sample size")
    p.add_argument("--out", default=".", help="folder for the figure (default: here)")
    p.add_argument("--seed", default="rswr23-sec7", help="label of the random streams")
    p.set_defaults(func=_experiment)
    p = sub.add_parser("conformance", help="judge other DP libraries against the oracle")
    p.add_argument("--library", default=None, help="only this library (default: all installed)")
    p.add_argument("--quick", action="store_true",
                   help="two DP-SGD cases instead of the 45-case DP-SGD grid (minutes)")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    p.add_argument("--out", default=None, help="folder for report.md and report.json")
    p.set_defaults(func=_conformance)
    p = sub.add_parser("bench", help="time bound evaluation and exact composition")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quick", action="store_true", help="smaller sizes (for tests)")
    p.add_argument("--out", default=None, help="also write the JSON to this file")
    p.add_argument("--results", action="store_true", help="instead: every result at its "
                   "example, each call from scratch, against its cost class's target")
    p.add_argument("--sweep", action="store_true", help="instead: certified calls at drawn "
                   "valid and extreme inputs, timed (needs the test extra; hours for all)")
    p.add_argument("ids", nargs="*", metavar="ID", help="with --sweep: only these results")
    p.add_argument("--draws", type=int, default=10, help="with --sweep: inputs a result")
    p.add_argument("--alarm", type=float, default=30.0,
                   help="with --sweep: stop a call after this many seconds")
    p.add_argument("--seed", type=int, default=None,
                   help="with --sweep: random draws from this seed (default: derandomised)")
    p.set_defaults(func=_bench)
    p = sub.add_parser("prove", help="prove the relations between results on their domains")
    p.add_argument("ids", nargs="*", metavar="ID", help="relations (default: all)")
    p.add_argument("--out", default=None, help="folder for the certificates (default: the "
                   "package's own)")
    p.add_argument("--time-limit", type=float, default=300.0,
                   help="seconds per relation (the slowest shipped proof takes about 80 s)")
    p.add_argument("--jobs", type=int, default=1,
                   help="relations proved at once, in separate processes (default: 1)")
    p.add_argument("--list", action="store_true", help="list the relations, prove nothing")
    p.set_defaults(func=_prove)
    p = sub.add_parser("check", help="re-verify proof certificates with python-flint")
    p.add_argument("files", nargs="*", metavar="CERT.json", help="default: the shipped ones")
    p.set_defaults(func=_check)
    p = sub.add_parser("vectors", help="write the JSON test vectors for other languages")
    p.add_argument("path", nargs="?", default=None, metavar="FILE",
                   help="default: vectors/vectors.json of the source checkout")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 if FILE is not what it would be regenerated as")
    p.set_defaults(func=_vectors)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DomainError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
