"""Time-uniform boundaries for Brownian motion (WRWR22 §3, RSWR23 psi)."""
