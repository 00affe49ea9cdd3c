"""Seats: who may write for a seat (its address, confirmed aliases, an address awaiting
confirmation), the confirmation codes mailed for a resignation or a new address, and the
operator's seat change (`pbem seat`) with what its former holder is told when they write again
(`former_holder`, `answer_former_holder`).

Confirmation codes are HMACs of the server secret, the seat and its key salt: a fresh key
(seat change) voids them. The seat words players send by mail are answered by the pipeline
(`pbem.pipeline.stages.seat_commands`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import engine
from engine.data import other
from pbem import keys
from pbem.clocks import model
from pbem.config import Settings, accepted_secrets
from pbem.errors import GameNotFound, ServiceError
from pbem.games.fairplay.mails import Note, queue_note
from pbem.games.orders import book_row
from pbem.games.setup import EMAIL_RE
from pbem.games.timekeeping import records
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import lock_game, transaction
from pbem.store.models import Game, GameEvent, OutboxMessage, Seat, SeatOrders, utcnow

__all__ = [
    "FormerHolder",
    "accepts_sender",
    "aliases_of",
    "answer_former_holder",
    "change_seat",
    "confirm_code",
    "former_holder",
    "valid_email",
]

SEAT_EVENT = "seat"
# the seat event's key names the side and the salt of the keys the former holder still has
_SEAT_KEY = re.compile(r"^seat:(kennedy|nixon):([0-9a-f]{16})$")
_SEAT_DETAIL = re.compile(r"^(?:Kennedy|Nixon)'s seat: (\S+) -> (\S+) \(operator\)$")

EMAIL_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+-/=?^_`{|}~@")


def aliases_of(seat: Seat) -> list[str]:
    return [a for a in seat.aliases.split(",") if a]


def accepts_sender(seat: Seat, sender: str) -> bool:
    """True if ``sender`` may write for ``seat`` besides its address (an alias, or pending)."""
    sender = sender.lower()
    return sender in aliases_of(seat) or (bool(seat.pending_email) and sender == seat.pending_email)


def confirm_code(settings: Settings, seat: Seat, purpose: str) -> str:
    """A short code the player must send back to confirm ``purpose`` (resign, an address)."""
    msg = f"{purpose}|{seat.game_id}|{seat.side}|{seat.key_salt}".encode()
    digest = hmac.new(settings.secret.encode(), msg, hashlib.sha256).digest()
    return base64.b32encode(digest[:5]).decode()[:6]


def valid_email(text: str) -> bool:
    local, at, domain = text.partition("@")
    return (
        bool((at and local and "." in domain) or domain == "localhost") and set(text) <= EMAIL_CHARS
    )


def change_seat(
    db: Engine,
    settings: Settings,
    game_id: int,
    side: str,
    address: str,
    *,
    now: datetime | None = None,
) -> str:
    """Give ``side``'s seat to ``address`` with a fresh key; log it and mail both seats."""
    now = now or utcnow()
    address = address.strip().lower()
    if side not in model.SIDES:
        raise ServiceError(f"side {side!r}: expected kennedy or nixon")
    if not EMAIL_RE.match(address):
        raise ServiceError(f"--address: {address!r} is not an email address")
    with transaction(db) as s:
        game: Game | None = lock_game(s, game_id)
        if game is None:
            raise GameNotFound(f"no game #{game_id} (see `pbem games`)")
        seats = seats_of(s, game_id)
        seat, opp = seats[side], seats[other(side)]
        if address == opp.email:
            raise ServiceError(f"{address} holds the other seat: one address per side (R17)")
        old = seat.email
        state: engine.GameState = engine.from_json(game.snapshot)
        for row in s.exec(
            select(OutboxMessage).where(  # nothing more goes to the old address
                OutboxMessage.game_id == game_id,
                OutboxMessage.status == "pending",
                col(OutboxMessage.recipient).in_([old, *aliases_of(seat), seat.pending_email]),
            )
        ):
            row.status, row.last_error = "cancelled", f"seat handed to {address} before it was sent"
            s.add(row)
        orders = s.get(SeatOrders, seat.id)
        if orders is not None:  # the previous player's preference and orders are not the new one's
            orders.notify, orders.digest_hour, orders.digest_at = "decisions", 18, None
            orders.standing, orders.queue, orders.notes = "{}", "[]", "[]"
            s.add(orders)
        since = (
            orders or book_row(s, seat)
        ).decided_log  # the new holder hears of the game since the last decision
        former_salt = seat.key_salt
        seat.email, seat.aliases, seat.pending_email = address, "", ""
        seat.key_salt, seat.thread_root, seat.decision_sig = secrets.token_hex(8), "", ""
        refresh_key(seat, state)  # a fresh key: every older reply key of the seat is void
        s.add(seat)
        detail = f"{side.title()}'s seat: {old} -> {address} (operator)"
        key = f"seat:{side}:{former_salt}"
        ev = records.record_event(s, game, side, SEAT_EVENT, detail, now, key=key)
        records.notify(
            s,
            settings,
            game,
            state,
            side,
            ev,
            now,
            seats=seats,
            full=True,
            since=since,
            log_title="Since the previous player's last decision",
            subject=f"You now play {side.title()} in game #{game_id}",
            lines=[
                f"You take over {side.title()}'s seat in game #{game_id}. Below are "
                "the clocks, the game since the previous player's last decision (moves the "
                "server made for the seat included) and what to do now; "
                "reply to this mail to play. Send 'history' for the whole log."
            ],
        )
        records.notify(
            s,
            settings,
            game,
            state,
            opp.side,
            ev,
            now,
            seats=seats,
            subject=f"{side.title()} has a new player",
            lines=[f"{side.title()}'s seat is now held by {address} (was {old})."],
        )
    return detail


# --- the former holder --------------------------------------------------------------------------


@dataclass(frozen=True)
class FormerHolder:
    """A reply key the seat's former holder still has: the game, the side, their address and
    when the seat changed hands."""

    game_id: int
    side: str
    address: str
    since: datetime


def former_holder(
    session: Session, settings: Settings, key: keys.ReplyKey, sender: str
) -> FormerHolder | None:
    """The seat change ``key`` predates, when ``sender`` held that seat with it, else None.

    The key must verify with the salt the seat had before a change (kept on its ``seat``
    event), and ``sender`` must be the address that held the seat then: nobody else is told."""
    events = session.exec(
        select(GameEvent).where(
            GameEvent.game_id == key.game_id,
            GameEvent.kind == SEAT_EVENT,
            GameEvent.side == key.side,
        )
    ).all()
    for ev in events:
        salt = _SEAT_KEY.match(ev.key or "")
        held = _SEAT_DETAIL.match(ev.detail)
        if salt is None or held is None or held.group(1) != sender.lower():
            continue
        if any(keys.verify(secret, key, salt.group(2)) for secret in accepted_secrets(settings)):
            since = ev.created_at if ev.created_at.tzinfo else ev.created_at.replace(tzinfo=UTC)
            return FormerHolder(key.game_id, key.side, held.group(1), since)
    return None


def answer_former_holder(
    session: Session, settings: Settings, former: FormerHolder, *, cause: str, now: datetime
) -> bool:
    """Tell a former holder, at their own address, that the seat is no longer theirs (at most
    once an hour per game: a mail loop gets nothing more). False if not answered."""
    recent = session.exec(
        select(OutboxMessage.id).where(
            OutboxMessage.game_id == former.game_id,
            OutboxMessage.kind == "former_seat",
            OutboxMessage.recipient == former.address,
            col(OutboxMessage.created_at) >= now - timedelta(hours=1),
        )
    ).first()
    if recent is not None:
        return False
    side, game = former.side.title(), former.game_id
    when = model.fmt_time(former.since.timestamp())
    note = Note(
        game_id=game,
        subject=f"[1960 #{game}] You no longer hold {side}'s seat",
        title=f"You no longer hold {side}'s seat",
        paragraphs=[
            f"You no longer hold {side}'s seat in game #{game} since {when}: the operator "
            "gave it to another player. Nothing in your mail was applied, and this game "
            "sends you nothing more. Your other games are not affected.",
        ],
    )
    left = f"1960.g{game}.former.{cause}"
    queue_note(
        session,
        note,
        kind="former_seat",
        side=None,
        recipient=former.address,
        message_id=keys.signed_message_id(settings.secret, settings.address, left),
        reply_to=settings.address,
        now=now,
    )
    return True
