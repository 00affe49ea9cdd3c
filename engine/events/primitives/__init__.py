"""The effect primitives card scripts are written in, split by what they act on.

Importing this package registers every primitive (and its choice steps) under its name.
"""

from engine.events.primitives import actions, choices, hand, issues, media, momentum, support

__all__ = ["actions", "choices", "hand", "issues", "media", "momentum", "support"]
