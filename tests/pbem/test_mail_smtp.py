"""pbem.mail.smtp: SmtpSender against an in-process aiosmtpd, failure classes, MemorySender."""

from __future__ import annotations

import asyncio
import re
import socket

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


class _Recorder:
    """A scripted SMTP server on a free port that records every byte a client writes to it:
    MAIL from ``mailbad@`` → 553, RCPT ``tmp@`` → 451, ``bad@`` → 550, DATA while the envelope
    has ``late@`` → 451 instead of 354, a message holding ``X-Refuse`` → 554 after its data;
    after a refused MAIL, RCPT and DATA → 503; DATA without an accepted recipient → 554."""

    def __init__(self, eager: bool = False) -> None:
        self.received = bytearray()
        self.port = free_port()
        self.eager = eager  # DATA → 354 whatever the envelope; RCPT ``gone@`` → 421, hang up

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 recorder\r\n")
        rcpts: list[bytes] = []
        mail_ok = False

        async def answer(reply: bytes) -> None:
            writer.write(reply)
            await writer.drain()

        while line := await reader.readline():
            self.received += line
            verb = line[:4].upper()
            if verb == b"EHLO":
                reply = b"250-recorder\r\n250-SIZE 10000000\r\n250 8BITMIME\r\n"
            elif verb == b"MAIL":
                mail_ok = b"mailbad@" not in line
                reply = b"250 ok\r\n" if mail_ok else b"553 no\r\n"
                rcpts = []
            elif verb == b"RCPT" and self.eager and b"<gone" in line:
                await answer(b"421 closing\r\n")
                break
            elif verb == b"RCPT" and not mail_ok:
                reply = b"503 need MAIL\r\n"
            elif verb == b"RCPT":
                reply = b"250 ok\r\n"
                if b"<tmp" in line:
                    reply = b"451 later\r\n"
                elif b"<bad" in line:
                    reply = b"550 unknown\r\n"
                else:
                    rcpts.append(line)
            elif verb == b"DATA" and self.eager:
                await answer(b"354 go\r\n")
                try:
                    data = await reader.readuntil(b"\r\n.\r\n")
                except asyncio.IncompleteReadError:
                    break  # the client hung up instead
                self.received += data
                reply = b"250 queued\r\n"
            elif verb == b"DATA" and not mail_ok:
                reply = b"503 need MAIL\r\n"
            elif verb == b"DATA" and not rcpts:
                reply = b"554 no valid recipients\r\n"
            elif verb == b"DATA" and any(b"<late" in r for r in rcpts):
                reply = b"451 not now\r\n"
            elif verb == b"DATA":
                await answer(b"354 go\r\n")
                data = await reader.readuntil(b"\r\n.\r\n")
                self.received += data
                reply = b"554 refused\r\n" if b"X-Refuse" in data else b"250 queued\r\n"
                mail_ok = False
            elif verb == b"QUIT":
                await answer(b"221 bye\r\n")
                break
            else:
                reply = b"250 ok\r\n"
                mail_ok = mail_ok and verb != b"RSET"
            await answer(reply)
        writer.close()


def _conversation() -> tuple[bytes, list[str]]:
    """The bytes a kept session writes for the cases below, and their outcomes."""
    report = report_mail("game@example.test", "kim@example.org", 1)
    report = re.sub(rb"\r\nDate: [^\r]*", b"\r\nDate: Tue, 01 Dec 2026 21:00:00 GMT", report)
    dotted = report.replace(b"\r\n\r\n", b"\r\n\r\n.leading dot\r\n..two\r\n", 1)
    cases = [
        (report, ["kim@example.org"]),
        (dotted, ["kim@example.org"]),
        (b".starts with a dot\r\n.\r\nend\r\n", ["kim@example.org"]),
        (b"Subject: bare LF\n\n.dot\nbody\r\nmixed\rend", ["kim@example.org"]),
        (report, ["kim@example.org", "bad@example.org"]),  # partial: permanent, not resent
        (report, ["tmp@example.org"]),
        (report, ["bad@example.org", "tmp@example.org"]),
        (report, ["late@example.org"]),
        (report.replace(b"\r\n\r\n", b"\r\nX-Refuse: 1\r\n\r\n", 1), ["kim@example.org"]),
        (report, ["kim@example.org"]),
    ]
    recorder = _Recorder()
    outcomes: list[str] = []

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server, SmtpSender("127.0.0.1", recorder.port, timeout=5) as sender:
            for raw, rcpts in cases:
                try:
                    await sender.send(raw, "game@example.test", rcpts)
                    outcomes.append("sent")
                except (TemporaryFailure, PermanentFailure) as exc:
                    outcomes.append(f"{type(exc).__name__} {exc.code} {exc}")
            with pytest.raises(ValueError):  # a bad address: nothing sent
                await sender.send(
                    report, "game@example.test", ["kim@example.org", "a b@example.org"]
                )
            await sender.send(report, "mailbad@example.test", ["kim@example.org"])

    with pytest.raises(PermanentFailure, match="553"):
        asyncio.run(go())
    return bytes(recorder.received), outcomes


def test_a_kept_session_sends_every_mail_and_classifies_every_failure() -> None:
    # aiosmtplib's sendmail on one session: dot-stuffed data, a refusal leaves the session
    # usable, every failure classified for the retry logic
    expected, outcomes = _conversation()
    assert expected.count(b"size=") == 11 and b"\r\n..leading dot\r\n...two\r\n" in expected
    assert outcomes[0] == outcomes[1] == outcomes[2] == outcomes[3] == "sent"
    assert outcomes[4].startswith("PermanentFailure None some recipients refused")
    assert outcomes[5:9] == [
        "TemporaryFailure 451 recipients refused: tmp@example.org: 451 later",
        "PermanentFailure 550 recipients refused: bad@example.org: 550 unknown; "
        "tmp@example.org: 451 later",
        "TemporaryFailure 451 SMTP 451: not now",
        "PermanentFailure 554 SMTP 554: refused",
    ]


def test_a_refused_envelope_or_a_421_loses_no_mail_and_sends_no_data() -> None:
    # every recipient refused: no data goes; a 421 closes the session; the next mail goes on
    # a new session
    recorder = _Recorder(eager=True)
    raw = report_mail("game@example.test", "kim@example.org", 1)
    outcomes: list[str] = []

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server, SmtpSender("127.0.0.1", recorder.port, timeout=3) as sender:
            for rcpts in (["tmp@example.org"], ["kim@example.org"], ["gone@example.org"]):
                try:
                    await sender.send(raw, "game@example.test", rcpts)
                    outcomes.append("sent")
                except (TemporaryFailure, PermanentFailure) as exc:
                    outcomes.append(f"{type(exc).__name__} {exc.code}")
            await sender.send(raw, "game@example.test", ["kim@example.org"])
            outcomes.append("sent")

    asyncio.run(go())
    assert outcomes == ["TemporaryFailure 451", "sent", "TemporaryFailure 421", "sent"]
    assert recorder.received.count(b"\r\n.\r\n") == 2  # the two sent, nothing else
    assert recorder.received.count(b"EHLO") == 2


def test_every_session_greets_with_this_machines_name() -> None:
    # the EHLO name is aiosmtplib's own default (the fully qualified name), on every session
    recorder = _Recorder()
    raw = report_mail("game@example.test", "kim@example.org", 1)

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server:
            sender = SmtpSender("127.0.0.1", recorder.port, timeout=5)
            await sender.send(raw, "game@example.test", ["kim@example.org"])
            async with sender:
                await sender.send(raw, "game@example.test", ["kim@example.org"])

    asyncio.run(go())
    greeting = f"EHLO {socket.getfqdn()}\r\n".encode()
    assert recorder.received.count(b"EHLO") == recorder.received.count(greeting) == 2
