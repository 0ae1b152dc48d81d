"""Mutants of the real code for the statistical tests' power checks.

A power check shows that a statistical test can fail: it runs the same harness on a
deliberately wrong variant and requires the test to reject it.  The wrong variant is a
mutant of the code the test guards, planted by the project's mutation tool
(:mod:`reference.tools.mutate`), not a formula written again by hand: :func:`mutant` finds
the one mutant of a module whose original and mutated text are given, checks it is unique,
and returns the module with that fault planted (a fresh module object; the real one is
untouched).  When the guarded code changes so that the mutant no longer exists, the power
check fails loudly instead of silently testing something else.
"""

from __future__ import annotations

import importlib
import sys
import types
from functools import lru_cache
from pathlib import Path

from reference.tools.mutate import ROOT, Mutant, mutants, mutated_source


@lru_cache(maxsize=32)
def _sites(rel: str, source: str) -> tuple[Mutant, ...]:
    """The tool's mutants of one version of a module (cached: several checks share one)."""
    return tuple(mutants(rel, source))


def find(module: str, original: str, mutated: str, line: int | None = None) -> Mutant:
    """The unique mutant of ``module`` (dotted name) turning ``original`` into ``mutated``.

    ``original`` and ``mutated`` are the tool's texts (the changed expression, as in
    ``docs/mutation-report.md``); ``line`` narrows the search when the same text occurs twice.
    """
    path = Path(importlib.import_module(module).__file__ or "")
    rel = str(path.resolve().relative_to(ROOT))
    sites = _sites(rel, path.read_text())
    found = [m for m in sites
             if m.original == original and m.mutated == mutated
             and (line is None or m.line == line)]
    if len(found) != 1:
        candidates = sorted({(m.line, m.original) for m in sites if original in m.original})
        raise LookupError(f"{len(found)} mutants of {module} turn {original!r} into "
                          f"{mutated!r} (line {line}); sites with that text: {candidates}")
    return found[0]


def line_in(module: str, function: str, text: str) -> int:
    """The line of ``module`` (dotted name) where ``text`` first occurs in the body of the
    top-level ``def function``: a mutant's site that follows the code when lines move."""
    path = Path(importlib.import_module(module).__file__ or "")
    lines = path.read_text().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {function}("))
    for i in range(start, len(lines)):
        if i > start and lines[i].startswith(("def ", "class ", "@")):
            break
        if text in lines[i]:
            return i + 1
    raise LookupError(f"{text!r} is not in {module}.{function}")


def mutant(module: str, original: str, mutated: str, line: int | None = None) -> types.ModuleType:
    """``module`` with one fault planted: see :func:`find`.  Returns a new module object.

    >>> from fractions import Fraction
    >>> from mpmath import mp
    >>> from reference.core.numeric import compare
    >>> wrong = mutant("reference.core.numeric", "sx == 0", "sx != 0")
    >>> compare(mp.mpf(1), Fraction(2)), wrong.compare(mp.mpf(1), Fraction(2))
    (-1, 0)
    """
    m = find(module, original, mutated, line)
    real = importlib.import_module(module)
    name = f"{module}__mutant_{m.site}_{m.choice}"
    planted = types.ModuleType(name)
    planted.__file__ = real.__file__
    planted.__package__ = real.__package__
    sys.modules[name] = planted  # dataclasses and typing look the module up by name
    source = mutated_source(Path(real.__file__ or "").read_text(), m)
    exec(compile(source, f"<mutant {m.line}: {m.original} -> {m.mutated}>", "exec"),
         planted.__dict__)
    return planted


def line_with(module: str, text: str) -> int:
    """The first line of ``module`` (dotted name) holding ``text`` anywhere (a class body,
    say, where :func:`line_in` does not look)."""
    path = Path(importlib.import_module(module).__file__ or "")
    for i, line in enumerate(path.read_text().split("\n")):
        if text in line:
            return i + 1
    raise LookupError(f"{text!r} is not in {module}")
