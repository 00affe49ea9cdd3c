"""Mail in over LMTP: the site's MTA hands each mail to the worker, which queues it durably
before it answers "250" and wakes the worker pass at once.

`LmtpIntake` runs the LMTP listener (`pbem.mail.lmtp`) on ``PBEM_LMTP_HOST``:``PBEM_LMTP_PORT``
inside `pbem serve` (`pbem.worker.serve.serve_delivered`). It accepts the game address and
its plus-addresses; every other recipient gets 550. Each mail is committed as a `QueuedMail`
row (`pbem.worker.handover.queue_delivery`: routed to its game by its reply key, with the
same dedupe key as IMAP intake) and only then answered 250; a second delivery of the same
mail (the MTA retries after a lost "250") is answered 250 and not queued again, and the
pipeline's own dedupe records it once in any case. A full database answers 452, any other
failure to store 451: the MTA keeps the mail and retries. On SQLite the listener has its own
connections, each commit synced to disk (``synchronous=FULL``) before the 250.

After each stored mail the intake sets its `wake` event; the serve loop waits on it and runs
one worker pass (`pbem.worker.worker_pass`, without a fetch: it applies the queued mail),
the same pass as for IMAP.
"""

from __future__ import annotations

import logging
import threading
from types import TracebackType
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from pbem.config import Settings
from pbem.mail.lmtp import LmtpServer, Stored, game_recipient
from pbem.store.db import is_sqlite, make_engine
from pbem.worker.handover import queue_delivery

__all__ = ["MAILBOX", "LmtpIntake", "is_full", "store_delivery"]

log = logging.getLogger("pbem.worker.lmtp")

MAILBOX = "lmtp"  # the mailbox name LMTP mail is recorded under (IMAP mail: its folder)
SQLITE_FULL = 13  # sqlite3's "database or disk is full" (SQLITE_FULL)


def is_full(exc: BaseException) -> bool:
    """The database is out of room: SQLite's SQLITE_FULL (a full disk, or ``max_page_count``
    reached), PostgreSQL's "insufficient resources" (SQLSTATE class 53: disk full, out of
    memory, too many connections)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if getattr(orig, "sqlite_errorcode", None) == SQLITE_FULL:
        return True
    return str(getattr(orig, "sqlstate", "") or "").startswith("53")


def store_delivery(db: Engine, settings: Settings, raw: bytes) -> Stored:
    """Queue one delivered mail; what to answer the MTA (never raises)."""
    try:
        out = queue_delivery(db, settings, raw, MAILBOX)
    except Exception as exc:
        if is_full(exc):
            log.error("database full: refusing delivered mail with 452 (%s)", exc)
            return Stored.FULL
        log.warning("could not store delivered mail, answering 451: %s", exc)
        return Stored.FAILED
    return Stored.DUPLICATE if out.outcome == "duplicate" else Stored.STORED


def _durable_engine(db: Engine) -> Engine:
    """The listener's engine: SQLite with every commit synced to disk before it returns (the
    worker's own connections sync less often); PostgreSQL's commits are durable already."""
    if not is_sqlite(db):
        return db
    own = make_engine(db.url.render_as_string(hide_password=False))

    @event.listens_for(own, "connect")
    def _full_sync(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    return own


class LmtpIntake:
    """``with LmtpIntake(db, settings) as intake:`` the listener runs; ``intake.wake`` is set
    after every mail it stored."""

    def __init__(self, db: Engine, settings: Settings) -> None:
        self.settings = settings
        self.wake = threading.Event()
        self._db = _durable_engine(db)
        self._own_db = self._db is not db
        self._server = LmtpServer(
            settings.lmtp_host,
            settings.lmtp_port,
            game_recipient(settings.address),
            self._store,
            max_bytes=settings.max_bytes,
            hostname=settings.address_domain,
        )

    def _store(self, raw: bytes) -> Stored:
        stored = store_delivery(self._db, self.settings, raw)
        if stored is Stored.STORED:
            self.wake.set()
        return stored

    def __enter__(self) -> LmtpIntake:
        self._server.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.stop()
        if self._own_db:
            self._db.dispose()
