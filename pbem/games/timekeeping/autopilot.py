"""The autopilot: what the server plays for a side whose clock and grace ran out.

It plays with the project's computer player (`bots.choose_command`), the ``heuristic``
kind: rules of thumb from the side's own view only (R17), fast enough to run inside the
tick's transaction (no search budget to spend). Its randomness is `seed_for`: a hash of the
game's engine seed, the game, the position's sequence number and the side, so the same
game times out the same way every time (tests, replays of the log, an operator's question)
while the bot's private seed is never the engine's own (R17.3: the deck order stays
hidden). `play_for` plays the side's whole decision, never more than `MAX_COMMANDS`.
"""

from __future__ import annotations

import hashlib

import engine

__all__ = ["KIND", "MAX_COMMANDS", "choose_command", "play_for", "seed_for"]

KIND = "heuristic"  # the computer player that moves for an absent human
MAX_COMMANDS = 200  # one expiry plays the side's whole decision, never more than this


def seed_for(game_seed: int, game_id: int, state: engine.GameState, side: str) -> int:
    """The bot's seed for ``side``'s decision at ``state``: deterministic, never the game's own."""
    text = f"autopilot:{game_seed}:{game_id}:{state['seq']}:{side}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def choose_command(state: engine.GameState, side: str, seed: int) -> str | None:
    """The autopilot's command for ``side`` now, or None when it has nothing to decide."""
    if side not in engine.active_sides(state):
        return None
    import bots  # only when a clock ran out: every poll imports this module (via expiry)

    return bots.choose_command(state, side, KIND, None, seed)


def play_for(
    state: engine.GameState, side: str, game_seed: int, game_id: int
) -> tuple[engine.GameState, list[str]]:
    """Play ``side``'s turn until it has nothing more to decide; returns (new state, commands)."""
    g = engine.copy_state(state)
    played: list[str] = []
    while len(played) < MAX_COMMANDS:
        cmd = choose_command(g, side, seed_for(game_seed, game_id, g, side))
        if cmd is None:
            break
        engine.apply_in_place(g, side, cmd)
        played.append(cmd)
    return g, played
