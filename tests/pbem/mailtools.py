"""Test helpers for real mail servers: send through SMTP, wait for mail in IMAP, fresh addresses.

Used by ``tests/pbem/conftest.py`` (fixtures ``mailstack``, ``embedded_mail``, ``mail_server``)
and by any test that needs a message to travel SMTP → server → IMAP.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.config import Settings
from pbem.mail import Fetched, ImapMailbox, SmtpSender, build_message

DATA = Path(__file__).parent / "data"
# Real mail-client replies (read in place, never copied): ../shared/mail-corpus next to the repo.
CORPUS = Path(
    os.environ.get("PBEM_MAIL_CORPUS")
    or Path(__file__).resolve().parents[3] / "shared" / "mail-corpus"
)


@dataclass(frozen=True)
class MailServer:
    """Where a running SMTP+IMAP pair listens. ``kind`` is "mailstack" or "embedded".
    ``relay_lmtp_port``: the mailstack's Postfix relays ``relay_prefix``* addresses over LMTP
    to this port (``MAILSTACK_RELAY_LMTP_PORT``; 0: it does not). ``folder``: a mailstack's
    ``MAILSTACK_DIR`` ("" when unknown)."""

    kind: str
    host: str
    smtp_port: int
    imap_port: int
    domain: str
    password: str
    relay_lmtp_port: int = 0
    relay_prefix: str = "lmtp-"
    folder: str = ""  # a mailstack's MAILSTACK_DIR (its logs: postfix/maillog, dovecot.log)

    def fresh_address(self, prefix: str = "test") -> str:
        """A new mailbox address (both stacks accept any user in their domain)."""
        return f"{prefix}-{uuid.uuid4().hex[:10]}@{self.domain}"

    def relayed_address(self, prefix: str = "game") -> str:
        """A new address Postfix hands to the LMTP listener on ``relay_lmtp_port``."""
        return f"{self.relay_prefix}{prefix}-{uuid.uuid4().hex[:10]}@{self.domain}"

    def mailbox(self, address: str) -> ImapMailbox:
        return ImapMailbox(self.host, self.imap_port, address, self.password, timeout=15)

    def sender(self) -> SmtpSender:
        return SmtpSender(self.host, self.smtp_port, timeout=15)

    def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        asyncio.run(self.sender().send(raw, sender, recipients))

    def game_settings(self, database_url: str, secret: str, address: str = "") -> Settings:
        """Settings of a game server whose mailbox (*address*, a fresh one if empty) is here."""
        address = address or self.fresh_address("game")
        return Settings(
            database_url=database_url,
            address=address,
            secret=secret,
            imap_host=self.host,
            imap_port=self.imap_port,
            imap_user=address,
            imap_password=self.password,
            imap_ssl=False,
            smtp_host=self.host,
            smtp_port=self.smtp_port,
            smtp_tls=False,
        )

    def wait_for(self, address: str, count: int = 1, timeout: float = 15.0) -> list[Fetched]:
        """Poll *address*'s INBOX until it holds at least *count* messages; return them."""
        deadline = time.monotonic() + timeout
        with self.mailbox(address) as box:
            while True:
                found = box.fetch_new()
                if len(found) >= count or time.monotonic() > deadline:
                    return found
                time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(condition: Callable[[], bool], seconds: float, pause: float = 0.01) -> bool:
    """Look at ``condition`` every ``pause`` seconds until it holds or ``seconds`` have
    passed; its last value (for the caller to assert)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(pause)
    return condition()


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie waiting for its reaper; Linux)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


def free_ports(n: int) -> list[int]:
    """*n* different free loopback ports (held open together while chosen: separate
    `free_port` calls may return the same port twice)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def player_mail(
    sender: str,
    to: str,
    body: str,
    *,
    subject: str = "Re: [1960 #1] your move",
    message_id: str | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    """A plain player mail (no loop header, no Auto-Submitted), as a mail client sends it."""
    mid = message_id or f"<{uuid.uuid4().hex}@client.example.org>"
    lines = [
        f"From: Player <{sender}>",
        f"To: {to}",
        f"Subject: {subject}",
        f"Message-ID: {mid}",
        "Date: Sun, 29 Nov 2026 12:00:00 +0000",
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="utf-8"',
        "Content-Transfer-Encoding: 8bit",
    ]
    if in_reply_to:
        lines += [f"In-Reply-To: {in_reply_to}", f"References: {in_reply_to}"]
    head = "\r\n".join(lines) + "\r\n\r\n"
    return head.encode() + body.replace("\n", "\r\n").encode("utf-8")


def report_mail(sender: str, to: str, seq: int) -> bytes:
    """An outbound report as the server composes it."""
    return build_message(
        sender=sender,
        to=to,
        subject=f"[1960 #1] Turn {seq}",
        text=f"report {seq}\n",
        html=f"<p>report {seq}</p>",
        message_id=f"<report.game-1.seq-{seq}@example.test>",
    )


class Capture:
    """aiosmtpd handler: records messages; recipients starting with 'tmp'/'bad' get 451/550."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address.startswith("tmp"):
            return "451 4.3.0 try again later"
        if address.startswith("bad"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"
