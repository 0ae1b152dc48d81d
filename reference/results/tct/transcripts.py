"""Exact transcript laws of small target-charging interactions (for checks, not for speed).

A non-adaptive sequence of private tests (test ``i`` answers 1 with probability ``a_i`` on
``D^0`` and ``b_i`` on ``D^1``) is run under single- or multi-target charging: the targets
are sets of answers (e.g. ``{1}`` and ``{0}``), a counter per target, halting when the
least-hit target reaches ``tau`` (Algorithm 8; ``r = 1`` is Algorithm 1).  The laws of the
halted transcripts are computed exactly by enumeration, so the hockey-stick divergence of
the interaction — its exact privacy profile — is available as an independent route.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

Law = dict[tuple[int, ...], Fraction]


def halted_laws(tests: Sequence[tuple[Fraction, Fraction]], targets: Sequence[frozenset[int]],
                tau: int) -> tuple[Law, Law]:
    """Laws on ``D^0`` and ``D^1`` of the transcript of r-target charging over ``tests``.

    The interaction stops after the test at which ``min_j C_j = tau`` (or after the last
    test).  Transcripts are tuples of answers.

    >>> F = Fraction
    >>> l0, l1 = halted_laws([(F(1, 2), F(1, 4))] * 2, [frozenset({1})], tau=1)
    >>> l0 == {(1,): F(1, 2), (0, 1): F(1, 4), (0, 0): F(1, 4)}, l1[(0, 0)]
    (True, Fraction(9, 16))
    """
    laws: tuple[Law, Law] = ({}, {})

    def walk(i: int, prefix: tuple[int, ...], counts: tuple[int, ...],
             mass: tuple[Fraction, Fraction]) -> None:
        if i == len(tests) or min(counts) >= tau:
            for b in (0, 1):
                if mass[b]:
                    laws[b][prefix] = laws[b].get(prefix, Fraction(0)) + mass[b]
            return
        a, c = tests[i]
        for y, (p0, p1) in ((1, (a, c)), (0, (1 - a, 1 - c))):
            if p0 == 0 and p1 == 0:
                continue
            nxt = tuple(k + (y in t) for k, t in zip(counts, targets, strict=True))
            walk(i + 1, (*prefix, y), nxt, (mass[0] * p0, mass[1] * p1))

    walk(0, (), tuple(0 for _ in targets), (Fraction(1), Fraction(1)))
    return laws


def hockey(law0: Law, law1: Law, w: Fraction) -> Fraction:
    """``sup_S law0(S) - w law1(S) = sum (law0 - w law1)_+`` (exact, rational ``w``)."""
    keys = set(law0) | set(law1)
    return sum((max(Fraction(0), law0.get(k, Fraction(0)) - w * law1.get(k, Fraction(0)))
                for k in keys), Fraction(0))


def profile_delta(law0: Law, law1: Law, w: Fraction) -> Fraction:
    """Smallest delta of ``(ln w, delta)``-indistinguishability of the two laws."""
    return max(hockey(law0, law1, w), hockey(law1, law0, w))


def valid_for(transcript: tuple[int, ...], target: frozenset[int], tau: int) -> bool:
    """Whether single-target charging with ``target`` halts exactly at this transcript."""
    hits = [y in target for y in transcript]
    return sum(hits) == tau and bool(hits) and hits[-1]
