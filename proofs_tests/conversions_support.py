"""Shared data for the conversion property tests: the anchors report's numbers (§3.1)."""

from __future__ import annotations

from mpmath import mp

#: Independent reference values (rho, delta, BS16, CKS20, a*, Gauss), mpmath at 50 digits.
ANCHORS_31 = [
    ("0.01", "1e-6", "0.753384438", "0.621692655", "33.12", "0.575055186"),
    ("0.1", "1e-6", "2.450788000", "2.141938928", "11.66", "1.994526901"),
    ("1", "1e-6", "8.433844378", "7.766216625", "4.51", "7.286080966"),
    ("1.3527", "1e-6", "9.998679674", "9.265762734", "4.03", "8.703243855"),
    ("0.01", "1e-9", "0.920456278", "0.810174468", "42.21", "0.768211713"),
    ("0.1", "1e-9", "2.979115547", "2.715481887", "14.44", "2.582872835"),
    ("1", "1e-9", "10.10456278", "9.521463672", "5.36", "9.092558369"),
    ("1.3527", "1e-9", "11.94181926", "11.29956548", "4.76", "10.79783989"),
]


def close(x: object, published: str) -> bool:
    digits = len(published.replace(".", "").lstrip("0"))
    return abs(mp.mpf(x) - mp.mpf(published)) <= mp.mpf(10) ** (-digits + 1) * mp.mpf(published)
