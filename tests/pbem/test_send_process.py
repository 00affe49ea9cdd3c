"""`pbem.send_process.ProcessSender`: the outbox composed and sent from a child process.

The child composes the same bytes as `pbem.outbox.compose.raw_message` in the parent, its SMTP
failures reach the outbox classified as on a thread (4xx temporary, 5xx permanent), a dead child
is a temporary failure without a code (the rows are due again: the server "unreachable"), the
child ends when its parent is gone, and a killed parent takes the child with it at once, mail in
flight and all (never delivered: the parent could not have marked it sent).
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from pbem import service
from pbem.mail import PermanentFailure, SmtpSender, TemporaryFailure
from pbem.outbox import parts as mailimages
from pbem.outbox import queue as replies
from pbem.outbox import send as outbox_send
from pbem.outbox.compose import raw_message
from pbem.send_process import ProcessSender
from pbem.store.models import OutboxMessage
from tests.pbem.harness import EMAILS, Harness
from tests.pbem.mailtools import Capture, free_port, process_gone, wait_until

DATE = re.compile(rb"^Date: .*\r\n", re.M)


def test_the_child_sends_the_bytes_the_parent_would_compose(
    tmp_path: Path, smtp_capture: tuple[Capture, int]
) -> None:
    capture, port = smtp_capture
    h = Harness(tmp_path)
    h.sender.sent.clear()
    h.new_game(seed=2)  # the welcome mails (with the board picture), sent to MemorySender
    with Session(h.db) as s:
        rows = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
        images = mailimages.load(s, (r.html for r in rows))
    with Session(h.db) as s:  # due again, for the process sender
        for row in s.exec(select(OutboxMessage)):
            row.status = "pending"
            s.add(row)
        s.commit()
    sender = ProcessSender(h.settings, SmtpSender("127.0.0.1", port))
    assert isinstance(sender, service.RowSender)  # rows go to the child as columns, composed there
    assert not isinstance(h.sender, service.RowSender)  # raw bytes, composed in this process
    stats = service.drain_outbox(h.db, h.settings, sender)
    assert stats.sent == len(rows) == 2 and not stats.failed
    assert [c[1] for c in capture.messages] == [[r.recipient] for r in rows]
    for row, (_frm, _to, content) in zip(rows, capture.messages, strict=True):
        expected = raw_message(h.settings, row, images)
        assert b"Content-ID: <" in expected  # the picture went with it
        assert DATE.sub(b"", content.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")) == (
            DATE.sub(b"", expected)
        )
    assert {r.recipient for r in rows} == set(EMAILS.values())


def test_smtp_failures_are_classified_as_on_a_thread(smtp_capture: tuple[Capture, int]) -> None:
    from pbem.config import Settings

    capture, port = smtp_capture
    settings = Settings(address="game@pbem.test", secret="s")

    async def go() -> list[BaseException | None]:
        out: list[BaseException | None] = []
        async with ProcessSender(settings, SmtpSender("127.0.0.1", port)) as sender:
            for rcpt in ("ok@example.org", "tmp@example.org", "bad@example.org"):
                try:
                    await sender.send(b"Subject: x\r\n\r\nhi\r\n", "g@pbem.test", [rcpt])
                    out.append(None)
                except (TemporaryFailure, PermanentFailure) as exc:
                    out.append(exc)
        return out

    ok, tmp, bad = asyncio.run(go())
    assert ok is None and len(capture.messages) == 1
    assert isinstance(tmp, TemporaryFailure) and tmp.code == 451
    assert isinstance(bad, PermanentFailure) and bad.code == 550


def test_a_dead_child_is_a_temporary_failure_without_a_code(
    smtp_capture: tuple[Capture, int],
) -> None:
    from pbem.config import Settings

    _capture, port = smtp_capture
    settings = Settings(address="game@pbem.test", secret="s")

    async def go() -> tuple[BaseException, BaseException]:
        async with ProcessSender(settings, SmtpSender("127.0.0.1", port)) as sender:
            await sender.send(b"Subject: x\r\n\r\nhi\r\n", "g@pbem.test", ["ok@example.org"])
            assert sender._proc is not None
            sender._proc.kill()
            sender._proc.wait()
            errors: list[BaseException] = []
            for _ in range(2):
                with pytest.raises(TemporaryFailure) as info:
                    await sender.send(b"Subject: x\r\n\r\nhi\r\n", "g@pbem.test", ["ok@x.org"])
                errors.append(info.value)
            return errors[0], errors[1]

    first, second = asyncio.run(go())
    assert first.code is None and second.code is None  # `_unreachable`: rows released, due again
    assert outbox_send._unreachable(first)  # type: ignore[arg-type]


def test_the_child_ends_when_its_parent_is_gone(smtp_capture: tuple[Capture, int]) -> None:
    from pbem.config import Settings

    _capture, port = smtp_capture
    settings = Settings(address="game@pbem.test", secret="s")
    sender = ProcessSender(settings, SmtpSender("127.0.0.1", port))

    async def go() -> subprocess.Popen[bytes]:
        await sender.send(b"Subject: x\r\n\r\nhi\r\n", "g@pbem.test", ["ok@example.org"])
        proc = sender._proc
        assert proc is not None and sender._conn is not None
        sender._conn.close()  # as the kernel does when the parent is killed
        return proc

    proc = asyncio.run(go())
    assert proc.wait(timeout=60) == 0


class _SlowRcpt(Capture):
    """Answers RCPT for ``slow@`` after a pause: a mail caught in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = False

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.startswith("slow"):
            self.waiting = True
            await asyncio.sleep(3)
        return await super().handle_RCPT(server, session, envelope, address, options)


PARENT = """
import asyncio, sys
from pbem.config import Settings
from pbem.mail import SmtpSender
from pbem.send_process import ProcessSender

async def go():
    sender = ProcessSender(Settings(address="g@pbem.test", secret="s"),
                           SmtpSender("127.0.0.1", int(sys.argv[1])))
    await sender.send(b"Subject: x\\r\\n\\r\\nfirst\\r\\n", "g@pbem.test", ["ok@example.org"])
    print(sender._proc.pid, flush=True)
    await sender.send(b"Subject: x\\r\\n\\r\\nsecond\\r\\n", "g@pbem.test", ["slow@example.org"])

asyncio.run(go())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_parent_takes_the_child_and_its_mail_in_flight_with_it() -> None:
    from aiosmtpd.controller import Controller

    capture = _SlowRcpt()
    controller = Controller(capture, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        parent = subprocess.Popen(
            [sys.executable, "-c", PARENT, str(controller.port)],
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        # the child is inside the second mail's SMTP conversation
        assert wait_until(lambda: capture.waiting, 30)
        parent.kill()
        parent.wait()
        assert wait_until(lambda: process_gone(child), 10, 0.05)
        time.sleep(4)  # past the pause: a child still alive would have sent its DATA by now
        assert [c[1] for c in capture.messages] == [["ok@example.org"]]
    finally:
        controller.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("defer", [False, True])
def test_the_child_composes_without_the_database_layer(
    tmp_path: Path, smtp_capture: tuple[Capture, int], monkeypatch: pytest.MonkeyPatch, defer: bool
) -> None:
    # SQLAlchemy, SQLModel and pydantic were 0.6 s of CPU of every child's start-up (1.3 s
    # more when it renders a deferred row, if pbem.reports.render imported pbem.store.models)
    monkeypatch.setattr(replies, "DEFER_RENDER", defer)
    capture, port = smtp_capture
    h = Harness(tmp_path)
    service.new_game(h.db, h.settings, kennedy=EMAILS["kennedy"], nixon=EMAILS["nixon"], seed=2)
    with Session(h.db) as s:
        rows = list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))
        images = mailimages.load(s, (r.html for r in rows))
    assert all(bool(r.render_input) == defer for r in rows)
    assert bool(images) != defer  # the stored board picture goes with each, or the child draws it

    async def go() -> str:
        async with ProcessSender(h.settings, SmtpSender("127.0.0.1", port)) as sender:
            for row in rows:
                await sender.send_row(h.settings, row, images)
            assert sender._proc is not None
            return Path(f"/proc/{sender._proc.pid}/maps").read_text()

    maps = asyncio.run(go())
    assert len(capture.messages) == len(rows) and b"Content-ID: <" in capture.messages[0][2]
    assert "/_ssl." in maps  # extension modules show (aiosmtplib imports ssl)
    for package in ("sqlalchemy", "pydantic_core"):
        assert f"/{package}/" not in maps


def test_composing_a_row_loads_no_database_layer_nor_the_mail_reader() -> None:
    # the database layer was 0.6 s of CPU of the child's start-up; IMAP and the parser 0.05 s
    probe = (
        "import sys\n"
        "from types import SimpleNamespace\n"
        "import pbem.send_process\n"
        "from pbem.config import Settings\n"
        "from pbem.outbox.compose import raw_message\n"
        "from pbem.outbox.parts import Part\n"
        "html = '<img src=\"cid:board-1@1960.pbem\">'\n"
        "row = SimpleNamespace(extras='', game_id=1, recipient='a@b.test', subject='s',\n"
        "    text='t', html=html, message_id='<m@pbem.test>', in_reply_to='',\n"
        "    references='', reply_to='')\n"
        "parts = {'board-1@1960.pbem': Part('board-1@1960.pbem', 'image/png', 'b.png', b'x')}\n"
        "assert b'Content-ID: <board-1@1960.pbem>' in raw_message(\n"
        "    Settings(address='g@pbem.test'), row, parts)\n"
        "print(' '.join(m for m in ('sqlalchemy', 'sqlmodel', 'pydantic', 'pbem.store.models',\n"
        "    'imapclient', 'pbem.mail.imap', 'pbem.mail.parse', 'pbem.mail.extract')\n"
        "    if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == []


def test_each_part_goes_to_the_child_once_and_every_mail_keeps_its_parts(
    smtp_capture: tuple[Capture, int],
) -> None:
    from types import SimpleNamespace

    from pbem.config import Settings
    from pbem.outbox.parts import Part
    from pbem.send_process import KEPT_PARTS

    capture, port = smtp_capture
    settings = Settings(address="game@pbem.test", secret="s")
    parts = {
        f"p{i}@1960.pbem": Part(f"p{i}@1960.pbem", "image/png", "b.png", bytes([i]) * 900)
        for i in range(KEPT_PARTS + 4)
    }
    names = list(parts)
    # a move's two reports share a picture; then one naming the oldest kept part and a new
    # one (adding the new drops the oldest), and ones naming parts dropped long ago
    plan = [[n] for n in names[: KEPT_PARTS + 2] for _ in (0, 1)]
    plan += [[names[2], names[KEPT_PARTS + 2]], [names[0]], [names[0], names[1], names[-1]]]
    rows = [
        SimpleNamespace(
            extras="",
            game_id=1,
            recipient="ok@example.org",
            subject=f"report {i}",
            text="t",
            html="".join(f'<img src="cid:{c}">' for c in cids),
            message_id=f"<r{i}@pbem.test>",
            in_reply_to="",
            references="",
            reply_to="",
        )
        for i, cids in enumerate(plan)
    ]
    requests: list[tuple[Any, ...]] = []

    async def go() -> None:
        async with ProcessSender(settings, SmtpSender("127.0.0.1", port)) as sender:
            ask = sender._ask

            def spy(request: tuple[Any, ...]) -> None:
                requests.append(request)
                ask(request)

            sender._ask = spy  # type: ignore[method-assign]
            for row in rows:
                await sender.send_row(settings, row, parts)  # the batch's parts, as _send_rows

    asyncio.run(go())
    sent_parts = [[p.cid for p in r[2]] for r in requests]
    assert sent_parts[:4] == [[names[0]], [], [names[1]], []]
    assert sum(map(len, sent_parts)) < len(plan)
    assert len(capture.messages) == len(rows)
    for row, (_frm, _to, content) in zip(rows, capture.messages, strict=True):
        expected = raw_message(settings, row, parts)
        assert expected.count(b"Content-ID: <") == row.html.count("cid:")
        assert DATE.sub(b"", content.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")) == (
            DATE.sub(b"", expected)
        )
