"""Mutation testing: small faults planted in one module at a time, each run against its tests.

``python -m reference.tools.mutate [MODULE ...] [--report docs/mutation-report.md]
[--jobs N] [--timeout-factor F] [--tests "PYTEST ARGS" ...]``

An ``ast`` mutator (mutmut would own the package layout and rewrite modules through
trampolines, which fights the ``mp``/``iv`` generic formulas and our test mapping).
Operators: comparison swaps and flips, arithmetic swaps, numeric constants, unary minus
and ``not`` removal, ``and``/``or``, ``min``/``max``, ``True``/``False``, negated
``if``/``while``/``x if c else y`` tests that are not comparisons.  Skipped: docstrings
and all strings, f-strings, annotations, ``raise`` statements and ``DomainError(...)``
(only a message would change), imports, bitwise ``|``/``&`` (type unions here).  Each
mutant goes (via ``ast.unparse``) into a per-worker copy of ``reference/`` and the tests;
pytest runs in a subprocess on the tests mapped to the module (:func:`mapped_tests`),
``-x -p no:cacheprovider``, under the Hypothesis profile ``mutation``: ``ci`` (same
derandomized examples) without shrinking or database, since one failure is enough.  A
mutant that fails import, a test, or the timeout (``--timeout-factor`` x baseline) is
killed.  Survivors listed in ``reference/tools/mutation_equivalent.toml`` (same module,
line, original and mutated text) are equivalent; any other makes the exit status 1.
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import importlib
import importlib.util
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT_FILE = Path(__file__).with_name("mutation_equivalent.toml")
COPIED = ("reference", "proofs_tests", "pyproject.toml")
STATUSES = ("killed", "error", "timeout", "equivalent", "survived")
_CONFTEST = """from hypothesis import HealthCheck, Phase, settings
settings.register_profile("mutation", max_examples=60, derandomize=True, deadline=None,
    database=None, suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate])
"""
DEFAULT_MODULES = tuple(f"reference/{m}.py" for m in (
    "core/numeric", "core/special", "core/params", "core/roots", "results/conversions/bs16",
    "results/conversions/bw18", "results/conversions/rswr23", "results/composition/lec11"))
#: Catalogue-wide tests run first for every core module (every result once, 4 s).
CATALOGUE_TESTS = ["proofs_tests/test_contract.py", "-k",
                   "test_example_inputs_evaluate_and_enclose or test_bad_input_gives_domain_error"]
#: Extra property tests for core modules used mainly by particular results.
CORE_EXTRA = {"special": ["proofs_tests/privacy_loss/test_lec11.py", "proofs_tests/composition"],
              "roots": [f"proofs_tests/conversions/test_{p}.py" for p in ("bw18", "cks20")]}

_CMP_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE), ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.LtE), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
_BIN_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div, ast.Pow: ast.Mult, ast.Mod: ast.FloorDiv,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift,
}


@dataclass(frozen=True)
class Mutant:
    """One planted fault: where (``site`` indexes the walk of the tree), what, and how shown."""
    module: str
    site: int
    choice: int
    line: int
    original: str
    mutated: str


def _set(field: str, make: Callable[[Any], object], index: int | None = None,
         ) -> Callable[[ast.AST], ast.AST]:
    def change(n: ast.AST) -> ast.AST:
        value = make(n)
        if index is None:
            setattr(n, field, value)
        else:
            getattr(n, field)[index] = value
        return n
    return change


def _fresh(cls: type[ast.AST]) -> Callable[[Any], object]:
    return lambda _: cls()


def _mutations(node: ast.AST) -> list[Callable[[ast.AST], ast.AST]]:
    """Ways to change ``node``; each returns the replacement (possibly ``node`` itself)."""
    out: list[Callable[[ast.AST], ast.AST]] = []
    if isinstance(node, ast.Compare):
        out += [_set("ops", _fresh(new), i) for i, op in enumerate(node.ops)
                for new in _CMP_SWAPS.get(type(op), ())]
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _BIN_SWAPS:
        out.append(_set("op", lambda n: _BIN_SWAPS[type(n.op)]()))
    elif isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        v = node.value
        out.append(lambda n: ast.Constant(not v if isinstance(v, bool) else type(v)(1) if v == 0
                                          else type(v)(0) if v == 1 else v + 1))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.Not):
        out.append(lambda n: n.operand if isinstance(n, ast.UnaryOp) else n)
    elif isinstance(node, ast.BoolOp):
        out.append(_set("op", lambda n: ast.Or() if isinstance(n.op, ast.And) else ast.And()))
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
          and node.func.id in ("min", "max")):
        out.append(_set("func", lambda n: ast.Name("max" if n.func.id == "min" else "min")))
    if (isinstance(node, ast.If | ast.While | ast.IfExp)  # a comparison is swapped above
            and not isinstance(node.test, ast.Compare | ast.BoolOp | ast.UnaryOp)):
        out.append(_set("test", lambda n: ast.UnaryOp(ast.Not(), n.test)))
    return out


def _sites(tree: ast.AST) -> Iterator[tuple[int, ast.AST]]:
    """Walk positions and nodes outside the skipped regions (see the module docstring)."""
    roots: list[ast.AST | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign):
            roots.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            roots.append(node.returns)
        if isinstance(node, ast.Raise | ast.JoinedStr | ast.Import | ast.ImportFrom) or (
                isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DomainError"):
            roots.append(node)
    skip = {id(n) for r in roots if r is not None for n in ast.walk(r)}
    for i, node in enumerate(ast.walk(tree)):
        if id(node) not in skip and hasattr(node, "lineno"):
            yield i, node


def _context(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST:
    """The node shown for a mutant: a constant is shown with its parent expression."""
    shown = node.test if isinstance(node, ast.If | ast.While) else node
    parent = parents.get(id(shown))
    return parent if isinstance(shown, ast.Constant) and isinstance(parent, ast.expr) else shown


def _plant(root: ast.AST, site: int, choice: int) -> ast.AST:
    """Plant mutation ``choice`` at walk position ``site`` of ``root`` (changed in place)."""
    target = list(ast.walk(root))[site]
    replacement = _mutations(target)[choice](target)
    if replacement is target:
        return root
    if target is root:
        return replacement
    for parent in ast.walk(root):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, replacement)
            elif isinstance(value, list):
                value[:] = [replacement if v is target else v for v in value]
    return root


def mutants(module: str, source: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``), in a deterministic order.

    >>> [(m.line, m.original, m.mutated) for m in mutants("m", "def f(x):\\n    return x < 2\\n")]
    [(2, 'x < 2', 'x <= 2'), (2, 'x < 2', 'x > 2'), (2, 'x < 2', 'x < 3')]
    """
    tree = ast.parse(source)
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    out = []
    for site, node in _sites(tree):
        shown = _context(node, parents)
        base = node if isinstance(node, ast.If | ast.While) else shown  # shown: its test
        inner = [n is node for n in ast.walk(base)].index(True)
        for choice, _ in enumerate(_mutations(node)):
            mutated = _plant(copy.deepcopy(base), inner, choice)
            if isinstance(node, ast.If | ast.While) and isinstance(mutated, ast.If | ast.While):
                mutated = mutated.test
            text = (ast.get_source_segment(source, shown) or "").splitlines()[0]
            out.append(Mutant(module, site, choice, getattr(node, "lineno", 0),
                              " ".join(text.split()), " ".join(ast.unparse(mutated).split())))
    return out


def mutated_source(source: str, m: Mutant) -> str:
    """The text of the module with ``m`` planted."""
    tree = _plant(ast.parse(source), m.site, m.choice)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def mapped_tests(module: str) -> list[list[str]]:
    """The pytest argument lists run against a mutant of ``module`` (all must pass).

    >>> mapped_tests("reference/results/conversions/bs16.py")[0][:1]
    ['proofs_tests/conversions/test_bs16.py']
    """
    path = Path(module)
    if path.parts[:2] == ("reference", "results"):
        topic, paper = path.parts[2], path.stem
        files = sorted(str(p.relative_to(ROOT))
                       for p in (ROOT / "proofs_tests" / topic).glob(f"test_{paper}*.py"))
        from reference.core.model import Result

        name = module.removesuffix(".py").replace("/", ".")
        ids = sorted({v.id for v in vars(importlib.import_module(name)).values()
                      if isinstance(v, Result) and v.core.__module__ == name})
        cmds = [files] if files else []
        if ids:
            cmds.append(["proofs_tests/test_contract.py", "-k", " or ".join(ids)])
        return cmds
    return [list(CATALOGUE_TESTS), ["proofs_tests/core/", *CORE_EXTRA.get(path.stem, [])]]


def _run(copy_root: Path, cmds: list[list[str]], timeout: float | None) -> str:
    """``killed``, ``error`` (collection or import broke), ``timeout`` or ``survived``."""
    env = {**os.environ, "PYTHONPATH": str(copy_root), "HYPOTHESIS_PROFILE": "mutation"}
    env.pop("CI", None)
    for args in cmds:
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args]
        try:
            proc = subprocess.run(cmd, cwd=copy_root, env=env, capture_output=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout"
        if proc.returncode in (2, 3, 4):   # interrupted / internal error / usage error
            return "error"
        if proc.returncode not in (0, 5):  # 5: nothing collected by this command
            return "killed"
    return "survived"


def _make_copy(root: Path, base: Path) -> Path:
    dest = Path(tempfile.mkdtemp(prefix="mutate-", dir=base))
    for name in COPIED:
        if (root / name).is_dir():
            shutil.copytree(root / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif (root / name).exists():
            shutil.copy2(root / name, dest / name)
    (dest / "conftest.py").write_text(_CONFTEST)
    return dest


def _write(path: Path, text: str) -> None:
    path.write_text(text)  # and drop the bytecode: same size and second would reuse it
    Path(importlib.util.cache_from_source(str(path))).unlink(missing_ok=True)


def run_module(module: str, cmds: list[list[str]], jobs: int = 1, factor: float = 3.0,
               root: Path = ROOT) -> tuple[list[tuple[Mutant, str]], float, float]:
    """Each mutant of ``module`` (a path under ``root``) with its status; the baseline
    seconds (unmutated tests) and the wall time."""
    source, start = (root / module).read_text(), time.monotonic()
    todo = mutants(module, source)
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for _ in range(max(1, jobs)):
            copies.put(_make_copy(root, Path(tmp)))
        status = _run(copies.queue[0], cmds, None)
        baseline = time.monotonic() - start
        if status != "survived":
            raise SystemExit(f"{module}: the unmutated tests do not pass ({status}): {cmds}")

        def one(i: int) -> tuple[Mutant, str]:
            path, m = copies.get(), todo[i]
            try:
                _write(path / module, mutated_source(source, m))
                status = _run(path, cmds, factor * baseline + 10)
                print(f"[{i + 1}/{len(todo)}] {status} {module}:{m.line}: {m.original} -> "
                      f"{m.mutated}", file=sys.stderr, flush=True)
                return m, status
            finally:
                _write(path / module, source)
                copies.put(path)

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            outcomes = list(pool.map(one, range(len(todo))))
    return outcomes, baseline, time.monotonic() - start


def load_equivalent(path: Path = EQUIVALENT_FILE) -> list[dict[str, object]]:
    """``[[equivalent]]`` tables: module, line, original, mutated (as shown) and reason."""
    return list(tomllib.loads(path.read_text()).get("equivalent", []) if path.exists() else [])


@dataclass
class Summary:
    """What one run of one module found (also the record kept in the report)."""
    module: str
    counts: dict[str, int]
    survivors: list[dict[str, object]]
    baseline: float
    wall: float
    tests: list[str]
    date: str

    @property
    def score(self) -> float:
        judged = sum(self.counts.values()) - self.counts["equivalent"]
        caught = judged - self.counts["survived"]
        return caught / judged if judged else 1.0

    def row(self) -> str:
        c = self.counts
        return (f"| `{self.module}` | {self.date} | {sum(c.values())} | "
                + " | ".join(str(c[k]) for k in STATUSES)
                + f" | {self.score:.1%} | {self.baseline:.1f} s | {self.wall:.0f} s |")

    def lines(self) -> list[str]:
        return [f"- {'equivalent' if s['equivalent'] else '**survived**'} line {s['line']}: "
                f"`{s['original']}` -> `{s['mutated']}`" for s in self.survivors]


def summarise(module: str, outcomes: list[tuple[Mutant, str]],
              equivalent: list[dict[str, object]], baseline: float, wall: float,
              cmds: list[list[str]]) -> Summary:
    counts = dict.fromkeys(STATUSES, 0)
    survivors: list[dict[str, object]] = []
    for m, status in outcomes:
        if status == "survived":
            listed = any((e.get("module"), e.get("line"), e.get("original"), e.get("mutated"))
                         == (m.module, m.line, m.original, m.mutated) for e in equivalent)
            status = "equivalent" if listed else "survived"
            survivors.append({"line": m.line, "original": m.original,
                              "mutated": m.mutated, "equivalent": listed})
        counts[status] += 1
    return Summary(module, counts, survivors, baseline, wall, [shlex.join(c) for c in cmds],
                   time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))


_DATA = "<!-- mutation-data "
_INTRO = """# Mutation testing report

Generated by `python -m reference.tools.mutate MODULE ... --report docs/mutation-report.md`
(the docstring of `reference/tools/mutate.py` lists the operators, what is skipped and the
test mapping).  *killed*: a mapped test failed; *error*: the mutated package no longer
imports or collects; *timeout*: past the timeout factor times the baseline; *equivalent*:
a survivor listed, with the reason, in `reference/tools/mutation_equivalent.toml`.  The
score is caught / (all - equivalent).
"""
_HEAD = ("| module | run | mutants | killed | error | timeout | equivalent | survived | score "
         "| baseline | wall |\n" + "| --- " * 11 + "|")


def write_report(path: Path, summary: Summary, planned: tuple[str, ...]) -> None:
    """Merge ``summary`` into the report at ``path`` (the records ride in a comment)."""
    records: dict[str, dict[str, object]] = {}
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.startswith(_DATA):
            records = json.loads(line.removeprefix(_DATA).removesuffix(" -->"))
    records[summary.module] = dataclasses.asdict(summary)
    runs = [Summary(**r) for _, r in sorted(records.items())]  # type: ignore[arg-type]
    missing = ", ".join(f"`{m}`" for m in planned if m not in records) or "none"
    out = [_INTRO, _HEAD, *(s.row() for s in runs), "", f"Not run yet: {missing}."]
    for s in runs:
        out += ["", f"## `{s.module}`", "", "Tests:", "", "```text", *s.tests, "```",
                "", *(s.lines() or ["No survivors."])]
    out += ["", _DATA + json.dumps(records, sort_keys=True) + " -->", ""]
    path.write_text("\n".join(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference.tools.mutate",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=list(DEFAULT_MODULES),
                        help="module files (default: DEFAULT_MODULES)")
    parser.add_argument("--report", type=Path, help="write or update this markdown report")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout-factor", type=float, default=3.0)
    parser.add_argument("--tests", action="append", metavar="PYTEST ARGS",
                        help="replace the mapped tests (repeat for several pytest runs)")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)
    failed = False
    for module in args.modules:
        module = str(Path(module).resolve().relative_to(ROOT))
        if args.list:
            for m in mutants(module, (ROOT / module).read_text()):
                print(f"{module}:{m.line}: {m.original} -> {m.mutated}")
            continue
        cmds = [shlex.split(t) for t in args.tests] if args.tests else mapped_tests(module)
        outcomes, baseline, wall = run_module(module, cmds, args.jobs, args.timeout_factor)
        summary = summarise(module, outcomes, load_equivalent(), baseline, wall, cmds)
        print(summary.row(), *summary.lines(), sep="\n", flush=True)
        failed |= summary.counts["survived"] > 0
        if args.report:
            write_report(args.report, summary, DEFAULT_MODULES)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
