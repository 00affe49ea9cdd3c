"""What a server may decide for a side: the step it faces, forced commands, what a command reveals.

Used by the server's standing and queued orders (pbem.orders) so that it never has to look
inside the flow stack itself. Pure: the game state is only read, or applied to a copy.

A *forced* command is the only legal one for a side. The server may apply it for the player
only when choosing it reveals nothing new to that side (`reveals`): no card, cube or
endorsement is drawn, no card comes into the side's hand, and nothing hidden (a debate pick, an
event's revealed cards) becomes visible. A step whose result the player has not seen yet stays
the player's to take, so every draw is the answer to one of the player's own mails.
"""

from __future__ import annotations

from typing import Any

from engine.api import active_sides, apply, legal_commands
from engine.data import CARDS
from engine.errors import CommandError
from engine.flow import top
from engine.state import GameState

__all__ = ["deciding_step", "forced_command", "reveals", "step_card"]


def deciding_step(g: GameState, side: str) -> str | None:
    """The persisted name of the step ``side`` must decide now (``trigger``, ``campaign`` ...)."""
    if side not in active_sides(g):
        return None
    f = top(g)
    return None if f is None else str(f["step"])


def step_card(g: GameState) -> int | None:
    """The card the current step is about (the card a ``trigger`` question offers), if any."""
    f = top(g)
    card = None if f is None else f.get("card")
    return card if isinstance(card, int) and card in CARDS else None


def _hidden_signature(g: GameState, side: str) -> tuple[Any, ...]:
    """What, when it changes, means something was drawn or shown to ``side``."""
    d = g["debate"]
    debate_cards = sum(len(v) for sides in d["board"].values() for v in sides.values()) if d else 0
    return (
        g["rng"],
        len(g["deck"]),
        len(g["endorse_deck"]),
        len(g["revealed"][side]),
        len(d["revealed"]) if d else 0,
        debate_cards,
    )


def reveals(g: GameState, side: str, cmd: str) -> bool:
    """True if applying ``cmd`` for ``side`` would draw or show that side anything new.

    An illegal command counts as revealing (the caller must not apply it).
    """
    try:
        after = apply(g, side, cmd)
    except CommandError:
        return True
    if _hidden_signature(after, side) != _hidden_signature(g, side):
        return True
    return bool(set(after["hands"][side]) - set(g["hands"][side]))


def forced_command(g: GameState, side: str) -> str | None:
    """The only legal command of ``side`` when the server may choose it (see `reveals`)."""
    legal = legal_commands(g, side)
    if len(legal) != 1 or reveals(g, side, legal[0]):
        return None
    return legal[0]
