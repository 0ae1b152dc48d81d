"""The landing page's examples run: its commands, its pytest file and its claims file.

``docs/index.md`` shows files to save (blocks with a ``title="NAME"``), shell commands in
``sh`` blocks and terminal sessions in ``console`` blocks (``$ command`` then its output).
This test writes every file block into a fresh folder and, from that folder, runs

* every ``python -m reference ...`` command, which must exit 0 unless its line says
  ``# exit status N``; in a ``console`` block its output must match the lines shown
  (doctest rules: ``...`` matches anything, runs of whitespace compare equal);
* every ``python -m pytest ...`` command that names a file of the page.

Installation and development commands (``pip``, ``mypy``, ``ruff``, a bare ``python -m
pytest`` of the whole suite) are not run; any other command fails the test, so nothing on
the page goes unchecked.  The power checks at the end plant broken examples and require
each to be reported.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from proofs_tests.tools.test_docs_site import (
    ROOT,
    RUN_PAGE,
    SHELL,
    checkout_env,
    fenced_blocks,
    titled_blocks,
)

_STATUS = re.compile(r"#\s*exit status (\d+)")
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Command:
    """One command of the page: its arguments, the exit status and output it promises."""

    where: str
    argv: list[str]
    status: int
    output: str | None  # None: the page shows no output (an ``sh`` block)


def _argv(line: str) -> list[str]:
    lex = shlex.shlex(line, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    return list(lex)


def page_commands(text: str) -> list[Command]:
    """Every command of the shell blocks of ``text``, split at ``&&``.

    >>> [c.argv for c in page_commands("```sh\\npip install . && python -m reference audit\\n```")]
    [['pip', 'install', '.'], ['python', '-m', 'reference', 'audit']]
    >>> [(c.status, c.output) for c in page_commands(
    ...     "```console\\n$ python -m reference x  # exit status 2\\nout\\n```")]
    [(2, 'out\\n')]
    """
    out: list[Command] = []
    for line_no, lang, body in fenced_blocks(text):
        if lang not in SHELL:
            continue
        lines = body.split("\n")
        for i, line in enumerate(lines):
            if lang == "console":
                if not line.startswith("$ "):
                    continue
                shown: str | None = ""
                for following in lines[i + 1:]:
                    if following.startswith("$ "):
                        break
                    shown = f"{shown}{following}\n"
                line = line[2:]
            else:
                shown = None
            m = _STATUS.search(line)
            status = int(m.group(1)) if m else 0
            argv = _argv(line)
            if not argv:
                continue
            parts: list[list[str]] = [[]]
            for token in argv:
                if token == "&&":
                    parts.append([])
                elif token in ("||", ";", "|", "&"):
                    raise ValueError(f"line {line_no}: only '&&' is supported, not {token!r}")
                else:
                    parts[-1].append(token)
            where = f"{RUN_PAGE.name}:{line_no + 1 + i}"
            out += [Command(where, p, status if j == len(parts) - 1 else 0,
                            shown if j == len(parts) - 1 else None)
                    for j, p in enumerate(parts) if p]
    return out


def page_files(text: str) -> dict[str, str]:
    """``{file name: content}`` of the blocks of ``text`` that have a ``title``."""
    return {name: body + "\n" for _, _, name, body in titled_blocks(text)}


def skipped(argv: list[str], files: dict[str, str]) -> str | None:
    """Why a command is not run (installation or development), or ``None`` to run it."""
    if argv[:1] == ["python"] and argv[1:3] == ["-m", "pip"]:
        return "installs"
    if argv[:1] == ["python"] and argv[1:3] in (["-m", "mypy"], ["-m", "ruff"]):
        return "checks the repository"
    if argv[:3] == ["python", "-m", "pytest"] and not set(argv[3:]) & set(files):
        return "runs the repository's suite"
    return None


def run(cmd: Command, folder: Path, files: dict[str, str]) -> str | None:
    """Run one command in ``folder``; what is wrong with it, or ``None``."""
    argv = cmd.argv
    if argv[:3] not in (["python", "-m", "reference"], ["python", "-m", "pytest"]):
        return f"{cmd.where}: nothing runs or checks {shlex.join(argv)!r}"
    proc = subprocess.run([sys.executable, *argv[1:]], cwd=folder, env=checkout_env(),
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != cmd.status:
        return (f"{cmd.where}: {shlex.join(argv)} exited {proc.returncode}, the page says "
                f"{cmd.status}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    if cmd.output is not None and not _CHECKER.check_output(cmd.output, proc.stdout, _FLAGS):
        return (f"{cmd.where}: {shlex.join(argv)} printed\n{proc.stdout}\n"
                f"the page shows\n{cmd.output}")
    return None


def check_page(text: str, folder: Path) -> tuple[list[str], list[str]]:
    """Run the page's commands on its files in ``folder``: (commands run, problems)."""
    files = page_files(text)
    for name, content in files.items():
        (folder / name).write_text(content, "utf-8")
    ran, problems = [], []
    for cmd in page_commands(text):
        if skipped(cmd.argv, files):
            continue
        ran.append(shlex.join(cmd.argv))
        why = run(cmd, folder, files)
        if why:
            problems.append(why)
    return ran, problems


PAGE = RUN_PAGE.read_text("utf-8")


def test_landing_page_examples_run(tmp_path: Path) -> None:
    ran, problems = check_page(PAGE, tmp_path)
    assert not problems, "\n\n".join(problems)
    # the three routes are all there and all ran (a page that lost one fails here)
    assert "python -m reference value RSWR23:Lem2.3 rho=1.3527 delta=1e-6 --certified" in ran
    assert "python -m pytest -q test_my_accountant.py" in ran
    assert "python -m reference audit claims.toml" in ran
    assert any(c.startswith("python -m reference conformance") for c in ran)
    assert set(page_files(PAGE)) == {"test_my_accountant.py", "claims.toml"}


def test_landing_page_keeps_the_readme_commands() -> None:
    """The README's two commands appear, verbatim, in a shell block of the landing page."""
    readme = (ROOT / "README.md").read_text("utf-8")
    first = next(body for _, lang, body in fenced_blocks(readme) if lang in SHELL)
    shown = [body for _, lang, body in fenced_blocks(PAGE) if lang in SHELL]
    assert first.count("\n") == 1 and first in shown


def test_skipped_commands_are_only_installs_and_checks() -> None:
    files = page_files(PAGE)
    reasons = {shlex.join(c.argv): skipped(c.argv, files) for c in page_commands(PAGE)}
    assert {r for r in reasons.values() if r} == {"installs", "checks the repository",
                                                  "runs the repository's suite"}
    assert reasons["python -m reference audit"] is None  # the README's audit does run


# ---- power checks: planted breakage is reported ------------------------------------------

def _only(text: str, start: str) -> str:
    """The page's file blocks and the shell blocks whose text starts with ``start``."""
    lines = text.split("\n")
    files = {line for line, _, _, _ in titled_blocks(text)}
    return "\n\n".join(f"{lines[line - 1]}\n{body}\n```"
                        for line, _, body in fenced_blocks(text)
                        if line in files or body.startswith(start))


@pytest.mark.parametrize(("old", "new", "reported"), [
    # a wrong id: the command exits 2
    ("value RSWR23:Lem2.3 rho", "value RSWR23:Lem9.9 rho", "exited 2"),
    # a changed digit of the shown output
    ("9.9986796742204462761994397685040606447753730207726\ncertified",
     "9.9986796742204462761994397685040606447753730207725\ncertified", "printed"),
    # a broken library in the pytest file: the soundness test fails (slow: Hypothesis
    # shrinks the failing example)
    pytest.param("rho + 2 * math.sqrt", "rho + math.sqrt", "exited 1", marks=pytest.mark.slow),
    # an assertion that no longer catches anything: 9.3 is above the exact 9.2658
    ("assert_sound_upper_bound(9.0,", "assert_sound_upper_bound(9.3,", "exited 1"),
    # a claim that changes its verdict: the output and the exit status differ
    ('value = "72.01"', 'value = "100"', "exited 0"),
])
def test_planted_breakage_is_reported(tmp_path: Path, old: str, new: str,
                                      reported: str) -> None:
    assert PAGE.count(old) == 1, old
    broken = PAGE.replace(old, new)
    first = {"value RSWR23": "$ python -m reference value",
             "9.99867": "$ python -m reference value",
             "rho + 2": "$ python -m pytest", "assert_sound": "$ python -m pytest",
             'value = "': "$ python -m reference audit"}
    start = next(v for k, v in first.items() if old.startswith(k))
    _, problems = check_page(_only(broken, start), tmp_path)
    assert len(problems) == 1 and reported in problems[0], problems


def test_an_unknown_command_is_reported(tmp_path: Path) -> None:
    _, problems = check_page("```sh\npython -c 'print(1)'\n```\n", tmp_path)
    assert problems and "nothing runs or checks" in problems[0]
