"""Appending to a game's move log (`Move`), and what each row's ``source`` means.

Every path that applies commands to a game (a player's mail, a computer player, the
autopilot when a clock runs out, a player's orders answering after a computer opponent)
records them here, in order, after the game's last ``seq``. The source tells `undo` which
rows are a player's own mail (`pbem.games.undo`) and `pbem log` who decided each row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.store.models import Move

__all__ = [
    "AFTER_BOT",
    "AUTOPILOT",
    "BOT",
    "DECLINED",
    "MAIL",
    "SERVER",
    "SOURCE_NOTES",
    "NewMove",
    "append",
]

# a line of a player's mail
MAIL = "mail"
# what a player's queued or standing orders, or the only legal choice, answered in the pass of
# their mail: part of that mail for 'undo' (older moves say 'mail')
SERVER = "server"
# a computer player's move, its reason beside it (`Move.reason`)
BOT = "bot"
# the computer player answering for a side whose clock ran out
AUTOPILOT = "autopilot"
# a trigger the server declined for a player by default (pbem.games.triggers): not that
# player's decision, so it does not stop the mail it came with from being undone
DECLINED = "declined"
# what a player's orders answered after a computer opponent's move (pbem.games.bot_turns):
# no mail of theirs, so 'undo' finds the bot's moves before it
AFTER_BOT = "after-bot"

# `pbem log`'s words beside a row that no player's mail decided
SOURCE_NOTES = {
    SERVER: "done for the player by the server",
    BOT: "computer player",
    AUTOPILOT: "autopilot",
    DECLINED: "declined by default",
    AFTER_BOT: "done for the player by the server, after the computer's move",
}


@dataclass(frozen=True)
class NewMove:
    """One command to append: who played it, and who decided it."""

    side: str
    command: str
    source: str = MAIL
    inbound_id: int | None = None  # the mail it came with, if any
    reason: str | None = None  # a computer player's reason, in words anyone may read
    log_index: int | None = None  # the game log's first line the move wrote


def append(session: Session, game_id: int, moves: Iterable[NewMove], now: datetime) -> list[Move]:
    """Add ``moves`` to the game's log after its last row, in order; returns the rows."""
    last = session.exec(select(func.max(Move.seq)).where(Move.game_id == game_id)).one() or 0
    rows = [
        Move(
            game_id=game_id,
            seq=seq,
            side=m.side,
            command=m.command,
            inbound_id=m.inbound_id,
            created_at=now,
            source=m.source,
            reason=m.reason,
            log_index=m.log_index,
        )
        for seq, m in enumerate(moves, start=last + 1)
    ]
    session.add_all(rows)
    return rows
