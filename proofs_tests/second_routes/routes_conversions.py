"""Routes for conversions, compositions, privacy-loss definitions and concentration bounds.

Each function restates the paper's formula (cited in its docstring) in a form of its own.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

from flint import arb

from proofs_tests.second_routes.routes import (
    A,
    Phi,
    Seq,
    Undecided,
    amin,
    ex,
    exceeds_exp,
    log,
    route,
    sqrt,
)


def _q_tail(x: arb) -> arb:
    """Gaussian upper tail ``Q(x) = 1 - Phi(x)``."""
    return Phi(-x)


@route("BS16:Prop1.4")
def bs16(eps: Fraction) -> Fraction:
    """Bun–Steinke 2016, Proposition 1.4: eps-DP is eps^2/2-zCDP."""
    return eps * eps / 2


@route("BW18:Thm8")
def bw18(sigma: Fraction, eps: Fraction, sensitivity: Fraction) -> arb:
    """Balle–Wang 2018, Theorem 8, read through the privacy-loss law: the loss of
    N(0, s^2) against N(Delta, s^2) is N(mu^2/2, mu^2), mu = Delta/sigma, and
    delta(eps) = P[L > eps] - e^eps P[L' > eps] with L' ~ N(-mu^2/2, mu^2)."""
    mu = A(sensitivity / sigma)
    m2 = A((sensitivity / sigma) ** 2) / 2
    e = A(eps)
    return _q_tail((e - m2) / mu) - ex(eps) * _q_tail((e + m2) / mu)


@route("BW18:Thm8-rho")
def bw18_rho(rho: Fraction, eps: Fraction) -> arb:
    """Balle–Wang 2018, Theorem 8 with Delta/sigma = mu = sqrt(2 rho) (a Gaussian of zCDP
    level rho): delta = Q(eps/mu - mu/2) - e^eps Q(eps/mu + mu/2)."""
    mu = A(2 * rho).sqrt()
    e = A(eps)
    return _q_tail(e / mu - mu / 2) - ex(eps) * _q_tail(e / mu + mu / 2)


@route("MIR17:RR-renyi")
def mir17(eps: Fraction, alpha: Fraction) -> arb:
    """Mironov 2017, Proposition 5 (randomized response): with p = e^eps/(1+e^eps) the
    sum p^a q^(1-a) + q^a p^(1-a) is (e^(a eps) + e^((1-a) eps))/(1 + e^eps)."""
    a = A(alpha)
    e = A(eps)
    s = (a * e).exp() + ((1 - a) * e).exp()
    return (s / (1 + e.exp())).log() / (a - 1)


# ---- RSWR23 section 2 and 7 -------------------------------------------------------------

@route("RSWR23:Lem2.1")
def laplace(eps: Fraction, sensitivity: Fraction) -> Fraction:
    """Dwork et al. 2006 (RSWR23 Lemma 2.1): Lap(1/eps) noise on Delta_1 is Delta_1 eps-DP."""
    return sensitivity * eps


@route("RSWR23:Lem2.2")
def gaussian_zcdp(rho: Fraction, sensitivity: Fraction) -> Fraction:
    """Bun–Steinke 2016 (RSWR23 Lemma 2.2): N(0, 1/rho) on Delta_2 is Delta_2^2 rho/2-zCDP."""
    return sensitivity ** 2 * rho / 2


@route("RSWR23:Lem2.3")
def zcdp_to_dp(rho: Fraction, delta: Fraction) -> arb:
    """Bun–Steinke 2016, Proposition 1.3 (RSWR23 Lemma 2.3 (ii))."""
    return A(rho) + 2 * sqrt(A(rho) * log(1 / delta))


@route("RSWR23:Lem2.3-inverse")
def zcdp_budget(eps: Fraction, delta: Fraction) -> arb:
    """Lemma 2.3 (ii) solved for rho: rho + 2 sqrt(rho L) = eps is a quadratic in sqrt(rho),
    sqrt(rho) = -sqrt(L) + sqrt(L + eps)."""
    L = log(1 / delta)
    return (sqrt(L + A(eps)) - sqrt(L)) ** 2


@route("RSWR23:Lem2.3-i")
def dp_to_zcdp(eps: Fraction, delta: Fraction) -> dict[str, Fraction]:
    """Bun–Steinke 2016, Proposition 3.3 (RSWR23 Lemma 2.3 (i))."""
    return {"rho": eps * eps / 2, "delta": delta}


@route("RSWR23:Lem2.4")
def compose_zcdp(rho: Seq, delta: Seq) -> dict[str, Fraction]:
    """Bun–Steinke 2016, Lemma 2.3 (RSWR23 Lemma 2.4)."""
    return {"rho": sum(rho, Fraction(0)), "delta": sum(delta, Fraction(0))}


@route("RSWR23:Sec7.2-EM")
def em(eps: Fraction) -> Fraction:
    """Cesar–Rogers 2021 (RSWR23 section 7.2): eps-bounded range is eps^2/8-zCDP."""
    return eps * eps / 8


@route("RSWR23:Sec7.1-doubling")
def doubling(ratio_sq: Fraction) -> dict[str, object]:
    """RSWR23 section 7.1 for growth r: overshoot r and the geometric sum
    r^2 * sum_{j>=0} r^(-2j) * r^2 = r^4/(r^2-1)."""
    return {"overshoot": A(ratio_sq).sqrt(), "spend": ratio_sq ** 2 / (ratio_sq - 1)}


# ---- compositions -----------------------------------------------------------------------

def _tanh_half(e: Fraction) -> arb:
    """(e^eps - 1)/(e^eps + 1) written with e^(-eps) (stable for large eps)."""
    m = ex(-e)
    return (1 - m) / (1 + m)


@route("LEC11:AdvComp")
def lec11_adv(eps: Fraction, k: int, delta_prime: Fraction, delta: Fraction) -> dict[str, object]:
    """Advanced composition with the tanh drift: k eps (e^eps-1)/(e^eps+1)."""
    e = A(eps)
    return {"eps": e * sqrt(2 * k * log(1 / delta_prime)) + k * e * _tanh_half(eps),
            "delta": k * delta + delta_prime}


@route("RRUV16:Thm2.10")
def rruv_adv(eps: Fraction, k: int, delta_hat: Fraction, delta: Fraction) -> dict[str, object]:
    """Dwork–Rothblum–Vadhan 2010 (RRUV16 Theorem 2.10)."""
    e = A(eps)
    return {"eps": k * e * (ex(eps) - 1) + e * sqrt(2 * k * log(1 / delta_hat)),
            "delta": k * delta + delta_hat}


@route("RRUV16:fn2-advanced")
def rruv_adv_het(eps: Seq, delta_hat: Fraction, delta: Seq) -> dict[str, object]:
    """RRUV16 footnote 2: heterogeneous fixed-parameter advanced composition."""
    drift = sum((A(e) * (ex(e) - 1) for e in eps), arb(0))
    s = sum((e * e for e in eps), Fraction(0))
    return {"eps": drift + sqrt(2 * A(s) * log(1 / delta_hat)),
            "delta": sum(delta, Fraction(0)) + delta_hat}


@route("RRUV16:Thm2.9")
def basic(eps: Seq, delta: Seq) -> dict[str, Fraction]:
    """Basic composition (RRUV16 Theorem 2.9)."""
    return {"eps": sum(eps, Fraction(0)), "delta": sum(delta, Fraction(0))}


@route("KOV15:Thm3.5")
def kov_het(eps: Seq, delta_tilde: Fraction, delta: Seq) -> dict[str, object]:
    """Kairouz–Oh–Viswanath 2015, Theorem 3.5 (three-way minimum)."""
    D = sum((A(e) * _tanh_half(e) for e in eps), arb(0))
    S = A(sum((e * e for e in eps), Fraction(0)))
    total = A(sum(eps, Fraction(0)))
    second = D + sqrt(2 * S * (arb(1).exp() + sqrt(S) / A(delta_tilde)).log())
    third = D + sqrt(2 * S * log(1 / delta_tilde))
    keep = Fraction(1)
    for d in delta:
        keep *= 1 - d
    return {"eps": amin(total, second, third), "delta": 1 - (1 - delta_tilde) * keep}


def _p(e: Fraction) -> tuple[arb, arb]:
    """(e^eps/(1+e^eps), 1/(1+e^eps)) without overflow."""
    return 1 / (1 + ex(-e)), 1 / (1 + ex(e))


@route("KOV15:Thm3.3-delta")
def kov_delta(eps: Fraction, k: int, eps_g: Fraction, delta: Fraction) -> arb:
    """KOV15 Theorem 3.3 as a hockey-stick divergence of the k-fold product of randomized
    response: a sum over the number j of 'flipped' coordinates, each term positive exactly
    when (k - 2j) eps > eps_g (a rational decision)."""
    if k > 400:
        raise Undecided("k too large for the route")
    p, q = _p(eps)
    s = arb(0)
    for j in range(k + 1):
        if (k - 2 * j) * eps > eps_g:
            s += arb.bin_uiui(k, j) * (p ** (k - j) * q ** j
                                       - ex(eps_g) * p ** j * q ** (k - j))
    keep = A(1 - delta) ** k
    return 1 - keep + keep * s


@route("MV16:Thm1.5-delta")
def mv_delta(eps: Seq, eps_g: Fraction, delta: Seq) -> arb:
    """Murtagh–Vadhan 2016, Theorem 1.5: a sum over subsets S of the product of the
    randomized responses, the term of S positive exactly when
    sum_S eps - sum_{not S} eps > eps_g (a rational decision)."""
    n = len(eps)
    if n > 12:
        raise Undecided("too many mechanisms for the route")
    ps = [_p(e) for e in eps]
    s = arb(0)
    for r in range(n + 1):
        for S in combinations(range(n), r):
            gap = sum((eps[i] if i in S else -eps[i] for i in range(n)), Fraction(0))
            if gap > eps_g:
                w = arb(1)
                for i in range(n):
                    w *= ps[i][0] if i in S else ps[i][1]
                s += w * (1 - ex(eps_g - gap))
    keep = Fraction(1)
    for d in delta:
        keep *= 1 - d
    return 1 - A(keep) + A(keep) * s


# ---- privacy-loss definitions on finite pairs --------------------------------------------

def _hockey(P: Seq, Q: Seq, eps: Fraction) -> arb:
    s = arb(0)
    for p, q in zip(P, Q, strict=True):
        if exceeds_exp(p, q, eps):
            s += A(p) - ex(eps) * A(q)
    return s


@route("RSWR23:Def2.1")
def hockey(P: Seq, Q: Seq, eps: Fraction) -> arb:
    """Hockey-stick divergence sum_y (p(y) - e^eps q(y))_+ (RSWR23 Definition 2.1), the sign
    of each term decided exactly."""
    return _hockey(P, Q, eps)


@route("RRUV16:Def2.1")
def indist(P: Seq, Q: Seq, eps: Fraction) -> arb:
    """RRUV16 Definition 2.1: the larger of the two hockey sticks."""
    return _hockey(P, Q, eps).max(_hockey(Q, P, eps))


@route("RRUV16:Def2.2")
def pointwise(P: Seq, Q: Seq, eps: Fraction) -> Fraction:
    """RRUV16 Definition 2.2: the mass, under X and under Y, of the outcomes with
    |log P(a)/Q(a)| > eps; |L| > eps iff P > e^eps Q or Q > e^eps P (exact decisions,
    so the value is rational)."""
    big = [exceeds_exp(p, q, eps) or exceeds_exp(q, p, eps) for p, q in zip(P, Q, strict=True)]
    mx = sum((p for p, b in zip(P, big, strict=True) if b), Fraction(0))
    my = sum((q for q, b in zip(Q, big, strict=True) if b), Fraction(0))
    return max(mx, my)


@route("RSWR23:Renyi")
def renyi(P: Seq, Q: Seq, alpha: Fraction | float) -> arb | float:
    """Rényi divergence of a finite pair: (1/(a-1)) log sum_{p>0} p^a q^(1-a); KL at a = 1;
    log max p/q at a = inf; +inf when P charges a point Q does not (a >= 1)."""
    pairs = [(p, q) for p, q in zip(P, Q, strict=True) if p > 0]
    if any(q == 0 for _, q in pairs):
        return math.inf
    if alpha == math.inf:
        return log(max(p / q for p, q in pairs))
    if alpha == 1:
        return sum((A(p) * log(p / q) for p, q in pairs), arb(0))
    a = A(alpha)
    s = sum((A(p) * (log(p / q) * (a - 1)).exp() for p, q in pairs), arb(0))
    return s.log() / (a - 1)


@route("RRUV16:Lem2.3-i")
def pw_to_ind(eps: Fraction, delta: Fraction) -> dict[str, Fraction]:
    """RRUV16 Lemma 2.3 (i): point-wise (eps, delta) gives (eps, delta)."""
    return {"eps": eps, "delta": delta}


@route("RRUV16:Lem2.3-ii")
def ind_to_pw(eps: Fraction, delta: Fraction) -> dict[str, object]:
    """RRUV16 Lemma 2.3 (ii), corrected constant: (2 eps, delta (1+e^-2eps)/(1-e^-eps))."""
    return {"eps": 2 * eps, "delta": A(delta) * (1 + ex(-2 * eps)) / -(ex(-eps) - 1)}


@route("LEC11:GaussLoss")
def gauss_loss(sigma: Fraction, sensitivity: Fraction) -> dict[str, Fraction]:
    """The loss (Delta^2 - 2 Delta Z)/(2 sigma^2), Z ~ N(0, sigma^2): mean and variance."""
    return {"mean": sensitivity ** 2 / (2 * sigma ** 2), "variance": sensitivity ** 2 / sigma ** 2}


@route("LEC11:GaussTail")
def gauss_tail(sigma: Fraction, eps: Fraction, sensitivity: Fraction) -> arb:
    """P[N(m, s^2) > eps] with m = Delta^2/(2 sigma^2), s = Delta/sigma."""
    m = sensitivity ** 2 / (2 * sigma ** 2)
    return _q_tail(A(eps - m) / A(sensitivity / sigma))


@route("LEC11:Ex1")
def ex1(eps: Fraction, delta: Fraction) -> arb:
    """The notes' calibration sigma = 2 sqrt(ln(1/delta))/eps."""
    return 2 * sqrt(log(1 / delta)) / A(eps)


@route("LEC11:RRLoss")
def rr_loss(eps: Fraction) -> arb:
    """E[I] = sum_y p(y) log(p(y)/q(y)) for RR with p = (a, 1-a), q = (1-a, a)."""
    a, b = _p(eps)
    return a * (a / b).log() + b * (b / a).log()


@route("RRUV16:Lem4.6")
def lem46(eps: Fraction) -> arb:
    """Dwork–Rothblum (RRUV16 Lemma 4.6): eps (e^eps - 1)/2."""
    return A(eps) * (ex(eps) - 1) / 2


# ---- RRUV16 section 4 and 6 -------------------------------------------------------------

def _self_norm(B2: arb, beta: arb, L: arb) -> arb:
    return sqrt((B2 + beta) * (2 + (B2 / beta + 1).log()) * L)


@route("RRUV16:Thm4.1")
def thm41(B2: Fraction, beta: Fraction, delta: Fraction) -> arb:
    """de la Peña–Klass–Lai (RRUV16 Theorem 4.1)."""
    return _self_norm(A(B2), A(beta), log(1 / delta))


@route("RRUV16:Thm4.2")
def thm42(s: Fraction, t: Fraction) -> arb:
    """Chen–Wang–Xu–Miao (RRUV16 Theorem 4.2): 2 sqrt(e)(1 + 2 s log t) e^(-s^2/2)."""
    return 2 * (1 + 2 * A(s) * log(t)) * ex(Fraction(1, 2) - s * s / 2)


@route("RRUV16:Thm4.3")
def thm43(width: Seq) -> dict[str, Fraction]:
    """Hoeffding (RRUV16 Theorem 4.3): U^2 = sum of squared widths, B^2 = U^2/4."""
    u2 = sum((w * w for w in width), Fraction(0))
    return {"U2": u2, "B2": u2 / 4}


@route("RRUV16:Thm4.4")
def thm44(U2: Fraction, x: Fraction, delta: Fraction) -> arb:
    """RRUV16 Theorem 4.4 (Theorem 4.1 with B^2 = U^2/4, beta = x)."""
    return _self_norm(A(U2 / 4), A(x), log(1 / delta))


@route("RRUV16:Thm4.5")
def thm45(beta: Fraction, t: Fraction, U2: Fraction) -> dict[str, arb]:
    """RRUV16 Theorem 4.5."""
    b = A(beta)
    return {"bound": 2 * ex(Fraction(1, 2)) * (b + 2 * log(t) * sqrt(A(Fraction(74, 100)) * b)),
            "threshold": sqrt(A(U2) / 2 * log(1 / beta))}


@route("RRUV16:Lem6.4")
def lem64(eps: Seq, x: Fraction, delta_g: Fraction) -> arb:
    """RRUV16 Lemma 6.4: drift + Theorem 4.4 at U^2 = 4 sum eps^2, delta = delta_g/2."""
    drift = sum((A(e) * (ex(e) - 1) / 2 for e in eps), arb(0))
    return drift + _self_norm(A(sum((e * e for e in eps), Fraction(0))), A(x), log(2 / delta_g))


@route("RRUV16:Thm6.1")
def thm61(eps: Seq, n: int, delta_g: Fraction) -> dict[str, object]:
    """RRUV16 Equation (7): mean sum eps_i tanh(eps_i/2) (as (e^eps - 1)/(e^eps + 1)) and
    scale sqrt(sum eps_i^2 log(log(n)/delta_g))."""
    mean = sum((A(e) * (ex(e) - 1) / (ex(e) + 1) for e in eps), arb(0))
    S = A(sum((e * e for e in eps), Fraction(0)))
    return {"mean": mean, "scale": sqrt(S * (log(n) / A(delta_g)).log())}


@route("RRUV16:Thm3.4")
def basic_filter(eps: Seq, eps_g: Fraction) -> dict[str, object]:
    """RRUV16 Theorem 3.4: COMP = sum eps_i, HALT iff it exceeds eps_g (exact)."""
    total = sum(eps, Fraction(0))
    return {"total": total, "halt": total > eps_g}


