"""Write turns between the processes that share one SQLite database, in arrival order.

SQLite has one write lock, and a writer that finds it taken waits in SQLite's busy handler,
which sleeps 1, 2, 5, 10, 15 … ms between looks. A process writing a run of back-to-back
transactions (`pbem poll` applying a backlog, each mail in its own) leaves gaps of well under
a millisecond between them, so a short writer in another process (the poll's sending process
marking each mail sent, C2) looks at the wrong moments again and again: in benchmark 2 it
spent a third of its life there and sent almost nothing until the backlog was applied. The
threads of one process already take turns (`pbem.store.db.WriteTurns`); this does the same across
processes.

A turn is two POSIX record locks on a small file beside the database (``<database>-turns``):
byte 0, the *queue*, and byte 1, the *turn*. To take a turn a process first takes the queue,
then the turn, then lets the queue go; it lets the turn go after its COMMIT or ROLLBACK. A
writer that has just finished and comes straight back has to take the queue first, which the
waiting process holds: so the turn goes to the waiter, then back. Waiting looks every 0.1 to
0.5 ms (record locks have no timed wait), never longer than the caller's timeout; when that
runs out, or the file cannot be opened, the writer goes on without a turn and SQLite's own
locking decides, exactly as without turns. The turns only order writers: SQLite's lock still
makes them exclusive, so a process that takes no turns (an older release, the sqlite3 shell)
is only slower to get in, never unsafe.

Record locks belong to a process (a fork does not inherit them) and are dropped when it exits,
however it dies: a killed writer never leaves a turn taken.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import suppress

__all__ = ["ProcessTurns", "process_turns"]

QUEUE, TURN = 0, 1  # the bytes locked
FIRST_LOOK, LAST_LOOK = 0.0001, 0.0005  # seconds between looks while waiting: growing to this

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no turns between processes
    fcntl = None  # type: ignore[assignment]


class ProcessTurns:
    """The turns of this process at one database file. `acquire` and `release` pair up
    (nested calls count: only the outermost pair takes and gives the turn); callers are the
    thread holding this process's `pbem.store.db.WriteTurns` turn, so one thread at a time."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._depth = 0
        self._mutex = threading.Lock()

    def acquire(self, timeout: float) -> bool:
        """Take the turn, waiting at most ``timeout`` seconds; False when it was not had."""
        with self._mutex:
            self._depth += 1
            if self._depth > 1:
                return True
        deadline = time.monotonic() + timeout
        if self._lock(QUEUE, deadline):
            had = self._lock(TURN, deadline)
            self._unlock(QUEUE)
            if had:
                return True
        with self._mutex:
            self._depth -= 1
        return False

    def taken_elsewhere(self) -> bool:
        """Whether another process holds the turn or queues for it at this moment: a look that
        keeps nothing (each byte taken without waiting and let go at once). False while this
        process holds the turn. A writer with something that can wait (`pbem.outbox.send`'s
        marks) asks this first and writes later rather than wait out another's transaction."""
        with self._mutex:  # `acquire` counts itself in first: no thread of ours takes it now
            if self._depth:
                return False
            for byte in (TURN, QUEUE):
                try:
                    fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte)
                except OSError:
                    return True
                self._unlock(byte)
            return False

    def release(self) -> None:
        with self._mutex:
            if self._depth == 0:
                return
            self._depth -= 1
            if self._depth:
                return
        self._unlock(TURN)

    def _lock(self, byte: int, deadline: float) -> bool:
        pause = FIRST_LOOK
        while True:
            try:
                fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte)
                return True
            except OSError:
                pass
            now = time.monotonic()
            if now >= deadline:
                return False
            time.sleep(min(pause, deadline - now))
            pause = min(pause * 2, LAST_LOOK)

    def _unlock(self, byte: int) -> None:
        with suppress(OSError):
            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, byte)


_turns: dict[tuple[int, str], ProcessTurns | None] = {}
_registry = threading.Lock()


def process_turns(database: str | None) -> ProcessTurns | None:
    """This process's turns at the SQLite file ``database`` (one per process and file, shared
    by every engine on it); None for an in-memory database, without POSIX record locks, or
    when the turns file cannot be opened (a read-only folder): writers then go without."""
    if fcntl is None or not database or database == ":memory:" or database.startswith("file:"):
        return None
    key = (os.getpid(), database)  # a fork opens its own: record locks are per process
    if key in _turns:
        return _turns[key]
    with _registry:
        path = os.path.realpath(database)
        file_key = (key[0], path)  # one per file: two names of one file share its turns
        if file_key not in _turns:
            fd: int | None = None
            with suppress(OSError):
                fd = os.open(path + "-turns", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            _turns[file_key] = None if fd is None else ProcessTurns(fd)
        _turns[key] = _turns[file_key]
        return _turns[key]
