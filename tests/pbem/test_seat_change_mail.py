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


def test_a_former_holder_is_told_the_seat_is_no_longer_theirs_in_that_game(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)  # game 1: the same two players
    second = h.new_game(seed=3)  # game 2: Kennedy's seat goes to Carol
    old_mail = h.last_mail("kennedy")
    assert f"#{second}" in str(old_mail["Subject"])
    change_seat(h.db, h.settings, second, "kennedy", NEW)
    h.send()
    before = len(h.mails_to("kennedy"))
    h.reply("kennedy", "status", to_mail=old_mail)
    answers = h.mails_to("kennedy")[before:]
    assert len(answers) == 1
    subject, body = str(answers[0]["Subject"]), _text(h, answers[0])
    assert f"#{second}" in subject and "key problem" not in subject.lower()
    assert f"You no longer hold Kennedy's seat in game #{second} since" in body
    assert "nothing in your mail was applied" in body.lower()
    assert NEW not in body  # the new holder's address stays private
    assert h.inbound()[-1].outcome == "rejected"


def test_a_stranger_replaying_a_former_holders_key_gets_nothing(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    game = h.new_game(seed=3)
    old_mail = h.last_mail("kennedy")
    change_seat(h.db, h.settings, game, "kennedy", NEW)
    h.send()
    sent = len(h.sender.sent)
    h.reply("kennedy", "status", to_mail=old_mail, frm="mallory@elsewhere.test")
    assert len(h.sender.sent) == sent  # only the former holder's own address is answered


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


def test_the_takeover_mail_speaks_of_the_previous_players_decision(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    game = h.new_game(seed=3)
    change_seat(h.db, h.settings, game, "kennedy", NEW)
    h.send()
    (welcome,) = _mails_to(h, NEW)
    body = _text(h, welcome)
    assert "SINCE THE PREVIOUS PLAYER'S LAST DECISION" in body
    assert "the game since the previous player's last decision (moves the server made" in body
    assert "by the previous player" not in body
    # the new holder never had a report: nothing happened "since then", not "since your last"
    assert "Nothing has happened since then." in body and "your last report" not in body
