"""The sending loop's marks (`pbem.outbox.send._send_rows`): each sent mail is marked before the
next is sent, unless another process is writing to the SQLite file (`pbem poll` applying a
mail); then up to `MARKS_HELD` marks wait and go in one transaction at the first free moment,
so the sending process sends on instead of waiting out the poll's transaction (issue 14,
benchmark 2: it spent a fifth of its life waiting for turns and fell ~150 reports behind).
Nothing tried is ever left unmarked: a failure, the batch's end or an exception marks them."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from pbem import service
from pbem.mail import MemorySender, PermanentFailure
from pbem.outbox import send as outbox_send
from tests.pbem.harness import Harness
from tests.pbem.test_outbox_pump import _queue_moves


class _Watching(MemorySender):
    """Records, at each send, how many of the outbox's rows were marked already; fails the
    ``fail``-th send (1-based) with ``failure``."""

    def __init__(self, h: Harness, fail: int = 0, failure: Exception | None = None) -> None:
        super().__init__()
        self.h, self.fail, self.failure = h, fail, failure
        self.marked_at_send: list[int] = []

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        with self.h.db.connect() as read:  # what another reader sees: committed marks only
            marked = read.execute(
                text("SELECT count(*) FROM outboxmessage WHERE status != 'pending'")
            ).scalar_one()
        self.marked_at_send.append(marked)
        if len(self.marked_at_send) == self.fail and self.failure is not None:
            raise self.failure
        await super().send(raw, sender, recipients)


def _backlog(tmp_path: Path, moves: int = 7) -> tuple[Harness, int]:
    h = Harness(tmp_path)
    h.new_game()
    _queue_moves(h, moves)
    service.poll_once(h.db, h.settings, h.inbox)
    pending = sum(r.status == "pending" for r in h.outbox())
    assert pending >= 6
    return h, pending


def _statuses(h: Harness) -> list[str]:
    return [r.status for r in h.outbox()]


def test_each_mail_is_marked_before_the_next_when_nobody_else_writes(tmp_path: Path) -> None:
    h, pending = _backlog(tmp_path)
    sender = _Watching(h)
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert stats.sent == pending
    already = len(h.outbox()) - pending
    assert sender.marked_at_send == [already + i for i in range(pending)]


def test_marks_wait_while_another_process_writes_and_go_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, pending = _backlog(tmp_path)
    monkeypatch.setattr(outbox_send, "write_turn_taken", lambda db: True)  # the poll, busy
    monkeypatch.setattr(outbox_send, "MARKS_HELD", 3)
    sender = _Watching(h)
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert stats.sent == pending
    already = len(h.outbox()) - pending
    # three sent before the first mark, then three more marked at once, ...
    assert sender.marked_at_send == [already + 3 * (i // 3) for i in range(pending)]
    assert _statuses(h) == ["sent"] * len(h.outbox())  # the batch's last marks them all


def test_a_failed_mail_marks_the_held_ones_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, pending = _backlog(tmp_path)
    monkeypatch.setattr(outbox_send, "write_turn_taken", lambda db: True)
    sender = _Watching(h, fail=2, failure=PermanentFailure("550 no such user"))
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert (stats.sent, stats.failed) == (pending - 1, 1)
    already = len(h.outbox()) - pending
    assert sender.marked_at_send[:3] == [already, already, already + 2]


def test_an_exception_still_marks_what_was_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mails sent before something unexpected was raised are marked: not sent again (a
    duplicate) by the next run."""
    h, pending = _backlog(tmp_path)
    monkeypatch.setattr(outbox_send, "write_turn_taken", lambda db: True)
    sender = _Watching(h, fail=4, failure=RuntimeError("a bug"))
    with pytest.raises(RuntimeError, match="a bug"):
        service.drain_outbox(h.db, h.settings, sender)
    already = len(h.outbox()) - pending
    assert _statuses(h).count("sent") == already + 3
