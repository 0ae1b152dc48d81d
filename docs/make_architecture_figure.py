"""Regenerate the figure of docs/architecture.md from the real import graph (grimp).

    python docs/make_architecture_figure.py

``architecture.svg``: one box per layer of ``reference`` (plus the top level: the package
``__init__``, ``__main__`` and the re-export shims ``testing``/``strategies``), each with
its number of modules and of imports inside it; an arrow ``A -> B`` for every pair of
layers with module-level imports from ``A`` to ``B``, labelled with their number (imports
inside functions count: grimp reads every import statement); and the imports of numpy and
scipy.  Downward arrows are drawn on the left (grey and dashed from the top level); an
upward arrow (a broken layer contract) would be drawn in red on the right.
``proofs_tests/test_architecture.py`` fails when the committed figure differs from what
this script draws now.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "figures" / "architecture.svg"

#: Top to bottom: each layer may import only the ones below it.
LAYERS = ["tools", "sim", "oracle", "results", "core"]
TOP = "reference"
EXTERNAL = "numpy / scipy"
NOTES = {
    TOP: "__init__, __main__, testing, strategies",
    "tools": "cli, audit, render, bench, conformance",
    "sim": "samplers, statistical harness",
    "oracle": "exact laws, test helpers",
    "results": "one module per paper",
    "core": "numeric contract, model, catalogue",
}


def group(module: str) -> str | None:
    """The box of a module: its layer, the top level, numpy/scipy, or None (other)."""
    parts = module.split(".")
    if parts[0] in ("numpy", "scipy"):
        return EXTERNAL
    if parts[0] != "reference":
        return None
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return TOP


def edges() -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """Import counts between boxes, and the number of ``reference`` modules per box."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("reference", include_external_packages=True, cache_dir=None)
    counts: Counter[tuple[str, str]] = Counter()
    sizes: Counter[str] = Counter()
    for module in graph.modules:
        src = group(module)
        if src is None or src == EXTERNAL:
            continue
        sizes[src] += 1
        for imported in graph.find_modules_directly_imported_by(module):
            dst = group(imported)
            if dst is not None:
                counts[(src, dst)] += 1
    return counts, sizes


# ---- drawing -----------------------------------------------------------------------------

BOX_X, BOX_W, BOX_H, STEP, TOP_Y = 250, 230, 46, 84, 20
EXT_X, EXT_W = 560, 130


def _y(box: str) -> int:
    return TOP_Y + ([TOP, *LAYERS].index(box)) * STEP


def render() -> str:
    """The SVG text of the figure (deterministic: same graph, same bytes)."""
    counts, sizes = edges()
    order = [TOP, *LAYERS]
    height = TOP_Y + len(order) * STEP
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="720" height="{height}" '
           f'viewBox="0 0 720 {height}" font-family="sans-serif" font-size="13">',
           "<title>Import graph of reference: layer -> layer imports (grimp)</title>",
           '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/>'
           "</marker></defs>",
           '<rect width="100%" height="100%" fill="white"/>']
    for box in order:
        y = _y(box)
        inner = counts.get((box, box), 0)
        out.append(f'<rect x="{BOX_X}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" '
                   'fill="#eef3fb" stroke="#345"/>')
        label = box if box == TOP else f"reference.{box}"
        out.append(f'<text x="{BOX_X + BOX_W // 2}" y="{y + 18}" text-anchor="middle" '
                   f'font-weight="bold">{label}</text>')
        out.append(f'<text x="{BOX_X + BOX_W // 2}" y="{y + 36}" text-anchor="middle" '
                   f'font-size="11">{sizes[box]} modules, {inner} imports inside</text>')
        out.append(f'<text x="{BOX_X + BOX_W + 8}" y="{y + 28}" font-size="10" '
                   f'fill="#555">{NOTES[box]}</text>' if box not in ("sim", "tools") else "")
    ext_y = (_y("tools") + _y("sim")) // 2
    out.append(f'<rect x="{EXT_X}" y="{ext_y}" width="{EXT_W}" height="{BOX_H}" rx="6" '
               'fill="#fbeeee" stroke="#733"/>')
    out.append(f'<text x="{EXT_X + EXT_W // 2}" y="{ext_y + 28}" text-anchor="middle" '
               f'font-weight="bold">{EXTERNAL}</text>')
    down = sorted(((s, d) for (s, d) in counts if s != d and d != EXTERNAL
                   and order.index(s) < order.index(d)),
                  key=lambda e: (order.index(e[1]) - order.index(e[0]), order.index(e[0])))
    up = sorted((s, d) for (s, d) in counts if s != d and d != EXTERNAL
                and order.index(s) > order.index(d))
    for lane, (s, d) in enumerate(down):
        _arc(out, s, d, counts[(s, d)], lane, left=True)
    for lane, (s, d) in enumerate(up):
        _arc(out, s, d, counts[(s, d)], lane, left=False)
    for s in sorted((s for (s, d) in counts if d == EXTERNAL), key=order.index):
        y0 = _y(s) + BOX_H // 2
        y1 = ext_y + BOX_H // 2
        x0 = BOX_X + BOX_W
        out.append(f'<path d="M{x0},{y0} L{EXT_X},{y1}" fill="none" stroke="#733" '
                   'marker-end="url(#a)"/>')
        out.append(f'<text x="{(x0 + EXT_X) // 2}" y="{(y0 + y1) // 2 - 4}" '
                   f'text-anchor="middle" fill="#733">{counts[(s, EXTERNAL)]}</text>')
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"


def _arc(out: list[str], src: str, dst: str, n: int, lane: int, left: bool) -> None:
    """A curved arrow beside the boxes, from ``src`` to ``dst``, labelled ``n``.

    Lane ``k`` bulges ``24 + 16 k`` pixels out, so that arrows do not overlap.
    """
    shift = (lane * 7) % (BOX_H - 12)
    y0, y1 = _y(src) + 6 + shift, _y(dst) + BOX_H - 6 - shift
    x = BOX_X if left else BOX_X + BOX_W
    reach = 24 + 16 * lane
    cx = x - reach if left else x + reach
    colour = ("#999" if src == TOP else "#234") if left else "#c00"
    dash = ' stroke-dasharray="4 3"' if src == TOP else ""
    out.append(f'<path d="M{x},{y0} C{cx},{y0} {cx},{y1} {x},{y1}" fill="none" '
               f'stroke="{colour}"{dash} marker-end="url(#a)"/>')
    lx = x - (3 * reach) // 4 - 3 if left else x + (3 * reach) // 4 + 3
    anchor = "end" if left else "start"
    out.append(f'<text x="{lx}" y="{(y0 + y1) // 2 + 4}" text-anchor="{anchor}" '
               f'fill="{colour}" font-size="11" stroke="white" stroke-width="3" '
               f'paint-order="stroke">{n}</text>')


def summary() -> str:
    """The same counts as text: ``A -> B: n`` per pair of boxes."""
    counts, sizes = edges()
    order = [TOP, *LAYERS, EXTERNAL]
    rows = [f"{s} -> {d}: {n}" for (s, d), n in
            sorted(counts.items(), key=lambda e: (order.index(e[0][0]), order.index(e[0][1])))]
    return "\n".join([*(f"{b}: {sizes[b]} modules" for b in order[:-1]), *rows])


def main() -> None:
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(render(), encoding="utf-8")
    print(summary())
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
