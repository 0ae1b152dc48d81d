"""The mutants of one module: which faults are planted where (see :mod:`reference.tools.mutate`).

Operators: comparison swaps and flips, arithmetic swaps, numeric constants, unary minus
and ``not`` removal, ``and``/``or``, ``min``/``max``, ``True``/``False``, negated
``if``/``while``/``x if c else y`` tests that are not comparisons.  Skipped: docstrings
and all strings, f-strings, annotations, ``raise`` statements and ``DomainError(...)``
(only a message would change), imports, bitwise ``|``/``&`` (type unions here).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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
    end_line: int = 0  #: last line of the changed expression (0: same as ``line``)
    #: first line of the statement holding it (0: ``line``): coverage records a multi-line
    #: statement's constants and continuation lines under its first line only
    stmt_line: int = 0


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
    encoded = [line.encode() for line in source.splitlines()]
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
            text = _first_line(encoded, shown)
            out.append(Mutant(module, site, choice, getattr(node, "lineno", 0),
                              " ".join(text.split()), " ".join(ast.unparse(mutated).split()),
                              getattr(shown, "end_lineno", None) or 0,
                              _statement(node, parents).lineno))  # type: ignore[attr-defined]
    return out


def _statement(node: ast.AST, parents: dict[int, ast.AST]) -> ast.AST:
    """The innermost statement holding ``node`` (``node`` itself if it is one)."""
    while not isinstance(node, ast.stmt) and id(node) in parents:
        node = parents[id(node)]
    return node


def _first_line(encoded: list[bytes], node: ast.AST) -> str:
    """The first line of ``node``'s source text (``ast.get_source_segment(...)``'s first
    line, without splitting the module again at every call: ast offsets count UTF-8 bytes).

    >>> _first_line([b"y = f(a,", b"      b)"], ast.parse("y = f(a,\\n      b)").body[0].value)
    'f(a,'
    """
    line = encoded[node.lineno - 1]  # type: ignore[attr-defined]
    end = node.end_col_offset if node.end_lineno == node.lineno else None  # type: ignore[attr-defined]
    return line[node.col_offset:end].decode()  # type: ignore[attr-defined]


def mutated_source(source: str, m: Mutant) -> str:
    """The text of the module with ``m`` planted."""
    tree = _plant(ast.parse(source), m.site, m.choice)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"

