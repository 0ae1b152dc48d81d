"""Noise reduction: the Brownian mechanism and its e-values (WRWR22 §3, RSWR23 §4, §6),
Laplace and Skellam noise reduction (WRWR22 §4, RSWR23 App. A), ReducedAboveThreshold
(WRWR22 §5) and ex-post privacy (WRWR22 Def. 2.2, RSWR23 §4-§5). Samplers are in
:mod:`reference.sim`."""
