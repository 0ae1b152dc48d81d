"""The privacy-loss distribution of one step of DP-SGD on a grid, composed exactly.

One step of the Poisson-subsampled Gaussian mechanism (sampling probability ``q``, noise
multiplier ``sigma``, add/remove neighbours) is dominated by the pair ``P = (1-q) N(0, sigma^2)
+ q N(1, sigma^2)``, ``Q = N(0, sigma^2)`` ("remove") and the pair reversed ("add") (Zhu, Dong,
Wang 2022, "Optimal accounting of differential privacy via characteristic function", AISTATS,
arXiv:2106.08567; Koskela, Jälkö, Honkela 2020, arXiv:1906.03049).  The privacy loss
of the first pair is ``X = l(Z)``, ``l(z) = ln(1 - q + q e^((2z-1)/(2 sigma^2)))``, ``Z ~ P``;
of the reversed one ``X = -l(Z)``, ``Z ~ Q``.  ``l`` is increasing and convex.

**The discretisation (our construction, proved here).**  On the grid ``a_j = j h`` each
``X`` in a bin ``[a, a + w]`` (``w`` is ``h``, or a few ``h`` in the tail of small
probability) is rounded to ``Y = a + w`` with probability ``r`` and to ``a`` otherwise (``r``
one number per bin).  Then ``D = Y - X`` lies in ``[-w, w]``, the steps' ``D_i`` are
independent, and by Bernstein's inequality ``P(sum D_i - T mu < -s)`` and ``P(sum D_i - T mu
> s)`` are at most ``eta = exp(-s^2 / (2 (T v + b s / 3)))``, ``b`` a bound on ``|D - mu|``,
``v >= E D^2``.  ``mu = E[D]`` is enclosed bin by bin: in ``z`` the bin is an interval,
``E[Z | bin]`` has a closed form (truncated normal moments), and by convexity ``E[X | bin]``
lies between ``l(E[Z | bin])`` (Jensen) and the chord of ``l`` over the bin at ``E[Z | bin]``
(signs swapped for the add direction); ``r`` is chosen from that enclosure, and ``E[D^2 |
bin] = r E(w - U)^2 + (1 - r) E U^2 <= r w^2 - 2 r w E U + w E U`` (``U = X - a`` in ``[0,
w]``).  So the composed loss ``S = sum X_i`` and ``S' = sum Y_i`` satisfy ``S' - T mu_hi - s
<= S <= S' - T mu_lo + s`` except with probability ``eta`` each.

**The composition** (:mod:`reference.results.dpsgd.pld_compose`).  The law of ``Y`` is a
polynomial with coefficients ``floor(2^bits p_j)`` (lower ends of interval enclosures);
``T``-fold convolution by repeated squaring in exact integers (python-flint's ``fmpz_poly``),
each product floored back to ``bits`` bits and its negligible ends cut off.  The result ``r``
is below the law ``u`` of ``S'`` restricted to the event that no step left the tabulated range
and no cut applied, entry by entry; so for every increasing ``f`` with values in ``[0, 1]``:
``sum r f <= E f(S') <= sum r f + (1 - mass(r))``.

**The symmetric law** (``SYMMETRIC``, for sampling without replacement, see
:mod:`reference.results.dpsgd.wor`): the remove direction's loss where it is positive (``z >
1/2``, ``Z ~ P``), the add direction's where it is negative (``z > 1/2``, ``Z ~ Q``), and an
atom at 0 with the rest of the mass, ``(1 - q) (2 Phi(1/(2 sigma)) - 1)``.  Each part is
tabulated and rounded as above (the atom exactly, on the grid point 0), so the same coupling
and bounds hold.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

import flint
from flint import arb, fmpz_poly

REMOVE, ADD, SYMMETRIC = "remove", "add", "symmetric"
#: Bits of the fractional part of ``r_j``.
_R_BITS = 30
#: A bin whose ``P(bin) (chord - Jensen)`` exceeds ``h`` divided by this is split (see
#: :func:`_refined`): the bins near ``ln(1 - q)``, where ``l`` is nearly exponential over a
#: long stretch of ``z`` (at ``q = 1/10, sigma = 1/2`` half the mass is in the first bin).
_REFINE = 2**20
#: The drop of the loss below ``z = -cut sigma`` beyond which the table stops there
#: (:func:`cut_below`).
MAX_LOW_DROP = 1


@contextmanager
def working_bits(bits: int) -> Iterator[None]:
    """python-flint's (global) precision set to ``bits`` for the block, then restored."""
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def int_below(x: arb) -> int:
    """An integer at most ``x``: the floor of its lower end."""
    out = x.lower().floor().unique_fmpz()
    if out is None:
        raise ArithmeticError(f"no integer below {x}")
    return int(out)


def int_above(x: arb) -> int:
    """An integer at least ``x``: the ceiling of its upper end."""
    out = x.upper().ceil().unique_fmpz()
    if out is None:
        raise ArithmeticError(f"no integer above {x}")
    return int(out)


def _arb(x: Fraction | int) -> arb:
    f = Fraction(x)
    return arb(f.numerator) / f.denominator


class _Law:
    """Constants of one step's law, computed once (the per-bin loop is the hot path)."""

    def __init__(self, q: Fraction, sigma: Fraction, direction: str) -> None:
        self.q, self.qa, self.rest = q, _arb(q), _arb(1 - q)  # 1 - q exact: q may be 1 - 1e-300
        self.log_q = self.qa.log()
        self.sig = _arb(sigma)
        self.sig2 = self.sig * self.sig
        self.two_sig2 = 2 * self.sig2
        self.root2 = arb(2).sqrt()
        self.pdf_scale = self.sig / (2 * arb.pi()).sqrt()
        self.sign = 1 if direction == REMOVE else -1
        # the law of Z: (weight, mean) of its normal components, all with std sigma
        if direction == ADD:
            self.comps = [(arb(1), 0)]
        else:
            self.comps = [(_arb(1 - q), 0), (self.qa, 1)] if q < 1 else [(arb(1), 1)]

    def loss(self, z: arb) -> arb:
        """``l(z) = ln(1 - q + q e^((2z-1)/(2 sigma^2)))`` (``log1p``/``expm1``: full
        relative precision for tiny ``q``)."""
        w = (2 * z - 1) / self.two_sig2
        if self.q == 1:
            return w
        if self.q <= Fraction(1, 2):  # 1 + q (e^w - 1): q (e^w - 1) >= -1/2
            return (self.qa * w.expm1()).log1p()
        return (self.rest + self.qa * w.exp()).log()  # two positive terms

    def log_rest(self) -> arb:
        """``ln(1 - q)``, the loss at ``z = -inf``: ``log1p(-q)`` for small ``q`` (full
        relative precision at ``q = 1e-33``), the log of the exact ``1 - q`` near 1."""
        return (-self.qa).log1p() if self.q <= Fraction(1, 2) else self.rest.log()

    def loss_inverse(self, x: arb) -> arb | None:
        """``z`` with ``l(z) = x``, or None when ``x <= ln(1 - q)`` (no ``z``: ``-inf``)."""
        inner = x.expm1() + self.qa if self.q <= Fraction(1, 2) else x.exp() - self.rest
        if not inner > 0:
            if inner < 0:
                return None
            raise ArithmeticError("a grid point is too close to ln(1 - q); raise the precision")
        return self.sig2 * (inner.log() - self.log_q) + arb(1) / 2

    def normal_at(self, z: arb | None) -> list[tuple[arb, arb]]:
        """Per component ``(Phi(u), sigma phi(u))`` at ``u = (z - mean)/sigma`` (None:
        ``-inf``)."""
        if z is None:
            return [(arb(0), arb(0))] * len(self.comps)
        out = []
        for _, mean in self.comps:
            u = (z - mean) / self.sig
            out.append(((-u / self.root2).erfc() / 2, (-(u * u) / 2).exp() * self.pdf_scale))
        return out


@dataclass(frozen=True)
class Step:
    """One step's rounded privacy loss ``Y`` on the grid ``h Z``: ``poly``'s coefficient
    ``i`` is ``floor(2^bits P(Y = (offset + i) h))`` (lower ends); ``E[Y - X]`` lies in
    ``[bias_lo, bias_hi]``, ``E[(Y - X)^2] <= square`` and ``|Y - X| <= wide * h``."""

    offset: int
    poly: fmpz_poly
    bias_lo: arb
    bias_hi: arb
    square: arb
    wide: int
    h: Fraction
    bits: int


def cut_width(tail: float) -> Fraction:
    """The least integer ``c`` (at most 38) with a standard normal tail beyond ``c`` below
    ``tail`` (the table reaches ``c`` standard deviations from the component means)."""
    c = 1
    while math.erfc(c / math.sqrt(2)) / 2 > tail and c < 38:
        c += 1
    return Fraction(c)


def normal_quantile(tail: float) -> float:
    """``c`` with ``P(N(0,1) > c) = tail`` (floats, bisection: sizing only)."""
    lo, hi = -40.0, 40.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erfc(mid / math.sqrt(2)) / 2 > tail else (lo, mid)
    return hi


def dyadic_below(x: float) -> Fraction:
    """A grid step for ``x`` (floats: sizing only): the largest ``m 2^k <= x``, ``4 <= m <= 7``."""
    k = math.floor(math.log2(x)) - 2
    m = min(7, math.floor(x / 2.0**k))
    while m * 2.0**k > x:
        m -= 1
    return Fraction(m) * Fraction(2) ** k


def cut_below(q: Fraction, sigma: Fraction, cut: Fraction) -> bool:
    """Whether one step's table starts at ``z = -cut sigma``, not at ``z = -inf``: for ``q =
    1``, and for ``q`` so close to 1 that ``l`` falls by more than :data:`MAX_LOW_DROP` from
    there to ``ln(1 - q)`` (690 at ``q = 1 - 10^-300``: 44000 bins at ``h = 1/64``, holding at
    most the normal tail ``cut`` is chosen for).  The mass left out is in ``1 - mass(r)``
    either way, as above the table (floats: this only chooses the table; both are valid)."""
    if q == 1:
        return True
    rest = 1 - q  # exact, and its log from the integers: 1 - q may be 1e-400
    log_rest = math.log(rest.numerator) - math.log(rest.denominator)
    w = (-2 * float(cut * sigma) - 1) / (2 * float(sigma) ** 2)
    return math.log(float(rest) + float(q) * math.exp(w)) - log_rest > MAX_LOW_DROP


def _grid(j0: int, j1: int, coarse_from: int | None, wide: int, up: bool) -> list[int]:
    """Grid indices from ``j0`` to ``j1``: every one, except ``wide`` apart beyond
    ``coarse_from`` (above it when ``up``, below it otherwise)."""
    out, j = [j0], j0
    while j < j1:
        far = coarse_from is not None and (j >= coarse_from if up else j + wide <= coarse_from)
        j = min(j + (wide if far else 1), j1)
        out.append(j)
    return out


def single_step(q: Fraction, sigma: Fraction, direction: str, h: Fraction, bits: int,
                cut: Fraction, wide: int = 1, sparse: float | None = None,
                half: bool = False) -> Step:
    """The rounded loss ``Y`` of one step (see the module docstring), tabulated for ``z``
    within ``cut`` standard deviations of the component means (``z`` down to ``-inf`` when
    ``q < 1``, the loss bounded there, unless :func:`cut_below`; from ``z = 1/2``, where the
    loss is 0, when ``half``: the part of the symmetric law).  Where the loss is beyond
    ``sparse`` (in the tail of small probability: above it for "remove", below it for "add")
    the bins are ``wide`` grid steps wide: fewer evaluations, a little more variance."""
    law = _Law(q, sigma, direction)
    ha = _arb(h)
    sign = law.sign
    z_lo = arb(1) / 2 if half else -_arb(cut * sigma) if cut_below(q, sigma, cut) else None
    z_hi = _arb(cut * sigma + (1 if direction == REMOVE else 0))
    x_at_lo = arb(0) if half else sign * (law.loss(z_lo) if z_lo is not None else
                                          law.log_rest())
    x_at_hi = sign * law.loss(z_hi)
    x_min, x_max = (x_at_lo, x_at_hi) if sign > 0 else (x_at_hi, x_at_lo)
    j0, j1 = _grid_index(x_min / ha, below=True), _grid_index(x_max / ha, below=False)
    split = None if sparse is None or wide == 1 else math.floor(sparse / float(h))
    index = _grid(j0, j1, split, wide, sign > 0)
    points: list[tuple[arb | None, arb, list[tuple[arb, arb]]]] = []
    for j in index:
        if j == j0 or j == j1:
            z, x = (z_lo, x_at_lo) if (j == j0) == (sign > 0) else (z_hi, x_at_hi)
        else:
            x = j * ha
            z = law.loss_inverse(sign * x)
        points.append((z, x, law.normal_at(z)))
    scale = arb(2) ** bits
    coeffs = [0] * (j1 - j0 + 1)
    bias_lo, bias_hi, square, mass = arb(0), arb(0), arb(0), arb(0)
    one_r = arb(2) ** _R_BITS
    for i in range(len(points) - 1):
        a, n = index[i] * ha, index[i + 1] - index[i]
        w = n * ha
        lo_pt, hi_pt = (points[i], points[i + 1]) if sign > 0 else (points[i + 1], points[i])
        p, m1 = arb(0), arb(0)
        for k, (weight, mean) in enumerate(law.comps):
            (f_lo, d_lo), (f_hi, d_hi) = lo_pt[2][k], hi_pt[2][k]
            p += weight * (f_hi - f_lo)
            m1 += weight * (mean * (f_hi - f_lo) + (d_lo - d_hi))
        mass += p
        if not p > 0:
            bias_lo -= p.upper() * w
            bias_hi += p.upper() * w
            square += p.upper() * w * w
            continue
        zm = m1 / p
        jensen = sign * law.loss(zm)
        if lo_pt[0] is None:  # the bin reaching z = -inf (q < 1): its far end (the chord's
            chord = hi_pt[1]   # limit); it holds little mass once h is fine (z < 0.5 + ln(h/q))
        else:
            zl, zh = lo_pt[0], hi_pt[0]
            assert zh is not None
            chord = lo_pt[1] + (hi_pt[1] - lo_pt[1]) * (zm - zl) / (zh - zl)
        ex = jensen.union(chord)  # E[X | bin]
        if (p * (ex.upper() - ex.lower())).upper() > ha / _REFINE:
            finer = _refined(law, lo_pt, hi_pt, p)
            ex = ex.intersection(finer) if ex.overlaps(finer) else finer
        frac = float(((ex.mid() - a) / w).mid())  # any r in [0, 1] is valid; this one is near
        r = math.floor(frac * 2**_R_BITS) if math.isfinite(frac) else 2 ** (_R_BITS - 1)
        rr = arb(min(max(r, 0), 2**_R_BITS)) / one_r  # the unbiased rounding
        to_up = p * rr
        j = index[i] - j0
        coeffs[j] += int_below((p - to_up).lower() * scale)
        coeffs[j + n] += int_below(to_up.lower() * scale)
        shift = a + w * rr
        bias_lo += (p * (shift - ex.upper())).lower()
        bias_hi += (p * (shift - ex.lower())).upper()
        # E[D^2 | bin] = r E(w - U)^2 + (1 - r) E U^2 <= r w^2 - 2 r w E U + w E U, U = X - a
        u_lo = (ex.lower() - a).nonnegative_part()
        u_hi = ex.upper() - a
        moment = (rr * w * w - 2 * rr * w * u_lo + w * u_hi).upper()
        square += (p.upper() * moment.min(w * w)).upper()
    region = arb(1)  # the mass of the z-range tabulated
    if half:
        region = sum(((1 - f) * weight for (f, _), (weight, _) in
                      zip(law.normal_at(z_lo), law.comps, strict=True)), arb(0))
    out = (region - mass).upper()
    wmax = max(index[i + 1] - index[i] for i in range(len(index) - 1))
    return Step(j0, fmpz_poly([max(c, 0) for c in coeffs]), (bias_lo - out * wmax * ha).lower(),
                (bias_hi + out * wmax * ha).upper(), (square + out * (wmax * ha) ** 2).upper(),
                wmax, h, bits)


Point = tuple[arb | None, arb, list[tuple[arb, arb]]]


def _refined(law: _Law, lo_pt: Point, hi_pt: Point, p: arb) -> arb:
    """``E[X | bin]`` enclosed piece by piece: the bin's ``z``-interval cut in 8 equal parts
    (in 40 parts where ``l`` halves its distance to ``ln(1 - q)``, for the bin reaching ``z
    = -inf``), each piece's ``E[l; piece]`` between ``P l(E[Z | piece])`` (Jensen) and ``P``
    times its chord there (convexity), the last piece to ``-inf`` between ``P ln(1 - q)``
    and ``P l(z)`` at its right end; summed, signed and divided by the bin's mass."""
    z_hi = hi_pt[0]
    assert z_hi is not None
    ell_hi = law.sign * hi_pt[1]
    cuts: list[tuple[arb | None, arb]] = []
    if lo_pt[0] is None:
        ell_lim = law.sign * lo_pt[1]  # ln(1 - q)
        for k in range(40, 0, -1):
            ell = ell_lim + (ell_hi - ell_lim) / arb(2) ** k
            try:
                z = law.loss_inverse(ell)
            except ArithmeticError:  # too close to ln(1 - q) at this precision: skip it
                continue
            if z is not None and (not cuts or cuts[-1][0] is None or z > cuts[-1][0]):
                cuts.append((z, ell))
        cuts.insert(0, (None, ell_lim))
    else:
        z_lo = lo_pt[0]
        cuts = [(z_lo + (z_hi - z_lo) * i / 8, law.loss(z_lo + (z_hi - z_lo) * i / 8))
                for i in range(8)]
        cuts[0] = (z_lo, law.sign * lo_pt[1])
    cuts.append((z_hi, ell_hi))
    low, high = arb(0), arb(0)
    normals = [law.normal_at(z) for z, _ in cuts]
    for (za, la), (zb, lb), na, nb in zip(cuts, cuts[1:], normals, normals[1:], strict=False):
        mass, first = arb(0), arb(0)
        for k, (weight, mean) in enumerate(law.comps):
            (f_a, d_a), (f_b, d_b) = na[k], nb[k]
            mass += weight * (f_b - f_a)
            first += weight * (mean * (f_b - f_a) + (d_a - d_b))
        if za is None or not mass > 0:  # l lies in [la, lb] there, the mass in [0, top]
            top = mass.upper()
            low += (top * la).lower().min(arb(0))
            high += (top * lb).upper().max(arb(0))
            continue
        assert zb is not None
        zm = first / mass
        chord = la + (lb - la) * (zm - za) / (zb - za)
        low += (mass * law.loss(zm)).lower()
        high += (mass * chord).upper()
    lo_x, hi_x = (low, high) if law.sign > 0 else (-high, -low)
    return (lo_x / p).union(hi_x / p)


def _grid_index(y: arb, below: bool) -> int:
    """``floor(y)`` (below) or ``ceil(y)``, proved: the integer is strictly on the required
    side of ``y``."""
    j = int_below(y.mid()) + (0 if below else 1)
    for cand in (j - 1, j, j + 1) if below else (j + 1, j, j - 1):
        if (below and arb(cand) < y and not arb(cand + 1) < y) or (
                not below and arb(cand) > y and not arb(cand - 1) > y):
            return cand
    raise ArithmeticError("a grid point is too close to the end of the range; raise the precision")


def symmetric_step(q: Fraction, sigma: Fraction, h: Fraction, bits: int, cut: Fraction,
                   wide: int = 1, sparse: tuple[float | None, float | None] = (None, None)
                   ) -> Step:
    """The rounded symmetric law (module docstring): the two halves tabulated by
    :func:`single_step` (``sparse`` for the remove and the add half) and the atom at 0,
    ``(1 - q) erf(1/(2 sqrt(2) sigma))``, placed exactly (no rounding: it adds no bias)."""
    rem = single_step(q, sigma, REMOVE, h, bits, cut, wide, sparse[0], half=True)
    add = single_step(q, sigma, ADD, h, bits, cut, wide, sparse[1], half=True)
    atom = _arb(1 - q) * (_arb(1 / (2 * sigma)) / arb(2).sqrt()).erf()
    low = min(rem.offset, add.offset, 0)
    poly = (rem.poly.left_shift(rem.offset - low) + add.poly.left_shift(add.offset - low)
            + fmpz_poly([int_below(atom.lower() * arb(2) ** bits)]).left_shift(-low))
    return Step(low, poly, rem.bias_lo + add.bias_lo, rem.bias_hi + add.bias_hi,
                rem.square + add.square, max(rem.wide, add.wide), h, bits)

