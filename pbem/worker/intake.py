"""Mail in: every mail in the inbox applied in its own transaction, then moved (C1).

`poll_once` reads the inbox in batches; on SQLite each mail runs through the pipeline
(`pbem.pipeline.runner.process_message`) here and is moved to its folder only after its transaction
committed, so a crash before the move leaves it to the next pass, whose dedupe skips it. On
PostgreSQL a mail for a game is handed over (`pbem.worker.handover`) and applied game by game
by whichever worker holds that game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from sqlalchemy.engine import Engine

from pbem.config import Settings
from pbem.mail.imap import Fetched, ImapMailbox
from pbem.outbox.send import StopAsked, never_stop
from pbem.pipeline.runner import Outcome, process_message
from pbem.store.db import is_sqlite
from pbem.store.failures import DatabaseProblem
from pbem.worker.handover import apply_queued, hand_over

__all__ = ["FETCH_BATCH", "Inbox", "PollStats", "open_mailbox", "poll_once"]

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


@dataclass
class PollStats:
    """Counts of outcomes of one `poll_once` pass (mails handed over are counted apart: their
    outcome is counted by whichever worker applies them)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    games: set[int] = field(default_factory=set)
    handed_over: int = 0
    database: DatabaseProblem | None = None  # the database failure that deferred a mail

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())

    def add(self, out: Outcome) -> None:
        self.outcomes[out.outcome] += 1
        if out.game_id is not None:
            self.games.add(out.game_id)
        if out.problem is not None:
            self.database = out.problem

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
    stop: StopAsked = never_stop,
) -> PollStats:
    """Process every mail still in the inbox; move each after its commit (C1). Once
    ``stop()`` says so (asked before each mail) the mails not begun stay in the INBOX.

    On PostgreSQL a mail for a game is handed over (`pbem.worker.handover`: queued, committed, then
    moved) and applied game by game, by this worker and any other (`apply_queued`); on SQLite
    and for mail that routes to no game, each mail is processed here before it is moved.
    A mail deferred by a database failure stops the pass's mail: it and every mail after it
    stay in the INBOX for the next pass (``stats.database`` says why)."""
    stats = PollStats()
    seen: set[tuple[int, int]] = set()
    hand = not is_sqlite(db)  # SQLite: one worker, nothing is handed over
    while not stop():  # in batches, so a flooded inbox never sits in memory at once
        batch = [
            m for m in inbox.fetch_new(limit=FETCH_BATCH) if (m.uidvalidity, m.uid) not in seen
        ]
        done: dict[str, list[int]] = {}
        try:
            for item in batch:
                if stop():  # the mail before this one is committed: begin no other
                    break
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
                if out.outcome == "deferred":  # the database failed: the rest waits too
                    break
        finally:
            _move(inbox, done)  # each only after its commit (C1); a crash before: dedupe skips it
        if len(batch) < FETCH_BATCH or stats.outcomes["deferred"]:
            break
    if hand and not stats.database:
        for out in apply_queued(db, settings, now=now, stop=stop):
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
