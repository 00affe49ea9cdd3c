"""Embedded pure-Python mail servers for ``pbem demo`` and ``pbem serve --embedded``.

One background thread runs one asyncio loop holding:

* an IMAP4rev1 server: pymap's in-memory ``dict`` backend (UIDPLUS, MOVE, IDLE), with a login
  that accepts any user name and password and gives every address its own mailbox;
* an SMTP server (aiosmtpd) on the same loop that delivers every accepted message straight
  into the recipient's INBOX (plus-addresses go to the base mailbox, as Postfix/Dovecot do with
  ``recipient_delimiter = +``), adding ``Return-Path``, ``Delivered-To`` and a ``Received``
  trace line. Only addresses in *domain* are accepted (nothing is ever relayed).

No root, no apt, loopback only; all mail is lost on :meth:`EmbeddedMailServers.stop`.
Fidelity limits (notes A.2): no CONDSTORE/QRESYNC, custom keywords are dropped.
"""

from __future__ import annotations

import asyncio
import email.utils
import threading
import warnings
from collections.abc import Callable, Coroutine
from contextlib import AsyncExitStack
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, Session

from pbem.mail.embedded_imap import start_imap

START_TIMEOUT = 15.0
# aiosmtpd 1.4 sets its own deprecated Session.login_data on every successful AUTH.
warnings.filterwarnings("ignore", message="Session.login_data is deprecated")


class EmbeddedMailServers:
    """Start/stop a local SMTP + IMAP pair; ``smtp_port``/``imap_port`` 0 = pick free ports."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        smtp_port: int = 0,
        imap_port: int = 0,
        domain: str = "example.test",
    ) -> None:
        self.host = host
        self.smtp_port = smtp_port
        self.imap_port = imap_port
        self.domain = domain.lower()
        self.delivered = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._deliver: Callable[[str, bytes], Coroutine[Any, Any, None]] | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def __enter__(self) -> EmbeddedMailServers:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start both servers; returns once both accept connections (ports are then set)."""
        if self._thread is not None:
            raise RuntimeError("already started")
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="pbem-embedded-mail", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT):
            raise RuntimeError("embedded mail servers did not start in time")
        if self._error is not None:
            self._thread.join(5)
            self._thread = None
            raise RuntimeError(f"embedded mail servers failed: {self._error}") from self._error

    def stop(self) -> None:
        """Stop both servers and the thread (idempotent)."""
        loop, stop, thread = self._loop, self._stop, self._thread
        if thread is None:
            return
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        self._thread = None

    @property
    def address_note(self) -> str:
        """One line for humans: where to point a mail client."""
        return (
            f"SMTP {self.host}:{self.smtp_port}, IMAP {self.host}:{self.imap_port} "
            f"(no TLS; any user name = your address @{self.domain}, any password)"
        )

    def deliver(self, recipient: str, raw: bytes) -> None:
        """Put *raw* into *recipient*'s INBOX directly (no SMTP), thread-safe."""
        if self._loop is None or self._deliver is None:
            raise RuntimeError("not started")
        future = asyncio.run_coroutine_threadsafe(self._deliver(recipient, raw), self._loop)
        future.result(10)

    # -- the loop thread ---------------------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to start() if it happens before ready
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with AsyncExitStack() as stack:
            self.imap_port, self._deliver = await start_imap(stack, self.host, self.imap_port)
            handler = _DeliveryHandler(self)
            server = await self._loop.create_server(
                lambda: SMTP(
                    handler,
                    hostname=f"mx.{self.domain}",
                    ident="pbem embedded SMTP",
                    data_size_limit=10 * 1024 * 1024,
                    auth_required=False,
                    auth_require_tls=False,
                    authenticator=_accept_any_login,
                ),
                host=self.host,
                port=self.smtp_port,
            )
            stack.push_async_callback(server.wait_closed)
            stack.callback(server.close)
            self.smtp_port = int(server.sockets[0].getsockname()[1])
            self._ready.set()
            await self._stop.wait()


def _accept_any_login(*_: Any) -> AuthResult:
    return AuthResult(success=True)


class _DeliveryHandler:
    """aiosmtpd handler: accept our domain's recipients, deliver each into its INBOX."""

    def __init__(self, servers: EmbeddedMailServers) -> None:
        self.servers = servers

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        domain = address.rpartition("@")[2].lower()
        if domain != self.servers.domain:
            return "550 5.7.1 relaying denied (embedded test server)"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
    ) -> str:
        deliver = self.servers._deliver
        content = envelope.original_content or b""
        if deliver is None:
            return "451 4.3.0 mailbox not ready"
        stamp = email.utils.format_datetime(datetime.now(UTC))
        for rcpt in envelope.rcpt_tos:
            trace = (
                f"Return-Path: <{envelope.mail_from or ''}>\r\n"
                f"Delivered-To: {rcpt}\r\n"
                f"Received: from {session.host_name or 'unknown'} by mx.{self.servers.domain}"
                f" (pbem embedded) for <{rcpt}>; {stamp}\r\n"
            ).encode("utf-8", "replace")
            await deliver(rcpt, trace + content)
            self.servers.delivered += 1
        return "250 2.0.0 delivered"
