"""pbem.mail.smtp: SmtpSender against an in-process aiosmtpd, failure classes, MemorySender."""

from __future__ import annotations

import asyncio
import re
from typing import Any

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
    after a refused MAIL, RCPT and DATA → 503; DATA without an accepted recipient → 554.

    ``pipelining``: it offers PIPELINING and, as Postfix, holds its replies while more input
    is there (RFC 2920), then writes them one by one (separate segments); ``flushes``: the
    verbs of the commands answered at each flush."""

    def __init__(self, pipelining: bool = False, eager: bool = False) -> None:
        self.received = bytearray()
        self.port = free_port()
        self.pipelining = pipelining
        self.eager = eager  # DATA → 354 whatever the envelope; RCPT ``gone@`` → 421, hang up
        self.flushes: list[list[bytes]] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 recorder\r\n")
        rcpts: list[bytes] = []
        held: list[bytes] = []
        verbs: list[bytes] = []
        mail_ok = False

        async def answer(reply: bytes, flush: bool = False) -> None:
            held.append(reply)
            verbs.append(line[:4].upper())
            if self.pipelining and reader._buffer and not flush:  # type: ignore[attr-defined]
                return  # more commands are in: their replies go together
            self.flushes.append(verbs[:])
            for one in held:
                writer.write(one)
                await writer.drain()
                await asyncio.sleep(0.002)
            held.clear()
            verbs.clear()

        while line := await reader.readline():
            self.received += line
            verb = line[:4].upper()
            if verb == b"EHLO":
                offer = b"250-PIPELINING\r\n" if self.pipelining else b""
                reply = b"250-recorder\r\n" + offer + b"250-SIZE 10000000\r\n250 8BITMIME\r\n"
            elif verb == b"MAIL":
                mail_ok = b"mailbad@" not in line
                reply = b"250 ok\r\n" if mail_ok else b"553 no\r\n"
                rcpts = []
            elif verb == b"RCPT" and self.eager and b"<gone" in line:
                await answer(b"421 closing\r\n", flush=True)
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


def _conversation(
    monkeypatch: pytest.MonkeyPatch,
    plain: bool,
    meanwhile: list[str] | None = None,
    pipelining: bool = False,
) -> tuple[bytes, list[str]]:
    """The bytes a kept session writes for the cases below, and their outcomes. ``meanwhile``:
    sent with a ``meanwhile`` that appends to it when `SmtpSender.send` calls it
    (the end of data written, the reply not read). ``pipelining``: the server offers it."""
    import pbem.mail.smtp as smtp

    if plain:  # aiosmtplib's own sendmail, as before `_sendmail`

        async def sendmail(conn: Any, sender: str, rcpts: list[str], raw: bytes, *_: Any) -> Any:
            errors, _ = await conn.sendmail(sender, rcpts, raw)
            return dict(errors)

        monkeypatch.setattr(smtp, "_sendmail", sendmail)
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
    recorder = _Recorder(pipelining)
    outcomes: list[str] = []

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server, SmtpSender("127.0.0.1", recorder.port, timeout=5) as sender:
            for i, raw_rcpts in enumerate(cases):
                raw, rcpts = raw_rcpts

                def note(i: int = i) -> None:
                    assert meanwhile is not None and sender.end_of_data
                    assert len(outcomes) == i  # the reply is not read yet
                    meanwhile.append(str(i))

                try:
                    if meanwhile is None:
                        await sender.send(raw, "game@example.test", rcpts)
                    else:
                        await sender.send(raw, "game@example.test", rcpts, note)
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


def test_a_kept_session_sends_what_aiosmtplib_sendmail_sends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the session writes the message itself (no regular expressions over 68 KB): same bytes
    # on the wire, same classification of every failure, as aiosmtplib's sendmail
    with monkeypatch.context() as m:
        expected, expected_outcomes = _conversation(m, plain=True)
    got, outcomes = _conversation(monkeypatch, plain=False)
    assert got == expected
    assert outcomes == expected_outcomes
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


def test_data_block_is_aiosmtplib_normalised_and_dot_stuffed() -> None:
    import random

    from aiosmtplib.protocol import PERIOD_REGEX, normalize_message_line_endings

    from pbem.mail.smtp import data_block

    rng = random.Random(5)
    for _ in range(3000):
        raw = bytes(rng.choice(b"a.\r\n") for _ in range(rng.randrange(0, 12)))
        block = data_block(raw)
        normal = normalize_message_line_endings(raw)
        if block is not None:
            assert block == PERIOD_REGEX.sub(b"..", normal) + b".\r\n"
            assert normal == raw  # only messages in transmission form take the fast way
        else:
            assert normal != raw


def test_meanwhile_runs_once_the_end_of_data_is_written_and_before_its_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the outbox composes its next mail while the server queues this one: the same bytes on
    # the wire and the same outcomes as `send`; called once per mail whose end of data was
    # written (also the one refused after it, 554), never for a refused envelope nor for a
    # message not in transmission form (3: aiosmtplib's sendmail writes it)
    with monkeypatch.context() as m:
        expected, expected_outcomes = _conversation(m, plain=False)
    calls: list[str] = []
    got, outcomes = _conversation(monkeypatch, plain=False, meanwhile=calls)
    assert (got, outcomes) == (expected, expected_outcomes)
    assert calls == ["0", "1", "2", "4", "8", "9"]


def test_pipelined_envelopes_are_taken_as_the_serial_steps_would_have(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # RFC 2920: MAIL, RCPT and DATA in one write, the replies in order (held by the server
    # until the DATA, then in separate segments): the same outcome for every case, refusals
    # at each step included; on the wire the same, plus what the serial steps leave out
    # after a refusal (the DATA after refused recipients, RCPT and DATA after a refused MAIL)
    with monkeypatch.context() as m:
        serial, serial_outcomes = _conversation(m, plain=False)
    calls: list[str] = []
    got, outcomes = _conversation(monkeypatch, plain=False, meanwhile=calls, pipelining=True)
    assert outcomes == serial_outcomes
    assert calls == ["0", "1", "2", "4", "8", "9"]
    import difflib

    before, after = serial.splitlines(keepends=True), got.splitlines(keepends=True)
    added: list[bytes] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
        None, before, after, autojunk=False
    ).get_opcodes():
        assert op in ("equal", "insert"), (before[i1:i2], after[j1:j2])
        added += after[j1:j2] if op == "insert" else []
    assert added == [b"DATA\r\n", b"DATA\r\n", b"RCPT TO:<kim@example.org>\r\n", b"DATA\r\n"]
    assert b"MAIL FROM:<game@example.test> size=" in got and got.count(b"RSET\r\n") == 5


def test_a_server_offering_pipelining_gets_the_envelope_in_one_write() -> None:
    # one write, one round trip for MAIL, both RCPTs and DATA; then the data and its reply
    recorder = _Recorder(pipelining=True)
    raw = report_mail("game@example.test", "kim@example.org", 1)

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server, SmtpSender("127.0.0.1", recorder.port, timeout=3) as sender:
            await sender.send(raw, "game@example.test", ["kim@example.org", "ann@example.org"])
            await sender.send(raw, "game@example.test", ["ann@example.org"])

    asyncio.run(go())
    assert recorder.received.count(b"\r\n.\r\n") == 2
    envelope = [b"MAIL", b"RCPT", b"RCPT", b"DATA"]
    assert recorder.flushes[1:5] == [envelope, [b"DATA"], [b"MAIL", b"RCPT", b"DATA"], [b"DATA"]]


def test_an_aiosmtplib_release_not_checked_sends_one_command_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `_Replies` drives aiosmtplib's protocol internals, checked with 5.x only: another
    # release offered PIPELINING by the server still sends MAIL, RCPT and DATA one by one
    import pbem.mail.smtp as smtp

    monkeypatch.setattr(smtp, "PIPELINING_CHECKED", False)
    recorder = _Recorder(pipelining=True)
    raw = report_mail("game@example.test", "kim@example.org", 1)

    async def go() -> None:
        server = await asyncio.start_server(recorder.serve, "127.0.0.1", recorder.port)
        async with server, SmtpSender("127.0.0.1", recorder.port, timeout=3) as sender:
            await sender.send(raw, "game@example.test", ["kim@example.org"])

    asyncio.run(go())
    assert recorder.received.count(b"\r\n.\r\n") == 1
    assert recorder.flushes[1:5] == [[b"MAIL"], [b"RCPT"], [b"DATA"], [b"DATA"]]


@pytest.mark.parametrize("pipelining", [False, True])
def test_a_354_without_an_accepted_recipient_or_a_421_loses_no_mail_and_sends_no_data(
    pipelining: bool,
) -> None:
    # a server that answers DATA with 354 though no recipient was accepted (pipelined, the
    # DATA went before the refusals were known) gets no data: the session is dropped; a 421
    # closes it; the next mail goes on a new session; the outcomes are the serial ones
    recorder = _Recorder(pipelining=pipelining, eager=True)
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
    assert recorder.received.count(b"EHLO") == (3 if pipelining else 2)
