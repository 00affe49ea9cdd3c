"""The outbox's sending: claim due rows, send each, mark it after sending (C2).

Every mail the server writes is an `OutboxMessage` row, committed with the change that caused
it. `send_due` claims due rows a batch at a time (a lease in ``next_attempt_at`` and the
claimant in ``claimed_by``, `pbem.outbox.claims`; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite), so overlapping workers never send a row twice, composes and
sends each (`pbem.outbox.compose`) on one SMTP session and marks it sent, to retry with
`backoff`, or failed, in a transaction of its own right after its send. Delivery is
at-least-once: a worker killed between a send and its mark leaves the claim to be freed (at
once when this machine sees it is dead, else when the lease ends) and the row is sent again
with the same Message-ID, which the receiving side can recognise. A stop asked for (``stop``:
SIGTERM or SIGINT, `pbem.worker.serve.Stopper`) is looked at before each row: the mail being
sent is finished and marked, the rows claimed and not tried are handed back, no other is taken.
`drain_outbox` is one whole run: the last step of every worker pass and `pbem send`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import bindparam, update
from sqlalchemy import select as core_select
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from pbem.config import Settings
from pbem.mail import PermanentFailure, SendFailure, SmtpSender, TemporaryFailure
from pbem.outbox import claims
from pbem.outbox import parts as mailimages
from pbem.outbox.compose import raw_message
from pbem.store.db import is_sqlite, transaction
from pbem.store.models import OutboxMessage, utcnow

__all__ = [
    "CLAIM_BATCH",
    "CLAIM_LEASE",
    "MAX_ATTEMPTS",
    "SendStats",
    "Sender",
    "StopAsked",
    "backoff",
    "drain_outbox",
    "make_sender",
    "never_stop",
    "pending_count",
    "send_due",
    "smtp_session",
]

MAX_ATTEMPTS = 10
CLAIM_BATCH = 10  # outbox rows claimed at a time (a crash leaves at most these leased)
CLAIM_LEASE = timedelta(minutes=5)  # a killed worker's claimed rows are sent again after it
# (at once when the next worker on the same machine sees it is dead: `_free_dead_claims`)
DEAD_CLAIMS_EVERY = 30.0  # seconds between two looks for dead claimants, per process and database
_dead_claims_seen: dict[tuple[int, str], float] = {}  # (pid, database) -> when last looked


StopAsked = Callable[[], bool]
"""Whether a stop was asked for (a signal): looked at between two mails, never during one."""


def never_stop() -> bool:
    """The `StopAsked` of a run no signal stops (tests, benchmarks, the demo)."""
    return False


class Sender(Protocol):
    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None: ...


@dataclass
class SendStats:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    unreachable: bool = False  # the SMTP server gave no answer: the rest waits for the next run
    stopped: bool = False  # a stop was asked for: the rest waits for the next run

    def summary(self) -> str:
        return f"{self.sent} sent, {self.retrying} to retry, {self.failed} failed"


def backoff(attempts: int) -> timedelta:
    """Exponential backoff for temporary SMTP failures: 1, 2, 4 ... minutes, at most 6 h."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 360))


def drain_outbox(
    db: Engine,
    settings: Settings,
    sender: Sender,
    *,
    now: datetime | None = None,
    limit: int = 500,
    stats: SendStats | None = None,
    stop: StopAsked = never_stop,
) -> SendStats:
    """Send every due outbox row, claimed a batch at a time, on one SMTP session when the
    sender offers one; temporary failures back off, permanent ones are marked failed. When the
    SMTP server cannot be reached at all, the run stops at the first failure (one timeout per
    run, not one per mail) and the rows stay due for the next run. ``stats``: count into
    these (an earlier run's of the same pass), else new ones. Once ``stop()`` says so, the
    run ends after the mail in hand (sent and marked): ``stats.stopped``."""
    stats = stats if stats is not None else SendStats()
    asyncio.run(_drain(db, settings, sender, now or utcnow(), limit, stats, stop))
    return stats


async def _drain(
    db: Engine,
    settings: Settings,
    sender: Sender,
    now: datetime,
    limit: int,
    stats: SendStats,
    stop: StopAsked,
) -> None:
    async with smtp_session(sender):
        await send_due(db, settings, sender, now, stats, limit, stop)


def smtp_session(sender: Sender) -> contextlib.AbstractAsyncContextManager[Any]:
    """``async with`` this around several sends: one SMTP session when the sender offers it."""
    if isinstance(sender, contextlib.AbstractAsyncContextManager):
        return sender
    return contextlib.nullcontext()


async def send_due(
    db: Engine,
    settings: Settings,
    sender: Sender,
    now: datetime,
    stats: SendStats,
    limit: int = CLAIM_BATCH,
    stop: StopAsked = never_stop,
) -> bool:
    """Claim and send every row due at ``now``, a batch at a time; False when the SMTP server
    could not be reached (the rest stays due for the next run, ``stats.unreachable``). A batch
    shorter than asked for was every row due then (or held by other workers): no further
    claim is made. ``stop()`` is asked before each claim and each row: once it says so, the
    rows claimed and not tried are handed back (``stats.stopped``)."""
    _free_dead_claims(db, now)
    n = max(1, min(limit, CLAIM_BATCH))
    while True:
        if stop():
            stats.stopped = True
            return True
        rows, images = _claim_and_load(db, now, n)
        if not rows:
            return True
        for i, row in enumerate(rows):
            if stop():  # the mail before this one was sent and marked: take no other
                _release(db, rows[i:], now)
                stats.stopped = True
                return True
            failure: SendFailure | None = None
            try:  # outside any transaction: a crash after this resends the same Message-ID (C2)
                await _send_row(sender, settings, row, images)
            except SendFailure as exc:
                failure = exc
            _mark(db, row, failure, now, stats)
            if _unreachable(failure):
                _release(db, rows[i + 1 :], now)
                stats.unreachable = True
                stats.retrying = pending_count(db)
                return False
        if len(rows) < n:
            return True


@dataclass(slots=True)
class Claimed:
    """A claimed outbox row: the columns composing and marking use."""

    id: int
    attempts: int
    extras: str
    game_id: int | None
    recipient: str
    subject: str
    text: str
    html: str
    message_id: str
    in_reply_to: str
    references: str
    reply_to: str


_TABLE = OutboxMessage.__table__  # type: ignore[attr-defined]
_PICK = (
    core_select(*(_TABLE.c[name] for name in Claimed.__dataclass_fields__))
    .where(_TABLE.c.status == "pending", _TABLE.c.next_attempt_at <= bindparam("due"))
    .order_by(_TABLE.c.id)
    .limit(bindparam("batch"))
)
_LEASE = (
    update(_TABLE)
    .where(_TABLE.c.id.in_(bindparam("ids", expanding=True)))
    .values(next_attempt_at=bindparam("lease"), claimed_by=bindparam("by"))
)


def _free_dead_claims(db: Engine, now: datetime, *, force: bool = False) -> int:
    """Make rows claimed by a worker of this machine that is provably dead due at once
    (`pbem.outbox.claims`); claims of live workers and of other machines keep their lease. A
    look at the first send of a process, then at most every `DEAD_CLAIMS_EVERY` (``force``:
    now). Returns how many."""
    key = (os.getpid(), str(db.url))
    clock = time.monotonic()
    last = _dead_claims_seen.get(key)
    if not force and last is not None and clock - last < DEAD_CLAIMS_EVERY:
        return 0
    _dead_claims_seen[key] = clock
    held = (_TABLE.c.status == "pending", _TABLE.c.next_attempt_at > now)
    here = claims.machine()
    with db.connect() as read:
        tokens = read.execute(
            core_select(_TABLE.c.claimed_by)
            .where(*held, _TABLE.c.claimed_by.like(here + "|%"))
            .distinct()
        ).scalars()
        gone = [t for t in tokens if claims.dead(t, here)]
    if not gone:
        return 0
    with transaction(db) as s:
        result = s.execute(
            update(_TABLE)
            .where(*held, _TABLE.c.claimed_by.in_(gone))
            .values(next_attempt_at=now, claimed_by=None)
        )
        return int(result.rowcount)  # type: ignore[attr-defined]


def _claim(db: Engine, now: datetime, n: int) -> list[Claimed]:
    """Take up to ``n`` due rows for this worker: their ``next_attempt_at`` moves a lease ahead
    (one SELECT, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, and one UPDATE, in one transaction:
    ``BEGIN IMMEDIATE`` on SQLite)."""
    return _claim_and_load(db, now, n)[0]


def _claim_and_load(
    db: Engine, now: datetime, n: int
) -> tuple[list[Claimed], dict[str, mailimages.Part]]:
    """`_claim`, and the pictures the claimed rows show, read in the same transaction."""
    pick = _PICK if is_sqlite(db) else _PICK.with_for_update(skip_locked=True)
    with transaction(db) as s:
        rows = [Claimed(*r) for r in s.execute(pick, {"due": now, "batch": n})]
        if not rows:
            return [], {}
        s.execute(
            _LEASE,
            {"ids": [r.id for r in rows], "lease": now + CLAIM_LEASE, "by": claims.claimant()},
        )
        return rows, mailimages.load(s, (r.html for r in rows))


def _release(db: Engine, rows: list[Claimed], now: datetime) -> None:
    """Hand claimed rows that were not tried back: due again at once."""
    if not rows:
        return
    with transaction(db) as s:
        s.execute(
            update(_TABLE)
            .where(_TABLE.c.id.in_([r.id for r in rows]))
            .values(next_attempt_at=now, claimed_by=None)
        )


async def _send_row(
    sender: Sender, settings: Settings, row: Claimed, images: Mapping[str, mailimages.StoredPart]
) -> None:
    """Compose and send one row (`pbem.outbox.compose.ComposeFailure` when it cannot be
    composed: a permanent failure of that row alone)."""
    raw = raw_message(settings, row, images)
    await sender.send(raw, settings.address, [row.recipient])


def _unreachable(failure: SendFailure | None) -> bool:
    """No SMTP reply at all (refused, timed out, dropped): the server, not this mail."""
    return isinstance(failure, TemporaryFailure) and failure.code is None


def _mark(
    db: Engine, row: Claimed, failure: SendFailure | None, now: datetime, stats: SendStats
) -> None:
    """Write what the send did to the row, in a transaction of its own (C2)."""
    values: dict[str, Any] = {"claimed_by": None, "next_attempt_at": now}  # no longer held
    if failure is None:
        values.update(attempts=row.attempts + 1, status="sent", sent_at=utcnow(), last_error="")
        stats.sent += 1
    elif _unreachable(failure):  # not this mail's fault: no attempt counted, due again at once
        values.update(last_error=str(failure)[:2000])
    else:
        attempts = row.attempts + 1
        permanent = isinstance(failure, PermanentFailure) or attempts >= MAX_ATTEMPTS
        values.update(
            attempts=attempts,
            last_error=str(failure)[:2000],
            status="failed" if permanent else "pending",
            next_attempt_at=now + backoff(attempts),
        )
        stats.failed += permanent
        stats.retrying += not permanent
    with transaction(db) as s:
        s.execute(update(_TABLE).where(_TABLE.c.id == row.id).values(**values))


def pending_count(db: Engine) -> int:
    with Session(db) as s:
        return len(s.exec(select(OutboxMessage.id).where(OutboxMessage.status == "pending")).all())


def make_sender(settings: Settings) -> SmtpSender:
    """The SMTP sender the settings describe (`PBEM_SMTP_*`)."""
    return SmtpSender(
        settings.smtp_host,
        settings.smtp_port,
        settings.smtp_user or None,
        settings.smtp_password or None,
        tls=settings.smtp_tls,
    )
