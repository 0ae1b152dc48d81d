"""Concentration bounds for the privacy loss under adaptive composition (RRUV16 §4)."""
