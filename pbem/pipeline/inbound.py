"""Handlers that decide whether a mail is ours to act on: parse, dedupe, loops, key, sender, game.

Order matters: nothing is answered before the reply key and the sender are
checked, so forged or unknown senders never get mail from us (no backscatter),
and auto-replies and bounces are dropped before anything else (RFC 3834, C3).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from sqlmodel import Session, col, select

import engine
from engine.question import question
from pbem import keys
from pbem.config import Settings, accepted_secrets
from pbem.games.seats import accepts_sender
from pbem.mail import MalformedMessage, ParsedMessage, parse_message
from pbem.mail.budget import cpu_budget
from pbem.outbox import notes as tabletalk
from pbem.outbox.queue import seats_of
from pbem.pipeline import rows
from pbem.pipeline.base import Context, IgnoreMessage, InboundRow, RejectMessage, handler
from pbem.pipeline.seat_words import only_seat_words
from pbem.sanitize import bounded
from pbem.store.db import lock_game
from pbem.store.models import Game, Seat

TRACE_HEADERS = re.compile(
    rb"^(received|return-path|delivered-to|x-original-to):.*(\r?\n[ \t].*)*\r?\n", re.I | re.M
)
KEY_HEADERS = re.compile(
    rb"^(to|cc|delivered-to|x-original-to|envelope-to|received):.*(\r?\n[ \t].*)*", re.I | re.M
)


class DuplicateMessage(IgnoreMessage):
    """Seen before (same dedupe key or same IMAP UID): already handled, do nothing."""

    outcome = "duplicate"


def content_hash(raw: bytes) -> str:
    """sha256 of the message without the trace headers our MTA adds per delivery."""
    head, sep, body = raw.partition(b"\r\n\r\n") if b"\r\n\r\n" in raw else raw.partition(b"\n\n")
    return hashlib.sha256(TRACE_HEADERS.sub(b"", head + b"\n") + sep + body).hexdigest()


def dedupe_key(message_id: str | None, raw: bytes) -> str:
    """Normalised Message-ID (domain lower-cased), else the content hash (C1)."""
    mid = (message_id or "").strip().strip("<>").strip()
    if "@" in mid:
        local, _, domain = mid.rpartition("@")
        return f"mid:{local}@{domain.lower()}"[:400]
    return "sha256:" + content_hash(raw)


@handler("parse", "read the MIME message defensively; garbage is recorded and dropped")
def parse(ctx: Context) -> None:
    if len(ctx.raw) > ctx.settings.max_bytes:
        raise IgnoreMessage(f"too large: {len(ctx.raw)} bytes > {ctx.settings.max_bytes}")
    try:  # a mail over the CPU budget raises OverBudget: the runner quarantines it, with why
        with cpu_budget(ctx.settings.parse_cpu_seconds):
            ctx.parsed = parse_message(ctx.raw, ctx.settings.address)
    except MalformedMessage as exc:
        raise IgnoreMessage(f"malformed message: {exc}") from None


@handler("dedupe", "record the mail once; a second delivery of it is a no-op (C1)")
def dedupe(ctx: Context) -> None:
    assert ctx.parsed is not None
    p = ctx.parsed
    key = dedupe_key(p.message_id, ctx.raw)
    row = InboundRow(None, key, content_hash(ctx.raw), "processing")
    values = {
        "message_id": bounded(p.message_id, 400),
        "mailbox": bounded(ctx.mailbox, 200),
        "uidvalidity": ctx.uidvalidity,
        "uid": ctx.uid,
        "from_addr": bounded(p.from_addr, 320),
        "subject": bounded(p.subject, 500),
        "received_at": ctx.now,
    }
    # one INSERT that does nothing when the dedupe key or the mailbox's UID is known (both
    # unique; a concurrent insert of the same mail waits for it, then does nothing)
    if not rows.insert_inbound(ctx.session, row, values):
        raise DuplicateMessage(f"duplicate of an earlier mail ({key})")
    ctx.inbound = row


@handler("filter-loops", "drop auto-replies, bulk mail, bounces and our own mail (RFC 3834/3464)")
def filter_loops(ctx: Context) -> None:
    assert ctx.parsed is not None
    if ctx.parsed.auto_reason:
        raise IgnoreMessage(f"automatic mail: {ctx.parsed.auto_reason}")


def key_sources(raw: bytes, p: ParsedMessage) -> list[str]:
    """The header values a reply key may be in, best first (address, trace, threading)."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    traced = [m.group(0).decode("ascii", "replace") for m in KEY_HEADERS.finditer(head)]
    return [*p.to_addrs, *traced, p.in_reply_to or "", *reversed(p.references)]


def seat_by_key(session: Session, raw: bytes, p: ParsedMessage, settings: Settings) -> Any:
    """The (key, seat) of the first verified reply key in the mail, or None."""
    for key in keys.find_keys(*key_sources(raw, p)):
        seat = seats_of(session, key.game_id).get(key.side)  # the game's seats, asked once
        if seat is not None and any(
            keys.verify(secret, key, seat.key_salt) for secret in accepted_secrets(settings)
        ):
            return key, seat
    return None


@handler("identify-seat", "find a verified reply key (address, then threading headers)")
def identify_seat(ctx: Context) -> None:
    assert ctx.parsed is not None
    found = seat_by_key(ctx.session, ctx.raw, ctx.parsed, ctx.settings)
    if found is not None:
        ctx.key, ctx.seat = found
        return
    sender = ctx.parsed.from_addr.lower()
    seat = ctx.session.exec(
        select(Seat)
        .join(Game)
        .where(col(Seat.email) == sender, Game.status == "active")
        .order_by(col(Seat.game_id).desc())
    ).first()
    if seat is None:
        raise IgnoreMessage(f"no valid reply key and {sender or 'no sender'} is not a player")
    ctx.seat = seat  # a registered player: explain at the registered address only
    raise RejectMessage("your mail carries no valid reply key", kind="key_problem")


@handler("check-sender", "From must be the seat's registered address; a forgery gets no reply")
def check_sender(ctx: Context) -> None:
    assert ctx.parsed is not None and ctx.seat is not None

    sender = ctx.parsed.from_addr.lower()
    if sender != ctx.seat.email.lower() and not accepts_sender(ctx.seat, sender):
        seat, ctx.seat = ctx.seat, None  # never answer a forgery, not even the seat
        raise IgnoreMessage(
            f"From {ctx.parsed.from_addr!r} is not the address of game {seat.game_id} "
            f"{seat.side} (possible forgery)"
        )


@handler("load-game", "lock the game row and load the position before this mail")
def load_game(ctx: Context) -> None:
    assert ctx.seat is not None and ctx.inbound is not None
    ctx.game = lock_game(ctx.session, ctx.seat.game_id)
    if ctx.game is None:
        raise IgnoreMessage(f"game {ctx.seat.game_id} is gone")
    ctx.state = engine.from_json(ctx.game.snapshot)
    ctx.inbound.game_id, ctx.inbound.side = ctx.game.id, ctx.seat.side
    if ctx.game.status != "active":
        raise RejectMessage("the game is over", kind="game_over")


@handler("check-fresh", "an older key is accepted while its question is still being asked")
def check_fresh(ctx: Context) -> None:
    assert ctx.key is not None and ctx.seat is not None and ctx.state is not None
    if ctx.key.gen == ctx.seat.key_gen:
        return

    if only_seat_words(ctx):
        return
    asked = tabletalk.asked_under(ctx.session, ctx.seat.game_id, ctx.seat.side, ctx.key.gen)
    if asked is not None and asked == question(ctx.state, ctx.seat.side):
        return  # e.g. 'support OH' one point at a time: still the same step and card
    ctx.stale = (  # decided after `extract`: an 'undo' answers no question and passes
        "your mail answers an older report whose question is no longer the one being asked "
        "(the game has moved on since), so nothing was applied; the current position and "
        "question are below — reply to this mail"
    )
