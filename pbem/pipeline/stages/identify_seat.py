"""The ``identify-seat`` stage: find a verified reply key (address, then threading headers).

The key names the game, the side and the report it answers (`pbem.keys`); it is verified with
the seat's salt and the server's secrets (`pbem.pipeline.reply_keys.seat_by_key`). A mail with
no valid key is ignored, unless its From is an active player's address: then that player, and
only at that address, is told the key is missing (``key_problem``).
"""

from __future__ import annotations

from sqlmodel import col, select

from pbem.pipeline.base import Context, IgnoreMessage, RejectMessage, Stage
from pbem.pipeline.reply_keys import seat_by_key
from pbem.store.models import Game, Seat


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


STAGE = Stage(
    "identify-seat", "find a verified reply key (address, then threading headers)", identify_seat
)
