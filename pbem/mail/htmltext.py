"""Turn an HTML mail body into plain text for command extraction (beautifulsoup4), in linear time.

Quoted history is not thrown away but rendered as ``> ``-prefixed lines, so the HTML path and
the text/plain path look the same to :mod:`pbem.mail.extract` (which drops quoted lines).
Which elements are quoted history follows the common clients' conventions
(:mod:`pbem.mail.htmlquote`): a quote element's text is quoted, and a reply header (Outlook's)
quotes itself and everything after it in the document.

The conversion is one iterative walk over the parsed tree (no per-tag insertions, no
recursion, so deep nesting costs neither quadratic time nor the stack), and it stops after
`MAX_ELEMENTS` elements: the work done before the sender is known is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PageElement, PreformattedString, Tag

from pbem.mail import budget, htmlquote

__all__ = ["MAX_ELEMENTS", "html_to_text"]

MAX_ELEMENTS = 20_000  # elements converted at most; the rest of a bigger mail is ignored
_BLOCK_TAGS = frozenset(
    {
        "p",
        "div",
        "br",
        "li",
        "tr",
        "table",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "blockquote",
        "ul",
        "ol",
        "hr",
        "section",
        "article",
    }
)
_SKIP_TAGS = frozenset({"script", "style", "head", "title", "meta", "xml"})
_SPACE = re.compile(r"\s+")


def html_to_text(html: str) -> str:
    """Return the visible text of *html*, one block per line, quoted history as ``> `` lines."""
    soup = BeautifulSoup(html, "html.parser")
    lines: list[str] = []
    current: list[str] = []
    quoted_line = False

    def newline() -> None:
        nonlocal quoted_line
        line = "".join(current).replace("\xa0", " ").strip()
        lines.append("> " + line if quoted_line and line else line)
        current.clear()
        quoted_line = False

    for text, quoted in _pieces(soup):
        if text == "\n":
            newline()
            continue
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                newline()
            if part:
                current.append(part)
                quoted_line = quoted_line or quoted
    newline()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


_END = object()  # marks the end of an element on the walk's stack


def _pieces(soup: BeautifulSoup) -> Iterator[tuple[str, bool]]:
    """(text, quoted) pieces in document order; ``"\\n"`` pieces are block breaks."""
    stack: list[tuple[object, bool, bool]] = [(c, False, False) for c in reversed(soup.contents)]
    rest_quoted = False
    elements = 0
    while stack:
        node, quoted, in_pre = stack.pop()
        if node is _END:
            yield "\n", False
            continue
        if isinstance(node, NavigableString):
            if isinstance(node, PreformattedString):
                continue  # comments (incl. Outlook's <!--[if mso]>), CDATA, doctype
            text = str(node) if in_pre else _SPACE.sub(" ", str(node))
            yield text, quoted or rest_quoted
            continue
        if not isinstance(node, Tag) or node.name in _SKIP_TAGS:
            continue
        elements += 1
        if elements > MAX_ELEMENTS:
            return
        if not elements % 256:
            budget.check()  # the caller's CPU budget (pbem.mail.budget)
        if node.name == "br":
            yield "\n", False
            continue
        if htmlquote.is_quote(node):
            quoted = True
        elif htmlquote.is_history_start(node):
            quoted = rest_quoted = True
        in_pre = in_pre or node.name == "pre"
        block = node.name in _BLOCK_TAGS
        if block:
            yield "\n", False
            stack.append((_END, False, False))
        children: list[PageElement] = node.contents
        stack.extend((c, quoted, in_pre) for c in reversed(children))
