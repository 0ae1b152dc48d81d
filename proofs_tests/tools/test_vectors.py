"""The JSON test vectors (``vectors/vectors.json``, ``python -m reference vectors``).

* the shipped file is what the generator writes now (byte for byte);
* every vector's ``[lo, hi]`` contains an independent evaluation: the plain mpmath path at
  80 digits for all of them, and for the closed forms a formula written here and evaluated
  in python-flint's arb at 400 bits (for an inverse, the forward formula proves the bracket:
  the exact inverse lies between ``lo`` and ``hi``); the CKS20 infima by a golden-section
  search over the order written here;
* ``lo`` and ``hi`` are the enclosure rounded outward, by at most one unit of the last digit;
* the schema of format 1, stated here, not imported from the generator;
* ``--check`` reports a tampered or missing file with exit status 1, a current one with 0.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import flint
import mpmath
import pytest

from proofs_tests.arb_support import arb_ends, arb_q, frac
from reference.core.catalogue import SOURCES
from reference.core.numeric import precision
from reference.results import get
from reference.tools import cli, vectors
from reference.tools.render import primary

SHIPPED = Path(__file__).resolve().parents[2] / "vectors" / "vectors.json"
BITS = 400

# The schema of format 1 (docs/testing-your-library.md): key -> JSON type.
TOP = {"format": int, "generator": str, "version": str, "vectors": list}
VECTOR = {"id": str, "params": dict, "output": str, "value": str, "lo": str, "hi": str,
          "dps": int, "version": str, "kind": str, "status": str, "title": str, "source": str,
          "citation": str}


@pytest.fixture(scope="module")
def fresh() -> str:
    """The file as the generator writes it now (about 4 s: the two DP-SGD cases dominate)."""
    return vectors.dumps(vectors.generate())


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return doc


@pytest.fixture
def arb_prec() -> Iterator[None]:
    old = flint.ctx.prec
    flint.ctx.prec = BITS
    try:
        yield
    finally:
        flint.ctx.prec = old


def q(s: str) -> Fraction:
    return Fraction(s)


def a(s: str) -> flint.arb:
    return arb_q(Fraction(s))


# ---- (a) the shipped file is current --------------------------------------------------------

def test_shipped_file_is_current(fresh: str) -> None:
    assert vectors.default_path() == SHIPPED
    assert SHIPPED.read_text(encoding="utf-8") == fresh, (
        "vectors/vectors.json is stale: run python -m reference vectors")
    assert vectors.staleness(SHIPPED, fresh) is None


def test_the_file_has_one_vector_per_case(shipped: dict[str, Any]) -> None:
    got = [(v["id"], v["params"]) for v in shipped["vectors"]]
    assert got == [(rid, params) for rid, params in vectors.CASES]
    assert len(got) == len({(rid, tuple(sorted(p.items()))) for rid, p in got})  # no repeats
    assert {"CKS20:Cor13", "BW18:Thm8", "KOV15:Thm3.3", "DPSGD:eps-rdp", "MTZ19:rdp"} <= {
        rid for rid, _ in got}


# ---- (d) schema -----------------------------------------------------------------------------

def test_schema(shipped: dict[str, Any]) -> None:
    assert set(shipped) == set(TOP)
    for key, typ in TOP.items():
        assert type(shipped[key]) is typ, key
    assert shipped["format"] == 1 and shipped["generator"] == "python -m reference vectors"
    for v in shipped["vectors"]:
        assert set(v) == set(VECTOR), v.get("id")
        for key, typ in VECTOR.items():
            assert type(v[key]) is typ, (v["id"], key)
        res = get(v["id"])
        assert v["id"] == res.id and v["version"] == shipped["version"]
        assert all(isinstance(x, str) for x in v["params"].values())
        res.bind((), v["params"])                      # the parameters are in the domain
        assert (v["kind"], v["status"], v["title"]) == (res.kind, res.status, res.title)
        assert v["source"] == v["id"].split(":")[0] and v["citation"] == SOURCES[v["source"]]
        lo, value, hi = q(v["lo"]), q(v["value"]), q(v["hi"])   # finite decimals
        assert lo <= value <= hi, v["id"]
        assert v["dps"] == 30
        if v["id"] in ("DPSGD:eps", "DPSGD:delta"):  # brackets of exact quantities (about 1%
            assert hi - lo <= Fraction(1, 10) * hi, v["id"]  # in eps, 6% in delta here)
        elif v["id"] in ("DPSGD:eps-wor", "DPSGD:delta-wor"):  # between two pairs' values:
            assert lo < hi <= Fraction(3, 2) * lo, v["id"]     # the gap is the theory's
        else:
            assert hi - lo <= Fraction(1, 10**20) * max(abs(lo), abs(hi)), v["id"]


# ---- (c) outward rounding -------------------------------------------------------------------

def test_lo_and_hi_are_the_enclosure_rounded_outward(shipped: dict[str, Any]) -> None:
    for v in shipped["vectors"]:
        res = get(v["id"])
        with precision(v["dps"]):
            enc = res.certified(**v["params"])
        first = enc[0] if isinstance(enc, tuple) else enc
        lo, hi = frac(first.lo), frac(first.hi)
        assert q(v["lo"]) <= lo and q(v["hi"]) >= hi, v["id"]
        for end, printed in ((lo, q(v["lo"])), (hi, q(v["hi"]))):  # one unit in the 30th digit
            if end:
                unit = Fraction(10) ** (math.floor(math.log10(abs(end))) - v["dps"] + 1)
                assert abs(printed - end) < unit, (v["id"], v["lo"], v["hi"])
            else:
                assert printed == 0


# ---- (b) independent evaluations lie inside [lo, hi] ----------------------------------------

def test_plain_value_at_80_digits_is_inside(shipped: dict[str, Any]) -> None:
    for v in shipped["vectors"]:
        with precision(80):
            x = primary(get(v["id"])(**v["params"]))
        assert q(v["lo"]) <= frac(x) <= q(v["hi"]), (v["id"], v["params"], x)


def _phi(x: flint.arb) -> flint.arb:
    return (-x / flint.arb(2).sqrt()).erfc() / 2


def _gauss_delta(sigma: flint.arb, eps: flint.arb, sens: flint.arb) -> flint.arb:
    """Balle-Wang: Phi(D/(2s) - e s/D) - e^e Phi(-D/(2s) - e s/D)."""
    return _phi(sens / (2 * sigma) - eps * sigma / sens) - eps.exp() * _phi(
        -sens / (2 * sigma) - eps * sigma / sens)


def _gauss_delta_rho(rho: flint.arb, eps: flint.arb) -> flint.arb:
    """The same curve as a function of rho: sigma = 1 / sqrt(2 rho), sensitivity 1."""
    return _gauss_delta(1 / (2 * rho).sqrt(), eps, flint.arb(1))


def _kov_delta(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction) -> flint.arb:
    """KOV15 Thm 3.3; the sign of each term decided exactly: positive iff eps (k - 2j) > eps_g."""
    e = arb_q(eps).exp()
    p, r = e / (1 + e), 1 / (1 + e)
    total = flint.arb(0)
    for j in range(k + 1):
        if eps * (k - 2 * j) > eps_g:
            total += math.comb(k, j) * (p ** (k - j) * r**j - arb_q(eps_g).exp() * p**j
                                        * r ** (k - j))
    keep = (1 - arb_q(delta)) ** k
    return 1 - keep + keep * total


def _sgm_rdp(qq: flint.arb, sigma: flint.arb, alpha: int) -> flint.arb:
    """MTZ19 at an integer order, by the binomial expansion of E[(1 - q + q e^{(2z-1)/2s^2})^a]:
    sum_j C(a, j) (1-q)^(a-j) q^j e^{j(j-1)/(2 s^2)}."""
    s = sum((math.comb(alpha, j) * (1 - qq) ** (alpha - j) * qq**j
             * (flint.arb(j * (j - 1)) / (2 * sigma**2)).exp() for j in range(alpha + 1)),
            flint.arb(0))
    return s.log() / (alpha - 1)


def _rr_renyi(eps: flint.arb, alpha: flint.arb) -> flint.arb:
    p = eps.exp() / (1 + eps.exp())
    r = 1 - p
    return ((alpha * p.log() + (1 - alpha) * r.log()).exp()
            + (alpha * r.log() + (1 - alpha) * p.log()).exp()).log() / (alpha - 1)


def _closed(v: dict[str, Any]) -> flint.arb | None:
    """The closed form of ``v``'s result at its parameters, in arb (None: no closed form)."""
    p = {k: a(x) for k, x in v["params"].items()}
    one = flint.arb(1)
    match v["id"]:
        case "RSWR23:Lem2.3":                       # Bun-Steinke: rho + 2 sqrt(rho ln(1/delta))
            return p["rho"] + 2 * (p["rho"] * (1 / p["delta"]).log()).sqrt()
        case "RSWR23:Lem2.3-inverse":
            ln = (1 / p["delta"]).log()
            return ((ln + p["eps"]).sqrt() - ln.sqrt()) ** 2
        case "BS16:Prop1.4":
            return p["eps"] ** 2 / 2
        case "BW18:Thm8":
            return _gauss_delta(p["sigma"], p["eps"], p.get("sensitivity", one))
        case "BW18:Thm8-rho":
            return _gauss_delta_rho(p["rho"], p["eps"])
        case "KOV15:Thm3.3-delta":
            return _kov_delta(q(v["params"]["eps"]), int(v["params"]["k"]),
                              q(v["params"]["eps_g"]), q(v["params"].get("delta", "0")))
        case "RRUV16:Thm2.10":
            k, e = p["k"], p["eps"]
            return e * (e.exp() - 1) * k + e * (2 * k * (1 / p["delta_hat"]).log()).sqrt()
        case "LEC11:AdvComp":
            k, e = p["k"], p["eps"]
            return (e * (2 * k * (1 / p["delta_prime"]).log()).sqrt()
                    + k * e * (e.exp() - 1) / (e.exp() + 1))
        case "MIR17:RR-renyi":
            return _rr_renyi(p["eps"], p["alpha"])
        case "MTZ19:rdp" if q(v["params"]["alpha"]).denominator == 1:
            return _sgm_rdp(p["q"], p["sigma"], int(v["params"]["alpha"]))
    return None


#: Inverses: the forward formula (decreasing in the unknown) and the target it must meet.
FORWARD: dict[str, Callable[[dict[str, str], flint.arb], tuple[flint.arb, Fraction]]] = {
    "BW18:Thm8-eps": lambda p, x: (_gauss_delta(a(p["sigma"]), x, a(p.get("sensitivity", "1"))),
                                   q(p["delta"])),
    "BW18:Thm8-rho-eps": lambda p, x: (_gauss_delta_rho(a(p["rho"]), x), q(p["delta"])),
    "KOV15:Thm3.3": lambda p, x: (_kov_delta(q(p["eps"]), int(p["k"]), arb_ends(x)[0],
                                             q(p.get("delta", "0"))), q(p["delta_g"])),
}


def test_closed_forms_lie_inside(shipped: dict[str, Any], arb_prec: None) -> None:
    checked = set()
    for v in shipped["vectors"]:
        ball = _closed(v)
        if ball is None:
            continue
        lo, hi = q(v["lo"]), q(v["hi"])
        b_lo, b_hi = arb_ends(ball)
        assert b_hi - b_lo <= Fraction(1, 10**60) * (abs(b_lo) + 1), (v["id"], ball)  # tight
        assert b_lo <= hi and b_hi >= lo, (v["id"], v["params"], ball, v["lo"], v["hi"])
        checked.add(v["id"])
    assert checked == {"RSWR23:Lem2.3", "RSWR23:Lem2.3-inverse", "BS16:Prop1.4", "BW18:Thm8",
                       "BW18:Thm8-rho", "KOV15:Thm3.3-delta", "RRUV16:Thm2.10",
                       "LEC11:AdvComp", "MIR17:RR-renyi", "MTZ19:rdp"}


def test_inverse_brackets_are_proved_by_the_forward_formula(shipped: dict[str, Any],
                                                            arb_prec: None) -> None:
    """The exact inverse is the least x >= 0 with forward(x) <= target, forward decreasing:
    it lies in [lo, hi] iff forward(hi) <= target and (lo = 0 or forward(lo) > target)."""
    checked = 0
    for v in shipped["vectors"]:
        if v["id"] not in FORWARD:
            continue
        at_hi, target = FORWARD[v["id"]](v["params"], a(v["hi"]))
        assert arb_ends(at_hi)[1] <= target, (v["id"], v["params"], at_hi)
        if q(v["lo"]) != 0:
            at_lo, _ = FORWARD[v["id"]](v["params"], a(v["lo"]))
            assert arb_ends(at_lo)[0] > target, (v["id"], v["params"], at_lo)
        checked += 1
    assert checked == 7


def _golden_min(f: Callable[[Any], Any], lo: float, hi: float) -> Any:
    """Minimum of a unimodal ``f`` on [lo, hi] (mpmath numbers, 400 golden-section steps)."""
    g = (mpmath.sqrt(5) - 1) / 2
    x0, x1 = mpmath.mpf(lo), mpmath.mpf(hi)
    c, d = x1 - g * (x1 - x0), x0 + g * (x1 - x0)
    fc, fd = f(c), f(d)
    for _ in range(400):
        if fc < fd:
            x1, d, fd = d, c, fc
            c = x1 - g * (x1 - x0)
            fc = f(c)
        else:
            x0, c, fc = c, d, fd
            d = x0 + g * (x1 - x0)
            fd = f(d)
    return min(fc, fd)


def _mp(s: str) -> Any:
    """The decimal ``s`` as an mpmath number at the current precision."""
    x = q(s)
    return mpmath.mpf(x.numerator) / x.denominator


def test_cks20_infima_by_golden_section(shipped: dict[str, Any]) -> None:
    """CKS20 Cor. 13 is an infimum over the order a > 1; searched here over t = ln(a - 1)."""
    checked = 0
    with mpmath.workdps(60):
        for v in shipped["vectors"]:
            if not v["id"].startswith("CKS20:Cor13"):
                continue
            rho = _mp(v["params"]["rho"])
            if v["id"] == "CKS20:Cor13":
                ln_delta = mpmath.log(_mp(v["params"]["delta"]))

                def eps_at(t: Any, rho: Any = rho, ln_delta: Any = ln_delta) -> Any:
                    a_ = 1 + mpmath.exp(t)
                    return a_ * rho + mpmath.log(1 - 1 / a_) - (ln_delta + mpmath.log(a_)) / (
                        a_ - 1)

                exact = max(mpmath.mpf(0), _golden_min(eps_at, -40, 40))
            else:
                eps = _mp(v["params"]["eps"])

                def log_delta_at(t: Any, rho: Any = rho, eps: Any = eps) -> Any:
                    a_ = 1 + mpmath.exp(t)
                    return (a_ - 1) * (a_ * rho - eps) - t + a_ * mpmath.log(1 - 1 / a_)

                exact = min(mpmath.mpf(1), mpmath.exp(_golden_min(log_delta_at, -40, 40)))
            lo, hi = q(v["lo"]), q(v["hi"])
            tol = Fraction(1, 10**45) * (abs(hi) + Fraction(1, 10**300))
            assert lo - tol <= frac(exact) <= hi + tol, (v["id"], v["params"], exact)
            checked += 1
    assert checked == 7


# ---- (e) --check ----------------------------------------------------------------------------

def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def quick(fresh: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's regeneration replaced by the module's one (``fresh``), to save 4 s."""
    doc = json.loads(fresh)
    monkeypatch.setattr(vectors, "generate", lambda: doc)


def test_command_writes_a_current_file_and_check_accepts_it(quick: None, fresh: str,
                                                            tmp_path: Path) -> None:
    path = tmp_path / "sub" / "vectors.json"
    code, out, _ = _cli("vectors", str(path))
    assert code == 0 and "47 vectors" in out
    assert path.read_text(encoding="utf-8") == fresh
    code, out, err = _cli("vectors", str(path), "--check")
    assert (code, err) == (0, "") and "current" in out


def _tamper(text: str) -> dict[str, str]:
    doc = json.loads(text)
    one = json.loads(text)
    one["vectors"][5]["hi"] = one["vectors"][5]["lo"]
    dropped = json.loads(text)
    del dropped["vectors"][-1]
    older = json.loads(text)
    older["version"] = "0.0.1"
    return {"changed": vectors.dumps(one), "missing": vectors.dumps(dropped),
            "version": vectors.dumps(older), "reformatted": json.dumps(doc, indent=2),
            "broken": text[: len(text) // 2]}


def test_check_detects_a_tampered_file(quick: None, fresh: str, tmp_path: Path) -> None:
    expected = {"changed": "1 changed (first: CKS20:Cor13-delta", "missing": "1 missing",
                "version": "differs in version", "reformatted": "in order or formatting",
                "broken": "is not valid JSON"}
    for name, text in _tamper(fresh).items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        code, out, err = _cli("vectors", str(path), "--check")
        assert code == 1 and out == "", name
        assert "not current" in err and expected[name] in err, (name, err)
        assert f"python -m reference vectors {path}" in err
    code, _, err = _cli("vectors", str(tmp_path / "absent.json"), "--check")
    assert code == 1 and "cannot be read" in err
