"""Using the catalogue as an oracle: pytest assertions, Hypothesis strategies, comparisons."""
