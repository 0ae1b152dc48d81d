"""More property tests of KOV15 Thm 3.5 (heterogeneous three-way minimum): heterogeneous
epsilons and deltas against the theorem's formula evaluated in python-flint ``arb``.

Kairouz-Oh-Viswanath (2015) Thm 3.5: ``eps~ = min(sum eps_l, D + sqrt(2 S ln(e +
sqrt(S)/delta~)), D + sqrt(2 S ln(1/delta~)))`` with ``D = sum eps_l (e^eps_l - 1)/(e^eps_l
+ 1)``, ``S = sum eps_l^2``, and ``delta_g = 1 - (1 - delta~) prod (1 - delta_l)``.  The
route below writes the mean term with ``exp`` (not ``tanh``) and the delta as a product
(not a sum of logarithms), from the floats' exact binary values.
"""

from __future__ import annotations

import flint
from hypothesis import given
from hypothesis import strategies as st

from proofs_tests.composition_support import q
from reference import certified
from reference.results import covers
from reference.results.composition.kov15_heterogeneous import kov_heterogeneous


def _arb_thm35(eps: list[float], delta_tilde: float, delta: list[float],
               ) -> tuple[flint.arb, flint.arb, flint.arb, flint.arb, flint.arb]:
    """(eps~, delta_g, basic, second, third) in arb at the context precision."""
    es = [flint.arb(e) for e in eps]
    dt = flint.arb(delta_tilde)
    drift = sum((e * (e.exp() - 1) / (e.exp() + 1) for e in es), flint.arb(0))
    spread = sum((e * e for e in es), flint.arb(0))
    basic = sum(es, flint.arb(0))
    second = drift + (2 * spread * (flint.arb(1).exp() + spread.sqrt() / dt).log()).sqrt()
    third = drift + (2 * spread * (1 / dt).log()).sqrt()
    keep = flint.arb(1)
    for d in delta:
        keep *= 1 - flint.arb(d)
    best = min((basic, second, third), key=lambda x: float(x.mid()))
    return best, 1 - (1 - dt) * keep, basic, second, third


def _close(value: object, ref: flint.arb, rel: float = 1e-40) -> bool:
    v = q(value)
    r = flint.arb(flint.fmpq(v.numerator, v.denominator))
    return bool(abs(r - ref) <= rel * abs(ref) + flint.arb(10) ** -300)


eps_lists = st.lists(st.floats(1e-4, 3.0), min_size=1, max_size=8)


@covers("KOV15:Thm3.5")
@given(eps=eps_lists, delta_tilde=st.floats(1e-12, 0.9),
       leaks=st.lists(st.sampled_from([0.0, 1e-9, 1e-4, 0.05, 0.3]), min_size=8, max_size=8),
       with_delta=st.booleans())
def test_thm35_heterogeneous_against_arb(eps: list[float], delta_tilde: float,
                                         leaks: list[float], with_delta: bool) -> None:
    """Point value and enclosure of eps~ and delta_g, heterogeneous eps_l and delta_l."""
    delta = leaks[:len(eps)] if with_delta else []
    with flint.ctx.workprec(300):
        best, dg, *_ = _arb_thm35(eps, delta_tilde, delta)
        g = kov_heterogeneous(eps=eps, delta_tilde=delta_tilde, delta=delta)
        assert _close(g.eps, best) and _close(g.delta, dg)
        enc = certified(kov_heterogeneous, eps=eps, delta_tilde=delta_tilde, delta=delta)
        for part, ref in ((enc.eps, best), (enc.delta, dg)):
            assert _close(part.lo, ref) and _close(part.hi, ref)


@covers("KOV15:Thm3.5")
def test_thm35_each_branch_wins_somewhere() -> None:
    """The minimum is attained by each of the three branches at hand-picked inputs (with a
    margin), so a wrong branch shows: one large eps (basic), S < 1 (the e + sqrt(S)/delta~
    branch), S > 1 (the ln(1/delta~) branch)."""
    cases = [(["2.5"], 0.5, 0), (["0.01", "0.02", "0.03"] * 20, 1e-6, 1),
             (["0.3", "0.5", "0.2"] * 20, 1e-6, 2)]
    with flint.ctx.workprec(300):
        for eps, dt, which in cases:
            floats = [float(e) for e in eps]
            parts = _arb_thm35(floats, dt, [])[2:]
            ranked = sorted(range(3), key=lambda i: float(parts[i].mid()))
            assert ranked[0] == which
            assert float(parts[ranked[1]].mid()) > 1.0001 * float(parts[ranked[0]].mid())
            g = kov_heterogeneous(eps=floats, delta_tilde=dt)
            assert _close(g.eps, parts[which])
