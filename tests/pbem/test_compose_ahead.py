"""The outbox composes a row's mail while the SMTP server queues the row before it
(`pbem.outbox.send._send_row` with an `OverlappingSender`): the same mails, in the same order,
each marked after its own reply."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem import service
from pbem.mail import MemorySender
from pbem.outbox import send as outbox_send
from tests.pbem.harness import Harness
from tests.pbem.test_outbox_pump import _queue_moves


class _Logged(MemorySender):
    """Logs the end of data and the reply of each mail (by Message-ID) around ``meanwhile``,
    and a mail sent without anything to do meanwhile."""

    def __init__(self, log: list[tuple[str, str]]) -> None:
        super().__init__()
        self.log = log

    async def send_overlapping(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] | None,
    ) -> None:
        self.log.append(("end of data", _mid(raw)))
        if meanwhile is not None:
            meanwhile()
        self.log.append(("reply", _mid(raw)))
        await super().send(raw, sender, recipients)

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        self.log.append(("sent", _mid(raw)))  # no row after it: nothing to do meanwhile
        await super().send(raw, sender, recipients)


def _mid(raw: bytes) -> str:
    return raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode()


def test_the_next_row_is_composed_while_the_server_queues_the_one_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(tmp_path)
    h.new_game()
    _queue_moves(h, 3)
    service.poll_once(h.db, h.settings, h.inbox)
    pending = [r.message_id for r in h.outbox() if r.status == "pending"]
    assert len(pending) >= 3
    log: list[tuple[str, str]] = []
    compose = outbox_send.composed

    def spy(settings: Any, row: Any, images: Any = None) -> Any:
        log.append(("compose", row.message_id))
        return compose(settings, row, images)

    monkeypatch.setattr(outbox_send, "composed", spy)
    sender = _Logged(log)
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert stats.sent == len(pending) and stats.failed == 0
    *before, last = pending
    expected = [("compose", pending[0])]
    for mid, following in zip(before, pending[1:], strict=True):
        expected.append(("end of data", mid))
        expected.append(("compose", following))  # before the reply of the one before
        expected.append(("reply", mid))
    expected.append(("sent", last))
    assert log == expected
    assert [_mid(m.raw) for m in sender.sent] == pending


def test_only_a_sender_told_of_its_process_death_composes_ahead() -> None:
    # `pbem serve` and `pbem send` send with a bare SmtpSender: killed while composing the next
    # mail, they would leave the delivered one unmarked (a duplicate on the next run) for the
    # compose's time; the poll's sending process is told of the poll's death and finishes it
    from pbem.mail import SmtpSender
    from pbem.outbox.send import OverlappingSender
    from pbem.outbox_process import _Orphan

    smtp = SmtpSender("127.0.0.1", 25)
    assert not isinstance(smtp, OverlappingSender)
    assert isinstance(_Orphan(smtp, 1), OverlappingSender)
