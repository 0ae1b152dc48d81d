"""Experiments reproducing the sources' applications (``python -m reference experiment``)."""

from . import relative_error

__all__ = ["relative_error"]
