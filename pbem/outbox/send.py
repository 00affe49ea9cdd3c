"""The outbox's sending: claim due rows, send each, mark it after sending (C2).

Every mail the server writes is an `OutboxMessage` row, committed with the change that caused
it. `send_due` claims due rows a batch at a time (a lease in ``next_attempt_at`` and the
claimant in ``claimed_by``, `pbem.outbox.claims`; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL,
``BEGIN IMMEDIATE`` on SQLite), so overlapping workers never send a row twice, composes and
sends each (`pbem.outbox.compose`) and marks it sent, to retry with `backoff`, or failed (a
commit per mail, or for up to `MARKS_HELD` mails while another process writes, `_send_rows`). A
worker killed mid-send leaves its claims to be freed (at once when this machine sees it is
dead, else when the lease ends) and the row is sent again with the same Message-ID.
`drain_outbox` is one whole run (`pbem send`, `serve`, `tick`); `pbem poll` runs `send_due`
in its sending process (`pbem.outbox_process`). `pbem.service` re-exports all of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from pbem.config import Settings
from pbem.mail import PermanentFailure, SendFailure, TemporaryFailure
from pbem.outbox import claims
from pbem.outbox import parts as mailimages
from pbem.outbox.compose import ComposeFailure, RowMail, composed
from pbem.store.db import is_sqlite, transaction, write_turn_taken
from pbem.store.models import OutboxMessage, utcnow

__all__ = [
    "CLAIM_BATCH",
    "CLAIM_LEASE",
    "MAX_ATTEMPTS",
    "RowSender",
    "SendStats",
    "Sender",
    "backoff",
    "drain_outbox",
    "outbox_due",
    "pending_count",
    "release_mine",
    "send_due",
    "smtp_session",
]

MAX_ATTEMPTS = 10
CLAIM_BATCH = 10  # outbox rows claimed at a time (a crash leaves at most these leased)


class Sender(Protocol):
    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None: ...


@runtime_checkable
class OverlappingSender(Sender, Protocol):
    """A sender that calls ``meanwhile`` while the server queues the message (after its end of
    data, before the reply): the poll's sending process (`pbem.outbox_process._Orphan`), and
    `MemorySender`. Not a bare `SmtpSender` (`pbem serve`, `pbem send`): a process killed without
    warning while it composes would leave a delivered mail unmarked (sent again, a duplicate)
    for that much longer."""

    async def send_overlapping(
        self,
        raw: bytes,
        sender: str,
        recipients: list[str],
        meanwhile: Callable[[], None] | None,
    ) -> None: ...


@runtime_checkable
class RowSender(Sender, Protocol):
    """A sender that composes an outbox row itself (`pbem.send_process.ProcessSender`)."""

    async def send_row(
        self, settings: Settings, row: Claimed, images: Mapping[str, mailimages.StoredPart]
    ) -> RowMail | None: ...


@dataclass
class SendStats:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    unreachable: bool = False  # the SMTP server gave no answer: the rest waits for the next run

    def summary(self) -> str:
        return f"{self.sent} sent, {self.retrying} to retry, {self.failed} failed"


def backoff(attempts: int) -> timedelta:
    """Exponential backoff for temporary SMTP failures: 1, 2, 4 ... minutes, at most 6 h."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 360))


def drain_outbox(
    db: Engine, settings: Settings, sender: Sender, *, now: datetime | None = None, limit: int = 500
) -> SendStats:
    """Send due outbox rows; temporary failures back off, permanent ones are marked failed."""
    return asyncio.run(_drain(db, settings, sender, now, limit))


async def _drain(
    db: Engine, settings: Settings, sender: Sender, now: datetime | None, limit: int
) -> SendStats:
    """Every due row, claimed a batch at a time, on one SMTP session when the sender offers one.

    Claiming (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite) moves a
    row's ``next_attempt_at`` a lease ahead, so overlapping workers never send one row twice;
    a worker killed mid-send leaves the lease to expire and the row is sent again (same
    Message-ID, C2). When the SMTP server cannot be reached at all, the run stops at the first
    failure (one timeout per run, not one per mail) and the rows stay due for the next run.
    """
    stats = SendStats()
    async with smtp_session(sender):
        await send_due(db, settings, sender, now or utcnow(), stats, limit)
    return stats


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
) -> bool:
    """Claim and send every row due at ``now``, a batch at a time; False when the SMTP server
    could not be reached (the rest stays due for the next run, ``stats.unreachable``).

    A batch shorter than asked for was every row due then (or held by other workers): no
    further claim is made. A row committed after the claim comes with its own nudge (the
    pump's wake-up, set after the commit) or waits for the next run, as before."""
    _free_dead_claims(db, now)
    n = max(1, min(limit, CLAIM_BATCH))
    while True:
        rows, images = _claim_and_load(db, now, n)
        if not rows:
            return True
        left = await _send_rows(db, settings, sender, rows, now, stats, images)
        if left is not None:
            _release(db, left, now)
            stats.unreachable = True
            stats.retrying = pending_count(db)
            return False
        if len(rows) < n:
            return True


CLAIM_LEASE = timedelta(minutes=5)  # a killed worker's claimed rows are sent again after it
# (at once when the next worker on the same machine sees it is dead: `_free_dead_claims`)
MARKS_HELD = 8  # sent rows whose marks may wait while another process writes (`_send_rows`)
DEAD_CLAIMS_EVERY = 30.0  # seconds between two looks for dead claimants, per process and database
_MARK_COLUMNS = ("attempts", "status", "sent_at", "last_error", "next_attempt_at", "claimed_by")
_dead_claims_seen: dict[tuple[int, str], float] = {}  # (pid, database) -> when last looked


@dataclass(slots=True)
class Claimed:
    """A claimed outbox row: the columns sending and marking use, read without the ORM (an
    `OutboxMessage` object per row cost the pump thread ~0.5 ms of the applying process's CPU).
    `_mark` sets the marking columns; the others are as loaded."""

    id: int
    attempts: int
    next_attempt_at: datetime
    last_error: str
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
    render_input: str  # a deferred row: what its mail is rendered from (`outbox_compose`)
    status: str = "pending"
    sent_at: datetime | None = None
    claimed_by: str | None = None
    rendered: RowMail | None = None  # a deferred row's mail, rendered when it was sent


_SET_BY_MARK = ("status", "sent_at", "claimed_by")
_NOT_READ = (*_SET_BY_MARK, "rendered")
_CLAIMED_COLUMNS = tuple(f for f in Claimed.__dataclass_fields__ if f not in _NOT_READ)  # read
_built: dict[bool, tuple[Any, Any, Any]] = {}


def _statements(sqlite: bool) -> tuple[Any, Any, Any]:
    """The pump's claim SELECT, claim UPDATE and mark UPDATE, built once (Core, bound values)."""
    found = _built.get(sqlite)
    if found is not None:
        return found
    from sqlalchemy import select as core_select

    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    pick = (
        core_select(*(table.c[name] for name in _CLAIMED_COLUMNS))
        .where(table.c.status == "pending", table.c.next_attempt_at <= bindparam("due"))
        .order_by(table.c.id)
        .limit(bindparam("batch"))
    )
    if not sqlite:
        pick = pick.with_for_update(skip_locked=True)
    lease = (
        update(table)
        .where(table.c.id.in_(bindparam("ids", expanding=True)))
        .values(next_attempt_at=bindparam("lease"), claimed_by=bindparam("by"))
    )
    mark = update(table).where(table.c.id == bindparam("row_id"))
    _built[sqlite] = pick, lease, mark
    return pick, lease, mark


def outbox_due(db: Engine, now: datetime) -> bool:
    """Whether a send run would find work: a row due at ``now``, or one claimed by a worker of
    this machine (which may be dead: `_free_dead_claims`). One read, no write lock."""
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    mine = table.c.claimed_by.like(claims.machine() + "|%")
    with db.connect() as read:
        return (
            read.execute(
                select(table.c.id)
                .where(table.c.status == "pending", (table.c.next_attempt_at <= now) | mine)
                .limit(1)
            ).first()
            is not None
        )


def release_mine(db: Engine, now: datetime) -> int:
    """Hand back every row this process still holds (due at once, unclaimed); how many."""
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    with transaction(db) as s:
        result = s.execute(
            update(table)
            .where(table.c.status == "pending", table.c.claimed_by == claims.claimant())
            .values(next_attempt_at=now, claimed_by=None)
        )
        return int(result.rowcount)  # type: ignore[attr-defined]


def _free_dead_claims(db: Engine, now: datetime, *, force: bool = False) -> int:
    """Make rows claimed by a worker of this machine that is provably dead due at once
    (`pbem.outbox.claims`); claims of live workers and of other machines keep their lease. A look at
    the first send of a process, then at most every `DEAD_CLAIMS_EVERY` (``force``: now).
    Returns how many."""
    key = (os.getpid(), str(db.url))
    clock = time.monotonic()
    last = _dead_claims_seen.get(key)
    if not force and last is not None and clock - last < DEAD_CLAIMS_EVERY:
        return 0
    _dead_claims_seen[key] = clock
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    held = (table.c.status == "pending", table.c.next_attempt_at > now)
    here = claims.machine()
    with db.connect() as read:
        tokens = read.execute(
            select(table.c.claimed_by).where(*held, table.c.claimed_by.like(here + "|%")).distinct()
        ).scalars()
        gone = [t for t in tokens if claims.dead(t, here)]
    if not gone:
        return 0
    with transaction(db) as s:
        result = s.execute(
            update(table)
            .where(*held, table.c.claimed_by.in_(gone))
            .values(next_attempt_at=now, claimed_by=None)
        )
        return int(result.rowcount)  # type: ignore[attr-defined]


def _claim(db: Engine, now: datetime, n: int) -> list[Claimed]:
    """Take up to ``n`` due rows for this worker: their ``next_attempt_at`` moves a lease ahead
    (one SELECT, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, and one UPDATE, in one transaction:
    ``BEGIN IMMEDIATE`` on SQLite)."""
    return _claim_and_load(db, now, n, load=False)[0]


def _claim_and_load(
    db: Engine, now: datetime, n: int, *, load: bool = True
) -> tuple[list[Claimed], dict[str, mailimages.Part]]:
    """`_claim`, and the pictures the claimed rows show read in the same transaction (one
    connection and one BEGIN…COMMIT per batch instead of a second, read-only, one)."""
    from pbem.store.db import _write_engine

    pick, lease, _ = _statements(is_sqlite(db))
    images: dict[str, mailimages.Part] = {}
    with _write_engine(db).connect() as conn, conn.begin():
        rows = [Claimed(*r) for r in conn.execute(pick, {"due": now, "batch": n})]
        if rows:
            conn.execute(
                lease,
                {"ids": [r.id for r in rows], "lease": now + CLAIM_LEASE, "by": claims.claimant()},
            )
            if load:
                images = mailimages.load(conn, (r.html for r in rows))
    return rows, images


def _release(db: Engine, rows: list[Claimed], now: datetime) -> None:
    """Hand claimed rows that were not tried back: due again at once."""
    if not rows:
        return
    with transaction(db) as s:
        s.execute(
            update(OutboxMessage)
            .where(col(OutboxMessage.id).in_([r.id for r in rows]))
            .values(next_attempt_at=now, claimed_by=None)
        )


async def _send_rows(
    db: Engine,
    settings: Settings,
    sender: Sender,
    rows: list[Claimed],
    now: datetime,
    stats: SendStats,
    images: Mapping[str, mailimages.StoredPart] | None = None,
) -> list[Claimed] | None:
    """Send claimed rows (``images``: the pictures they show, read here when not given); None
    when all were tried, else the rows left when the server is down.

    Each row is marked after its send (C2), in a transaction of its own, unless another process
    is writing to the SQLite file at that moment (`pbem.store.db.write_turn_taken`: `pbem poll`
    applying a mail): then the mark waits, and the next row is sent instead of waiting out that
    transaction, up to `MARKS_HELD` rows, marked together at the first free moment. A failed
    row, the batch's last row, or anything raised marks every row held at once."""
    from pbem.store.db import _write_engine

    mark = _statements(is_sqlite(db))[2]
    held: list[Claimed] = []  # tried, not yet marked
    with _write_engine(db).connect() as conn:

        def mark_held() -> None:
            with conn.begin():  # one UPDATE per tried mail and a commit (C2), Core: no ORM flush
                for tried in held:
                    conn.execute(mark, {"row_id": tried.id, **_marked(tried)})
            held.clear()

        if images is None:
            with db.connect() as read:  # a plain read: no write lock
                images = mailimages.load(read, (r.html for r in rows))
        ahead: dict[int, _Composed] = {}  # the next row's mail, composed during this one's send
        try:
            for i, row in enumerate(rows):
                failure: SendFailure | None = None
                following = rows[i + 1] if i + 1 < len(rows) else None
                try:  # outside any transaction: a crash after this resends the same Message-ID (C2)
                    await _send_row(sender, settings, row, images, ahead, following)
                except SendFailure as exc:
                    failure = exc
                _mark(row, failure, now, stats)
                held.append(row)
                if (
                    failure is not None
                    or following is None
                    or len(held) >= MARKS_HELD
                    or not write_turn_taken(db)
                ):
                    mark_held()
                if _unreachable(failure):
                    return rows[i + 1 :]
        finally:
            if held:  # something was raised: what was tried is marked all the same
                with contextlib.suppress(Exception):
                    mark_held()
    return None


_Composed = tuple[bytes, RowMail] | ComposeFailure


async def _send_row(
    sender: Sender,
    settings: Settings,
    row: Claimed,
    images: Mapping[str, mailimages.StoredPart],
    ahead: dict[int, _Composed] | None = None,
    following: Claimed | None = None,
) -> None:
    """Compose and send one row (a `pbem.send_process.ProcessSender` composes in its child).

    With an `OverlappingSender`, the ``following`` row's mail is composed (CPU) while the
    server queues this one (a wait on its reply) and kept in ``ahead`` for its turn: the same
    bytes, one reply wait less per mail. A row whose end of data is not reached (a refusal,
    the server gone) leaves the following one to be composed in its own turn."""
    if isinstance(sender, RowSender):
        row.rendered = await sender.send_row(settings, row, images)  # a deferred row's mail
        return
    ahead = {} if ahead is None else ahead
    done = ahead.pop(row.id, None)
    if isinstance(done, ComposeFailure):
        raise done
    raw, mail = done if done is not None else composed(settings, row, images)
    if following is None or not isinstance(sender, OverlappingSender):
        await sender.send(raw, settings.address, [row.recipient])
    else:
        then: Claimed = following

        def compose_following() -> None:
            try:
                ahead[then.id] = composed(settings, then, images)
            except ComposeFailure as exc:
                ahead[then.id] = exc

        await sender.send_overlapping(raw, settings.address, [row.recipient], compose_following)
    if mail.fresh:
        row.rendered = mail


def _marked(row: Claimed) -> dict[str, Any]:
    """The columns the mark writes: `_MARK_COLUMNS`, and a deferred row's subject and text once
    it is sent (the extract stage reads the text of a seat's latest reports with every mail,
    `pbem.pipeline.rows.report_texts`, and need not render them). Its HTML is not stored (the
    picture it shows is drawn from ``render_input``, which stays: composing the row again
    renders it again, the same bytes)."""
    values = {c: getattr(row, c) for c in _MARK_COLUMNS}
    mail = row.rendered
    if mail is not None and row.status == "sent":
        values.update(subject=mail.subject, text=mail.text)
    return values


def _unreachable(failure: SendFailure | None) -> bool:
    """No SMTP reply at all (refused, timed out, dropped): the server, not this mail."""
    return isinstance(failure, TemporaryFailure) and failure.code is None


def _mark(row: Claimed, failure: SendFailure | None, now: datetime, stats: SendStats) -> None:
    row.claimed_by = None  # tried: no longer held
    if failure is None:
        row.attempts += 1
        row.status, row.sent_at, row.last_error = "sent", utcnow(), ""
        stats.sent += 1
        return
    row.last_error = str(failure)[:2000]
    if _unreachable(failure):  # not this mail's fault: no attempt counted, due again at once
        row.next_attempt_at = now
        return
    row.attempts += 1
    permanent = isinstance(failure, PermanentFailure) or row.attempts >= MAX_ATTEMPTS
    row.status = "failed" if permanent else "pending"
    row.next_attempt_at = now + backoff(row.attempts)
    stats.failed += permanent
    stats.retrying += not permanent


def pending_count(db: Engine) -> int:
    with Session(db) as s:
        return len(s.exec(select(OutboxMessage.id).where(OutboxMessage.status == "pending")).all())
