"""Importing this module registers every family of results in the catalogue."""

from . import (  # noqa: F401
    composition,
    concentration,
    filter_objects,
    finite,
    indistinguishability,
    loss,
    odometer_errata,
    odometer_objects,
    optimal,
    tct,
    zcdp,
)
