"""Receipts: a short answer to an applied mail that gets no report for its sender.

Under ``notify decisions`` (or ``digest``) a mail that asks its sender nothing new gets no
report, and silence reads as a lost mail. `queue_receipt` answers it with a small mail: what was
applied (the results of its lines and what the server did for the sender with it), who is on the
move now and when the sender will hear next. ``notify receipts off`` stops them (kept with the
seat's orders, `pbem.games.orders.Standing.receipts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlmodel import Session

import engine
from pbem.config import Settings
from pbem.games import orders
from pbem.games.mailing import queue_mail
from pbem.store.models import Game, OutboxMessage, Seat, SeatOrders

__all__ = ["queue_receipt", "wants_receipts"]


def wants_receipts(row: SeatOrders) -> bool:
    """The seat has not said ``notify receipts off``."""
    return orders.Standing.from_json(row.standing).receipts != "off"


def _next_mail(row: SeatOrders) -> str:
    if row.notify == "digest":
        return f"in your daily digest at {row.digest_hour:02d}:00 UTC"
    return "as soon as you must decide, or when the game ends"


def queue_receipt(
    session: Session,
    settings: Settings,
    *,
    game: Game,
    seat: Seat,
    row: SeatOrders,
    state: engine.GameState,
    results: Sequence[dict[str, Any]],
    auto: Sequence[orders.Auto],
    cause: str,
    now: datetime,
    in_reply_to: str | None,
    seats: dict[str, Seat],
) -> OutboxMessage | None:
    """Queue the receipt of the sender's applied mail (see the module docstring)."""
    on_move = [
        f"{side.title()} ({orders.about(state, side)})"
        for side in sorted(engine.active_sides(state))
    ]
    receipt = {
        "done": [a.note() for a in auto if a.side == seat.side],
        "on_move": " and ".join(on_move) or "nobody",
        "next": _next_mail(row),
    }
    return queue_mail(
        session,
        settings,
        kind="receipt",
        game=game,
        seat=seat,
        state=state,
        cause=cause,
        now=now,
        results=results,
        in_reply_to=in_reply_to,
        advance_log=False,  # the next decision mail still tells everything since the last one
        seats=seats,
        extra={"receipt": receipt},
    )
