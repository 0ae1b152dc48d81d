"""The DP libraries' own test expectations, checked against our certified enclosures."""
