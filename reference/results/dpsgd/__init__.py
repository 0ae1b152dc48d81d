"""DP-SGD accounting: the Poisson-subsampled Gaussian mechanism and its composition."""
