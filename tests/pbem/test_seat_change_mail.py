"""A seat change as both players meet it by mail: the former holder is told precisely that the
seat is no longer theirs (about the right game), and the new holder's first mail holds the game
since the previous holder's last decision — the computer's moves for the seat included."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

from pbem.games.seats import change_seat
from tests.pbem.clockharness import ClockGame
from tests.pbem.harness import EMAILS, Harness

NEW = "carol@players.test"


def _mails_to(h: Harness, address: str) -> list[EmailMessage]:
    return [
        email.message_from_bytes(m.raw, policy=email.policy.default)  # type: ignore[misc]
        for m in h.sender.sent
        if address in m.recipients
    ]


def _text(h: Harness, msg: EmailMessage) -> str:
    return " ".join(h.text_of(msg).split())


def test_the_takeover_mail_holds_the_computers_moves_for_the_seat(tmp_path: Path) -> None:
    g = ClockGame.create(Harness(tmp_path), "10h+2h", expiry="autopilot", grace="1h")
    late = g.to_move()
    for _ in range(23):  # out of time and grace: the computer plays for the seat
        g.advance(minutes=30)
        g.tick()
    played = [e["text"] for e in g.h.state()["log"] if e["text"].startswith(f"{late.title()} ")]
    played = [t for t in played if " draws " not in t]
    assert played, "the autopilot played nothing"
    change_seat(g.h.db, g.h.settings, g.h.game_id, late, NEW, now=g.at)
    g.send()
    welcome = _mails_to(g.h, NEW)
    assert len(welcome) == 1
    body = _text(g.h, welcome[0])
    assert "Nothing has happened" not in body
    assert " ".join(played[0].split())[:50] in body  # what was played for the seat
    assert EMAILS[late] not in body
