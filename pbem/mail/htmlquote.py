"""Which elements of an HTML reply are quoted history (the rules `pbem.mail.htmltext` consults).

Two kinds of element, from the markup real clients write:

* a **quote**: its own content is history, what follows it is the reader's again (interleaved
  and bottom posting) — ``blockquote`` (Apple Mail / Thunderbird ``type=cite``, Gmail), Gmail
  ``gmail_quote``, Thunderbird ``moz-cite-prefix`` (the attribution line), Yahoo
  ``yahoo_quoted``, Zoho ``zmail_extra``, Proton ``protonmail_quote``, Outlook ``OutlookQuote``;
* a **history start**: it and everything after it is history — Outlook's ``divRplyFwdMsg`` /
  ``appendonsend``, Outlook for Mac's ``OLK_SRC_BODY_SECTION``, Windows Live's
  ``hr#stopSpelling``, and a header block styled as a separator: a top border in any CSS
  spelling (``border-top: solid …``, ``border-top-style: solid``, ``border-top-width: 1pt``,
  ``border-width: 1px 0 0 …`` with a border style), as Outlook 2007–2016, Windows Mail and
  the new Outlook draw the rule above ``From:/Sent:``.
"""

from __future__ import annotations

import re

from bs4.element import Tag

__all__ = ["is_history_start", "is_quote"]

QUOTE_CLASSES = frozenset(
    {
        "gmail_quote",
        "gmail_quote_container",
        "gmail_attr",
        "moz-cite-prefix",
        "yahoo_quoted",
        "zmail_extra",
        "protonmail_quote",
        "OutlookQuote",
        "x_gmail_quote",
        "ms-outlook-mobile-reply",
    }
)
HISTORY_IDS = frozenset(
    {
        "divRplyFwdMsg",
        "x_divRplyFwdMsg",
        "appendonsend",
        "x_appendonsend",
        "OLK_SRC_BODY_SECTION",
        "stopSpelling",
        "mail-editor-reference-message-container",
        "divtagdefaultwrapper_quote",
    }
)
_TOP_BORDER = re.compile(
    r"border-top(?:-style)?\s*:\s*(?!none|hidden|0)[^;]*(solid|dotted|dashed|double|groove|ridge)"
    r"|border-top-width\s*:\s*(?!0(?:\D|$))\d"
    r"|border-width\s*:\s*(?!0(?:\D|$))\d[\w.]*\s+0",
    re.IGNORECASE,
)


def is_quote(tag: Tag) -> bool:
    """True if *tag*'s content is quoted history (what follows it is not)."""
    if tag.name == "blockquote":
        return True
    classes: list[str] = [str(c) for c in tag.get("class") or []]
    return any(c in QUOTE_CLASSES for c in classes)


def is_history_start(tag: Tag) -> bool:
    """True if *tag* starts the quoted history: it and everything after it are history."""
    if str(tag.get("id") or "") in HISTORY_IDS:
        return True
    if tag.name not in ("div", "p", "hr"):
        return False
    style = str(tag.get("style") or "")
    return bool(style) and _TOP_BORDER.search(style) is not None
