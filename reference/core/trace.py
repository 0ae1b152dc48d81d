"""A relation's margin as an expression graph, with the terms its two sides share cancelled.

A relation compares results that often share a term: the tanh and the Dwork–Rothblum–Vadhan
forms of advanced composition both add ``eps sqrt(2k log(1/delta))``.  Interval arithmetic
cannot see that ``x - x = 0`` (the dependency problem): the difference of two enclosures
of the same large term is as wide as the term, and a box must shrink to nothing before the
small true difference shows.  So the margin is first run once on :class:`Tracer` numbers,
which record each operation as a node of a graph in which the same operation on the same
nodes *is* the same node (hash-consing); :func:`simplify` then collects the margin's
additive terms (through ``+``, ``-`` and multiplication by rational constants) and drops
those whose coefficients add up to zero.  This is exact algebra: the same computation on
the same inputs has the same value.  :func:`evaluate` runs the simplified graph in any
context (``iv``, the dual numbers of :mod:`reference.core.dual`, arb balls).

Rational constants are folded exactly.  A comparison of traced numbers raises
``TypeError``: a formula that branches on its inputs cannot be traced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from reference.core import dual, numeric, special


class Node:
    """An operation of the graph (``op`` on ``args``), or a variable or rational constant."""

    __slots__ = ("args", "graph", "op", "value")

    def __init__(self, graph: Tracer, op: str, args: tuple[Any, ...], value: Any = None) -> None:
        self.graph, self.op, self.args, self.value = graph, op, args, value

    def _bin(self, op: str, other: object, swap: bool = False) -> Any:
        if not isinstance(other, Node | int | Fraction):
            return NotImplemented   # e.g. a dual number over this graph: its own operators
        o = self.graph.lift(other)
        return self.graph.node(op, (o, self) if swap else (self, o))

    def __add__(self, other: object) -> Any:
        return self._bin("add", other)

    def __radd__(self, other: object) -> Any:
        return self._bin("add", other, swap=True)

    def __sub__(self, other: object) -> Any:
        return self._bin("sub", other)

    def __rsub__(self, other: object) -> Any:
        return self._bin("sub", other, swap=True)

    def __mul__(self, other: object) -> Any:
        return self._bin("mul", other)

    def __rmul__(self, other: object) -> Any:
        return self._bin("mul", other, swap=True)

    def __truediv__(self, other: object) -> Any:
        return self._bin("div", other)

    def __rtruediv__(self, other: object) -> Any:
        return self._bin("div", other, swap=True)

    def __neg__(self) -> Node:
        return self.graph.node("neg", (self,))

    def __pos__(self) -> Node:
        return self

    def __pow__(self, n: object) -> Node:
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise TypeError(f"traced numbers take non-negative integer powers only, got {n!r}")
        if n == 0:
            return self.graph.lift(1)
        out = self
        for _ in range(n - 1):
            out = out * self
        return out

    def _refuse(self, other: object) -> bool:
        raise TypeError("a formula compared traced numbers: it branches on its inputs and "
                        "cannot be traced")

    __lt__ = __le__ = __gt__ = __ge__ = _refuse

    def __bool__(self) -> bool:
        raise TypeError("the truth value of a traced number is not defined")


_FOLD: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}


class Tracer:
    """The context whose numbers are :class:`Node` s of one graph."""

    def __init__(self) -> None:
        self._table: dict[tuple[Any, ...], Node] = {}
        self.prec = 53     # set by formulas' guard-bit helpers; tracing is exact

    def node(self, op: str, args: tuple[Any, ...]) -> Node:
        if op in _FOLD and all(a.op == "const" for a in args):
            return self.const(_FOLD[op](args[0].value, args[1].value))
        if op == "div" and all(a.op == "const" for a in args) and args[1].value != 0:
            return self.const(args[0].value / args[1].value)
        if op == "neg" and args[0].op == "const":
            return self.const(-args[0].value)
        key = (op, *(id(a) for a in args))
        found = self._table.get(key)
        if found is None:
            found = self._table[key] = Node(self, op, args)
        return found

    def const(self, q: Fraction) -> Node:
        key = ("const", q)
        found = self._table.get(key)
        if found is None:
            found = self._table[key] = Node(self, "const", (), q)
        return found

    def var(self, name: str) -> Node:
        key = ("var", name)
        found = self._table.get(key)
        if found is None:
            found = self._table[key] = Node(self, "var", (), name)
        return found

    def lift(self, x: object) -> Node:
        if isinstance(x, Node):
            return x
        return self.mpf(x)

    def mpf(self, x: object) -> Node:
        if isinstance(x, Node):
            return x
        if isinstance(x, bool):
            raise TypeError("a bool is not a number")
        if isinstance(x, int | Fraction | str):
            return self.const(Fraction(x))
        if isinstance(x, mpmath.mpf) and mpmath.isfinite(x):
            return self.const(numeric.exact(x, "constant", "trace"))
        raise TypeError(f"cannot trace the constant {x!r}")

    @property
    def zero(self) -> Node:
        return self.const(Fraction(0))

    @property
    def one(self) -> Node:
        return self.const(Fraction(1))

    @property
    def e(self) -> Node:
        return self.exp(self.one)

    @property
    def pi(self) -> Node:
        return self.node("pi", ())

    def fsum(self, terms: Iterable[object]) -> Node:
        total = self.zero
        for t in terms:
            total = total + t
        return total

    def sqrt(self, x: Node) -> Node:
        return self.node("sqrt", (self.lift(x),))

    def exp(self, x: Node) -> Node:
        return self.node("exp", (self.lift(x),))

    def expm1(self, x: Node) -> Node:
        return self.node("expm1", (self.lift(x),))

    def log(self, x: Node) -> Node:
        return self.node("log", (self.lift(x),))

    def log1p(self, x: Node) -> Node:
        return self.node("log1p", (self.lift(x),))

    def normal_sf(self, x: Node) -> Node:
        return self.node("normal_sf", (self.lift(x),))

    def pos_part(self, x: Node) -> Node:
        return self.node("pos_part", (self.lift(x),))

    def unit_step(self, x: Node) -> Node:
        """The slope of ``max(x, 0)`` (in a derivative's formula): a node."""
        return self.node("unit_step", (self.lift(x),))


def trace(margin: Callable[..., Any], names: Sequence[str],
          fixed: Mapping[str, int] | None = None) -> Node:
    """The graph of ``margin(ctx, **variables, **fixed)``, simplified (see :func:`simplify`);
    ``fixed`` are integers passed as they are (a relation's ``integers`` at one value)."""
    g = Tracer()
    out = margin(g, **{n: g.var(n) for n in names}, **(fixed or {}))
    return simplify(g.lift(out))


_TRACED: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[Any, Node]] = {}


def traced(rel: Any, ints: Mapping[str, int] | None = None) -> Node:
    """The simplified graph of a relation's margin, its ``integers`` set to ``ints`` (traced
    once per relation object and integer values)."""
    key = (id(rel), tuple(sorted((ints or {}).items())))
    hit = _TRACED.get(key)
    if hit is None or hit[0] is not rel:
        hit = _TRACED[key] = (rel, trace(rel.margin, rel.reals, ints))
    return hit[1]


Terms = tuple[Fraction, dict[int, tuple[Node, Fraction]]]


def _terms(root: Node, memo: dict[int, Terms]) -> Terms:
    """``root`` as ``constant + sum coefficient * term`` (each node expanded once: a sum
    reused inside a formula would otherwise be expanded once per use, exponentially), in an
    order found without recursion (a sum of a thousand terms is a chain that deep)."""
    stack = [root]
    while stack:
        node = stack[-1]
        if id(node) in memo:
            stack.pop()
            continue
        parts = _linear(node)
        waiting = [arg for arg, _ in parts or () if id(arg) not in memo]
        if waiting:
            stack.extend(waiting)
            continue
        stack.pop()
        out: Terms = (Fraction(0), {id(node): (node, Fraction(1))})
        if parts is not None:
            out = (Fraction(node.value), {}) if node.op == "const" else (Fraction(0), {})
            for arg, coeff in parts:
                out = _combine(out, _scale(memo[id(arg)], coeff))
        memo[id(node)] = out
    return memo[id(root)]


def _linear(node: Node) -> list[tuple[Node, Fraction]] | None:
    """``node`` as a sum of rational multiples of its arguments (a constant: of none), or
    ``None`` when it is a term of its own."""
    op, args = node.op, node.args
    if op == "const":
        return []
    if op in ("add", "sub"):
        return [(args[0], Fraction(1)), (args[1], Fraction(1 if op == "add" else -1))]
    if op == "neg":
        return [(args[0], Fraction(-1))]
    if op == "mul" and args[0].op == "const":
        return [(args[1], Fraction(args[0].value))]
    if op == "mul" and args[1].op == "const":
        return [(args[0], Fraction(args[1].value))]
    if op == "div" and args[1].op == "const" and args[1].value != 0:
        return [(args[0], 1 / Fraction(args[1].value))]
    return None


def _scale(t: Terms, c: Fraction) -> Terms:
    if c == 1:       # shared, not copied: no Terms is changed in place
        return t
    return t[0] * c, {k: (n, q * c) for k, (n, q) in t[1].items()}


def _combine(a: Terms, b: Terms) -> Terms:
    """``a + b`` with the terms in the order ``a``'s, then ``b``'s new ones: merged in C and
    the shared terms fixed after (a view intersection walks the smaller dict), so a chain
    of ``n`` additions costs ``n^2`` copied entries, not ``n^2`` Python steps (3000 terms
    were traced in 38 s)."""
    acc = {**a[1], **b[1]}
    for k in a[1].keys() & b[1].keys():
        acc[k] = (a[1][k][0], a[1][k][1] + b[1][k][1])
    return a[0] + b[0], acc


def simplify(node: Node) -> Node:
    """``node`` as a sum of its additive terms with equal terms collected (and cancelled)."""
    const, acc = _terms(node, {})
    g = node.graph
    out = g.const(const)
    for term, coeff in acc.values():
        if coeff == 1:
            out = out + term
        elif coeff == -1:
            out = out - term
        elif coeff != 0:
            out = out + g.const(coeff) * term
    return out


def evaluate(node: Node, ctx: Any, env: Mapping[str, Any]) -> Any:
    """The graph's value in ``ctx`` with the variables set to ``env``; each node once, in
    an order found without recursion (a sum of a thousand terms is a chain that deep)."""
    memo: dict[int, Any] = {}
    stack = [node]
    while stack:
        n = stack[-1]
        if id(n) in memo:
            stack.pop()
            continue
        waiting = [x for x in n.args if id(x) not in memo]
        if waiting:
            stack.extend(waiting)
            continue
        stack.pop()
        memo[id(n)] = _apply(n, [memo[id(x)] for x in n.args], ctx, env)
    return memo[id(node)]


def _apply(n: Node, a: list[Any], ctx: Any, env: Mapping[str, Any]) -> Any:
    """One node's operation on its arguments' values ``a``."""
    op = n.op
    if op == "const":
        return numeric.to_ctx(ctx, n.value)
    if op == "var":
        return env[n.value]
    if op == "add":
        return a[0] + a[1]
    if op == "sub":
        return a[0] - a[1]
    if op == "mul":
        return a[0] * a[1]
    if op == "div":
        return a[0] / a[1]
    if op == "neg":
        return -a[0]
    if op == "sqrt":
        return ctx.sqrt(a[0])
    if op == "pi":
        return ctx.pi
    if op == "normal_sf":
        return special.normal_sf(ctx, a[0])
    if op == "unit_step":
        return dual.step(ctx, a[0])
    # exp, expm1, log, log1p, pos_part: reference.core.numeric's rigorous ones
    return getattr(numeric, op)(ctx, a[0])
