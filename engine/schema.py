"""The shapes of the game state: type aliases and TypedDicts, for strict mypy.

Nothing here exists at run time beyond the names: a ``GameState`` is still the plain
``dict`` that `engine.new_game` builds and `json.loads` gives back, so
``from_json(to_json(g)) == g`` holds and the seeded-playout fingerprint is unchanged.
The TypedDicts only let mypy check every ``g["..."]`` against the one list of keys.

Flow frames (``g["stack"]``) stay ``dict[str, Any]``: each named step keeps its own
keys in its frame, and the step's class is the documentation of them.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

Side: TypeAlias = str
"""``"kennedy"`` or ``"nixon"`` (`engine.data.SIDES`)."""
StateCode: TypeAlias = str
"""A state's postal code, e.g. ``"NY"`` (`engine.data.STATES`)."""
CardNo: TypeAlias = int
"""A campaign card's number, 1-97 (`engine.data.CARDS`)."""
Region: TypeAlias = str
"""``"east"``, ``"midwest"``, ``"south"`` or ``"west"`` (`engine.data.REGIONS`)."""
Issue: TypeAlias = str
"""``"defense"``, ``"economy"`` or ``"civil_rights"`` (`engine.data.ISSUES`)."""
PersistentKind: TypeAlias = Literal["prevention", "debate", "election_day"]
"""Where a persistent event waits while in force (R6.4)."""
Frame: TypeAlias = dict[str, Any]
"""One named step on the flow stack: ``{"step": NAME, ...the step's own keys}``."""


class Rng(TypedDict):
    """The seeded generator's whole state (`engine.rng`, docs/RANDOMNESS.md)."""

    key: str
    n: int


class Effect(TypedDict):
    """A rest-of-turn card effect in force (R6.3, `engine.effects`)."""

    id: str
    side: Side
    card: CardNo
    regions: NotRequired[list[Region]]


class Persistent(TypedDict):
    """Persistent events on the board, by kind (R6.4)."""

    prevention: list[CardNo]
    debate: list[CardNo]
    election_day: list[CardNo]


class Revealed(TypedDict):
    """Cards an event showed to one side (R17.2)."""

    card: CardNo
    side: Side
    cards: list[CardNo]
    turn: int
    seq: int


class Debate(TypedDict):
    """The debates in progress (R12)."""

    initiative: Side
    hands: dict[Side, list[CardNo]]
    board: dict[Issue, dict[Side, list[CardNo]]]
    resolved: list[Issue]
    pending: list[list[Any]]  # [side, card, issue or None], in the order they resolve
    revealed: list[CardNo]


class LogEntry(TypedDict):
    """One line of the game log; ``to`` limits it to one side (R17.2)."""

    seq: int
    turn: int
    to: Side | None
    text: str
    why: str


class Result(TypedDict):
    """The election's outcome (R13.6, R14)."""

    winner: Side
    electoral_votes: dict[Side, int]
    states_won: dict[Side, int]
    support_cubes: dict[Side, int]
    unpledged: list[StateCode]
    tie_break: str | None


class GameState(TypedDict):
    """The whole game (R2): plain JSON data, the seeded RNG inside."""

    schema: int
    edition: str
    options: list[str]
    seed: int
    rng: Rng
    seq: int
    turn: int
    phase: str
    round: int
    first: Side | None
    states: dict[StateCode, int]  # signed support: + Kennedy cubes, - Nixon cubes
    media: dict[Region, int]
    issues: dict[Issue, int]
    issue_order: list[Issue]
    endorsements: dict[Region, int]
    momentum: dict[Side, int]
    rest: dict[Side, int]
    bag: dict[Side, int]
    bag_size: int
    no_refill: bool
    token: dict[Side, StateCode]
    candidate: dict[Side, str]
    vp: dict[Side, CardNo | None]
    hands: dict[Side, list[CardNo]]
    stacks: dict[Side, list[CardNo]]
    deck: list[CardNo]
    discard: list[CardNo]
    removed: list[CardNo]
    persistent: Persistent
    effects: list[Effect]
    endorse_deck: list[Region]
    endorse_discard: list[Region]
    revealed: dict[Side, list[Revealed]]
    debate: Debate | None
    unpledged: list[StateCode]
    stack: list[Frame]
    log: list[LogEntry]
    result: Result | None
