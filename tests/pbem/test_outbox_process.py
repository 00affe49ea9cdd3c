"""`pbem.outbox_process.OutboxProcess`: `pbem poll`'s outbox claimed, sent and marked by a child.

The applying process only nudges; the child runs `service.send_due` on its own engine with a real
SMTP sender (claims under its own process's token, one commit per sent row), and its totals are
the poll's. A poll killed mid-send: a mail whose end of data was not written is aborted (not
delivered, due again at once), one whose end of data was written is finished and marked sent —
neither is sent twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from pbem import service
from pbem.mail import MemorySender, SmtpSender, TemporaryFailure
from pbem.outbox import claims
from pbem.outbox import send as outbox_send
from pbem.outbox_process import OutboxProcess
from pbem.store.models import utcnow
from tests.pbem.harness import Harness
from tests.pbem.mailtools import Capture, free_port, process_gone, wait_until
from tests.pbem.test_outbox_pump import _queue_moves

ROOT = Path(__file__).resolve().parents[2]


def _message_ids(capture: Capture) -> list[bytes]:
    return [c[2].split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0] for c in capture.messages]


def _outbox_writes(db: Any) -> list[str]:
    """The UPDATE/DELETE statements on the outbox this process runs from now on."""
    seen: list[str] = []

    @event.listens_for(db, "before_cursor_execute")
    def spy(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        text = statement.lower()
        if "outboxmessage" in text and text.lstrip().startswith(("update", "delete")):
            seen.append(statement)

    return seen


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def played(request: pytest.FixtureRequest, tmp_path: Path) -> Harness:
    """A harness with one game, its welcome mails sent (to the MemorySender)."""
    if request.param == "postgres":  # skipped without PBEM_TEST_POSTGRES_URL
        harness: Harness = request.getfixturevalue("postgres_harness")
        return harness
    h = Harness(tmp_path)
    h.new_game()
    return h


def test_the_child_claims_sends_and_marks_while_the_poll_only_nudges(
    played: Harness, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    h = played
    _queue_moves(h, 4)
    writes = _outbox_writes(h.db)
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", port)) as pump:
        assert pump._proc is None  # nothing due yet: no child
        stats = service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
        assert pump._proc is not None
        child = pump._proc.pid
    assert stats.total == 4
    rows = [r for r in h.outbox() if r.kind != "welcome"]
    assert rows and all(r.status == "sent" and r.attempts == 1 for r in rows)
    assert all(r.claimed_by is None for r in rows)
    assert sorted(_message_ids(capture)) == sorted(r.message_id.encode() for r in rows)
    assert pump.stats.sent == len(rows) and not pump.stats.unreachable
    assert writes == []  # claims and marks: the child's, on its own connection
    assert child != os.getpid()


def test_a_poll_with_nothing_to_send_starts_no_child(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", free_port())) as pump:
        service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
    assert pump._proc is None and pump.stats == service.SendStats()


def test_rows_queued_after_the_last_nudge_are_sent_before_the_poll_ends(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    h = Harness(tmp_path)
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", port)) as pump:
        service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    assert pump.stats.sent == 2 == len(capture.messages)
    assert all(r.status == "sent" for r in h.outbox())


def test_an_unreachable_smtp_server_leaves_the_rows_due_and_says_so(tmp_path: Path) -> None:
    h = Harness(tmp_path)
    h.new_game()
    _queue_moves(h, 3)
    with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", free_port())) as pump:
        service.poll_once(h.db, h.settings, h.inbox, after_each=pump.nudge)
    pending = [r for r in h.outbox() if r.status == "pending"]
    assert pump.stats.unreachable and pump.stats.sent == 0
    assert pump.stats.retrying == len(pending) > 0
    assert all(r.attempts == 0 and r.claimed_by is None for r in pending)
    assert all(r.next_attempt_at <= utcnow() for r in pending)  # the next run retries at once
    assert service.drain_outbox(h.db, h.settings, MemorySender()).sent == len(pending)


class _Stall(Capture):
    """Stalls ``where`` ("RCPT": before the data; "DATA": the whole data and its end received,
    before the reply) for the first mail only; ``waiting`` is set while it stalls."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.waiting = False
        self.stalled = False

    async def _stall(self, here: str) -> None:
        if here == self.where and not self.stalled:
            self.stalled = self.waiting = True
            await asyncio.sleep(3)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        await self._stall("RCPT")
        return await super().handle_RCPT(server, session, envelope, address, options)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await self._stall("DATA")
        return await super().handle_DATA(server, session, envelope)


PARENT = """
import sys, time
from pbem.config import Settings
from pbem.store.db import make_engine
from pbem.mail import SmtpSender
from pbem.outbox_process import OutboxProcess

settings = Settings(database_url=sys.argv[1], address="game@pbem.test", secret="test-secret")
pump = OutboxProcess(make_engine(sys.argv[1]), settings, SmtpSender("127.0.0.1", int(sys.argv[2])))
pump.__enter__()  # rows are due: the child starts and sends them
print(pump._proc.pid, flush=True)
time.sleep(120)
"""


def _kill_poll_while_stalled(tmp_path: Path, where: str) -> tuple[Harness, _Stall, int]:
    """A poll process sending the two welcome mails, SIGKILLed while the server stalls on the
    first (``where``); returns after its sending process is gone."""
    from aiosmtpd.controller import Controller

    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    capture = _Stall(where)
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        parent = subprocess.Popen(
            [sys.executable, "-c", PARENT, h.settings.database_url, str(controller.port)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        # the child is inside the first mail's SMTP conversation
        assert wait_until(lambda: capture.waiting, 60)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert wait_until(lambda: process_gone(child), 30, 0.02)
        time.sleep(3.5)  # past the stall: whatever the server was given is in by now
    finally:
        controller.stop()
    return h, capture, controller.port


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG, /proc")
def test_a_poll_killed_before_the_end_of_data_delivers_nothing_and_the_row_stays_due(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    h, stalled, _ = _kill_poll_while_stalled(tmp_path, "RCPT")
    assert stalled.messages == []  # aborted before the data: the server has no mail
    rows = h.outbox()
    assert [r.status for r in rows] == ["pending", "pending"]
    assert all(r.claimed_by is None and r.attempts == 0 for r in rows)  # handed back
    assert all(r.next_attempt_at <= utcnow() for r in rows)  # due at once, no lease to wait
    capture, port = smtp_capture
    assert service.drain_outbox(h.db, h.settings, SmtpSender("127.0.0.1", port)).sent == 2
    assert sorted(_message_ids(capture)) == sorted(r.message_id.encode() for r in rows)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG, /proc")
def test_a_poll_killed_after_the_end_of_data_delivers_once_and_marks_it_sent(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    h, stalled, _ = _kill_poll_while_stalled(tmp_path, "DATA")
    first, second = h.outbox()
    assert _message_ids(stalled) == [first.message_id.encode()]  # delivered once
    assert first.status == "sent" and first.attempts == 1 and first.claimed_by is None
    assert second.status == "pending" and second.claimed_by is None and second.attempts == 0
    capture, port = smtp_capture
    assert service.drain_outbox(h.db, h.settings, SmtpSender("127.0.0.1", port)).sent == 1
    assert _message_ids(capture) == [second.message_id.encode()]  # the first is not resent


def test_a_dead_child_frees_its_claims_and_the_poll_says_the_rest_waits(
    tmp_path: Path,
) -> None:
    from aiosmtpd.controller import Controller

    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy="k@players.test", nixon="n@players.test")
    capture = _Stall("RCPT")
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with OutboxProcess(h.db, h.settings, SmtpSender("127.0.0.1", controller.port)) as pump:
            assert pump._proc is not None and wait_until(lambda: capture.waiting, 60)
            held = {r.claimed_by for r in h.outbox()}
            assert len(held) == 1 and None not in held  # both claimed by the child
            assert claims.claimant() not in held
            pump._proc.kill()
            pump._proc.wait()
    finally:
        controller.stop()
    assert pump.stats.unreachable and pump.stats.sent == 0 and pump.stats.retrying == 2
    rows = h.outbox()
    assert all(r.status == "pending" and r.claimed_by is None for r in rows)
    assert all(r.next_attempt_at <= utcnow() for r in rows)


def test_an_aborted_session_is_reset_and_never_reopened() -> None:
    """`SmtpSender.abort` (the poll died before the end of data): a TCP reset, not a close
    after the buffered bytes; the send in progress fails as "unreachable" without reconnecting
    (on a kept session it would otherwise be sent again on a new connection), and no data
    goes out from this sender afterwards."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    seen: list[str] = []

    def serve() -> None:  # answers everything, except the second RCPT (never)
        rcpts = 0
        while len(seen) < 3:
            conn, _ = listener.accept()
            seen.append("connected")
            conn.sendall(b"220 hi\r\n")
            reader = conn.makefile("rb")
            try:
                while line := reader.readline():
                    verb = line[:4].upper()
                    if verb == b"DATA":
                        conn.sendall(b"354 go\r\n")
                        while reader.readline() != b".\r\n":
                            pass
                        seen.append("data")
                    elif verb == b"RCPT":
                        rcpts += 1
                        if rcpts == 2:
                            continue
                    conn.sendall(b"250 ok\r\n")
                seen.append("closed")
            except ConnectionResetError:
                seen.append("reset")
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    sender = SmtpSender("127.0.0.1", port, timeout=10)

    async def go() -> BaseException | None:
        async with sender:
            await sender.send(b"Subject: 1\r\n\r\nhi\r\n", "a@b.test", ["c@d.test"])
            task = asyncio.ensure_future(
                sender.send(b"Subject: 2\r\n\r\nhi\r\n", "a@b.test", ["c@d.test"])
            )
            await asyncio.sleep(0.5)  # the second RCPT is out, unanswered
            assert not task.done() and not sender.end_of_data
            sender.abort()
            with pytest.raises(TemporaryFailure) as info:
                await asyncio.wait_for(task, 10)
            with pytest.raises(TemporaryFailure):  # nothing more from this sender
                await sender.send(b"Subject: 3\r\n\r\nhi\r\n", "a@b.test", ["c@d.test"])
            return info.value

    failure = asyncio.run(go())
    time.sleep(0.3)
    listener.close()
    assert failure is not None and outbox_send._unreachable(failure)  # type: ignore[arg-type]
    assert seen == ["connected", "data", "reset"]  # one mail, then a reset; no new connection
