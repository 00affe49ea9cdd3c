"""Send raw messages over SMTP with aiosmtplib, classifying failures for the outbox retry logic.

:class:`TemporaryFailure` (connect errors, timeouts, disconnects, 4xx) means "retry later with
backoff"; :class:`PermanentFailure` (5xx, every recipient refused with 5xx) means "stop retrying
and tell the operator" (email-engineering notes C2). :class:`MemorySender` is the in-memory fake
for unit tests.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import aiosmtplib


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
    STARTTLS is upgraded automatically by aiosmtplib when *user* is set. Within
    ``async with sender:`` every `send` shares one SMTP session (a batch); a kept session the
    server has closed (its idle timeout) is reopened once.
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

    async def __aenter__(self) -> SmtpSender:
        self._reuse = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._reuse = False
        await self._drop()

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        """Send *raw* with envelope *sender*/*recipients*; raise a :class:`SendFailure`."""
        if not recipients:
            raise PermanentFailure("no recipients")
        try:
            if self._reuse:
                errors = await self._send_on_session(raw, sender, recipients)
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
        if errors:  # partial success: the accepted recipients got it, do not resend
            detail = "; ".join(f"{r}: {resp.code} {resp.message}" for r, resp in errors.items())
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
            "local_hostname": _local_hostname(),
        }

    async def _send_on_session(
        self, raw: bytes, sender: str, recipients: list[str]
    ) -> dict[str, Any]:
        """Send on the batch's open session; a kept session the server has closed is reopened once."""
        kept = self._conn is not None and self._conn.is_connected
        if not kept:
            await self._drop()
            self._conn = aiosmtplib.SMTP(**self._options())
            await self._conn.connect()
        assert self._conn is not None
        try:
            errors, _ = await self._conn.sendmail(sender, recipients, raw)
        except (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPResponseException):
            raise  # a refusal: aiosmtplib has reset the envelope, the session stays usable
        except aiosmtplib.SMTPServerDisconnected:
            await self._drop()
            if not kept:
                raise
            return await self._send_on_session(raw, sender, recipients)  # e.g. an idle timeout
        except BaseException:
            self._close()  # a session in an unknown state is never reused (no polite QUIT)
            raise
        return dict(errors)

    def _close(self) -> None:
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


@cache
def _local_hostname() -> str:
    """The name this machine greets with (EHLO), looked up once per process: aiosmtplib's own
    default (`socket.getfqdn`), which it would otherwise look up on a new thread per session."""
    return socket.getfqdn()


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


MailSender = SmtpSender | MemorySender
