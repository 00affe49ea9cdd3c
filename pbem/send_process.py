"""Composing and sending outbox rows in a process of its own (the second core, no GIL).

(`pbem poll` now hands the whole outbox work, claims and marks included, to a child of its own:
`pbem.outbox_process`, which uses `spawn` and `die_with_parent` from here. `ProcessSender`
stays for a pump thread that keeps the claims and marks in its process, and for benchmark 10.
`spawn` forks when given the module's entry and `can_fork` allows it: no new interpreter; the
child leaves the parent's state alone, `_leave_the_parent_alone`, and exits by ``os._exit``.)

A pump thread sends each committed mail's reports while the next mail is processed
(`pbem.outbox_pump`). On a thread of the same process that work — building the MIME message
(base64 of the board picture, about 60 KB a report) and aiosmtplib's SMTP conversation — takes
the interpreter lock from the thread applying the mail. `ProcessSender` does it in a child
process instead: the pump thread still claims each row and marks it sent in its own commit
(the outbox's semantics are unchanged, `pbem.service.send_due`), and hands the row's columns
and its images to the child, which composes the bytes (`pbem.outbox.compose.raw_message`, the same
function), sends them on its one SMTP session and answers ok or the failure. The child is
`python -m pbem.send_process` (started at the first mail to send, so a poll with nothing to
send pays nothing), with only a socket to the parent: no inherited lock file or database.

One request at a time: the pump waits for each answer (without the lock), so at most one mail
is in flight, as on the thread. If the child dies, the answer is a `TemporaryFailure` without
an SMTP code (the server "unreachable"): the rows are released and the next run sends them.

The child dies with its parent. Told to stop, or finding the end of its pipe, it exits between
mails; but when the parent is killed, the child is killed too, at once: on Linux the kernel
sends it SIGKILL (``PR_SET_PDEATHSIG``, set first thing in the child, which then checks that its
parent is still the one that started it, closing the race with a parent killed before that),
and everywhere the child checks its parent before each send. So a kill aborts the SMTP
conversation in flight, as it did on the pump thread, instead of the child finishing a mail its
parent will never mark sent (resent next run: a duplicate, same Message-ID, C2). The death
signal follows the *thread* that started the child: the pump thread starts it and stops it
(``async with``) before it ends, so one `ProcessSender` must be used from one thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Generic, TypeVar

from pbem.config import Settings
from pbem.mail.smtp import PermanentFailure, SmtpSender, TemporaryFailure
from pbem.outbox.compose import RowMail
from pbem.outbox.parts import Part

__all__ = ["ForkedChild", "ProcessSender", "can_fork", "spawn"]

ROW_FIELDS = (
    "extras",
    "game_id",
    "recipient",
    "subject",
    "text",
    "html",
    "message_id",
    "in_reply_to",
    "references",
    "reply_to",
    "render_input",
)
STOP_SECONDS = 5.0  # how long the child may take to finish when told to stop
KEPT_PARTS = 8  # images the child keeps for the next rows (a move's two reports share one)
T = TypeVar("T")


class _Parts(Generic[T]):
    """The last `KEPT_PARTS` parts sent to the child, by id, oldest dropped first: the child
    keeps the parts, the parent only their ids. Both see the same adds in the same order (one
    child per `ProcessSender`, never restarted), so they hold the same ids."""

    def __init__(self) -> None:
        self.items: dict[str, T] = {}

    def __contains__(self, cid: str) -> bool:
        return cid in self.items

    def add(self, cid: str, value: T) -> None:
        self.items[cid] = value
        while len(self.items) > KEPT_PARTS:
            del self.items[next(iter(self.items))]


class ProcessSender:
    """``async with ProcessSender(settings, smtp):`` a child process sends with ``smtp``.

    Offers `send` (raw bytes, as every sender) and `send_row` (composed in the child too).
    """

    def __init__(self, settings: Settings, smtp: SmtpSender) -> None:
        self.settings = settings
        self.smtp = smtp
        self._conn: Connection | None = None
        self._proc: subprocess.Popen[bytes] | ForkedChild | None = None
        self._dead = False
        self._parts: _Parts[None] = _Parts()  # the ids of the parts the child keeps

    async def __aenter__(self) -> ProcessSender:
        return self

    async def __aexit__(self, *exc: object) -> None:
        conn, proc, self._conn, self._proc = self._conn, self._proc, None, None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        if proc is not None:
            stop(proc)

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None:
        """Send ``raw`` from the child; raise the `SendFailure` it met."""
        self._ask(("raw", raw, sender, list(recipients)))

    async def send_row(
        self, settings: Settings, row: Any, images: Mapping[str, Any]
    ) -> RowMail | None:
        """Compose outbox ``row`` (with the stored ``images``) and send it, in the child; a
        deferred row is rendered there too, and its mail (subject and text) is returned.

        A part goes over once: both reports of a move show the same picture, so the second
        names it and the child takes it from the parts it keeps (`_Parts`, the same on both
        sides: the parent mirrors which ids the child holds)."""
        html = row.html or ""
        wanted = [cid for cid in images if cid in html]  # the ones it names (perhaps a few more)
        new = [
            img
            if type(img) is Part and img.cid == cid
            else Part(cid, img.content_type, img.filename, bytes(img.data))
            for cid, img in images.items()
            if cid in html and cid not in self._parts
        ]
        for part in new:
            self._parts.add(part.cid, None)
        values = tuple(getattr(row, name, "") for name in ROW_FIELDS)  # "": no render_input
        answer = self._ask(("row", values, new, wanted))
        if answer is None:
            return None
        subject, text = answer  # a deferred row, rendered in the child: to be stored
        return RowMail(subject, text, "", fresh=True)

    def _start(self) -> Connection:
        self._proc, conn = spawn("pbem.send_process", (self.settings, self.smtp))
        return conn

    def _ask(self, request: tuple[Any, ...]) -> Any:
        """Send ``request`` to the child; its result (None, or a rendered row's columns), or
        raise the failure it answered."""
        if self._dead:
            raise TemporaryFailure("the sending process ended")
        try:  # blocking: nothing else runs on the pump's loop, and the wait frees the GIL
            if self._conn is None:
                self._conn = self._start()
            self._conn.send(request)
            answer = self._conn.recv()
        except (EOFError, OSError) as exc:
            self._dead = True
            raise TemporaryFailure(f"the sending process ended: {type(exc).__name__}") from None
        if answer is None:
            return None
        kind, message, code = answer
        if kind == "rendered":
            return message
        if kind == "temporary":
            raise TemporaryFailure(message, code)
        if kind == "permanent":
            raise PermanentFailure(message, code)
        raise RuntimeError(f"the sending process failed: {message}")


FORK_ENV = "PBEM_SEND_FORK"  # "0": `spawn` always starts a fresh interpreter (tests, diagnosis)


def spawn(
    module: str, first: Any, main: Callable[[int, int], int] | None = None
) -> tuple[subprocess.Popen[bytes] | ForkedChild, Connection]:
    """``python -m module FD PID``, this checkout's code, with a socket to it (``FD``, its end;
    PID: this process) on which ``first`` is sent: the child and our end of the socket.

    With ``main`` (the module's entry, ``main(FD, PID)`` -> exit status) and where it is safe
    (`can_fork`), the child is a fork of this process running ``main`` instead (`_fork`): no
    new interpreter, its modules already imported (about a second of CPU less per child)."""
    mine, theirs = socket.socketpair()
    proc: subprocess.Popen[bytes] | ForkedChild
    if main is not None and can_fork():
        proc = _fork(main, theirs.fileno())
    else:
        root = str(Path(__file__).resolve().parent.parent)  # this checkout's pbem, in the child
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", module, str(theirs.fileno()), str(os.getpid())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            env=env,
        )
    theirs.close()  # the child's end lives in the child only: its death is our EOF
    conn = Connection(mine.detach())
    with contextlib.suppress(OSError):  # dead already (a fork starts at once): the next word
        conn.send(first)  # to it fails the same way, and the caller handles a dead child
    return proc, conn


def stop(proc: subprocess.Popen[bytes] | ForkedChild) -> None:
    """Wait for a child told to stop (`STOP_SECONDS`), then kill it; reaped either way."""
    try:
        proc.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def can_fork() -> bool:
    """Whether `spawn` may fork this process instead of starting a fresh interpreter.

    Linux and the BSDs (not macOS, whose system libraries are not fork-safe without an exec:
    why `multiprocessing` spawns there too), called from the main thread of a process that
    runs no other thread (a lock another thread held at the fork would never be released in
    the child) and no asyncio loop in this thread; not with ``PBEM_SEND_FORK=0``."""
    if os.environ.get(FORK_ENV, "1") == "0" or os.name != "posix" or sys.platform == "darwin":
        return False
    if not hasattr(os, "fork") or threading.current_thread() is not threading.main_thread():
        return False
    if threading.active_count() > 1 or _os_threads() > 1:
        return False
    running = sys.modules.get("asyncio")
    return running is None or running._get_running_loop() is None


def _os_threads() -> int:
    """The threads of this process the kernel knows (those started outside `threading` too);
    1 where it does not tell."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def open_fds() -> list[int]:
    """The file descriptors open in this process."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        return [fd for fd in sorted(int(n) for n in names if n.isdigit()) if _is_open(fd)]
    try:
        limit = min(os.sysconf("SC_OPEN_MAX"), 65536)
    except (AttributeError, ValueError, OSError):
        limit = 1024
    return [fd for fd in range(limit) if _is_open(fd)]


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _flush_output() -> None:
    """Write out what this process has buffered for stdout, stderr and its log handlers, so
    that a fork's copy of those buffers is empty (else what was printed once appears twice)."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            with contextlib.suppress(Exception):
                stream.flush()
    logging = sys.modules.get("logging")
    if logging is not None:
        loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
        for logger in loggers:
            for handler in getattr(logger, "handlers", ()):
                with contextlib.suppress(Exception):
                    handler.flush()


def _fork(main: Callable[[int, int], int], fd: int) -> ForkedChild:
    """Fork; the child runs ``main(fd, parent)`` and leaves by ``os._exit`` with its status,
    never returning here (no unwinding of the parent's ``with`` blocks, no atexit handlers,
    no flush of inherited buffers)."""
    parent = os.getpid()
    _flush_output()
    pid = os.fork()
    if pid:
        return ForkedChild(pid)
    code = 70  # EX_SOFTWARE: left without a status (never expected)
    try:
        _leave_the_parent_alone(keep=fd)
        code = main(fd, parent)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if not isinstance(exc.code, int | None):
            with contextlib.suppress(Exception):
                print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        code = 128 + signal.SIGINT
    except BaseException:
        code = 1
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        _flush_output()  # the child's own output (the parent's was written before the fork)
        os._exit(code)


def _leave_the_parent_alone(keep: int) -> None:
    """In a forked child, first thing: what it inherited from the parent is left untouched.

    - The parent's objects are frozen out of the garbage collector (`gc.freeze`): a database
      connection, socket or file of the parent is never finalised here (a psycopg connection
      would say Terminate on the parent's socket, a SQLite one release its locks).
    - Every inherited descriptor but stdout, stderr and ``keep`` (the child's end of the
      socket) becomes /dev/null (stdin too, as for a spawned child): the parent's database and
      IMAP sockets, its end of our socket (else its death would not be our EOF) and the run
      lock's file (`pbem.worker.lock`): an ``flock`` belongs to the open file description, which the
      fork shares, and lasts until its last descriptor is closed, so a child still holding one
      after the parent was killed would lock the next poll out (``LOCK_UN`` here would instead
      unlock it under the living parent: dropping our descriptor is the right release). POSIX
      ``fcntl`` locks (SQLite's) are per process: not inherited, and not released by this.
      The numbers stay taken, so a stray close of a parent's object cannot hit the child's
      own files, and a stray write goes nowhere.
    - The signal handlers the parent set in Python are reset (SIGINT: KeyboardInterrupt, as in
      a fresh interpreter; an ignored signal stays ignored, as across an exec), its wakeup
      descriptor dropped; asyncio's running loop (none: see
      `can_fork`) is cleared, so ``asyncio.run`` starts afresh. Interval timers are not
      inherited (POSIX), nor are the parent's fcntl locks."""
    gc.freeze()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in open_fds():
        if fd not in (1, 2, keep, devnull):
            os.dup2(devnull, fd, inheritable=fd == 0)
    os.close(devnull)
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    for sig in signal.valid_signals():
        with contextlib.suppress(ValueError, OSError, TypeError):
            handler = signal.getsignal(sig)
            if sig == signal.SIGINT and handler is not signal.SIG_IGN:  # ignored: kept, as exec
                signal.signal(sig, signal.default_int_handler)
            elif callable(handler):
                signal.signal(sig, signal.SIG_DFL)
    asyncio._set_running_loop(None)


class ForkedChild:
    """A child made by `_fork`, used as a `subprocess.Popen`: ``pid``, ``returncode``, `poll`,
    `wait` (reaps it) and `kill`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as Popen says
                self.returncode = 0
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            while self.returncode is None:
                try:
                    _, status = os.waitpid(self.pid, 0)
                except ChildProcessError:
                    self.returncode = 0
                else:
                    self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while (code := self.poll()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout)
            time.sleep(min(pause, left))
            pause = min(pause * 2, 0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # not reaped: the id is still the child's
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> bool:
    """Get ``sig`` (SIGKILL: be killed) when ``parent`` (this process's parent, which started
    it) dies, on Linux; False when ``parent`` is gone already (the child should exit)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    return os.getppid() == parent  # after prctl: a parent killed before it is seen here


async def _serve(conn: Connection, parent: int) -> None:
    from pbem.outbox.compose import composed

    settings, smtp = conn.recv()
    parts: _Parts[Part] = _Parts()
    async with smtp:
        while True:
            try:
                request = conn.recv()
            except (EOFError, OSError):  # the parent is gone
                return
            if request is None or os.getppid() != parent:  # nobody would mark this mail sent
                return
            answer = await _handle(request, settings, smtp, composed, parts)
            try:
                conn.send(answer)
            except OSError:
                return


async def _handle(
    request: tuple[Any, ...],
    settings: Settings,
    smtp: SmtpSender,
    composed: Any,
    kept: _Parts[Part],
) -> tuple[str, Any, int | None] | None:
    try:
        if request[0] == "row":
            _, values, new, wanted = request
            parts = {c: kept.items[c] for c in wanted if c in kept}  # before adding may drop one
            for part in new:
                kept.add(part.cid, part)
                parts[part.cid] = part
            if len(parts) != len(wanted):  # never: the parent's mirror says what is here
                raise RuntimeError(f"parts missing: {sorted(set(wanted) - set(parts))}")
            row = SimpleNamespace(**dict(zip(ROW_FIELDS, values, strict=True)))
            raw, mail = composed(settings, row, parts)  # a deferred row is rendered here
            await smtp.send(raw, settings.address, [row.recipient])
            if mail.fresh:  # sent: the parent stores its mail with the mark
                return ("rendered", (mail.subject, mail.text), None)
        else:
            _, raw, sender, recipients = request
            await smtp.send(raw, sender, recipients)
    except TemporaryFailure as exc:
        return ("temporary", str(exc), exc.code)
    except PermanentFailure as exc:
        return ("permanent", str(exc), exc.code)
    except Exception as exc:
        return ("error", f"{type(exc).__name__}: {exc}", None)
    return None


if __name__ == "__main__":
    _parent = int(sys.argv[2])
    if die_with_parent(_parent):
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(Connection(int(sys.argv[1])), _parent))
