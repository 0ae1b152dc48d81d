"""Samplers of one-shot top-k selection and SVT with individual charging (CL23 Algorithms
3 and 5).

The algorithms run on a small dataset API: a dataset is a sequence of items, a candidate
is ``candidate(data, rng) -> (solution, score)`` (an eps-DP algorithm), a query of
Algorithm 5 is ``(predicate, threshold)``.  The privacy bounds are registered in
:mod:`reference.results.tct.selection`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reference.core.errors import DomainError

Candidate = Callable[[Sequence[Any], np.random.Generator], tuple[Any, float]]


def one_shot_top_k(candidates: Sequence[Candidate], data: Sequence[Any], k: int,
                   rng: np.random.Generator) -> list[tuple[int, Any, float]]:
    """Algorithm 3: run every candidate once, return the ``k`` best ``(index, solution, score)``.

    Scores in decreasing order; ties go to the smaller index.

    >>> cands = [laplace_candidate(lambda d, c=c: sum(x == c for x in d), eps=1.0)
    ...          for c in range(3)]
    >>> out = one_shot_top_k(cands, [0, 1, 1, 2, 2, 2] * 20, 1, np.random.default_rng(1))
    >>> out[0][0]
    2
    """
    if not 1 <= k <= len(candidates):
        raise DomainError("k", k, f"must lie in [1, {len(candidates)}]", "Algorithm 3 (CL23)")
    runs = [(i, *cand(data, rng)) for i, cand in enumerate(candidates)]
    runs.sort(key=lambda r: (-r[2], r[0]))
    return runs[:k]


def laplace_candidate(f: Callable[[Sequence[Any]], float], eps: float) -> Candidate:
    """The eps-DP candidate ``(None, f(data) + Lap(1/eps))`` for a 1-Lipschitz ``f``."""
    def run(data: Sequence[Any], rng: np.random.Generator) -> tuple[Any, float]:
        return None, float(f(data) + rng.laplace(0.0, 1.0 / eps))
    return run


@dataclass
class IndividualSVT:
    """Algorithm 5: SVT with individual privacy charging (rebuilt from the surviving proof).

    Each query ``(predicate, threshold)`` gets the noisy count of the items still present,
    ``s = #{x: predicate(x)} + Lap(1/eps)``; if ``s >= threshold`` it publishes ``s`` (free
    by ConditionalRelease) and charges every present item with ``predicate(x)``, removing
    it at its ``tau``-th charge; otherwise it publishes ``None`` (⊥).

    >>> svt = IndividualSVT([1, 2, 3, 3], eps=2.0, tau=1)
    >>> g = np.random.default_rng(0)
    >>> out = [svt.query(lambda x: x == 3, 1.5, g) for _ in range(3)]
    >>> sorted(svt.data), out[1:]
    ([1, 2], [None, None])
    """

    data: list[Any]
    eps: float
    tau: int
    charges: dict[int, int] = field(default_factory=dict)

    def query(self, predicate: Callable[[Any], bool], threshold: float,
              rng: np.random.Generator) -> float | None:
        hits = [i for i, x in enumerate(self.data) if predicate(x)]
        noisy = len(hits) + rng.laplace(0.0, 1.0 / self.eps)
        if noisy < threshold:
            return None
        keep: list[Any] = []
        counts: dict[int, int] = {}
        for i, x in enumerate(self.data):
            c = self.charges.get(i, 0) + (1 if i in hits else 0)
            if c < self.tau:
                counts[len(keep)] = c
                keep.append(x)
        self.data, self.charges = keep, counts
        return float(noisy)
