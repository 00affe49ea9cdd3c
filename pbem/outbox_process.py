"""`pbem poll`'s outbox in a process of its own: claims, pictures, SMTP and marks off the
applying process.

`pbem poll` applies the inbox one mail per transaction; each committed mail queues its reports
in the outbox (the transactional outbox, C2). `OutboxProcess` sends them while the next mail is
processed, from a child process (a fork of the poll where that is safe, which has the modules
imported already: `pbem.send_process.spawn`, `_fork_safe`; else ``python -m
pbem.outbox_process``) that runs the outbox's own code, `pbem.outbox.send.send_due`, on its own
database engine (the Settings it gets carry the URL) with a real `SmtpSender`: it claims the
rows (lease, ``claimed_by`` = the child's own process, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite), loads their pictures, composes and sends them on one SMTP
session and marks each sent row in its own commit; retry, backoff, failed and "unreachable:
stop for this run" are `send_due`'s. The applying process
only says "a mail was committed" (`nudge`: a few bytes on a socket) and, when leaving the
``with`` block, asks the child to send what is still due and waits for its totals (`stats`, what
`outbox_send.drain_outbox` would have returned), so the poll's summary and exit code are as before.
The child starts at the first nudge, or on entering or leaving when rows are due, so a poll
with nothing to send starts none. On SQLite the two processes are two writers: both begin their
write transactions with ``BEGIN IMMEDIATE`` and take turns at the lock in the order they ask
(`pbem.process_turns`); the child's transactions are short (a claim, a mark).

When the poll is killed, the child is told (``PR_SET_PDEATHSIG``, SIGUSR1, on Linux; elsewhere
it sees its parent gone before each mail) and stops without making a duplicate where it can
(`_Orphan`): a mail whose end of data (the final ".") was not yet written to the SMTP
connection is aborted with a TCP reset, so nothing buffered leaves and the server discards the
transaction — the row is not delivered and stays due; a mail whose end of data was written
waits for the server's reply (the SMTP timeout bounds it) and is marked sent. Either way the
rows it still holds are handed back (due at once, unclaimed) and it exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pbem.config import Settings
from pbem.mail.smtp import SmtpSender, TemporaryFailure
from pbem.send_process import ForkedChild, can_fork, die_with_parent, open_fds, spawn, stop

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from pbem.outbox.send import SendStats

__all__ = ["OutboxProcess"]

NUDGE, DRAIN = b"n", b"d"


class OutboxProcess:
    """``with OutboxProcess(db, settings, smtp) as pump: ... pump.nudge() ...``; then
    ``pump.stats``. The same use as `pbem.outbox_pump.OutboxPump` (the in-process pump, kept
    for senders that are not SMTP, e.g. `MemorySender` in tests); ``db`` only decides whether
    a child is needed and frees a dead child's claims, the child opens its own."""

    def __init__(self, db: Engine, settings: Settings, smtp: SmtpSender) -> None:
        from pbem.outbox.send import SendStats

        self.db = db
        self.settings = settings
        self.smtp = smtp
        self.stats: SendStats = SendStats()
        self._conn: Connection | None = None
        self._proc: subprocess.Popen[bytes] | ForkedChild | None = None
        self._dead = False

    def __enter__(self) -> OutboxProcess:
        if self._due():  # rows already due (earlier failures, the clock work) go out at once
            self.nudge()
        return self

    def nudge(self) -> None:
        """A mail was committed: its reports may be due."""
        if self._dead:
            return
        try:
            (self._conn or self._start()).send_bytes(NUDGE)
        except OSError:
            self._dead = True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._conn is None and not self._dead:
            if not self._due():
                return
            self._start()
        answer = self._finish()
        if answer is None:
            self._child_died()
            return
        kind, value = answer
        if kind == "error" and exc is None:
            raise RuntimeError(f"the sending process failed: {value}")
        sent, retrying, failed, unreachable = value
        self.stats.sent, self.stats.retrying, self.stats.failed = sent, retrying, failed
        self.stats.unreachable = unreachable

    def _due(self) -> bool:
        from pbem.outbox.send import outbox_due
        from pbem.store.models import utcnow

        return outbox_due(self.db, utcnow())

    def _start(self) -> Connection:
        main = _main if can_fork() and _fork_safe(self.db) else None  # a fork, where safe
        self._proc, self._conn = spawn("pbem.outbox_process", (self.settings, self.smtp), main)
        return self._conn

    def _finish(self) -> tuple[str, Any] | None:
        """Ask the child to send what is due and stop; its answer (None: it died)."""
        conn, proc, self._conn, self._proc = self._conn, self._proc, None, None
        answer = None
        if conn is not None:
            try:
                conn.send_bytes(DRAIN)
                answer = conn.recv()
            except (EOFError, OSError):
                pass
            conn.close()
        if proc is not None:
            stop(proc)
        return answer

    def _child_died(self) -> None:
        """The child ended without its totals: what it held is due again at once (it is
        provably dead), and the run says the rest waits for the next one (exit 4)."""
        from pbem.outbox import send as outbox_send
        from pbem.store.models import utcnow

        print("pbem: the sending process ended unexpectedly", file=sys.stderr)
        outbox_send._free_dead_claims(self.db, utcnow(), force=True)
        self.stats.unreachable = True
        self.stats.retrying = outbox_send.pending_count(self.db)


class _Orphan:
    """The child's sender: `SmtpSender`, stopped without a duplicate when the poll dies.

    `parent_died` (SIGUSR1 from the kernel, or the parent found gone before a mail): a mail
    whose end of data is not yet written is aborted at once (`SmtpSender.abort`: a TCP reset,
    nothing buffered leaves, the server discards the transaction, no reconnecting) and fails as
    "unreachable" (no SMTP code), so
    `send_due` makes it due again and hands back the rows not tried; a mail whose end of data
    is written is left to finish and be marked sent. Every later mail fails the same way."""

    def __init__(self, smtp: SmtpSender, parent: int) -> None:
        self.smtp = smtp
        self.parent = parent
        self.orphaned = False
        self._sending = False

    def parent_died(self) -> None:
        self.orphaned = True
        if self._sending and not self.smtp.end_of_data:
            self.smtp.abort()  # the send in progress fails as "unreachable", without its end

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        await self.send_overlapping(raw, sender, recipients, None)

    async def send_overlapping(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] | None,
    ) -> None:
        """`send`, the next mail composed in ``meanwhile`` while the server queues this one
        (`pbem.outbox.send.OverlappingSender`): safe here, where the poll's death is told and a
        mail whose end of data is written is finished and marked (it waits for the compose)."""
        if not self.orphaned and os.getppid() != self.parent:
            self.orphaned = True
        if self.orphaned:
            raise TemporaryFailure("the poll that started the sending process is gone")
        self._sending = True
        try:
            await self.smtp.send(raw, sender, recipients, meanwhile)
        finally:
            self._sending = False


def _next(conn: Connection) -> bool | None:
    """Wait for the parent's word; True: drain and stop, False: a nudge, None: it is gone.
    Nudges sent while the child was busy are taken together (one round for them all)."""
    try:
        words = [conn.recv_bytes()]
        while conn.poll():
            words.append(conn.recv_bytes())
    except (EOFError, OSError):
        return None
    return DRAIN in words


async def _serve_outbox(conn: Connection, parent: int) -> None:
    settings, smtp = conn.recv()
    guard = _Orphan(smtp, parent)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, guard.parent_died)
    from pbem.outbox.send import SendStats, release_mine, send_due
    from pbem.store.db import is_transient, make_engine
    from pbem.store.models import utcnow

    db = make_engine(settings.database_url)
    stats = SendStats()
    reachable, error, retry = True, "", False
    try:
        async with smtp:
            while True:
                closing = _next(conn)
                if closing is None or guard.orphaned or os.getppid() != parent:
                    return  # the poll is gone (its death's signal may not be handled yet)
                for _ in range(2 if closing and retry else 1):
                    if not reachable or error:
                        break
                    try:
                        reachable = await send_due(db, settings, guard, utcnow(), stats)
                        retry = False
                        break
                    except Exception as exc:
                        if not is_transient(exc):
                            error = "".join(traceback.format_exception_only(exc)).strip()
                            break
                        retry = True  # the database is busy: the next round tries again
                if guard.orphaned:
                    return
                if closing:
                    if retry:  # still busy at the end: the rest waits for the next run
                        stats.unreachable = True
                        with contextlib.suppress(Exception):
                            release_mine(db, utcnow())
                    answer = ("error", error) if error else ("stats", _totals(stats))
                    conn.send(answer)
                    return
    finally:
        db.dispose()


def _totals(stats: SendStats) -> tuple[int, int, int, bool]:
    return stats.sent, stats.retrying, stats.failed, stats.unreachable


def _fork_safe(db: Engine) -> bool:
    """Whether a fork of this process may open ``db`` itself. PostgreSQL: yes (the parent's
    connections stay referenced and untouched in the child, their sockets become /dev/null).
    SQLite keeps per-process state for an open database (which locks this process holds, the
    mapped WAL index) that a fork would inherit and trust: the child's own connection would
    then hold no real lock (another process could checkpoint and delete the WAL under it, and
    the child's marks be lost). So the pool's idle connections are closed first (the parent
    opens a new one at its next statement, ~0.3 ms), and a connection still in use, or any
    other descriptor of this process on the database's files, means a fresh interpreter."""
    from pbem.store.db import is_sqlite

    if not is_sqlite(db):
        return True
    path = db.url.database
    in_use = getattr(db.pool, "checkedout", None)  # QueuePool's; other pools: not known
    if not path or path == ":memory:" or in_use is None or in_use():
        return False
    db.dispose()
    files = set()
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            st = os.stat(path + suffix)
            files.add((st.st_dev, st.st_ino))
    for fd in open_fds():
        with contextlib.suppress(OSError):
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) in files:
                return False
    return True


def _main(fd: int, parent: int) -> int:
    """The child's life (``python -m pbem.outbox_process FD PID``, or a fork running it): its
    exit status. ``fd``: its end of the socket; ``parent``: the poll's process id."""
    if die_with_parent(parent, signal.SIGUSR1):  # default action until handled: terminate
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve_outbox(Connection(fd), parent))
    return 0


if __name__ == "__main__":
    sys.exit(_main(int(sys.argv[1]), int(sys.argv[2])))
