"""What every adapter provides: a name, lazy import, version, and its methods.

An adapter never imports its library at module import time: :meth:`Adapter.load`
imports it on demand and reports why it could not (``skipped`` in the report).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import io
import warnings
from collections.abc import Iterator
from typing import Any

from reference.tools.conformance.model import Formula, Method

#: KOV15 Thm 3.5 on k equal spends (autodp, diffprivlib); checked up to k = 1024 since
#: its enclosure costs O(k).
KOV15_THM35 = Formula("KOV15:Thm3.5", lambda p: None if p["k"] > 1024 else
                      {"eps": [p["eps0"]] * p["k"], "delta_tilde": p["delta"]}, "eps")


class Adapter:
    """Base class: subclasses set ``name``, ``module``, ``dist`` and build ``methods``."""

    name = ""
    module = ""
    dist = ""
    url = ""
    #: How to install it here, shown when it is skipped.
    hint = "pip install -e '.[conformance]'"

    def load(self) -> Any:
        """Import the library (raises ImportError or whatever its import raises)."""
        with quiet():
            return importlib.import_module(self.module)

    def available(self) -> tuple[bool, str]:
        """Whether the library imports here, and if not, why (one line)."""
        try:
            self.load()
        except Exception as err:  # any import failure means "skip"
            first = str(err).splitlines()[0] if str(err) else ""
            return False, f"{type(err).__name__}: {first}"[:300]
        return True, ""

    def version(self) -> str:
        try:
            return importlib.metadata.version(self.dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def methods(self) -> list[Method]:
        raise NotImplementedError


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence the libraries' warnings and prints (autodp's SyntaxWarnings, progress)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def imported(module: str) -> Any:
    """``importlib.import_module`` with warnings silenced (typed ``Any`` for mypy)."""
    with quiet():
        return importlib.import_module(module)
