"""The random player: a uniformly random legal command (the baseline every player must beat)."""

from __future__ import annotations

import random

import engine
from bots.decision import Decision, describe

__all__ = ["choose", "decide"]


def choose(state: engine.GameState, side: str, seed: int = 0) -> str:
    """A random legal command for ``side`` (its legal commands are part of its view, R17)."""
    return decide(state, side, seed).command


def decide(state: engine.GameState, side: str, seed: int = 0) -> Decision:
    """`choose`, with its reason."""
    legal = engine.legal_commands(state, side)
    if not legal:
        raise ValueError(f"{side} has nothing to decide")
    cmd = random.Random(seed).choice(legal)
    return Decision(cmd, f"{describe(cmd)}: drawn at random from {len(legal)} legal moves")
