"""Seats: who may write for a seat (its address, confirmed aliases, an address awaiting
confirmation), the confirmation codes mailed for a resignation or a new address, and the
operator's seat change (`pbem seat`).

Confirmation codes are HMACs of the server secret, the seat and its key salt: a fresh key
(seat change) voids them. The seat words players send by mail are answered by the pipeline
(`pbem.pipeline.stages.seat_commands`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import col, select

import engine
from pbem.clocks import model
from pbem.config import Settings
from pbem.errors import GameNotFound, ServiceError
from pbem.games.setup import EMAIL_RE
from pbem.games.timekeeping import tick as clocks
from pbem.outbox.queue import refresh_key, seats_of
from pbem.store.db import lock_game, transaction
from pbem.store.models import Game, OutboxMessage, Seat, SeatOrders, utcnow

__all__ = ["accepts_sender", "aliases_of", "change_seat", "confirm_code", "valid_email"]

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
        seat, opp = seats[side], seats[clocks.other(side)]
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
        seat.email, seat.aliases, seat.pending_email = address, "", ""
        seat.key_salt, seat.thread_root, seat.decision_sig = secrets.token_hex(8), "", ""
        refresh_key(seat, state)  # a fresh key: every older reply key of the seat is void
        s.add(seat)
        detail = f"{side.title()}'s seat: {old} -> {address} (operator)"
        ev = clocks.record_event(s, game, side, "seat", detail, now)
        clocks.notify(
            s,
            settings,
            game,
            state,
            side,
            ev,
            now,
            seats=seats,
            full=True,
            subject=f"You now play {side.title()} in game #{game_id}",
            lines=[
                f"You take over {side.title()}'s seat in game #{game_id}. Below are "
                "the clocks, the game so far and what to do now; reply to this mail "
                "to play."
            ],
        )
        clocks.notify(
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
