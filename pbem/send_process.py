"""Composing and sending outbox rows in a process of its own (the second core, no GIL).

(`pbem poll` now hands the whole outbox work, claims and marks included, to a child of its own:
`pbem.outbox_process`, which uses `spawn` and `die_with_parent` from here. `ProcessSender`
stays for a pump thread that keeps the claims and marks in its process, and for benchmark 10.)

A pump thread sends each committed mail's reports while the next mail is processed
(`pbem.outbox_pump`). On a thread of the same process that work — building the MIME message
(base64 of the board picture, about 60 KB a report) and aiosmtplib's SMTP conversation — takes
the interpreter lock from the thread applying the mail. `ProcessSender` does it in a child
process instead: the pump thread still claims each row and marks it sent in its own commit
(the outbox's semantics are unchanged, `pbem.service.send_due`), and hands the row's columns
and its images to the child, which composes the bytes (`pbem.outbox_compose.raw_message`, the same
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
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Generic, TypeVar

from pbem.config import Settings
from pbem.mail.smtp import PermanentFailure, SmtpSender, TemporaryFailure
from pbem.mailimages import Part
from pbem.outbox_compose import RowMail

__all__ = ["ProcessSender"]

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
        self._proc: subprocess.Popen[bytes] | None = None
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


def spawn(module: str, first: Any) -> tuple[subprocess.Popen[bytes], Connection]:
    """``python -m module FD PID``, this checkout's code, with a socket to it (``FD``, its end;
    PID: this process) on which ``first`` is sent: the child and our end of the socket."""
    mine, theirs = socket.socketpair()
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
    conn.send(first)
    return proc, conn


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Wait for a child told to stop (`STOP_SECONDS`), then kill it; reaped either way."""
    try:
        proc.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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
    from pbem.outbox_compose import composed

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
