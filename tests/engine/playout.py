"""Seeded random playouts for the engine tests: a random active side plays a random
legal command until the game ends. Used by test_playouts and test_hidden_info."""

from __future__ import annotations

import random
from collections.abc import Callable

import engine
from engine.state import GameState

Move = tuple[str, str]

EDITION_OPTIONS: dict[str, list[tuple[str, ...]]] = {
    "zman": [()],
    "gmt": [(), ("vice_presidents",), ("restricted_positioning",),
            ("restricted_positioning", "vice_presidents")],
}


def options_for(seed: int, edition: str) -> tuple[str, ...]:
    """Spread the GMT optional rules (R15) over the seeds."""
    choices = EDITION_OPTIONS[edition]
    return choices[seed % len(choices)]


def play_out(
    seed: int,
    edition: str,
    check: Callable[[GameState, Move, int], GameState | None] | None = None,
) -> tuple[GameState, list[Move]]:
    """A whole random game; ``check(g, move, i)`` runs after every command and may return a
    replacement state (e.g. a JSON round-tripped copy) to continue from."""
    g = engine.new_game(seed, edition=edition, options=options_for(seed, edition))
    rnd = random.Random(f"playout:{edition}:{seed}")
    played: list[Move] = []
    i = 0
    while engine.active_sides(g):
        side = rnd.choice(sorted(engine.active_sides(g)))
        cmd = rnd.choice(engine.legal_commands(g, side))
        engine.apply_in_place(g, side, cmd)
        played.append((side, cmd))
        i += 1
        if check is not None:
            h = check(g, (side, cmd), i)
            if h is not None:
                g = h
        if i > 5000:
            raise AssertionError(f"seed {seed}: no result after {i} commands")
    return g, played


def replay(seed: int, edition: str, played: list[Move]) -> GameState:
    """Rebuild a game from its seed and command list (R17.3: all randomness from the seed)."""
    g = engine.new_game(seed, edition=edition, options=options_for(seed, edition))
    for side, cmd in played:
        engine.apply_in_place(g, side, cmd)
    return g
