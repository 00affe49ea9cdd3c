"""R17 in the mail: no report to one side ever names a card hidden in the other side's hand or stack.

A whole game is played through the in-memory harness. After every mail, each
new message to a side is checked against the position it was rendered from:
a card hidden from that side (opponent's hand, campaign-strategy stack, debate
hand) must not be named, unless its name is public knowledge in that side's
own view (e.g. it was played earlier and sits in the log or the discard).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from pbem.reports import cardtext
from tests.pbem.harness import Harness

OTHER = {"kennedy": "nixon", "nixon": "kennedy"}


def hidden_names(state: dict[str, Any], side: str) -> set[str]:
    """Names of cards ``side`` may not know about now (and that its view does not show)."""
    other = OTHER[side]
    cards = set(state["hands"][other]) | set(state["stacks"][other])
    if state.get("debate"):
        cards |= set(state["debate"]["hands"][other])
    visible = json.dumps(engine.view(state, side)).lower()
    names = {engine.CARDS[c].name for c in cards}
    return {n for n in names if n.lower() not in visible}


def _mail_texts(h: Harness, side: str, start: int) -> list[str]:
    out = []
    for msg in h.mails_to(side)[start:]:
        html = msg.get_body(("html",))
        out.append(h.text_of(msg) + (html.get_content() if html is not None else ""))
    return out


@pytest.mark.timeout(600)
def test_no_report_names_the_opponents_hidden_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # card event texts are fixed rules text that names other cards (#1 names #73): not a leak
    monkeypatch.setattr(cardtext, "event_text", lambda n: "")
    h = Harness(tmp_path)
    h.new_game(seed=8)
    rnd = random.Random(8)
    seen = {side: 0 for side in engine.SIDES}
    checked = 0
    for _ in range(2000):
        state = h.state()
        for side in engine.SIDES:  # mails rendered from this position
            hidden = hidden_names(state, side)
            for text in _mail_texts(h, side, seen[side]):
                leaked = [n for n in hidden if n in text]
                assert not leaked, f"mail to {side} names {leaked}"
                checked += 1
            seen[side] = len(h.mails_to(side))
        if engine.result(state) is not None:
            break
        mover = sorted(engine.active_sides(state))[rnd.randrange(len(engine.active_sides(state)))]
        h.reply(mover, rnd.choice(engine.legal_commands(state, mover)))
    assert engine.result(h.state()) is not None
    assert checked > 200
