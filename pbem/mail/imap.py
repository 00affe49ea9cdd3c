"""IMAP mailbox access (stub, being written)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fetched:
    uid: int
    uidvalidity: int
    raw: bytes


class ImapMailbox:
    def __init__(self, host: str, port: int, user: str, password: str, ssl: bool = False,
                 folder: str = "INBOX", processed: str = "Processed",
                 quarantine: str = "Quarantine") -> None:
        raise NotImplementedError


class MemoryMailbox:
    pass


Mailbox = ImapMailbox | MemoryMailbox
