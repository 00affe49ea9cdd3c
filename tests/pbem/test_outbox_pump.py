"""`pbem.outbox_pump.OutboxPump`: the outbox sent while the next mail is processed (issue 14).

The pump sends each committed mail's reports on its own thread during the next mail's work,
with the outbox's semantics unchanged: every row sent once (claimed), marked sent in its own
commit, an unreachable SMTP server costs one failure per run and leaves the rows due.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from pbem import service
from pbem.mail import MemorySender, TemporaryFailure
from pbem.outbox_pump import OutboxPump
from tests.pbem.harness import EMAILS, Harness


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    h = Harness(tmp_path)
    h.new_game()
    return h


class RecordingSender(MemorySender):
    """A MemorySender that tells a waiting test when the ``n``-th message went out."""

    def __init__(self) -> None:
        super().__init__()
        self.one_sent = threading.Event()

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        await super().send(raw, sender, recipients)
        self.one_sent.set()


def _queue_moves(h: Harness, n: int) -> None:
    """Deliver ``n`` legal moves of the side to move (each answering the newest report)."""
    import engine

    state = h.state()
    side = sorted(engine.active_sides(state))[0]
    for cmd in engine.legal_commands(state, side)[:1]:
        h.inbox.deliver(h.reply_bytes(side, cmd))
    for i in range(n - 1):  # then mails that are answered (help) without waiting for the first
        h.inbox.deliver(h.reply_bytes(side, "help", message_id=f"<help.{i}@players.test>"))


def test_reports_are_sent_while_the_next_mail_is_processed(h: Harness) -> None:
    """Processing mail 2 waits until mail 1's report is out: it only finishes if the pump
    sends during processing (a drain after the poll, as before, would never let it)."""
    _queue_moves(h, 3)
    sender = RecordingSender()
    sent_before: list[int] = []
    with OutboxPump(h.db, h.settings, sender) as pump:

        def after_each() -> None:
            pump.nudge()
            if not sent_before:  # after the first mail's commit
                sent_before.append(int(sender.one_sent.wait(30)))

        stats = service.poll_once(h.db, h.settings, h.inbox, after_each=after_each)
    assert stats.total == 3
    assert sent_before == [1], "the first mail's report was not sent during the poll"
    assert pump.stats.sent == len(sender.sent) >= 3
    assert all(r.status == "sent" for r in h.outbox())


def test_every_row_is_sent_once_with_its_own_message_id(h: Harness) -> None:
    _queue_moves(h, 6)
    sender = MemorySender()
    with OutboxPump(h.db, h.settings, sender) as pump:
        service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
    ids = [m.raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0] for m in sender.sent]
    rows = [r for r in h.outbox() if r.kind != "welcome"]
    assert len(ids) == len(set(ids)) == len(rows) == pump.stats.sent
    assert all(r.status == "sent" and r.attempts == 1 for r in rows)


def test_two_pumps_on_one_outbox_send_each_row_once(h: Harness) -> None:
    """Two pumps (two workers' send threads) drain the same outbox: claiming keeps it once."""
    _queue_moves(h, 8)
    service.poll_once(h.db, h.settings, h.inbox)  # queued, nothing sent yet
    a, b = MemorySender(), MemorySender()
    with OutboxPump(h.db, h.settings, a), OutboxPump(h.db, h.settings, b):
        pass
    recipients = [m.recipients[0] for m in a.sent + b.sent]
    rows = [r for r in h.outbox() if r.kind != "welcome"]
    assert len(recipients) == len(rows) and set(recipients) <= set(EMAILS.values())


def test_an_unreachable_smtp_server_stops_the_pump_and_leaves_the_rows_due(h: Harness) -> None:
    _queue_moves(h, 3)
    down = MemorySender(fail_with=[TemporaryFailure("connection refused")] * 50)
    with OutboxPump(h.db, h.settings, down) as pump:
        service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
    assert pump.stats.unreachable and pump.stats.sent == 0
    assert len(down.fail_with) == 49, "one failed attempt per run, not one per mail"
    pending = [r for r in h.outbox() if r.status == "pending"]
    assert pending and all(r.attempts == 0 for r in pending)
    again = service.drain_outbox(h.db, h.settings, MemorySender())  # the next run sends them
    assert again.sent == len(pending)


def test_an_error_on_the_send_thread_reaches_the_caller(h: Harness) -> None:
    class Broken(MemorySender):
        async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
            raise RuntimeError("boom")

    _queue_moves(h, 1)
    with pytest.raises(RuntimeError, match="boom"), OutboxPump(h.db, h.settings, Broken()) as pump:
        service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
