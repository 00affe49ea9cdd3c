"""What a server may decide for a side: the step it faces, forced commands, what a command reveals.

Used by the server's standing and queued orders (pbem.games.orders) so that it never has to look
inside the flow stack itself. Pure: the game state is only read, or applied to a copy.

A *forced* command is the only legal one for a side, or the first of several that all lead to
the same position (`one_choice`: the last strategy cards of a hand, whose order no rule reads). The server may apply it for the player
only when choosing it draws and shows nothing by itself (`shows_by_itself`): the command's own
step draws no card, cube or endorsement and puts no card into the side's hand. A command whose
own step draws (an Election Day card's checks, an event's draw) stays the player's to take, so
each of the player's own draws answers one of their mails. What the game does *after* the
choice is not the choice: the only strategy card left ends the turn, and the next turn's deal
and initiative check (R5.1, R5.2) follow whoever wrote it; the only debate card left is played,
and the round is revealed when both have chosen (R12.4). Those are taken for the player.

`reveals` is the wider question (does anything at all come to light before the next
decision?): what a scripted player asks before it writes another line into the same mail.
"""

from __future__ import annotations

from typing import Any

from engine.api import active_sides, apply, legal_commands
from engine.data import CARDS
from engine.errors import CommandError
from engine.flow import step_of, top
from engine.state import GameState, copy_state

__all__ = [
    "deciding_step",
    "forced_command",
    "one_choice",
    "reveals",
    "shows_by_itself",
    "step_card",
]


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


def shows_by_itself(g: GameState, side: str, cmd: str) -> bool:
    """True if the step of the legal command ``cmd`` draws a card, cube or endorsement, or puts
    a card into the side's hand, before the game moves on (the flow after it is not run)."""
    f = top(g)
    if f is None or cmd not in legal_commands(g, side):
        return True
    g2 = copy_state(g)
    f2 = top(g2)
    assert f2 is not None
    step_of(f2).act(g2, f2, side, cmd.split())
    drawn = (g2["rng"], len(g2["deck"]), len(g2["endorse_deck"])) != (
        g["rng"],
        len(g["deck"]),
        len(g["endorse_deck"]),
    )
    return drawn or bool(set(g2["hands"][side]) - set(g["hands"][side]))


def one_choice(g: GameState, side: str) -> bool:
    """``side`` has one decision to make: a single legal command, or several that all lead to
    the same position (the last two strategy cards of a hand in either order, R11.1)."""
    legal = legal_commands(g, side)
    if len(legal) == 1:
        return True
    f = top(g)
    return bool(legal) and f is not None and step_of(f).choices_equivalent(g, f, side)


def forced_command(g: GameState, side: str) -> str | None:
    """The command the server may choose for ``side``: its one choice (`one_choice`), when that
    draws and shows nothing by itself (see `shows_by_itself`)."""
    if not one_choice(g, side):
        return None
    cmd = legal_commands(g, side)[0]
    return None if shows_by_itself(g, side, cmd) else cmd
