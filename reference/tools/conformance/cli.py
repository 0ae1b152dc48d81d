"""``python -m reference conformance [--library NAME] [--quick] [--json] [--out DIR]``.

``--quick`` runs two DP-SGD cases instead of the 45-case DP-SGD grid (which takes
minutes: each case's certified bracket costs 3-40 s).

Without ``--out`` the markdown report (or, with ``--json``, the JSON) is printed; with
``--out DIR`` both ``DIR/report.md`` and ``DIR/report.json`` are written and a one-line
summary is printed.  Exit status: 0 when the harness ran, whatever it found (an
``UNSOUND`` verdict is a result about another library, not a failure of this command;
scripts read ``counts`` in the JSON); 2 for an unknown ``--library`` or an unwritable
``--out``; an internal error of the harness propagates as a traceback (status 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reference.tools.conformance.adapters import ADAPTERS, by_name
from reference.tools.conformance.harness import run as run_harness
from reference.tools.conformance.report import as_json, markdown


def command_line(args: argparse.Namespace) -> str:
    """The command as a user would type it."""
    parts = ["python -m reference conformance"]
    if args.library:
        parts.append(f"--library {args.library}")
    if getattr(args, "quick", False):
        parts.append("--quick")
    if args.json:
        parts.append("--json")
    if args.out:
        parts.append("--out DIR")
    return " ".join(parts)


def run(args: argparse.Namespace) -> int:
    """Entry point wired in ``reference/cli.py`` (``args.library``, ``.json``, ``.out``)."""
    library = getattr(args, "library", None)
    try:
        adapters = [by_name(library)] if library else list(ADAPTERS)
    except KeyError as err:
        print(f"error: {err.args[0]}", file=sys.stderr)
        return 2
    command = command_line(args)
    result = run_harness(adapters, quick=bool(getattr(args, "quick", False)))
    text = markdown(result, command)
    data = as_json(result, command)
    out = getattr(args, "out", None)
    if out:
        folder = Path(out)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "report.md").write_text(text, encoding="utf-8")
            (folder / "report.json").write_text(json.dumps(data, indent=2, ensure_ascii=False)
                                                + "\n", encoding="utf-8")
        except OSError as err:
            print(f"error: cannot write the report to {folder}: {err}", file=sys.stderr)
            return 2
        counts = ", ".join(f"{k} {v}" for k, v in data["counts"].items() if v)
        print(f"wrote {folder / 'report.md'} and {folder / 'report.json'} ({counts})")
        return 0
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(text, end="")
    return 0
