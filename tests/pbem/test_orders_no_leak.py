"""R17 over the new mail kinds: summaries, digests, settings confirmations, server-applied moves.

A whole game through the harness with Kennedy on the daily digest (an injected clock, a day per
round) and standing orders, Nixon mailed after every move with queued orders: every mail to a
side is checked, as in test_no_leak, against the cards hidden from it when it was rendered.
"""

from __future__ import annotations

import html
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine
from pbem import cardtext, notify, service
from tests.pbem.harness import Harness
from tests.pbem.test_no_leak import _mail_texts, hidden_names


@pytest.mark.timeout(900)
def test_no_summary_digest_or_note_names_the_opponents_hidden_cards(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=11)
    h.reply("kennedy", "notify digest 6\nstanding trigger icon\nstanding swap decline")
    h.reply("nixon", "notify every\nstanding election 7 32 33")
    rnd = random.Random(11)
    clock = datetime.now(UTC)  # after the notify line; the outbox is drained at the clock's time
    seen = {side: 0 for side in engine.SIDES}
    kinds: set[str] = set()
    checked = 0
    for _ in range(3000):
        state = h.state()
        for side in engine.SIDES:  # mails rendered from this position
            hidden = hidden_names(state, side)
            for text in _mail_texts(h, side, seen[side]):
                text = " ".join(html.unescape(text).split())
                for n in engine.CARDS:  # a public event text naming another card is no leak
                    text = text.replace(" ".join(cardtext.event_text(n).split()), "")
                leaked = [n for n in hidden if n in text]
                assert not leaked, f"mail to {side} names {leaked}: " + " | ".join(
                    text[max(0, text.find(n) - 300) : text.find(n) + 60] for n in leaked
                )
                checked += 1
                kinds.update(
                    k
                    for k in (
                        "SINCE YOUR LAST DECISION",
                        "DONE FOR YOU BY THE SERVER",
                        "YOUR SETTINGS",
                        "What changed on the board",
                    )
                    if k in text
                )
            seen[side] = len(h.mails_to(side))
        if engine.result(state) is not None:
            break
        clock += timedelta(days=1)
        notify.digest_pass(h.db, h.settings, clock)
        service.drain_outbox(h.db, h.settings, h.sender, now=clock)
        for side in sorted(engine.active_sides(h.state())):
            legal = engine.legal_commands(h.state(), side)
            body = rnd.choice(legal)
            if side == "nixon" and rnd.random() < 0.2:
                body += "\nthen\n" + rnd.choice(legal)  # usually cancelled: the situation moved on
            h.reply(side, body)
    assert engine.result(h.state()) is not None
    assert checked > 100
    assert kinds == {
        "SINCE YOUR LAST DECISION",
        "DONE FOR YOU BY THE SERVER",
        "YOUR SETTINGS",
        "What changed on the board",
    }


def test_a_declared_advertising_order_is_never_rejected_after_the_draw(tmp_path: Path) -> None:
    """R8.1 + R17: `advertise N: east 5` declares the places before the draw; points beyond the
    successes are dropped, so the mail applies whatever the cubes did and no rejection tells the
    player how many checks succeeded (the old strict form failed inside the line after the draw,
    with the position after the draw in its message)."""
    h = Harness(tmp_path)
    h.new_game(seed=2)  # Kennedy decides first
    assert h.reply("kennedy", "first kennedy").outcomes == {"applied": 1}
    card = next(c for c in h.legal("kennedy") if c.startswith("advertise "))
    before = h.state()
    stats = h.reply("kennedy", f"{card}: east 5")
    assert stats.outcomes == {"applied": 1}
    after = h.state()
    placed = after["media"]["east"] - before["media"]["east"]
    checks = [
        e["text"] for e in after["log"][len(before["log"]) :] if "support check(s)" in e["text"]
    ]
    successes = int(checks[0].rsplit("— ", 1)[1].split()[0])
    assert placed == successes
    assert "REJECTED" not in h.text_of(h.last_mail("kennedy"))
