"""What each shipped relation states, pinned: its margin at an interior point against a
formula written here by hand (derivatives worked out by hand for the monotonicity claims),
evaluated with mpmath at 60 digits.  A proof only shows a margin positive; a margin changed
into another positive one (a sign flipped into a sum, a constant changed) would still be
proved, so this is what ties each relation to the statement it claims."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from mpmath import binomial, cosh, diff, erfc, exp, log, mp, mpf, sqrt, tanh

from reference.core.relations import Relation, fraction, relation
from reference.results import relations

P = {"eps": mpf("0.7"), "k": mpf(9), "delta": mpf("1e-3"), "rho": mpf("0.4"), "B2": mpf(2),
     "beta": mpf("0.5"), "t": mpf("1.5"), "a": mpf("0.3"), "b": mpf("0.2"),
     "sensitivity": mpf("0.9"), "n": mpf(1000), "S": mpf("0.4"), "x": mpf("0.1"),
     "alpha": mpf(3), "U2": mpf(2), "eps_n": mpf("0.05"), "s": mpf("0.5"),
     "L": mpf(5), "V": mpf(400), "gamma": mpf(1), "eps_g": mpf("1.5"), "u": mpf(2),
     # the heterogeneous relation's: where its exact delta is not 0 (delta~ > 1/e)
     "eps_1": mpf("0.2"), "eps_2": mpf("0.25"), "delta_tilde": mpf("0.49")}


def _expected() -> dict[str, Callable[[], Any]]:
    ep, k, d, rho = P["eps"], P["k"], P["delta"], P["rho"]
    B2, beta, t, a, b, D = P["B2"], P["beta"], P["t"], P["a"], P["b"], P["sensitivity"]
    L = log(1 / d)
    A = (B2 + beta) * (2 + log(B2 / beta + 1))
    bud = sqrt(L + ep) - sqrt(L)
    n, S, x = P["n"], P["S"], P["x"]
    ell = log(log(n) / d)                               # Theorem 6.1's log(log(n)/delta_g)
    L11 = log(110 * exp(1)) + 2 * ell                   # (11): sqrt(2 S L11)
    Lam = log(4 * (log(n) / log(2)) / d)                # (12)'s log(4 log2(n)/delta_g)
    A12 = (1 / n**2 + S) * (1 + log(1 + n**2 * S) / 2)
    F12 = sqrt(2 * A12 * Lam)                           # (12)'s deviation term
    A64 = (S + x) * (1 + log(S / x + 1) / 2)
    G64 = sqrt(2 * A64 * log(2 / d))                    # Lemma 6.4's deviation term
    beta11 = d**2 / (110 * exp(1) * log(n) ** 2)       # (11)'s beta of Theorem 4.5
    al, U2 = P["alpha"], P["U2"]
    tb = sqrt(L / rho)                                  # Bun-Steinke's order a - 1
    pp = exp(ep) / (1 + exp(ep))                        # RR's larger probability
    qq = 1 - pp
    Z = pp**al * qq ** (1 - al) + qq**al * pp ** (1 - al)
    DR = log(Z) / (al - 1)                              # Rényi divergence of RR_eps
    dZ = log(pp / qq) * (pp**al * qq ** (1 - al) - qq**al * pp ** (1 - al))
    T44 = sqrt((U2 / 4 + x) * (2 + log(U2 / (4 * x) + 1)) * L)
    z13 = sqrt(L) * (2 - P["s"] * (2 - sqrt(2)))       # LEC11 N13's standardized threshold
    Lg, mu = P["L"], sqrt(2 * rho)                      # the Gaussian relations' L and mu

    def q(z: Any) -> Any:                               # the standard normal upper tail
        return erfc(z / sqrt(2)) / 2

    # at Bun-Steinke's eps = rho + 2 sqrt(rho L): eps/mu - mu/2 = sqrt(2 L) by hand
    bs_eps = rho + 2 * sqrt(rho * Lg)
    gm = L + log(1 + t / rho) / 2                       # the mixture boundary's log term
    root_m = sqrt(2 * (t + rho) * gm)                   # (its derivative in t by hand)
    dpsi_m = -1 / (2 * t**2) + (2 * gm + 1) / (2 * t * root_m) - root_m / t**2
    kk = int(k)

    def bw18(r: Any, e: Any) -> Any:                    # Balle-Wang's curve at mu = sqrt(2 r)
        m = sqrt(2 * r)
        return q(e / m - m / 2) - exp(e) * q(e / m + m / 2)

    # CKS20's eps at its order t (u = rho t^2) as the paper writes its objective at a = 1 + t,
    # and the bound on e^L times the Gaussian's delta there: Riemann steps mu 5^(15-i) 6^i /
    # (6^16 - 5^16) times f(x)^2 = ((sqrt(x^2 + 4) - x)/2)^2 at the left ends, times phi(a)
    tc = sqrt(P["u"] / rho)
    Lc, ac = P["u"] + log(1 + tc), 1 + tc
    cks_eps = ac * rho + log(1 - 1 / ac) - (-Lc + log(ac)) / (ac - 1)
    hs = [mu * 5 ** (15 - i) * 6**i / (6**16 - 5**16) for i in range(16)]

    def riemann(x0: Any) -> Any:    # sum of h_i ((sqrt(x_i^2 + 4) - x_i)/2)^2, x_i left ends
        xs = [x0 + sum(hs[:i]) for i in range(16)]
        return sum(h * ((sqrt(x * x + 4) - x) / 2) ** 2 for h, x in zip(hs, xs, strict=True))

    xc = cks_eps / mu - mu / 2
    cks_bound = exp(Lc - xc**2 / 2) / sqrt(2 * mp.pi) * riemann(xc)
    xb = bs_eps / mu - mu / 2           # Bun-Steinke's a, not simplified to sqrt(2 L) here
    bs_bound = exp(Lg - xb**2 / 2) / sqrt(2 * mp.pi) * riemann(xb)

    # the stated (12) and the proof's display at S = 10^12, per their logs (hand-written)
    A12b = (1 / n**2 + mpf(10) ** 12) * (1 + log(1 + n**2 * mpf(10) ** 12) / 2)
    Lam2 = log(2 * (log(n) / log(2)) / d)

    def kov(eg: Any) -> Any:                            # KOV15 Thm 3.3 at delta = 0
        pk = exp(EK) / (1 + exp(EK))
        return sum(binomial(kk, j) * pk ** (kk - j) * (1 - pk) ** j
                   * max(mpf(0), 1 - exp(eg - (kk - 2 * j) * EK)) for j in range(kk + 1))

    t28 = log(3 * exp(2 * ep) / (2 * exp(ep) + 1))        # CL23 Lemma 2.8's t(eps)

    def q_ratio(e: Any, t: Any) -> Any:                 # CL23's exact q over conservative q
        exact = (exp(t) - 1) / (2 * exp(t + e) - exp(t) + exp(e) - 2)
        return exact / ((exp(t) - 1) / (2 * (exp(e + t) - 1)))

    E1, E2M, DT = P["eps_1"], P["eps_2"], P["delta_tilde"]

    def mv16(eg: Any) -> Any:                           # MV16 Thm 1.5 at two epsilons
        return sum(max(mpf(0), exp(E1 * in1 + E2M * in2)
                       - exp(eg) * exp(E1 * (1 - in1) + E2M * (1 - in2)))
                   for in1 in (0, 1) for in2 in (0, 1)) / ((1 + exp(E1)) * (1 + exp(E2M)))

    D2 = E1 * tanh(E1 / 2) + E2M * tanh(E2M / 2)          # KOV15 Thm 3.5's D and S
    S2 = E1**2 + E2M**2
    kov_second = D2 + sqrt(2 * S2 * log(exp(1) + sqrt(S2) / DT))
    kov_third = D2 + sqrt(2 * S2 * log(1 / DT))

    LK = log(1 / DK)
    drv_k = kk * EK * (exp(EK) - 1) + EK * sqrt(2 * kk * LK)
    tanh_k = kk * EK * tanh(EK / 2) + EK * sqrt(2 * kk * LK)
    vg = P["V"] + P["gamma"]                            # RSWR23 psi(V; gamma, delta)
    psi5 = sqrt(vg * log(vg / (P["gamma"] * d**2)))
    return {
        "CL23:Lem2.3/decreasing-eps": lambda: exp(ep) / (exp(ep) + 1) ** 2,
        "CL23:Lem2.3/at-most-half": lambda: mpf(1) / 2 - 1 / (exp(ep) + 1),
        "CL23:Lem2.8<=4eps/3": lambda: 4 * ep / 3 - t28,
        "CL23:LemE.1<CL23:Lem2.8": lambda: t28 - max(ep, log(3 * (2 * exp(ep) - 1)
                                                             / (2 * exp(ep) + 1))),
        "CL23:ThmB.4-tail/raw<=simplified": lambda: al - log(1 + al) - al**2 / (2 * (1 + al)),
        "CL23:Lem2.9-conservative<CL23:Lem2.9-exact": lambda: q_ratio(ep, t28) - 1,
        "CL23:LemE.2-conservative<CL23:LemE.2-exact": lambda: q_ratio(
            E12, log(3 * (2 * exp(E12) - 1) / (2 * exp(E12) + 1))) - 1,
        "LEC11:AdvComp/increasing-eps": lambda: sqrt(2 * k * L) + k * tanh(ep / 2)
        + k * ep / (2 * cosh(ep / 2) ** 2),
        "LEC11:AdvComp/increasing-k": lambda: ep * sqrt(2 * L) / (2 * sqrt(k)) + ep * tanh(ep / 2),
        "LEC11:AdvComp/decreasing-delta_prime": lambda: ep * sqrt(2 * k) / (2 * d * sqrt(L)),
        "LEC11:AdvComp<=RRUV16:Thm2.10": lambda: k * ep * (exp(ep) - 1 - tanh(ep / 2)),
        "RRUV16:Lem2.3-ii/corrected>printed": lambda: (1 + exp(-2 * ep)) / (1 - exp(-ep))
        - 2 / (ep * exp(ep)),
        "RRUV16:Lem2.3-ii/printed-fails-for-RR-above-W(2)": lambda: 1 - 2 / (E2 * exp(E2)),
        "RRUV16:Lem2.3-ii/printed-holds-for-RR-below-W(2)": lambda: 2 / (ep * exp(ep)) - 1,
        "RRUV16:Lem4.6>=LEC11:RRLoss": lambda: ep * (exp(ep) - 1) / 2 - ep * tanh(ep / 2),
        "RRUV16:Thm2.10/decreasing-delta_hat": lambda: ep * sqrt(2 * k) / (2 * d * sqrt(L)),
        "RRUV16:Thm2.10/increasing-eps": lambda: k * (exp(ep) - 1) + k * ep * exp(ep)
        + sqrt(2 * k * L),
        "RRUV16:Thm2.10/increasing-k": lambda: ep * (exp(ep) - 1)
        + ep * sqrt(2 * L) / (2 * sqrt(k)),
        "RRUV16:Thm4.1/decreasing-delta": lambda: sqrt(A) / (2 * d * sqrt(L)),
        "RRUV16:Thm4.1/increasing-B2": lambda: sqrt(L) / (2 * sqrt(A)) * (3 + log(B2 / beta + 1)),
        "RSWR23:Lem2.3-inverse/increasing-delta": lambda: bud * (1 / sqrt(L) - 1 / sqrt(L + ep))
        / d,
        "RSWR23:Lem2.3-inverse/increasing-eps": lambda: bud / sqrt(L + ep),
        "RSWR23:Lem2.3/decreasing-delta": lambda: sqrt(rho / L) / d,
        "RSWR23:Lem2.3/increasing-rho": lambda: 1 + sqrt(L / rho),
        "RSWR23:Sec7.2-EM<BS16:Prop1.4": lambda: 3 * ep**2 / 8,
        "RSWR23:Thm6-constant/printed>corrected": lambda: 2 * (sqrt(2) - 1) * sqrt(rho * L),
        "WRWR22:Thm3.6-linear/decreasing-t": lambda: D / t**2 * (D / 2 + b),
        "WRWR22:Thm3.6-linear/increasing-sensitivity": lambda: (D + b) / t + a,
        "RRUV16:Thm6.5-(11)>=Thm6.1": lambda: sqrt(2 * L11) - 2 * sqrt(ell),
        "RRUV16:Thm6.5-(12)>=Thm6.1": lambda: F12 - sqrt(S * ell),
        "RRUV16:Thm6.5-(11)/valid-by-Thm4.5": lambda: d / 2 - 2 * sqrt(exp(1)) * (
            beta11 + 2 * log(n) * sqrt(mpf("0.74") * beta11)),
        "RRUV16:Thm6.5-fn7/new<=conference": lambda: 2 * sqrt((1 + log(sqrt(3))) * Lam)
        - sqrt(2 * L11),
        "RRUV16:Thm6.5-(11)/increasing-S": lambda: L11 / sqrt(2 * S * L11),
        "RRUV16:Thm6.5-(11)/increasing-n": lambda: sqrt(2 * S) / (sqrt(L11) * n * log(n)),
        "RRUV16:Thm6.5-(11)/decreasing-delta_g": lambda: sqrt(2 * S) / (sqrt(L11) * d),
        "RRUV16:Thm6.5-(12)/increasing-S": lambda: Lam * (mpf(3) / 2 + log(1 + n**2 * S) / 2)
        / F12,
        "RRUV16:Thm6.5-(12)/decreasing-delta_g": lambda: A12 / (d * F12),
        "RRUV16:Lem6.4/decreasing-delta_g": lambda: A64 / (d * G64),
        "CKS20:Cor13<=RSWR23:Lem2.3": lambda: log(1 + 1 / tb) + log(1 + tb) / tb,
        "MIR17:RR-renyi<eps": lambda: ep - DR,
        "MIR17:RR-renyi<=BS16:Prop1.4": lambda: al * ep**2 / 2 - DR,
        "MIR17:RR-renyi/increasing-alpha": lambda: dZ / (Z * (al - 1)) - log(Z) / (al - 1) ** 2,
        "LEC11:RRLoss<=BS16:Prop1.4": lambda: ep**2 / 2 - ep * tanh(ep / 2),
        "LEC11:RRLoss/increasing-eps": lambda: tanh(ep / 2) + ep / (2 * cosh(ep / 2) ** 2),
        "RRUV16:Thm4.4/increasing-U2": lambda: L * (3 + log(U2 / (4 * x) + 1)) / (8 * T44),
        "RRUV16:Thm4.4/decreasing-delta": lambda: (U2 / 4 + x) * (2 + log(U2 / (4 * x) + 1))
        / (2 * d * T44),
        "RRUV16:Thm4.5/increasing-t": lambda: 4 * sqrt(exp(1)) * sqrt(mpf("0.74") * beta) / t,
        "RRUV16:Thm4.5/increasing-beta": lambda: 2 * sqrt(exp(1)) * (
            1 + log(t) * sqrt(mpf("0.74") / beta)),
        "RRUV16:Sec6-no-utility/printed-holds-below-ln(1.1)": lambda: mpf("0.1")
        - (exp(P["eps_n"]) - 1),
        "RRUV16:Sec6-no-utility/printed-fails-above-ln(1.1)": lambda: exp(EN) - 1 - mpf("0.1"),
        "BW18:Thm8-rho<=RSWR23:Lem2.3": lambda: 1 - exp(Lg) * (
            q(sqrt(2 * Lg)) - exp(bs_eps) * q(sqrt(2 * Lg) + mu)),
        "BW18:Thm8-rho<=CKS20:Cor13": lambda: 1 - cks_bound,
        "BW18:Thm8-rho<=RSWR23:Lem2.3/Mills-bound": lambda: 1 - bs_bound,
        "WRWR22:Thm3.6-mixture/decreasing-t": lambda: -dpsi_m,
        "CKS20:Cor13-order/gap-increasing": lambda: 2 * rho * t + 1 / (1 + t),
        "CKS20:Cor13-delta/gap-increasing": lambda: 2 * rho + 1 / (t * (1 + t)),
        "RSWR23:Thm5/printed-fails": lambda: q((psi5 - P["V"] / 2) / sqrt(P["V"])) - d,
        "LEC11:Ex1/valid-under-the-condition": lambda: d - q(z13),
        "KOV15:Thm3.3<=RRUV16:Thm2.10": lambda: 1 - kov(drv_k) / DK,
        # at eps = 0.7, eps_g = 1.5 the terms j = 0..3 have gaps (9 - 2j) 0.7 - 1.5 > 0
        "KOV15:Thm3.3-delta/nonincreasing-eps_g": lambda: sum(
            binomial(kk, j) * pp ** (kk - j) * qq**j * exp(P["eps_g"] - (kk - 2 * j) * ep)
            for j in range(4)),
        "KOV15:Thm3.3<=LEC11:AdvComp": lambda: 1 - kov(tanh_k) / DK,
        # at this point the third form is below eps_1 + eps_2: one term, the top loss's
        "MV16:Thm1.5<=KOV15:Thm3.5": lambda: min(1 - mv16(kov_second) / DT,
                                                1 - mv16(kov_third) / DT),
        "BW18:Thm8-rho/decreasing-eps": lambda: -diff(lambda e: bw18(rho, e), ep),
        "BW18:Thm8-rho/increasing-rho": lambda: diff(lambda r: bw18(r, ep), rho),
        "RRUV16:Thm6.5-(12)/stated>proof-display": lambda: sqrt(2 * A12b * Lam)
        - sqrt(2 * A12b * Lam2),
        # at S = x = 1 (Theorem 5.1's x = 1 at eps_g = sqrt(28.04 log(1/delta_g)))
        "RRUV16:Lem6.4>Thm5.1-K/same-x": lambda: sqrt(2 * 2 * (1 + log(2) / 2)) * (
            sqrt(log(2 / d)) - sqrt(log(1 / d))),
        "RRUV16:Lem6.4/increasing-S": lambda: log(2 / d) * (mpf(3) / 2 + log(S / x + 1) / 2)
        / G64,
    }


ALIASES = {"delta_hat": "delta", "delta_prime": "delta", "delta_g": "delta"}
#: The eps of the relation whose domain starts above W(2) = 0.8526, and the eps_i n of the
#: one that starts above ln(1.1) = 0.0953.
E2, EN = mpf("1.3"), mpf("0.099")
#: The eps and delta of the exact-composition relations: where the exact delta has terms
#: (j = 0, 1 at k = 9), and is not 0 as it is at the other relations' point.
EK, DK = mpf("0.05"), mpf("0.3")
#: The eps of the wrapped-test relation, whose box stops below ln(3/2) = 0.405.
E12 = mpf("0.3")


@pytest.mark.parametrize("rid", sorted(relations()))
def test_margin_is_the_stated_quantity(rid: str) -> None:
    rel = relations()[rid]
    with mp.workdps(60):
        table = _expected()
        assert set(table) == set(relations())
        args = {n: int(P[ALIASES.get(n, n)]) if n in rel.integers else P[ALIASES.get(n, n)]
                for n in rel.names}
        if "above-W(2)" in rid:
            args["eps"] = E2
        if rid.startswith("CL23:LemE.2"):
            args["eps"] = E12
        if "above-ln(1.1)" in rid:
            args["eps_n"] = EN
        if rid.startswith("KOV15:Thm3.3<="):
            args = {**args, "eps": EK, "delta_hat" if "delta_hat" in args else "delta_prime": DK}
        for n, lo, hi in rel.domain:
            assert lo < fraction(str(args[n])) < hi, (rid, n)
        got, want = rel.margin(mp, **args), table[rid]()
        assert want > 0
        assert abs(got - want) <= abs(want) * mpf(10) ** -45, (rid, got, want)


def test_relation_defaults_and_refusals() -> None:
    """A relation is strict unless it says otherwise, proved at 30 digits by default; empty
    ranges, log-scale ranges reaching 0 and range ends of other types are refused."""
    rel = relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                   domain={"x": ("1/2", 1)})(lambda ctx, x: x)
    assert rel.strict is True and rel.dps == 30 and rel.log_scale == frozenset()
    assert rel.domain == (("x", Fraction(1, 2), Fraction(1)),)
    plain = Relation("T:r", "s", "ordering", (), "s", rel.domain, rel.margin)
    assert plain.strict is True and plain.dps == 30 and plain.names == ("x",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain.strict = False      # type: ignore[misc]  # a relation is a frozen value
    for lo, hi in ((1, 1), (2, 1)):
        with pytest.raises(ValueError, match="empty range"):
            relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                     domain={"x": (lo, hi)})
    for lo in (0, -1):
        with pytest.raises(ValueError, match="geometrically"):
            relation("T:r", statement="s", kind="ordering", uses=(), source="s",
                     domain={"x": (lo, 1)}, log_scale=("x",))
    relation("T:r", statement="s", kind="ordering", uses=(), source="s",
             domain={"x": ("1e-300", 1)}, log_scale=("x",))
    for bad in (True, 0.5, None, [1]):
        with pytest.raises(TypeError, match="range end"):
            fraction(bad)
    assert fraction("0.1") == Fraction(1, 10) and fraction(3) == 3
    assert fraction(Fraction(2, 3)) == Fraction(2, 3)


def test_the_no_utility_threshold_pair_brackets_ln_1_1() -> None:
    """The two relations of the remark before RRUV16 Theorem 6.5 meet at ln(1.1): the
    printed bound holds up to the first end and fails from the second, 1e-10 apart."""
    from reference.results.odometers.relations import LN11_ABOVE, LN11_BELOW
    below, above = relations()["RRUV16:Sec6-no-utility/printed-holds-below-ln(1.1)"], \
        relations()["RRUV16:Sec6-no-utility/printed-fails-above-ln(1.1)"]
    assert below.box()["eps_n"][1] == fraction(LN11_BELOW)
    assert above.box()["eps_n"][0] == fraction(LN11_ABOVE)
    with mp.workdps(40):
        assert mpf(LN11_BELOW) < log(mpf("1.1")) < mpf(LN11_ABOVE)
        assert mpf(LN11_ABOVE) - mpf(LN11_BELOW) <= mpf("1e-10")
