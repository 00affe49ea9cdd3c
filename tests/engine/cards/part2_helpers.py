"""Shared helpers for the card-event tests of cards 49-97 (issue 4).

Builds on `part1_helpers` (``played``, ``triggered``, ``new_log``, ``conserved``,
``awaiting_action``) with: a persistent-spaces builder, a driver that plays an
activity phase's remaining decisions, and `finish_turn` that drives a turn to its
end so rest-of-turn durations (R6.3) can be checked.
"""

from __future__ import annotations

import engine
from engine.flow import advance
from engine.state import GameState
from tests.engine.builders import move_cards, top


def persistent(
    prevention: tuple[int, ...] = (), election_day: tuple[int, ...] = ()
) -> dict[str, list[int]]:
    return {"prevention": list(prevention), "debate": [], "election_day": list(election_day)}


def in_force(g: GameState, *cards: int) -> GameState:
    """Put prevention cards in force (taken out of the deck, hands and piles first)."""
    move_cards(g, list(cards))
    g["persistent"]["prevention"].extend(cards)
    return g


def effect_ids(g: GameState) -> list[tuple[str, str]]:
    return [(e["id"], e["side"]) for e in g["effects"]]


def finish_turn(g: GameState) -> GameState:
    """Take the first legal command of whoever decides until the turn number changes."""
    turn = g["turn"]
    for _ in range(2000):
        if g["turn"] != turn:
            return g
        side = sorted(engine.active_sides(g))[0]
        legal = engine.legal_commands(g, side)
        cmd = "done" if "done" in legal else legal[0]
        if top(g)["step"] == "action":
            cmd = next((c for c in legal if c.startswith("position")), legal[0])
        g = engine.apply(g, side, cmd)
    raise AssertionError("the turn did not end")


def election_events(
    cards: list[int],
    initiative: str = "kennedy",
    *,
    edition: str = "zman",
    states: dict[str, int] | None = None,
    clear_board: bool = True,
    **overrides: object,
) -> GameState:
    """Election Day at R13.4: ``cards`` are the Election Day events in force, strategy cards done.

    The bag is no longer refilled (R13.3); ``overrides`` set top-level keys (e.g. ``bag=``).
    """
    g = engine.new_game(7, edition=edition)
    move_cards(g, cards)
    g["persistent"]["election_day"] = list(cards)
    g["turn"], g["phase"], g["no_refill"] = 9, "election", True
    g["momentum"] = {"kennedy": 0, "nixon": 0}
    if clear_board:
        for st in g["states"]:
            g["states"][st] = 0
    g["states"].update(states or {})
    for k, v in overrides.items():
        g[k] = v
    frame = {
        "step": "election",
        "stage": "events",
        "initiative": initiative,
        "events": list(cards),
        "order": [],
    }
    g["stack"] = [{"step": "game"}, frame]
    advance(g)
    return g
