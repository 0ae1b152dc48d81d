"""JSON test vectors: certified enclosures of the main results, for libraries without Python.

A library written in Rust, Java or Go cannot call the oracle, but it can read a file. This
module evaluates a small, explicit table of cases (:data:`CASES`: zCDP -> DP conversions,
the exact Gaussian curve, advanced and optimal composition, the DP-SGD RDP accountant) with
the same public path as ``python -m reference value ID ... --certified`` (the result's call
for the value, its ``certified`` evaluation for the enclosure, :mod:`reference.tools.render`
for the decimal strings, the enclosure's ends rounded outward) and writes them as one JSON
file, ``vectors/vectors.json`` at the top of the repository.

The file is formatted deterministically (sorted keys, ``indent=1``, one final newline), so
that regenerating it is byte-identical and ``python -m reference vectors --check`` can tell
a stale file by comparing text. ``docs/testing-your-library.md`` documents the schema and
what a library should conclude from ``lo`` and ``hi``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from reference.core.catalogue import SOURCES
from reference.core.certificates import Certificate
from reference.core.numeric import Interval, precision
from reference.results import get
from reference.tools.render import decimal_str, lower_str, primary, upper_str

#: Version of the file's schema; raise it when a key changes meaning or disappears.
FORMAT = 1
#: Working precision (decimal digits) of every evaluation, and the significant digits of the
#: decimal strings: well beyond a double's 17, so that a library's rounding error shows.
DPS = 30
#: The command that writes the file (recorded in it, and named by the stale-file message).
GENERATOR = "python -m reference vectors"
#: Distribution name, for the version recorded in the file.
DISTRIBUTION = "dp-reference"

#: The cases: (result id, parameters as the decimal strings a user would type). Kept cheap
#: (the two DP-SGD accountants take about 1.5 s each, the rest milliseconds) and spread
#: over each result's domain, including points next to its ends (rho = 0, delta = 1e-300,
#: delta = 1/2, eps < 0, q = 0 and q = 1).
CASES: tuple[tuple[str, dict[str, str]], ...] = (
    # zCDP -> (eps, delta)-DP
    ("CKS20:Cor13", {"rho": "1", "delta": "1e-6"}),
    ("CKS20:Cor13", {"rho": "1e-6", "delta": "1e-10"}),
    ("CKS20:Cor13", {"rho": "100", "delta": "1e-300"}),
    ("CKS20:Cor13", {"rho": "0", "delta": "0.5"}),
    ("CKS20:Cor13-delta", {"rho": "0.5", "eps": "3"}),
    ("CKS20:Cor13-delta", {"rho": "0.01", "eps": "1"}),
    ("CKS20:Cor13-delta", {"rho": "2", "eps": "0"}),
    ("RSWR23:Lem2.3", {"rho": "1.3527", "delta": "1e-6"}),
    ("RSWR23:Lem2.3", {"rho": "1e-12", "delta": "1e-300"}),
    ("RSWR23:Lem2.3", {"rho": "0", "delta": "0.5"}),
    ("RSWR23:Lem2.3-inverse", {"eps": "10", "delta": "1e-6"}),
    ("RSWR23:Lem2.3-inverse", {"eps": "0.1", "delta": "1e-10"}),
    ("BS16:Prop1.4", {"eps": "0.5"}),
    ("BS16:Prop1.4", {"eps": "1e-8"}),
    # the exact Gaussian curve (Balle-Wang)
    ("BW18:Thm8", {"sigma": "2", "eps": "1"}),
    ("BW18:Thm8", {"sigma": "0.5", "eps": "-1", "sensitivity": "1"}),
    ("BW18:Thm8", {"sigma": "10", "eps": "0.01", "sensitivity": "3"}),
    ("BW18:Thm8-eps", {"sigma": "2", "delta": "1e-5"}),
    ("BW18:Thm8-eps", {"sigma": "0.3", "delta": "1e-12", "sensitivity": "0.5"}),
    ("BW18:Thm8-eps", {"sigma": "10", "delta": "0.5"}),
    ("BW18:Thm8-rho", {"rho": "1", "eps": "2"}),
    ("BW18:Thm8-rho", {"rho": "1e-16", "eps": "0"}),
    ("BW18:Thm8-rho-eps", {"rho": "1", "delta": "1e-6"}),
    ("BW18:Thm8-rho-eps", {"rho": "0.01", "delta": "1e-10"}),
    # composition: optimal (KOV15), advanced (two forms)
    ("KOV15:Thm3.3-delta", {"eps": "0.1", "k": "10", "eps_g": "0.5"}),
    ("KOV15:Thm3.3-delta", {"eps": "1", "k": "1", "eps_g": "0", "delta": "0.01"}),
    ("KOV15:Thm3.3-delta", {"eps": "0.01", "k": "1000", "eps_g": "0.2", "delta": "1e-8"}),
    ("KOV15:Thm3.3", {"eps": "0.001", "k": "500", "delta_g": "1e-6"}),
    ("KOV15:Thm3.3", {"eps": "0.1", "k": "20", "delta_g": "1e-5"}),
    ("RRUV16:Thm2.10", {"eps": "0.001", "k": "500", "delta_hat": "1e-6"}),
    ("RRUV16:Thm2.10", {"eps": "1", "k": "1", "delta_hat": "0.5", "delta": "1e-3"}),
    ("LEC11:AdvComp", {"eps": "0.001", "k": "500", "delta_prime": "1e-6"}),
    ("LEC11:AdvComp", {"eps": "0.5", "k": "100", "delta_prime": "1e-9"}),
    # Renyi DP: randomized response, the sampled Gaussian, the DP-SGD accountant
    ("MIR17:RR-renyi", {"eps": "1", "alpha": "2"}),
    ("MIR17:RR-renyi", {"eps": "0.1", "alpha": "100"}),
    ("MIR17:RR-renyi", {"eps": "5", "alpha": "1.5"}),
    ("MTZ19:rdp", {"q": "0.01", "sigma": "1", "alpha": "8"}),
    ("MTZ19:rdp", {"q": "0.01", "sigma": "1", "alpha": "2.5"}),
    ("MTZ19:rdp", {"q": "0.1", "sigma": "0.8", "alpha": "32"}),
    ("MTZ19:rdp", {"q": "1", "sigma": "2", "alpha": "2"}),
    ("MTZ19:rdp", {"q": "0", "sigma": "1", "alpha": "10"}),
    ("DPSGD:eps-rdp", {"q": "0.01", "sigma": "1", "steps": "10000", "delta": "1e-5"}),
    ("DPSGD:delta-rdp", {"q": "0.02", "sigma": "2", "steps": "100", "eps": "1"}),
    ("DPSGD:eps", {"q": "0.01", "sigma": "1", "steps": "100", "delta": "1e-5"}),
    ("DPSGD:delta", {"q": "0.1", "sigma": "1", "steps": "10", "eps": "0.5"}),
    ("DPSGD:eps-wor", {"q": "0.01", "sigma": "2", "steps": "100", "delta": "1e-5"}),
    ("DPSGD:delta-wor", {"q": "0.1", "sigma": "2", "steps": "10", "eps": "1"}),
)

def package_version() -> str:
    """The installed distribution's version (``unknown`` when it is not installed)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def vector(rid: str, params: Mapping[str, str], dps: int = DPS,
           version: str | None = None) -> dict[str, Any]:
    """One vector: the result ``rid`` at ``params``, its value and certified ``[lo, hi]``.

    The evaluation is that of ``python -m reference value ... --certified --json``: the
    primary output (the first of several named outputs; the certified point of an
    inverse), and the enclosure of that output (for an inverse, the bracket of the exact
    inverse) with its lower end rounded down and its upper end rounded up to ``dps``
    significant digits, so the decimal strings still enclose the exact value.
    """
    res = get(rid)
    with precision(dps):
        out = res(**params)
        enc = res.certified(**params)
    first = enc[0] if isinstance(enc, tuple) else enc
    if not isinstance(first, Interval):
        raise TypeError(f"{rid} has no numeric output")
    if isinstance(out, Certificate):
        output = out.unknown
    elif isinstance(out, tuple) and hasattr(out, "_fields"):
        output = str(out._fields[0])
    else:
        output = res.output
    return {"id": res.id, "params": dict(params), "output": output,
            "value": decimal_str(primary(out), dps),
            "lo": lower_str(first.lo, dps), "hi": upper_str(first.hi, dps), "dps": dps,
            "version": package_version() if version is None else version,
            "kind": res.kind, "status": res.status, "title": res.title,
            "source": res.source, "citation": SOURCES[res.source]}


def generate(cases: Sequence[tuple[str, Mapping[str, str]]] = CASES) -> dict[str, Any]:
    """The whole document: format, generator, version and the vectors of ``cases``."""
    version = package_version()
    return {"format": FORMAT, "generator": GENERATOR, "version": version,
            "vectors": [vector(rid, params, DPS, version) for rid, params in cases]}


def dumps(doc: Mapping[str, Any]) -> str:
    """The file's text: sorted keys, ``indent=1``, UTF-8 as is, one final newline."""
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def default_path() -> Path | None:
    """``vectors/vectors.json`` of the source checkout this package runs from, or ``None``
    for an installed copy (which has no repository around it: pass a path)."""
    top = Path(__file__).resolve().parents[2]
    return top / "vectors" / "vectors.json" if (top / "pyproject.toml").is_file() else None


def _label(v: Mapping[str, Any]) -> str:
    params = " ".join(f"{k}={x}" for k, x in v.get("params", {}).items())
    return f"{v.get('id')} {params}".strip()


def staleness(path: Path, fresh: str) -> str | None:
    """Why the file at ``path`` differs from the regenerated text ``fresh`` (None: current)."""
    try:
        shipped = path.read_text(encoding="utf-8")
    except OSError as err:
        return f"{path} cannot be read ({err.strerror})"
    if shipped == fresh:
        return None
    try:
        old = json.loads(shipped)
    except json.JSONDecodeError as err:
        return f"{path} is not valid JSON ({err.msg}, line {err.lineno})"
    new = json.loads(fresh)
    if not isinstance(old, dict) or not isinstance(old.get("vectors"), list):
        return f"{path} is not a vectors file (no list under 'vectors')"
    head = [k for k in sorted(set(old) | set(new)) if k != "vectors" and old.get(k) != new.get(k)]
    if head:
        return f"{path} differs in {', '.join(head)}"
    olds = {_label(v): v for v in old["vectors"] if isinstance(v, dict)}
    news = {_label(v): v for v in new["vectors"]}
    changed = [k for k in news if k in olds and olds[k] != news[k]]
    missing = [k for k in news if k not in olds]
    extra = [k for k in olds if k not in news]
    parts = [f"{len(xs)} {what} (first: {xs[0]})" for xs, what in
             ((changed, "changed"), (missing, "missing"), (extra, "not in the table"))
             if xs]
    return f"{path} differs: " + ("; ".join(parts) if parts else "in order or formatting")


def run(args: argparse.Namespace) -> int:
    """``python -m reference vectors [PATH] [--check]``: write the file, or check it."""
    path = Path(args.path) if args.path else default_path()
    if path is None:
        print("error: no source checkout around this package; give the file's path",
              file=sys.stderr)
        return 2
    fresh = dumps(generate())
    if args.check:
        why = staleness(path, fresh)
        if why is not None:
            command = GENERATOR + (f" {args.path}" if args.path else "")
            print(f"error: the test vectors are not current: {why}. Regenerate them with "
                  f"`{command}`.", file=sys.stderr)
            return 1
        print(f"{path}: {len(CASES)} vectors, current")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fresh, encoding="utf-8")
    print(f"wrote {len(CASES)} vectors to {path}")
    return 0
