"""Expected numbers from the DP libraries' own test suites, mapped to our catalogue results.

Every :class:`Case` records where a number comes from (peer library, repository, file, test,
commit read), the inputs, the number the peer's test expects, the tolerance that test uses
(translated to an absolute tolerance, with the peer's rule spelled out), and the id and
parameters of OUR result that computes the same quantity.  The numbers are facts read from
the peers' test files; the table is written here, no peer code is used.

Only literal expected numbers qualify, or numbers a test derives in closed form from a
stated formula (then re-derived here and said so in ``mapping``).  Tests whose expected
value is computed by the peer's own code, and quantities that are not exactly one of our
results (Poisson-subsampled mechanisms, Laplace hockey-stick curves, noise calibration,
RDP of the Gaussian at a fixed order, ...), are left out.

``check`` says what the peer asserts about the exact quantity:

* ``"close"``: ``|expected - exact| <= tol`` (two-sided);
* ``"upper"``: ``exact <= expected + tol`` (the peer states only an upper bound);
* ``"refused"``: the peer returns "no answer" (``None``); our result must refuse the input.

``expected_disagreement`` (an explanation) marks a case where the peer's number and our
enclosure are known to differ by more than ``tol``; the test asserts the disagreement and
its side (``peer_above``).  OpenDP's exact float equalities are read as agreement to 4 ulps
(:func:`ulps`), fixed before comparing; its outward rounding puts a few of its numbers
slightly further above the exact value, recorded as float-level disagreements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

Check = Literal["close", "upper", "refused"]


@dataclass(frozen=True)
class Source:
    peer: str
    repo: str
    path: str
    test: str
    commit: str


@dataclass(frozen=True)
class Case:
    source: Source
    result: str                              # our catalogue id
    params: tuple[tuple[str, Any], ...]      # keyword arguments of our result
    expected: float | str | None             # the peer's number (str: more digits than a float)
    tol: float                               # absolute tolerance from the peer's rule
    tol_rule: str                            # the peer's own assertion, as written there
    mapping: str                             # why the peer's quantity is exactly our result
    check: Check = "close"
    field: str | None = None                 # component of a named-tuple result
    both_orders: bool = False                # quantity = max(res(P, Q), res(Q, P))
    expected_disagreement: str | None = None
    peer_above: bool | None = None           # for a disagreement: is the peer's number larger?

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.source.repo, self.source.path, self.source.test, self.result,
                self.params, self.field, self.both_orders)

    @property
    def label(self) -> str:
        args = ",".join(f"{k}={_short(v)}" for k, v in self.params)
        part = f".{self.field}" if self.field else ""
        return f"{self.source.peer}:{self.source.test}:{self.result}{part}({args})"


def _short(v: Any) -> str:
    if isinstance(v, tuple):
        return f"<{len(v)}>" if len(v) > 4 else "(" + ",".join(_short(x) for x in v) + ")"
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _p(**kw: Any) -> tuple[tuple[str, Any], ...]:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in kw.items())


# --- tolerance rules of the peers' assertions ------------------------------------------

def places(n: int) -> float:
    """unittest ``assertAlmostEqual(places=n)``: ``round(a - b, n) == 0``."""
    return 0.5 * 10.0**-n


def allclose(expected: float, rtol: float, atol: float = 1e-8) -> float:
    """numpy ``allclose(actual, expected, rtol)``: ``|a - e| <= atol + rtol |e|``."""
    return atol + rtol * abs(expected)


def approx(expected: float, rel: float = 1e-6, abs_: float = 1e-12) -> float:
    """``pytest.approx`` with its defaults."""
    return max(rel * abs(expected), abs_)


def ulps(expected: float, n: int = 4) -> float:
    """Exact float equality (``assert_eq!`` / ``==``) of a value computed in binary64
    with outward rounding: read as agreement to ``n`` units in the last place."""
    return n * math.ulp(expected)


# --- sources -----------------------------------------------------------------------------

_GDP = ("google/differential-privacy", "b5b0286e313b64a692abfc8c528d54ef47d960a0")
_DPA = "python/dp_accounting/dp_accounting/"
_ODP = ("opendp/opendp", "bc6e18b86fb5f8cbab5a79da1a6cedea6b181f24")
_IBM = ("IBM/differential-privacy-library", "5d9c9d873c99295f14b0cfb61866fafbf3cc4684")
_PRV = ("microsoft/prv_accountant", "a844f7200af2722d6a81e0386b2b7351688ecf35")


def _dpa(path: str, test: str) -> Source:
    return Source("dp-accounting", _GDP[0], _DPA + path, test, _GDP[1])


def _odp(path: str, test: str) -> Source:
    return Source("opendp", _ODP[0], path, test, _ODP[1])


def _ibm(test: str) -> Source:
    return Source("diffprivlib", _IBM[0], "tests/test_BudgetAccountant.py", test, _IBM[1])


def _prv(path: str, test: str) -> Source:
    return Source("prv-accountant", _PRV[0], path, test, _PRV[1])


# --- finite pairs of the randomized-response tests ---------------------------------------

def rr_replace_one(p: Fraction | float, k: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """k-ary RR that outputs a uniform bucket with probability p, on two different inputs."""
    hit, miss = 1 - p + p / k, p / k
    P = (hit,) + (miss,) * (k - 1)
    Q = (miss, hit) + (miss,) * (k - 2) if k >= 2 else P
    return P, Q


def rr_replace_special(p: Fraction | float, k: int) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """k-ary RR on a real input against the special input, whose output is uniform."""
    P, _ = rr_replace_one(p, k)
    return P, (Fraction(1, k),) * k


CASES: list[Case] = []


def _add(cases: Sequence[Case]) -> None:
    CASES.extend(cases)


# =========================================================================================
# dp-accounting (google/differential-privacy, python/dp_accounting)
# =========================================================================================

_GAUSS_MAP = ("dp-accounting GaussianPrivacyLoss(standard_deviation, sensitivity, "
              "sampling_prob=1, ADD) .get_delta_for_epsilon is the hockey-stick divergence "
              "of N(0, s^2) against N(sensitivity, s^2), i.e. the Balle-Wang curve (any real "
              "eps).")

# test_gaussian_get_delta_for_epsilon, rows with sampling_prob = 1 and ADD (the REMOVE rows
# repeat the same inputs and numbers); (standard_deviation, sensitivity, epsilon, delta).
_add([Case(_dpa("pld/privacy_loss_mechanism_test.py",
                "GaussianPrivacyLossTest.test_gaussian_get_delta_for_epsilon"),
           "BW18:Thm8", _p(sigma=s, eps=e, sensitivity=d), x, places(7),
           "assertAlmostEqual(expected_delta, delta) (places=7)", _GAUSS_MAP)
      for s, d, e, x in [(1.0, 1.0, 1.0, 0.12693674), (2.0, 2.0, 1.0, 0.12693674),
                         (1.0, 3.0, 1.0, 0.78760074), (2.0, 6.0, 1.0, 0.78760074),
                         (1.0, 1.0, 2.0, 0.02092364), (5.0, 5.0, 2.0, 0.02092364)]])

# test_gaussian_get_delta_for_epsilon_vectorized, sampling_prob = 1: ADD, and REPLACE.
_add([Case(_dpa("pld/privacy_loss_mechanism_test.py",
                "GaussianPrivacyLossTest.test_gaussian_get_delta_for_epsilon_vectorized"),
           "BW18:Thm8", _p(sigma=1.0, eps=e, sensitivity=1.0), x, places(7),
           "assertAlmostEqual(expected_delta, delta) per element (places=7)", _GAUSS_MAP)
      for e, x in zip([-2.0, -1.0, 0.0, 1.0, 2.0],
                      [0.86749642, 0.67881797, 0.38292492, 0.12693674, 0.020923636],
                      strict=True)])
_add([Case(_dpa("pld/privacy_loss_mechanism_test.py",
                "GaussianPrivacyLossTest.test_gaussian_get_delta_for_epsilon_vectorized"),
           "BW18:Thm8", _p(sigma=1.0, eps=e, sensitivity=2.0), x, places(7),
           "assertAlmostEqual(expected_delta, delta) per element (places=7)",
           "REPLACE adjacency with sensitivity 1: dp-accounting shifts the mean by twice the "
           "(add/remove) sensitivity ('REPLACE has twice the noise as required for ADD / "
           "REMOVE'), so the pair is N(0,1) against N(2,1): our curve with sensitivity 2.")
      for e, x in zip([-2.0, -1.0, 0.0, 1.0, 2.0],
                      [0.90958223, 0.81968818, 0.68268949, 0.50986166, 0.331897999],
                      strict=True)])

# pld/accountant_test.py::test_advanced_composition: the lattice form of KOV15 Thm 3.3.
_ADV = ("dp-accounting pld.accountant.advanced_composition(DifferentialPrivacyParameters(eps, "
        "delta), num_queries, total_delta) returns the smallest (k - 2i) eps whose exact "
        "k-fold delta (Kairouz-Oh-Viswanath Thm 3.3) is at most total_delta, None if none.")
_add([
    Case(_dpa("pld/accountant_test.py", "AccountantTest.test_advanced_composition"
              "[advantage_over_basic1]"),
         "KOV15:Thm3.3-grid", _p(eps=1, k=30, delta_g=0.06, delta=0.001), 22.0, places(7),
         "assertAlmostEqual(expected_total_epsilon, total_epsilon) (places=7)", _ADV),
    Case(_dpa("pld/accountant_test.py", "AccountantTest.test_advanced_composition"
              "[advantage_over_basic2]"),
         "KOV15:Thm3.3-grid", _p(eps=1, k=30, delta_g=0.1, delta=0.001), 20.0, places(7),
         "assertAlmostEqual(expected_total_epsilon, total_epsilon) (places=7)", _ADV),
    Case(_dpa("pld/accountant_test.py", "AccountantTest.test_advanced_composition"
              "[total_delta_too_small]"),
         "KOV15:Thm3.3-grid", _p(eps=1, k=1, delta_g=0.1, delta=0.2), None, 0.0,
         "assertIsNone(total_epsilon)",
         _ADV + " total_delta < 1-(1-delta)^k: no epsilon exists; ours refuses the input.",
         check="refused"),
    Case(_dpa("pld/accountant_test.py", "AccountantTest.test_advanced_composition"
              "[total_delta_too_small2]"),
         "KOV15:Thm3.3-grid", _p(eps=1, k=30, delta_g=0.26, delta=0.01), None, 0.0,
         "assertIsNone(total_epsilon)",
         _ADV + " 1-(0.99)^30 = 0.2603 > 0.26: no epsilon exists; ours refuses the input.",
         check="refused"),
])

# rdp/rdp_privacy_accountant_test.py: RDP of k-ary randomized response.
_RR_ORDERS = (1.5, 2.5, 5, 50, 100, math.inf)
_RR_ONE = ("dp-accounting _randomized_response_rdp_replace_one: the Renyi divergence of "
           "P = [1-p+p/k, p/k, ...] from Q = [p/k, 1-p+p/k, p/k, ...] (its docstring); the "
           "pair is symmetric, so one order is the RDP. p from the decimal literal.")
_RR_SPECIAL = ("dp-accounting _randomized_response_rdp_replace_special: max of D_a(P || U) and "
               "D_a(U || P), P = [1-p+p/k, p/k, ...], U uniform (its docstring formula); "
               "our Renyi divergence in both orders. p from the decimal literal.")
for name, p, k, special, one in [
    ("small_eps", "0.3", 10,
     [1.5030552584146897, 1.7801182478869704, 1.9091969256833639, 1.9814516798923105,
      1.9846954517418232, 1.9878743481543455],
     [2.6946320226546314, 2.983865364028855, 3.11316970070507, 3.1854244842182466,
      3.1886682560677593, 3.1918471524802814]),
    ("medium_eps", "0.05", 20,
     [2.8985312222056674, 2.9615414620514047, 2.982908949957726, 2.994685471627712,
      2.9952141594692665, 2.995732273553991],
     [5.850317703374384, 5.910360162307462, 5.930633082131939, 5.94180620835157,
      5.942307807732949, 5.942799375126701]),
    ("large_eps", "0.01", 3,
     [3.851345343526459, 4.334924907685137, 4.503803908976894, 4.596895387863428,
      4.601074578835478, 4.605170185988092],
     [5.684126770932727, 5.692634596034571, 5.695421239467805, 5.696956976543137,
      5.697025920968522, 5.697093486505405]),
]:
    Ps, Us = rr_replace_special(Fraction(p), k)
    Po, Qo = rr_replace_one(Fraction(p), k)
    _add([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                    f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                    f"replace_special[{name}]"),
               "RSWR23:Renyi", _p(P=Ps, Q=Us, alpha=a), x, allclose(x, 1e-4),
               "np.allclose(accountant._rdp, expected_rdps, rtol=1e-4)", _RR_SPECIAL,
               both_orders=True)
          for a, x in zip(_RR_ORDERS, special, strict=True)])
    _add([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                    f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                    f"replace_one[{name}]"),
               "RSWR23:Renyi", _p(P=Po, Q=Qo, alpha=a), x, allclose(x, 1e-4),
               "np.allclose(accountant._rdp, expected_rdps, rtol=1e-4)", _RR_ONE)
          for a, x in zip(_RR_ORDERS, one, strict=True)])

_add([
    Case(_dpa("rdp/rdp_privacy_accountant_test.py",
              "RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_inf_order"
              "[replace_special]"),
         "RSWR23:Renyi", _p(P=rr_replace_special(Fraction("0.1"), 10)[0],
                            Q=rr_replace_special(Fraction("0.1"), 10)[1], alpha=math.inf),
         2.302585092994046, places(7), "assertSequenceAlmostEqual (places=7)", _RR_SPECIAL,
         both_orders=True),
    Case(_dpa("rdp/rdp_privacy_accountant_test.py",
              "RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_inf_order"
              "[replace_one]"),
         "RSWR23:Renyi", _p(P=rr_replace_one(Fraction("0.1"), 10)[0],
                            Q=rr_replace_one(Fraction("0.1"), 10)[1], alpha=math.inf),
         4.51085950651685, places(7), "assertSequenceAlmostEqual (places=7)", _RR_ONE),
])

# test_compute_rdp_randomized_response_boundary: both relations, orders 1.1 and 1.2.
for name, p, k, x in [("noise_param_1", Fraction(1), 2, 0.0),
                      ("noise_param_0", Fraction(0), 2, math.inf),
                      ("num_buckets_1", Fraction("0.1"), 1, 0.0)]:
    for rel, pair, both, why in [("REPLACE_ONE", rr_replace_one(p, k), False, _RR_ONE),
                                 ("REPLACE_SPECIAL", rr_replace_special(p, k), True,
                                  _RR_SPECIAL)]:
        _add([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                        f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                        f"boundary[{name}]"),
                   "RSWR23:Renyi", _p(P=pair[0], Q=pair[1], alpha=a), x, places(7),
                   f"assertSequenceAlmostEqual (places=7), relation {rel}", why,
                   both_orders=both)
              for a in (1.1, 1.2)])

# test_compute_epsilon_delta_gaussian: RDP a/(2 s^2) converted on a fine grid of orders.
_S = 4.530877117
_RHO_G = 1 / (2 * Fraction(_S) ** 2)
_CONV = ("dp-accounting compute_epsilon / compute_delta with rdp = a/(2 s^2) (sampling 1): "
         "the objective a rho + log(1-1/a) - (log delta + log a)/(a-1) of CKS20 Cor 13 at "
         "rho = 1/(2 s^2), minimised over the orders 1.000, 1.001, ..., 99.999 (ours: over "
         "all a > 1; the grid costs far less than the tolerance here).")
_add([
    Case(_dpa("rdp/rdp_privacy_accountant_test.py",
              "RdpPrivacyAccountantTest.test_compute_epsilon_delta_gaussian"),
         "CKS20:Cor13", _p(rho=_RHO_G, delta=1e-6), 1.0, places(7),
         "assertAlmostEqual(eps, 1) (places=7)", _CONV),
    Case(_dpa("rdp/rdp_privacy_accountant_test.py",
              "RdpPrivacyAccountantTest.test_compute_epsilon_delta_gaussian"),
         "CKS20:Cor13-delta", _p(rho=_RHO_G, eps=1), 1e-6, places(7),
         "assertAlmostEqual(delta, 1e-6) (places=7)", _CONV),
])

# pld/privacy_loss_distribution_test.py: hockey-stick of two finite PMFs, both directions.
_HS = ("dp-accounting from_two_probability_mass_functions(log_pmf_lower, log_pmf_upper) "
       ".get_delta_for_epsilon is max(remove, add) = the larger hockey-stick of the two "
       "orders; the test's comment states the exact value and checks the pessimistic and "
       "optimistic discretisations within 1e-4 of it.")
_HS_RULE = "exact in [x - 1e-4, x + 1e-4] (pessimistic <= x + 1e-4, optimistic >= x - 1e-4)"
for test, lower, upper, rows in [
    ("PrivacyLossDistributionTest.test_hockey_stick_basic", (0.5, 0.5), (0.6, 0.4),
     [(0.0, 0.1), (math.log(1.1), 0.06), (math.log(0.9), 0.15)]),
    ("PrivacyLossDistributionTest.test_hockey_stick_unequal_support",
     (0.2, 0.2, 0.6, 0.0), (0.5, 0.4, 0.0, 0.1),
     [(0.0, 0.6), (math.log(1.1), 0.6), (math.log(0.9), 0.64)]),
]:
    for e, x in rows:
        if e >= 0:
            CASES.append(Case(_dpa("pld/privacy_loss_distribution_test.py", test),
                              "RRUV16:Def2.1", _p(P=lower, Q=upper, eps=e), x, 1e-4,
                              _HS_RULE, _HS))
        else:
            CASES.append(Case(_dpa("pld/privacy_loss_distribution_test.py", test),
                              "RSWR23:Def2.1", _p(P=lower, Q=upper, eps=e), x, 1e-4,
                              _HS_RULE, _HS + " eps < 0: the one-order hockey-stick "
                              "(any real eps) taken in both orders.", both_orders=True))

# pld/pld_privacy_accountant_test.py: randomized response through the PLD accountant.
_PLD_RR = ("PLDAccountant(relation).compose(RandomizedResponseDpEvent(p, k)).get_delta(eps): "
           "the hockey-stick of the RR pair, larger of the two orders (REPLACE_ONE: RR on two "
           "inputs; REPLACE_SPECIAL: against the uniform output of the special input).")
_E = math.exp(1)
for name, pair in [("REPLACE_ONE, p=4/(3+e), k=4", rr_replace_one(4 / (3 + _E), 4)),
                   ("REPLACE_SPECIAL, p=(4-e)/3, k=4", rr_replace_special((4 - _E) / 3, 4)),
                   ("REPLACE_SPECIAL, p=exp(-1), k=2", rr_replace_special(math.exp(-1), 2))]:
    CASES.append(Case(_dpa("pld/pld_privacy_accountant_test.py",
                           f"PldPrivacyAccountantTest.test_randomized_response[{name}]"),
                      "RRUV16:Def2.1", _p(P=pair[0], Q=pair[1], eps=1.0), 0.0, places(7),
                      "assertAlmostEqual(accountant.get_delta(expected_epsilon), 0.0)",
                      _PLD_RR + " p chosen so that the largest likelihood ratio is e: "
                      "delta(1) = 0 (p as the test's float)."))
_add([
    Case(_dpa("pld/pld_privacy_accountant_test.py",
              "PldPrivacyAccountantTest.test_randomized_response_with_single_bucket"),
         "RRUV16:Def2.1", _p(P=(Fraction(1),), Q=(Fraction(1),), eps=0), 0.0, 0.0,
         "assertEqual(accountant.get_delta(0), 0)",
         _PLD_RR + " One bucket: both laws are the point mass (either relation)."),
    Case(_dpa("pld/pld_privacy_accountant_test.py",
              "PldPrivacyAccountantTest.test_randomized_response_with_zero_noise_parameter"),
         "RRUV16:Def2.1", _p(P=rr_replace_special(Fraction(0), 3)[0],
                             Q=rr_replace_special(Fraction(0), 3)[1], eps=1.0), 1.0, 0.0,
         "assertEqual(accountant.get_delta(1.0), 1)",
         _PLD_RR + " REPLACE_SPECIAL, p = 0, k = 3: P = (1, 0, 0) against U = (1/3)^3.",
         expected_disagreement=(
             "dp-accounting treats noise_parameter 0 as non-private and reports delta = 1 at "
             "every eps; the pair's exact delta at eps = 1 is max(1 - e/3, 2/3) = 2/3 "
             "(U puts 2/3 on outcomes P never gives). The peer's 1 is a valid but loose "
             "upper bound (a shortcut, not a definition change); ours is exact."),
         peer_above=True),
])

# =========================================================================================
# OpenDP (opendp/opendp)
# =========================================================================================

_CDP = ("OpenDP cdp_delta / cdp_epsilon (make_zCDP_to_approxDP): delta(eps) = min over a > 1 "
        "of exp((a-1)(a rho - eps) + a ln(1 - 1/a))/(a-1), and its inverse in eps: the "
        "conversion of Canonne-Kamath-Steinke 2020 Cor 13 at the optimal order.")
_FLOAT_EQ = "assert_eq!/== on binary64 (OpenDP rounds outward): 4 ulps"
_RHO_4 = Fraction(1, 32)    # gaussian scale 4, d_in 1: rho = (1/4)^2 / 2
_add([
    Case(_odp("python/test/test_meas.py", "test_gaussian_curve"),
         "CKS20:Cor13", _p(rho=_RHO_4, delta=1e-3), 0.6880024554878085,
         ulps(0.6880024554878085), _FLOAT_EQ, _CDP + " rho = (1/4)^2/2."),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/test.rs",
              "test_zCDP_to_approxDP_nontrivial"),
         "CKS20:Cor13", _p(rho=_RHO_4, delta=1e-3), 0.6880024554878086,
         ulps(0.6880024554878086), _FLOAT_EQ,
         _CDP + " rho = (1/4)^2/2; the test's cdp_epsilon helper (1 ulp above the map)."),
    Case(_odp("python/test/test_meas.py", "test_gaussian_curve"),
         "CKS20:Cor13-delta", _p(rho=_RHO_4, eps=0), 0.1508457845622862,
         ulps(0.1508457845622862), _FLOAT_EQ, _CDP + " rho = (1/4)^2/2."),
    Case(_odp("python/test/test_meas.py", "test_gaussian_curve"),
         "CKS20:Cor13-delta", _p(rho=_RHO_4, eps=0.6880024554878085), 1e-3, ulps(1e-3),
         _FLOAT_EQ, _CDP + " rho = (1/4)^2/2.",
         expected_disagreement=(
             "Float level, peer on the safe side: the exact delta at this eps is "
             "9.99999999999999070e-4 (ours; re-derived at 60 digits from the root a* = "
             "12.80865348216595 of (2a-1) rho - eps + ln(1-1/a)), 9.3e-19 = 4.3 ulps below "
             "the peer's 1e-3; OpenDP rounds every step outward."),
         peer_above=True),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/test.rs",
              "test_zCDP_to_approxDP_nontrivial"),
         "CKS20:Cor13", _p(rho=_RHO_4, delta=0.1508457845622862), 0.0, 0.0,
         "assert_eq!(cdp_epsilon(rho, 0.1508457845622862)?, 0.0)",
         _CDP + " At delta = delta(0) the smallest eps is 0."),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_delta/test.rs",
              "test_cdp_delta_rounding_regression"),
         "CKS20:Cor13-delta", _p(rho=0.05, eps=0.25), 8.17727531036956e-2,
         ulps(8.17727531036956e-2), _FLOAT_EQ, _CDP,
         expected_disagreement=(
             "Float level, peer on the safe side: the exact value is "
             "0.08177275310369552574 (ours; re-derived at 60 digits from the root a* = "
             "5.156054626196884 of (2a-1) rho - eps + ln(1-1/a)); the peer's float "
             "0.081772753103695597 is 7.2e-17 = 5.2 ulps above (the test guards OpenDP's "
             "outward rounding: 'previously rounded 1 ulp lower')."),
         peer_above=True),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_delta/test.rs",
              "test_cdp_delta_rounding_regression"),
         "CKS20:Cor13-delta", _p(rho=5e-30, eps=1e-13), 2.619676329730346e-234,
         ulps(2.619676329730346e-234), _FLOAT_EQ, _CDP + " Optimal order near 1.001e16.",
         expected_disagreement=(
             "OpenDP is 3.0e-13 relative (about 1300 ulps) above the exact value "
             "2.61967632972955555e-234 (ours; re-derived at 80 digits from the root "
             "a* = 1.00099900199501e16 of the derivative (2a-1) rho - eps + ln(1-1/a)). The "
             "optimal order exceeds 2^53, where binary64 cannot resolve a (ulp 2) and the "
             "outward-rounded log terms lose ~1e-13; the peer's number is a valid upper "
             "bound, not the exact conversion."),
         peer_above=True),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_delta/test.rs",
              "test_edge_cases"),
         "CKS20:Cor13-delta", _p(rho=0.5, eps=0), 0.5588356393474351,
         ulps(0.5588356393474351), _FLOAT_EQ, _CDP),
    Case(_odp("rust/src/combinators/measure_cast/zCDP_to_approxDP/cdp_delta/test.rs",
              "test_edge_cases"),
         "CKS20:Cor13", _p(rho=0.5, delta=0.5588356393474351), 0.0, 0.0,
         "assert_eq!(cdp_epsilon(0.5, delta)?, 0.0)", _CDP),
    Case(_odp("python/test/test_comb.py", "test_fix_delta"),
         "CKS20:Cor13", _p(rho=Fraction(1, 200), delta=1e-6), 0.42994146883694934,
         ulps(0.42994146883694934), _FLOAT_EQ,
         _CDP + " gaussian scale 10, d_in 1: rho = (1/10)^2/2."),
])

_add([
    Case(_odp("python/test/test_comb.py", "test_cast_zcdp_approxdp"),
         "CKS20:Cor13", _p(rho=Fraction(1, 200), delta=1e-6), 0.42994146883694934,
         ulps(0.42994146883694934), _FLOAT_EQ,
         _CDP + " gaussian scale 10, d_in 1: rho = (1/10)^2/2."),
    Case(_odp("python/test/test_comb.py", "test_make_composition_approx"),
         "CKS20:Cor13", _p(rho=Fraction(1, 2), delta=1e-7), 11.341717670937543 / 2,
         ulps(11.341717670937543 / 2), _FLOAT_EQ + " (of the halved number)",
         _CDP + " The test composes two copies of make_fix_delta(zCDP_to_approxDP(gaussian "
         "scale 1), 1e-7) and expects (11.341717670937543, 2e-07): the sum of two equal "
         "binary64 epsilons, so each is exactly 11.341717670937543/2; rho = 1/2."),
])

_GMAP = ("OpenDP make_gaussian(scale, zCDP).map(d_in) = (d_in/scale)^2/2: our Gaussian "
         "zCDP with precision 1/scale^2 = 1 and sensitivity d_in.")
_add([Case(_odp("rust/src/measurements/noise/distribution/gaussian/test.rs",
                "test_make_gaussian_map"),
           "RSWR23:Lem2.2", _p(rho=1, sensitivity=d), x, 0.0, "assert_eq!(map(&d_in)?, x)",
           _GMAP)
      for d, x in [(0, 0.0), (1, 0.5), (2, 2.0), (3, 4.5)]])
_add([
    Case(_odp("python/test/test_comb.py", "test_cast_zcdp_approxdp"),
         "RSWR23:Lem2.2", _p(rho=Fraction(1, 100), sensitivity=1), 0.005, ulps(0.005),
         _FLOAT_EQ, "OpenDP then_gaussian(10.0, MO=zCDP).map(1.0) = (1/10)^2/2: our Gaussian "
         "zCDP with precision 1/10^2 and sensitivity 1."),
    Case(_odp("python/test/test_comb.py", "test_make_approximate"),
         "RSWR23:Lem2.2", _p(rho=1, sensitivity=1), 0.5, 0.0,
         "assert m_gauss.map(1.0) == (0.5, 0.0)", _GMAP + " (make_approximate adds delta 0)"),
])
_LMAP = ("OpenDP make_laplace(scale).map(d_in) = d_in/scale (pure DP): our Laplace privacy "
         "with inverse scale 1 and sensitivity d_in.")
_add([Case(_odp("rust/src/measurements/noise/distribution/laplace/test.rs",
                "test_make_laplace_map"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=d), x, 0.0, "assert_eq!(map(&d_in)?, x)",
           _LMAP)
      for d, x in [(0, 0.0), (1, 1.0), (2, 2.0), (3, 3.0)]])
_add([Case(_odp("python/test/test_comb.py", "test_make_approximate"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=1), 1.0, 0.0,
           "assert m_lap.map(1.0) == (1.0, 0.0)", _LMAP + " (make_approximate adds delta 0)")])
_add([Case(_odp("python/test/test_meas.py", "test_laplace"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=1), 1.0, 0.0,
           "assert meas.map(1.0) == 1.0", _LMAP)])

_RRMAP = ("OpenDP randomized response map(1) = the pure-DP epsilon of the RR pair = its "
          "max-divergence (Renyi order inf; the pair is symmetric).")
_add([
    Case(_odp("rust/src/measurements/randomized_response/test.rs", "test_bool"),
         "RSWR23:Renyi", _p(P=(Fraction(3, 4), Fraction(1, 4)),
                            Q=(Fraction(1, 4), Fraction(3, 4)), alpha=math.inf),
         math.log(3.0), ulps(math.log(3.0)), _FLOAT_EQ,
         _RRMAP + " Boolean RR keeping the bit with probability 0.75."),
    Case(_odp("rust/src/measurements/randomized_response/test.rs", "test_bool_extremes"),
         "RSWR23:Renyi", _p(P=(Fraction(1, 2), Fraction(1, 2)),
                            Q=(Fraction(1, 2), Fraction(1, 2)), alpha=math.inf),
         0.0, 0.0, "assert_eq!(m_rr.map(&1)?, 0.0)",
         _RRMAP + " Boolean RR with probability 0.5: P = Q."),
    Case(_odp("rust/src/measurements/randomized_response/test.rs", "test_cat"),
         "RSWR23:Renyi", _p(P=(Fraction(3, 4),) + (Fraction(1, 12),) * 3,
                            Q=(Fraction(1, 12), Fraction(3, 4), Fraction(1, 12),
                               Fraction(1, 12)), alpha=math.inf),
         math.log(9.0), ulps(math.log(9.0)), _FLOAT_EQ,
         _RRMAP + " 4 categories, truth with probability 0.75, others 0.25/3 each."),
    Case(_odp("rust/src/measurements/randomized_response/test.rs", "test_cat_extremes"),
         "RSWR23:Renyi", _p(P=(Fraction(1, 5),) * 5, Q=(Fraction(1, 5),) * 5,
                            alpha=math.inf),
         2.220446049250313e-16, math.ulp(1.0),
         "assert_eq!(m_rr.map(&1)?, 2.220446049250313e-16): ln of a ratio 1 rounded up "
         "by one ulp of 1.0, so tol = ulp(1.0)",
         _RRMAP + " 5 categories with probability 1/5: every output uniform, exact 0."),
])
_add([Case(_odp("python/test/test_comb.py", "test_make_pureDP_to_zCDP"),
           "RSWR23:Lem2.4", _p(rho=(Fraction(1, 200), Fraction(1, 200))),
           0.010000000000000002, ulps(0.010000000000000002), _FLOAT_EQ,
           "zCDP composition (sum of rhos) of make_pureDP_to_zCDP(laplace scale 10) and "
           "gaussian scale 10 at d_in 1; the test's comment derives each part in closed "
           "form: (1/10)^2/2 (BS16 Prop 1.4 of eps = 1/10) + (1/10)^2/2 (Gaussian zCDP).",
           field="rho")])

# =========================================================================================
# diffprivlib (IBM/differential-privacy-library)
# =========================================================================================

_KOV = ("diffprivlib BudgetAccountant.total(): min of the sum, the DRV bound and the KOV "
        "bound, delta 1-(1-slack) prod(1-delta_i): Kairouz-Oh-Viswanath 2015 Thm 3.5.")
_eps700 = (Fraction(1, 2**9),) * 700
_add([
    Case(_ibm("TestBudgetAccountant.test_correct_composition"), "KOV15:Thm3.5",
         _p(eps=_eps700, delta_tilde=Fraction(1, 2**25)),
         "0.27832280615743646366122002955588987576913442137093", places(14),
         "assertAlmostEqual(spent_epsilon, 0.2783228061574364636..., places=14)", _KOV,
         field="eps"),
    Case(_ibm("TestBudgetAccountant.test_correct_composition"), "KOV15:Thm3.5",
         _p(eps=_eps700, delta_tilde=Fraction(1, 2**25)), 2.0**-25, 0.0,
         "assertEqual(spent_delta, slack)", _KOV, field="delta"),
])
_BASIC = ("diffprivlib BudgetAccountant.total() with slack 0 returns (sum eps_i, "
          "1 - prod(1 - delta_i)); with at most one non-zero delta_i (as here) that is "
          "basic composition (sum eps_i, sum delta_i).")
for test, eps, delta, x_eps, x_delta in [
    ("test_spend", (1,), (0,), 1, 0), ("test_spend", (1, 1), (0, Fraction(1, 2)), 2, 0.5),
    ("test_spend", (1, 1, 5), (0, Fraction(1, 2), 0), 7, 0.5),
    ("test_with_statement", (1, 2), (0, 0), 3, 0),
    ("test_with_statement", (1, 2, 1), (0, 0, 0), 4, 0),
    ("test_with_statement", (5,), (0,), 5, 0),
]:
    for field, x in [("eps", x_eps), ("delta", x_delta)]:
        CASES.append(Case(_ibm(f"TestBudgetAccountant.{test}"), "RRUV16:Thm2.9",
                          _p(eps=eps, delta=delta), float(x), 0.0,
                          "assertEqual((eps, delta), acc.total())", _BASIC, field=field))

# =========================================================================================
# prv-accountant (microsoft/prv_accountant)
# =========================================================================================

_PRV_G = ("tests/test_accountant.py compute_delta_exact(eps, mu) = Phi(-eps/mu + mu/2) - "
          "e^eps Phi(-eps/mu - mu/2), the Gaussian curve at mu = sqrt(2 rho); the test "
          "requires the accountant's [delta_lower, delta_upper] to contain it. Expected: "
          "that closed form evaluated in binary64 (scipy), re-derived here.")
_PRV_RULE = ("delta_lower <= delta_exact <= delta_upper with delta_error in "
             "{1e-9, 1e-10, 1e-11}: tol = the tightest, 1e-11")
for n, rows in [(9999, [(0.1, 0.35230675760350594), (1.0, 0.12691913413029948),
                        (10.0, 9.762440353226672e-23), (100.0, 0.0)]),
                (10000, [(0.1, 0.3523251716813666), (1.0, 0.12693673750664392),
                         (10.0, 9.812705826847543e-23), (100.0, 0.0)])]:
    _add([Case(_prv("tests/test_accountant.py",
                    "TestPRVAccountant.test_gaussian_mechanism_analytic_homogeneous"),
               "BW18:Thm8-rho", _p(rho=Fraction(n, 2 * 100**2), eps=e), x, 1e-11, _PRV_RULE,
               _PRV_G + f" noise multiplier 100, {n} compositions: mu^2 = {n}/100^2.")
          for e, x in rows])
_add([Case(_prv("tests/test_accountant.py",
                "TestPRVAccountant.test_gaussian_mechanism_analytic_heterogeneous"),
           "BW18:Thm8-rho", _p(rho=Fraction(5, 4), eps=4), 0.01645567286410897, 1e-11,
           _PRV_RULE, _PRV_G + " mu^2 = 50/10^2 + 50/5^2 = 5/2.")])

_ZD = ("ApproximateDPMechanism(epsilon=0, delta=d1) self-composed n times, compute_delta at "
       "eps 0; the test's closed form 1-(1-d1)^n is the exact k-fold delta of KOV15 Thm 3.3 "
       "at eps = eps_g = 0 (re-derived here at 40 digits).")
_add([Case(_prv("tests/test_privacy_random_variables/test_approximate_dp.py",
                "TestApproximateDP.test_zero_delta"),
           "KOV15:Thm3.3-delta", _p(eps=0, k=n, eps_g=0, delta=d1), x, approx(x),
           "delta == pytest.approx(1 - (1-delta_1)**num_comp) (rel 1e-6)", _ZD)
      for d1, n, x in [(1e-7, 10_000, 0.00099950021657503665237),
                       (1e-7, 100_000, 0.0099501667458568961786),
                       (1e-8, 10_000, 0.000099995000666612505916),
                       (1e-8, 100_000, 0.0009995001716200108644)]])

_SC = ("ApproximateDPMechanism(0.01, delta) self-composed n = 10^4 times, compute_epsilon at "
       "delta_tilde = n delta + delta': the optimal composed eps (KOV15 Thm 3.3). The test "
       "asserts it below its strong-composition formula eps sqrt(2 n ln(1/delta')) + "
       "n*n*eps*(e^eps-1)/(e^eps+1), evaluated here (binary64). The n*n looks like a typo "
       "for n (the bound is ~5000 instead of ~5.3; ours is ~4.4 either way). Only the "
       "rows with delta = 1e-7 and n = 10^4 are kept (evaluation time, ~2 s each).")
_add([Case(_prv("tests/test_privacy_random_variables/test_approximate_dp.py",
                "TestApproximateDP.test_advanced_composition"),
           "KOV15:Thm3.3", _p(eps=Fraction("0.01"), k=10_000,
                              delta_g=10_000 * Fraction(d) + Fraction(dp), delta=Fraction(d)),
           x, 0.0, "assert eps_tilde_lower < eps_tilde_sc", _SC, check="upper")
      for d, dp, x in [("1e-7", "1e-5", 5004.75685966213),
                       ("1e-7", "1e-6", 5005.214855519699)]])
