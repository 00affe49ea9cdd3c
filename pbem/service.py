"""The server's operations; the CLI only parses options and prints what these return.

This module holds the mail in: `poll_once` processes every mail in the inbox (moving each
only after its transaction committed); on PostgreSQL the mail of a game is handed over and
applied by any worker holding the game's lock (`pbem.worker.handover`, `apply_queued`). The
mail out is `pbem.outbox.send` (`drain_outbox`, `send_due`: claims, retry and backoff). It
also re-exports the other operations, so callers keep using `pbem.service`: `new_game`
creates a game and queues the welcome mails (`pbem.games.setup`); `replay` rebuilds a game from
its move log and `show`, `games`, `game_log` are operator views (`pbem.games.views`); errors
are in `pbem.errors`. The whole worker pass is `pbem.worker.worker_pass`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.errors import GameNotFound as GameNotFound
from pbem.errors import ServiceError as ServiceError
from pbem.games.bot_catch_up import catch_up as catch_up
from pbem.games.setup import EMAIL_RE as EMAIL_RE
from pbem.games.setup import new_game as new_game
from pbem.games.views import SIDE_CHOICES as SIDE_CHOICES
from pbem.games.views import GameRow as GameRow
from pbem.games.views import ReplayReport as ReplayReport
from pbem.games.views import game_log as game_log
from pbem.games.views import games as games
from pbem.games.views import replay as replay
from pbem.games.views import show as show
from pbem.games.views import show_json as show_json
from pbem.mail import SmtpSender
from pbem.mail.imap import Fetched, ImapMailbox
from pbem.outbox.compose import raw_message as raw_message
from pbem.outbox.compose import sender_for as sender_for
from pbem.outbox.send import CLAIM_BATCH as CLAIM_BATCH
from pbem.outbox.send import CLAIM_LEASE as CLAIM_LEASE
from pbem.outbox.send import MAX_ATTEMPTS as MAX_ATTEMPTS
from pbem.outbox.send import Sender as Sender
from pbem.outbox.send import SendStats as SendStats
from pbem.outbox.send import backoff as backoff
from pbem.outbox.send import drain_outbox as drain_outbox
from pbem.outbox.send import outbox_due as outbox_due
from pbem.outbox.send import pending_count as pending_count
from pbem.outbox.send import release_mine as release_mine
from pbem.outbox.send import send_due as send_due
from pbem.outbox.send import smtp_session as smtp_session
from pbem.pipeline import Outcome as Outcome
from pbem.pipeline import process_message as process_message
from pbem.store.db import is_sqlite
from pbem.store.models import Seat as Seat  # read as service.Seat (tests)
from pbem.worker.handover import apply_queued as apply_queued
from pbem.worker.handover import hand_over as hand_over

__all__ = [
    "GameNotFound",
    "PollStats",
    "SendStats",
    "ServiceError",
    "apply_queued",
    "drain_outbox",
    "game_log",
    "games",
    "new_game",
    "poll_once",
    "replay",
    "show",
    "show_json",
]

FETCH_BATCH = 50


class Inbox(Protocol):
    """What `poll_once` needs from a mailbox (ImapMailbox, MemoryMailbox)."""

    def fetch_new(self, limit: int | None = None) -> list[Fetched]: ...

    def move(self, uid: int, folder: str) -> None: ...


def open_mailbox(settings: Settings) -> ImapMailbox:
    return ImapMailbox(
        settings.imap_host,
        settings.imap_port,
        settings.imap_user,
        settings.imap_password,
        ssl=settings.imap_ssl,
    )


def make_sender(settings: Settings) -> SmtpSender:
    return SmtpSender(
        settings.smtp_host,
        settings.smtp_port,
        settings.smtp_user or None,
        settings.smtp_password or None,
        tls=settings.smtp_tls,
    )


# --- mail in and out ---------------------------------------------------------------------------


@dataclass
class PollStats:
    """Counts of outcomes of one `poll_once` pass (mails handed over are counted apart: their
    outcome is counted by whichever worker applies them)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    games: set[int] = field(default_factory=set)
    handed_over: int = 0

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())

    def add(self, out: Outcome) -> None:
        self.outcomes[out.outcome] += 1
        if out.game_id is not None:
            self.games.add(out.game_id)

    def summary(self) -> str:
        counts = sorted(self.outcomes.items())
        if self.handed_over:
            counts.append(("handed over", self.handed_over))
        return ", ".join(f"{n} {k}" for k, n in counts) or "nothing new"


def poll_once(
    db: Engine,
    settings: Settings,
    inbox: Inbox,
    *,
    mailbox: str = "INBOX",
    now: datetime | None = None,
) -> PollStats:
    """Process every mail still in the inbox; move each after its commit (C1).

    On PostgreSQL a mail for a game is handed over (`pbem.worker.handover`: queued, committed, then
    moved) and applied game by game, by this worker and any other (`apply_queued`); on SQLite
    and for mail that routes to no game, each mail is processed here before it is moved."""
    stats = PollStats()
    seen: set[tuple[int, int]] = set()
    hand = not is_sqlite(db)  # SQLite: one worker, nothing is handed over
    while True:  # in batches, so a flooded inbox never sits in memory at once
        batch = [
            m for m in inbox.fetch_new(limit=FETCH_BATCH) if (m.uidvalidity, m.uid) not in seen
        ]
        done: dict[str, list[int]] = {}
        try:
            for item in batch:
                seen.add((item.uidvalidity, item.uid))
                out = hand_over(db, settings, item, mailbox) if hand else None
                if out is None:
                    out = _process(db, settings, item, mailbox, now)
                if out.folder is not None:  # a deferred mail stays in the INBOX
                    done.setdefault(out.folder, []).append(item.uid)
                if out.outcome == "queued":
                    stats.handed_over += 1
                else:
                    stats.add(out)
        finally:
            _move(inbox, done)  # each only after its commit (C1); a crash before: dedupe skips it
        if len(batch) < FETCH_BATCH:
            break
    for out in apply_queued(db, settings, now=now) if hand else ():
        stats.add(out)
    return stats


def _process(
    db: Engine, settings: Settings, item: Fetched, mailbox: str, now: datetime | None
) -> Outcome:
    return process_message(
        db,
        settings,
        item.raw,
        mailbox=mailbox,
        uidvalidity=item.uidvalidity,
        uid=item.uid,
        now=now,
    )


def _move(inbox: Inbox, done: dict[str, list[int]]) -> None:
    """Move the batch's committed mails, one command per folder when the mailbox can."""
    many = getattr(inbox, "move_many", None)
    for folder, uids in done.items():
        if many is not None:
            many(uids, folder)
        else:
            for uid in uids:
                inbox.move(uid, folder)
