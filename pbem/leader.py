"""IMAP leadership among workers sharing one PostgreSQL: one fetches, all apply and send.

Several `pbem poll`/`serve` workers (on several machines) may share one database and one
mailbox. Only one at a time reads the IMAP INBOX: the holder of a PostgreSQL session-level
advisory lock (`pg_try_advisory_lock`) taken on a connection of its own. The lock is tied to
that connection, so a worker that crashes or loses the network hands leadership over by
itself (the server drops the session). The others skip the fetch and still drain the outbox
(rows are claimed with ``FOR UPDATE SKIP LOCKED``, so each is sent once). On SQLite there is
one machine and the run lock file already excludes overlapping workers: `ImapLeader` is
always the leader there.
"""

from __future__ import annotations

import hashlib
from types import TracebackType
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

from pbem.db import is_sqlite

__all__ = ["ImapLeader", "leader_key"]


def leader_key(mailbox: str) -> int:
    """A stable 63-bit advisory-lock key for one mailbox (user@host:port/folder)."""
    return int.from_bytes(hashlib.sha256(f"pbem-imap:{mailbox}".encode()).digest()[:8], "big") >> 1


class ImapLeader:
    """``with ImapLeader(db, mailbox) as lead: if lead.is_leader: ...fetch...``"""

    def __init__(self, db: Engine, mailbox: str) -> None:
        self.db = db
        self.key = leader_key(mailbox)
        self.is_leader = False
        self._conn: Any = None

    def __enter__(self) -> ImapLeader:
        if is_sqlite(self.db):
            self.is_leader = True
            return self
        self._conn = self.db.connect()
        got = self._conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key}).scalar()
        self._conn.commit()
        self.is_leader = bool(got)
        if not self.is_leader:
            self._close()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._conn is not None and self.is_leader:
            try:
                self._conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": self.key})
                self._conn.commit()
            except Exception:  # the connection is gone: the server released the lock already
                pass
        self._close()
        self.is_leader = False

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
