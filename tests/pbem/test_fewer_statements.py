"""One mail read and recorded: odd headers, image ids, the mail's record, its moves' numbers,
observers confirmed by mail, standing orders and clock reminders as stored."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlmodel import Session, col, select

import engine
from pbem.clocks.control import ClockSpecError, Reminder, parse_reminders
from pbem.games import orders
from pbem.games import views as game_views
from pbem.mail import parse as mail_parse
from pbem.outbox import parts as mailimages
from pbem.pipeline.runner import process_message
from pbem.store.models import Move, OutboxMessage
from tests.pbem.fairplay_helpers import confirm_observer
from tests.pbem.harness import Harness

MAILS = [
    b"From: =?utf-8?q?J=C3=BCrgen?= <j@example.org>\r\nTo: game+k1@example.test, "
    b"b@x.org\r\nCc: c@y.org\r\nSubject: =?utf-8?b?UmU6IMOkw7bDvA==?=\r\nMessage-ID: <A@B.ORG>\r\n"
    b"Content-Type: multipart/alternative; boundary=xx\r\n\r\n--xx\r\n"
    b"Content-Type: text/plain; charset=utf-8; format=flowed\r\n\r\nfirst \r\nkennedy\r\n"
    b"--xx\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--xx--\r\n",
    b"From: broken <<<@@>\r\nTo: ;;;\r\nReferences: <a@b> junk <c@D>\r\n"
    b"Content-Type: text/plain; charset=bogus\r\n\r\nhi\r\n",
    "From: Zoë <zoë@exämple.org>\r\nTo: game@localhost\r\nSubject: ünïcode\r\n\r\nok\r\n".encode(),
    b"From: a@b.c\r\nTo: game@localhost\r\nAuto-Submitted: auto-replied\r\n\r\nx\r\n",
]


def test_odd_and_encoded_headers_are_read() -> None:
    ours = [mail_parse.parse_message(raw, "game@localhost") for raw in MAILS]
    assert ours[0].from_display == "Jürgen" and ours[0].message_id == "<A@b.org>"
    assert ours[0].from_addr == "j@example.org"


def test_image_ids_are_found_only_at_a_word_start() -> None:

    html = (
        "<img src='cid:a1'> <img xsrc='cid:no'> _src=\"cid:no\" -src=\"cid:b2\" "
        "xsrc='cid:src='cid:c3' <img src='cid:a1'> data-pbem-attachment='f1' "
        "xdata-pbem-attachment='no'"
    )
    assert mailimages.cids_in(html) == ["a1", "b2", "c3"]
    assert mailimages.attachment_ids_in(html) == ["f1"]
    assert mailimages.cids_in("src='cid:start'") == ["start"] and mailimages.cids_in(None) == []


# --- one move mail's statements (issue 14: CPU per move of the pipeline around the report) ------


def _move_mail(h: Harness) -> bytes:
    side = sorted(engine.active_sides(h.state()))[0]
    return h.reply_bytes(side, h.legal(side)[0])


def test_a_mail_is_recorded_once_with_its_game_side_outcome_and_detail(tmp_path: Path) -> None:
    """The unique dedupe key and mailbox UID are the dedupe check: the same Message-ID again,
    or another mail under a known UID, is a duplicate and records nothing."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    side = sorted(engine.active_sides(h.state()))[0]
    raw = h.reply_bytes(side, h.legal(side)[0])
    out = process_message(h.db, h.settings, raw, mailbox="INBOX", uidvalidity=1, uid=1)
    assert out.outcome == "applied"
    (row,) = h.inbound()
    assert (row.game_id, row.side, row.outcome, row.uid) == (
        h.game_id,
        side,
        "applied",
        1,
    )
    assert row.detail.startswith("lines: ") and row.content_hash and row.from_addr
    for again in (
        dict(uid=2),  # the same Message-ID delivered again
        dict(uid=1, raw=_move_mail(h)),  # another mail under a known IMAP UID
    ):
        mail = again.pop("raw", raw)
        dup = process_message(h.db, h.settings, mail, mailbox="INBOX", uidvalidity=1, **again)
        assert dup.outcome == "duplicate" and dup.reason.startswith("duplicate of an earlier mail")
    assert len(h.inbound()) == 1


def test_an_observer_confirmed_by_mail_gets_the_moves_after_it(tmp_path: Path) -> None:
    """The observer a mail asks for and who confirms gets the report of the next move."""
    h = Harness(tmp_path)
    h.new_game(seed=2)
    side = sorted(engine.active_sides(h.state()))[0]
    watcher = "watcher@observers.test"
    assert h.reply(side, f"observe {watcher}\n{h.legal(side)[0]}").outcomes == {"applied": 1}
    confirm_observer(h, watcher)
    side = sorted(engine.active_sides(h.state()))[0]
    assert h.reply(side, h.legal(side)[0]).outcomes == {"applied": 1}
    with Session(h.db) as s:
        kinds = [
            r.kind for r in s.exec(select(OutboxMessage).where(OutboxMessage.recipient == watcher))
        ]
    assert kinds == ["observer", "observer", "observer"]  # the request, the welcome, this move


def test_moves_are_numbered_after_the_game_s_last_one(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    for _ in range(4):
        side = sorted(engine.active_sides(h.state()))[0]
        assert h.reply(side, h.legal(side)[0]).outcomes == {"applied": 1}
    with Session(h.db) as s:
        moves = list(s.exec(select(Move).where(Move.game_id == h.game_id).order_by(col(Move.seq))))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1)) and len(moves) >= 4
    assert all(m.source == "mail" and m.inbound_id is not None for m in moves)
    assert game_views.replay(h.db, h.game_id).ok


def test_standing_orders_are_stored_as_the_json_of_every_field() -> None:
    """`Standing.to_json` (fields by hand, no `asdict`) writes what `asdict` did."""
    for standing in (
        orders.Standing(),
        orders.Standing("never", "never", [3, 1, 2], "auto", "decline"),
        orders.Standing(trigger="icon", election=[5]),
    ):
        assert standing.to_json() == json.dumps(dataclasses.asdict(standing), sort_keys=True)
        assert orders.Standing.from_json(standing.to_json()) == standing


def test_a_clock_s_reminders_are_read_from_their_spelling() -> None:

    assert parse_reminders("50%,90%,24h,2h") == (
        Reminder("50%", used=0.5),
        Reminder("90%", used=0.9),
        Reminder("24h", lead=86400.0),
        Reminder("2h", lead=7200.0),
    )
    for _ in range(2):
        with pytest.raises(ClockSpecError):
            parse_reminders("150%")


def test_a_move_mail_reads_the_seats_and_their_orders_once(tmp_path: Path) -> None:
    """The stages share the rows `load-game` loaded (`Context.seats`, `seat_orders_of`): the
    seats are read by the key check and once more with the game, each seat's orders row once,
    the game row once. Asked again by each stage, they were read 5, 4 and 2 times."""

    h = Harness(tmp_path)
    h.new_game(seed=2)
    raw = _move_mail(h)
    selects: list[str] = []

    def seen(conn: object, cursor: object, statement: str, *rest: object) -> None:
        table = re.match(r"\s*SELECT\b.*?\bFROM\s+(\w+)", statement, re.S | re.I)
        if table:
            selects.append(table.group(1).lower())

    event.listen(h.db, "before_cursor_execute", seen)
    try:
        out = process_message(h.db, h.settings, raw, mailbox="INBOX", uidvalidity=1, uid=1)
    finally:
        event.remove(h.db, "before_cursor_execute", seen)
    assert out.outcome == "applied"
    assert (selects.count("seat"), selects.count("seatorders"), selects.count("game")) == (2, 2, 1)
