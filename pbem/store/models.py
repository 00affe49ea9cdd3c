"""Tables (SQLModel): games, seats, the append-only move log, inbound mail, outbox, quarantine.

The game snapshot is a cache: ``Game.seed/edition/options`` plus the `Move`
rows in ``seq`` order rebuild it exactly (`pbem replay`). Inbound messages are
unique on their dedupe key (normalised Message-ID, or a hash of the content)
and on (mailbox, UIDVALIDITY, UID), which makes processing idempotent. The
outbox holds fully determined mails with deterministic Message-IDs.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Column, Integer, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

__all__ = [
    "Commitment",
    "Game",
    "GameEvent",
    "HeldMessage",
    "InboundMessage",
    "Invitation",
    "KeyAnswer",
    "MailImage",
    "Move",
    "Observer",
    "OutboxMessage",
    "Quarantine",
    "QueuedMail",
    "Seat",
    "SeatOrders",
    "WorkerState",
    "utcnow",
]


def utcnow() -> datetime:
    """Aware UTC now (the clock is read here and passed around as ``now``)."""
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    """One game: its set-up (seed, edition, options), status and the state snapshot."""

    id: int | None = Field(default=None, primary_key=True)
    seed: int
    edition: str = Field(max_length=16)
    options: str = Field(default="", max_length=200)  # comma-separated, sorted
    status: str = Field(
        default="active", max_length=16, index=True
    )  # invited | active | over | declined | expired
    snapshot: str = Field(sa_column=Column(Text, nullable=False))
    version: int = 0  # number of applied mails
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    clock: str | None = Field(default=None, sa_column=Column(Text, nullable=True))  # pbem.clocks
    clock_due: float | None = Field(default=None, index=True)  # epoch s: next clock work due
    ended: str = Field(default="", max_length=16)  # "" | timeout | resigned (not by the rules)
    winner: str = Field(default="", max_length=8)  # the winner of an `ended` game

    @property
    def option_list(self) -> list[str]:
        return [o for o in self.options.split(",") if o]


class Seat(SQLModel, table=True):
    """A player's seat: side, address and reply-key material (R17: one side per seat)."""

    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str = Field(max_length=8)
    email: str = Field(max_length=320, index=True)
    key_salt: str = Field(max_length=32)  # rotate to revoke every key of the seat
    key_gen: int = 0  # bumped whenever what this side must decide changes
    decision_sig: str = Field(default="", max_length=64)
    last_log: int = 0  # log index already reported to this seat
    thread_root: str = Field(default="", max_length=300)  # Message-ID of the welcome mail
    aliases: str = Field(
        default="", max_length=1000
    )  # more confirmed sender addresses, comma-separated
    pending_email: str = Field(default="", max_length=320)  # `address add` awaiting confirmation


class Move(SQLModel, table=True):
    """One applied command line, in order; never updated or deleted."""

    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    side: str = Field(max_length=8)
    command: str = Field(max_length=500)
    inbound_id: int | None = Field(default=None, foreign_key="inboundmessage.id")
    created_at: datetime = Field(default_factory=utcnow)
    # who decided it: mail | server | bot | autopilot | declined | after-bot (pbem.store.move_log)
    source: str = Field(default="mail", max_length=16)
    # a computer player's move (pbem.games.bots): why it played it, in words anyone may read
    # (no card the public cannot see), and the game log's index of the first public line the
    # move wrote, where reports show the reason
    reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    log_index: int | None = None


# IMAP UIDs and UIDVALIDITY are 32-bit unsigned (RFC 3501): BIGINT on PostgreSQL (0009);
# SQLite's INTEGER holds 64 bits already.
IMAP_NUMBER = BigInteger().with_variant(Integer(), "sqlite")


class InboundMessage(SQLModel, table=True):
    """A processed inbound mail and what became of it (the dedupe table, C1)."""

    __table_args__ = (UniqueConstraint("mailbox", "uidvalidity", "uid"),)

    id: int | None = Field(default=None, primary_key=True)
    dedupe_key: str = Field(max_length=400, unique=True)
    message_id: str = Field(default="", max_length=400)
    mailbox: str = Field(default="", max_length=200)
    uidvalidity: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    uid: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    content_hash: str = Field(max_length=64)
    from_addr: str = Field(default="", max_length=320)
    subject: str = Field(default="", max_length=500)
    game_id: int | None = Field(default=None, index=True)
    side: str | None = Field(default=None, max_length=8)
    outcome: str = Field(max_length=16)  # applied | rejected | ignored | answered
    detail: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    received_at: datetime = Field(default_factory=utcnow)


class OutboxMessage(SQLModel, table=True):
    """A mail to send; written in the same transaction as the change that caused it (C2)."""

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(max_length=400, unique=True)
    game_id: int | None = Field(default=None, index=True)
    side: str | None = Field(default=None, max_length=8)
    kind: str = Field(max_length=16)
    recipient: str = Field(max_length=320)
    reply_to: str = Field(default="", max_length=320)
    subject: str = Field(max_length=500)
    text: str = Field(sa_column=Column(Text, nullable=False))
    html: str = Field(sa_column=Column(Text, nullable=False))
    in_reply_to: str = Field(default="", max_length=400)
    references: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    status: str = Field(default="pending", max_length=16, index=True)  # pending | sent | failed
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow)
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    created_at: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None
    # JSON {"headers": {name: value}, "attachments": [{"filename", "content_type", "text"}]} or ""
    extras: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    # the worker holding the claim (`pbem.outbox.claims.claimant`); a dead one's claim is freed at once
    claimed_by: str | None = Field(default=None, max_length=300)


class Quarantine(SQLModel, table=True):
    """A mail that crashed the pipeline: kept with the stage and traceback, nothing applied."""

    id: int | None = Field(default=None, primary_key=True)
    dedupe_key: str = Field(default="", max_length=400)
    message_id: str = Field(default="", max_length=400)
    mailbox: str = Field(default="", max_length=200)
    uidvalidity: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    uid: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    stage: str = Field(default="", max_length=64)
    error: str = Field(sa_column=Column(Text, nullable=False))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class QueuedMail(SQLModel, table=True):
    """A fetched mail handed over for its game (PostgreSQL, `pbem.worker.handover`): any worker that
    holds the game's lock applies it, in ``id`` order; the row is deleted in the transaction
    that records the mail (its `InboundMessage` or `Quarantine` row)."""

    __table_args__ = (UniqueConstraint("mailbox", "uidvalidity", "uid"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    dedupe_key: str = Field(max_length=400, unique=True)
    mailbox: str = Field(default="", max_length=200)
    uidvalidity: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    uid: int | None = Field(default=None, sa_type=IMAP_NUMBER)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    queued_at: datetime = Field(default_factory=utcnow)


class GameEvent(SQLModel, table=True):
    """A clock or seat event of a game (reminder, timeout, vacation, resignation, seat change).

    ``key`` is unique per game when set: the event is recorded once even under
    overlapping ticks (the second insert fails and its transaction rolls back).
    """

    __table_args__ = (UniqueConstraint("game_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str = Field(default="", max_length=8)
    kind: str = Field(max_length=24)
    key: str | None = Field(default=None, max_length=120)
    detail: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    created_at: datetime = Field(default_factory=utcnow)


class WorkerState(SQLModel, table=True):
    """Named worker marks, e.g. ``tick``: when the clock work last ran (the outage guard)."""

    name: str = Field(primary_key=True, max_length=32)
    at: float  # epoch seconds


class MailImage(SQLModel, table=True):
    """An inline picture of outbound mail (the map), stored once by content hash.

    An outbox row's HTML names it as ``cid:board-<sha256[:24]>@1960.pbem``; both players'
    reports of one move share one row, and a resend after a crash finds the same bytes.
    """

    cid: str = Field(primary_key=True, max_length=200)
    content_type: str = Field(default="image/png", max_length=64)
    filename: str = Field(default="board.png", max_length=100)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class SeatOrders(SQLModel, table=True):
    """A seat's mail preference, standing orders and queued orders (pbem.games.orders, pbem.games.notify)."""

    seat_id: int = Field(foreign_key="seat.id", primary_key=True)
    notify: str = Field(default="decisions", max_length=16)  # decisions | every | digest
    digest_hour: int = 18  # UTC hour of the daily digest
    digest_at: datetime | None = None  # when the last digest was queued
    standing: str = Field(default="{}", sa_column=Column(Text, nullable=False, default="{}"))
    queue: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    notes: str = Field(default="[]", sa_column=Column(Text, nullable=False, default="[]"))
    decided_log: int = 0  # log index before the seat's last own decision
    decided_board: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    mailed_sig: str = Field(default="", max_length=64)  # the decision last mailed to the seat


class HeldMessage(SQLModel, table=True):
    """A move held because our receiving server's DMARC/DKIM verdict for its From was ``fail``.

    Nothing of it was applied; the operator releases it (`pbem held release`) or drops it.
    """

    id: int | None = Field(default=None, primary_key=True)
    inbound_id: int | None = Field(default=None, foreign_key="inboundmessage.id", index=True)
    game_id: int | None = Field(default=None, index=True)
    side: str | None = Field(default=None, max_length=8)
    from_addr: str = Field(default="", max_length=320)
    reason: str = Field(default="", max_length=500)
    mailbox: str = Field(default="", max_length=200)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class Commitment(SQLModel, table=True):
    """A game's committed seed (pbem.games.fairplay): secret until the game ends, then revealed.

    ``commitment`` = SHA-256 of the game, edition, options and ``server_seed`` (the layout is in
    `pbem.games.fairplay.verify`); ``engine_seed`` (decimal) is derived from the seed and both players'
    entropy once both accepted. ``export`` caches the game export made at the reveal.
    """

    game_id: int = Field(primary_key=True, foreign_key="game.id")
    server_seed: str = Field(
        max_length=64
    )  # hex of 32 secret bytes: never in a mail before the end
    commitment: str = Field(max_length=64)
    engine_seed: str = Field(default="", max_length=100)
    entropy_kennedy: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    entropy_nixon: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    expires_at: datetime | None = None  # the invitations' deadline
    revealed_at: datetime | None = None
    export: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))


class Invitation(SQLModel, table=True):
    """One player's invitation to a game: pending until ``accept`` or ``decline`` (or expiry)."""

    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str = Field(max_length=8)
    status: str = Field(default="pending", max_length=16)  # pending | accepted | declined | expired
    answered_at: datetime | None = None


class Observer(SQLModel, table=True):
    """Someone who follows a game's public view by mail, once they confirmed, until they
    unsubscribe. ``pending``: asked, waiting for their confirmation code (not ``active``).
    The ``seen_*`` marks say how far their mails went: the game's version, the length of the
    game log, the last `GameEvent` id, and whether they were sent the end
    (`pbem.games.fairplay.observer_feed`)."""

    __table_args__ = (UniqueConstraint("game_id", "email"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    email: str = Field(max_length=320)
    salt: str = Field(max_length=32)  # signs the unsubscribe address
    added_by: str = Field(default="operator", max_length=16)  # operator | kennedy | nixon
    active: bool = True
    pending: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    unsubscribed_at: datetime | None = None
    confirmed_at: datetime | None = None
    seen_version: int = 0
    seen_log: int = 0
    seen_event: int = 0
    seen_end: bool = False


class TableTalk(SQLModel, table=True):
    """One message for a seat's next mail: ``kind`` "say" (from the opponent) or "undo"."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    to_side: str = Field(max_length=8)
    from_side: str = Field(max_length=8)
    kind: str = Field(max_length=8)
    text: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
    delivered_at: datetime | None = None


class KeyQuestion(SQLModel, table=True):
    """The question a seat was asked under one reply-key generation (`engine.question`): a
    reply with an older key is still applied while that question is the one being asked."""

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    side: str = Field(max_length=8, primary_key=True)
    key_gen: int = Field(primary_key=True)
    question: str = Field(max_length=64)


class KeyAnswer(SQLModel, table=True):
    """The game lines of a mail applied under one reply key (`pbem.pipeline.repeats`): a mail
    from the same seat with the same lines under the same key is a re-sent copy of it, whatever
    its Message-ID, and is not applied again."""

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    side: str = Field(max_length=8, primary_key=True)
    key_gen: int = Field(primary_key=True)
    lines: str = Field(max_length=64, primary_key=True)  # sha256 of the mail's game lines
    inbound_id: int | None = Field(default=None, foreign_key="inboundmessage.id")
    repeats: int = 0  # copies received since (the first copy's sender was told)
