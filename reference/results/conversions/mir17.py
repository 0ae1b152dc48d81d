"""The Rényi divergence of randomized response: Mironov (2017), *Rényi differential privacy*,
CSF 2017, arXiv:1702.07476 (Table II, randomized response).

Randomized response ``RR_eps`` (output the true bit with probability
``p = e^eps/(1+e^eps)``) has Rényi divergence of order ``alpha > 1``
``D_alpha = ln(p^alpha q^(1-alpha) + q^alpha p^(1-alpha)) / (alpha - 1)``, ``q = 1 - p``.
Every eps-DP mechanism is a post-processing of ``RR_eps`` (Kairouz–Oh–Viswanath 2015;
RRUV16 Thm 2.7), so by the data-processing inequality this is the *tight* RDP curve of pure
eps-DP (autodp's ``puredp_to_rdp``; Steinke's 2024 note "Tight RDP & zCDP bounds from pure
DP").
"""

from __future__ import annotations

from fractions import Fraction

from reference.core.model import result
from reference.core.numeric import MPF, Ctx, binary_order, exp, expm1, extra_bits, log1p, to_ctx
from reference.core.params import Param, nonneg


def _rr_renyi(ctx: Ctx, eps: Fraction, alpha: Fraction) -> MPF:
    # ln(p^a q^(1-a) + q^a p^(1-a)) = (a-1) eps + ln(1+e^(-(2a-1)eps)) - ln(1+e^(-eps)),
    # so with t = a - 1 (exact) D = eps + ln(1 + expm1(-2 t eps)/(1 + e^eps)) / t: the
    # difference of the two log1p terms written as one log1p, without cancellation however
    # close alpha is to 1.  D ~ eps tanh(eps/2) cancels about 2 log2(1/eps) bits against eps
    # for small eps, paid for with guard bits.
    if eps == 0:
        return ctx.zero
    small = max(0, -binary_order(eps))
    with extra_bits(ctx, 20 + 2 * small):
        return rr_renyi_formula(ctx, to_ctx(ctx, eps), to_ctx(ctx, alpha - 1))


def rr_renyi_formula(ctx: Ctx, e: MPF, t: MPF) -> MPF:
    """``eps + log1p(expm1(-2 t eps)/(1 + e^eps))/t``: ``D_alpha`` of ``RR_eps`` at ``t = alpha
    - 1 > 0`` (Mironov 2017, Table II), any context (the result adds guard bits, exact t)."""
    return e + log1p(ctx, expm1(ctx, -2 * t * e) / (1 + exp(ctx, e))) / t


@result("MIR17:RR-renyi", title="Rényi divergence of randomized response (tight RDP of pure DP)",
        kind="conversion",
        statement=r"D_\alpha(\mathrm{RR}_\varepsilon)=\frac{1}{\alpha-1}\ln\big(p^\alpha "
                  r"q^{1-\alpha}+q^\alpha p^{1-\alpha}\big),\ p=\tfrac{e^\varepsilon}"
                  r"{1+e^\varepsilon}",
        params=[nonneg("eps", "1", "pure-DP epsilon of RR"),
                Param("alpha", "real", lo=Fraction(1),
                      lo_open=True, example="2", doc="Rényi order > 1")],
        exact_inputs=True, balls=True)
def rr_renyi(ctx: Ctx, eps: Fraction, alpha: Fraction) -> MPF:
    """Order-``alpha`` Rényi divergence between ``RR_eps(0)`` and ``RR_eps(1)``.

    Mironov (2017) Table II (randomized response); by the simulation theorem the largest
    ``D_alpha`` of any eps-DP mechanism, so eps-DP is exactly ``(alpha, D_alpha)``-RDP.
    Domain: ``eps >= 0``, ``alpha > 1``.  The inputs are used exactly, so ``alpha - 1`` keeps
    its value however close alpha is to 1 (``alpha = 1 + 1e-300`` gives ``eps tanh(eps/2)``
    to working precision, the KL limit).

    By hand at ``eps = ln 3`` (``p = 3/4``), ``alpha = 2``:
    ``p^2/q + q^2/p = 9/4 + 1/12 = 7/3``, so ``D_2 = ln(7/3)`` = 0.8472978603872037:

    >>> import mpmath
    >>> print(mpmath.nstr(rr_renyi(eps=mpmath.log(3), alpha=2), 16))
    0.8472978603872037
    """
    return _rr_renyi(ctx, eps, alpha)
