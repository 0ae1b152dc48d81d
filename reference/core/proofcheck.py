"""The independent checker of the prover's certificates, in python-flint's arb balls.

A certificate (:meth:`reference.core.prover.Proof.certificate`) is a tree: a node splits a
box in two at an exact point of one variable's range, a leaf says how the margin is shown
positive on its box (``plain``: its enclosure; ``fixed``: the named variables set to one
end of their ranges, after their partial derivatives are shown to have the matching sign on
the whole box).  A relation's integer variables are split at half-integers, and a leaf's box
holds one value of each (the formula is evaluated there).  :func:`check` re-walks the tree
from the relation's *own* domain (so the leaves cover it by construction), checks that each
split point lies strictly inside its range, and re-evaluates every leaf with
:class:`~reference.core.balls.Balls` (Arb, a library that shares no code with mpmath's
interval arithmetic that made the proof).  It shares no code with the prover: only the
relation's formula and the derivative rules of :mod:`reference.core.dual`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reference.core.balls import Balls, balls, positive
from reference.core.dual import DualContext
from reference.core.relations import Box, Relation, integer_point, text
from reference.core.trace import evaluate, traced

FORMAT = "dp-reference-proof/1"
#: The checker works with this many more bits than the prover's interval arithmetic.
CHECK_EXTRA_BITS = 64


class CertificateError(ValueError):
    """A certificate that does not prove its relation (the message says where and why)."""


def _ball(ctx: Balls, lo: Fraction, hi: Fraction) -> Any:
    return ctx.mpf(lo) if lo == hi else ctx.mpf((lo, hi))


def _margin(rel: Relation, ctx: Balls, box: dict[str, tuple[Fraction, Fraction]],
            dual: bool = False) -> Any:
    ints = integer_point(rel, box)
    if ints is None:
        return None
    values = [_ball(ctx, *box[n]) for n in rel.reals]
    c: Any = ctx
    if dual:
        c = DualContext(ctx, rel.reals)
        values = c.variables(values)
    try:
        return evaluate(traced(rel, ints), c, dict(zip(rel.reals, values, strict=True)))
    except (ZeroDivisionError, ValueError):
        return None


def _centred(rel: Relation, ctx: Balls, box: dict[str, tuple[Fraction, Fraction]],
             at: object, where: str) -> Any:
    """``m(c) + sum_v dm/dv(box) (x_v - c_v)``: encloses the margin on the box (mean value
    theorem) for any point ``c`` of the box."""
    if not isinstance(at, dict) or set(at) != set(rel.reals):
        raise CertificateError(f"{where}: a centred leaf needs a point of every real variable")
    c = {n: Fraction(at[n]) for n in rel.reals}
    for n in rel.reals:
        if not box[n][0] <= c[n] <= box[n][1]:
            raise CertificateError(f"{where}: the centre {n}={c[n]} is outside {box[n]}")
    out = _margin(rel, ctx, box, dual=True)
    total = _margin(rel, ctx, {**box, **{n: (c[n], c[n]) for n in rel.reals}})
    if out is None or total is None:
        return None
    for n, g in zip(rel.reals, out.d, strict=True):
        lo, hi = box[n]
        if lo < hi:
            total = total + g * _ball(ctx, lo - c[n], hi - c[n])
    return total


def _leaf(rel: Relation, ctx: Balls, box: dict[str, tuple[Fraction, Fraction]],
          leaf: dict[str, Any], where: str) -> None:
    if "fixed" in leaf:
        fixed = leaf.get("fixed")
        if not isinstance(fixed, dict) or not fixed:
            raise CertificateError(f"{where}: a fixed leaf names no variable")
        out = _margin(rel, ctx, box, dual=True)
        if out is None:
            raise CertificateError(f"{where}: derivatives undefined on the box")
        grads = dict(zip(rel.reals, out.d, strict=True))
        reduced = dict(box)
        for name, end in fixed.items():
            if name not in grads or end not in ("lo", "hi"):
                raise CertificateError(f"{where}: bad fixed variable {name}={end}")
            g = grads[name]
            if not positive(g if end == "lo" else -g, strict=False):
                raise CertificateError(f"{where}: the derivative in {name} is not "
                                       f"{'>=' if end == 'lo' else '<='} 0 on the box: {g}")
            v = box[name][0] if end == "lo" else box[name][1]
            reduced[name] = (v, v)
        box = reduced
    if leaf.get("leaf") == "centred":
        value = _centred(rel, ctx, box, leaf.get("at"), where)
    elif leaf.get("leaf") == "plain":
        value = _margin(rel, ctx, box)
    else:
        raise CertificateError(f"{where}: not a proved leaf: {leaf}")
    if value is None or not positive(value, rel.strict):
        raise CertificateError(f"{where}: the margin is not {'>' if rel.strict else '>='} 0 "
                               f"on the box: {value}")


def leaf_holds(rel: Relation, box: Box,
               leaf: dict[str, Any], bits: int) -> bool:
    """Whether the leaf would pass :func:`check` at ``bits`` (the prover asks before it
    certifies a leaf)."""
    ctx = balls()
    old = ctx.prec
    ctx.prec = bits
    try:
        _leaf(rel, ctx, dict(box), leaf, "")
        return True
    except CertificateError:
        return False
    finally:
        ctx.prec = old


def check(cert: dict[str, Any], rel: Relation, bits: int | None = None) -> int:
    """Re-verify ``cert`` for ``rel``; the number of leaves, or :class:`CertificateError`."""
    if cert.get("format") != FORMAT:
        raise CertificateError(f"unknown format {cert.get('format')!r}")
    if cert.get("relation") != rel.id:
        raise CertificateError(f"the certificate is for {cert.get('relation')!r}, not {rel.id}")
    domain = {n: [text(lo), text(hi)] for n, lo, hi in rel.domain}
    if cert.get("domain") != domain:
        raise CertificateError(f"{rel.id}: the certificate's domain {cert.get('domain')} is "
                               f"not the relation's {domain}")
    if cert.get("strict") is not rel.strict:
        raise CertificateError(f"{rel.id}: the certificate's strictness differs")
    if cert.get("integers", []) != sorted(rel.integers):
        raise CertificateError(f"{rel.id}: the certificate's integer variables "
                               f"{cert.get('integers', [])} are not {sorted(rel.integers)}")
    if bits is None:
        stated = cert.get("bits")
        if not isinstance(stated, int) or isinstance(stated, bool) or stated < 2:
            raise CertificateError(f"{rel.id}: the certificate states no precision (bits): "
                                   f"{stated!r}")
        bits = stated + CHECK_EXTRA_BITS
    ctx = balls()
    old = ctx.prec
    ctx.prec = bits
    count = 0

    def walk(node: Any, box: dict[str, tuple[Fraction, Fraction]], where: str) -> None:
        nonlocal count
        if not isinstance(node, dict):
            raise CertificateError(f"{where}: not a node: {node!r}")
        if "split" in node:
            name, at = node["split"], Fraction(node["at"])
            if name not in box or not box[name][0] < at < box[name][1]:
                raise CertificateError(f"{where}: split {name} at {at} is not inside "
                                       f"{box.get(name)}")
            left, right = dict(box), dict(box)
            left[name], right[name] = (box[name][0], at), (at, box[name][1])
            walk(node.get("lo"), left, where + f"/{name}<={at}")
            walk(node.get("hi"), right, where + f"/{name}>={at}")
            return
        _leaf(rel, ctx, box, node, where or "/")
        count += 1

    try:
        walk(cert.get("tree"), rel.box(), "")
    finally:
        ctx.prec = old
    return count
