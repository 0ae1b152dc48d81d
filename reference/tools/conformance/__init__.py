"""Conformance harness: other DP libraries judged against the oracle's certified values.

``python -m reference conformance [--library NAME] [--json] [--out DIR]`` runs every
installed library (:mod:`reference.tools.conformance.adapters`) on a shared grid of cases
(:mod:`reference.tools.conformance.cases`) and decides each returned number against certified
enclosures of registered results (:mod:`reference.tools.conformance.verdicts`).  Libraries are
imported lazily; a missing one is reported as ``skipped``.
"""
