"""An LMTP server (RFC 2033) for the mail the site's MTA hands over: aiosmtpd's `LMTP`, public API.

`LmtpServer` runs aiosmtpd's `LMTP` protocol on its own thread and event loop (aiosmtpd's
`Controller`, whose documented `factory` hook picks the protocol). Every ``RCPT TO`` is asked
of ``accepts(address)``: an address that is not ours gets ``550`` at once. After ``DATA`` the
message, with ``Return-Path`` and one ``Delivered-To`` per accepted recipient prepended (as a
delivering MTA does, so the envelope's plus-address reaches the reader), goes to
``store(raw)`` on a worker thread; ``store`` makes it durable and answers with a `Stored`,
which becomes the reply for every recipient (RFC 2033 §4.2: one reply per accepted RCPT):
``250`` once stored (or already stored before), ``452`` when the store is full, ``451`` when
it could not store for another reason. Either 4xx leaves the mail with the MTA, which
retries it later; ``store`` raising counts as ``451``. The ``SIZE`` the server announces is
``max_bytes``, so an MTA never sends a larger mail (it returns it to its sender).
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable
from contextlib import suppress
from types import TracebackType
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session

__all__ = ["ListenError", "LmtpServer", "Stored", "game_recipient"]

log = logging.getLogger("pbem.mail.lmtp")

READY_TIMEOUT = 15.0  # seconds for the listener to come up (a busy machine is slow)
UNKNOWN = "550 5.1.1 No such user here"


class ListenError(OSError):
    """The listener could not start (the address is taken, or not this machine's)."""


class Stored(enum.Enum):
    """What became of one delivered mail; the value is the LMTP reply for each recipient."""

    STORED = "250 2.0.0 Ok: stored"
    DUPLICATE = "250 2.0.0 Ok: stored before"
    FULL = "452 4.3.1 Insufficient system storage, try again later"
    FAILED = "451 4.3.0 Could not store the mail, try again later"


def game_recipient(game_address: str) -> Callable[[str], bool]:
    """A test for RCPT addresses: the game address itself or one of its plus-addresses
    (``game+anything@domain``), compared without regard to case."""
    local, _, domain = game_address.lower().partition("@")

    def accepts(address: str) -> bool:
        a_local, at, a_domain = address.lower().rpartition("@")
        if not at or a_domain != domain:
            return False
        return a_local == local or a_local.startswith(local + "+")

    return accepts


class _Handler:
    """aiosmtpd handler hooks: RCPT checks the address, DATA stores and answers per recipient."""

    def __init__(self, accepts: Callable[[str], bool], store: Callable[[bytes], Stored]) -> None:
        self.accepts = accepts
        self.store = store

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if not self.accepts(address):
            return UNKNOWN
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 Ok"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        body = envelope.original_content or b""
        trace = f"Return-Path: <{envelope.mail_from or ''}>\r\n" + "".join(
            f"Delivered-To: {rcpt}\r\n" for rcpt in envelope.rcpt_tos
        )
        raw = trace.encode("utf-8", "replace") + body
        loop = asyncio.get_running_loop()
        try:
            stored = await loop.run_in_executor(None, self.store, raw)
        except Exception:
            log.exception("could not store a delivered mail; the MTA will retry it")
            stored = Stored.FAILED
        return "\r\n".join(stored.value for _ in envelope.rcpt_tos)


class _LmtpController(Controller):
    """aiosmtpd's threaded controller serving LMTP instead of SMTP (its `factory` hook)."""

    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


class LmtpServer:
    """``with LmtpServer(host, port, accepts, store, max_bytes=...):`` listens until the block
    ends; ``port`` must be a fixed port (aiosmtpd checks the listener by connecting to it)."""

    def __init__(
        self,
        host: str,
        port: int,
        accepts: Callable[[str], bool],
        store: Callable[[bytes], Stored],
        *,
        max_bytes: int,
        hostname: str | None = None,
    ) -> None:
        self.host, self.port = host, port
        kwargs: dict[str, Any] = {"data_size_limit": max_bytes, "ready_timeout": READY_TIMEOUT}
        if hostname:
            kwargs["server_hostname"] = hostname
        self._controller = _LmtpController(
            _Handler(accepts, store), hostname=host, port=port, **kwargs
        )

    def start(self) -> None:
        try:
            self._controller.start()
        except (OSError, TimeoutError) as exc:
            with suppress(Exception):  # the loop it made for its thread, which never ran
                self._controller.loop.close()
            raise ListenError(f"cannot listen for LMTP on {self.host}:{self.port}: {exc}") from exc

    def stop(self) -> None:
        self._controller.stop()

    def __enter__(self) -> LmtpServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
