"""Importing this module registers every family of results in the catalogue."""

from . import zcdp  # noqa: F401
