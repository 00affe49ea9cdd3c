"""The ``check-sender`` stage: From must be the seat's address; a forgery gets no reply.

The seat's registered address, a confirmed alias, or an address awaiting confirmation (which
``seat-commands`` then lets only confirm itself) may write for the seat. Any other From is
ignored and nobody is answered: a stolen reply key cannot be used to make us mail anyone.
"""

from __future__ import annotations

from pbem.games.seats import accepts_sender
from pbem.pipeline.base import Context, IgnoreMessage, Stage


def check_sender(ctx: Context) -> None:
    assert ctx.parsed is not None and ctx.seat is not None

    sender = ctx.parsed.from_addr.lower()
    if sender != ctx.seat.email.lower() and not accepts_sender(ctx.seat, sender):
        seat, ctx.seat = ctx.seat, None  # never answer a forgery, not even the seat
        raise IgnoreMessage(
            f"From {ctx.parsed.from_addr!r} is not the address of game {seat.game_id} "
            f"{seat.side} (possible forgery)"
        )


STAGE = Stage(
    "check-sender",
    "From must be the seat's registered address; a forgery gets no reply",
    check_sender,
)
