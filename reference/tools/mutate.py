"""Mutation testing: small faults planted in one module at a time, each run against its tests.

``python -m reference.tools.mutate [MODULE ...] [--report docs/mutation-report.md]
[--jobs N] [--timeout-factor F] [--tests "PYTEST ARGS" ...] [--all-tests]``

An ``ast`` mutator (mutmut would own the package layout and rewrite modules through
trampolines, which fights the ``mp``/``iv`` generic formulas and our test mapping); the
operators and what is skipped are in :mod:`reference.tools.mutation_sites`.  Each mutant
goes (via ``ast.unparse``) into a per-worker copy of ``reference/`` and the tests; pytest
runs ``-x -p no:cacheprovider`` under the Hypothesis profile ``mutation``: ``ci`` (same
derandomized examples) without shrinking or database, since one failure is enough.  Each
copy has a small fork server (:data:`_SERVER`) that imports pytest, Hypothesis, mpmath and
python-flint once and forks a fresh child per run (``reference`` itself is never imported
there, so each child imports the mutated copy): a run costs its tests, not 2 s of start-up.

Which tests: the ones mapped to the module (:func:`mapped_tests`) are run once, unmutated,
under coverage with one context per test (pytest-cov); a mutant then runs only the mapped
tests that executed one of its lines.  A test that never reaches a line runs identically
with that line changed, so it cannot kill the mutant; a mutant no test reaches survives
without a run; a line run at import (module level, defaults, decorators) runs every mapped
test.  ``--all-tests`` skips the selection and runs every mapped test for each mutant.
A mutant that fails import, a test, or the timeout (``--timeout-factor`` x (the unmutated
seconds of the tests it runs + 20 s for collection) + 10 s) is killed.  Survivors listed
in ``reference/tools/mutation_equivalent/`` (same module, line, original and mutated text)
are equivalent; any other makes the exit status 1.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reference.tools.mutation_report import (
    EQUIVALENT_DIR,
    STATUSES,
    Summary,
    load_equivalent,
    summarise,
    write_report,
)
from reference.tools.mutation_server import Server, env
from reference.tools.mutation_sites import Mutant, mutants, mutated_source

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("reference", "proofs_tests", "pyproject.toml")
_CONFTEST = """from hypothesis import HealthCheck, Phase, settings
settings.register_profile("mutation", max_examples=60, derandomize=True, deadline=None,
    database=None, suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate])


def pytest_runtest_logreport(report):
    import os
    path = os.environ.get("MUTATE_DURATIONS")
    if path:
        with open(path, "a") as out:
            out.write(f"{report.duration}\\t{report.nodeid}\\n")
"""
#: Every module of the two formula layers (``index.py`` is generated; ``__init__`` re-exports).
DEFAULT_MODULES = tuple(sorted(
    str(p.relative_to(ROOT)) for layer in ("core", "results")
    for p in (ROOT / "reference" / layer).rglob("*.py")
    if p.name not in ("__init__.py", "index.py")))
#: Catalogue-wide tests run first for every core module (every result once, 4 s).
CATALOGUE_TESTS = ["proofs_tests/test_contract.py", "-k",
                   "test_example_inputs_evaluate_and_enclose or test_bad_input_gives_domain_error"]
#: Catalogue-wide contracts, parametrised by result id.
CONTRACTS = ("test_contract.py", "test_contract_strict.py", "test_errata_confirmed.py")
#: The relation modules (``reference/results/<topic>/relations.py``) register no result id
#: and are read through ``reference.results.relations()``: their tests, named here.
RELATIONS_TESTS = ("proofs_tests/test_relations.py", "proofs_tests/test_relations_pinned.py",
                   "proofs_tests/test_relations_kov15.py", "proofs_tests/core/test_prover.py")
#: Extra property tests for core modules used mainly by particular results.
CORE_EXTRA = {"special": ["proofs_tests/privacy_loss/test_lec11.py", "proofs_tests/composition"],
              "roots": [f"proofs_tests/conversions/test_{p}.py"
                        for p in ("bw18", "cks20", "root_guesses")]}


def _ids(module: str) -> list[str]:
    """The catalogue ids of the results and errata defined in ``module`` (a file path)."""
    from reference.core.errata import Erratum
    from reference.core.model import Result

    name = module.removesuffix(".py").replace("/", ".")
    found = set()
    for v in vars(importlib.import_module(name)).values():
        if isinstance(v, Result) and v.core.__module__ == name:
            found.add(v.id)
        elif isinstance(v, Erratum) and v.module == name:
            found.add(v.id)
    return sorted(found)


def _topic_ids(topic: str) -> list[str]:
    """The ids of every result whose formula lives in ``reference/results/<topic>/``."""
    from reference.results import load

    return sorted(r.id for r in load().sorted_results()
                  if r.core.__module__.startswith(f"reference.results.{topic}."))


def mapped_tests(module: str, root: Path = ROOT) -> list[list[str]]:
    """The pytest argument lists run against a mutant of ``module`` (all must pass).

    A results module maps to its paper's tests, every other property test file that imports
    it or names one of its result or erratum ids (tools tests aside: they build the docs;
    a module that registers no result, e.g. the TCT accountant, is reached by the tests
    that import it), and the catalogue-wide contracts for its ids (for a module without
    ids: those of its topic's results); a core module to the catalogue-wide checks and
    ``proofs_tests/core`` (plus :data:`CORE_EXTRA`); a relations module also to
    :data:`RELATIONS_TESTS`.  Coverage then narrows each mutant's
    run to the tests that reach it (:func:`selected`).

    >>> mapped_tests("reference/results/conversions/bs16.py")[0][:1]
    ['proofs_tests/conversions/test_bs16.py']
    >>> [t for t in mapped_tests("reference/results/odometers/relations.py")[0]
    ...  if "relations" in t]   # doctest: +NORMALIZE_WHITESPACE
    ['proofs_tests/test_relations.py', 'proofs_tests/test_relations_kov15.py',
     'proofs_tests/test_relations_pinned.py']
    """
    path = Path(module)
    if path.parts[:2] == ("reference", "results"):
        topic, paper = path.parts[2], path.stem
        ids = _ids(module)
        tests = root / "proofs_tests"
        own = {p for p in (tests / topic).glob(f"test_{paper}*.py")}
        dotted = module.removesuffix(".py").replace("/", ".")
        naming = {p for p in tests.rglob("test_*.py") if "tools" not in p.parts
                  and p.name not in CONTRACTS and (dotted in (text := p.read_text())
                                                   or any(i in text for i in ids))}
        if paper == "relations":
            own |= {root / t for t in RELATIONS_TESTS}
        files = sorted(str(p.relative_to(root)) for p in own | naming)
        cmds = [files] if files else []
        contract_ids = ids or _topic_ids(topic)
        if contract_ids:
            cmds.append([f"proofs_tests/{c}" for c in CONTRACTS]
                        + ["-k", " or ".join(contract_ids)])
        return cmds
    return [list(CATALOGUE_TESTS), ["proofs_tests/core/", *CORE_EXTRA.get(path.stem, [])]]


def _run(copy_root: Path, cmds: list[list[str]], timeout: float | None,
         extra_env: dict[str, str] | None = None, stop_early: bool = True,
         server: Server | None = None) -> str:
    """``killed``, ``error`` (collection or import broke), ``timeout`` or ``survived``."""
    for args in cmds:
        argv = [*(["-x"] if stop_early else []), "-q", "-p", "no:cacheprovider", *args]
        if server is not None:
            code = server.run(argv, timeout)
        else:
            try:
                code = subprocess.run([sys.executable, "-m", "pytest", *argv], cwd=copy_root,
                                      env=env(copy_root, extra_env), capture_output=True,
                                      timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return "timeout"
        if code in (2, 3, 4):   # interrupted / internal error / usage error
            return "error"
        if code not in (0, 5):  # 5: nothing collected by this command
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


def _coverage(copy_root: Path, module: str, cmds: list[list[str]],
              ) -> tuple[str, dict[int, set[str]], dict[str, float]]:
    """Run ``cmds`` unmutated under coverage: their status, for each line of ``module``
    the node ids of the tests that ran it (``""``: run outside any test, e.g. at import),
    and each test's seconds (setup, call and teardown)."""
    try:
        from coverage import CoverageData
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise SystemExit("coverage and pytest-cov select the tests (pip install -e '.[test]'); "
                         "or pass --all-tests") from exc
    lines: dict[int, set[str]] = {}
    seconds: dict[str, float] = {}
    timing = copy_root / ".durations"
    for i, args in enumerate(cmds):
        data_file = copy_root / f".coverage-select-{i}"
        cov = [f"--cov={Path(module).parent}", "--cov-context=test", "--cov-report="]
        status = _run(copy_root, [[*cov, *args]], None, {"COVERAGE_FILE": str(data_file),
                                                         "MUTATE_DURATIONS": str(timing)},
                      stop_early=False)
        if status != "survived":
            return status, lines, seconds
        data = CoverageData(basename=str(data_file))
        data.read()
        by_line = data.contexts_by_lineno(str((copy_root / module).resolve()))
        for line, contexts in by_line.items():
            lines.setdefault(line, set()).update(c.rsplit("|", 1)[0] for c in contexts)
    for row in timing.read_text().splitlines() if timing.exists() else []:
        took, node = row.split("\t", 1)
        seconds[node] = seconds.get(node, 0.0) + float(took)
    timing.unlink(missing_ok=True)
    return "survived", lines, seconds


def selected(m: Mutant, lines: dict[int, set[str]], cmds: list[list[str]],
             seconds: dict[str, float] | None = None) -> list[list[str]]:
    """The pytest runs for ``m``: the node ids of the tests that ran one of its lines, the
    quickest first (``seconds``, unmutated: a killed mutant stops at its first failing test);
    all of ``cmds`` when a line ran outside any test; none when no test reached it.

    >>> m = Mutant("m.py", 0, 0, 3, "x < 2", "x <= 2", 4)
    >>> selected(m, {3: {"t.py::a"}, 4: {"t.py::b", "t.py::a"}, 9: {"t.py::c"}}, [["t.py"]])
    [['t.py::a', 't.py::b']]
    >>> selected(m, {3: {"t.py::a", "t.py::b"}}, [["t.py"]], {"t.py::a": 2.0, "t.py::b": 0.1})
    [['t.py::b', 't.py::a']]
    >>> selected(m, {4: {""}}, [["t.py"]]), selected(m, {9: {"t.py::c"}}, [["t.py"]])
    ([['t.py']], [])
    >>> inner = Mutant("m.py", 0, 0, 3, "8", "9", 3, stmt_line=2)   # a continuation line
    >>> selected(inner, {2: {"t.py::a"}}, [["t.py"]])
    [['t.py::a']]
    """
    first = min(m.line, m.stmt_line or m.line)
    tests = set().union(*(lines.get(n, set()) for n in range(first, max(m.line, m.end_line) + 1)))
    if "" in tests:
        return cmds
    took = seconds or {}
    return [sorted(tests, key=lambda t: (took.get(t, 0.0), t))] if tests else []


def _expected(runs: list[list[str]], seconds: dict[str, float], baseline: float) -> float:
    """Seconds the unmutated tests of ``runs`` took (under coverage, so an overestimate):
    the selected tests' own times, or ``baseline`` for whole files (a line run at import).

    >>> _expected([["t.py::a", "t.py::b"]], {"t.py::a": 2.0, "t.py::b": 0.5}, 99.0)
    2.5
    >>> _expected([["t.py"]], {"t.py::a": 2.0}, 99.0)
    99.0
    """
    nodes = [t for args in runs for t in args]
    if all("::" in t for t in nodes) and all(t in seconds for t in nodes):
        return sum(seconds[t] for t in nodes)
    return baseline


def run_module(module: str, cmds: list[list[str]], jobs: int = 1, factor: float = 3.0,
               root: Path = ROOT, select: bool = True,
               ) -> tuple[list[tuple[Mutant, str]], float, float]:
    """Each mutant of ``module`` (a path under ``root``) with its status (``unreached``: no
    mapped test runs its lines); the baseline seconds (unmutated tests) and the wall time."""
    source, start = (root / module).read_text(), time.monotonic()
    todo = mutants(module, source)
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        copies: queue.Queue[Path] = queue.Queue()
        for _ in range(max(1, jobs)):
            copies.put(_make_copy(root, Path(tmp)))
        servers = {p: Server(p) for p in copies.queue} if hasattr(os, "fork") else {}
        if select:
            status, lines, seconds = _coverage(copies.queue[0], module, cmds)
        else:
            status, lines, seconds = _run(copies.queue[0], cmds, None), {}, {}
        baseline = time.monotonic() - start
        if status != "survived":
            raise SystemExit(f"{module}: the unmutated tests do not pass ({status}): {cmds}")

        def one(i: int) -> tuple[Mutant, str]:
            m = todo[i]
            runs = selected(m, lines, cmds, seconds) if select else cmds
            if not runs:
                status = "unreached"
            else:
                path = copies.get()
                try:
                    _write(path / module, mutated_source(source, m))
                    limit = factor * (_expected(runs, seconds, baseline) + 20) + 10
                    status = _run(path, runs, limit, server=servers.get(path))
                finally:
                    _write(path / module, source)
                    copies.put(path)
            print(f"[{i + 1}/{len(todo)}] {status} {module}:{m.line}: {m.original} -> "
                  f"{m.mutated}", file=sys.stderr, flush=True)
            return m, status

        try:
            with ThreadPoolExecutor(max(1, jobs)) as pool:
                outcomes = list(pool.map(one, range(len(todo))))
        finally:
            for server in servers.values():
                server.close()
    return outcomes, baseline, time.monotonic() - start


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
    parser.add_argument("--all-tests", action="store_true",
                        help="run every mapped test for each mutant (no coverage selection)")
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
        text = (ROOT / module).read_text()
        outcomes, baseline, wall = run_module(module, cmds, args.jobs, args.timeout_factor,
                                               select=not args.all_tests)
        summary = summarise(module, outcomes, load_equivalent(), baseline, wall, cmds, text)
        print(summary.row(), *summary.lines(), sep="\n", flush=True)
        failed |= summary.counts["survived"] > 0
        if args.report:
            write_report(args.report, summary, DEFAULT_MODULES)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["EQUIVALENT_DIR", "STATUSES", "Mutant", "Summary", "mapped_tests", "mutants",
           "mutated_source", "run_module"]
