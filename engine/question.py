"""Which question a side is being asked: stable while the same decision is being answered,
and its name as a player knows it (`step_name`).

A report asks its reader one question (the step, the card being played, the action round…);
answering it may take several mails (``support OH`` one point at a time) while the detailed
position changes. `question` fingerprints the question, not the position, so a reply to an
older report can be accepted exactly while its question is still the one being asked.
"""

from __future__ import annotations

import hashlib
import json

from engine.state import GameState

__all__ = ["question", "step_name"]

_KEYS = ("step", "card", "side", "i", "stage")


def question(g: GameState, side: str) -> str:
    """A short fingerprint of the question *side* is being asked now ("over" when over)."""
    if g["result"] is not None:
        return "over"
    frames = [[f.get(k) for k in _KEYS] for f in g["stack"]]
    data = json.dumps([g["turn"], side, frames], sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:32]


# the steps as a player knows the question (a step not named here reads as its own words)
_NAMES = {
    "choose_first": "who goes first",
    "debate_pick": "debate card",
    "debate_side": "debate card's side",
    "award_choice": "momentum or endorsement",
    "discard_replace": "cards to discard",
    "take_discard": "card from the discard pile",
    "strategy": "campaign strategy",
    "election_card": "Election Day card",
    "election_event": "Election Day event",
    "reveal_resolve": "card to resolve",
    "cp_choice": "how to use the CP",
    "space_points": "points to place",
    "pick_state": "state",
    "choose_region": "region",
    "endorse_region": "endorsement's region",
}


def step_name(step: str) -> str:
    """A step as a player knows the question: ``choose_first`` -> ``who goes first``."""
    return _NAMES.get(step, step.replace("_", " "))
