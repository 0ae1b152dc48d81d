"""The cost class of every registered result (``python -m reference bench --results``).

One class each, by what one call computes (its core, the helpers it calls, its precondition
and ``prepare`` hooks), with what costs:

- ``closed``: a fixed number of elementary and special-function operations;
- ``sized``: work growing with an input (a list's or a distribution's length, a count ``k``
  summed term by term, a series whose length the inputs set), including a precondition that
  walks a list;
- ``solved``: a root found by a solver (every inverse: certified by bracketing its forward);
- ``optimised``: an extremum found by search (Renyi orders, a linear program, a minimising
  parameter);
- ``composed``: a privacy-loss law composed on a grid.

Where several apply, the first of ``composed, optimised, solved, sized, closed`` is taken
(an optimisation over a series is ``optimised``).  A test checks that every registered result
has exactly one entry.
"""

from __future__ import annotations

COST_CLASSES: dict[str, tuple[str, str]] = {
    "BS16:Prop1.4": ("closed", "puredp_to_zcdp: eps^2/2, one product"),
    "BW18:Thm8": ("closed", "gaussian_delta -> gauss_delta: two normal_sf (erfc) tails and one "
                            "exp, fixed guard bits"),
    "BW18:Thm8-eps": ("solved", "gaussian_epsilon (INVERSE of BW18:Thm8): _solve_eps Newton "
                                "(floats then mp) on ln delta(eps), bracket fallback; certified "
                                "by bracketing the forward"),
    "BW18:Thm8-rho": ("closed", "gaussian_delta_rho -> gauss_delta at mu=sqrt(2 rho): two "
                                "normal_sf tails and one exp"),
    "BW18:Thm8-rho-eps": ("solved", "gaussian_epsilon_rho (INVERSE of BW18:Thm8-rho): _solve_eps "
                                    "Newton/bracket on the Gaussian curve, certified by "
                                    "bracketing"),
    "CKS20:Cor13": ("optimised", "cks_epsilon: inf over Renyi orders; optimal order found by "
                                 "_eps_order_t (Newton guess + bracket_near root of the "
                                 "first-order condition), then eps_at_order"),
    "CKS20:Cor13-delta": ("optimised", "cks_delta: inf over Renyi orders of delta_a; "
                                       "_delta_order_t Newton guess + bracket_near on the "
                                       "derivative's root, then ln delta on the bracket"),
    "CKS20:Cor13-order": ("solved", "cks_order: the optimal order itself, root of (a-1)^2 rho + "
                                    "ln a = ln(1/delta) by _eps_order_t (Newton guess + "
                                    "bracket_near)"),
    "CL23:CorA.3": ("sized", "algorithm_decomposition -> explicit_mixture: hockey-stick sums and "
                             "min/mixture per outcome, loop over the n outcomes of P,Q"),
    "CL23:Def2.1": ("sized", "target_q: oracle best_q with delta=0 (_degenerate/_pure closed-form "
                             "caps summed over the outcomes) at both ends of ratio_bracket, plus "
                             "_delta_min hockey-stick sums over outcomes"),
    "CL23:DefB.1": ("optimised", "target_q_approx: best_q with delta>0 solves the Charnes-Cooper "
                                 "linear program exactly (lp.maximise rational simplex), at both "
                                 "ends of the e^eps bracket"),
    "CL23:Lem2.2": ("closed", "tct_simple: (1+alpha) tau eps/q and simplified_tail exp, floor for "
                              "m"),
    "CL23:Lem2.2-advanced": ("closed", "tct_simple_advanced -> tct_advanced: advanced_eps (sqrt, "
                                       "log, expm1) + simplified_tail"),
    "CL23:Lem2.3": ("closed", "notprior_q: 1/(e^eps+1)"),
    "CL23:Lem2.4": ("closed", "conditional_release: (eps, delta, 1/(e^eps+1))"),
    "CL23:Lem2.5": ("closed", "revise_call: (2 eps, 0, 1/(e^{2eps}+1))"),
    "CL23:Lem2.6": ("closed", "top_k_calls: 2 eps and notprior_value(2 eps)"),
    "CL23:Lem2.7": ("closed", "multi_target: (eps', r delta'), one product"),
    "CL23:Lem2.8": ("closed", "wrapped_privacy -> general_wrapper_t: 2 eps - log1p(2 "
                              "expm1(eps)/3)"),
    "CL23:Lem2.9-conservative": ("closed", "wrapped_target: general_wrapper_t then conservative_q "
                                           "(two expm1)"),
    "CL23:Lem2.9-exact": ("closed", "wrapped_target_exact: general_wrapper_t then exact_q (three "
                                    "expm1)"),
    "CL23:LemA.1": ("sized", "mixture -> explicit_mixture: hockey-stick sums, min(P,Q) and _lower "
                             "mixture per outcome, loop over the n outcomes"),
    "CL23:LemB.3": ("optimised", "full_support_q -> oracle_value/best_q on the full support: for "
                                 "delta>0 (non-degenerate) the exact Charnes-Cooper LP "
                                 "(lp.maximise); delta=0 closed-form sums"),
    "CL23:LemC.1": ("closed", "notprior_q_approx: 1/(e^eps+1)"),
    "CL23:LemC.2": ("sized", "notprior_pair_q: core is construction_q on P[prior],Q[prior] "
                             "(closed), but precondition require_pure_pair walks every outcome "
                             "ratio of P,Q"),
    "CL23:LemC.3": ("closed", "private_test_q -> construction_q (one expm1); precondition "
                              "require_pure_pair on a fixed 2-outcome pair"),
    "CL23:LemD.1": ("closed", "bottom_replace_privacy: returns (eps, delta)"),
    "CL23:LemD.2": ("closed", "conditioned_epsilon: 2 eps"),
    "CL23:LemE.1": ("closed", "wrapped_test_privacy -> wrapper_test_t: max(eps, log1p(...)) with "
                              "one expm1"),
    "CL23:LemE.2-conservative": ("closed", "wrapped_test_target: wrapper_test_t then "
                                           "conservative_q"),
    "CL23:LemE.2-exact": ("closed", "wrapped_test_target_exact: wrapper_test_t then exact_q"),
    "CL23:LemF.1": ("closed", "run_twice_target: (w+1)/(w+1+2w^2) with w=e^eps"),
    "CL23:LemG.1": ("closed", "between_thresholds_q: -expm1(-gap eps)/(e^eps+1)"),
    "CL23:RemB.5": ("closed", "hits_for_delta: two formulas in log(1/delta) and chernoff_rate "
                              "(log1p)"),
    "CL23:Thm2.10": ("closed", "svt_individual: _floor_in_ratio (at most 3 rational brackets of "
                               "e^eps) then advanced_eps + simplified_tail"),
    "CL23:Thm2.10-basic": ("closed", "svt_individual_basic: _floor_in_ratio then eps m and "
                                     "simplified_tail"),
    "CL23:ThmB.4": ("closed", "tct_basic: calls() floor, eps m and simplified_tail exp"),
    "CL23:ThmB.4-advanced": ("closed", "tct_advanced: calls() floor, advanced_eps and "
                                       "simplified_tail"),
    "CL23:ThmB.4-exact": ("sized", "tct_exact -> binomial_lower_tail: sum of min(tau, m+1) "
                                   "binomial terms term by term"),
    "CL23:ThmB.4-tail": ("sized", "tct_tail: binomial_lower_tail sums tau binomial terms at "
                                  "m=floor((1+alpha)tau/q), plus two closed Chernoff forms"),
    "CL23:ThmI.1": ("closed", "top_one: prepare _top_one_calls decides "
                              "ceil(ln(1/delta)/ln(1+e^{-2eps})) exactly (precision ladder), then "
                              "2 eps m"),
    "CL23:ThmI.3": ("closed", "top_k: _floor_in_ratio (rational bracket of e^{2eps}) then "
                              "advanced_eps + simplified_tail"),
    "DPSGD:delta": ("composed", "dpsgd_delta -> pld.bracket: grid privacy-loss law of one step "
                                "(single_step) composed over T steps (pld_compose.compose, "
                                "polynomial powers), delta read off the grid; delta_bound "
                                "shortcut in the far tail"),
    "DPSGD:delta-rdp": ("optimised", "dpsgd_delta_rdp -> rdp_minimum.certified_min: scan + "
                                     "golden-section + Newton search over Renyi orders in (1, "
                                     "256], each evaluating MTZ19 log_moment series, certified by "
                                     "secants"),
    "DPSGD:delta-wor": ("composed", "dpsgd_delta_wor -> wor_bracket: two PLD grid compositions "
                                    "(Poisson pair at sigma/2 and the symmetric dominating law) "
                                    "via pld.bracket"),
    "DPSGD:eps": ("composed", "dpsgd_eps -> pld.bracket: one-step grid law composed T times "
                              "(pld_compose.compose), eps found by binary search on the composed "
                              "grid (remove and add directions)"),
    "DPSGD:eps-rdp": ("optimised", "dpsgd_eps_rdp -> certified_min: scan/golden-section/Newton "
                                   "search over Renyi orders of T ln A_alpha (MTZ19 series) + "
                                   "CKS20 conversion"),
    "DPSGD:eps-wor": ("composed", "dpsgd_eps_wor -> wor_bracket: two PLD grid compositions "
                                  "(Poisson pair and symmetric law) via pld.bracket"),
    "KOV15:Thm3.3": ("solved", "optimal_epsilon (INVERSE of KOV15:Thm3.3-delta): piece walk + two "
                               "binomial sums of ~sqrt(k bits) terms (piece_sums), root on the "
                               "piece; certified by bracketing the forward"),
    "KOV15:Thm3.3-delta": ("sized", "optimal_delta -> kov15_sums.piece_sums: two binomial "
                                    "polynomial sums outward from the largest weight until the "
                                    "tail bound (~sqrt(k bits) terms)"),
    "KOV15:Thm3.3-grid": ("solved", "kov_grid: prepare _lattice_bracket bisects the lattice index "
                                    "i (monotone exact delta via KOV15 piece sums each step), "
                                    "guess from the optimal_epsilon solver"),
    "KOV15:Thm3.5": ("sized", "kov_heterogeneous + kov_forms: sums over the list eps_l (sum, tanh "
                              "drift, squares) and log1p over delta_l"),
    "LEC11:AdvComp": ("closed", "advanced_composition_tanh: eps sqrt(2k ln(1/delta')) + k eps "
                                "tanh(eps/2)"),
    "LEC11:Ex1": ("closed", "notes_gaussian_sigma: 2 sqrt(ln(1/delta))/eps; precondition "
                            "_ex1_condition compares on at most 5 fixed precisions"),
    "LEC11:GaussLoss": ("closed", "gaussian_loss_law: (Delta/sigma)^2/2 and (Delta/sigma)^2"),
    "LEC11:GaussTail": ("closed", "gaussian_loss_tail: one normal_sf"),
    "LEC11:LRR": ("closed", "leaky_rr: fixed 4-outcome pair, two exp"),
    "LEC11:NameShame": ("closed", "name_and_shame: fixed 3-outcome pair"),
    "LEC11:RRLoss": ("closed", "rr_expected_loss: eps expm1(eps)/(expm1(eps)+2)"),
    "MIR17:RR-renyi": ("closed", "rr_renyi -> rr_renyi_formula: eps + log1p(expm1(-2t "
                                 "eps)/(1+e^eps))/t with guard bits"),
    "MTZ19:rdp": ("sized", "sgm_rdp -> log_moment: integer alpha sums alpha+1 binomial terms "
                           "(_integer_excess); fractional alpha sums ceil(alpha) terms with two "
                           "normal tails each plus a CVZ-accelerated tail whose length grows with "
                           "the precision"),
    "MV16:Thm1.5": ("solved", "hetero_epsilon (INVERSE of MV16:Thm1.5-delta): walk over sorted "
                              "loss values from _support, closed-form root on the interval; "
                              "certified by bracketing the forward"),
    "MV16:Thm1.5-delta": ("sized", "hetero_delta -> _support: enumerates prod(k_j+1) privacy-loss "
                                   "values over distinct epsilons and sums [1-e^(eps_g-L)]_+ "
                                   "terms"),
    "RRUV16:Def2.1": ("sized", "indistinguishable_delta: two hockey_stick_divergence sums over "
                               "the outcomes of P,Q"),
    "RRUV16:Def2.2": ("sized", "pointwise_delta -> pointwise_failure: loop over outcomes, each "
                               "exceeds_exp exact comparison"),
    "RRUV16:Def2.6": ("closed", "randomized_response: fixed 4-outcome pair, two exp"),
    "RRUV16:Lem2.3-i": ("closed", "pointwise_to_indistinguishable: returns (eps, delta)"),
    "RRUV16:Lem2.3-ii": ("closed", "indistinguishable_to_pointwise: delta(1+e^-2eps)/(1-e^-eps)"),
    "RRUV16:Lem3.3": ("sized", "lifted_failure -> _failure: sum of failure_term over the list "
                               "(eps_i, delta_i); prepare decides it with exceeds"),
    "RRUV16:Lem4.6": ("closed", "loss_mean_bound -> half_drift: eps expm1(eps)/2"),
    "RRUV16:Lem6.4": ("sized", "fixed_x_odometer -> drift_and_square_sum over the list eps_i, "
                               "then self_normalized"),
    "RRUV16:Thm2.10": ("closed", "advanced_composition: eps expm1(eps) k + eps sqrt(2k "
                                 "log(1/delta_hat))"),
    "RRUV16:Thm2.9": ("sized", "basic_composition: fsum over the lists eps_i and delta_i"),
    "RRUV16:Thm3.4": ("sized", "basic_filter: sum over the list eps_i (prepare exact sum and core "
                               "fsum)"),
    "RRUV16:Thm4.1": ("closed", "self_normalized_threshold -> self_normalized: sqrt, log"),
    "RRUV16:Thm4.2": ("closed", "window_tail: 2 sqrt(e)(1+2s log t)e^{-s^2/2}"),
    "RRUV16:Thm4.3": ("sized", "range_sum: sum of squared widths over the list width_i"),
    "RRUV16:Thm4.4": ("closed", "martingale_threshold -> self_normalized"),
    "RRUV16:Thm4.5": ("closed", "window_bound: bound and threshold, few logs and sqrts"),
    "RRUV16:Thm5.1": ("sized", "advanced_filter -> _advanced_K: drift and square sums over the "
                               "list eps_i, then filter_statistic; prepare decides with exceeds"),
    "RRUV16:Thm6.1": ("sized", "lower_order -> lower_order_value: sums of rr_expected_loss and "
                               "squares over the list eps_i"),
    "RRUV16:Thm6.5": ("sized", "advanced_odometer -> drift_and_square_sum over eps_i (prepare: "
                               "exact sum of squares for the branch), then advanced_value"),
    "RRUV16:fn2-advanced": ("sized", "advanced_composition_heterogeneous: sums of eps_i "
                                     "expm1(eps_i) and eps_i^2 over the list eps_i"),
    "RSWR23:AppA-flat": ("closed", "flat_probability: exp(-2 log(t2/t1))"),
    "RSWR23:AppA-levy": ("closed", "levy_density: exp(-|z|/t)/|z|"),
    "RSWR23:Def2.1": ("sized", "hockey_stick -> hockey_stick_divergence: sum of (p - e^eps q)_+ "
                               "over the probability vectors"),
    "RSWR23:Def2.3": ("sized", "privacy_loss_distribution -> loss_atoms: one log per outcome of "
                               "the probability vectors"),
    "RSWR23:Def4.1": ("closed", "expost_excess_given: (loss - bound)_+"),
    "RSWR23:DefA.1": ("sized", "lnr_path_loss_rswr23: core uses only the last release (exact "
                               "rational), but precondition TIMES_DECREASE/equal_lengths walk the "
                               "times list"),
    "RSWR23:Eq13": ("closed", "local_levy_density: exp(-|z|/t)/t^2"),
    "RSWR23:Eq2": ("sized", "product_evalue: sums of b_s/tau_s and 1/tau_s over the lists "
                            "(precondition _exponent_limit also sums them)"),
    "RSWR23:Lem2.1": ("closed", "laplace_epsilon: sensitivity * eps"),
    "RSWR23:Lem2.2": ("closed", "gaussian_zcdp: sensitivity^2 rho/2"),
    "RSWR23:Lem2.3": ("closed", "zcdp_to_dp: rho + 2 sqrt(rho log(1/delta))"),
    "RSWR23:Lem2.3-i": ("closed", "dp_to_zcdp: (eps^2/2, delta)"),
    "RSWR23:Lem2.3-inverse": ("solved", "zcdp_budget (INVERSE of RSWR23:Lem2.3): closed-form "
                                        "point (eps/(sqrt(L+eps)+sqrt L))^2 certified by "
                                        "bracketing the forward"),
    "RSWR23:Lem2.4": ("sized", "compose_zcdp: fsum over the lists rho_i and delta_i"),
    "RSWR23:Lem5.1": ("sized", "compose_expost: fsum over the lists expost_i and deltas_i"),
    "RSWR23:Lem5.2": ("sized", "expost_filter: sums over the lists expost_i and deltas_i (prepare "
                               "exact sums)"),
    "RSWR23:Lem6.1": ("closed", "backward_martingale: exp(lam b/t - lam^2/(2t))"),
    "RSWR23:Lem6.2": ("sized", "brownian_filter: spend sum of 1/(2 t_i) over the list t_i "
                               "(prepare exact sum), zcdp_to_dp closed"),
    "RSWR23:LemA.1": ("sized", "lnr_loss: sum of _abs_loss over the coordinates of fx, fxp, x"),
    "RSWR23:LemA.1-printed": ("closed", "lnr_loss_printed: one exact _abs_loss"),
    "RSWR23:Renyi": ("sized", "renyi: sum over the outcomes of p expm1(a log(p/q)) (prepare sums "
                              "P for the mass defect)"),
    "RSWR23:Sec7.1-doubling": ("closed", "doubling_bound: sqrt(r^2) and r^4/(r^2-1)"),
    "RSWR23:Sec7.1-doubling-run": ("closed", "doubling_run: k from bit lengths (at most a couple "
                                             "of loop steps), two exact rationals"),
    "RSWR23:Sec7.2-EM": ("closed", "exponential_mechanism_zcdp: eps^2/8"),
    "RSWR23:Sec7.2-accept": ("closed", "acceptance: three rational expressions in alpha"),
    "RSWR23:Thm2": ("sized", "zcdp_filter: fsum of the list rho_m then zcdp_to_dp, sum of deltas "
                             "(prepare zcdp_rule with exceeds)"),
    "RSWR23:Thm3": ("sized", "concurrent_filter: sums over rho, deltas, expost, deltas_post lists "
                             "(prepare both rules)"),
    "RSWR23:Thm4": ("sized", "brownian_loss_rswr23 -> _loss: squared norm and inner product over "
                             "the vector coordinates"),
    "RSWR23:Thm5": ("sized", "composed_expost: sum of 1/t_i over the list t_i, then companion_psi"),
    "RSWR23:Thm6": ("sized", "unified_filter: spend sum over t_i and rho_z lists (prepare exact "
                             "sums), zcdp_to_dp closed"),
    "RSWR23:Thm6-printed": ("sized", "unified_filter_printed: spend sum over t_i and rho_z lists, "
                                     "printed_epsilon closed"),
    "RSWR23:psi": ("closed", "companion_psi -> mixture_level: sqrt((v+prec)(log1p + 2 "
                             "ln(1/delta)))"),
    "WRWR22:Alg1": ("closed", "rat_scales: three ratios"),
    "WRWR22:Cor3.7": ("closed", "expost_at_stop -> mixture_boundary: one mixture_level"),
    "WRWR22:Cor3.7-Gamma": ("solved", "mixture_time (INVERSE of WRWR22:Thm3.6-mixture): Newton "
                                      "guess then regula falsi bracket (_solve_decreasing) of "
                                      "psi^M(t)=E"),
    "WRWR22:Cor3.7-Gamma-linear": ("solved", "linear_time (INVERSE of WRWR22:Thm3.6-linear): "
                                             "closed-form root, certified by bracketing the "
                                             "forward"),
    "WRWR22:Cor5.2": ("closed", "bm_rat_expost: 2 * mixture_boundary"),
    "WRWR22:Def2.2": ("closed", "expost_excess: (loss - bound)_+"),
    "WRWR22:Def4.1": ("sized", "lnr_path_loss: core uses only the last release, but precondition "
                               "TIMES_DECREASE/equal_lengths/_above_eta walk the times list"),
    "WRWR22:Eq4": ("closed", "stay_probability: (t_prev/t)^2"),
    "WRWR22:Eq5": ("closed", "jump_law: 2(log t - log s) and one exp"),
    "WRWR22:Lem3.2": ("sized", "path_loss: core uses only the last release, but precondition "
                               "TIMES_DECREASE/equal_lengths walk the times list"),
    "WRWR22:Prop4.2": ("closed", "lnr_expost: (Delta/t, 0)"),
    "WRWR22:Sec4-Skellam": ("sized", "skellam_pmf -> _series: Bessel-type power series summed "
                                     "until the ratio/tail stopping rule (~sqrt(m1 m2) + "
                                     "precision terms)"),
    "WRWR22:Sec4-Skellam-NR": ("sized", "skellam_path_loss: two skellam_pmf_core series summed "
                                        "until the tail bound (+ precondition walk over times)"),
    "WRWR22:Thm3.4": ("sized", "brownian_loss -> _loss: squared norm and inner product over the "
                               "vector coordinates"),
    "WRWR22:Thm3.4-bound": ("closed", "loss_bound: Delta^2/(2T) + Delta W^+/T"),
    "WRWR22:Thm3.6-linear": ("closed", "linear_boundary: Delta/t (Delta/2 + b) + Delta a"),
    "WRWR22:Thm3.6-mixture": ("closed", "mixture_boundary -> mixture_level: one sqrt/log1p/log"),
    "WRWR22:Thm3.6-mixture-optimal-rho": ("optimised", "optimal_rho: argmin over rho of psi^M_rho "
                                                       "via ratio_star (Newton root of r - "
                                                       "log(1+r) = 2 ln(1/delta), "
                                                       "interval-certified), then the minimal "
                                                       "boundary"),
    "WRWR22:Thm5.1": ("closed", "rat_loss_bound: alg_loss + eps"),
    "WRWR22:Thm5.1-LNR": ("closed", "lnr_rat_expost: (2 Delta/t, 0)"),
}
