"""Issue 14's faults on PostgreSQL (``PBEM_TEST_POSTGRES_URL``; skipped when unset).

2: a NUL byte in a Message-ID must not make `process_message` raise or block the inbox;
3: a Message-ID longer than the 400-character column is not quarantined;
5: two workers draining the outbox at once send every row exactly once.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import pytest
from sqlmodel import Session, select

import engine
from pbem.games import setup as game_setup
from pbem.mail import MemorySender
from pbem.outbox import send as outbox
from pbem.outbox import send as outbox_send
from pbem.pipeline import runner as pipeline
from pbem.store.models import OutboxMessage, Quarantine
from pbem.worker import intake
from tests.pbem.harness import Harness

pytestmark = pytest.mark.postgres  # skipped without PBEM_TEST_POSTGRES_URL (conftest.py)


@pytest.fixture
def h(postgres_harness: Harness) -> Harness:
    return postgres_harness  # conftest.py: one new game on an emptied PostgreSQL database


def _active(h: Harness) -> str:
    return sorted(engine.active_sides(h.state()))[0]


def test_2_a_nul_in_a_message_id_neither_raises_nor_blocks_the_move_behind_it(h: Harness) -> None:
    side = _active(h)
    nul = h.reply_bytes(side, "help").replace(
        b"Message-ID: <player.", b"Message-ID: <a\x00b.player."
    )
    h.inbox.deliver(nul)
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0]))
    stats = intake.poll_once(h.db, h.settings, h.inbox)
    assert stats.outcomes == {"answered": 1, "applied": 1}
    assert h.inbox.fetch_new() == []


def test_2_a_crash_on_a_nul_mail_is_stored_in_the_quarantine(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pbem.pipeline.runner as runner

    def crash(ctx: object, names: object) -> None:
        raise RuntimeError("pipeline bug \x00 with a NUL")

    monkeypatch.setattr(runner, "run", crash)
    raw = h.reply_bytes("kennedy", "help").replace(b"Message-ID: <player.", b"Message-ID: <a\x00b.")
    out = pipeline.process_message(h.db, h.settings, raw)
    assert out.outcome == "quarantined"
    with Session(h.db) as s:
        (row,) = s.exec(select(Quarantine)).all()
    assert "\x00" not in row.message_id and row.raw == raw


def test_3_a_message_id_over_400_characters_is_applied(h: Harness) -> None:
    side = _active(h)
    long_id = "<" + "x" * 450 + "@players.test>"
    h.inbox.deliver(h.reply_bytes(side, h.legal(side)[0], message_id=long_id))
    assert h.poll().outcomes == {"applied": 1}
    h.inbox.deliver(h.reply_bytes(side, "help", message_id=long_id))
    assert h.poll().outcomes == {"duplicate": 1}


class SlowSender(MemorySender):
    """Takes a little while per mail, so two drainers overlap."""

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        await asyncio.sleep(0.005)
        await super().send(raw, sender, recipients)


def test_5_two_workers_draining_one_outbox_send_each_row_once(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_send, "CLAIM_BATCH", 3)
    for i in range(20):
        game_setup.new_game(
            h.db, h.settings, kennedy=f"k{i}@players.test", nixon=f"n{i}@players.test", seed=i
        )
    senders = [SlowSender(), SlowSender()]
    threads = [
        threading.Thread(target=outbox.drain_outbox, args=(h.db, h.settings, s)) for s in senders
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = Counter()
    for s in senders:
        for m in s.sent:
            ids[m.raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0]] += 1
    assert len(ids) == 40 and set(ids.values()) == {1}
    assert all(s.sent for s in senders)  # both really worked
    with Session(h.db) as s:
        assert {r.status for r in s.exec(select(OutboxMessage))} == {"sent"}


def test_imap_uids_up_to_2_to_the_32_are_stored(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RFC 3501 UIDs and UIDVALIDITY are 32-bit *unsigned*: pymap's 2824442751 overflowed the
    signed INTEGER columns, and every mail was quarantined (found by test_serve_leader.py)."""
    import pbem.pipeline.runner as runner

    side = _active(h)
    raw = h.reply_bytes(side, h.legal(side)[0])
    out = pipeline.process_message(
        h.db, h.settings, raw, mailbox="INBOX", uidvalidity=2**32 - 1, uid=2**32 - 1
    )
    assert out.outcome == "applied"

    def crash(ctx: object, names: object) -> None:
        raise RuntimeError("pipeline bug")

    monkeypatch.setattr(runner, "run", crash)
    out = pipeline.process_message(
        h.db,
        h.settings,
        h.reply_bytes(side, "help"),
        mailbox="INBOX",
        uidvalidity=2**32 - 1,
        uid=2**32 - 2,
    )
    assert out.outcome == "quarantined" and "not stored" not in out.reason
    with Session(h.db) as s:
        (row,) = s.exec(select(Quarantine)).all()
    assert (row.uidvalidity, row.uid) == (2**32 - 1, 2**32 - 2)
