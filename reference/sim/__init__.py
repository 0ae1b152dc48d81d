"""Vectorised samplers, adversaries and the statistical harness (numpy and scipy start here)."""
