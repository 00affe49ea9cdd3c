"""Rules engine for *1960: The Making of the President* (Z-Man 2nd edition; GMT 2017).

Pure and deterministic: no I/O, no clock, no global randomness. Game state is
plain JSON-round-trippable data with its seeded RNG inside (see docs/ARCHITECTURE.md,
"Engine in one screen"; its keys are typed in `engine.schema`). Rule numbers (R1-R17)
refer to the project's rules reference.
"""

from engine.api import (
    active_sides,
    ahead_example,
    apply,
    apply_in_place,
    apply_logged,
    decision,
    legal_commands,
    new_game,
    result,
)
from engine.commands import parse
from engine.data import CARDS, EDITIONS, ISSUES, OPTIONS, REGIONS, SIDES, STATES, issue_name
from engine.errors import (
    AmbiguousCommandError,
    CommandError,
    CommandSyntaxError,
    GameOverError,
    IllegalCommandError,
    NotYourTurnError,
)
from engine.events.cards import unimplemented_events
from engine.schema import CardNo, Side, StateCode
from engine.state import SCHEMA_VERSION, GameState, copy_state, from_json, to_json
from engine.view import PublicBoard, View, card_info, public_board, view
from engine.vocabulary import SYNONYMS, VERBS, command_words

__all__ = [
    "CARDS",
    "EDITIONS",
    "ISSUES",
    "OPTIONS",
    "REGIONS",
    "SCHEMA_VERSION",
    "SIDES",
    "STATES",
    "SYNONYMS",
    "VERBS",
    "AmbiguousCommandError",
    "CardNo",
    "CommandError",
    "CommandSyntaxError",
    "GameOverError",
    "GameState",
    "IllegalCommandError",
    "NotYourTurnError",
    "PublicBoard",
    "Side",
    "StateCode",
    "View",
    "active_sides",
    "ahead_example",
    "apply",
    "apply_in_place",
    "apply_logged",
    "card_info",
    "command_words",
    "copy_state",
    "decision",
    "from_json",
    "issue_name",
    "legal_commands",
    "new_game",
    "parse",
    "public_board",
    "result",
    "to_json",
    "unimplemented_events",
    "view",
]
