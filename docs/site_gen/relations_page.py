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


#: Statements of the catalogue that no relation proves, and why (measured on a 2-core machine).
NOT_PROVED = [
    ("The inverses' defining equations (forward(inverse(x)) = x)",
     "the margin is exactly 0, which no box enclosure shows >= 0. What makes the root "
     "unique is proved where it is a closed form (RSWR23:Lem2.3 in rho, the budget in eps and "
     "delta, the exact Gaussian curve in eps and rho (BW18:Thm8-rho, from its derivatives "
     "after a cancellation derived by hand), the mixture boundary in t for "
     "WRWR22:Cor3.7-Gamma, CKS20's two order gaps in t, KOV15's exact delta in eps_g for "
     "k <= 200), and each returned value is certified at its point."),
    ("Exact composition (KOV15:Thm3.3) against the advanced-composition bounds for k > 10, "
     "and the heterogeneous exact composition (MV16:Thm1.5) for more than two mechanisms",
     "KOV15 is a sum of about k/2 terms, so k is an integer of the proof and each value is "
     "proved on its own: k = 1, ..., 10 is proved (KOV15:Thm3.3<=RRUV16:Thm2.10, "
     "KOV15:Thm3.3<=LEC11:AdvComp, 40-50 s each), and the boxes grow with k (against the "
     "Dwork-Rothblum-Vadhan bound, measured: 551 boxes in 14 s for k = 1-5, 1234 in 39 s for "
     "k = 1-10). For every k the cut proves it by hand (Hoeffding's inequality, the argument "
     "of Dwork-Rothblum-Vadhan's proof; tested at k up to 3000). MV16 against KOV15's "
     "three-way bound is proved for two mechanisms (MV16:Thm1.5<=KOV15:Thm3.5, eps_1 and "
     "eps_2 in [0, 10]); three epsilons were undecided after 400 s. For every k the same "
     "hand argument covers the third form of the bound; its second form rests on KOV15's "
     "proof."),
    ("Target-charging (CL23) monotonicities of the best q",
     "an optimisation (a linear program) over distributions of any size, not a closed form "
     "of bounded variables. The monotonicity in w = e^eps that CL23:Def2.1 and "
     "CL23:DefB.1 rely on is proved by hand in reference.results.tct.oracle: the "
     "constraints beta_0 <= w beta_1, beta_1 <= w beta_0 only relax as w grows, so the "
     "feasible set, and with it the best q, can only grow."),
    ("The errata with no relation of their own",
     "typos, proof steps, lost formulas and numeric claims, which `python -m reference "
     "errata` re-verifies at points. The printed/corrected pairs of closed forms have "
     "relations above (kinds erratum and threshold; CL23:Q1 and CL23:Q2 as orderings of the "
     "reconstructed forms). RRUV16:Lem3.3's halting sum is Lemma 2.3 (ii)'s constant term by "
     "term (RRUV16:Lem2.3-ii/corrected>printed); the constants of RRUV16:Thm5.1-proof and "
     "RSWR23:Thm6-eq10 differ by a factor 2."),
]


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
        domain = ", ".join(f"{n} in {{{lo}, ..., {hi}}}" if n in rel.integers
                           else f"{n} in [{lo}, {hi}]" for n, lo, hi in rel.domain)
        lines.append(f"| `{_esc(rid)}` | {rel.kind} | {_esc(domain)} | {cert['status']} | "
                     f"{leaves} | "
                     f"{cert['seconds']:.2f} s | accepted ({took:.2f} s) |")
        notes += [f"- `{_esc(rid)}` ({', '.join(rel.uses)}; {_esc(rel.source)}): "
                  f"{_esc(rel.statement)}. {'Strict' if rel.strict else 'Non-strict'}. "
                  f"Cut: {_esc(rel.cuts)}"]
    gaps = ["", "## Stated but not proved here", "",
            "Statements the catalogue makes that no relation above proves, and why:", ""]
    gaps += [f"- {_esc(what)}: {_esc(why)}" for what, why in NOT_PROVED]
    return "\n".join(lines + notes + gaps) + "\n"
