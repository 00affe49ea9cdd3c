"""Card events (R6.3, R6.4): small scripts over a vocabulary of effect primitives.

- `engine.events.script` — the registry (`event`, `op`, `EVENTS`), who-specs and the
  interpreter step; it imports no primitive and no card, so the phases may use it.
- `engine.events.primitives` — the vocabulary, one module per thing acted on (support and
  tokens, issues, media, hand and discard, momentum, granted actions and effects, choices).
- `engine.events.cards` — every card's script, card N in ``cards_LO_HI`` (LO <= N <= HI).

Importing `engine.events.cards` registers every primitive and card; `engine.api` does so.
"""

from engine.events.script import (
    EVENTS,
    OPS,
    EventDef,
    Op,
    event,
    event_available,
    op,
    primitive,
    start_election_event,
    start_event,
)

__all__ = [
    "EVENTS",
    "OPS",
    "EventDef",
    "Op",
    "event",
    "event_available",
    "op",
    "primitive",
    "start_election_event",
    "start_event",
]
