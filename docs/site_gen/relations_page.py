"""The generated page of the proved relations: each shipped certificate re-checked while the
site is built (python-flint), with its domain, boxes and time."""

from __future__ import annotations

import json
import time

from reference.results import relations
from reference.tools.prove import certificate_path, check_file

PAGE = "catalogue/relations.md"


def _esc(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def relations_markdown() -> str:
    rels = relations()
    lines = ["# Proved relations", "",
             f"The {len(rels)} relations between results that the prover proves on whole "
             "domains (`python -m reference prove`), each with a certificate shipped in "
             "`reference/results/certificates/`. Every certificate was re-verified by the "
             "independent checker (interval arithmetic with ends computed by python-flint's "
             "Arb, not mpmath) while this page was built; `python -m reference check` repeats "
             "it. A relation claims its margin positive on every point of its box; what the "
             "box leaves out, and why the claim still holds there or where it does not, is "
             "the 'cut' below.", "",
             "| relation | kind | domain | status | boxes | proof time | checked |",
             "|---|---|---|---|---|---|---|"]
    notes = ["", "## Statements and cuts", ""]
    for rid, rel in rels.items():
        path = certificate_path(rid)
        cert = json.loads(path.read_text())
        start = time.monotonic()
        _, leaves = check_file(path)
        took = time.monotonic() - start
        domain = ", ".join(f"{n} in [{lo}, {hi}]" for n, lo, hi in rel.domain)
        lines.append(f"| `{_esc(rid)}` | {rel.kind} | {_esc(domain)} | {cert['status']} | "
                     f"{leaves} | "
                     f"{cert['seconds']:.2f} s | accepted ({took:.2f} s) |")
        notes += [f"- `{_esc(rid)}` ({', '.join(rel.uses)}; {_esc(rel.source)}): "
                  f"{_esc(rel.statement)}. {'Strict' if rel.strict else 'Non-strict'}. "
                  f"Cut: {_esc(rel.cuts)}"]
    return "\n".join(lines + notes) + "\n"
