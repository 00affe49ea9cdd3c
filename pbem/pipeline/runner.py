"""Run one inbound mail through the pipeline in one database transaction.

Success, ignore and reject all commit exactly one `InboundMessage` row (the
dedupe record) together with whatever moves and outbox rows the stages
made. A crash rolls everything back and stores the mail in `Quarantine` with
its stage and traceback; the caller moves the IMAP message only after this
returns (C1), and carries on with the next mail.

A computer player never thinks inside the transaction: when the ``bot-moves`` stage finds a
bot to move with no plan made from that position (`pbem.games.bots.ThinkFirst`), everything
is rolled back, the bot thinks with no transaction open, and the mail runs again with the
plan, which the stage records only if the position is still the one thought about (a bot due
again after a human's standing order answered thinks the same way, its plan kept beside the
first, `pbem.games.bot_turns`). After `pbem.games.bots.MAX_THINKS` changed positions (and
`pbem.games.bot_turns.MAX_ROUNDS` rounds) the mail is applied without the bots' moves, left
to the worker pass (`pbem.games.bot_catch_up`).
"""

from __future__ import annotations

import logging
import re
import time
import traceback
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import counted
from pbem.config import Settings
from pbem.games import bots as bot_seats
from pbem.games.bot_turns import MAX_ROUNDS, Plans
from pbem.games.mailing import queue_mail
from pbem.mail.budget import OverBudget
from pbem.pipeline.base import Context, RejectMessage, Stage, StopPipeline, run
from pbem.pipeline.stages import (
    apply,
    autoplay,
    bot_moves,
    bounce,
    check_auth,
    check_fresh,
    check_repeat,
    check_sender,
    clock,
    dedupe,
    extract,
    fair_play_words,
    filter_loops,
    identify_seat,
    invitation,
    load_game,
    meta_commands,
    observer_mail,
    observers,
    orders,
    parse,
    record,
    report,
    seat_commands,
    table_talk,
    undo,
)
from pbem.pipeline.stages.check_auth import HoldMessage, hold
from pbem.pipeline.stages.dedupe import DuplicateMessage, content_hash, dedupe_key, insert_once
from pbem.sanitize import bounded
from pbem.store.db import lock_game, transaction
from pbem.store.failures import DatabaseProblem, database_problem
from pbem.store.models import InboundMessage, Quarantine, QueuedMail, utcnow

__all__ = ["STAGES", "STAGE_NAMES", "Outcome", "process_message"]

log = logging.getLogger("pbem.pipeline")

STAGES: tuple[Stage, ...] = (  # in this order; listed in `pbem.pipeline`
    parse.STAGE,
    dedupe.STAGE,
    bounce.STAGE,
    filter_loops.STAGE,
    observer_mail.STAGE,
    identify_seat.STAGE,
    check_sender.STAGE,
    check_auth.STAGE,
    invitation.STAGE,
    load_game.STAGE,
    check_fresh.STAGE,
    extract.STAGE,
    check_repeat.STAGE,
    undo.STAGE,
    fair_play_words.STAGE,
    seat_commands.STAGE,
    orders.STAGE,
    meta_commands.STAGE,
    apply.STAGE,
    autoplay.STAGE,
    record.STAGE,
    table_talk.STAGE,
    bot_moves.STAGE,
    clock.STAGE,
    report.STAGE,
    observers.STAGE,
)
STAGE_NAMES = tuple(stage.name for stage in STAGES)
MAX_ERROR_REPLIES_PER_HOUR = 10  # answers to one seat's rejected mails an hour (C3: no loops)
TRANSIENT_RETRIES = (0.2, 1.0, 3.0)  # seconds to wait before each retry of a transient DB error
MESSAGE_ID = re.compile(rb"^message-id:\s*(<[^>\r\n]{1,400}>)", re.I | re.M)


@dataclass(frozen=True)
class Outcome:
    """What became of one mail: applied/rejected/answered/ignored/duplicate/held/quarantined,
    or deferred (a database failure, ``problem``: left in the INBOX for the next run)."""

    outcome: str
    reason: str = ""
    inbound_id: int | None = None
    game_id: int | None = None
    problem: DatabaseProblem | None = None

    @property
    def folder(self) -> str | None:
        """Where the mail goes now (None: it stays in the INBOX)."""
        if self.outcome == "deferred":
            return None
        return "Quarantine" if self.outcome == "quarantined" else "Processed"


def process_message(
    db: Engine,
    settings: Settings,
    raw: bytes,
    *,
    mailbox: str = "",
    uidvalidity: int | None = None,
    uid: int | None = None,
    now: datetime | None = None,
    pipeline: tuple[Stage, ...] = STAGES,
    queued: int | None = None,
) -> Outcome:
    """Process ``raw`` exactly once; never raises, whatever the bytes.

    A transient database error (locked, connection lost, serialization failure) rolls back
    and retries after ``TRANSIENT_RETRIES``; if it persists, or the database cannot be written
    (a full disk, read-only: `pbem.store.failures`), the mail is *deferred* (left in the INBOX,
    or in its queue), never quarantined. Any other exception quarantines it.
    ``queued`` is the mail's `QueuedMail` id (`pbem.worker.handover`): that row is deleted in the
    transaction that records the mail (its inbound or quarantine row), never apart from it.
    """
    now = now or utcnow()
    where = _Where(mailbox, uidvalidity, uid, queued)
    turn = _BotTurn()  # kept across retries: a plan stays good while its position holds
    for wait in (*TRANSIENT_RETRIES, None):
        try:
            return _attempt_thinking(db, settings, raw, where, now, pipeline, turn)
        except _Crash as crash:
            if isinstance(crash.error, OverBudget):  # a stranger's slow bytes: not a bug
                log.warning("quarantined a mail (stage %s): %s", crash.stage, crash.error)
                return _quarantine(
                    db, raw, where, crash.stage, crash.trace, now, f"over budget: {crash.error}"
                )
            problem = database_problem(crash.error)
            if problem is None:
                log.error("quarantined a mail (stage %s)", crash.stage or "?", exc_info=crash.error)
                return _quarantine(db, raw, where, crash.stage, crash.trace, now)
            if wait is None or not problem.transient:  # a full disk does not empty in 3 s
                log.info("deferred a mail: %s", problem.says())  # the pass says it once
                return Outcome("deferred", problem.says()[:500], problem=problem)
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class _Where:
    """Where the mail came from: its IMAP folder and UIDs, and its queue row if handed over."""

    mailbox: str
    uidvalidity: int | None
    uid: int | None
    queued: int | None


@dataclass
class _BotTurn:
    """The bots' plans for the mail's next attempt (by position: a bot may move again after
    a human's standing order answered, `pbem.games.bot_turns`), or ``later``: the mail
    without them."""

    plans: Plans = field(default_factory=dict)
    later: bool = False


def _attempt_thinking(
    db: Engine,
    settings: Settings,
    raw: bytes,
    where: _Where,
    now: datetime,
    pipeline: tuple[Stage, ...],
    turn: _BotTurn,
) -> Outcome:
    """`_attempt`, the bots thinking between attempts, outside the transaction."""
    changed = rounds = 0  # thoughts for a position that changed; for a later round
    while changed < bot_seats.MAX_THINKS and rounds < MAX_ROUNDS:
        try:
            return _attempt(db, settings, raw, where, now, pipeline, turn)
        except bot_seats.ThinkFirst as need:  # rolled back: no lock is held while it thinks
            rounds += need.chained
            changed += not need.chained
            plan = bot_seats.think(settings, need.game_id, need.state, need.robots)
            turn.plans[plan.position] = plan
    log.info("the position kept changing while the bot thought: its moves are left to the pass")
    turn.later = True
    return _attempt(db, settings, raw, where, now, pipeline, turn)


def _dequeue(session: Session, where: _Where) -> None:
    if where.queued is not None:
        session.execute(delete(QueuedMail).where(col(QueuedMail.id) == where.queued))


class _Crash(Exception):
    """An exception escaped the pipeline (carried with its stage and traceback)."""

    def __init__(self, error: BaseException, stage: str) -> None:
        super().__init__(str(error))
        self.error, self.stage, self.trace = error, stage, traceback.format_exc()


def _attempt(
    db: Engine,
    settings: Settings,
    raw: bytes,
    where: _Where,
    now: datetime,
    pipeline: tuple[Stage, ...],
    turn: _BotTurn,
) -> Outcome:
    ctx: Context | None = None
    try:
        with transaction(db) as session:
            ctx = Context(session, settings, raw, now, where.mailbox, where.uidvalidity, where.uid)
            ctx.bot_plans, ctx.bots_later = turn.plans, turn.later
            try:
                run(ctx, pipeline)
                out = _finish(ctx, "applied", "")
            except StopPipeline as stop:
                out = _stopped(ctx, stop)
            _dequeue(session, where)  # in the same transaction as the mail's record
            return out
    except bot_seats.ThinkFirst:
        raise
    except Exception as exc:
        raise _Crash(exc, ctx.stage if ctx is not None else "") from exc


def _finish(ctx: Context, outcome: str, reason: str) -> Outcome:
    if ctx.inbound is None:
        _record_unparsed(ctx)
    assert ctx.inbound is not None
    if ctx.inbound.outcome == "processing" or outcome != "applied":
        ctx.inbound.outcome = outcome
    ctx.inbound.detail = _detail(ctx, reason)
    game_id = ctx.game.id if ctx.game is not None else None
    return Outcome(ctx.inbound.outcome, reason, ctx.inbound.id, game_id)


def _detail(ctx: Context, reason: str) -> str:
    parts = [reason] if reason else []
    if ctx.lines:
        parts.append("lines: " + " | ".join(ctx.lines))
    if ctx.ignored:
        parts.append(f"ignored {counted(len(ctx.ignored), 'line')}")
    return "; ".join(parts)


def _record_unparsed(ctx: Context) -> None:
    """A mail stopped before `dedupe` (too large, garbage): record it by content hash."""
    key = dedupe_key(None, ctx.raw)
    found = ctx.session.exec(select(InboundMessage).where(InboundMessage.dedupe_key == key)).first()
    if found is not None:  # the same bytes again: its record is written anew
        ctx.inbound = found
        return
    row = InboundMessage(
        dedupe_key=key,
        content_hash=content_hash(ctx.raw),
        outcome="ignored",
        mailbox=ctx.mailbox,
        uidvalidity=ctx.uidvalidity,
        uid=ctx.uid,
        received_at=ctx.now,
    )
    if not insert_once(ctx.session, row):  # its IMAP UID is known: a redelivery
        raise AssertionError(f"mail {key} was not recorded: its mailbox UID is known")
    ctx.inbound = row


def _stopped(ctx: Context, stop: StopPipeline) -> Outcome:
    if isinstance(stop, DuplicateMessage):
        ctx.session.rollback()
        return Outcome("duplicate", stop.reason)
    if isinstance(stop, HoldMessage):
        hold(ctx, stop)
    if isinstance(stop, RejectMessage) and not _answer(ctx, stop):
        return _finish(ctx, stop.outcome, stop.reason + " (no reply: error-reply limit reached)")
    return _finish(ctx, stop.outcome, stop.reason)


def _answer(ctx: Context, stop: RejectMessage) -> bool:
    """Queue the rejection for the seat's registered address; False if rate-limited (C3)."""
    assert ctx.seat is not None and ctx.inbound is not None and ctx.parsed is not None
    recent = _recent_rejections(ctx)
    if len(recent) >= MAX_ERROR_REPLIES_PER_HOUR:
        return False
    context: dict[str, object] = {}
    if len(recent) == MAX_ERROR_REPLIES_PER_HOUR - 1:  # this answer is the last for a while
        oldest = min(recent) if recent else ctx.now
        context = {
            "error_replies_until": (oldest + timedelta(hours=1)).strftime("%H:%M UTC"),
            "error_replies_max": MAX_ERROR_REPLIES_PER_HOUR,
        }
    if ctx.game is None:
        ctx.game = lock_game(ctx.session, ctx.seat.game_id)
        assert ctx.game is not None
        ctx.state = engine.from_json(ctx.game.snapshot)
        ctx.inbound.game_id, ctx.inbound.side = ctx.game.id, ctx.seat.side
    assert ctx.state is not None
    ctx.session.flush()
    queue_mail(
        ctx.session,
        ctx.settings,
        kind=stop.kind,
        game=ctx.game,
        seat=ctx.seat,
        state=ctx.state,
        cause=f"in{ctx.inbound.id}",
        now=ctx.now,
        results=ctx.results,
        error=stop.reason,
        ignored=ctx.ignored,
        in_reply_to=ctx.parsed.message_id,
        advance_log=False,
        extra=context,
    )
    return True


def _recent_rejections(ctx: Context) -> list[datetime]:
    """When this sender's mails of the last hour were rejected."""
    assert ctx.parsed is not None
    since = ctx.now - timedelta(hours=1)
    stmt = select(InboundMessage.received_at).where(
        col(InboundMessage.from_addr) == ctx.parsed.from_addr,
        col(InboundMessage.outcome) == "rejected",
        col(InboundMessage.received_at) >= since,
    )
    return [t for t in ctx.session.exec(stmt).all() if t is not None]


def _quarantine(
    db: Engine, raw: bytes, where: _Where, stage: str, error: str, now: datetime, reason: str = ""
) -> Outcome:
    """Store the crashed mail; if even that fails it still goes to the Quarantine folder."""
    found = MESSAGE_ID.search(raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0])
    mid = bounded(found.group(1).decode("utf-8", "replace"), 400) if found else ""
    last = error.strip().splitlines()[-1] if error.strip() else "error"
    reason = reason or f"crashed in {stage or '?'}: {last}"
    try:
        with transaction(db) as session:
            session.add(
                Quarantine(
                    dedupe_key=dedupe_key(mid, raw),
                    message_id=mid,
                    mailbox=bounded(where.mailbox, 200),
                    uidvalidity=where.uidvalidity,
                    uid=where.uid,
                    stage=bounded(stage, 64),
                    error=bounded(error, 100_000, keep_newlines=True),
                    raw=raw,
                    created_at=now,
                )
            )
            _dequeue(session, where)
    except Exception as exc:
        problem = database_problem(exc)
        if problem is not None:
            log.warning("deferred a crashed mail: cannot store it in the quarantine now (%s)", exc)
            return Outcome("deferred", reason, problem=problem)
        log.exception("could not store a quarantined mail; it is only in the IMAP folder")
        reason += f" (not stored in the database: {type(exc).__name__})"
        if where.queued is not None:  # never retried for ever; the IMAP copy is in Processed
            with suppress(Exception), transaction(db) as session:
                _dequeue(session, where)
    return Outcome("quarantined", reason)
