"""`pbem serve`: the long-running worker, a worker pass woken by IMAP IDLE.

Each pass is `pbem.worker.worker_pass.worker_pass`, the same as `pbem poll`'s. IDLE is only a
latency hint (C6): after *every* wake-up, whether the server reported anything or not, the
loop runs a whole pass, so a mail that arrived just before IDLE is never stranded.
SIGTERM/SIGINT set a flag; a signal that arrives while blocked in IDLE interrupts the wait,
any other time the pass ends after the mail in hand (`worker_pass`'s ``stop``). Connection
errors back off and reconnect.

With ``PBEM_LMTP_PORT`` set the site's MTA delivers instead (`serve_delivered`): the LMTP
listener (`pbem.worker.lmtp_intake`) queues each mail before it answers the MTA and wakes
the loop, which runs the same pass without a fetch (it applies the queued mail), at once;
without a delivery it still runs one every ``idle_timeout`` seconds for the clocks. The
IMAP mailbox is not read then, and there is no IMAP leader: every worker applies queued mail.

Several workers may serve one mailbox from one PostgreSQL (docs/OPERATING.md "Several
workers"): only the IMAP leader (`pbem.worker.leader`, an advisory lock held for the life of
its database session) fetches and IDLEs; it hands each mail for a game over in the database
(`pbem.worker.handover`). The others stand by: every ``standby_interval`` seconds (at once
again after a pass that applied mail) they run a pass without fetching (applying handed-over
mail of the games no one else holds, the clocks, sending: rows are claimed, so each mail goes
once), and try to take the lead each time, so a dead leader is replaced within that time. The
leader checks that it still holds the lock before every pass.
"""

from __future__ import annotations

import imaplib
import logging
import signal
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from types import FrameType
from typing import Any

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.outbox.send import Sender
from pbem.store.failures import database_problem
from pbem.worker.leader import ImapLeader, mailbox_of
from pbem.worker.lmtp_intake import LmtpIntake
from pbem.worker.worker_pass import worker_pass

__all__ = ["Stopper", "serve", "serve_delivered"]

log = logging.getLogger("pbem.worker.serve")


class _Interrupt(Exception):
    pass


@dataclass
class Stopper:
    """The stop flag and the signal handlers that set it (every worker command installs
    them); ``signal_name``: the signal that stopped it."""

    stopped: bool = False
    waiting: bool = False
    signal_name: str = ""

    def stop(self, *_: Any) -> None:
        self.stopped = True

    def requested(self) -> bool:
        """Whether a stop was asked for (`pbem.outbox.send.StopAsked`)."""
        return self.stopped

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = True
        self.signal_name = signal.Signals(signum).name
        if self.waiting:
            raise _Interrupt(signal.Signals(signum).name)

    def install(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handler)


def serve(
    db: Engine,
    settings: Settings,
    open_inbox: Callable[[], Any],
    sender: Sender,
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
                    report = worker_pass(db, settings, sender=sender, stop=stopper.requested)
                    said = report.summary(mail="applied")
                    on_pass("standby: another worker leads the IMAP fetch; " + said)
                    mail = report.mail
                    if mail.total <= mail.outcomes["deferred"]:  # it applied mail: look again
                        _sleep(stopper, standby_interval)
                    continue
                with open_inbox() as inbox:
                    inbox.ensure_folders()
                    backoff = 1.0
                    while not stopper.stopped and leader.holds():
                        passes += 1
                        report = worker_pass(
                            db, settings, inbox=inbox, sender=sender, stop=stopper.requested
                        )
                        on_pass(report.summary())
                        if not stopper.stopped:
                            _wait(inbox, stopper, idle_timeout)
            except _Interrupt:
                break
            except (OSError, imaplib.IMAP4.error) as exc:  # refused, dropped, login refused
                log.warning("mail connection problem: %s; reconnecting in %.0fs", exc, backoff)
                _sleep(stopper, backoff)
                backoff = min(backoff * 2, 300.0)
            except Exception as exc:
                problem = database_problem(exc)
                if problem is None:
                    raise
                log.warning("%s; retrying in %.0fs", problem.says(), backoff)
                _sleep(stopper, backoff)
                backoff = min(backoff * 2, 300.0)
    finally:
        leader.release()
    return passes


def serve_delivered(
    db: Engine,
    settings: Settings,
    sender: Sender,
    *,
    stopper: Stopper,
    idle_timeout: float = 300.0,
    standby_interval: float = 5.0,
    on_pass: Callable[[str], None] = lambda _: None,
) -> int:
    """Run the LMTP listener and a pass after every delivery (at the latest every
    ``idle_timeout`` seconds) until stopped; returns the number of passes made."""
    passes, backoff = 0, 1.0
    with LmtpIntake(db, settings) as intake:
        on_pass(f"LMTP listener on {settings.lmtp_host}:{settings.lmtp_port}")
        while not stopper.stopped:
            intake.wake.clear()  # a mail stored during the pass wakes the next one at once
            try:
                passes += 1
                report = worker_pass(db, settings, sender=sender, stop=stopper.requested)
                on_pass(report.summary(mail="applied"))
                backoff = 1.0
            except Exception as exc:
                problem = database_problem(exc)
                if problem is None:
                    raise
                log.warning("%s; retrying in %.0fs", problem.says(), backoff)
                _sleep(stopper, backoff)
                backoff = min(backoff * 2, 300.0)
                continue
            busy = report.mail.outcomes["deferred"] > 0  # mail a busy database deferred: soon
            _await(
                intake.wake, stopper, min(idle_timeout, standby_interval) if busy else idle_timeout
            )
    return passes


def _await(wake: threading.Event, stopper: Stopper, timeout: float) -> None:
    """Until ``wake`` is set, the stop flag is set or ``timeout`` passed (in short waits, so a
    stop set from another thread is seen within half a second)."""
    end = time.monotonic() + timeout
    while not stopper.stopped and (left := end - time.monotonic()) > 0:
        if wake.wait(min(0.5, left)):
            return


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
