"""`pbem serve`: the long-running worker (IMAP IDLE + periodic poll + outbox drain).

IDLE is only a latency hint (C6): after *every* wake-up, whether the server
reported anything or not, the loop re-syncs with a full `poll_once`, so a mail
that arrived just before IDLE is never stranded. SIGTERM/SIGINT set a flag;
a signal that arrives while blocked in IDLE interrupts the wait, any other
time the current mail finishes first. Connection errors back off and reconnect.

Several workers may serve one mailbox from one PostgreSQL (issue 14, docs/OPERATING.md
"Several workers"): only the IMAP leader (`pbem.worker.leader`, an advisory lock held for the life
of its database session) fetches and IDLEs; it hands each mail for a game over in the
database (`pbem.worker.handover`). The others stand by: they apply handed-over mail of the games no
one else holds, tick the clocks and send the outbox (rows are claimed, so each mail goes once)
every ``standby_interval`` seconds (at once again after a pass that applied mail), and try to
take the lead each time, so a dead leader is replaced within that time. The leader checks
that it still holds the lock before every pass.
"""

from __future__ import annotations

import imaplib
import logging
import signal
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from types import FrameType
from typing import Any

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.outbox.send import SendStats
from pbem.service import PollStats, apply_queued, drain_outbox, poll_once
from pbem.store.db import is_transient
from pbem.worker.leader import ImapLeader, mailbox_of

__all__ = ["Stopper", "serve"]

log = logging.getLogger("pbem.worker.serve")


class _Interrupt(Exception):
    pass


@dataclass
class Stopper:
    """The stop flag and the signal handlers that set it."""

    stopped: bool = False
    waiting: bool = False

    def stop(self, *_: Any) -> None:
        self.stopped = True

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = True
        if self.waiting:
            raise _Interrupt(signal.Signals(signum).name)

    def install(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handler)


def serve(
    db: Engine,
    settings: Settings,
    open_inbox: Callable[[], Any],
    sender: Any,
    *,
    stopper: Stopper,
    idle_timeout: float = 300.0,
    standby_interval: float = 5.0,
    on_pass: Callable[[str], None] = lambda _: None,
) -> int:
    """Run until stopped; returns the number of passes made (as leader or standby)."""
    leader = ImapLeader(db, mailbox_of(settings))
    passes, backoff = 0, 1.0
    try:
        while not stopper.stopped:
            try:
                if not leader.acquire():
                    passes += 1
                    busy, said = _standby_pass(db, settings, sender)
                    on_pass("standby: another worker leads the IMAP fetch; " + said)
                    if not busy:  # it applied mail: look for more at once
                        _sleep(stopper, standby_interval)
                    continue
                with open_inbox() as inbox:
                    inbox.ensure_folders()
                    backoff = 1.0
                    while not stopper.stopped and leader.holds():
                        passes += 1
                        on_pass(_one_pass(db, settings, inbox, sender))
                        if not stopper.stopped:
                            _wait(inbox, stopper, idle_timeout)
            except _Interrupt:
                break
            except (OSError, imaplib.IMAP4.error) as exc:  # refused, dropped, login refused
                log.warning("mail connection problem: %s; reconnecting in %.0fs", exc, backoff)
                _sleep(stopper, backoff)
                backoff = min(backoff * 2, 300.0)
            except Exception as exc:
                if not is_transient(exc):
                    raise
                log.warning("database unreachable: %s; retrying in %.0fs", exc, backoff)
                _sleep(stopper, backoff)
                backoff = min(backoff * 2, 300.0)
    finally:
        leader.release()
    return passes


def _one_pass(db: Engine, settings: Settings, inbox: Any, sender: Any) -> str:
    from pbem.games.timekeeping.tick import (
        worker_pass,  # the outage guard, the mail, then the clocks
    )

    clocks, stats = worker_pass(db, settings, lambda: poll_once(db, settings, inbox))
    sent = _send(db, settings, sender)
    return f"clocks: {clocks.summary()}; in: {stats.summary()}; out: {sent.summary()}"


def _standby_pass(db: Engine, settings: Settings, sender: Any) -> tuple[bool, str]:
    """Apply the mail the leader handed over (games no one holds), tick, send; (applied any?,
    what it did)."""
    from pbem.games.timekeeping.tick import tick

    applied = PollStats()
    for out in apply_queued(db, settings):
        applied.add(out)
    clocks = tick(db, settings)
    sent = _send(db, settings, sender)
    said = f"applied: {applied.summary()}; clocks: {clocks.summary()}; out: {sent.summary()}"
    return applied.total > applied.outcomes["deferred"], said


def _send(db: Engine, settings: Settings, sender: Any) -> SendStats:
    """Send what is due. Over SMTP, where this process may fork, from a fork of it
    (`pbem.outbox_process`, as `pbem poll` does; none when nothing is due): when the worker
    is killed, the fork finishes a mail whose end of data it has written and marks it sent,
    and aborts one it has not, so a kill makes no duplicate. Killed while sending in its own
    process, a worker left a mail delivered and not marked, sent again by the next one (same
    Message-ID: the crash soak found 2 in 310 kills of serve, 0 in 690 of poll). Otherwise
    (another sender, a thread running, e.g. ``--embedded``'s servers) in this process."""
    from pbem.mail.smtp import SmtpSender
    from pbem.send_process import can_fork

    if not isinstance(sender, SmtpSender) or not can_fork():
        return drain_outbox(db, settings, sender)
    from pbem.outbox_process import OutboxProcess

    with OutboxProcess(db, settings, sender) as outbox:
        pass  # entering starts the fork when rows are due; leaving drains and waits for it
    return outbox.stats


def _wait(inbox: Any, stopper: Stopper, timeout: float) -> None:
    """IDLE up to ``timeout`` (a signal interrupts it); the caller re-syncs afterwards."""
    stopper.waiting = True
    try:
        if not stopper.stopped:
            inbox.idle_wait(timeout)
    finally:
        stopper.waiting = False


def _sleep(stopper: Stopper, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not stopper.stopped and time.monotonic() < end:
        with suppress(_Interrupt):
            time.sleep(min(0.5, end - time.monotonic()))
