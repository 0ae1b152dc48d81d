"""Griffe extension: show the library's docstrings as written for doctest and Sphinx.

* Bare doctest paragraphs (``>>>`` lines) become ``pycon`` code blocks; Markdown would
  otherwise render them as nested quotes.
* Sphinx roles (``:class:`~reference.core.numeric.Interval```) become code spans.
* A registered formula is written ``core(ctx, **params)`` but called ``f(**params)`` (the
  registry supplies the mpmath context and converts the inputs): its documented signature
  is the one users call, with the catalogue's parameters and defaults, and an inverse
  returns a ``Certificate``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def fence_doctests(markdown: str) -> str:
    """Wrap each bare doctest paragraph (``>>>`` outside a fence) in a ``pycon`` fence.

    >>> fence_doctests("Text\\n\\n>>> 1 + 1\\n2\\n\\n```sh\\n>>> kept\\n```").split("\\n")
    ['Text', '', '```pycon', '>>> 1 + 1', '2', '```', '', '```sh', '>>> kept', '```']
    >>> fence_doctests("Text:\\n>>> x").split("\\n")
    ['Text:', '', '```pycon', '>>> x', '```']
    """
    out: list[str] = []
    fence: str | None = None
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and line.strip().startswith(fence[0] * len(fence)) \
                and not line.strip().strip(fence[0]):
            fence = None
        elif fence is None and line.lstrip().startswith(">>>"):
            indent = line[:len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *block, f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


_ROLE = re.compile(r":(?:py:)?[a-z]+:`~?([^`]+)`")


def markdown_docstring(text: str) -> str:
    """The docstring with doctests fenced and Sphinx roles turned into code spans.

    >>> markdown_docstring("See :class:`~a.B`.\\n\\n>>> f(1)\\n2\\n\\nEnd.").split("\\n")
    ['See `B`.', '', '```pycon', '>>> f(1)', '2', '```', '', 'End.']
    """
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`"
                     if m.group(0).split("`")[1].startswith("~") else f"`{m.group(1)}`", text)
    return fence_doctests(text)


class DoctestDocstrings(griffe.Extension):
    """Rewrite docstrings for Markdown, and give registered formulas their call signature."""

    def __init__(self) -> None:
        super().__init__()
        from reference.results import catalogue

        self.registered = {r.function: r for r in catalogue()}

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)

    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:
        res = self.registered.get(func.path)
        if res is None:
            return
        kind = griffe.ParameterKind.positional_or_keyword
        func.parameters = griffe.Parameters(*(
            griffe.Parameter(p.name, kind=kind, default=None if p.required else repr(p.default))
            for p in res.params))
        if res.inverse is not None:
            func.returns = "Certificate"
