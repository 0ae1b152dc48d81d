"""The shipped relations: each has a certificate the independent checker accepts, the quick
ones are proved afresh, and what each claims is spot-checked at points by plain evaluation."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from reference.core.numeric import endpoints, working
from reference.core.prover import prove
from reference.core.relations import Relation
from reference.results import get, relations
from reference.tools.cli import main
from reference.tools.prove import CERTIFICATES, certificate_path, check_file

RELATIONS = relations()
#: Relations whose proof takes more than a few seconds (proved by ``prove``, re-checked here).
SLOW = {"LEC11:AdvComp<=RRUV16:Thm2.10", "RSWR23:Thm6-constant/printed>corrected",
        "RRUV16:Thm6.5-(11)/valid-by-Thm4.5", "RRUV16:Thm6.5-(12)>=Thm6.1",
        "CKS20:Cor13<=RSWR23:Lem2.3", "MIR17:RR-renyi<=BS16:Prop1.4",
        "MIR17:RR-renyi/increasing-alpha", "LEC11:Ex1/valid-under-the-condition",
        "BW18:Thm8-rho<=RSWR23:Lem2.3", "WRWR22:Thm3.6-mixture/decreasing-t",
        "KOV15:Thm3.3<=RRUV16:Thm2.10", "KOV15:Thm3.3<=LEC11:AdvComp",
        "KOV15:Thm3.3-delta/nonincreasing-eps_g", "RRUV16:Thm6.5-(12)/stated>proof-display",
        "BW18:Thm8-rho<=CKS20:Cor13", "MV16:Thm1.5<=KOV15:Thm3.5"}


def test_relations_are_well_formed() -> None:
    assert len(RELATIONS) >= 40
    for rel in RELATIONS.values():
        assert rel.statement and rel.source and rel.cuts, rel.id
        for rid in rel.uses:
            get(rid)                      # each names registered results
        assert rel.id.split(":", 1)[0] in {get(r).source for r in rel.uses}


def test_relation_domains_lie_in_the_results_domains() -> None:
    """A variable named like a parameter of a result the relation uses ranges inside the
    closure of that parameter's domain: a proof on a box the result refuses would prove
    nothing about it (a closed end where the result's is open is the formula's extension,
    e.g. a = b = 0 for the linear boundary)."""
    checked = 0
    for rel in RELATIONS.values():
        for rid in rel.uses:
            for p in get(rid).params:
                if p.name not in rel.names or p.kind not in ("real", "int"):
                    continue
                lo, hi = rel.box()[p.name]
                assert p.lo is None or lo >= p.lo, (rel.id, rid, p.name)
                assert p.hi is None or hi <= p.hi, (rel.id, rid, p.name)
                checked += 1
    assert checked >= 40


def test_every_certificate_file_belongs_to_a_relation() -> None:
    files = {p.name for p in CERTIFICATES.glob("*.json")}
    assert files == {certificate_path(rid).name for rid in RELATIONS}


@pytest.mark.parametrize("rid", sorted(RELATIONS))
def test_shipped_certificate_is_accepted(rid: str) -> None:
    path = certificate_path(rid)
    got, leaves = check_file(path)
    cert = json.loads(path.read_text())
    assert got == rid and leaves == cert["leaves"] >= 1 and cert["status"] == "proved"


@pytest.mark.parametrize("rid", sorted(set(RELATIONS) - SLOW))
def test_quick_relations_are_proved_afresh(rid: str) -> None:
    proof = prove(RELATIONS[rid], time_limit=120)
    assert proof.status == "proved", proof.undecided[:3] or proof.counterexample


def _point(draw: st.DrawFn, rel: Relation) -> dict[str, Fraction]:
    out = {}
    for name, lo, hi in rel.domain:
        if name in rel.integers:
            out[name] = Fraction(draw(st.integers(int(lo), int(hi)), label=name))
            continue
        u = draw(st.fractions(0, 1, max_denominator=10**6), label=name)
        if name in rel.log_scale:   # uniform in log scale
            with mpmath.workdps(40):
                ratio = mpmath.mpf((hi / lo).numerator) / (hi / lo).denominator
                x = mpmath.mpf(lo.numerator) / lo.denominator * \
                    ratio ** (mpmath.mpf(u.numerator) / u.denominator)
            q = Fraction(str(mpmath.nstr(x, 30)))
            out[name] = min(max(q, lo), hi)
        else:
            out[name] = lo + (hi - lo) * u
    return out


@st.composite
def relation_points(draw: st.DrawFn) -> tuple[Relation, dict[str, Fraction]]:
    rel = RELATIONS[draw(st.sampled_from(sorted(RELATIONS)))]
    return rel, _point(draw, rel)


@given(relation_points())
@example((RELATIONS["KOV15:Thm3.3-delta/nonincreasing-eps_g"],      # eps_g = k eps: a kink
          {"eps": Fraction(1, 2), "k": Fraction(3), "eps_g": Fraction(3, 2)}))
def test_margins_are_positive_at_points(case: tuple[Relation, dict[str, Fraction]]) -> None:
    """The proved claim, spot-checked: the margin evaluated with plain mpmath at 50 digits
    (a route that shares neither the prover's intervals nor the tracer) is positive (at a
    kink of max(x, 0), where a derivative is set-valued, its interval enclosure is)."""
    rel, point = case
    with mpmath.workdps(50):
        args: dict[str, Any] = {n: int(q) if n in rel.integers else
                                mpmath.mpf(q.numerator) / q.denominator
                                for n, q in point.items()}
        try:
            value = rel.margin(mpmath.mp, **args)
        except ValueError as err:
            # a derivative at a kink of max(x, 0), where its slope is the set [0, 1]: the
            # claim is that the margin's enclosure at the point is positive
            assert "no derivative at x = 0" in str(err)
            with working(mpmath.iv, 50):
                kink = {n: a if isinstance(a, int) else mpmath.iv.mpf(a) for n, a in args.items()}
                value = endpoints(rel.margin(mpmath.iv, **kink)).lo
        assert value > 0 if rel.strict else value >= 0


def test_cli_prove_and_check(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    rid = "RRUV16:Lem2.3-ii/corrected>printed"
    assert main(["prove", rid, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert rid in out and "proved" in out and "0 not proved" in out
    path = certificate_path(rid, tmp_path)
    assert main(["check", str(path)]) == 0
    assert "0 of 1 refused" in capsys.readouterr().out
    cert = json.loads(path.read_text())
    cert["domain"]["eps"][0] = "1/1000"
    path.write_text(json.dumps(cert))
    assert main(["check", str(path)]) == 1
    assert "REFUSED" in capsys.readouterr().out
    assert main(["prove", "--list"]) == 0
    assert rid in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no relation"):
        main(["prove", "NO:such"])


def test_cli_proves_in_worker_processes_and_reports_failures(
        tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--jobs 2``: two relations proved in worker processes, their certificates written
    and accepted, the lines in the order asked; a false relation and one that runs out of
    time are reported (the point and margin, the boxes left) with status 1 and no file."""
    from reference.core.relations import relation
    from reference.tools import prove as prove_tool

    rids = ["RRUV16:Lem2.3-ii/corrected>printed", "RSWR23:Sec7.2-EM<BS16:Prop1.4"]
    assert main(["prove", *rids, "--out", str(tmp_path), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.index(rids[0]) < out.index(rids[1]) and "0 not proved" in out
    for rid in rids:
        assert check_file(certificate_path(rid, tmp_path))[0] == rid
    wrong = relation("T:wrong", statement="s", kind="ordering", uses=(), source="s",
                     domain={"x": (-1, 1)})(lambda ctx, x: x)
    slow = relation("T:slow", statement="s", kind="ordering", uses=(), source="s",
                    domain={"x": (0, 1)})(lambda ctx, x: ctx.sqrt(x) + x - ctx.sqrt(x))
    monkeypatch.setattr(prove_tool, "_relations", lambda: {"T:wrong": wrong, "T:slow": slow})
    assert main(["prove", "--out", str(tmp_path), "--jobs", "2", "--time-limit", "1"]) == 1
    out = capsys.readouterr().out
    assert "T:wrong" in out and "fails at {'x': '0'} (margin in ['0', '0'])" in out
    assert "boxes undecided" in out and "x in [0, " in out and "2 not proved" in out
    assert not certificate_path("T:wrong", tmp_path).exists()
    with pytest.raises(SystemExit, match="--jobs must be at least 1"):
        main(["prove", "--jobs", "0"])
