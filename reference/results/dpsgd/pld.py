"""DP-SGD's optimal epsilon and delta, bracketed: the hockey-stick divergence of ``T`` steps of
the Poisson-subsampled Gaussian mechanism (add/remove neighbours), certified two-sided.

The exact privacy profile of ``T`` adaptive steps is ``delta(eps) = max(H_{e^eps}(P^T || Q^T),
H_{e^eps}(Q^T || P^T))`` for the pair ``P = (1-q) N(0, sigma^2) + q N(1, sigma^2)``, ``Q = N(0,
sigma^2)`` of one step (Zhu, Dong, Wang 2022, arXiv:2106.08567; dominating pairs:
the "remove" and "add" directions).  :mod:`reference.results.dpsgd.pld_grid` turns each
direction's privacy loss into a grid law ``r`` (exact integers) coupled with the true loss:
``S' - T mu_hi - s <= S <= S' - T mu_lo + s`` except with probability ``eta`` each, and
``sum r f <= E f(S') <= sum r f + (1 - mass r)`` for increasing ``f`` in ``[0, 1]``.  With
``f = (1 - e^(eps - .))_+`` and ``delta_r(x) = sum_i r_i (1 - e^(x - s_i))_+``:

    delta_r(eps + t_lo) - eta  <=  delta(eps)  <=  delta_r(eps - t_up) + (1 - mass r) + eta,

``t_up = s - T mu_lo``, ``t_lo = s + T mu_hi``; ``s`` from Bernstein's inequality
(``|Y - X - mu| <= b = h + |mu|``, variance at most ``v``, ``s = b L/3 + sqrt((b L/3)^2 + 2 L
T v)``, ``L = ln(1/eta)``).  Both sides are read off ``r`` at grid points (``delta_r`` is
decreasing), so each end costs a binary search.  The width of an epsilon bracket is about
``2 s ~ 2 h sqrt(T L)``: the grid step ``h`` is chosen from a coarse pass so that it is about
1% of epsilon (``WIDTH``), with at most ``2^MAX_LOG2_BINS`` bins per step.  At ``q = 1`` the
two directions are mirror images (``z -> 1 - z`` swaps ``N(0)`` and ``N(1)``), so one is
computed; otherwise the "add" direction is computed coarsely first and finely only when its
upper end is not below the "remove" direction's lower end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
from flint import arb
from mpmath import iv

from reference.core.caches import kept
from reference.core.errors import DomainError
from reference.core.model import result
from reference.core.numeric import MPF, Ctx, exact, is_interval, to_ctx
from reference.core.params import count, nonneg, unit_open
from reference.results.dpsgd.pld_compose import compose, delta_at, fraction_of, refuse_larger, sized
from reference.results.dpsgd.pld_grid import (
    ADD,
    REMOVE,
    SYMMETRIC,
    cut_below,
    cut_width,
    dyadic_below,
    int_above,
    int_below,
    normal_quantile,
    single_step,
    symmetric_step,
    working_bits,
)
from reference.results.dpsgd.rdp_accountant import _Q, _SIGMA, delta_bound

#: Target relative width of an epsilon bracket (met when the bin cap allows).
WIDTH = Fraction(1, 100)
#: Most bins of one step's table (``2^17``: about 6 s to tabulate, see the docs page).
MAX_LOG2_BINS = 17
#: Bernstein's failure probability is ``delta / ETA_SHARE`` on each side (it moves the delta
#: read off the grid by that much: a larger share costs ``sqrt(ln)`` in the spread, a smaller
#: one shifts epsilon by about ``(1/ETA_SHARE) / |d ln delta / d eps|``).
ETA_SHARE = 1024
#: Relative width aimed at for a delta bracket.
DELTA_WIDTH = Fraction(1, 10)
#: Least width aimed at (for small epsilon): the bracket is ``max(WIDTH eps, ABS_WIDTH)`` wide.
ABS_WIDTH = Fraction(1, 100)
MIN_SIGMA, MAX_SIGMA = Fraction(1, 2), Fraction(100)
MIN_DELTA = Fraction(1, 10**12)
MAX_STEPS = 10**5

Triple = tuple[Fraction, Fraction, Fraction]


class _Composed:
    """One direction's composed grid law and its error terms."""

    def __init__(self, q: Fraction, sigma: Fraction, steps: int, direction: str,
                 grid: _Grid, bits: int, budget: float) -> None:
        # mass given up, out of the bracket's delta: 2^-13 by the table's ends over all
        # steps, 2^-12 by the cuts of the composition (at most 4 per bit of steps)
        cut = _cut(budget, steps)
        if direction == SYMMETRIC:
            step = symmetric_step(q, sigma, grid.h, bits, cut, grid.wide,
                                  (grid.sparse(q, sigma, REMOVE), grid.sparse(q, sigma, ADD)))
        else:
            step = single_step(q, sigma, direction, grid.h, bits, cut, grid.wide,
                               grid.sparse(q, sigma, direction))
        self.offset, self.poly = compose(step, steps, Fraction(budget) / 2**12)
        self.step, self.steps, self.bits = step, steps, bits
        self.h = arb(grid.h.numerator) / grid.h.denominator
        self.deficit = (1 - arb(int(self.poly(1))) / arb(2) ** bits).upper()
        if not self.deficit >= 0:  # every coefficient is below a probability: never
            raise ArithmeticError(f"the grid law's mass exceeds 1 by {-self.deficit}")

    def delta(self, index: int) -> arb:
        return delta_at(self.offset, self.poly, self.step.h, self.bits, index)

    def spreads(self, eta: arb) -> tuple[arb, arb]:
        """``(t_up, t_lo)`` (upper bounds) for the failure probability ``eta``."""
        st, big_l = self.step, -eta.log()
        b = st.wide * self.h + max(abs(st.bias_lo), abs(st.bias_hi))
        c = b * big_l / 3
        s = c + (c * c + 2 * big_l * self.steps * st.square).sqrt()
        return (s - self.steps * st.bias_lo).upper(), (s + self.steps * st.bias_hi).upper()

    def end(self) -> int:
        return self.offset + self.poly.length()


def _first(pred: Callable[[int], bool], lo: int, hi: int) -> int:
    """The least ``k`` in ``(lo, hi]`` with ``pred(k)``, given ``pred(hi)`` and not
    ``pred(lo)`` (a binary search: ``pred`` is monotone up to rounding; the answer satisfies
    ``pred``, which is all the bounds need)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _eps_triple(c: _Composed, delta: Fraction) -> Triple:
    """``(lo, estimate, hi)`` of this direction's epsilon at ``delta``."""
    d = arb(delta.numerator) / delta.denominator
    eta = d / ETA_SHARE
    t_up, t_lo = c.spreads(eta)
    room = (d - c.deficit - eta).lower()
    if not room > 0:
        raise ArithmeticError("the grid's lost mass exceeds delta; raise the bits")
    k_start = int_below(-t_up / c.h) - 1
    hi: Fraction = Fraction(0)

    def below(k: int) -> bool:
        return bool(c.delta(k).upper() <= room)
    if not below(k_start):
        k = _first(below, k_start, c.end())
        hi = max(Fraction(0), fraction_of((k * c.h + t_up).upper()))
    k_a = int_above(t_lo / c.h)
    lo: Fraction = Fraction(0)
    floor_d = (d + eta).upper()

    def above(k: int) -> bool:
        return bool(c.delta(k).lower() > floor_d)
    if above(k_a):
        k = _first(lambda j: not above(j), k_a, c.end()) - 1
        lo = max(Fraction(0), fraction_of((k * c.h - t_lo).lower()))
    k = _first(lambda j: bool(c.delta(j).mid() <= d), -1, c.end())
    est = min(max(k * c.step.h, lo), hi)
    return lo, est, hi


def _delta_triple(c: _Composed, eps: Fraction) -> Triple:
    """``(lo, estimate, hi)`` of this direction's delta at ``eps``."""
    e = arb(eps.numerator) / eps.denominator
    est_arb = c.delta(int_below((e / c.h).mid()))
    est = min(max(fraction_of(est_arb.mid()), Fraction(0)), Fraction(1))
    eta = max(est_arb.mid() / ETA_SHARE, arb(2) ** (20 - c.bits))
    t_up, t_lo = c.spreads(eta)
    k_hi = int_below((e - t_up) / c.h)
    k_lo = int_above((e + t_lo) / c.h)
    hi = min(Fraction(1), fraction_of((c.delta(k_hi) + c.deficit + eta).upper()))
    lo = max(Fraction(0), fraction_of((c.delta(k_lo) - eta).lower()))
    return lo, min(max(est, lo), hi), hi


def _cut(budget: float, steps: int) -> Fraction:
    """Standard deviations tabulated: the mass beyond, over all steps, below ``budget 2^-13``."""
    return cut_width(budget / steps / 2**13)


def _float_loss(q: float, s2: float, z: float) -> float:
    w = (2 * z - 1) / (2 * s2)
    return w if q == 1 else math.log1p(q * math.expm1(w))


class _Grid:
    """The grid step ``h`` (a dyadic number with a 3-bit mantissa) and how wide the bins
    are in the tail of small probability (``wide`` steps, where that tail's mass is below
    ``0.03 / wide^2``: the variance grows by at most 3%)."""

    def __init__(self, h: Fraction, wide: int) -> None:
        self.h, self.wide = h, wide

    def sparse(self, q: Fraction, sigma: Fraction, direction: str) -> float | None:
        if self.wide == 1:
            return None
        c = normal_quantile(0.03 / self.wide**2)
        qf, s2 = float(q), float(sigma) ** 2
        if direction == REMOVE:
            return _float_loss(qf, s2, 1 + c * float(sigma))
        return -_float_loss(qf, s2, c * float(sigma))


def _loss_range(q: Fraction, sigma: Fraction, cut: Fraction) -> tuple[float, float]:
    """One step's tabulated loss range (remove direction; floats: sizing only)."""
    qf, s2, sg = float(q), float(sigma) ** 2, float(sigma)
    low = _float_loss(qf, s2, -float(cut) * sg) if cut_below(q, sigma, cut) else math.log1p(-qf)
    return low, _float_loss(qf, s2, 1 + float(cut) * sg)


def _scale(q: Fraction, sigma: Fraction, steps: int, cut: Fraction, bits: int) -> float:
    """``T mu + 4 sqrt(T v)`` for one step's loss mean ``mu`` and variance ``v`` (remove
    direction, a 2^11-bin table; floats): the scale of the composed loss, to size the
    sizing pass (a bracket 1/20 of it wide), whose grid would otherwise resolve a large
    epsilon far too finely (``q = 1/10, sigma = 1/2, 10^5`` steps: 7 million coefficients)."""
    low, top = _loss_range(q, sigma, cut)
    h = dyadic_below(max(top - low, 1e-300) / 2**11)
    step = single_step(q, sigma, REMOVE, h, bits, cut)
    poly = step.poly
    d1 = poly.derivative()
    m0, m1, m2 = int(poly(1)), int(d1(1)), int(d1.derivative()(1)) + int(d1(1))
    if m0 <= 0:
        return 0.0
    mean = Fraction(m1, m0)
    var = max(Fraction(m2, m0) - mean * mean, Fraction(0))
    mu, v = float((step.offset + mean) * h), float(var * h * h)
    return max(steps * mu + 4 * math.sqrt(steps * v), 0.0)


def _plan(q: Fraction, sigma: Fraction, steps: int, cut: Fraction, width: float,
          big_l: float) -> _Grid:
    """The grid for an epsilon bracket about ``width`` wide: ``2 s <= width`` with ``s =
    b L/3 + sqrt(L T) h`` (Bernstein, variance about ``h^2/2``), the bin width in the tail
    chosen to need the fewest evaluations, at most ``2^MAX_LOG2_BINS`` of them."""
    qf, s2, sg = float(q), float(sigma) ** 2, float(sigma)
    low, top = _loss_range(q, sigma, cut)
    best: tuple[float, Fraction, int] | None = None
    for wide in (1, 2, 4, 8, 16):
        h = dyadic_below(0.38 * width / (math.sqrt(1.03 * big_l * steps) + wide * big_l / 3))
        split = _float_loss(qf, s2, 1 + normal_quantile(0.03 / wide**2) * sg)
        split = min(max(split, low), top)
        evaluations = (split - low) / float(h) + (top - split) / (wide * float(h))
        if best is None or evaluations < best[0]:
            best = (evaluations, h, wide)
    assert best is not None
    evaluations, h, wide = best
    if evaluations > 2**MAX_LOG2_BINS:  # the cap: a wider bracket
        h = dyadic_below(1.25 * float(h) * evaluations / 2**MAX_LOG2_BINS)
    return _Grid(h, wide)


@lru_cache(maxsize=32)
def bracket(kind: str, q: Fraction, sigma: Fraction, steps: int, x: Fraction,
            symmetric: bool = False) -> Triple:
    """``(lo, estimate, hi)`` of the optimal epsilon at ``delta = x`` (``kind = "eps"``) or of
    the optimal delta at ``eps = x`` (``kind = "delta"``); cached.  The grid is sized for an
    epsilon bracket ``max(WIDTH eps, ABS_WIDTH)`` wide (for delta: at ``eps = x``).  With
    ``symmetric`` the same for the symmetric law (one law, no directions; sized on the
    remove direction, which shares its positive part)."""
    triple = _eps_triple if kind == "eps" else _delta_triple
    small = x if kind == "eps" else Fraction(1, 2**40)  # the delta resolved

    def sizes(d: Fraction) -> tuple[int, float, Fraction]:
        return 64 + math.ceil(math.log2(1 / d)), float(d), _cut(float(d), steps)
    bits, tail, cut = sizes(small)
    if kind == "delta":  # below any grid's upper end (its eta >= 2^(20 - bits)): no grid
        bound = delta_bound(q, sigma, steps, x)
        if bound <= mpmath.mpf(2) ** (20 - bits):
            hi = exact(max(bound, mpmath.mpf(2) ** -2**16), "delta bound", "DPSGD:delta")
            return Fraction(0), hi, hi
    with working_bits(bits + 48):
        coarse = _plan(q, sigma, steps, cut, max(64 * float(ABS_WIDTH),
                                                 _scale(q, sigma, steps, cut, bits) / 20), 20.0)
        first = _Composed(q, sigma, steps, REMOVE, coarse, bits, tail)
        rough = triple(first, x)
    if kind == "delta":  # resolve the delta found, not 2^-40
        small = max(min(rough[1], Fraction(1, 2)), small)
        bits, tail, cut = sizes(small)
    with working_bits(bits + 48):
        if kind == "eps":
            width = max(float(WIDTH * rough[1]), float(ABS_WIDTH))
        else:  # an epsilon width that moves delta by about DELTA_WIDTH (relative)
            slope = _log_slope(first, x)
            width = float(DELTA_WIDTH) / slope if slope > 0 else 64 * float(ABS_WIDTH)
            width = max(min(width, 64 * float(ABS_WIDTH)), 1e-12)
        big_l = math.log(ETA_SHARE / float(small))
        grid = _plan(q, sigma, steps, cut, width, big_l)
        if grid.h >= coarse.h and first.bits == bits:  # the coarse pass is fine enough
            grid = coarse
        refuse_larger(first.poly.length(), coarse.h, grid.h)   # before tabulating that grid
        if symmetric:
            return triple(_Composed(q, sigma, steps, SYMMETRIC, grid, bits, tail), x)
        fine = first if grid is coarse else _Composed(q, sigma, steps, REMOVE, grid, bits, tail)
        out = triple(fine, x)
        if q < 1:  # the add direction: first on a grid 4 times coarser
            rough_grid = _plan(q, sigma, steps, cut, 4 * width, big_l)
            add = triple(_Composed(q, sigma, steps, ADD, rough_grid, bits, tail), x)
            if add[2] > out[0] and grid.h < rough_grid.h:
                add = triple(_Composed(q, sigma, steps, ADD, grid, bits, tail), x)
            out = (max(out[0], add[0]), max(out[1], add[1]), max(out[2], add[2]))
    return out


kept(bracket.cache_clear)


def _log_slope(c: _Composed, eps: Fraction) -> float:
    """``-d ln delta / d eps`` near ``eps`` on the sizing pass's grid law (floats: sizing
    only; ``inf`` where the grid's delta vanishes just above ``eps``)."""
    i = math.floor(eps / c.step.h)
    a, b = float(c.delta(i - 2).mid()), float(c.delta(i + 2).mid())
    if a <= 0:
        return 0.0
    return math.inf if b <= 0 else math.log(a / b) / (4 * float(c.step.h))


def grid_limits(lo: Fraction, hi: Fraction, why: str) -> Callable[[Mapping[str, Any], str], None]:
    """The precondition refusing inputs outside the sizes the grid is built for: ``sigma`` in
    ``[lo, hi]`` (``why`` says why) and ``delta >= MIN_DELTA``."""
    def check(values: Mapping[str, Any], where: str) -> None:
        sigma = values["sigma"]
        if not lo <= sigma <= hi:
            raise DomainError("sigma", str(sigma), f"must lie in [{lo}, {hi}] ({why})", where)
        if "delta" in values and values["delta"] < MIN_DELTA:
            raise DomainError("delta", str(values["delta"]), f"must be at least {MIN_DELTA} "
                              f"(the integers carry 64 + log2(1/delta) bits)", where)
    return check


_limits = grid_limits(MIN_SIGMA, MAX_SIGMA, "the grid is sized for these losses: below 1/2 one "
                      "step's loss range grows like 1/sigma^2")

_STEPS = count("steps", "1000", "number of steps (compositions)", hi=MAX_STEPS)


def _answer(ctx: Ctx, t: Triple) -> MPF:
    """The bracket as an interval (outward) or the estimate as a point."""
    if is_interval(ctx):
        return iv.mpf((to_ctx(ctx, t[0]).a, to_ctx(ctx, t[2]).b))
    return to_ctx(ctx, t[1])


@result("DPSGD:eps", title="DP-SGD optimal epsilon, bracketed (privacy-loss distribution)",
        kind="composition",
        statement=r"\varepsilon=\inf\{\varepsilon\ge0:\max(H_{e^\varepsilon}(P^T\|Q^T),"
                  r"H_{e^\varepsilon}(Q^T\|P^T))\le\delta\},\ P=(1-q)\mathcal N(0,\sigma^2)"
                  r"+q\mathcal N(1,\sigma^2),\ Q=\mathcal N(0,\sigma^2)",
        params=[_Q, _SIGMA, _STEPS, unit_open("delta", "1e-5", "target delta")],
        precondition=_limits, exact_inputs=True)
def dpsgd_eps(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int, delta: Fraction) -> MPF:
    """The optimal epsilon of ``steps`` steps of DP-SGD (Poisson sampling, add/remove).

    The exact epsilon of the composed dominating pair, bracketed by a discretised
    privacy-loss distribution with rigorous error terms (our construction: see this module's
    and :mod:`reference.results.dpsgd.pld_grid`'s docstrings).  The enclosure is the bracket
    ``[lo, hi]``, about ``max(1% eps, 0.01)`` wide when the grid cap allows; the plain value is the
    grid's own estimate (no error terms), inside it.  Domain: ``0 <= q <= 1``, ``1/2 <= sigma
    <= 100``, ``1 <= steps <= 10^5``, ``10^-12 <= delta < 1``; a composed law of more than
    ``2^20`` coefficients is refused (:func:`.pld_compose.sized`).

    With ``q = 1/100``, ``sigma = 1``, ``10^4`` steps and ``delta = 1e-5`` it is about 6.19
    (the RDP route, ``DPSGD:eps-rdp``, gives 6.71):

    >>> print(mpmath.nstr(dpsgd_eps(q="0.01", sigma=1, steps=10000, delta="1e-5"), 3))
    6.19
    """
    if q == 0:
        return ctx.zero
    return _answer(ctx, sized("DPSGD:eps", q, sigma, steps,
                             lambda: bracket("eps", q, sigma, steps, delta)))


@result("DPSGD:delta", title="DP-SGD optimal delta, bracketed (privacy-loss distribution)",
        kind="composition",
        statement=r"\delta=\max(H_{e^\varepsilon}(P^T\|Q^T),H_{e^\varepsilon}(Q^T\|P^T))",
        params=[_Q, _SIGMA, _STEPS, nonneg("eps", "2", "target epsilon")],
        precondition=_limits, exact_inputs=True)
def dpsgd_delta(ctx: Ctx, q: Fraction, sigma: Fraction, steps: int, eps: Fraction) -> MPF:
    """The optimal delta at ``eps`` of ``steps`` steps of DP-SGD (Poisson, add/remove).

    The converse of :func:`dpsgd_eps`, bracketed the same way; the grid is sized from the
    slope of ``ln delta`` so that the bracket is about 10% wide (relative) when the cap
    allows.  Far in the tail, where the RDP conversion at the orders 2, 4, ..., 256
    (:func:`reference.results.dpsgd.rdp_accountant.delta_bound`) is below ``2^-84`` (under
    every grid bracket's additive term), the bracket is ``[0, that bound]`` (rounded up to
    ``2^-65536`` if smaller), the plain value its upper end, and no grid is built.
    Domain: ``0 <= q <= 1``, ``1/2 <= sigma <= 100``, ``1 <= steps <= 10^5``, ``eps >= 0``;
    a composed law of more than ``2^20`` coefficients is refused, as for :func:`dpsgd_eps`.

    At the epsilon that :func:`dpsgd_eps` estimates for ``delta = 1e-5`` (6.19) the delta is
    about ``1e-5`` again:

    >>> print(mpmath.nstr(dpsgd_delta(q="0.01", sigma=1, steps=10000, eps="6.19"), 1))
    1.0e-5
    """
    if q == 0:
        return ctx.zero
    return _answer(ctx, sized("DPSGD:delta", q, sigma, steps,
                             lambda: bracket("delta", q, sigma, steps, eps)))
