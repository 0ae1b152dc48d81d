"""Routes for mechanisms, boundaries and noise reduction (WRWR22, RSWR23, LEC11, RRUV16)."""

from __future__ import annotations

from fractions import Fraction

from flint import arb

from proofs_tests.second_routes.routes import A, Seq, ex, log, route, sqrt


def _rr(eps: Fraction, delta: Fraction) -> tuple[arb, arb]:
    """(1-delta) e^eps/(1+e^eps) and (1-delta)/(1+e^eps), without overflow."""
    return A(1 - delta) / (1 + ex(-eps)), A(1 - delta) / (1 + ex(eps))


@route("RRUV16:Def2.6")
def rr(eps: Fraction, delta: Fraction) -> dict[str, list[object]]:
    """RRUV16 Definition 2.6 on the outcomes (0, T, B, 1)."""
    hi, lo = _rr(eps, delta)
    return {"P": [delta, hi, lo, Fraction(0)], "Q": [Fraction(0), lo, hi, delta]}


@route("LEC11:LRR")
def lrr(eps: Fraction, delta: Fraction) -> dict[str, list[object]]:
    """Leaky randomized response on the outcomes (0, 1, U, V)."""
    hi, lo = _rr(eps, delta)
    return {"P": [hi, lo, delta, Fraction(0)], "Q": [lo, hi, Fraction(0), delta]}


@route("LEC11:NameShame")
def name_shame(delta: Fraction) -> dict[str, list[Fraction]]:
    """Name & Shame on the outcomes (0, 1, bot)."""
    return {"P": [delta, Fraction(0), 1 - delta], "Q": [Fraction(0), delta, 1 - delta]}


# ---- boundaries (WRWR22 section 3, RSWR23 section 6) -------------------------------------

def _mixture(t: Fraction, rho: Fraction, delta: Fraction, sens: Fraction) -> arb:
    """WRWR22 Theorem 3.6 (mixture): the log term split as log(1/delta) + log(1 + t/rho)/2."""
    L = log(1 / delta) + log(1 + t / rho) / 2
    return A(sens ** 2 / (2 * t)) + A(sens / t) * sqrt(2 * A(t + rho) * L)


@route("WRWR22:Thm3.6-mixture")
def mixture(t: Fraction, rho: Fraction, delta: Fraction, sensitivity: Fraction) -> arb:
    return _mixture(t, rho, delta, sensitivity)


@route("WRWR22:Cor3.7")
def cor37(t: Fraction, rho: Fraction, delta: Fraction, sensitivity: Fraction) -> dict[str, object]:
    """WRWR22 Corollary 3.7: (psi^M(T_N), delta)-ex-post private."""
    return {"eps": _mixture(t, rho, delta, sensitivity), "delta": delta}


@route("WRWR22:Cor5.2")
def cor52(t: Fraction, rho: Fraction, delta: Fraction, sensitivity: Fraction) -> dict[str, object]:
    """WRWR22 Corollary 5.2: RAT doubles the bound."""
    return {"eps": 2 * _mixture(t, rho, delta, sensitivity), "delta": delta}


@route("WRWR22:Thm3.6-linear")
def linear(t: Fraction, a: Fraction, b: Fraction, sensitivity: Fraction) -> Fraction:
    """WRWR22 Theorem 3.6 (linear boundary), rational."""
    return sensitivity / t * (sensitivity / 2 + b) + sensitivity * a


@route("WRWR22:Cor3.7-Gamma-linear")
def gamma_linear(eps: Fraction, a: Fraction, b: Fraction, sensitivity: Fraction) -> Fraction:
    """Solve Delta (Delta/2 + b)/t + Delta a = E for t (rational)."""
    return sensitivity * (sensitivity / 2 + b) / (eps - sensitivity * a)


def _psi(t: arb, gamma: Fraction, delta: Fraction) -> arb:
    g = A(gamma)
    return sqrt((t + g) * (((t + g) / g).log() + 2 * log(1 / delta)))


@route("RSWR23:psi")
def psi(t: Fraction, gamma: Fraction, delta: Fraction) -> arb:
    """RSWR23 section 6.1: sqrt((t+g) log((t+g)/(delta^2 g)))."""
    return _psi(A(t), gamma, delta)


@route("RSWR23:Thm5")
def thm5(t: Seq, gamma: Fraction, delta: Fraction) -> arb:
    """RSWR23 Theorem 5 with the drift: sum 1/(2 t_i) + psi(sum 1/t_i)."""
    v = sum((1 / x for x in t), Fraction(0))
    return A(v / 2) + _psi(A(v), gamma, delta)


# ---- noise reduction --------------------------------------------------------------------

@route("RSWR23:AppA-flat")
def flat(t1: Fraction, t2: Fraction) -> Fraction:
    """exp(-int_{t1}^{t2} 2/u du) = (t1/t2)^2."""
    return (t1 / t2) ** 2


@route("WRWR22:Eq4")
def stay(t_prev: Fraction, t: Fraction) -> Fraction:
    return (t_prev / t) ** 2


@route("WRWR22:Eq5")
def jumps(eta: Fraction, s: Fraction, t: Fraction) -> dict[str, object]:
    """Poisson mass int_s^t 2/u du = 2 log(t/s); no jump with probability (s/t)^2."""
    return {"no_jump": (s / t) ** 2, "mean": 2 * log(t / s)}


@route("RSWR23:Eq13")
def local_levy(z: Fraction, t: Fraction) -> arb:
    return ex(-abs(z) / t) / A(t * t)


@route("RSWR23:AppA-levy")
def levy(z: Fraction, t: Fraction) -> arb:
    return ex(-abs(z) / t) / A(abs(z))


@route("RSWR23:Lem6.1")
def backward(lam: Fraction, b: Fraction, t: Fraction) -> arb:
    """exp(lam B/t - lam^2/(2t)), the exponent rational."""
    return ex((2 * lam * b - lam * lam) / (2 * t))


@route("RSWR23:Eq2")
def product(lam: Fraction, b: Seq, tau: Seq) -> arb:
    """The product of the e-values, one exponential of a rational sum."""
    return ex(sum((lam * x / s - lam * lam / (2 * s) for x, s in zip(b, tau, strict=True)),
                  Fraction(0)))


def _brownian(fx: Seq, fxp: Seq, b: Seq, t: Fraction) -> Fraction:
    u = [x - y for x, y in zip(fx, fxp, strict=True)]
    return (sum((x * x for x in u), Fraction(0)) / 2
            + sum((x * y for x, y in zip(u, b, strict=True)), Fraction(0))) / t


@route("WRWR22:Thm3.4", "RSWR23:Thm4")
def brownian(fx: Seq, fxp: Seq, b: Seq, t: Fraction) -> Fraction:
    """Log-ratio of N(f(x), tI) and N(f(x'), tI) at y = f(x) + B (rational)."""
    return _brownian(fx, fxp, b, t)


@route("WRWR22:Thm3.4-bound")
def brownian_bound(t: Fraction, w: Fraction, sensitivity: Fraction) -> Fraction:
    return (sensitivity ** 2 / 2 + sensitivity * max(w, Fraction(0))) / t


@route("WRWR22:Lem3.2")
def path_loss(times: Seq, y: Seq, fx: Fraction, fxp: Fraction) -> Fraction:
    """Gaussian log-ratio at the last release: ((y-f(x'))^2 - (y-f(x))^2)/(2 T_n)."""
    return ((y[-1] - fxp) ** 2 - (y[-1] - fx) ** 2) / (2 * times[-1])


@route("WRWR22:Def4.1")
def lnr_path(times: Seq, y: Seq, fx: Fraction, fxp: Fraction, eta: Fraction) -> Fraction:
    """Laplace log-ratio at the last release: (|y-f(x')| - |y-f(x)|)/T_n."""
    return (abs(y[-1] - fxp) - abs(y[-1] - fx)) / times[-1]


@route("RSWR23:DefA.1")
def lnr_path_rswr(times: Seq, y: Seq, fx: Fraction, fxp: Fraction) -> Fraction:
    """log p_t(z - f(x))/p_t(z - f(x')) for the Laplace density of scale t (last release)."""
    return (abs(y[-1] - fxp) - abs(y[-1] - fx)) / times[-1]


@route("RSWR23:LemA.1")
def lnr_loss(fx: Seq, fxp: Seq, x: Seq, t: Fraction) -> Fraction:
    """-(1/t) sum_j (|X_j| - |X_j - (f(x')_j - f(x)_j)|)."""
    return -sum((abs(xi) - abs(xi - (b - a)) for a, b, xi in zip(fx, fxp, x, strict=True)),
                Fraction(0)) / t


@route("RSWR23:LemA.1-printed")
def lnr_printed(x: Fraction, t: Fraction, sensitivity: Fraction) -> Fraction:
    return -(abs(x) - abs(x - sensitivity)) / t


@route("WRWR22:Prop4.2")
def lnr_expost(t: Fraction, sensitivity: Fraction) -> dict[str, Fraction]:
    return {"eps": sensitivity / t, "delta": Fraction(0)}


@route("WRWR22:Thm5.1-LNR")
def lnr_rat(t: Fraction, sensitivity: Fraction) -> dict[str, Fraction]:
    return {"eps": 2 * sensitivity / t, "delta": Fraction(0)}


@route("WRWR22:Thm5.1")
def rat_bound(alg_loss: Fraction, eps: Fraction) -> Fraction:
    return alg_loss + eps


@route("WRWR22:Alg1")
def rat_scales(eps: Fraction, eps_max: Fraction, sensitivity: Fraction) -> dict[str, Fraction]:
    """WRWR22 Algorithm 1: eta = 2 Delta/eps_max, Z of scale 2 Delta/eps_n, Lap(4 Delta/eps_n)."""
    return {"eta": 2 * sensitivity / eps_max, "threshold": 2 * sensitivity / eps,
            "query": 4 * sensitivity / eps}


@route("RSWR23:Lem5.1")
def compose_expost(expost: Seq, deltas: Seq) -> dict[str, Fraction]:
    return {"eps": sum(expost, Fraction(0)), "delta": sum(deltas, Fraction(0))}


def _skellam(k: int, m1: Fraction, m2: Fraction) -> arb:
    """Skellam pmf through the Bessel function: e^-(m1+m2) (m1/m2)^(k/2) I_|k|(2 sqrt(m1 m2))."""
    ratio = (A(m1) / A(m2)).log() * k / 2
    return (ratio - A(m1 + m2)).exp() * (2 * sqrt(A(m1 * m2))).bessel_i(abs(k))


@route("WRWR22:Sec4-Skellam")
def skellam(k: int, t: Fraction, lam1: Fraction, lam2: Fraction) -> arb:
    return _skellam(k, t * lam1, t * lam2)


@route("WRWR22:Sec4-Skellam-NR")
def skellam_nr(times: Seq, y: Seq, fx: int, fxp: int, lam1: Fraction, lam2: Fraction) -> arb:
    T = times[-1]
    return (_skellam(y[-1] - fx, T * lam1, T * lam2)
            / _skellam(y[-1] - fxp, T * lam1, T * lam2)).log()
