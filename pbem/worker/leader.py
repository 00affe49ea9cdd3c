"""IMAP leadership among workers sharing one PostgreSQL: one fetches, all apply and send.

Several `pbem poll`/`serve` workers (on several machines) may share one database and one
mailbox. Only one at a time reads the IMAP INBOX: the holder of a PostgreSQL session-level
advisory lock (`pg_try_advisory_lock`) taken on a connection of its own. The lock is tied to
that connection, so a worker that crashes or loses the network hands leadership over by
itself (the server drops the session). The others skip the fetch and still drain the outbox
(rows are claimed with ``FOR UPDATE SKIP LOCKED``, so each is sent once). On SQLite there is
one machine and the run lock file already excludes overlapping workers: `ImapLeader` is
always the leader there.

`pbem poll` takes leadership for one run (``with ImapLeader(...)``). `pbem serve` holds it for
as long as it lives: `acquire` (try, keep the lock if got), `holds` (is the lock's session
still alive?) and `release`; a standby worker retries `acquire` every few seconds and so takes
over within that time of the leader's death.
"""

from __future__ import annotations

import hashlib
from contextlib import suppress
from types import TracebackType
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.db import is_sqlite

__all__ = ["ImapLeader", "leader_key", "mailbox_of"]


def leader_key(mailbox: str) -> int:
    """A stable 63-bit advisory-lock key for one mailbox (user@host:port/folder)."""
    return int.from_bytes(hashlib.sha256(f"pbem-imap:{mailbox}".encode()).digest()[:8], "big") >> 1


def mailbox_of(settings: Settings) -> str:
    """The name the workers of one mailbox agree on (the lock key is derived from it)."""
    return f"{settings.imap_user}@{settings.imap_host}:{settings.imap_port}/INBOX"


class ImapLeader:
    """``with ImapLeader(db, mailbox) as lead: if lead.is_leader: ...fetch...``"""

    def __init__(self, db: Engine, mailbox: str) -> None:
        self.db = db
        self.key = leader_key(mailbox)
        self.is_leader = False
        self._conn: Any = None

    def __enter__(self) -> ImapLeader:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def acquire(self) -> bool:
        """Try (without waiting) to become the leader; True if this worker leads now."""
        if self.is_leader and self.holds():
            return True
        if is_sqlite(self.db):
            self.is_leader = True
            return True
        self._close()
        self._conn = self.db.connect()
        try:
            got = self._conn.execute(
                text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key}
            ).scalar()
            self._conn.commit()
        except Exception:
            self._close()
            raise
        self.is_leader = bool(got)
        if not self.is_leader:
            self._close()
        return self.is_leader

    def holds(self) -> bool:
        """Still the leader? False once the lock's session is gone (then `acquire` again)."""
        if not self.is_leader:
            return False
        if self._conn is None:
            return True  # SQLite
        try:
            self._conn.execute(text("SELECT 1")).scalar()
            self._conn.commit()
            return True
        except Exception:  # the session died, and the server released its lock with it
            self._close()
            self.is_leader = False
            return False

    def release(self) -> None:
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
            with suppress(Exception):  # a dead connection may fail to close; gone either way
                conn.close()
