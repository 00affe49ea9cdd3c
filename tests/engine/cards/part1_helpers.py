"""Shared helpers for the card-event tests of cards 1-48 (issue 3).

`played` puts a card in a side's hand and plays it as an event (R6.3);
`triggered` has the card's holder play it for CP (positioning, spending
nothing) and the opponent spend 1 momentum to trigger it (R6.7). `new_log`
returns the log lines a command added, as seen by a side (R17).
"""

from __future__ import annotations

from typing import Any

import engine
from engine.data import deck_cards
from engine.state import GameState
from tests.engine.builders import action_position, all_cards, move_cards, play

OTHER = {"kennedy": "nixon", "nixon": "kennedy"}


def position_with(side: str, card: int, **kw: Any) -> GameState:
    """``side`` to act, holding ``card`` (plus ``hand`` extras) and nothing else."""
    hand = [card, *kw.pop("extra", [])]
    discard = kw.pop("discard", None)
    persistent = kw.pop("persistent", None)
    kw.setdefault("other_hand", [])
    g = action_position(side, hand, **kw)
    if discard is not None:
        set_discard(g, discard)
    for space, cards in (persistent or {}).items():  # persistent events in force (R6.4)
        move_cards(g, cards)
        g["persistent"][space] = list(cards)
    return g


def set_discard(g: GameState, cards: list[int]) -> None:
    """Make ``cards`` the discard pile, taking them from wherever they are (conserving cards)."""
    for place in (g["deck"], g["removed"], g["hands"]["kennedy"], g["hands"]["nixon"]):
        place[:] = [c for c in place if c not in cards]
    g["deck"].extend(c for c in g["discard"] if c not in cards)
    g["discard"] = list(cards)


def stack_deck(g: GameState, top: list[int]) -> None:
    """Put ``top`` on top of the campaign deck, first card drawn first."""
    for place in (
        g["discard"],
        g["removed"],
        g["hands"]["kennedy"],
        g["hands"]["nixon"],
        g["deck"],
    ):
        place[:] = [c for c in place if c not in top]
    g["deck"].extend(reversed(top))


def played(side: str, card: int, **kw: Any) -> GameState:
    """``side`` plays ``card`` as an event from a constructed position."""
    g = position_with(side, card, **kw)
    return play(g, side, f"event {card}")


def triggered(trigger_side: str, card: int, **kw: Any) -> GameState:
    """The opponent plays ``card`` for CP (positions, spends nothing); ``trigger_side`` triggers it."""
    holder = OTHER[trigger_side]
    g = position_with(holder, card, **kw)
    g = play(g, holder, f"position {card}", "done")
    assert engine.legal_commands(g, trigger_side) == ["trigger", "decline"]
    return play(g, trigger_side, "trigger")


def new_log(before: GameState, after: GameState, side: str | None = None) -> list[str]:
    """Log lines added between two states that ``side`` may see (None = public only)."""
    added = after["log"][len(before["log"]) :]
    return [e["text"] for e in added if e["to"] is None or e["to"] == side]


def conserved(g: GameState) -> bool:
    """Every card of the edition is in exactly one place."""
    return sorted(all_cards(g)) == sorted(deck_cards(g["edition"]))


def awaiting_action(g: GameState, side: str) -> bool:
    """The event is over and ``side`` now takes an ordinary action (R6.1)."""
    return g["stack"][-1]["step"] == "action" and g["stack"][-1]["side"] == side


def swap_hidden(g: GameState, side: str, card: int) -> GameState:
    """A copy where ``card`` in ``side``'s hand trades places with the bottom deck card (R17.2/R17.3:
    neither is known to the other side)."""
    g2 = engine.copy_state(g)
    hand = g2["hands"][side]
    bottom = g2["deck"][0]
    hand[hand.index(card)] = bottom
    g2["deck"][0] = card
    return g2
