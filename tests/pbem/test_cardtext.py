"""pbem.reports.cardtext: every card of both editions has an event text, in plain words for players."""

from __future__ import annotations

import re

import engine
from pbem.reports import cardtext

# What the Markdown source of the texts (scripts/make_card_text.py) must not leave behind:
# a horizontal rule, a heading, bold or code marks, a "[?]" source remark.
MARKDOWN = re.compile(r"---|(?:^|\s)#{2,}\s|\*\*|`|\[\?\]")


def test_every_card_has_a_text_without_markdown_left_in_it() -> None:
    for n in engine.CARDS:
        text = cardtext.event_text(n)
        assert text, f"card #{n} has no event text"
        assert not MARKDOWN.search(text), f"card #{n}: {text!r}"
