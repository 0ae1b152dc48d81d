"""``python -m reference prove`` and ``check``: proofs of the relations, and their certificates.

``prove [ID ...]`` proves relations (default: all) with :func:`reference.core.prover.prove`
(``--jobs N``: N at once, in worker processes) and writes one certificate per relation
into ``--out`` (default: the certificates shipped in the package,
``reference/results/certificates``); ``check [CERT.json ...]`` re-verifies
certificates (default: the shipped ones) with the independent checker
(:mod:`reference.core.proofcheck`, python-flint arb).  Both print one line per relation and
exit non-zero if anything is not proved (or a certificate is refused).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

from reference.core.proofcheck import CertificateError, check
from reference.core.prover import prove
from reference.core.relations import Relation

#: Where the certificates of the shipped relations live (package data).
CERTIFICATES = Path(__file__).resolve().parent.parent / "results" / "certificates"


_SIGNS = {"<=": "-le-", ">=": "-ge-", "<": "-lt-", ">": "-gt-", "/": "--", ":": "_"}


def certificate_path(rid: str, folder: Path = CERTIFICATES) -> Path:
    """The certificate file of relation ``rid`` in ``folder`` (a file-name-safe id).

    >>> certificate_path("LEC11:AdvComp<=RRUV16:Thm2.10").name
    'LEC11_AdvComp-le-RRUV16_Thm2.10.json'
    """
    name = re.sub("|".join(re.escape(k) for k in _SIGNS), lambda m: _SIGNS[m.group(0)], rid)
    return folder / (re.sub(r"[^A-Za-z0-9._-]+", "_", name) + ".json")


def _relations() -> dict[str, Relation]:
    from reference.results import relations

    return relations()


def _select(ids: list[str]) -> list[Relation]:
    known = _relations()
    missing = [i for i in ids if i not in known]
    if missing:
        raise SystemExit(f"error: no relation {', '.join(missing)} (see python -m reference "
                         "prove --list)")
    return [known[i] for i in ids] if ids else list(known.values())


def _prove_one(rid: str, time_limit: float) -> dict[str, Any]:
    """Prove one relation (by id: a worker process looks it up) and report the outcome
    as plain data (a relation's margin may be a closure, which does not pickle)."""
    proof = prove(_relations()[rid], time_limit=time_limit)
    return {"status": proof.status, "leaves": proof.leaves, "seconds": proof.seconds,
            "certificate": proof.certificate() if proof.status == "proved" else None,
            "counterexample": proof.counterexample,
            "undecided": [_box_text(b) for b in proof.undecided[:3]],
            "n_undecided": len(proof.undecided)}


def run_prove(args: argparse.Namespace) -> int:
    if args.list:
        for rel in _relations().values():
            print(f"{rel.id:55} {rel.kind:12} {rel.statement}")
        return 0
    if args.jobs < 1:
        raise SystemExit(f"error: --jobs must be at least 1, not {args.jobs}")
    out = Path(args.out) if args.out else CERTIFICATES
    out.mkdir(parents=True, exist_ok=True)
    failed, total = 0, time.monotonic()
    ids = [rel.id for rel in _select(args.ids)]
    limits = [args.time_limit] * len(ids)
    with contextlib.ExitStack() as stack:
        if args.jobs > 1 and len(ids) > 1:
            pool = stack.enter_context(ProcessPoolExecutor(min(args.jobs, len(ids))))
            outcomes: Iterable[dict[str, Any]] = pool.map(_prove_one, ids, limits)
        else:
            outcomes = map(_prove_one, ids, limits)
        for rid, got in zip(ids, outcomes, strict=True):
            line = f"{rid:55} {got['status']:9} {got['leaves']:6} boxes {got['seconds']:7.2f} s"
            if got["certificate"] is not None:
                certificate_path(rid, out).write_text(json.dumps(got["certificate"], indent=1)
                                                      + "\n")
            else:
                failed += 1
                ce = got["counterexample"]
                if ce is not None:
                    line += f"  fails at {ce['point']} (margin in {ce['margin']}), box " \
                            f"{ce['box']}"
                else:
                    more = " (the first three)" if got["n_undecided"] > 3 else ""
                    line += (f"  {got['n_undecided']} boxes undecided{more}: "
                             f"{'; '.join(got['undecided'])}")
            print(line, flush=True)
    print(f"{failed} not proved; {time.monotonic() - total:.1f} s in all")
    return 1 if failed else 0


def _box_text(box: dict[str, tuple[Fraction, Fraction]]) -> str:
    """``eps in [1/8, 1/4], delta in [...]``: a box as exact ranges, with decimals."""
    return ", ".join(f"{n} in [{lo}, {hi}] (~[{float(lo):.6g}, {float(hi):.6g}])"
                     for n, (lo, hi) in box.items())


def check_file(path: Path) -> tuple[str, int]:
    """Re-verify one certificate file: its relation id and leaf count, or CertificateError."""
    cert: dict[str, Any] = json.loads(path.read_text())
    rel = _relations().get(str(cert.get("relation")))
    if rel is None:
        raise CertificateError(f"{path}: no relation {cert.get('relation')!r}")
    return rel.id, check(cert, rel)


def run_check(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.files] or [certificate_path(r) for r in _relations()]
    failed = 0
    for path in paths:
        start = time.monotonic()
        try:
            if not path.exists():
                raise CertificateError(f"{path}: no certificate (run python -m reference prove)")
            rid, leaves = check_file(path)
            print(f"{rid:55} accepted  {leaves:6} boxes {time.monotonic() - start:6.2f} s")
        except CertificateError as err:
            failed += 1
            print(f"REFUSED  {err}")
    print(f"{failed} of {len(paths)} refused")
    return 1 if failed else 0
