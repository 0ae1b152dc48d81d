"""Shared strategies and independent routes for the composition property tests.

Brute-force enumeration of products of randomized response (RRUV16 Def 2.6), of the 2^k
subsets in MV16 Thm 1.5 as printed, a float computation of the exact optimal delta with
scipy's binomial law, and exact comparisons.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import strategies as st
from mpmath import mp
from scipy import stats as sst

from reference.core.numeric import exact

eps_small = st.floats(1e-3, 1.0)
ks = st.integers(1, 300)
slacks = st.floats(1e-8, 0.5)
leaks = st.sampled_from([0.0, 1e-9, 1e-6, 1e-4])


def rr_pair(eps: mpmath.mpf, delta: mpmath.mpf) -> tuple[list[mpmath.mpf], list[mpmath.mpf]]:
    """RR_{eps,delta}(0) and RR_{eps,delta}(1) over (0, top, bottom, 1): RRUV16 Def 2.6."""
    p = mp.exp(eps) / (1 + mp.exp(eps))
    return ([delta, (1 - delta) * p, (1 - delta) * (1 - p), mp.zero],
            [mp.zero, (1 - delta) * (1 - p), (1 - delta) * p, delta])


def product_hockey_stick(pairs: list[tuple[list[mpmath.mpf], list[mpmath.mpf]]],
                         eps_g: mpmath.mpf) -> mpmath.mpf:
    """sum over all outcome sequences of [P(seq) - e^eps_g Q(seq)]_+, by enumeration."""
    scale = mp.exp(eps_g)
    total = mp.zero
    for seq in itertools.product(*(range(len(p)) for p, _ in pairs)):
        pp = mp.fprod(pairs[i][0][s] for i, s in enumerate(seq))
        qq = mp.fprod(pairs[i][1][s] for i, s in enumerate(seq))
        total += max(pp - scale * qq, mp.zero)
    return total


def float_delta(eps: float, k: int, eps_g: float, delta: float = 0.0) -> float:
    """delta_opt with scipy's binomial pmf in double precision (loss L = eps(k - 2 Bin))."""
    j = np.arange(k + 1)
    gap = (k - 2 * j) * eps - eps_g
    pmf = sst.binom.pmf(j, k, 1 / (1 + np.exp(eps)))
    pos = gap > 0
    rr = float(np.sum(pmf[pos] * -np.expm1(-gap[pos])))
    return 1 - (1 - delta) ** k + (1 - delta) ** k * rr


def leq(a: object, b: object, rel: float = 1e-40) -> bool:
    """``a <= b (1 + rel)``, compared exactly on the binary values."""
    fa, fb = exact(a, "a", "test"), exact(b, "b", "test")
    return fa <= fb + Fraction(rel) * abs(fb)


def near(a: object, b: object, rel: float) -> bool:
    """``|a - b| <= rel (1 + |b|)``, compared exactly on the binary values."""
    fa, fb = exact(a, "a", "test"), exact(b, "b", "test")
    return abs(fa - fb) <= Fraction(rel) * (1 + abs(fb))


def floor_delta(delta: float, k: int) -> Fraction:
    d = Fraction(delta)
    return 1 - (1 - d) ** k


small_eps = st.sampled_from(["0.05", "0.1", "0.25", "0.5", "1", "1.5"])


def q(x: object) -> Fraction:
    """An mpmath endpoint as an exact rational (for exact comparisons)."""
    return exact(x, "x", "test")


def brute_force_delta(eps: list[str], eps_g: str, delta: list[str] | None = None) -> mpmath.mpf:
    """MV16 Thm 1.5 as printed: a sum over all 2^k subsets, at 60 digits."""
    with mp.workdps(60):
        e = [mp.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in eps]
        g = mp.mpf(Fraction(eps_g).numerator) / Fraction(eps_g).denominator
        total = mp.zero
        for inside in itertools.product([False, True], repeat=len(e)):
            a = mp.fsum(x for x, s in zip(e, inside, strict=True) if s)
            b = mp.fsum(x for x, s in zip(e, inside, strict=True) if not s)
            total += max(mp.exp(a) - mp.exp(g) * mp.exp(b), mp.zero)
        pure = total / mp.fprod(1 + mp.exp(x) for x in e)
        if not delta:
            return +pure
        keep = mp.fprod(1 - mp.mpf(Fraction(d).numerator) / Fraction(d).denominator
                        for d in delta)
        return 1 - keep + keep * pure
