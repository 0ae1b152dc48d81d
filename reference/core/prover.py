"""Proofs over whole domains: adaptive branch and bound in interval arithmetic.

:func:`prove` covers a relation's box (:mod:`reference.core.relations`) with sub-boxes on
each of which mpmath's interval arithmetic shows the margin positive.  On a box it tries,
in order:

1. the margin's enclosure over the box (``plain``);
2. derivative enclosures (:mod:`reference.core.dual`): each variable whose partial
   derivative has one sign on the whole box is replaced by the end of its range where the
   margin is least, and the margin is enclosed on that smaller box (``fixed``): this proves
   relations up to a tight corner (a margin of exactly 0 at ``eps = 0``) without cutting it;
3. the margin at the box's centre, exactly: an upper end ``< 0`` (``<= 0`` for a strict
   relation) refutes the relation there, and the proof stops with that point;
4. otherwise the box is split in two, in the variable whose halves' lower bounds sum
   highest (or, when no split lifts the bound, the one with most of its range left), at a
   short dyadic number (geometrically for the relation's ``log_scale`` variables).

The result is a :class:`Proof`: proved, refuted (with the point and its enclosure), or
undecided (the time or box limit was reached; the boxes left are listed).  Its
:meth:`Proof.certificate` is the JSON document :mod:`reference.core.proofcheck` re-verifies
with a different evaluator.

A box's variables enter the formula as intervals (integer parameters as real ranges); the
formula is the results' own, evaluated in ``iv`` with the rigorous ``exp``/``log`` of
:mod:`reference.core.numeric`.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
from mpmath import iv, mp

from reference.core.dual import DualContext
from reference.core.numeric import endpoints, exact, precision, to_ctx, working
from reference.core.proofcheck import CHECK_EXTRA_BITS, leaf_holds
from reference.core.relations import Box, Relation, integer_cut, integer_point, text
from reference.core.trace import evaluate, traced

FORMAT = "dp-reference-proof/1"
#: Deepest split before a box is left undecided.
MAX_DEPTH = 200


#: Ends beyond 2^+-_FAR are not made Fractions (e^(-10^40) would be a fraction of 10^40
#: bits): decisions compare the ends themselves, exact binary numbers, with 0.
_FAR = 1 << 20


def _ends(x: Any) -> tuple[Any, Any] | None:
    """The ends of an ``iv`` number (exact binary ``mpf``), ``None`` if not finite."""
    if not isinstance(x, iv.mpf):
        x = iv.mpf(x)
    e = endpoints(x)
    if not (mpmath.isfinite(e.lo) and mpmath.isfinite(e.hi)):
        return None
    return e.lo, e.hi


def _near(v: Any) -> bool:
    """Whether ``v`` is 0 or within 2^+-_FAR (a Fraction of a reasonable size)."""
    return not v or abs(int(mpmath.mag(v))) <= _FAR


def _rational(v: Any) -> Fraction:
    """An end as a Fraction for the split heuristics (the bounds :func:`_split` compares,
    never a decision): exactly, or, beyond 2^+-_FAR, +-2^+-_FAR (same sign and side)."""
    if _near(v):
        return exact(v, "end", "prover")
    return (1 if v > 0 else -1) * Fraction(2) ** (_FAR if mpmath.mag(v) > 0 else -_FAR)


def _report(v: Any) -> str:
    """An end for a refutation's report: exact, or 20 digits beyond 2^+-_FAR."""
    return text(exact(v, "end", "prover")) if _near(v) else mpmath.nstr(v, 20)


def _interval(lo: Fraction, hi: Fraction) -> Any:
    a, b = endpoints(to_ctx(iv, lo)).lo, endpoints(to_ctx(iv, hi)).hi
    return iv.mpf((a, b))


def _margin(rel: Relation, box: Box, ctx: Any = iv) -> Any:
    """The margin on ``box`` (``ctx``: ``iv``, or a :class:`DualContext` over it)."""
    ints = integer_point(rel, box)
    if ints is None:
        return None     # a range of several integers: split
    values = [_interval(*box[n]) for n in rel.reals]
    if isinstance(ctx, DualContext):
        values = ctx.variables(values)
    try:
        return evaluate(traced(rel, ints), ctx, dict(zip(rel.reals, values, strict=True)))
    except (ZeroDivisionError, ValueError, mpmath.libmp.ComplexResult):
        return None     # undefined somewhere on the box: split


def _signs(rel: Relation, box: Box) -> dict[str, str]:
    """Variables with a proven sign of their partial derivative on the box."""
    out = _margin(rel, box, DualContext(iv, rel.reals))
    grads = [None] * len(rel.reals) if out is None else [_ends(g) for g in out.d]
    fixed: dict[str, str] = {}
    for name, g in zip(rel.reals, grads, strict=True):
        if g is not None and box[name][0] < box[name][1]:
            if g[0] >= 0:
                fixed[name] = "lo"
            elif g[1] <= 0:
                fixed[name] = "hi"
    return fixed


def reduce(box: Box, fixed: dict[str, str]) -> dict[str, tuple[Fraction, Fraction]]:
    """The box with each fixed variable set to the end named (``lo`` or ``hi``)."""
    out = dict(box)
    for name, end in fixed.items():
        v = box[name][0] if end == "lo" else box[name][1]
        out[name] = (v, v)
    return out


def _log2(q: Fraction) -> int:
    """``floor(log2 q)`` or one less, for ``q > 0`` (from bit lengths: any size)."""
    return q.numerator.bit_length() - q.denominator.bit_length() - 1


def split_point(lo: Fraction, hi: Fraction, geometric: bool) -> Fraction:
    """A short dyadic number strictly inside ``(lo, hi)``, near the middle (geometric
    middle for ``geometric`` ranges spanning more than a factor 4).

    The geometric middle ``2^t``, ``t = floor((l + h + 2)/2)`` with ``l, h`` the
    :func:`_log2` of the ends (``log2 q - 2 < _log2(q) <= log2 q``), lies inside: ``t <
    (log2 lo + log2 hi + 2)/2 < log2 hi`` as ``hi > 4 lo``; and ``2^t > lo``, since either
    ``lo < 2^(l+1) <= 2^t``, or ``lo >= 2^(l+1)``, when ``hi > 4 lo >= 2^(l+3)`` makes ``h
    >= l + 2`` and ``t >= l + 2``.
    """
    target = (lo + hi) / 2
    if geometric and lo > 0 and hi > 4 * lo:
        target = Fraction(2) ** ((_log2(lo) + _log2(hi) + 2) // 2)
    step = Fraction(2) ** (_log2(min(target - lo, hi - target)) - 2)
    at = round(target / step) * step
    return at if lo < at < hi else target


def _centre(rel: Relation, box: Box) -> dict[str, tuple[Fraction, Fraction]]:
    """The box's centre (a short dyadic point of each real range), as a box of points (the
    integer variables keep their ranges)."""
    return {n: (split_point(lo, hi, False),) * 2 if lo < hi and n not in rel.integers
            else (lo, hi) for n, (lo, hi) in box.items()}


def centred(rel: Relation, box: Box, c: Box) -> Any:
    """The centred (mean-value) form: ``m(c) + sum_v dm/dv(box) (x_v - c_v)`` over the box;
    it encloses the margin on the box, and its width shrinks with the square of the box's
    where the plain enclosure's shrinks only linearly (a difference of two results that
    share a term, the classic dependency problem of interval arithmetic)."""
    out = _margin(rel, box, DualContext(iv, rel.reals))
    total = _margin(rel, c)
    if out is None or total is None:
        return None
    for name, g in zip(rel.reals, out.d, strict=True):
        lo, hi = box[name]
        if lo < hi:
            total = total + g * _interval(lo - c[name][0], hi - c[name][0])
    return total


Attempt = tuple[dict[str, Any] | None, Fraction | None, dict[str, str]]


def _attempt(rel: Relation, box: Box) -> Attempt:
    """A proved leaf for ``box`` (or ``None``), the best lower bound found on it, and the
    variables in which the margin is monotone on it."""
    best: Fraction | None = None

    def better(x: Any) -> bool:
        nonlocal best
        e = None if x is None else _ends(x)
        if e is None:
            return False
        low = _rational(e[0])
        if best is None or low > best:
            best = low
        return bool(e[0] > 0 if rel.strict else e[0] >= 0)

    def confirmed(leaf: dict[str, Any]) -> bool:
        """The checker agrees: a leaf is certified only when the independent checker, whose
        arithmetic differs (ends computed by Arb), accepts it too; otherwise it is split."""
        return leaf_holds(rel, box, leaf, bits)

    bits = iv.prec + CHECK_EXTRA_BITS
    if better(_margin(rel, box)) and confirmed({"leaf": "plain"}):
        return {"leaf": "plain"}, best, {}
    fixed = _signs(rel, box)
    small = reduce(box, fixed)
    if fixed and better(_margin(rel, small)) and confirmed({"leaf": "plain", "fixed": fixed}):
        return {"leaf": "plain", "fixed": fixed}, best, fixed
    c = _centre(rel, small)
    if any(small[n][0] < small[n][1] for n in rel.reals) and better(centred(rel, small, c)):
        leaf: dict[str, Any] = {"leaf": "centred", "at": {n: text(c[n][0]) for n in rel.reals}}
        leaf = {**leaf, "fixed": fixed} if fixed else leaf
        if confirmed(leaf):
            return leaf, best, fixed
    return None, best, fixed


Halves = tuple[dict[str, tuple[Fraction, Fraction]], dict[str, tuple[Fraction, Fraction]]]


def _share(rel: Relation, box: Box, name: str) -> float:
    """The part of its domain range that ``name``'s range on ``box`` spans (in log2 for
    the log-scale variables): how much of the variable is left to split."""
    (lo, hi), (dlo, dhi) = box[name], rel.box()[name]
    if name in rel.log_scale:
        def log2(a: Fraction, b: Fraction) -> float:   # log2(b/a) for any sizes
            return math.log2(b.numerator * a.denominator) - math.log2(a.numerator * b.denominator)
        return log2(lo, hi) / log2(dlo, dhi)
    return float((hi - lo) / (dhi - dlo))


def _progress(score: Fraction | None, bound: Fraction | None) -> bool:
    """Whether halves whose lower bounds sum to ``score`` improve on the box's ``bound``
    by more than 1/64 of it (halves that lift the bound by less gain next to nothing)."""
    if score is None:
        return False
    return bound is None or score - 2 * bound > abs(bound) / 64


def _split(rel: Relation, box: Box, fixed: dict[str, str], bound: Fraction | None = None,
           ) -> tuple[str, Fraction, Halves, list[Attempt]]:
    """Split where it helps most: for each variable, the sum of the two halves' lower
    bounds; the variable with the greatest (ties: the first).  (The least of the two
    alone ties whenever no split lifts the worse half, e.g. when a variable that enters
    twice must be narrowed where the margin is small, and then picked the first variable
    for ever.)  When no split makes progress on the box's lower bound ``bound``
    (:func:`_progress`), the variable with the greatest share of its domain left is split
    instead (ties: the first): a split that lifts the bound by a hair would otherwise be
    repeated for ever while a wide variable keeps the enclosure loose.  A variable in
    which the margin is monotone on the box is not split (it is set to an end of its
    range), unless all are.  The halves' attempts are returned so that they are not
    repeated.  An integer variable whose range holds several integers is split first, at a
    half-integer (the formula is undefined until each holds one)."""
    best: tuple[Any, ...] | None = None
    options: list[tuple[Any, ...]] = []
    several = sorted(n for n in rel.integers if math.ceil(box[n][0]) != math.floor(box[n][1]))
    free = [n for n in rel.reals if box[n][0] < box[n][1]]
    for name in several[:1] or [n for n in free if n not in fixed] or free:
        lo, hi = box[name]
        geometric = name in rel.log_scale
        cut = integer_cut(lo, hi, geometric) if several else split_point(lo, hi, geometric)
        left, right = dict(box), dict(box)
        left[name], right[name] = (lo, cut), (cut, hi)
        tries = [_attempt(rel, left), _attempt(rel, right)]
        bounds = [t[1] for t in tries]
        score = None if None in bounds else sum(b for b in bounds if b is not None)
        options.append((score, name, cut, (left, right), tries))
        if best is None or (score is not None and (best[0] is None or score > best[0])):
            best = options[-1]
    assert best is not None, "a box of points is decided by its enclosure"
    if not _progress(best[0], bound):
        best = max(options, key=lambda o: _share(rel, box, o[1]))
    return best[1], best[2], best[3], best[4]


@dataclass
class Proof:
    """What :func:`prove` found: the tree of boxes, and its status."""

    relation: Relation
    status: str = "proved"                      # proved, refuted or undecided
    tree: dict[str, Any] = field(default_factory=dict)
    leaves: int = 0
    undecided: list[dict[str, tuple[Fraction, Fraction]]] = field(default_factory=list)
    counterexample: dict[str, Any] | None = None
    seconds: float = 0.0
    bits: int = 0

    def certificate(self) -> dict[str, Any]:
        """The JSON document of the proof (see :mod:`reference.core.proofcheck`)."""
        rel = self.relation
        return {"format": FORMAT, "relation": rel.id, "statement": rel.statement,
                "strict": rel.strict, "status": self.status,
                **({"integers": sorted(rel.integers)} if rel.integers else {}),
                "domain": {n: [text(lo), text(hi)] for n, lo, hi in rel.domain},
                "evaluator": f"mpmath {mpmath.__version__} iv", "bits": self.bits,
                "leaves": self.leaves, "seconds": round(self.seconds, 3), "tree": self.tree}


def prove(rel: Relation, time_limit: float = 60.0, max_leaves: int = 100_000) -> Proof:
    """Prove ``rel`` on its domain (see the module doc); never raises for a false relation.

    Boxes are processed breadth first, so that a corner where nothing can be decided (a
    singularity left in the domain) costs its share of the time and no more; the boxes left
    when ``time_limit`` seconds or ``max_leaves`` leaves are reached are undecided.
    """
    proof = Proof(rel)
    start = time.monotonic()
    root: dict[str, Any] = {}
    queue: deque[tuple[dict[str, Any], dict[str, tuple[Fraction, Fraction]], int, Any]] = \
        deque([(root, rel.box(), 0, None)])
    with precision(rel.dps), working(iv), mp.workdps(rel.dps):
        proof.bits = iv.prec
        while queue:
            node, box, depth, tried = queue.popleft()
            if time.monotonic() - start > time_limit or proof.leaves >= max_leaves \
                    or depth > MAX_DEPTH:
                node["undecided"] = True
                proof.undecided.append(box)
                continue
            leaf, bound, fixed = tried if tried is not None else _attempt(rel, box)
            if leaf is not None:
                node.update(leaf)
                proof.leaves += 1
                continue
            centre = _centre(rel, box)
            at = _margin(rel, centre)
            e = None if at is None else _ends(at)
            if e is not None and (e[1] <= 0 if rel.strict else e[1] < 0):
                proof.status, proof.tree = "refuted", {}
                proof.counterexample = {
                    "point": {n: text(v[0]) for n, v in centre.items()}
                    | {n: str(i) for n, i in (integer_point(rel, centre) or {}).items()},
                    "margin": [_report(e[0]), _report(e[1])],
                    "box": {n: [text(lo), text(hi)] for n, (lo, hi) in box.items()}}
                proof.seconds = time.monotonic() - start
                return proof
            name, cut, (left, right), tries = _split(rel, box, fixed, bound)
            node.update({"split": name, "at": text(cut), "lo": {}, "hi": {}})
            queue.append((node["lo"], left, depth + 1, tries[0]))
            queue.append((node["hi"], right, depth + 1, tries[1]))
    proof.tree = root
    proof.status = "undecided" if proof.undecided else "proved"
    proof.seconds = time.monotonic() - start
    return proof
