"""Building positions for engine tests: a real game, then arranged by hand.

Tests construct a position with `action_position` (a side to act in an
activity phase with a chosen hand and board) and drive it with `play`.
Everything goes through the public API after the arrangement, so the rules
under test are the real ones.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.flow import advance
from engine.state import GameState


def action_position(
    side: str = "kennedy",
    hand: list[int] | None = None,
    *,
    other_hand: list[int] | None = None,
    edition: str = "zman",
    options: tuple[str, ...] = (),
    seed: int = 7,
    turn: int = 1,
    states: dict[str, int] | None = None,
    clear_board: bool = False,
    **overrides: Any,
) -> GameState:
    """A position where ``side`` must take an activity-phase action (R6.1).

    ``hand`` replaces that side's hand (cards are taken out of the deck and the
    other hand so each card stays in exactly one place); ``states`` sets signed
    support (+ Kennedy, − Nixon); ``clear_board`` empties every state first.
    Other keyword arguments overwrite top-level state keys (e.g. ``momentum=``).
    """
    g = engine.new_game(seed, edition=edition, options=options)
    g["turn"] = turn
    g["phase"] = "activity"
    g["round"] = 1
    g["first"] = side
    other = "nixon" if side == "kennedy" else "kennedy"
    for who, cards in ((side, hand), (other, other_hand)):
        if cards is None:
            continue
        _give(g, who, cards)
    _arrange(g, clear_board, states, overrides)
    g["stack"] = [
        {"step": "game"},
        {"step": "turn", "stage": "activity", "i": 1},
        {"step": "action", "side": side},
    ]
    advance(g)
    return g


def _arrange(
    g: GameState, clear_board: bool, states: dict[str, int] | None, overrides: dict[str, Any]
) -> None:
    """Empty the board if asked, set signed state support, overwrite top-level keys."""
    if clear_board:
        for st in g["states"]:
            g["states"][st] = 0
    for st, v in (states or {}).items():
        g["states"][st] = v
    for k, v in overrides.items():
        g[k] = v


def _give(g: GameState, side: str, cards: list[int]) -> None:
    """Make ``cards`` exactly ``side``'s hand, keeping every card in one place."""
    old = list(g["hands"][side])
    g["hands"][side] = []
    g["deck"].extend(c for c in old if c not in cards)
    for place in ("deck", "discard", "removed"):
        g[place] = [c for c in g[place] if c not in cards]
    for s in ("kennedy", "nixon"):
        g["hands"][s] = [c for c in g["hands"][s] if c not in cards]
    g["hands"][side] = list(cards)


def play(g: GameState, side: str, *commands: str) -> GameState:
    """Apply commands in order for one side (through the copying public API)."""
    for c in commands:
        g = engine.apply(g, side, c)
    return g


def all_cards(g: GameState) -> list[int]:
    """Every card wherever it is (for conservation checks)."""
    out: list[int] = []
    for s in ("kennedy", "nixon"):
        out += g["hands"][s] + g["stacks"][s]
        if g["vp"][s] is not None:
            out.append(g["vp"][s])
    out += g["deck"] + g["discard"] + g["removed"]
    for cards in g["persistent"].values():
        out += cards
    d = g["debate"]
    if d:
        for s in ("kennedy", "nixon"):
            out += d["hands"][s]
        for sides in d["board"].values():
            for cards in sides.values():
                out += cards
        out += [p[1] for p in d["pending"]]
    for f in g["stack"]:
        out += _cards_in_frame(f)
    return out


def _cards_in_frame(f: dict[str, Any]) -> list[int]:
    """Cards held by an in-flight frame (a card being played, picked or revealed)."""
    step = f["step"]
    if step == "after_cp":
        return [f["card"]]
    if step == "event" and f["source"] != "election_day":
        return [f["card"]]
    if step == "debate_pick":
        return [p[1] for p in f["picks"].values()]
    return list(f.get("holding", []))


def at_step(
    frames: list[dict[str, Any]],
    *,
    edition: str = "zman",
    options: tuple[str, ...] = (),
    seed: int = 7,
    turn: int = 1,
    phase: str = "activity",
    hands: dict[str, list[int]] | None = None,
    stacks: dict[str, list[int]] | None = None,
    persistent: dict[str, list[int]] | None = None,
    states: dict[str, int] | None = None,
    clear_board: bool = False,
    **overrides: Any,
) -> GameState:
    """A position with ``frames`` on the flow stack above ``game``, then advanced.

    ``hands`` / ``stacks`` / ``persistent`` make those cards exactly that side's hand,
    strategy stack or that persistent-event space (taken from wherever they were, so
    every card stays in one place).
    """
    g = engine.new_game(seed, edition=edition, options=options)
    g["turn"] = turn
    g["phase"] = phase
    for side, cards in (hands or {}).items():
        _give(g, side, cards)
    for side, cards in (stacks or {}).items():
        move_cards(g, cards)
        g["stacks"][side] = list(cards)
    for space, cards in (persistent or {}).items():
        move_cards(g, cards)
        g["persistent"][space] = list(cards)
    _arrange(g, clear_board, states, overrides)
    g["stack"] = [{"step": "game"}, *frames]
    advance(g)
    return g


def move_cards(g: GameState, cards: list[int], to: str | None = None) -> None:
    """Take ``cards`` out of every hand, stack and pile (and add them to pile ``to``)."""
    for place in ("deck", "discard", "removed"):
        g[place] = [c for c in g[place] if c not in cards]
    for s in ("kennedy", "nixon"):
        g["hands"][s] = [c for c in g["hands"][s] if c not in cards]
        g["stacks"][s] = [c for c in g["stacks"][s] if c not in cards]
    for k in g["persistent"]:
        g["persistent"][k] = [c for c in g["persistent"][k] if c not in cards]
    if to is not None:
        g[to].extend(cards)


def top(g: GameState) -> dict[str, Any]:
    """The frame on top of the flow stack."""
    f: dict[str, Any] = g["stack"][-1]
    return f


def legal(g: GameState, side: str) -> list[str]:
    return engine.legal_commands(g, side)
