"""Independent second routes: every closed-form result re-derived from its paper and
evaluated with python-flint arb balls (about 4x the working precision), plus exact rational
routes; see ``routes.py`` and ``test_coverage.py``."""
