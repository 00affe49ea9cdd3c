"""The outbox sends the next mail while the previous one's mark waits for the write lock
(`pbem.outbox_send._send_rows`): marks commit in order, one commit per sent mail (C2), at
most one behind the sending, and a sent mail's mark is never abandoned.

Before, each mark blocked the sending until `pbem poll`'s next mail transaction let the lock go
(issue 14, benchmark 2)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from pbem import service
from pbem.db import transaction
from pbem.mail import MemorySender
from tests.pbem.harness import Harness
from tests.pbem.test_outbox_pump import _queue_moves


def _statuses(h: Harness) -> dict[str, str]:
    return {r.message_id: r.status for r in h.outbox()}


def _mid(raw: bytes) -> str:
    return raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode()


def _backlog(tmp_path: Path, moves: int) -> tuple[Harness, list[str]]:
    h = Harness(tmp_path)
    h.new_game()
    _queue_moves(h, moves)
    service.poll_once(h.db, h.settings, h.inbox)
    pending = [r.message_id for r in h.outbox() if r.status == "pending"]
    assert len(pending) >= 3
    return h, pending


class _LockAfterFirst(MemorySender):
    """Right after the first mail, another writer takes the write lock and keeps it until the
    second mail is sent (5 s at most); records whether the second went while it was held."""

    def __init__(self, h: Harness) -> None:
        super().__init__()
        self.h = h
        self.locked, self.release, self.done = (threading.Event() for _ in range(3))
        self.second_while_locked: bool | None = None
        self.unmarked_before: list[int] = []

    def _hold(self) -> None:
        with transaction(self.h.db) as s:
            s.execute(text("SELECT 1"))
            self.locked.set()
            self.release.wait(5)
        self.done.set()

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        earlier = [_mid(x.raw) for x in self.sent]
        statuses = _statuses(self.h)
        self.unmarked_before.append(sum(statuses[m] != "sent" for m in earlier))
        await super().send(raw, sender, recipients)
        if len(self.sent) == 1:
            threading.Thread(target=self._hold, daemon=True).start()
            assert self.locked.wait(5)
        elif len(self.sent) == 2:
            self.second_while_locked = not self.done.is_set()
            self.release.set()


def test_the_next_mail_goes_while_the_previous_mark_waits_for_the_lock(tmp_path: Path) -> None:
    h, pending = _backlog(tmp_path, 3)
    sender = _LockAfterFirst(h)
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert sender.second_while_locked is True
    assert stats.sent == len(pending) and stats.failed == 0
    assert [_mid(m.raw) for m in sender.sent] == pending
    assert all(_statuses(h)[m] == "sent" for m in pending)
    # at each send, at most the mail just before it is not yet marked
    assert max(sender.unmarked_before) <= 1


class _Breaks(MemorySender):
    """Sends the first mail, then fails with an error that is not an SMTP failure."""

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        if self.sent:
            raise RuntimeError("the sending broke")
        await super().send(raw, sender, recipients)


def test_a_sent_mail_is_marked_even_when_the_next_one_breaks(tmp_path: Path) -> None:
    h, pending = _backlog(tmp_path, 3)
    sender = _Breaks()
    with pytest.raises(RuntimeError, match="the sending broke"):
        service.drain_outbox(h.db, h.settings, sender)
    statuses = _statuses(h)
    assert statuses[pending[0]] == "sent"
    assert all(statuses[m] == "pending" for m in pending[1:])
