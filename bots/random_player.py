"""The random player: a uniformly random legal command (the baseline every player must beat)."""

from __future__ import annotations

import random

import engine

__all__ = ["choose"]


def choose(state: engine.GameState, side: str, seed: int = 0) -> str:
    """A random legal command for ``side`` (its legal commands are part of its view, R17)."""
    legal = engine.legal_commands(state, side)
    if not legal:
        raise ValueError(f"{side} has nothing to decide")
    return random.Random(seed).choice(legal)
