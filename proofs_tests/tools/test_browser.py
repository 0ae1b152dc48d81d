"""The docs site in a real browser: math renders, nothing leaves the site, no link is broken.

The strictly built site (the ``site`` fixture of conftest.py) is served on
127.0.0.1 by :mod:`http.server` in a thread and every page is opened in headless Chromium
(Debian's ``chromium``, driven by Playwright; ``.ci/run`` installs it).  For each page:

* every request the page makes is recorded, and one to anything but the local server is
  reported and aborted (never sent);
* the visible text (``innerText`` of the body) holds no raw TeX (``\\frac``, ``\\sqrt``,
  ``\\mathrm``, ``$$``, ``\\(``, ``\\[``): the math is rendered;
* every link into the site resolves to a page (or file) that exists, and its ``#anchor``
  to an element of that page; no request to the site fails.

Screenshots of the landing page, a catalogue entry, the errata and the conformance report
are saved in build/screenshots/.  A power check runs the same checker on a planted page
with raw TeX, an outside image and a broken link.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import re
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest

from proofs_tests.tools.test_docs_site import HAVE_MKDOCS, ROOT
from reference.results import errata

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = Path(CHROMIUM).is_file()
HAVE_PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
pytestmark = [
    pytest.mark.skipif(not HAVE_MKDOCS or not HAVE_PLAYWRIGHT,
                       reason="the docs extra (mkdocs, playwright) is not installed "
                              "(pip install -e '.[docs]')"),
    pytest.mark.skipif(not HAVE_CHROMIUM, reason="chromium is not installed "
                       "(apt-get install chromium; .ci/run does it)"),
]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RAW_TEX = ("\\frac", "\\sqrt", "\\mathrm", "$$", "\\(", "\\[")
SCREENSHOTS = ROOT / "build" / "screenshots"


@dataclass
class Findings:
    """What the checker saw on the pages it opened."""

    requests: list[str] = field(default_factory=list)  # every request, in order
    outside: list[str] = field(default_factory=list)  # to anything but the server: aborted
    aborted: list[str] = field(default_factory=list)  # requests that failed (aborted ones)
    answered: list[str] = field(default_factory=list)  # requests that got a response
    raw_tex: dict[str, list[str]] = field(default_factory=dict)  # page -> raw TeX snippets
    bad_status: list[str] = field(default_factory=list)  # site requests answered >= 400
    links: dict[str, set[str]] = field(default_factory=dict)  # page -> links into the site
    ids: dict[str, set[str]] = field(default_factory=dict)  # page -> its element ids
    broken: list[str] = field(default_factory=list)  # "page -> link" that do not resolve


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def page_paths(root: Path) -> list[str]:
    """URL paths (relative to the site) of every HTML page under ``root``."""
    out = []
    for html in sorted(root.rglob("*.html")):
        rel = html.relative_to(root)
        out.append(rel.parent.as_posix() + "/" if rel.name == "index.html" else rel.as_posix())
    return [p.removeprefix("./") for p in out]


def raw_tex(text: str) -> list[str]:
    r"""Snippets of ``text`` around each raw TeX command or delimiter it holds.

    >>> raw_tex("x = a/b and \\frac{a}{b}")
    ['…nd \\frac{a}{b…']
    """
    out = []
    for needle in RAW_TEX:
        for m in re.finditer(re.escape(needle), text):
            out.append("…" + text[max(0, m.start() - 3):m.end() + 5] + "…")
    return out


def target_file(root: Path, base: str, url: str) -> Path | None:
    """The file of ``root`` a URL of the site names (``None`` if it does not exist)."""
    path = unquote(urlsplit(url[len(base) - 1:]).path).lstrip("/")
    candidate = root / path
    if candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


#: The visible text of a page, its element ids and the targets of its links.
_INSPECT = """() => [
  document.body.innerText,
  Array.from(document.querySelectorAll("[id], a[name]"), e => e.id || e.getAttribute("name")),
  Array.from(document.querySelectorAll("a[href]"), e => e.href)]"""


def check_site(browser: Any, root: Path, base: str, paths: list[str],
               shots: dict[str, tuple[str, Path]] | None = None) -> Findings:
    """Open every page of ``paths`` (under ``base``, serving ``root``) and record findings.

    ``shots`` maps a name to ``(path#anchor, PNG file)``: those views are screenshotted.
    """
    found = Findings()
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  service_workers="block")

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(base) or url.startswith(("data:", "blob:", "about:")):
            r.continue_()
        else:
            found.outside.append(url)
            r.abort("blockedbyclient")

    context.route("**/*", route)
    context.on("request", lambda req: found.requests.append(req.url))
    context.on("requestfailed", lambda req: found.aborted.append(req.url))

    def response(resp: Any) -> None:
        found.answered.append(resp.url)
        if resp.url.startswith(base) and resp.status >= 400:
            found.bad_status.append(f"{resp.status} {resp.url}")

    context.on("response", response)
    page = context.new_page()
    try:
        for path in paths:
            page.goto(base + path, wait_until="load")
            text, ids, hrefs = page.evaluate(_INSPECT)
            if hits := raw_tex(text):
                found.raw_tex[path] = hits
            found.ids[path] = set(ids)
            found.links[path] = {h for h in hrefs if h.startswith(base)}
        for where, (target, png) in (shots or {}).items():
            page.goto(base + target, wait_until="load")
            page.wait_for_timeout(300)  # the header's title transition after the scroll
            png.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(png))
            assert png.stat().st_size > 0, where
    finally:
        context.close()
    for path, links in found.links.items():
        for link in sorted(links):
            url, anchor = urldefrag(link)
            target = target_file(root, base, url)
            if target is None:
                found.broken.append(f"{path} -> {link}: no such page")
                continue
            rel = target.relative_to(root)
            tpath = (rel.parent.as_posix() + "/" if rel.name == "index.html"
                     else rel.as_posix()).removeprefix("./")
            if anchor and tpath in found.ids and unquote(anchor) not in found.ids[tpath]:
                found.broken.append(f"{path} -> {link}: no anchor #{anchor}")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _errata_anchor() -> str:
    """Anchor of the first erratum whose printed form is LaTeX (shown as math)."""
    for e in errata():
        if re.search(r"\\[A-Za-z]", e.printed):
            return re.sub(r"[^a-z0-9]+", "-", e.id.lower()).strip("-")
    return ""


def test_site_in_a_browser(site: Path, browser: Any) -> None:
    paths = page_paths(site)
    assert "" in paths and "catalogue/errata/" in paths and len(paths) > 10, paths
    shots = {"landing": ("", SCREENSHOTS / "landing.png"),
             "catalogue entry": ("catalogue/conversions/#rswr23-lem2-3",
                                 SCREENSHOTS / "catalogue-conversions-RSWR23-Lem2.3.png"),
             "errata": (f"catalogue/errata/#{_errata_anchor()}", SCREENSHOTS / "errata.png")}
    if "conformance-report/" in paths:
        shots["conformance report"] = ("conformance-report/",
                                       SCREENSHOTS / "conformance-report.png")
    with serve(site) as base:
        found = check_site(browser, site, base, paths, shots)
    assert found.requests, "no request recorded"
    assert not found.outside, f"requests leaving the site: {sorted(set(found.outside))}"
    assert not found.raw_tex, f"raw TeX in the rendered text: {found.raw_tex}"
    assert not found.bad_status, f"requests to the site that failed: {found.bad_status}"
    assert not found.broken, f"broken links: {found.broken}"
    assert sum(len(v) for v in found.links.values()) > len(paths), "no links found"
    for _, png in shots.values():
        assert png.is_file(), png


PLANTED = """<!doctype html><html><head><title>planted</title></head><body>
<h1 id="top">Planted</h1>
<p>A formula left raw: \\frac{a}{b}.</p>
<p><img src="https://example.com/x.png" alt="outside"></p>
<p><a href="#top">fine</a> <a href="missing/">broken</a> <a href="#nowhere">no anchor</a></p>
</body></html>
"""


def test_checker_catches_raw_tex_outside_requests_and_broken_links(
        tmp_path: Path, browser: Any) -> None:
    """Power check: the checker of the site test reports each planted fault."""
    (tmp_path / "index.html").write_text(PLANTED, "utf-8")
    with serve(tmp_path) as base:
        found = check_site(browser, tmp_path, base, [""])
    assert list(found.raw_tex) == [""] and len(found.raw_tex[""]) == 1, found.raw_tex
    assert "\\frac{a}{b" in found.raw_tex[""][0], found.raw_tex
    outside = "https://example.com/x.png"
    assert found.outside == [outside], found.outside
    assert outside in found.requests  # recorded ...
    assert outside in found.aborted and outside not in found.answered  # ... and never sent
    broken = sorted(found.broken)
    assert len(broken) == 2 and "#nowhere: no anchor" in broken[0] \
        and "missing/: no such page" in broken[1], broken
