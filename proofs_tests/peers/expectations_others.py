"""Peer expectations read from the test suites of OpenDP, diffprivlib and prv-accountant.

See :mod:`proofs_tests.peers.peer_case` for the model."""

from __future__ import annotations

import math
from fractions import Fraction

from proofs_tests.peers.peer_case import (
    Case,
    _ibm,
    _odp,
    _p,
    _prv,
    approx,
    places,
    ulps,
)

CASES: list[Case] = []


# =========================================================================================
# OpenDP (opendp/opendp)
# =========================================================================================

_CDP = ("OpenDP cdp_delta / cdp_epsilon (make_zCDP_to_approxDP): delta(eps) = min over a > 1 "
        "of exp((a-1)(a rho - eps) + a ln(1 - 1/a))/(a-1), and its inverse in eps: the "
        "conversion of Canonne-Kamath-Steinke 2020 Cor 13 at the optimal order.")
_FLOAT_EQ = "assert_eq!/== on binary64 (OpenDP rounds outward): 4 ulps"
_RHO_4 = Fraction(1, 32)    # gaussian scale 4, d_in 1: rho = (1/4)^2 / 2
CASES.extend([
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

CASES.extend([
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
CASES.extend([Case(_odp("rust/src/measurements/noise/distribution/gaussian/test.rs",
                "test_make_gaussian_map"),
           "RSWR23:Lem2.2", _p(rho=1, sensitivity=d), x, 0.0, "assert_eq!(map(&d_in)?, x)",
           _GMAP)
      for d, x in [(0, 0.0), (1, 0.5), (2, 2.0), (3, 4.5)]])
CASES.extend([
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
CASES.extend([Case(_odp("rust/src/measurements/noise/distribution/laplace/test.rs",
                "test_make_laplace_map"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=d), x, 0.0, "assert_eq!(map(&d_in)?, x)",
           _LMAP)
      for d, x in [(0, 0.0), (1, 1.0), (2, 2.0), (3, 3.0)]])
CASES.extend([Case(_odp("python/test/test_comb.py", "test_make_approximate"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=1), 1.0, 0.0,
           "assert m_lap.map(1.0) == (1.0, 0.0)", _LMAP + " (make_approximate adds delta 0)")])
CASES.extend([Case(_odp("python/test/test_meas.py", "test_laplace"),
           "RSWR23:Lem2.1", _p(eps=1, sensitivity=1), 1.0, 0.0,
           "assert meas.map(1.0) == 1.0", _LMAP)])

_RRMAP = ("OpenDP randomized response map(1) = the pure-DP epsilon of the RR pair = its "
          "max-divergence (Renyi order inf; the pair is symmetric).")
CASES.extend([
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
CASES.extend([Case(_odp("python/test/test_comb.py", "test_make_pureDP_to_zCDP"),
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
CASES.extend([
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
    CASES.extend([Case(_prv("tests/test_accountant.py",
                    "TestPRVAccountant.test_gaussian_mechanism_analytic_homogeneous"),
               "BW18:Thm8-rho", _p(rho=Fraction(n, 2 * 100**2), eps=e), x, 1e-11, _PRV_RULE,
               _PRV_G + f" noise multiplier 100, {n} compositions: mu^2 = {n}/100^2.")
          for e, x in rows])
CASES.extend([Case(_prv("tests/test_accountant.py",
                "TestPRVAccountant.test_gaussian_mechanism_analytic_heterogeneous"),
           "BW18:Thm8-rho", _p(rho=Fraction(5, 4), eps=4), 0.01645567286410897, 1e-11,
           _PRV_RULE, _PRV_G + " mu^2 = 50/10^2 + 50/5^2 = 5/2.")])

_ZD = ("ApproximateDPMechanism(epsilon=0, delta=d1) self-composed n times, compute_delta at "
       "eps 0; the test's closed form 1-(1-d1)^n is the exact k-fold delta of KOV15 Thm 3.3 "
       "at eps = eps_g = 0 (re-derived here at 40 digits).")
CASES.extend([Case(_prv("tests/test_privacy_random_variables/test_approximate_dp.py",
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
CASES.extend([Case(_prv("tests/test_privacy_random_variables/test_approximate_dp.py",
                "TestApproximateDP.test_advanced_composition"),
           "KOV15:Thm3.3", _p(eps=Fraction("0.01"), k=10_000,
                              delta_g=10_000 * Fraction(d) + Fraction(dp), delta=Fraction(d)),
           x, 0.0, "assert eps_tilde_lower < eps_tilde_sc", _SC, check="upper")
      for d, dp, x in [("1e-7", "1e-5", 5004.75685966213),
                       ("1e-7", "1e-6", 5005.214855519699)]])
