"""Fewer database statements and parses per mail (issue 14, benchmark 2), with the same answers.

- `pbem.db.lock_game` loads a game once per transaction (the `invitation` and `load-game`
  handlers both lock it) and forgets it at commit and rollback;
- `pbem.orders.book_rows` reads both seats' `SeatOrders` rows in one query;
- the reply-key lookup uses the game's seats as `pbem.replies.seats_of` holds them;
- `pbem.mail.parse.POLICY` parses each header value once, and reads mail exactly as
  ``email.policy.default`` does;
- `pbem.mailimages` finds the image ids of a report without a leading ``\b`` in its patterns
  (which kept the regex engine from skipping ahead) and the same ids as with it.
"""

from __future__ import annotations

import email
import email.policy
from pathlib import Path
from typing import Any

from sqlmodel import Session

from pbem import orders
from pbem.db import lock_game, transaction
from pbem.mail import parse as mail_parse
from pbem.replies import seats_of
from tests.pbem.harness import Harness


def test_lock_game_loads_a_game_once_per_transaction(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    queries = h.selects_from("game")
    with transaction(h.db) as s:
        first = lock_game(s, h.game_id)
        assert lock_game(s, h.game_id) is first
        assert len(queries) == 1
    with transaction(h.db) as s:
        lock_game(s, h.game_id)
        assert len(queries) == 2, "a new transaction locks (and reads) the row again"
    with Session(h.db) as s:
        game = lock_game(s, h.game_id)
        s.rollback()
        assert lock_game(s, h.game_id) is not None and len(queries) == 4, "rollback forgets it"
        s.expunge(lock_game(s, h.game_id))
        again = lock_game(s, h.game_id)
        assert again is not game and again in s, "a row no longer in the session is read again"


def test_book_rows_reads_both_seats_in_one_query(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    queries = h.selects_from("seatorders")
    with transaction(h.db) as s:
        seats = seats_of(s, h.game_id)
        rows = orders.book_rows(s, seats)
        assert set(rows) == {"kennedy", "nixon"}
        assert {side: row.seat_id for side, row in rows.items()} == {
            side: seat.id for side, seat in seats.items()
        }
        assert orders.book_rows(s, seats) == rows
        assert orders.book_row(s, seats["nixon"]) is rows["nixon"]
        assert len(queries) <= 1


def test_a_move_mail_reads_the_game_and_its_seats_once(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)  # Kennedy decides first
    games, seats = h.selects_from("game"), h.selects_from("seat")
    assert h.reply("kennedy", "first kennedy").outcomes == {"applied": 1}
    assert len([q for q in games if "WHERE game.id = " in q]) == 1
    assert len([q for q in seats if "WHERE seat.game_id = " in q]) == 1


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


def test_the_caching_policy_reads_mail_as_the_default_policy(monkeypatch: Any) -> None:
    ours = [mail_parse.parse_message(raw, "game@localhost") for raw in MAILS]
    again = [mail_parse.parse_message(raw, "game@localhost") for raw in MAILS]  # cached now
    monkeypatch.setattr(mail_parse, "POLICY", email.policy.default)
    stdlib = [mail_parse.parse_message(raw, "game@localhost") for raw in MAILS]
    assert ours == again == stdlib
    assert ours[0].from_display == "Jürgen" and ours[0].message_id == "<A@b.org>"


def test_the_caching_policy_parses_each_header_value_once() -> None:
    mail_parse._parsed_header.cache_clear()
    msg = email.message_from_bytes(MAILS[0], policy=mail_parse.POLICY)
    msg.get("From")
    msg.get_content_type()
    before = mail_parse._parsed_header.cache_info()
    for _ in range(3):
        assert msg.get("From").addresses[0].addr_spec == "j@example.org"
        assert msg.get_content_type() == "multipart/alternative"
    after = mail_parse._parsed_header.cache_info()
    assert after.misses == before.misses and after.hits == before.hits + 6
    long = b"From: a@b.c\r\nSubject: " + b"x" * 5000 + b"\r\n\r\n"
    assert len(str(email.message_from_bytes(long, policy=mail_parse.POLICY)["Subject"])) == 5000
    assert mail_parse._parsed_header.cache_info().currsize == after.currsize, "long: not kept"


def test_image_ids_are_found_only_at_a_word_start() -> None:
    from pbem import mailimages

    html = (
        "<img src='cid:a1'> <img xsrc='cid:no'> _src=\"cid:no\" -src=\"cid:b2\" "
        "xsrc='cid:src='cid:c3' <img src='cid:a1'> data-pbem-attachment='f1' "
        "xdata-pbem-attachment='no'"
    )
    assert mailimages.cids_in(html) == ["a1", "b2", "c3"]
    assert mailimages.attachment_ids_in(html) == ["f1"]
    assert mailimages.cids_in("src='cid:start'") == ["start"] and mailimages.cids_in(None) == []
