"""Routes for the closed forms of Cohen–Lyu 2023 (target charging)."""

from __future__ import annotations

from fractions import Fraction

from flint import arb

from proofs_tests.second_routes.routes import (
    A,
    Undecided,
    amax,
    ceil_ball,
    ex,
    floor_ball,
    log,
    route,
    sqrt,
)


def _notprior(eps: Fraction) -> arb:
    """1/(e^eps + 1) as e^-eps/(1 + e^-eps)."""
    m = ex(-eps)
    return m / (1 + m)


@route("CL23:Lem2.3", "CL23:LemC.1")
def notprior(eps: Fraction, delta: Fraction = Fraction(0)) -> arb:
    return _notprior(eps)


@route("CL23:Lem2.4")
def cond_release(eps: Fraction, delta: Fraction) -> dict[str, object]:
    return {"eps": eps, "delta": delta, "q": _notprior(eps)}


@route("CL23:Lem2.5")
def revise(eps: Fraction) -> dict[str, object]:
    return {"eps": 2 * eps, "delta": Fraction(0), "q": _notprior(2 * eps)}


@route("CL23:Lem2.6")
def top_k_calls(eps: Fraction, k: int) -> dict[str, object]:
    return {"eps": 2 * eps, "q": _notprior(2 * eps), "hits": k}


@route("CL23:Lem2.7")
def multi(eps_prime: Fraction, delta_prime: Fraction, r: int) -> dict[str, Fraction]:
    return {"eps": eps_prime, "delta": r * delta_prime}


@route("CL23:LemD.1")
def bottom(eps: Fraction, delta: Fraction) -> dict[str, Fraction]:
    return {"eps": eps, "delta": delta}


@route("CL23:LemD.2")
def conditioned(eps: Fraction) -> Fraction:
    return 2 * eps


def _t_wrap(eps: Fraction) -> arb:
    """t = ln(3 e^(2eps)/(2 e^eps + 1)) = 2 eps + ln 3 - ln(2 e^eps + 1)."""
    return 2 * A(eps) + log(3) - (2 * ex(eps) + 1).log()


def _t_test(eps: Fraction) -> arb:
    return amax(A(eps), (3 * (2 * ex(eps) - 1) / (2 * ex(eps) + 1)).log())


@route("CL23:Lem2.8")
def wrapped(eps: Fraction) -> dict[str, arb]:
    return {"t": _t_wrap(eps)}


@route("CL23:LemE.1")
def wrapped_test(eps: Fraction) -> dict[str, arb]:
    return {"t": _t_test(eps)}


def _q_cons(eps: Fraction, t: arb) -> arb:
    """(e^t - 1)/(2 (e^(eps+t) - 1)), with expm1 for small arguments."""
    return t.expm1() / (2 * (A(eps) + t).expm1())


def _q_exact(eps: Fraction, t: arb) -> arb:
    """(e^t - 1)/(2 e^(t+eps) - e^t + e^eps - 2), the denominator regrouped as
    2 (e^(t+eps) - 1) - (e^t - 1) + (e^eps - 1)."""
    return t.expm1() / (2 * (A(eps) + t).expm1() - t.expm1() + A(eps).expm1())


@route("CL23:Lem2.9-conservative")
def lem29c(eps: Fraction) -> dict[str, arb]:
    t = _t_wrap(eps)
    return {"q": _q_cons(eps, t), "t": t}


@route("CL23:Lem2.9-exact")
def lem29e(eps: Fraction) -> dict[str, arb]:
    t = _t_wrap(eps)
    return {"q": _q_exact(eps, t), "t": t}


@route("CL23:LemE.2-conservative")
def lemE2c(eps: Fraction) -> dict[str, arb]:
    t = _t_test(eps)
    return {"q": _q_cons(eps, t), "t": t}


@route("CL23:LemE.2-exact")
def lemE2e(eps: Fraction) -> dict[str, arb]:
    t = _t_test(eps)
    return {"q": _q_exact(eps, t), "t": t}


@route("CL23:LemF.1")
def run_twice(eps: Fraction) -> dict[str, object]:
    """(e^eps + 1)/(e^eps + 1 + 2 e^(2 eps)), divided through by e^(2 eps)."""
    a, b = ex(-eps), ex(-2 * eps)
    return {"q": (a + b) / (a + b + 2), "eps2": 2 * eps}


@route("CL23:LemG.1")
def between(eps: Fraction, gap: Fraction) -> arb:
    return -(A(-gap * eps).expm1()) * _notprior(eps)


@route("CL23:LemC.3")
def private_test(pi0: Fraction, pi1: Fraction, eps: Fraction) -> arb:
    lo, hi = min(pi0, pi1), max(pi0, pi1)
    return A(lo) * A(eps).expm1() / (ex(eps) * A(hi) - A(lo))


@route("CL23:RemB.5")
def hits(delta: Fraction, alpha: Fraction) -> dict[str, arb]:
    L = log(1 / delta)
    return {"simplified": 2 * A(1 + alpha) / A(alpha * alpha) * L,
            "raw": L / (A(alpha) - log(1 + alpha))}


def _chernoff(tau: int, alpha: Fraction) -> arb:
    return ex(-alpha * alpha * tau / (2 * (1 + alpha)))


def _adv(eps: Fraction, m: int, dstar: Fraction) -> arb:
    e = A(eps)
    return e * sqrt(2 * m * log(1 / dstar)) + m * e * A(eps).expm1()


def _m(tau: int, alpha: Fraction, q: Fraction) -> int:
    return int((1 + alpha) * tau // q)   # floor of a rational


@route("CL23:Lem2.2")
def lem22(eps: Fraction, q: Fraction, tau: int, alpha: Fraction) -> dict[str, object]:
    return {"eps": (1 + alpha) * tau / q * eps, "delta": _chernoff(tau, alpha),
            "m": _m(tau, alpha, q)}


@route("CL23:Lem2.2-advanced")
def lem22a(eps: Fraction, q: Fraction, tau: int, alpha: Fraction,
           delta_star: Fraction) -> dict[str, object]:
    m = _m(tau, alpha, q)
    return {"eps": _adv(eps, m, delta_star), "delta": A(delta_star) + _chernoff(tau, alpha), "m": m}


@route("CL23:ThmB.4")
def thmB4(eps: Fraction, q: Fraction, tau: int, alpha: Fraction,
          Delta: Fraction) -> dict[str, object]:
    m = _m(tau, alpha, q)
    return {"eps": eps * m, "delta": A(Delta) + _chernoff(tau, alpha), "m": m}


@route("CL23:ThmB.4-advanced")
def thmB4a(eps: Fraction, q: Fraction, tau: int, alpha: Fraction, delta_star: Fraction,
           Delta: Fraction) -> dict[str, object]:
    m = _m(tau, alpha, q)
    return {"eps": _adv(eps, m, delta_star),
            "delta": A(delta_star + Delta) + _chernoff(tau, alpha), "m": m}


MAX_BINOMIAL = 3000


def binom_cdf(m: int, q: Fraction, upto: int) -> arb:
    """P[Bin(m, q) <= upto] summed term by term from the pmf."""
    if m > MAX_BINOMIAL:
        raise Undecided("binomial too long for the route")
    p, r = A(q), A(1 - q)
    return sum((arb.bin_uiui(m, j) * p ** j * r ** (m - j) for j in range(min(upto, m) + 1)),
               arb(0))


@route("CL23:ThmB.4-exact")
def thmB4e(eps: Fraction, q: Fraction, tau: int, m: int, Delta: Fraction) -> dict[str, object]:
    return {"eps": eps * m, "delta": A(Delta) + binom_cdf(m, q, tau - 1), "m": m}


@route("CL23:ThmB.4-tail")
def thmB4t(q: Fraction, tau: int, alpha: Fraction) -> dict[str, object]:
    m = _m(tau, alpha, q)
    return {"m": m, "exact": binom_cdf(m, q, tau - 1),
            "raw": (-tau * (A(alpha) - log(1 + alpha))).exp(),
            "simplified": _chernoff(tau, alpha)}


@route("CL23:Thm2.10-basic")
def thm210b(eps: Fraction, tau: int, alpha: Fraction) -> dict[str, object]:
    m = floor_ball(A((1 + alpha) * tau) * (ex(eps) + 1))
    return {"eps": eps * m, "delta": _chernoff(tau, alpha), "m": m}


@route("CL23:Thm2.10")
def thm210(eps: Fraction, tau: int, alpha: Fraction, delta_star: Fraction) -> dict[str, object]:
    m = floor_ball(A((1 + alpha) * tau) * (ex(eps) + 1))
    return {"eps": _adv(eps, m, delta_star), "delta": A(delta_star) + _chernoff(tau, alpha), "m": m}


@route("CL23:ThmI.1")
def thmI1(eps: Fraction, delta: Fraction) -> dict[str, object]:
    m = ceil_ball(log(1 / delta) / (1 + ex(-2 * eps)).log())
    return {"eps": 2 * eps * m, "delta": delta, "m": m}


@route("CL23:ThmI.3")
def thmI3(eps: Fraction, k: int, alpha: Fraction, delta_star: Fraction) -> dict[str, object]:
    m = floor_ball(A((1 + alpha) * k) * (ex(2 * eps) + 1))
    return {"eps": _adv(2 * eps, m, delta_star), "delta": A(delta_star) + _chernoff(k, alpha),
            "m": m}
