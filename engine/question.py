"""Which question a side is being asked: stable while the same decision is being answered.

A report asks its reader one question (the step, the card being played, the action round…);
answering it may take several mails (``support OH`` one point at a time) while the detailed
position changes. `question` fingerprints the question, not the position, so a reply to an
older report can be accepted exactly while its question is still the one being asked.
"""

from __future__ import annotations

import hashlib
import json

from engine.state import GameState

__all__ = ["question"]

_KEYS = ("step", "card", "side", "i", "stage")


def question(g: GameState, side: str) -> str:
    """A short fingerprint of the question *side* is being asked now ("over" when over)."""
    if g["result"] is not None:
        return "over"
    frames = [[f.get(k) for k in _KEYS] for f in g["stack"]]
    data = json.dumps([g["turn"], side, frames], sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:32]
