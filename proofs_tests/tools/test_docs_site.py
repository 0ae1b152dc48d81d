"""The documentation: every code block runs or is checked, and the site builds strictly.

* A fenced ``python`` / ``pycon`` / ``py`` block of ``docs/**/*.md`` must consist of
  doctest examples only: pytest's ``--doctest-glob=*.md`` runs those, and code outside an
  example would be shown on the site but never run.  (Bare ``>>>`` paragraphs are doctests
  too; the site renders them as code.)
* A block of ``docs/index.md`` with a file name (```` ```python title="test_x.py" ````,
  ```` ```toml title="claims.toml" ````) is a file the reader saves and runs:
  test_landing_page.py writes it to a folder and runs the page's commands on it.
* Shell blocks (``sh``, ``bash``, ``shell``, ``console``) and ``text`` blocks are allowed.
  Every ``python -m reference ...`` command in a shell block is parsed by the real command
  line parser; a ``value ID name=value ...`` command has its id looked up and its
  arguments converted and checked against the result's domain (nothing is evaluated).
  Any other fence language (or none) fails: nothing would check it.
* ``mkdocs build --strict -f docs/mkdocs.yml`` succeeds (skipped when the ``docs`` extra
  is not installed), and the site has a page per ``docs/*.md``, an anchor per catalogue
  result on its family page, and every erratum; a page without math (the architecture
  page) loads nothing from a CDN.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from reference.results import catalogue, errata, get
from reference.tools.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PYTHON = {"python", "pycon", "py", "python3"}
SHELL = {"sh", "bash", "shell", "console"}
TEXT = {"text"}
_OPEN = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`{]*)")


def checkout_env() -> dict[str, str]:
    """The environment for a subprocess that must import this checkout's packages (``ROOT``
    first on ``PYTHONPATH``, whatever is installed)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))


def fenced_blocks(text: str) -> list[tuple[int, str, str]]:
    """``(line number, language, content)`` of every fenced block of a Markdown text.

    >>> fenced_blocks("a\\n```sh\\nls\\n```\\n\\n~~~\\nx\\n~~~\\n")
    [(2, 'sh', 'ls'), (6, '', 'x')]
    """
    blocks = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(2), m.group(3).lower(), i
        body = []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence)
                                      and not lines[i].strip().strip(fence[0])):
            body.append(lines[i])
            i += 1
        blocks.append((start + 1, lang, "\n".join(body)))
        i += 1
    return blocks


_TITLE = re.compile(r'^\s*(?:`{3,}|~{3,})\s*[^\s`{]*\s.*\btitle="([^"]+)"')


def titled_blocks(text: str) -> list[tuple[int, str, str, str]]:
    """``(line number, language, file name, content)`` of the blocks with a ``title``.

    >>> titled_blocks('```toml title="c.toml"\\nx = 1\\n```\\n```sh\\nls\\n```\\n')
    [(1, 'toml', 'c.toml', 'x = 1')]
    """
    lines = text.split("\n")
    return [(line, lang, m.group(1), body) for line, lang, body in fenced_blocks(text)
            for m in [_TITLE.match(lines[line - 1])] if m]


#: The page whose named files (``titled_blocks``) are run by test_landing_page.py.
RUN_PAGE = DOCS / "index.md"


def run_page_files() -> set[str]:
    """``where`` (as in :func:`all_blocks`) of the file blocks that are run, not read."""
    rel = RUN_PAGE.relative_to(ROOT)
    return {f"{rel}:{line}" for line, _, _, _ in titled_blocks(RUN_PAGE.read_text("utf-8"))}


def pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "site_gen" not in p.parts)


def all_blocks() -> list[tuple[str, str, str]]:
    """``(where, language, content)`` of every fenced block of the docs."""
    return [(f"{p.relative_to(ROOT)}:{line}", lang, body)
            for p in pages() for line, lang, body in fenced_blocks(p.read_text("utf-8"))]


def non_doctest_code(body: str) -> list[str]:
    """Lines of a block that are not part of a doctest example.

    >>> non_doctest_code(">>> 1 + 1\\n2\\n")
    []
    >>> non_doctest_code("x = 1\\n>>> x\\n1")
    ['x = 1']
    """
    parts = doctest.DocTestParser().parse(body)
    return [line for part in parts if isinstance(part, str)
            for line in part.split("\n") if line.strip()]


def commands(lang: str, body: str) -> list[list[str]]:
    """The simple commands of a shell block, as argument lists.

    >>> commands("sh", "pip install -e . && python -m reference audit  # all\\nls | wc")
    [['pip', 'install', '-e', '.'], ['python', '-m', 'reference', 'audit'], ['ls'], ['wc']]
    >>> commands("console", "$ python -m reference errata\\n3 errata")
    [['python', '-m', 'reference', 'errata']]
    """
    text = body.replace("\\\n", " ")
    out: list[list[str]] = []
    for line in text.split("\n"):
        if lang == "console":
            if not line.startswith("$ "):
                continue
            line = line[2:]
        lex = shlex.shlex(line, posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        current: list[str] = []
        for token in lex:
            if token in ("&&", "||", ";", "|", "&"):
                out.append(current)
                current = []
            else:
                current.append(token)
        out.append(current)
    return [c for c in out if c]


def check_reference_command(argv: list[str]) -> str | None:
    """Why ``python -m reference <argv>`` is wrong, or ``None``; nothing is evaluated."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        return f"the command line parser rejects {argv}"
    if args.command == "value":
        try:
            res = get(args.id)
        except KeyError as err:
            return str(err)
        params = {}
        for item in args.params:
            name, sep, value = item.partition("=")
            if not sep:
                return f"{item!r} is not name=value"
            params[name] = value
        try:
            res.bind((), params)
        except ValueError as err:
            return str(err)
    return None


BLOCKS = all_blocks()
SHELL_BLOCKS = [(w, lang, body) for w, lang, body in BLOCKS if lang in SHELL]


def test_docs_have_code() -> None:
    """Guard against the scan silently finding nothing."""
    assert any(lang in PYTHON for _, lang, _ in BLOCKS)
    assert SHELL_BLOCKS


def test_python_blocks_are_doctests() -> None:
    files = run_page_files()
    bad = {w: lines for w, lang, body in BLOCKS if lang in PYTHON and w not in files
           for lines in [non_doctest_code(body)] if lines or ">>>" not in body}
    assert not bad, f"python blocks that are not (only) doctests: {bad}"


def test_no_unchecked_languages() -> None:
    files = run_page_files()
    bad = [(w, lang or "(none)") for w, lang, _ in BLOCKS
           if lang not in PYTHON | SHELL | TEXT and w not in files]
    assert not bad, ("code blocks nothing runs or checks (use a doctest, or a sh/console/text "
                     f"block): {bad}")


@pytest.mark.parametrize(("where", "lang", "body"), SHELL_BLOCKS,
                         ids=[w for w, _, _ in SHELL_BLOCKS])
def test_shell_block_commands_are_valid(where: str, lang: str, body: str) -> None:
    problems = []
    for argv in commands(lang, body):
        if argv[:3] in (["python", "-m", "reference"], ["python3", "-m", "reference"]):
            why = check_reference_command(argv[3:])
        elif argv[0] == "dp-reference":
            why = check_reference_command(argv[1:])
        else:
            continue
        if why:
            problems.append(f"{shlex.join(argv)}: {why}")
    assert not problems, f"{where}: {problems}"


def test_command_check_can_fail() -> None:
    """Power check: the shell-command check rejects a wrong id, option and domain."""
    assert check_reference_command(["value", "RSWR23:Lem2.3", "rho=1", "delta=1e-6"]) is None
    assert check_reference_command(["value", "RSWR23:Lem9.9", "rho=1"])
    assert check_reference_command(["value", "RSWR23:Lem2.3", "rho=1", "delta=0"])
    assert check_reference_command(["value", "RSWR23:Lem2.3", "rho=1", "delta=1e-6",
                                    "--certfied"])
    assert check_reference_command(["audit", "--jsn"])


# ---- the site --------------------------------------------------------------------------

HAVE_MKDOCS = all(importlib.util.find_spec(m) is not None
                  for m in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers"))
needs_mkdocs = pytest.mark.skipif(not HAVE_MKDOCS, reason="the docs extra is not installed "
                                  "(pip install -e '.[docs]')")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"docs_site_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def build(docs: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``docs/mkdocs.yml`` into ``out``."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    # No -q: MkDocs counts the warnings that strict mode turns into errors only when they
    # are logged, and -q silences them.
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(docs / "mkdocs.yml"), "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


# The ``site`` fixture (the strict build, once per session, shared with
# test_browser.py) is in conftest.py.


@needs_mkdocs
def test_site_builds_strictly_with_every_page(site: Path) -> None:
    for page in DOCS.glob("*.md"):
        html = site / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert html.is_file(), f"{page.name} is not in the site"
        nav = (site / "index.html").read_text("utf-8")
        assert page.stem == "index" or f'href="{page.stem}/"' in nav, f"{page.name} not in nav"


@needs_mkdocs
def test_site_has_every_result_and_erratum(site: Path) -> None:
    hooks = _load(DOCS / "site_gen" / "hooks.py")
    for res in catalogue():
        html = (site / hooks.pages.page_of(res).removesuffix(".md") / "index.html").read_text()
        assert f'id="{hooks.pages.slug(res.id)}"' in html, res.id
        assert f'id="{res.function}"' in html, f"{res.id}: no API entry for {res.function}"
    errata_page = (site / "catalogue" / "errata" / "index.html").read_text("utf-8")
    missing = [e.id for e in errata() if f'id="{hooks.pages.slug(e.id)}"' not in errata_page]
    assert not missing, missing


_EXTERNAL = re.compile(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="(?:https?:)?//[^"]*')


@needs_mkdocs
def test_no_page_loads_anything_from_a_cdn(site: Path) -> None:
    """Math is MathML rendered at build time: pages with and without math stay local."""
    arch = (site / "architecture" / "index.html").read_text("utf-8")
    assert "figures/architecture.svg" in arch
    assert _EXTERNAL.findall(arch) == []
    hooks = _load(DOCS / "site_gen" / "hooks.py")
    with_math = site / hooks.pages.page_of(get("RSWR23:Lem2.3")).removesuffix(".md") / "index.html"
    html = with_math.read_text("utf-8")
    assert "<math" in html and _EXTERNAL.findall(html) == []


@needs_mkdocs
def test_generator_doctests() -> None:
    for path in (DOCS / "site_gen").glob("*.py"):
        failed, _ = doctest.testmod(_load(path), verbose=False)
        assert failed == 0, path.name


@needs_mkdocs
@pytest.mark.slow
def test_strict_build_fails_on_a_broken_link(tmp_path: Path) -> None:
    """Power check of the build test: a copy of the docs with one broken link fails."""
    shutil.copytree(DOCS, tmp_path / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("reference", "proofs_tests", "stats_tests"):
        (tmp_path / folder).symlink_to(ROOT / folder, target_is_directory=True)
    (tmp_path / "docs" / "broken.md").write_text("# Broken\n\nSee [this](nowhere.md).\n")
    proc = build(tmp_path / "docs", tmp_path / "site")
    assert proc.returncode != 0 and "nowhere.md" in proc.stderr
