"""The one exception the library raises for input outside a result's domain."""

from __future__ import annotations


class DomainError(ValueError):
    """An input lies outside the domain of the result it was given to.

    The message names the parameter, its value, the condition violated and the
    result, e.g. ``delta must lie in (0, 1) for RSWR23:Lem2.3 (zCDP to DP), got 1.5``.
    """

    def __init__(self, param: str, value: object, condition: str, where: str) -> None:
        self.param = param
        self.value = value
        self.condition = condition
        self.where = where
        super().__init__(f"{param} {condition} for {where}, got {value!r}")
