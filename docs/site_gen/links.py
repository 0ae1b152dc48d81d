"""Every result id mentioned on a page links to its catalogue entry.

:func:`link_ids` rewrites the Markdown of a page before MkDocs renders it: a known result id
(or an alias of one) in running text or as a whole code span, ``RSWR23:Lem2.3`` or
```RSWR23:Lem2.3```, becomes a link to ``catalogue/<topic>.md#<anchor>``, relative to the
page.  Left alone: fenced code blocks (doctests included), headings, lines of
mkdocstrings directives (``::: ...``), existing links, attribute lists (``{#anchor}``),
code spans that hold more than an id, and text in which an id is only a prefix of a longer
token (``RSWR23:Lem2.3-x``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

#: A token the linker never looks inside, or a candidate id; one alternation, scanned left
#: to right, so an id inside a link, a code span or an attribute list is never reached.
_SKIP = r"\[[^\]\n]*\]\([^)\n]*\)|\{[^}\n]*\}|</?[A-Za-z][^>\n]*>|`+[^`\n]*`+"


def id_pattern(ids: list[str]) -> re.Pattern[str]:
    """Ids in running text, longest first, not part of a longer id-like token."""
    alternation = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?P<skip>{_SKIP})|(?<![\w:.\-])(?P<id>{alternation})(?![\w\-]|\.\w)")


def link_ids(markdown: str, page: str, targets: Mapping[str, str]) -> str:
    r"""``markdown`` of the page at ``page`` (a path under the docs folder) with each id in
    ``targets`` (id -> ``"catalogue/<topic>.md#<anchor>"``) linked to its target.

    >>> t = {"BS16:Prop1.4": "c.md#b", "BS16:Prop1.4-i": "c.md#i"}
    >>> print(link_ids("See BS16:Prop1.4, `BS16:Prop1.4-i`, `value BS16:Prop1.4`.", "a.md", t))
    See [BS16:Prop1.4](c.md#b), [`BS16:Prop1.4-i`](c.md#i), `value BS16:Prop1.4`.
    >>> print(link_ids("BS16:Prop1.4-x; [BS16:Prop1.4](x.md); {#BS16:Prop1.4}", "a.md", t))
    BS16:Prop1.4-x; [BS16:Prop1.4](x.md); {#BS16:Prop1.4}
    >>> print(link_ids("as BS16:Prop1.4.", "catalogue/tct.md", t))
    as [BS16:Prop1.4](../c.md#b).
    >>> print(link_ids("```\nBS16:Prop1.4\n```\n## BS16:Prop1.4", "a.md", t))
    ```
    BS16:Prop1.4
    ```
    ## BS16:Prop1.4
    """
    if not targets:
        return markdown
    pattern = id_pattern(list(targets))
    here = posixpath.dirname(page)

    def href(rid: str) -> str:
        path, _, anchor = targets[rid].partition("#")
        rel = posixpath.relpath(path, here or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def code_span(span: str) -> str:
        ticks = len(span) - len(span.lstrip("`"))
        inner = span[ticks:-ticks].strip() if ticks and len(span) > 2 * ticks else ""
        return f"[{span}]({href(inner)})" if inner in targets else span

    def replace(m: re.Match[str]) -> str:
        skip = m.group("skip")
        if skip is not None:
            return code_span(skip) if skip.startswith("`") else skip
        return f"[{m.group('id')}]({href(m.group('id'))})"

    out: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        opener = re.match(r"(`{3,}|~{3,})", stripped)
        if fence is not None:
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            out.append(line)
        elif opener:
            fence = opener.group(1)
            out.append(line)
        elif stripped.startswith(("#", ":::")):
            out.append(line)
        else:
            out.append(pattern.sub(replace, line))
    return "\n".join(out)
