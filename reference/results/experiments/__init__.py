"""Closed forms behind the experiments of RSWR23 §7."""
