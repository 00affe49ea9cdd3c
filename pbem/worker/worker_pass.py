"""One worker pass, read top to bottom: guard, fetch, apply, send the replies, housekeeping, send.

`pbem poll` runs it once, `pbem tick` runs it without fetching, `pbem serve` runs it in a loop
woken by IMAP IDLE, or without fetching after each mail its LMTP listener queued
(`pbem.worker.serve`); `pbem send` is its last step alone. The caller holds
the run lock (`pbem.worker.lock`) and turns the `PassReport` into output and an exit code.

A database failure anywhere ends the pass (`DatabaseFailure`); the caller says so in one line.

1. **Guard**: the clocks' outage guard (`pbem.games.timekeeping.tick.tick` with ``acts=False``) runs
   before any move is read; after an outage nothing expires in this pass.
2. **Fetch and apply**: when this worker leads the IMAP fetch (`pbem.worker.leader`, always on
   SQLite), every mail in the inbox is applied in its own transaction and then moved
   (`pbem.worker.intake.poll_once`); on PostgreSQL mail for a game is handed over and applied by
   whichever worker holds the game (`pbem.worker.handover.apply_queued`), so a worker that
   does not lead still applies what was handed over.
3. **Send the replies**: when mail was applied, the outbox (`pbem.outbox.send.drain_outbox`) at
   once, so the players' reports leave before the housekeeping (they wait for them; nothing
   below changes them).
4. **Housekeeping**: the clocks' reminders and expiries (after the mail: a move waiting in the
   inbox when its clock ran out is played, not forfeited), invitations expiring, bot seats
   catching up, the daily digests, and then the observers of every game that changed
   (`pbem.games.fairplay.observer_feed.catch_up_all`).
5. **Send** the outbox again: what the housekeeping queued, and everything else due (not when
   the SMTP server did not answer in step 3: one timeout per pass).

A stop asked for (``stop``: SIGTERM or SIGINT, `pbem.worker.serve.Stopper`) ends the pass after
the mail in hand: the mail being applied is committed and moved, the one being sent is sent and
marked; nothing further is begun (``PassReport.stopped``) and the next run does the rest.
"""

from __future__ import annotations

import imaplib
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.games.bot_catch_up import catch_up
from pbem.games.digest import digest_pass
from pbem.games.fairplay.expiry import expire_invitations
from pbem.games.fairplay.observer_feed import catch_up_all
from pbem.games.timekeeping.outage import TickReport
from pbem.games.timekeeping.tick import tick
from pbem.outbox.send import Sender, SendStats, StopAsked, drain_outbox, never_stop
from pbem.store.db import is_sqlite, is_transient
from pbem.store.failures import DatabaseFailure, database_problem
from pbem.store.models import utcnow
from pbem.worker.handover import apply_queued, queued_count
from pbem.worker.intake import Inbox, PollStats, poll_once
from pbem.worker.leader import ImapLeader, mailbox_of

__all__ = ["PassReport", "housekeeping", "worker_pass"]

log = logging.getLogger("pbem.worker")

OpenInbox = Callable[[], AbstractContextManager[Any]]  # an ImapMailbox, or a test's


@dataclass
class PassReport:
    """What one pass did. ``imap_error``: the mailbox could not be read (the rest of the pass
    ran); ``standby``: another worker leads the IMAP fetch (this one applied what it handed
    over); ``waiting``: handed-over mails other workers hold (PostgreSQL); ``sent``: None when
    the pass did not send; ``stopped``: a stop ended it after the mail in hand."""

    clocks: TickReport = field(default_factory=TickReport)
    mail: PollStats = field(default_factory=PollStats)
    sent: SendStats | None = None
    imap_error: str | None = None
    standby: bool = False
    waiting: int = 0
    stopped: bool = False

    def summary(self, mail: str = "in") -> str:
        """One line for the log; ``mail`` names the mail part ("applied" for a pass that did
        not fetch)."""
        out = self.sent.summary() if self.sent is not None else "not sent"
        return f"clocks: {self.clocks.summary()}; {mail}: {self.mail.summary()}; out: {out}"


def worker_pass(
    db: Engine,
    settings: Settings,
    *,
    inbox: Inbox | None = None,
    open_inbox: OpenInbox | None = None,
    sender: Sender | None = None,
    now: datetime | None = None,
    stop: StopAsked = never_stop,
) -> PassReport:
    """One pass. ``inbox``: a mailbox this worker already leads (`pbem serve`); ``open_inbox``:
    open one if this worker may lead the fetch (`pbem poll`); neither: no fetching, only the
    queued mail is applied (`pbem tick`, a standby `serve`, a `serve` fed over LMTP).
    ``sender``: send the outbox at the end (None: `--no-send`). ``stop``: asked between two
    mails (in and out) and between the steps; once it says so the pass ends.

    A database failure (locked, unreachable, a full disk, read-only: `pbem.store.failures`)
    ends the pass at once with `DatabaseFailure`: the mail not applied stays in the INBOX.
    """
    report = PassReport()
    try:
        _steps(db, settings, report, inbox, open_inbox, sender, now, stop)
        report.stopped = stop()
    except DatabaseFailure:
        raise
    except Exception as exc:
        problem = database_problem(exc)
        if problem is None:
            raise
        raise DatabaseFailure(problem, report.mail.summary()) from exc
    return report


def _steps(
    db: Engine,
    settings: Settings,
    report: PassReport,
    inbox: Inbox | None,
    open_inbox: OpenInbox | None,
    sender: Sender | None,
    now: datetime | None,
    stop: StopAsked,
) -> None:
    if stop():
        return
    # 1. guard: the outage guard and the missing clocks, before any move is read
    guard = tick(db, settings, now=now, acts=False)
    # 2. fetch and apply, each mail in its own transaction
    if inbox is not None:
        report.mail = poll_once(db, settings, inbox, now=now, stop=stop)
    elif open_inbox is not None:
        _fetch(db, settings, open_inbox, now, report, stop)
    else:
        for out in apply_queued(db, settings, now=now, stop=stop):
            report.mail.add(out)
    if report.mail.database is not None:  # a mail was deferred: the pass ends here
        raise DatabaseFailure(report.mail.database, report.mail.summary())
    if stop():  # the mail in hand is applied: the rest of the pass waits for the next run
        return
    # 3. send the replies to the mail at once: the players wait for them
    if sender is not None and report.mail.total:
        report.sent = drain_outbox(db, settings, sender, now=now, stop=stop)
    if stop():
        return
    # 4. housekeeping: the clocks (not after an outage), invitations, bot seats, digests
    if guard.outage is None:
        report.clocks = tick(db, settings, now=now)
        report.clocks.started += guard.started
    else:
        report.clocks = guard
    housekeeping(db, settings, now, report.mail)
    if not is_sqlite(db):
        report.waiting = _waiting(db)
    # 5. send what the housekeeping (and any pass before) queued
    if sender is not None and not (report.sent is not None and report.sent.unreachable):
        report.sent = drain_outbox(db, settings, sender, now=now, stats=report.sent, stop=stop)


def _fetch(
    db: Engine,
    settings: Settings,
    open_inbox: OpenInbox,
    now: datetime | None,
    report: PassReport,
    stop: StopAsked,
) -> None:
    """Read and apply the inbox when this worker leads the IMAP fetch, else apply what the
    leader handed over; an unreachable mailbox is noted in the report."""
    try:
        with ImapLeader(db, mailbox_of(settings)) as lead:
            if not lead.is_leader:  # PostgreSQL: another worker reads the mailbox now
                report.standby = True
                for out in apply_queued(db, settings, now=now, stop=stop):
                    report.mail.add(out)
                return
            with open_inbox() as mailbox:
                mailbox.ensure_folders()
                report.mail = poll_once(db, settings, mailbox, now=now, stop=stop)
    except (OSError, imaplib.IMAP4.error) as exc:  # refused, timed out, login refused, garbage
        report.imap_error = f"{type(exc).__name__}: {exc}"


def housekeeping(
    db: Engine, settings: Settings, now: datetime | None, stats: PollStats
) -> PollStats:
    """After the mail: invitations expiring, bot seats left to move, the daily digests (counted
    in ``stats``), the observers' mails. A busy database leaves them to the next pass."""
    now = now or utcnow()
    try:
        stats.games.update(expire_invitations(db, settings, now))
        made = catch_up(db, settings, now)  # bot seats left to move (after an error, say)
        digests = digest_pass(db, settings, now)  # the daily digests now due
        # last: observers hear of everything above and of this pass's mails and clocks
        catch_up_all(db, settings, now)
    except Exception as exc:
        if not is_transient(exc):
            raise
        log.warning("housekeeping deferred: database busy or unreachable (%s)", exc)
        made = digests = 0
    if made:
        stats.outcomes["bot moves"] += made
    if digests:
        stats.outcomes["digest"] += digests
    return stats


def _waiting(db: Engine) -> int:
    """How much handed-over mail other workers still hold (only a note: a busy database must
    not fail the pass here)."""
    try:
        return queued_count(db)
    except Exception:
        return 0
