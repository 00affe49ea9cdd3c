"""The phases of a turn, each a module of named steps (R4-R14)."""

from engine.phases import actions, cp, debates, election, momentum, strategy, turn

__all__ = ["actions", "cp", "debates", "election", "momentum", "strategy", "turn"]
