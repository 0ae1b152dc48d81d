"""Experiments of the sources, run from the command line."""
