"""Importing this module registers every family of results in the catalogue."""

from . import (  # noqa: F401
    boundaries,
    composition,
    concentration,
    conversions,
    experiments,
    filter_objects,
    finite,
    indistinguishability,
    loss,
    noise_reduction,
    odometer_errata,
    odometer_objects,
    optimal,
    tct,
    zcdp,
)
