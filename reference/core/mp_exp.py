"""mpmath's ``exp`` and ``expm1`` kept off their slow path for huge integer arguments.

Above 600 bits of precision mpmath computes ``exp(v)`` of an integer-valued ``v`` as ``e``
raised to the power ``v`` by repeated squaring (``mpf_exp`` calls ``mpf_pow_int``): 0.2-0.7 s
at ``|v| = 2^3000 .. 2^5000``, 3.4 s in one certified Gaussian tail at ``sigma = eps =
1.8e308`` (``exp(-t^2/2)``, ``t ~ 3e616``).  Any other argument is reduced by ``ln 2``, which
takes a millisecond.  So from ``|v| >= 2^64`` on, ``e^v`` is taken as ``e^(v - 1/2) e^(1/2)``
(``v - 1/2`` formed exactly): two more roundings, a few ulps, which the callers'
enclosures (:func:`reference.core.numeric.exp`: ``2^20`` ulps) absorb.
"""

from __future__ import annotations

from typing import Any

import mpmath
from mpmath import mp

#: Working precision above which mpmath takes the power path for integer arguments.
POW_PATH_PREC = 600
#: Smallest ``log2 |v|`` sent around it (below, the squarings are few: under 64).
MIN_LOG2 = 64


def exp_or_expm1(v: Any, minus_one: bool) -> Any:
    """``exp(v)``, or ``expm1(v)`` with ``minus_one``, of the ``mp`` number ``v`` at the
    working precision (``mp.prec``)."""
    _, man, e, bc = v._mpf_
    if not (man and e >= 0 and e + bc > MIN_LOG2 and mp.prec > POW_PATH_PREC):
        return mp.expm1(v) if minus_one else mp.exp(v)
    half = mp.mpf(0.5)
    shifted = mp.make_mpf(mpmath.libmp.mpf_sub(v._mpf_, half._mpf_, 0))  # exact
    y = mp.exp(shifted) * mp.exp(half)
    return y - 1 if minus_one else y
