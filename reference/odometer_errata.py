"""Errata of RRUV16 §6 (advanced composition for odometers), each re-verified live.

Catalog-003 §6 and §9 flag: the proof of (12) versus its statement, the granularity
remark's ``log2(n^2)`` form, ``sigma_n`` for ``sigma_n^2`` (and ``COMP_{eps_g}`` for
``COMP_{delta_g}``) in the proof of (7), Lemma 6.4's proof naming ``beta`` for ``x``, and
the "no utility" claim ``e^{eps_i n} - 1 < 0.1``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from mpmath import mp

from .errata import Check, erratum
from .odometers import advanced_odometer, fixed_x_odometer


@erratum("RRUV16:Thm6.5-proof12", location="RRUV16 (seed 003) §6, proof of Theorem 6.5, (12)",
         printed=r"\log(2\log_2(n)/\delta_g)\ \text{(proof display, with a stray }\sum_{j=1}^k)",
         corrected=r"\log(4\log_2(n)/\delta_g)\ \text{as in the statement (12): Lemma 6.4 at }"
                   r"x=1/n^2,\ \delta_g/(2\log_2 n)",
         kind="inconsistency", result="RRUV16:Thm6.5")
def _check_proof_12() -> Check:
    """(12) equals Lemma 6.4 with x = 1/n^2 at delta_g/(2 log2 n); the proof's form is smaller."""
    n, dg = 10**4, Fraction(1, 1000)
    eps = ["0.1"] * 200  # S = 2 > 1: branch (12)
    with mp.workdps(50):
        stated = advanced_odometer(eps=eps, n=n, delta_g=dg)
        log2n = mp.log(n) / mp.log(2)
        # Lemma 6.4 at delta_g/(2 log2 n): log(2/that) = log(4 log2 n/delta_g), union bound
        # with the (11) case's delta_g/2 gives delta_g in total.
        d = mp.mpf(dg.numerator) / dg.denominator
        piece = fixed_x_odometer(eps=eps, x=Fraction(1, n * n), delta_g=d / 2 / log2n)
        proof = fixed_x_odometer(eps=eps, x=Fraction(1, n * n), delta_g=d / log2n)
        same = abs(stated.value - piece) < mp.mpf(10) ** -40
        ok = stated.branch == 12 and same and proof < stated.value
        detail = (f"200 x 0.1, n = 1e4, delta_g = 1e-3: (12) = {mpmath.nstr(stated.value, 12)} = "
                  f"Lemma 6.4(x = 1/n^2, delta_g/(2 log2 n)); the proof's log(2 log2 n/delta_g) "
                  f"gives {mpmath.nstr(proof, 12)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Thm6.5-granularity", location="RRUV16 (seed 003) §6, remark after Theorem 6.5",
         printed=r"\log_2(n^2)/\delta_g\text{ in (11) is replaced by }\log_2(1/\gamma)/\delta_g",
         corrected=r"(11)\text{ now reads }\log(\log(n)/\delta_g)\text{; the remark fits the "
                   r"conference form }4\log_2n=2\log_2(n^2)\text{; not implemented}",
         kind="inconsistency", result=None)
def _check_granularity() -> Check:
    """The printed (11) has no log2(n^2)/delta_g term; the old (conference) one had 4 log2 n."""
    n, dg = 10**4, mp.mpf("1e-3")
    with mp.workdps(30):
        old_arg = 4 * mp.log(n, 2) / dg
        remark_arg = 2 * mp.log(n**2, 2) / dg
        new_arg = mp.log(n) / dg
        ok = abs(old_arg - remark_arg) < mp.mpf(10) ** -20 and abs(new_arg - old_arg) > 1
        detail = (f"n = 1e4, delta_g = 1e-3: conference 4 log2(n)/delta_g = "
                  f"{mpmath.nstr(old_arg, 8)} = 2 log2(n^2)/delta_g; printed (11) uses "
                  f"log(n)/delta_g = {mpmath.nstr(new_arg, 8)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Eq7-proof", location="RRUV16 (seed 003) §6, proof of Equation (7)",
         printed=r"\sigma_n=1-\mu_n^2;\ \mathtt{COMP}_{\varepsilon_g}",
         corrected=r"\sigma_n^2=1-\mu_n^2\ \text{(variance of (8))};\ \mathtt{COMP}_{\delta_g}",
         kind="typo", result=None)
def _check_eq7_sigma() -> Check:
    """Var[xi] of (8) at gamma = e^(1/n)/(1+e^(1/n)) is 1 - mu_n^2, so sigma_n = sqrt(that)."""
    n = 10
    with mp.workdps(40):
        g = mp.exp(mp.mpf(1) / n) / (1 + mp.exp(mp.mpf(1) / n))
        mu = 2 * g - 1
        var = g * (1 - mu) ** 2 + (1 - g) * (1 + mu) ** 2  # E[(xi - mu)^2]
        ok = abs(var - (1 - mu**2)) < mp.mpf(10) ** -35 and abs(mp.sqrt(var) - (1 - mu**2)) > 0
        detail = (f"n = 10: Var[xi] = {mpmath.nstr(var, 12)} = 1 - mu_n^2; sigma_n = "
                  f"{mpmath.nstr(mp.sqrt(var), 12)} differs from 1 - mu_n^2")
    return Check(bool(ok), detail)


@erratum("RRUV16:Lem6.4-proof", location="RRUV16 (seed 003) §6, proof of Lemma 6.4",
         printed=r"\text{for any }\beta>0", corrected=r"\text{for the fixed }x>0\ "
         r"\text{(Theorem 4.4 with }U_k^2=4\sum\varepsilon_i^2,\ \delta=\delta_g/2)",
         kind="typo", result="RRUV16:Lem6.4")
def _check_lemma_64() -> Check:
    """The proof's display is Theorem 4.4 with U_k^2 = 4 sum eps_i^2 and x, at delta_g/2."""
    from .concentration import loss_mean_bound, martingale_threshold

    eps = ["0.01"] * 1000
    with mp.workdps(50):
        lemma = fixed_x_odometer(eps=eps, x="0.1", delta_g="1e-3")
        drift = sum(loss_mean_bound(eps=e) for e in eps)
        via = drift + martingale_threshold(U2=4 * Fraction(1, 10), x="0.1", delta="5e-4")
        ok = abs(lemma - via) < mp.mpf(10) ** -40
        detail = (f"1000 x 0.01, x = 0.1, delta_g = 1e-3: Lemma 6.4 = {mpmath.nstr(lemma, 14)}, "
                  f"mean bound + Theorem 4.4 = {mpmath.nstr(via, 14)}")
    return Check(bool(ok), detail)


@erratum("RRUV16:Sec6-no-utility", location="RRUV16 (seed 003) §6, before Theorem 6.5",
         printed=r"\varepsilon_i<\tfrac1{10n}\Rightarrow e^{\varepsilon_i n}-1<0.1",
         corrected=r"e^{\varepsilon_i n}-1<e^{0.1}-1\approx0.10517\ \text{(slightly above 0.1)}",
         kind="error", result=None)
def _check_no_utility() -> Check:
    """sup over eps_i < 1/(10 n) of e^{eps_i n} - 1 is e^0.1 - 1 > 0.1."""
    with mp.workdps(30):
        sup = mp.expm1(mp.mpf("0.1"))
        ok = sup > mp.mpf("0.1")
        detail = f"e^0.1 - 1 = {mpmath.nstr(sup, 10)} > 0.1 (approached as eps_i n -> 0.1)"
    return Check(bool(ok), detail)
