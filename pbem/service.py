"""The server's operations; the CLI only parses options and prints what these return.

`new_game` creates a game and queues the welcome mails; `poll_once` processes
every mail in the inbox (moving each only after its transaction committed), then
queues the daily digests that are due (`pbem.notify.digest_pass`);
`drain_outbox` sends queued mail with retry and backoff; `replay` rebuilds a
game from its move log; `show`, `games`, `game_log` are operator views;
`check` tests the database, IMAP and SMTP settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import parseaddr
from typing import Any, Protocol

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from pbem import mailimages
from pbem.bot_seats import catch_up, is_bot, parse_bot, play_bots, store
from pbem.clocks import service as _clocks
from pbem.clocks.control import TimeControl
from pbem.config import Settings
from pbem.db import is_sqlite, is_transient, transaction
from pbem.mail import (
    Fetched,
    FileAttachment,
    ImapMailbox,
    PermanentFailure,
    SendFailure,
    SmtpSender,
    TemporaryFailure,
    build_message,
)
from pbem.models import Game, MailImage, Move, OutboxMessage, Seat, utcnow
from pbem.notify import digest_pass, start_orders
from pbem.pipeline import process_message
from pbem.render import render
from pbem.replies import queue_mail, refresh_key, render_context, seats_of
from pbem.undo import replay_moves

__all__ = [
    "GameNotFound",
    "PollStats",
    "SendStats",
    "ServiceError",
    "drain_outbox",
    "game_log",
    "games",
    "new_game",
    "poll_once",
    "replay",
    "show",
    "show_json",
]

EMAIL_RE = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$|^[^@\s<>]+@localhost$")
MAX_ATTEMPTS = 10
FETCH_BATCH = 50
CLAIM_BATCH = 10  # outbox rows claimed at a time (a crash leaves at most these leased)
SIDE_CHOICES = ("kennedy", "nixon", "public")


class ServiceError(Exception):
    """A user-level error (bad argument, unknown game); the CLI shows the message."""


class GameNotFound(ServiceError):
    pass


class Inbox(Protocol):
    """What `poll_once` needs from a mailbox (ImapMailbox, MemoryMailbox)."""

    def fetch_new(self, limit: int | None = None) -> list[Fetched]: ...

    def move(self, uid: int, folder: str) -> None: ...


class Sender(Protocol):
    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> None: ...


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


# --- games -----------------------------------------------------------------------------------


def new_game(
    db: Engine,
    settings: Settings,
    *,
    kennedy: str,
    nixon: str,
    edition: str = "zman",
    options: Iterable[str] = (),
    seed: int | None = None,
    invite: bool = False,
    expires_in: timedelta | None = None,
    now: datetime | None = None,
    clock: TimeControl | None = None,
) -> int:
    """Create a game, seat both players and queue their first mails; returns the game id.

    With ``invite`` both players are invited (`pbem.fairplay.games`): the game starts when both
    accept. Without ``seed`` the game's seed is committed (a secret 32-byte seed, revealed at the
    end); a fixed ``seed`` starts at once with no commitment (tests, demos, reproductions).
    A seat may be a computer player, ``bot:heuristic`` or ``bot:search[:SECONDS]`` (not both
    seats: bots play each other with `pbem tournament`); if it is to move first, it moves at
    once, before the welcome mails are written.

    ``clock`` is the game's time control (default: the site's, `pbem.clocks`).
    """
    now = now or utcnow()
    control = clock if clock is not None else _clocks.site_control(settings)
    emails = {"kennedy": kennedy.strip().lower(), "nixon": nixon.strip().lower()}
    for side, email in emails.items():
        if is_bot(email):
            try:
                parse_bot(email)
            except ValueError as exc:
                raise ServiceError(f"--{side}: {exc}") from None
        elif not EMAIL_RE.match(email):
            raise ServiceError(
                f"--{side}: {email!r} is not an email address "
                "(or bot:heuristic, bot:search for a computer player)"
            )
    if invite and any(is_bot(e) for e in emails.values()):
        raise ServiceError("a bot seat cannot be invited: start the game at once (--start)")
    if all(is_bot(e) for e in emails.values()):
        raise ServiceError(
            "both seats are bots: a game by email needs a human "
            "(to watch bots play each other, use `pbem tournament`)"
        )
    if emails["kennedy"] == emails["nixon"]:
        raise ServiceError(
            "the two players need different addresses (the address identifies the side)"
        )
    if seed is not None and invite:
        raise ServiceError(
            "a fixed seed cannot be committed: invitations need the server's own "
            "secret seed (leave out --seed, or start at once with --start)"
        )
    try:
        state = engine.new_game(0 if seed is None else seed, edition=edition, options=options)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    if seed is None:
        from pbem.fairplay.games import new_committed_game

        game_id = new_committed_game(
            db,
            settings,
            emails=emails,
            edition=edition,
            options=list(state["options"]),
            invite=invite,
            now=now,
            expires_in=expires_in,
            clock=_clocks.pending_clock(control),
        )
        return game_id  # its clock starts with the game (pbem.clocks)
    with transaction(db) as s:
        game = Game(
            seed=seed,
            edition=edition,
            options=",".join(state["options"]),
            snapshot=engine.to_json(state),
            created_at=now,
            updated_at=now,
        )
        _clocks.start_clock(game, control, state, now.timestamp())
        s.add(game)
        s.flush()
        assert game.id is not None
        for side, email in emails.items():
            seat = Seat(game_id=game.id, side=side, email=email, key_salt=secrets.token_hex(8))
            refresh_key(seat, state)
            s.add(seat)
        s.flush()
        seats = seats_of(s, game.id)
        if play_bots(s, settings, game, state, seats, now):  # the bot moves first
            store(game, state, now)
            for seat in seats.values():
                refresh_key(seat, state)
        _clocks.sync(s, game, state, now)  # no clock runs for a bot seat
        start_orders(s, seats, state)
        for seat in seats.values():
            queue_mail(
                s,
                settings,
                kind="welcome",
                game=game,
                seat=seat,
                state=state,
                cause="v0",
                now=now,
                seats=seats,
            )
        return game.id


def _load(s: Session, game_id: int) -> tuple[Game, engine.GameState]:
    game = s.get(Game, game_id)
    if game is None:
        raise GameNotFound(f"no game #{game_id} (see `pbem games`)")
    if not game.snapshot:
        raise ServiceError(
            f"game #{game_id} has not started: it is {game.status} (invitations, see `pbem games`)"
        )
    return game, engine.from_json(game.snapshot)


def _side(as_: str) -> str | None:
    if as_ not in SIDE_CHOICES:
        raise ServiceError(f"--as must be one of {', '.join(SIDE_CHOICES)}")
    return None if as_ == "public" else as_


def show_json(db: Engine, game_id: int, as_: str = "public") -> engine.View:
    """That side's `engine.view` (with its legal commands), for scripts."""
    with Session(db) as s:
        _, state = _load(s, game_id)
    return engine.view(state, _side(as_))


def show(db: Engine, settings: Settings, game_id: int, as_: str = "public") -> str:
    """The text a side's report shows now (``public``: the observer's board)."""
    side = _side(as_)
    with Session(db) as s:
        game, state = _load(s, game_id)
        seats = seats_of(s, game_id)
        if side is None:
            return _public_text(game, state) + _clocks.show_text(game, utcnow())
        seat = seats[side]
        other = seats["nixon" if side == "kennedy" else "kennedy"]
        ctx = render_context(settings, game, seat, state, opponent=other.email, since=seat.last_log)
    return render("status", ctx).text


def _public_text(game: Game, state: engine.GameState) -> str:
    v = engine.view(state, None)
    lines = [
        f"Game #{game.id} ({game.edition}) turn {v['turn']}, phase {v['phase']}",
        f"Decision: {v['decision']}",
        f"Momentum K {v['momentum']['kennedy']} / N {v['momentum']['nixon']}; "
        f"hands K {v['hand_sizes']['kennedy']} / N {v['hand_sizes']['nixon']}",
    ]
    for code, sp in sorted(v["states"].items()):
        if sp["cubes"]:
            lines.append(f"  {code:3} {sp['side'] or '-':8} {sp['cubes']}")
    if v["result"]:
        lines.append("Result: " + json.dumps(v["result"], sort_keys=True))
    return "\n".join(lines)


@dataclass(frozen=True)
class GameRow:
    id: int
    edition: str
    status: str
    turn: int
    phase: str
    waiting_for: str
    kennedy: str
    nixon: str
    moves: int
    updated_at: datetime
    clocks: str = ""  # who is on the move and for how long (pbem.clocks)


def games(db: Engine) -> list[GameRow]:
    """One summary row per game, newest first."""
    out = []
    with Session(db) as s:
        for game in s.exec(select(Game).order_by(col(Game.id).desc())).all():
            seats = seats_of(s, game.id or 0)
            if not game.snapshot:  # invited (or declined/expired before it started)
                out.append(_unstarted_row(s, game, seats))
                continue
            state = engine.from_json(game.snapshot)
            n = len(s.exec(select(Move.id).where(Move.game_id == game.id)).all())
            waiting = (
                "" if game.status != "active" else ", ".join(sorted(engine.active_sides(state)))
            )
            out.append(
                GameRow(
                    game.id or 0,
                    game.edition,
                    game.status,
                    state["turn"],
                    state["phase"],
                    waiting,
                    seats["kennedy"].email,
                    seats["nixon"].email,
                    n,
                    game.updated_at,
                    _clocks.clock_line(game, utcnow()),
                )
            )
    return out


def _unstarted_row(s: Session, game: Game, seats: dict[str, Seat]) -> GameRow:
    from pbem.fairplay.games import invitations

    rows = invitations(s, game.id or 0)
    pending = [r.side for r in rows if r.status == "pending"]
    expires = rows[0].expires_at if rows else None
    waiting = (
        "accept: " + ", ".join(pending) + (f" (until {expires:%Y-%m-%d %H:%M})" if expires else "")
        if game.status == "invited"
        else "-"
    )
    return GameRow(
        game.id or 0,
        game.edition,
        game.status,
        0,
        "invitation",
        waiting,
        seats["kennedy"].email,
        seats["nixon"].email,
        0,
        game.updated_at,
    )


def game_log(db: Engine, game_id: int) -> list[Move]:
    """The move log in order."""
    with Session(db) as s:
        _load(s, game_id)
        return list(s.exec(select(Move).where(Move.game_id == game_id).order_by(col(Move.seq))))


@dataclass(frozen=True)
class ReplayReport:
    game_id: int
    moves: int
    ok: bool
    problem: str = ""


def replay(db: Engine, game_id: int) -> ReplayReport:
    """Rebuild the game from (seed, edition, options) + the move log; compare with the snapshot."""
    with Session(db) as s:
        from pbem.fairplay.games import engine_seed_of

        game, snapshot = _load(s, game_id)
        moves = list(s.exec(select(Move).where(Move.game_id == game_id).order_by(col(Move.seq))))
        seed = engine_seed_of(s, game)
    replayed = replay_moves(game, moves, seed=seed)  # 'undo' moves restore a mail's position
    if replayed.error:
        return ReplayReport(game_id, len(moves), False, replayed.error)
    state = replayed.state
    if state != snapshot:
        diff = sorted(k for k in set(state) | set(snapshot) if state.get(k) != snapshot.get(k))
        return ReplayReport(game_id, len(moves), False, "snapshot differs in: " + ", ".join(diff))
    return ReplayReport(game_id, len(moves), True)


# --- mail in and out ---------------------------------------------------------------------------


@dataclass
class PollStats:
    """Counts of outcomes of one `poll_once` pass."""

    outcomes: Counter[str] = field(default_factory=Counter)
    games: set[int] = field(default_factory=set)

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())

    def summary(self) -> str:
        return ", ".join(f"{n} {k}" for k, n in sorted(self.outcomes.items())) or "nothing new"


def poll_once(
    db: Engine,
    settings: Settings,
    inbox: Inbox,
    *,
    mailbox: str = "INBOX",
    now: datetime | None = None,
    after_each: Callable[[], None] | None = None,
) -> PollStats:
    """Process every mail still in the inbox; move each after its commit (C1).

    ``after_each`` is called after each mail's transaction (`pbem.outbox_pump.OutboxPump.nudge`:
    its reports are sent while the next mail is processed)."""
    stats = PollStats()
    seen: set[tuple[int, int]] = set()
    while True:  # in batches, so a flooded inbox never sits in memory at once
        batch = [
            m for m in inbox.fetch_new(limit=FETCH_BATCH) if (m.uidvalidity, m.uid) not in seen
        ]
        done: dict[str, list[int]] = {}
        try:
            for item in batch:
                seen.add((item.uidvalidity, item.uid))
                out = process_message(
                    db,
                    settings,
                    item.raw,
                    mailbox=mailbox,
                    uidvalidity=item.uidvalidity,
                    uid=item.uid,
                    now=now,
                )
                if out.folder is not None:  # a deferred mail stays in the INBOX
                    done.setdefault(out.folder, []).append(item.uid)
                stats.outcomes[out.outcome] += 1
                if out.game_id is not None:
                    stats.games.add(out.game_id)
                if after_each is not None:
                    after_each()
        finally:
            _move(inbox, done)  # each only after its commit (C1); a crash before: dedupe skips it
        if len(batch) < FETCH_BATCH:
            break
    now = now or utcnow()
    from pbem.fairplay.games import expire_invitations

    try:
        stats.games.update(expire_invitations(db, settings, now))
        made = catch_up(db, settings, now)  # bot seats left to move (after an error, say)
        digests = digest_pass(db, settings, now)  # the daily digests now due
    except Exception as exc:
        if not is_transient(exc):
            raise
        made = digests = 0  # the database is busy: the next run does them
    if made:
        stats.outcomes["bot moves"] += made
    if digests:
        stats.outcomes["digest"] += digests
    return stats


def _move(inbox: Inbox, done: dict[str, list[int]]) -> None:
    """Move the batch's committed mails, one command per folder when the mailbox can."""
    many = getattr(inbox, "move_many", None)
    for folder, uids in done.items():
        if many is not None:
            many(uids, folder)
        else:
            for uid in uids:
                inbox.move(uid, folder)


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


def sender_for(address: str, game_id: int | None) -> str:
    """``"1960 — game #12" <game@…>`` so a mailbox of many games tells them apart at a glance;
    an address configured with its own display name keeps it."""
    name, addr = parseaddr(address)
    if name or game_id is None or not addr:
        return address
    return f'"1960 \u2014 game #{game_id}" <{addr}>'


def raw_message(
    settings: Settings, row: OutboxMessage, images: Mapping[str, MailImage] | None = None
) -> bytes:
    """The bytes of outbox ``row``; ``images`` (stored parts by id, `mailimages.load`) go
    inline or attached, as the row's HTML names them."""
    extras = json.loads(row.extras) if row.extras else {}  # headers and attachments (fair play)
    files = [
        FileAttachment(a["filename"], a["text"].encode("utf-8"), a["content_type"])
        for a in extras.get("attachments", ())
    ]
    return build_message(
        sender=sender_for(settings.address, row.game_id),
        to=row.recipient,
        subject=row.subject,
        text=row.text,
        html=row.html or None,
        message_id=row.message_id,
        in_reply_to=row.in_reply_to or None,
        references=row.references.split(),
        reply_to=row.reply_to or None,
        images=mailimages.for_html(row.html, dict(images or {})),
        headers=extras.get("headers"),
        attachments=[*mailimages.attachments_for(row.html, dict(images or {})), *files],
    )


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
    could not be reached (the rest stays due for the next run, ``stats.unreachable``)."""
    while True:
        rows = _claim(db, now, max(1, min(limit, CLAIM_BATCH)))
        if not rows:
            return True
        left = await _send_rows(db, settings, sender, rows, now, stats)
        if left is not None:
            _release(db, left, now)
            stats.unreachable = True
            stats.retrying = pending_count(db)
            return False


CLAIM_LEASE = timedelta(minutes=5)  # a killed worker's claimed rows are sent again after it
_MARK_COLUMNS = ("attempts", "status", "sent_at", "last_error", "next_attempt_at")


def _claim(db: Engine, now: datetime, n: int) -> list[OutboxMessage]:
    """Take up to ``n`` due rows for this worker: their ``next_attempt_at`` moves a lease ahead."""
    with transaction(db) as s:
        stmt = (
            select(OutboxMessage)
            .where(
                OutboxMessage.status == "pending",
                col(OutboxMessage.next_attempt_at) <= now,
            )
            .order_by(col(OutboxMessage.id))
            .limit(n)
        )
        if not is_sqlite(db):
            stmt = stmt.with_for_update(skip_locked=True)
        rows = list(s.exec(stmt))
        ids = [r.id for r in rows]
        if ids:
            table = OutboxMessage.__table__  # type: ignore[attr-defined]
            s.execute(
                update(table).where(table.c.id.in_(ids)).values(next_attempt_at=now + CLAIM_LEASE)
            )
        for row in rows:
            s.expunge(row)  # detached with the columns loaded; the lease is in the database
        return rows


def _release(db: Engine, rows: list[OutboxMessage], now: datetime) -> None:
    """Hand claimed rows that were not tried back: due again at once."""
    if not rows:
        return
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    with transaction(db) as s:
        s.execute(
            update(table).where(table.c.id.in_([r.id for r in rows])).values(next_attempt_at=now)
        )


async def _send_rows(
    db: Engine,
    settings: Settings,
    sender: Sender,
    rows: list[OutboxMessage],
    now: datetime,
    stats: SendStats,
) -> list[OutboxMessage] | None:
    """Send claimed rows; None when all were tried, else the rows left when the server is down."""
    table = OutboxMessage.__table__  # type: ignore[attr-defined]
    mark = update(table).where(table.c.id == bindparam("row_id"))
    with db.execution_options(pbem_write=True).connect() as conn:
        with db.connect() as read:  # a plain read: no write lock
            images = mailimages.load(read, (r.html for r in rows))
        for i, row in enumerate(rows):
            raw = raw_message(settings, row, images)
            failure: SendFailure | None = None
            try:  # outside any transaction: a crash after this resends the same Message-ID (C2)
                await sender.send(raw, settings.address, [row.recipient])
            except SendFailure as exc:
                failure = exc
            _mark(row, failure, now, stats)
            with conn.begin():  # one UPDATE + commit per sent mail (C2), Core: no ORM flush
                conn.execute(
                    mark, {"row_id": row.id, **{c: getattr(row, c) for c in _MARK_COLUMNS}}
                )
            if _unreachable(failure):
                return rows[i + 1 :]
    return None


def _unreachable(failure: SendFailure | None) -> bool:
    """No SMTP reply at all (refused, timed out, dropped): the server, not this mail."""
    return isinstance(failure, TemporaryFailure) and failure.code is None


def _mark(row: OutboxMessage, failure: SendFailure | None, now: datetime, stats: SendStats) -> None:
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
