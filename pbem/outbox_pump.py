"""Sending while the next mail is processed: the outbox drained on a thread of its own.

Each committed mail queues its reports in the outbox (the transactional outbox, C2).
`OutboxPump` sends them from a second thread of the applying process — its own asyncio loop
and one session of any sender (e.g. `MemorySender` in tests; `pbem poll` uses
`pbem.outbox_process.OutboxProcess`, the same use with the work in a child process) — while
the main thread goes on to the next mail, so the SMTP round trips overlap the next mail's
parsing, rules and rendering instead of all coming after them. The main thread calls `nudge` after each committed mail.

The outbox semantics are `service.drain_outbox`'s, whose functions the pump calls: rows are
claimed before sending (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, ``BEGIN IMMEDIATE`` on
SQLite, with a lease), so this worker's two threads and other workers never send one row
twice; each sent row is marked in its own commit, so a crash resends at most the mail in
flight, with the same Message-ID; when the SMTP server cannot be reached the pump stops for
this run (one timeout per run) and the rows stay due. Leaving the ``with`` block sends what
is still due and joins the thread; `stats` is what `drain_outbox` would have returned.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import datetime
from types import TracebackType

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.outbox.send import Sender, SendStats, send_due, smtp_session
from pbem.store.models import utcnow

__all__ = ["OutboxPump"]


class OutboxPump:
    """``with OutboxPump(db, settings, sender) as pump: ... pump.nudge() ...``; then ``pump.stats``."""

    def __init__(
        self, db: Engine, settings: Settings, sender: Sender, *, now: datetime | None = None
    ) -> None:
        self.db = db
        self.settings = settings
        self.sender = sender
        self.now = now  # fixed only in tests; otherwise the clock is read before every claim
        self.stats = SendStats()
        self._wake = threading.Event()
        self._closing = False
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> OutboxPump:
        self._wake.set()  # rows already due (earlier failures, the clock work) go out at once
        self._thread = threading.Thread(target=self._run, name="pbem-outbox", daemon=True)
        self._thread.start()
        return self

    def nudge(self) -> None:
        """A mail was committed: its reports may be due."""
        self._wake.set()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._closing = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        if self._error is not None and exc is None:
            raise self._error

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # handed to the main thread at __exit__
            self._error = exc

    async def _main(self) -> None:
        async with smtp_session(self.sender):
            while True:
                self._wake.wait()  # nothing else runs on this loop: blocking here is fine
                self._wake.clear()
                closing = self._closing  # read before sending: a nudge during it is seen next round
                reachable = await send_due(
                    self.db, self.settings, self.sender, self.now or utcnow(), self.stats
                )
                if closing or not reachable:
                    return
