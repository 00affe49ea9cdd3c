"""The move log with ``undo``: replay it, and find the mail an ``undo`` would take back.

The log (`pbem.store.models.Move`) is append-only. An ``undo`` mail appends a move whose command is
``undo``; replaying it restores the position before the last mail still standing (its moves
share an ``inbound_id``) — the snapshot the server keeps for exactly this. Whether that mail
may be taken back is the engine's decision (`engine.undo.undo_refusal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from pbem.store.models import Game, Move
from pbem.store.move_log import AFTER_BOT, DECLINED

__all__ = ["UNDO", "Mail", "Replayed", "position_differs", "replay_moves"]

UNDO = "undo"
KEEP_BEFORE = 4  # positions kept for the latest mails (only the last one can ever be undone)


@dataclass
class Mail:
    """The moves of one applied mail: who made them, and the position before them."""

    inbound_id: int | None
    sides: set[str] = field(default_factory=set)
    before: engine.GameState | None = None


@dataclass
class Replayed:
    """The position the log leads to, the mails still standing, or the first failure."""

    state: engine.GameState
    mails: list[Mail]
    moves: int
    error: str = ""


def position_differs(a: engine.GameState, b: engine.GameState) -> list[str]:
    """The keys in which two states differ, the log aside: the log is the engine's wording of
    what happened, and a newer engine may word a line differently or add one (`pbem replay`
    reports that) without any change to the position."""
    return sorted(k for k in set(a) | set(b) if k != "log" and a.get(k) != b.get(k))


def replay_moves(game: Game, moves: Sequence[Move], *, seed: int | None = None) -> Replayed:
    """Rebuild the game from (seed, edition, options) and the log, ``undo`` moves included."""
    state = engine.new_game(
        game.seed if seed is None else seed, edition=game.edition, options=game.option_list
    )
    mails: list[Mail] = []
    current: Mail | None = None
    for m in moves:
        if m.command == UNDO:
            if not mails or mails[-1].before is None or mails[-1].sides != {m.side}:
                return Replayed(
                    state,
                    mails,
                    len(moves),
                    f"move {m.seq}: 'undo' with no mail of {m.side} to take back",
                )
            state = mails.pop().before or state
            current = None
            continue
        if current is None or current.inbound_id != m.inbound_id or m.inbound_id is None:
            current = Mail(m.inbound_id, before=engine.copy_state(state))
            mails.append(current)
            if len(mails) > KEEP_BEFORE:
                mails[-KEEP_BEFORE - 1].before = None
        if m.source not in (DECLINED, AFTER_BOT):
            current.sides.add(m.side)
        try:
            engine.apply_in_place(state, m.side, m.command)
        except engine.CommandError as exc:
            return Replayed(
                state, mails, len(moves), f"move {m.seq} ({m.side}: {m.command!r}): {exc}"
            )
    return Replayed(state, mails, len(moves))
