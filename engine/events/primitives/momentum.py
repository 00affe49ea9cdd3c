"""Event primitives on momentum markers (R10)."""

from __future__ import annotations

from engine import board
from engine.data import other
from engine.events.script import event_label, nobody, primitive, resolve
from engine.flow import Frame
from engine.state import GameState, log


@primitive
def momentum(g: GameState, f: Frame, who: str = "player", n: int = 1) -> None:
    """Gain (n > 0) or lose (n < 0, never below zero) momentum."""
    side = resolve(g, f, who)
    if side is None:
        if who.startswith("leader:"):
            verb = "gains" if n >= 0 else "loses"
            log(g, f"{event_label(f)}: {nobody(who)}, so no one {verb} momentum.")
        return
    if n >= 0:
        board.gain_momentum(g, side, n)
    else:
        board.lose_momentum(g, side, -n)


@primitive
def match_momentum(g: GameState, f: Frame, who: str = "player") -> None:
    """The side draws level with the opponent's momentum if it has less."""
    side = resolve(g, f, who)
    if side is None:
        return
    gap = g["momentum"][other(side)] - g["momentum"][side]
    if gap > 0:
        board.gain_momentum(g, side, gap)
    else:
        log(g, f"{side.title()} does not have less momentum than {other(side).title()}: no gain.")
