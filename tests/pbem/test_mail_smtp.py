"""pbem.mail.smtp: SmtpSender against an in-process aiosmtpd, failure classes, MemorySender."""

from __future__ import annotations

import asyncio

import pytest

from pbem.mail import MemorySender, PermanentFailure, SmtpSender, TemporaryFailure
from tests.pbem.mailtools import Capture, free_port, report_mail


def test_send_delivers_raw_bytes_with_envelope(smtp_capture: tuple[Capture, int]) -> None:
    capture, port = smtp_capture
    raw = report_mail("game@example.test", "kim@example.org", 1)
    asyncio.run(
        SmtpSender("127.0.0.1", port).send(raw, "game+bounce-1@example.test", ["kim@example.org"])
    )
    assert len(capture.messages) == 1
    mail_from, rcpts, content = capture.messages[0]
    assert (mail_from, rcpts) == ("game+bounce-1@example.test", ["kim@example.org"])
    assert b"Message-ID: <report.game-1.seq-1@example.test>" in content


@pytest.mark.parametrize(
    ("rcpt", "error", "code"),
    [("tmp@example.org", TemporaryFailure, 451), ("bad@example.org", PermanentFailure, 550)],
)
def test_refused_recipients_are_classified(
    smtp_capture: tuple[Capture, int], rcpt: str, error: type[Exception], code: int
) -> None:
    _, port = smtp_capture
    with pytest.raises(error) as info:
        asyncio.run(
            SmtpSender("127.0.0.1", port).send(
                b"Subject: x\r\n\r\nx\r\n", "game@example.test", [rcpt]
            )
        )
    assert getattr(info.value, "code", None) == code


def test_connection_refused_is_temporary() -> None:
    sender = SmtpSender("127.0.0.1", free_port(), timeout=2)
    with pytest.raises(TemporaryFailure):
        asyncio.run(sender.send(b"Subject: x\r\n\r\nx\r\n", "game@example.test", ["a@b.org"]))


def test_no_recipients_is_permanent() -> None:
    with pytest.raises(PermanentFailure):
        asyncio.run(SmtpSender("127.0.0.1", 1).send(b"x", "game@example.test", []))


def test_memory_sender_records_and_fails_on_demand() -> None:
    sender = MemorySender(fail_with=[TemporaryFailure("later")])
    with pytest.raises(TemporaryFailure):
        asyncio.run(sender.send(b"raw", "game@example.test", ["a@b.org"]))
    asyncio.run(sender.send(b"raw", "game@example.test", ["a@b.org"]))
    assert [(m.raw, m.recipients) for m in sender.sent] == [(b"raw", ["a@b.org"])]
