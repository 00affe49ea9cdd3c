"""Bounces (RFC 3464 DSNs) of our own mail: recognised, recorded, never answered (issue 14).

Over the real stack: Postfix accepts a report for a player address that does not exist and
then bounces it to the game mailbox with its own DSN. The server must not answer the DSN (no
mail loop), must record the bounce for the operator (the outbox row, a game event, the poll's
outcome) and tell the other player once; the notice itself does not bounce back and forth.
"""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest
from sqlmodel import Session, select

from pbem import keys
from pbem.games import setup as game_setup
from pbem.outbox import send as outbox
from pbem.store.db import make_engine, migrate
from pbem.store.models import GameEvent, InboundMessage, OutboxMessage
from pbem.worker import intake
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.mailtools import MailServer


def _wait_for(server: MailServer, address: str, count: int) -> list[bytes]:
    found = server.wait_for(address, count, timeout=60)
    assert len(found) >= count, f"{address}: {len(found)} mails, expected {count}"
    return [f.raw for f in found]


@pytest.mark.mailstack
def test_a_report_to_a_dead_address_bounces_is_recorded_and_never_answered(
    bouncing_mailstack: MailServer, tmp_path: Path
) -> None:
    server = bouncing_mailstack
    game, kennedy, dead = (f"{u}@{server.domain}" for u in ("game", "kennedy", "gone-player"))
    settings = server.game_settings(f"sqlite:///{tmp_path}/b.db", "bounce-test", game)
    db = make_engine(settings.database_url)
    migrate(db)
    game_id = game_setup.new_game(db, settings, kennedy=kennedy, nixon=dead, seed=2)
    assert outbox.drain_outbox(db, settings, outbox.make_sender(settings)).sent == 2  # accepted
    (dsn,) = _wait_for(server, game, 1)  # Postfix's own bounce of the welcome to gone-player
    assert b"multipart/report" in dsn and b"delivery-status" in dsn

    with intake.open_mailbox(settings) as inbox:
        stats = intake.poll_once(db, settings, inbox)
    assert dict(stats.outcomes) == {"bounced": 1}
    with Session(db) as s:
        (inbound,) = s.exec(select(InboundMessage)).all()
        rows = {r.recipient: r for r in s.exec(select(OutboxMessage))}
        events = s.exec(select(GameEvent).where(GameEvent.kind == "bounce")).all()
    assert inbound.outcome == "bounced" and dead in inbound.detail and "5.1.1" in inbound.detail
    assert rows[dead].status == "bounced" and "5.1.1" in rows[dead].last_error
    assert [(e.game_id, e.side) for e in events] == [(game_id, "nixon")]
    queued = [r for r in rows.values() if r.status == "pending"]
    assert [(r.recipient, r.kind) for r in queued] == [(kennedy, "notice")]  # no reply to the DSN

    assert outbox.drain_outbox(db, settings, outbox.make_sender(settings)).sent == 1
    mails = [
        email.message_from_bytes(raw, policy=email.policy.default)
        for raw in _wait_for(server, kennedy, 2)
    ]
    notice = mails[-1].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert dead in notice and "could not be delivered" in notice

    with intake.open_mailbox(settings) as inbox:  # nothing more arrives: no loop
        assert intake.poll_once(db, settings, inbox).total == 0
        assert len(inbox.folder_uids("Processed")) == 1
    assert outbox.drain_outbox(db, settings, outbox.make_sender(settings)).sent == 0


# --- the same DSN (captured from Postfix: tests/pbem/data/postfix-dsn.eml) on the fakes --------

POSTFIX_DSN = (Path(__file__).parent / "data" / "postfix-dsn.eml").read_bytes()
DEAD, ORIGINAL_ID = (
    b"gone-player@example.test",
    b"<1960.g1n1-5f4rcctpncgxn7dn.v0.welcome@example.test>",
)


def _dsn_for(
    row: OutboxMessage, *, action: bytes = b"failed", unique: str = "1", with_original: bool = True
) -> bytes:
    raw = POSTFIX_DSN.replace(DEAD, row.recipient.encode()).replace(
        b"<20261201033038.78D3D258588@mx.pbem.test>", f"<dsn-{unique}@mx.pbem.test>".encode()
    )
    raw = raw.replace(b"Action: failed", b"Action: " + action)
    if not with_original:
        return raw.replace(ORIGINAL_ID, b"<gone@elsewhere>").replace(b"Message-ID:", b"X-Gone:")
    return raw.replace(ORIGINAL_ID, row.message_id.encode())


def _rows(h: Harness, recipient: str) -> list[OutboxMessage]:
    return [r for r in h.outbox() if r.recipient == recipient]


def _events(h: Harness) -> list[tuple[str, str]]:
    with Session(h.db) as s:
        return [(e.side, e.kind) for e in s.exec(select(GameEvent))]


def test_a_bounced_report_is_recorded_once_and_the_opponent_told_once(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    sent_before = len(h.sender.sent)
    welcome = _rows(h, EMAILS["nixon"])[0]
    h.inbox.deliver(_dsn_for(welcome))
    h.inbox.deliver(_dsn_for(welcome, unique="2"))  # the MTA retried and bounced again
    assert h.poll().outcomes == {"bounced": 2}  # recorded twice as inbound mail ...
    assert _events(h) == [("nixon", "bounce")]  # ... but one event, one notice
    new = h.sender.sent[sent_before:]
    assert [m.recipients for m in new] == [[EMAILS["kennedy"]]]  # one notice, to the opponent
    assert b"dick@players.test" in new[0].raw
    assert _rows(h, EMAILS["nixon"])[0].status == "bounced"


def test_two_dead_addresses_do_not_ping_pong(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    for side in ("nixon", "kennedy"):
        h.inbox.deliver(_dsn_for(_rows(h, EMAILS[side])[0], unique=side))
    h.poll()
    notices = [r for r in h.outbox() if r.kind == "notice"]
    assert [r.recipient for r in notices] == [EMAILS["kennedy"]]  # told before his own bounced
    h.inbox.deliver(_dsn_for(notices[0], unique="notice"))  # ... and that notice bounces too
    stats = h.poll()
    assert stats.outcomes == {"bounced": 1}
    assert [r.kind for r in h.outbox() if r.status == "pending"] == []
    assert len([r for r in h.outbox() if r.kind == "notice"]) == 1


def test_delay_reports_and_bounces_of_mail_not_ours_are_ignored_unanswered(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    rows_before = len(h.outbox())
    welcome = _rows(h, EMAILS["nixon"])[0]
    h.inbox.deliver(_dsn_for(welcome, action=b"delayed", unique="d"))
    h.inbox.deliver(POSTFIX_DSN)  # names a Message-ID we never sent
    assert h.poll().outcomes == {"ignored": 2}
    assert len(h.outbox()) == rows_before and _events(h) == []
    assert welcome.status == "sent"


def test_a_forged_dsn_without_the_original_headers_is_ignored_and_nobody_told(
    tmp_path: Path,
) -> None:
    # Anyone who knows Nixon's address could mail this; it must not tell Kennedy his mail bounces.
    h = Harness(tmp_path)
    h.new_game(seed=2)
    sent_before = len(h.sender.sent)
    welcome = _rows(h, EMAILS["nixon"])[0]
    h.inbox.deliver(_dsn_for(welcome, with_original=False))
    stats = h.poll()
    assert stats.outcomes == {"ignored": 1}
    assert _events(h) == [] and len(h.sender.sent) == sent_before
    assert _rows(h, EMAILS["nixon"])[0].status == "sent"
    with Session(h.db) as s:
        (inbound,) = s.exec(select(InboundMessage)).all()
    assert "without the returned mail's Message-ID" in inbound.detail


def _forged(row: OutboxMessage, mid: str) -> bytes:
    return _dsn_for(row).replace(row.message_id.encode(), mid.encode())


def test_a_dsn_naming_a_message_id_we_did_not_sign_is_ignored(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    welcome = _rows(h, EMAILS["nixon"])[0]
    left, _, domain = welcome.message_id.strip("<>").rpartition("@")
    untagged = f"<{left.rpartition('.')[0]}@{domain}>"  # a guessed id: the shape without the tag
    wrong_key = keys.signed_message_id(
        "not-our-secret", h.settings.address, left.rpartition(".")[0]
    )
    bad_tag = f"<{left[:-1]}{'a' if left[-1] != 'a' else 'b'}@{domain}>"
    for i, mid in enumerate((untagged, wrong_key, bad_tag)):
        h.inbox.deliver(_forged(welcome, mid).replace(b"<dsn-1@", f"<dsn-f{i}@".encode()))
    assert h.poll().outcomes == {"ignored": 3}
    assert _events(h) == [] and _rows(h, EMAILS["nixon"])[0].status == "sent"


def test_a_bounce_of_mail_signed_with_a_previous_secret_is_still_recognised(
    tmp_path: Path,
) -> None:
    h = Harness(tmp_path)
    h.new_game(seed=2)
    welcome = _rows(h, EMAILS["nixon"])[0]
    h.settings = h.settings.with_(secret="the-new-secret", previous_secrets=h.settings.secret)
    h.inbox.deliver(_dsn_for(welcome))
    assert h.poll().outcomes == {"bounced": 1}
    assert _events(h) == [("nixon", "bounce")]
