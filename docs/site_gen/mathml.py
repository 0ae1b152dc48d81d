"""Math rendered when the site is built: the LaTeX of ``pymdownx.arithmatex`` becomes MathML.

``pymdownx.arithmatex`` (generic mode) leaves ``<span class="arithmatex">\\(...\\)</span>``
and ``<div class="arithmatex">\\[...\\]</div>`` in a page; :func:`render_html` replaces
their LaTeX by MathML (``latex2mathml``), which browsers draw without any script, so no
page loads a renderer from outside the site.  A formula that does not convert, or whose
MathML still holds a TeX command, is an error (the build fails) rather than raw TeX on
the page.
"""

from __future__ import annotations

import html
import re

from latex2mathml.converter import convert
from latex2mathml.symbols_parser import convert_symbol

_ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*(?:\\\((?P<inline>.*?)\\\)|\\\[(?P<block>.*?)\\\])'
    r"\s*</(?P=tag)>", re.S)
# latex2mathml keeps the command of a sized delimiter (``\Big\lceil``) as the text of an
# ``<mo>``; it is replaced by the character the command names.
_MO_COMMAND = re.compile(r"(<mo\b[^>]*>)(\\[A-Za-z]+|\\[{}|])(</mo>)")
_LEFTOVER = re.compile(r"\\[A-Za-z]+|\\[{}|,;! ]")


class MathError(ValueError):
    """A formula that cannot be rendered as MathML."""


def to_mathml(tex: str, display: bool = False) -> str:
    """MathML of a LaTeX formula; :class:`MathError` if it does not convert completely.

    >>> to_mathml(r"\\frac{a}{b}")  # doctest: +ELLIPSIS
    '<math ... display="inline"><mrow><mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi>...'
    >>> "&#x02308;" in to_mathml(r"\\Big\\lceil x \\Big\\rceil")
    True
    >>> to_mathml(r"p^\\alphaq")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    mathml.MathError: LaTeX that does not convert to MathML: p^\\alphaq (...)
    """
    try:
        out = convert(tex, display="block" if display else "inline")
    except Exception as err:  # latex2mathml raises many kinds
        raise MathError(f"LaTeX that does not convert to MathML: {tex} "
                        f"({type(err).__name__}: {err})") from err

    def symbol(m: re.Match[str]) -> str:
        code = convert_symbol(m.group(2))
        if code is None:
            return m.group(0)
        return f"{m.group(1)}&#x{code};{m.group(3)}"

    out = _MO_COMMAND.sub(symbol, out)
    left = _LEFTOVER.findall(out)
    if left:
        raise MathError(f"LaTeX that does not convert to MathML: {tex} "
                        f"(TeX left in the MathML: {sorted(set(left))})")
    return out


def render_html(page: str, where: str = "") -> str:
    """``page`` with the LaTeX of every arithmatex span and div rendered as MathML.

    >>> render_html('<p>x <span class="arithmatex">\\\\(a&lt;b\\\\)</span></p>')
    ... # doctest: +ELLIPSIS
    '<p>x <span class="arithmatex"><math ...<mi>a</mi><mo>&#x0003C;</mo><mi>b</mi>...</span></p>'
    """

    def one(m: re.Match[str]) -> str:
        display = m.group("block") is not None
        tex = html.unescape(m.group("block") if display else m.group("inline")).strip()
        try:
            math = to_mathml(tex, display)
        except MathError as err:
            raise MathError(f"{where}: {err}" if where else str(err)) from err
        return f'<{m.group("tag")} class="arithmatex">{math}</{m.group("tag")}>'

    return _ARITHMATEX.sub(one, page)
