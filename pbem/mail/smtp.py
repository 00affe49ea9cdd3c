"""Send raw messages over SMTP with aiosmtplib, classifying failures for the outbox retry logic.

:class:`TemporaryFailure` (connect errors, timeouts, disconnects, 4xx) means "retry later with
backoff"; :class:`PermanentFailure` (5xx, every recipient refused with 5xx) means "stop retrying
and tell the operator" (email-engineering notes C2). :class:`MemorySender` is the in-memory fake
for unit tests.

On a kept session (``async with sender:``) a message already in transmission form (CRLF line
ends only, as `pbem.mail.compose.build_message` writes them) is sent by `_sendmail`, which is
aiosmtplib's ``sendmail`` without its three regular-expression passes over the whole message
(two line-end normalisations and the dot-stuffing, ~4 ms of CPU for a 68 KB report): the same
commands, the same bytes, the same exceptions. Any other message goes through ``sendmail``.
When the server offers PIPELINING (RFC 2920; Postfix does), MAIL, the RCPTs and DATA go in one
write and their replies are read in order (`_pipelined`): one round trip instead of two or
more, every refusal taken as the serial steps take it. `SmtpSender.send`'s ``meanwhile`` lets
the caller work (compose the next mail) while the server queues this one.
"""

from __future__ import annotations

import contextlib
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import aiosmtplib
from aiosmtplib.email import parse_address, quote_address
from aiosmtplib.protocol import COMMAND_INJECTION_REGEX


class SendFailure(Exception):
    """Base class: the message was not handed over to the SMTP server."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class TemporaryFailure(SendFailure):
    """Retry later (connection problems, timeouts, 4xx replies)."""


class PermanentFailure(SendFailure):
    """Do not retry (5xx replies: unknown recipient, message refused, auth refused)."""


class SmtpSender:
    """Hands messages to an SMTP server (a local MTA or a submission port).

    ``tls=True`` means implicit TLS on port 465; on any other port a server that offers
    STARTTLS is upgraded automatically by aiosmtplib when *user* is set.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str | None = None,
        password: str | None = None,
        tls: bool = False,
        timeout: float = 30.0,
    ) -> None:
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.tls = tls
        self.timeout = timeout
        self._reuse = False
        self._conn: aiosmtplib.SMTP | None = None
        # the current message's end of data ("." line) was written to the connection: from then
        # on the server may have accepted it (`pbem.outbox_process` waits for the reply then)
        self.end_of_data = False
        self._aborted = False  # `abort`: no more data goes out on this sender

    async def __aenter__(self) -> SmtpSender:
        """Within ``async with sender:`` every `send` shares one SMTP session (a batch)."""
        self._reuse = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._reuse = False
        await self._drop()

    async def send(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] | None = None,
    ) -> None:
        """Send *raw* with envelope *sender*/*recipients*; raise a :class:`SendFailure`.

        ``meanwhile`` is called (at most once) on a kept session when the message's end of data
        is written and before its reply is read: the poll's sending process composes its next
        mail while the server queues this one (`pbem.outbox_process._Orphan`). Not called when
        the message fails before its end of data, nor for a one-off send."""
        if not recipients:
            raise PermanentFailure("no recipients")
        self.end_of_data = False
        try:
            if self._reuse:
                errors = await self._send_on_session(raw, sender, recipients, _once(meanwhile))
            else:
                errors, _ = await aiosmtplib.send(
                    raw, sender=sender, recipients=recipients, **self._options()
                )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [r.code for r in exc.recipients]
            detail = "; ".join(f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients)
            if codes and all(400 <= c < 500 for c in codes):
                raise TemporaryFailure(f"recipients refused: {detail}", codes[0]) from exc
            raise PermanentFailure(f"recipients refused: {detail}", max(codes or [550])) from exc
        except aiosmtplib.SMTPResponseException as exc:
            cls = TemporaryFailure if 400 <= exc.code < 500 else PermanentFailure
            if exc.code < 400:
                cls = TemporaryFailure  # an unexpected 2xx/3xx where an answer was due
            raise cls(f"SMTP {exc.code}: {exc.message}", exc.code) from exc
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from exc
        refused = {rcpt: resp for rcpt, resp in errors.items()}
        if refused:  # partial success: the accepted recipients got it, do not resend
            detail = "; ".join(f"{r}: {resp.code} {resp.message}" for r, resp in refused.items())
            raise PermanentFailure(f"some recipients refused: {detail}")

    def _options(self) -> dict[str, Any]:
        return {
            "hostname": self.host,
            "port": self.port,
            "username": self.user or None,
            "password": self.password if self.user else None,
            "use_tls": self.tls,
            "start_tls": None if self.user else False,
            "timeout": self.timeout,
        }

    async def _send_on_session(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] = lambda: None,
    ) -> dict[str, Any]:
        """Send on the batch's open session; a kept session the server has closed is reopened once."""
        if self._aborted:
            raise aiosmtplib.SMTPServerDisconnected("the session was aborted")
        kept = self._conn is not None and self._conn.is_connected
        if not kept:
            await self._drop()
            self._conn = aiosmtplib.SMTP(**self._options())
            await self._conn.connect()
        assert self._conn is not None
        try:
            errors = await _sendmail(
                self._conn, sender, recipients, raw, self._data_written, meanwhile
            )
        except (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPResponseException):
            raise  # a refusal: aiosmtplib has reset the envelope, the session stays usable
        except aiosmtplib.SMTPServerDisconnected:
            await self._drop()
            if not kept:
                raise
            return await self._send_on_session(
                raw, sender, recipients, meanwhile
            )  # e.g. the server's idle timeout
        except BaseException:
            self._abort()  # a session in an unknown state is never reused (no polite QUIT)
            raise
        return dict(errors)

    def _data_written(self) -> None:
        if self._aborted:  # never the data and its end after `abort`
            raise aiosmtplib.SMTPServerDisconnected("the session was aborted")
        self.end_of_data = True

    def abort(self) -> None:
        """Drop the session at once with a TCP reset (``SO_LINGER`` 0): nothing still buffered
        is sent, and a server that has not seen the end of data discards the transaction. A
        send in progress fails (`TemporaryFailure`, no code) without reconnecting, and no
        message's data is written by this sender afterwards."""
        self._aborted = True
        transport = self._conn.transport if self._conn is not None else None
        if transport is None:
            return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        getattr(transport, "abort", transport.close)()

    def _abort(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and conn.is_connected:
            try:
                await conn.quit()
            except (aiosmtplib.SMTPException, OSError, TimeoutError):
                conn.close()


def _once(call: Callable[[], None] | None) -> Callable[[], None]:
    """``call`` made callable without arguments, and at most once (a kept session the server
    closed is reopened and the message sent again)."""
    if call is None:
        return lambda: None
    todo = [call]

    def once() -> None:
        if todo:
            todo.pop()()

    return once


def data_block(raw: bytes) -> bytes | None:
    """What aiosmtplib writes after DATA for ``raw`` (line ends normalised, lines starting with
    a dot doubled, the final dot line), when ``raw`` has CRLF line ends only; else None."""
    crlf = raw.count(b"\r\n")
    if crlf != raw.count(b"\n") or crlf != raw.count(b"\r") or not raw.endswith(b"\r\n"):
        return None
    stuffed = raw.replace(b"\r\n.", b"\r\n..")  # ``(?m)^\.``: every \n follows a \r here
    return (b"." if raw.startswith(b".") else b"") + stuffed + b".\r\n"


async def _sendmail(
    conn: aiosmtplib.SMTP,
    sender: str,
    recipients: list[str],
    raw: bytes,
    on_data: Callable[[], None] = lambda: None,
    meanwhile: Callable[[], None] = lambda: None,
) -> dict[str, aiosmtplib.SMTPResponse]:
    """``conn.sendmail(sender, recipients, raw)``'s recipient errors, for a ``raw`` in
    transmission form written as it is (`data_block`): aiosmtplib's steps in its order.
    ``on_data`` is called just before the data and its end are written (for another ``raw``,
    before ``sendmail``: when its data goes is not known, so it counts as written);
    ``meanwhile`` just after they are, before the reply is read (not for another ``raw``)."""
    block = data_block(raw)
    if block is None:
        on_data()
        errors, _ = await conn.sendmail(sender, recipients, raw)
        return dict(errors)
    for address in (sender, *recipients):
        parse_address(address)  # a bad address raises before anything is sent
    if conn.is_ehlo_or_helo_needed:
        try:
            await conn.ehlo()
        except aiosmtplib.SMTPHeloError:
            if not conn.is_connected:
                raise
            await conn.helo()
    options = [f"size={len(raw)}"] if conn.supports_extension("size") else []
    if conn.supports_extension("pipelining") and _pipelines(conn.protocol):
        return await _pipelined(conn, sender, recipients, options, block, on_data, meanwhile)
    try:
        await conn.mail(sender, options=options)
        refused: list[aiosmtplib.SMTPRecipientRefused] = []
        for address in recipients:
            try:
                await conn.rcpt(address)
            except aiosmtplib.SMTPRecipientRefused as exc:
                refused.append(exc)
        if len(refused) == len(recipients):
            raise aiosmtplib.SMTPRecipientsRefused(refused)
        await _data(conn, block, on_data, meanwhile)
    except (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused):
        with contextlib.suppress(ConnectionError, aiosmtplib.SMTPResponseException):
            await conn.rset()  # as sendmail: reset the envelope, quietly
        raise
    return {e.recipient: aiosmtplib.SMTPResponse(e.code, e.message) for e in refused}


async def _data(
    conn: aiosmtplib.SMTP,
    block: bytes,
    on_data: Callable[[], None] = lambda: None,
    meanwhile: Callable[[], None] = lambda: None,
) -> None:
    """aiosmtplib's DATA (``SMTP.data``, ``SMTPProtocol.execute_data_command``) for a ready
    `data_block`; ``meanwhile`` runs between writing it and reading the server's reply."""
    protocol = conn.protocol
    if protocol is None:
        raise aiosmtplib.SMTPServerDisconnected("Connection lost")
    try:
        start = await protocol.execute_command(b"DATA", timeout=conn.timeout)
        if start.code != aiosmtplib.SMTPStatus.start_input:
            raise aiosmtplib.SMTPDataError(start.code, start.message)
        on_data()
        protocol.write(block)
        meanwhile()  # synchronous: the reply waits in the socket until it is read here
        done = await protocol.read_response(timeout=conn.timeout)  # marks the reply expected
        if done.code != aiosmtplib.SMTPStatus.completed:
            raise aiosmtplib.SMTPDataError(done.code, done.message)
    except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError):
        conn.close()
        raise


PIPELINING_CHECKED = aiosmtplib.__version__.split(".")[0] == "5"  # `_Replies`' internals


def _pipelines(protocol: Any) -> bool:
    """Whether aiosmtplib's protocol has the parts `_Replies` uses, in the release they were
    checked with (5.x); any other release sends one command at a time, as before."""
    return PIPELINING_CHECKED and all(
        hasattr(protocol, name)
        for name in (
            "_buffer",
            "_read_response_from_buffer",
            "_response_pending",
            "_response_waiter",
            "read_response",
        )
    )


async def _pipelined(
    conn: aiosmtplib.SMTP,
    sender: str,
    recipients: list[str],
    options: list[str],
    block: bytes,
    on_data: Callable[[], None],
    meanwhile: Callable[[], None],
) -> dict[str, aiosmtplib.SMTPResponse]:
    """`_sendmail`'s MAIL, RCPTs and DATA written in one go (RFC 2920, the server offers
    PIPELINING), their replies read in order and taken as the serial steps would have: the
    same exceptions, RSET after a refused envelope, the data written only after a 354 to a
    DATA with an accepted recipient (a server answering 354 otherwise is dropped)."""
    protocol = conn.protocol
    if protocol is None:
        raise aiosmtplib.SMTPServerDisconnected("Server not connected")
    group = [[b"MAIL", b"FROM:" + quote_address(sender).encode("ascii")]]
    group[0] += [o.encode("ascii") for o in options]
    group += [[b"RCPT", b"TO:" + quote_address(r).encode("ascii")] for r in recipients]
    for args in group:
        if any(COMMAND_INJECTION_REGEX.search(arg) for arg in args):
            raise ValueError("Command arg contains a prohibited control character")
    replies = _Replies(conn, len(group) + 1)
    try:
        protocol.write(b"".join(b" ".join(args) + b"\r\n" for args in group) + b"DATA\r\n")
        mail = await replies.next()
        if mail.code != aiosmtplib.SMTPStatus.completed:
            raise aiosmtplib.SMTPSenderRefused(mail.code, mail.message, sender)
        refused: list[aiosmtplib.SMTPRecipientRefused] = []
        for address in recipients:
            reply = await replies.next()
            if reply.code not in (
                aiosmtplib.SMTPStatus.completed,
                aiosmtplib.SMTPStatus.will_forward,
            ):
                refused.append(aiosmtplib.SMTPRecipientRefused(reply.code, reply.message, address))
        if len(refused) == len(recipients):
            raise aiosmtplib.SMTPRecipientsRefused(refused)
        start = await replies.next()
        if start.code != aiosmtplib.SMTPStatus.start_input:
            raise aiosmtplib.SMTPDataError(start.code, start.message)
        on_data()
        protocol.write(block)
        meanwhile()  # synchronous: the reply waits in the socket until it is read here
        done = await protocol.read_response(timeout=conn.timeout)
        if done.code != aiosmtplib.SMTPStatus.completed:
            raise aiosmtplib.SMTPDataError(done.code, done.message)
    except (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused):
        await replies.rest()  # the group's other replies, before anything else is sent
        with contextlib.suppress(ConnectionError, aiosmtplib.SMTPResponseException):
            await conn.rset()  # as sendmail: reset the envelope, quietly
        raise
    except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError):
        conn.close()
        raise
    finally:
        replies.close()
    return {e.recipient: aiosmtplib.SMTPResponse(e.code, e.message) for e in refused}


class _Replies:
    """The replies to a group of pipelined commands, one by one, from aiosmtplib's protocol.

    The protocol parses one reply per arrival and drops bytes that come while a parsed reply
    waits to be taken (it expects one command at a time): while the group's replies are due,
    every byte is kept in its buffer, and a reply already there is taken from it. A 421
    closes the connection, as aiosmtplib does."""

    def __init__(self, conn: aiosmtplib.SMTP, count: int) -> None:
        protocol: Any = conn.protocol
        self.conn, self.protocol, self.left = conn, protocol, count
        protocol.data_received = self._received

    def _received(self, data: bytes) -> None:
        protocol = self.protocol
        waiter = protocol._response_waiter
        if waiter is None:
            return
        if protocol._response_pending and not waiter.done():
            type(protocol).data_received(protocol, data)
        else:
            protocol._buffer.extend(data)  # a later reply of the group: kept for its turn

    async def next(self) -> aiosmtplib.SMTPResponse:
        if self.left <= 0 or not self.conn.is_connected:
            raise aiosmtplib.SMTPServerDisconnected("Server not connected")
        self.left -= 1
        reply = self.protocol._read_response_from_buffer()
        if reply is None:
            reply = await self.protocol.read_response(timeout=self.conn.timeout)
        if reply.code == aiosmtplib.SMTPStatus.domain_unavailable:
            self.conn.close()
        return cast(aiosmtplib.SMTPResponse, reply)

    async def rest(self) -> None:
        """Read the replies still due; a 354 among them (data the server would take next) or
        no answer drops the connection."""
        try:
            while self.left > 0 and self.conn.is_connected:
                if (await self.next()).code == aiosmtplib.SMTPStatus.start_input:
                    self.conn.close()
        except (aiosmtplib.SMTPServerDisconnected, aiosmtplib.SMTPTimeoutError):
            self.conn.close()

    def close(self) -> None:
        with contextlib.suppress(AttributeError):
            del self.protocol.data_received  # the protocol's own again


@dataclass
class SentMessage:
    raw: bytes
    sender: str
    recipients: list[str]


@dataclass
class MemorySender:
    """Records messages instead of sending them. ``fail_with`` makes the next sends raise it
    (consumed one per call) so tests can exercise the retry logic."""

    sent: list[SentMessage] = field(default_factory=list)
    fail_with: list[SendFailure] = field(default_factory=list)

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        if self.fail_with:
            raise self.fail_with.pop(0)
        if not recipients:
            raise PermanentFailure("no recipients")
        self.sent.append(SentMessage(bytes(raw), sender, list(recipients)))

    async def send_overlapping(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] | None,
    ) -> None:
        """`send`, then ``meanwhile`` (as `SmtpSender.send`'s after the end of data)."""
        await self.send(raw, sender, recipients)
        if meanwhile is not None:
            meanwhile()


MailSender = SmtpSender | MemorySender
