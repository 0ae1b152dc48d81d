"""Noise-reduction mechanisms and their composition.

``brownian``: the Brownian mechanism's privacy loss and noise-reduction property (WRWR22
§3, RSWR23 §4, §6); ``brownian_paths``: vectorised samplers; ``evalues``: the backward
martingale, the product e-process and Theorem 5 (RSWR23 §6.1); ``brownian_filters`` and
``brownian_filter_objects``: Lemma 6.2 and Theorem 6 (RSWR23 §6.2); ``harness``: a
rigorous test of ``E[X] <= 1`` for nonnegative variables, used by the stats tests.
``laplace`` and ``laplace_paths``: Laplace noise reduction (WRWR22 §4, RSWR23 App. A);
``skellam``: Skellam noise reduction; ``rat``: ReducedAboveThreshold (WRWR22 §5);
``ex_post``: ex-post privacy and its basic composition (WRWR22 Def. 2.2, RSWR23 §4–§5).
"""

from . import (
    brownian,
    brownian_filter_objects,
    brownian_filters,
    brownian_paths,
    evalues,
    ex_post,
    harness,
    laplace,
    laplace_paths,
    rat,
    skellam,
)

__all__ = ["brownian", "brownian_filter_objects", "brownian_filters", "brownian_paths",
           "evalues", "ex_post", "harness", "laplace", "laplace_paths", "rat", "skellam"]
