"""Composition of DP mechanisms: basic, advanced (RRUV16, LEC11), exact optimal (KOV15, MV16)."""
