"""A player's mail from the game's side: who is mailed, and what a mail carries beyond the view.

Every report, notice and answer the game's policies and the pipeline send goes through
`queue_mail`: a computer-played seat (``bot:…``) is never mailed (its log mark still
advances); every mail shows the seat's standing orders (`pbem.games.orders.orders_extra`)
unless the caller gives its own ``extra``; a committed game's final mail reveals the seed and
carries the game's export (`pbem.games.fairplay.export.reveal_for`). The rendering and the
outbox row are `pbem.outbox.queue`'s. A computer opponent's moves show their reasons beside the log lines
they wrote (`pbem.games.bots.reasons_of`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from sqlmodel import Session

import engine
from pbem.config import Settings
from pbem.games.bots import is_bot, reasons_of
from pbem.games.fairplay.export import reveal_for
from pbem.games.orders import orders_extra
from pbem.outbox import queue
from pbem.outbox.queue import MailOptions
from pbem.store.models import Game, OutboxMessage, Seat

__all__ = ["queue_mail"]


def queue_mail(
    session: Session,
    settings: Settings,
    *,
    kind: str,
    game: Game,
    seat: Seat,
    state: engine.GameState,
    cause: str,
    now: datetime,
    **opt: Unpack[MailOptions],
) -> OutboxMessage | None:
    """Queue ``kind`` for ``seat`` (`pbem.outbox.queue.queue_mail`, the same arguments but
    ``reveal``), or None for a computer-played seat, which is never mailed."""
    if is_bot(seat.email):
        if opt.get("advance_log", True):
            seat.last_log = len(state["log"])
            session.add(seat)
        return None
    seats = opt.get("seats")
    if seats is None:
        seats = opt["seats"] = queue.seats_of(session, game.id or 0)
    reasons = reasons_of(session, game.id or 0, seats)
    if reasons:
        opt["context"] = {"reasons": reasons, **(opt.get("context") or {})}
    if opt.get("extra") is None:
        opt["extra"] = orders_extra(session, seat)
    opt["reveal"] = reveal_for(session, settings, game, now) if kind == "game_over" else None
    return queue.queue_mail(
        session, settings, kind=kind, game=game, seat=seat, state=state, cause=cause, now=now, **opt
    )
