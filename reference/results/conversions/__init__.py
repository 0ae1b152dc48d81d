"""Conversions between privacy definitions: zCDP and approximate DP (RSWR23 §2, CKS20),
the exact Gaussian curve (BW18), pure DP to zCDP (BS16), Rényi divergence of randomized
response (MIR17)."""
