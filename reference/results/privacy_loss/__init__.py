"""Divergences and privacy-loss distributions of finite mechanisms (RSWR23 §2, RRUV16 §2, LEC11)."""
