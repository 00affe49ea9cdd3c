"""`render.BOARD_KINDS` and `render.ANSWER_KINDS` say what each kind's templates show.

`render` draws the map picture and renders the board only for `BOARD_KINDS`, and makes the
one-tap answers only for `ANSWER_KINDS` (`queue_mail` computes their shortcuts only then): a
template that shows the board or the answers for a kind left out would show nothing, and a
kind listed whose templates show neither would pay for them in every mail.
"""

from __future__ import annotations

import re

import pytest

from pbem.reports.render import ANSWER_KINDS, BOARD_KINDS, KINDS, template_dir

INCLUDE = re.compile(r"""\{%-?\s*include\s+["']([^"']+)["']""")


def source(name: str) -> str:
    """A template's text with every template it includes, recursively."""
    text = (template_dir() / name).read_text()
    return text + "".join(source(inner) for inner in INCLUDE.findall(text))


@pytest.mark.parametrize("kind", KINDS)
def test_the_board_is_rendered_exactly_for_the_kinds_that_show_it(kind: str) -> None:
    both = source(f"text/{kind}.txt.j2") + source(f"html/{kind}.html.j2")
    shows = "board_text" in both or "board_html" in both
    assert shows == (kind in BOARD_KINDS), kind


@pytest.mark.parametrize("kind", KINDS)
def test_the_answers_are_made_exactly_for_the_kinds_that_show_them(kind: str) -> None:
    shows = "html/_answers.html.j2" in source(f"html/{kind}.html.j2")
    assert shows == (kind in ANSWER_KINDS), kind
