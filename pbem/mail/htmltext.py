"""Turn an HTML mail body into plain text for command extraction (beautifulsoup4).

Quoted history is not thrown away but rendered as ``> ``-prefixed lines, so the HTML path and
the text/plain path look the same to :mod:`pbem.mail.extract` (which drops quoted lines). Which
elements are quotes, and which start the history (everything after them quoted too), is decided
by :mod:`pbem.mail.htmlquote`.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PreformattedString, Tag

from pbem.mail import htmlquote

_BLOCK_TAGS = {
    "p", "div", "br", "li", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "pre", "blockquote", "ul", "ol", "hr", "section", "article",
}
_QUOTE_MARK = "\u0000Q\u0000"  # placeholder prefix, turned into "> " after get_text


def html_to_text(html: str) -> str:
    """Return the visible text of *html*, one block per line, quoted history as ``> `` lines."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(["script", "style", "head", "title", "meta", "xml"]):
        tag.decompose()
    for special in soup.find_all(string=lambda t: isinstance(t, PreformattedString)):
        special.extract()  # comments (incl. Outlook's conditional <!--[if mso]>), CDATA, doctype
    for node in list(soup.find_all(string=True)):
        if isinstance(node, NavigableString) and node.find_parent("pre") is None:
            node.replace_with(NavigableString(re.sub(r"\s+", " ", str(node))))
    _mark_quotes(soup)
    for br in soup.find_all("br"):
        br.replace_with(NavigableString("\n"))
    for tag in soup.find_all(list(_BLOCK_TAGS)):
        tag.insert_before(NavigableString("\n"))
        tag.insert_after(NavigableString("\n"))
    text = soup.get_text()
    lines = []
    for line in text.split("\n"):
        quoted = _QUOTE_MARK in line
        line = line.replace(_QUOTE_MARK, "").replace("\xa0", " ").strip()
        if quoted and line:
            line = "> " + line
        lines.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip() + "\n"


def _mark_quotes(soup: BeautifulSoup) -> None:
    """Prefix every text node inside quoted history with the quote placeholder."""
    roots: list[Tag] = []
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag):
            continue
        if htmlquote.is_quote(tag):
            roots.append(tag)
        elif htmlquote.is_history_start(tag):
            roots.append(tag)
            roots.extend(t for t in tag.find_all_next() if isinstance(t, Tag))
            break
    for root in roots:
        for node in list(root.find_all(string=True)):
            if isinstance(node, NavigableString) and not str(node).startswith(_QUOTE_MARK):
                marked = _QUOTE_MARK + str(node).replace("\n", "\n" + _QUOTE_MARK)
                node.replace_with(NavigableString(marked))
