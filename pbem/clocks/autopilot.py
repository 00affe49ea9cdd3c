"""The autopilot: what the server plays for a side whose clock and grace ran out.

`choose_command` is the ONE place that picks the move. Today it is a legal
default, the lowest-risk command the engine can name: ``pass``, ``decline`` or
``done`` when legal; otherwise a card played for CP that the opponent cannot
trigger (the player's own or a neutral icon), the weakest first, positioning
before campaigning before advertising; otherwise the first legal command in a
stable order. A computer opponent replaces it by changing this one function.
"""

from __future__ import annotations

import engine

__all__ = ["choose_command", "play_for"]

PASSIVE = ("pass", "decline", "done")
CP_USES = ("position", "campaign", "advertise")
MAX_COMMANDS = 200  # one expiry plays the side's whole decision, never more than this


def _risk(cmd: str, side: str) -> tuple[int, int, str]:
    """Sort key: lower is safer."""
    words = cmd.split()
    verb = words[0]
    if verb in CP_USES and len(words) >= 2 and words[1].isdigit():
        card = engine.card_info(int(words[1]))
        foreign = card["icon"] not in (side, "both", "", None)
        preempt = words[-1] == "preempt"
        return (1 + foreign + 2 * preempt, int(card["cp"]) * 3 + CP_USES.index(verb), cmd)
    return (5, 0, cmd)


def choose_command(state: engine.GameState, side: str) -> str | None:
    """The autopilot's command for ``side`` now, or None when it has nothing to decide."""
    legal = engine.legal_commands(state, side)
    if not legal:
        return None
    for word in PASSIVE:
        if word in legal:
            return word
    return min(legal, key=lambda c: _risk(c, side))


def play_for(state: engine.GameState, side: str) -> tuple[engine.GameState, list[str]]:
    """Play ``side``'s turn until it has nothing more to decide; returns (new state, commands)."""
    g = engine.copy_state(state)
    played: list[str] = []
    while len(played) < MAX_COMMANDS and side in engine.active_sides(g):
        cmd = choose_command(g, side)
        if cmd is None:
            break
        engine.apply_in_place(g, side, cmd)
        played.append(cmd)
    return g, played
