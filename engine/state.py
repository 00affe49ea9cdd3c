"""Game state: plain, JSON-round-trippable data, set up by `setup` (R2).

A ``GameState`` is a ``dict`` of ints, strings, lists and dicts only. Support
in every space is a *signed* count: positive = Kennedy cubes, negative = Nixon
cubes, so one colour per space (R1.4) holds by construction. The seeded RNG
state, the flow stack of named steps and the log all live inside it, so
``from_json(to_json(s)) == s`` and replay from (seed, commands) is exact.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, cast

from engine import rng
from engine.data import (
    CARDS,
    EDITIONS,
    ENDORSEMENT_DECK,
    ISSUES,
    OPTIONS,
    REGIONS,
    SIDES,
    STATES,
    deck_cards,
    issue_name,
)
from engine.schema import GameState as GameState  # re-exported: the public name
from engine.schema import LogEntry

SCHEMA_VERSION = 1


def setup(seed: int, *, edition: str = "zman", options: Iterable[str] = ()) -> GameState:
    """A new game as set up (R2), before its first step runs (`engine.new_game` runs it to the
    first decision).

    ``edition`` is ``"zman"`` (default) or ``"gmt"``; ``options`` may hold
    ``"vice_presidents"`` and ``"restricted_positioning"``, GMT only (R15.3, R16.7).
    """
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: expected one of {', '.join(EDITIONS)}")
    opts = sorted(set(options))
    for o in opts:
        if o not in OPTIONS:
            raise ValueError(f"unknown option {o!r}: expected any of {', '.join(OPTIONS)}")
    if opts and edition != "gmt":
        raise ValueError(f"options {', '.join(opts)} need the GMT edition (R16.7, R15.3)")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    cubes = 12 if edition == "gmt" else 10  # R2.6, R16.1
    r = rng.new_rng(seed)
    deck = deck_cards(edition)
    vp: dict[str, int | None] = {"kennedy": None, "nixon": None}
    if "vice_presidents" in opts:  # R15.1: the VP cards leave the deck
        vp = {"kennedy": 39, "nixon": 42}
        deck = [c for c in deck if c not in (39, 42)]
    rng.shuffle(r, deck)
    endorse = list(ENDORSEMENT_DECK)
    rng.shuffle(r, endorse)
    g: GameState = {
        "schema": SCHEMA_VERSION,
        "edition": edition,
        "options": opts,
        "seed": seed,
        "rng": r,
        "seq": 0,
        "turn": 1,
        "phase": "setup",
        "round": 0,
        "first": None,
        "states": {s: info.start for s, info in STATES.items()},
        "media": {g: 0 for g in REGIONS},
        "issues": {i: 0 for i in ISSUES},
        "issue_order": ["defense", "economy", "civil_rights"],
        "endorsements": {g: 0 for g in REGIONS},
        "momentum": {s: 2 for s in SIDES},
        "rest": {s: 0 for s in SIDES},
        "bag": {s: cubes for s in SIDES},
        "bag_size": cubes,
        "no_refill": False,
        "token": {"kennedy": "MA", "nixon": "CA"},
        "candidate": {s: "active" for s in SIDES},
        "vp": vp,
        "hands": {s: [] for s in SIDES},
        "stacks": {s: [] for s in SIDES},
        "deck": deck,
        "discard": [],
        "removed": [],
        "persistent": {"prevention": [], "debate": [], "election_day": []},
        "effects": [],
        "endorse_deck": endorse,
        "endorse_discard": [],
        "revealed": {s: [] for s in SIDES},
        "debate": None,
        "unpledged": [],
        "stack": [{"step": "game"}],
        "log": [],
        "result": None,
    }
    return g


def to_json(g: GameState) -> str:
    """Serialise losslessly; the text carries ``schema`` (the version)."""
    return json.dumps(g, separators=(",", ":"), sort_keys=True)


def from_json(text: str) -> GameState:
    """Inverse of `to_json`; refuses an unknown schema version."""
    g = json.loads(text)
    if not isinstance(g, dict) or g.get("schema") != SCHEMA_VERSION:
        found = g.get("schema") if isinstance(g, dict) else None
        raise ValueError(f"game state schema {found!r} is not {SCHEMA_VERSION}")
    return cast(GameState, g)


# the GameState keys whose values hold only scalars one level down (engine.schema): copied
# by shape, not by walking them (`copy_state` is most of a playout's engine time)
_FLAT_DICTS = frozenset(
    {
        "rng",
        "states",
        "media",
        "issues",
        "endorsements",
        "momentum",
        "rest",
        "bag",
        "token",
        "candidate",
        "vp",
    }
)
_FLAT_LISTS = frozenset(
    {
        "options",
        "issue_order",
        "deck",
        "discard",
        "removed",
        "endorse_deck",
        "endorse_discard",
        "unpledged",
    }
)
_LIST_DICTS = frozenset({"hands", "stacks"})


def copy_state(g: Mapping[str, object], *, log: bool = True) -> GameState:
    """A deep copy of plain data (faster than ``copy.deepcopy``); ``log=False`` leaves the
    copy's log empty (a look-ahead's copy: no rule reads the log).

    Log entries are flat dicts of scalars (see `log`), so each is copied shallowly: the log
    is most of a late game's state and this keeps `apply` well under a JSON round trip. The
    keys `engine.schema` fixes as flat (support, media, hands, the deck, ...) are copied by
    their shape; everything else (the flow stack, the debate, effects) is walked.
    """
    out: dict[str, Any] = {}
    for k, v in g.items():
        if k in _FLAT_DICTS:
            out[k] = cast(dict[str, Any], v).copy()
        elif k in _FLAT_LISTS:
            out[k] = cast(list[Any], v).copy()
        elif k in _LIST_DICTS:
            out[k] = {side: cards.copy() for side, cards in cast(dict[str, list[int]], v).items()}
        elif k == "log":
            out[k] = [e.copy() for e in cast(list[LogEntry], v)] if log else []
        elif isinstance(v, (dict, list)):
            out[k] = _copy(v)
        else:
            out[k] = v
    return cast(GameState, out)


def _copy(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: (_copy(v) if isinstance(v, (dict, list)) else v) for k, v in x.items()}
    if isinstance(x, list):
        return [(_copy(v) if isinstance(v, (dict, list)) else v) for v in x]
    return x


def log(g: GameState, text: str, to: str | None = None) -> None:
    """Append to the game log; ``to`` limits the entry to one side (R17.2).

    Each entry also records ``why``: the card whose event is resolving or the rule of the step in
    progress (e.g. ``#5 Volunteers``, ``leads Defense, the 1st issue, R10.3``), so reports can
    say why a line happened even when its text does not.
    """
    g["log"].append({"seq": g["seq"], "turn": g["turn"], "to": to, "text": text, "why": _cause(g)})


_STEP_CAUSE = {
    "debate_bonus": "debate won, R12.6",
    "strategy": "R11.1",
    "campaign": "R7",
    "advertise": "R8",
    "position": "R9",
    "endorse_region": "endorsement, R10.5",
    "issue_swap": "R10.6",
}
_MOMENTUM_CAUSE = {"award3": 2, "award2": 1, "award1": 0}  # the issue's place on the track


def _cause(g: GameState) -> str:
    """Why the current line happens: the innermost event's card, or the step's rule."""
    for f in reversed(g["stack"]):
        step = f.get("step")
        if step == "event" and f.get("card") in CARDS:
            return f"#{f['card']} {CARDS[f['card']].name}"
        if step == "momentum" and f.get("doing") in _MOMENTUM_CAUSE:
            i = _MOMENTUM_CAUSE[f["doing"]]
            place = ("1st", "2nd", "3rd")[i]
            return f"leads {issue_name(g['issue_order'][i])}, the {place} issue, R10.3"
        if step in _STEP_CAUSE:
            return _STEP_CAUSE[step]
        if step == "turn" and f.get("stage") == "start":
            return "R5.1"
    return ""
