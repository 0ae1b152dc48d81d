"""Peer expectations read from dp-accounting's test suite.

See :mod:`proofs_tests.peers.peer_case` for the model.
"""

from __future__ import annotations

import math
from fractions import Fraction

from proofs_tests.peers.peer_case import (
    Case,
    _dpa,
    _p,
    allclose,
    places,
    rr_replace_one,
    rr_replace_special,
)

CASES: list[Case] = []


# =========================================================================================
# dp-accounting (google/differential-privacy, python/dp_accounting)
# =========================================================================================

_GAUSS_MAP = ("dp-accounting GaussianPrivacyLoss(standard_deviation, sensitivity, "
              "sampling_prob=1, ADD) .get_delta_for_epsilon is the hockey-stick divergence "
              "of N(0, s^2) against N(sensitivity, s^2), i.e. the Balle-Wang curve (any real "
              "eps).")

# test_gaussian_get_delta_for_epsilon, rows with sampling_prob = 1 and ADD (the REMOVE rows
# repeat the same inputs and numbers); (standard_deviation, sensitivity, epsilon, delta).
CASES.extend([Case(_dpa("pld/privacy_loss_mechanism_test.py",
                "GaussianPrivacyLossTest.test_gaussian_get_delta_for_epsilon"),
           "BW18:Thm8", _p(sigma=s, eps=e, sensitivity=d), x, places(7),
           "assertAlmostEqual(expected_delta, delta) (places=7)", _GAUSS_MAP)
      for s, d, e, x in [(1.0, 1.0, 1.0, 0.12693674), (2.0, 2.0, 1.0, 0.12693674),
                         (1.0, 3.0, 1.0, 0.78760074), (2.0, 6.0, 1.0, 0.78760074),
                         (1.0, 1.0, 2.0, 0.02092364), (5.0, 5.0, 2.0, 0.02092364)]])

# test_gaussian_get_delta_for_epsilon_vectorized, sampling_prob = 1: ADD, and REPLACE.
CASES.extend([Case(_dpa("pld/privacy_loss_mechanism_test.py",
                "GaussianPrivacyLossTest.test_gaussian_get_delta_for_epsilon_vectorized"),
           "BW18:Thm8", _p(sigma=1.0, eps=e, sensitivity=1.0), x, places(7),
           "assertAlmostEqual(expected_delta, delta) per element (places=7)", _GAUSS_MAP)
      for e, x in zip([-2.0, -1.0, 0.0, 1.0, 2.0],
                      [0.86749642, 0.67881797, 0.38292492, 0.12693674, 0.020923636],
                      strict=True)])
CASES.extend([Case(_dpa("pld/privacy_loss_mechanism_test.py",
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
CASES.extend([
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
    CASES.extend([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                    f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                    f"replace_special[{name}]"),
               "RSWR23:Renyi", _p(P=Ps, Q=Us, alpha=a), x, allclose(x, 1e-4),
               "np.allclose(accountant._rdp, expected_rdps, rtol=1e-4)", _RR_SPECIAL,
               both_orders=True)
          for a, x in zip(_RR_ORDERS, special, strict=True)])
    CASES.extend([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                    f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                    f"replace_one[{name}]"),
               "RSWR23:Renyi", _p(P=Po, Q=Qo, alpha=a), x, allclose(x, 1e-4),
               "np.allclose(accountant._rdp, expected_rdps, rtol=1e-4)", _RR_ONE)
          for a, x in zip(_RR_ORDERS, one, strict=True)])

CASES.extend([
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
for name_b, p_b, k, x in [("noise_param_1", Fraction(1), 2, 0.0),
                      ("noise_param_0", Fraction(0), 2, math.inf),
                      ("num_buckets_1", Fraction("0.1"), 1, 0.0)]:
    for rel, pair, both, why in [("REPLACE_ONE", rr_replace_one(p_b, k), False, _RR_ONE),
                                 ("REPLACE_SPECIAL", rr_replace_special(p_b, k), True,
                                  _RR_SPECIAL)]:
        CASES.extend([Case(_dpa("rdp/rdp_privacy_accountant_test.py",
                        f"RdpPrivacyAccountantTest.test_compute_rdp_randomized_response_"
                        f"boundary[{name_b}]"),
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
CASES.extend([
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
CASES.extend([
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
