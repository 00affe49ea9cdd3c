"""The engine's exception tree, in the manner of python-chess.

    CommandError (ValueError)        any command `apply` will not take
    +-- CommandSyntaxError           the text is not a command at all
    +-- IllegalCommandError          a well-formed command that is not legal now
    +-- AmbiguousCommandError        a name that matches more than one card/state
    +-- NotYourTurnError             the side has nothing to decide now
    +-- GameOverError                the game has ended

Every message quotes the input, names the decision the game is waiting for and
lists what is legal now (``legal`` carries the same list for programs).
"""

from __future__ import annotations

__all__ = [
    "AmbiguousCommandError",
    "CommandError",
    "CommandSyntaxError",
    "GameOverError",
    "IllegalCommandError",
    "NotYourTurnError",
]


class CommandError(ValueError):
    """Base class: a command that cannot be applied. Nothing was changed."""

    kind = "error"

    def __init__(
        self,
        text: str,
        reason: str,
        *,
        decision: str = "",
        legal: list[str] | None = None,
    ) -> None:
        self.text = text
        self.reason = reason
        self.decision = decision
        self.legal = list(legal or [])
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [f"{self.kind}: {self.text!r}: {self.reason}"]
        if self.decision:
            parts.append(f"now: {self.decision}")
        if self.legal:
            shown = self.legal[:25]
            more = f" … and {len(self.legal) - 25} more" if len(self.legal) > 25 else ""
            parts.append("legal now: " + ", ".join(shown) + more)
        return "; ".join(parts)


class CommandSyntaxError(CommandError):
    """The text could not be read as a command (unknown verb, bad argument)."""

    kind = "syntax error"


class IllegalCommandError(CommandError):
    """A readable command that the rules do not allow at this point."""

    kind = "illegal"


class AmbiguousCommandError(CommandError):
    """A card or state name that matches more than one thing."""

    kind = "ambiguous"


class NotYourTurnError(CommandError):
    """The side that sent the command has no decision to make now."""

    kind = "not your turn"


class GameOverError(CommandError):
    """The game has ended; no command is legal."""

    kind = "game over"
