"""`view(state, side)`: the only way information leaves the engine (R17).

The view holds everything public (R17.1), plus for ``side`` its own hand,
campaign-strategy stack, debate hand and secret pick, and whatever an event has
revealed to it (R17.2). The opponent's private cards, the deck order, the bag
draws to come and the RNG state never appear (R17.3).
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from engine import board, effects
from engine.api import active_sides, ahead_example, decision, legal_commands
from engine.data import CARDS, ISSUES, SIDES, STATES
from engine.phases import debates
from engine.schema import CardNo, Issue, LogEntry, Region, Result, Revealed, Side, StateCode
from engine.state import GameState

CP_USES = ("campaign", "advertise", "position")


class SpaceView(TypedDict):
    """Who holds a space and with how many cubes (R1.4)."""

    side: Side | None
    cubes: int


class StateView(SpaceView):
    ev: int
    region: Region


class IssueView(SpaceView):
    issue: Issue


class EffectView(TypedDict):
    card: CardNo
    side: Side
    name: str


class CardInfo(TypedDict):
    """The public facts printed on a card."""

    number: CardNo
    name: str
    cp: int
    rest: int
    icon: str
    issue: Issue  # "" for Gathering Momentum cards
    state: StateCode  # "" for Gathering Momentum cards
    persistent: str


class DebateView(TypedDict):
    """The debates as ``side`` sees them (R12, R17)."""

    initiative: Side
    board: dict[Issue, dict[Side, list[CardNo]]]
    resolved: list[Issue]
    hand_sizes: dict[Side, int]
    revealed: list[CardNo]
    totals: dict[Issue, dict[Side, int]]
    hand: NotRequired[list[CardNo]]
    my_pick: NotRequired[list[Any]]


class LogLine(LogEntry):
    i: int  # the entry's index in the whole log


class View(TypedDict):
    """What ``side`` may know of the game (R17): `view`'s result, JSON-serialisable."""

    side: Side | None
    seq: int
    edition: str
    options: list[str]
    turn: int
    phase: str
    round: int
    first: Side | None
    states: dict[StateCode, StateView]
    media: dict[Region, SpaceView]
    issues: list[IssueView]
    endorsements: dict[Region, SpaceView]
    momentum: dict[Side, int]
    rest: dict[Side, int]
    bag: dict[Side, int]
    tokens: dict[Side, StateCode]
    candidates: dict[Side, str]
    vice_presidents: dict[Side, CardNo | None]
    hand_sizes: dict[Side, int]
    stack_sizes: dict[Side, int]
    deck_size: int
    discard: list[CardNo]
    removed: list[CardNo]
    persistent: dict[str, list[CardNo]]
    effects: list[EffectView]
    debate: DebateView | None
    active: list[Side]
    decision: str
    legal: list[str]
    log: list[LogLine]
    result: Result | None
    # for a side only (not for an observer)
    hand: NotRequired[list[CardNo]]
    hand_cp: NotRequired[dict[str, dict[str, int]]]  # card number -> use -> CP now (R6.5)
    stack: NotRequired[list[CardNo]]
    revealed: NotRequired[list[Revealed]]
    ahead_example: NotRequired[str]  # a line answering this decision and the next ones ahead
    first_ahead: NotRequired[Side]  # who goes first if this side wins next turn's initiative


class PublicBoard(TypedDict):
    """The public spaces of the board (R17.1) as signed cube counts (Kennedy's positive,
    Nixon's negative, 0 empty): what a player's summary compares from one mail to the next."""

    states: dict[StateCode, int]
    media: dict[Region, int]
    issues: dict[Issue, int]
    issue_order: list[Issue]
    endorsements: dict[Region, int]
    momentum: dict[Side, int]
    tokens: dict[Side, StateCode]


def public_board(g: GameState) -> PublicBoard:
    """The board as `view` shows it to anyone (its spaces, issue order, momentum, tokens), as
    signed counts, without building the rest of a view (log, decision, debate)."""
    return {
        "states": {s: g["states"][s] for s in STATES},
        "media": dict(g["media"]),
        "issues": {i: g["issues"][i] for i in g["issue_order"]},
        "issue_order": list(g["issue_order"]),
        "endorsements": dict(g["endorsements"]),
        "momentum": dict(g["momentum"]),
        "tokens": dict(g["token"]),
    }


def _space(v: int) -> SpaceView:
    return {"side": board.owner(v), "cubes": abs(v)}


def card_info(n: int) -> CardInfo:
    """Public facts printed on a card."""
    c = CARDS[n]
    return {
        "number": n,
        "name": c.name,
        "cp": c.cp,
        "rest": c.rest,
        "icon": c.icon,
        "issue": c.issue,
        "state": c.state,
        "persistent": c.persistent,
    }


def view(g: GameState, side: Side | None) -> View:
    """A JSON-serialisable view for ``side`` (``None`` = observer)."""
    if side is not None and side not in SIDES:
        raise ValueError(f"unknown side {side!r}")
    v: View = {
        "side": side,
        "seq": g["seq"],
        "edition": g["edition"],
        "options": list(g["options"]),
        "turn": g["turn"],
        "phase": g["phase"],
        "round": g["round"],
        "first": g["first"],
        "states": {
            s: {**_space(g["states"][s]), "ev": STATES[s].ev, "region": STATES[s].region}
            for s in STATES
        },
        "media": {r: _space(x) for r, x in g["media"].items()},
        "issues": [{"issue": i, **_space(g["issues"][i])} for i in g["issue_order"]],
        "endorsements": {r: _space(x) for r, x in g["endorsements"].items()},
        "momentum": dict(g["momentum"]),
        "rest": dict(g["rest"]),
        "bag": dict(g["bag"]),
        "tokens": dict(g["token"]),
        "candidates": dict(g["candidate"]),
        "vice_presidents": {s: g["vp"][s] for s in SIDES},
        "hand_sizes": {s: len(g["hands"][s]) for s in SIDES},
        "stack_sizes": {s: len(g["stacks"][s]) for s in SIDES},
        "deck_size": len(g["deck"]),
        "discard": list(g["discard"]),
        "removed": list(g["removed"]),
        "persistent": {k: list(x) for k, x in cast(dict[str, list[int]], g["persistent"]).items()},
        "effects": [
            {"card": e["card"], "side": e["side"], "name": CARDS[e["card"]].name}
            for e in g["effects"]
        ],
        "debate": _debate(g, side),
        "active": sorted(active_sides(g)),
        "decision": decision(g, side),
        "legal": legal_commands(g, side) if side else [],
        # once the game is over nothing is secret any more: every private line is shown
        "log": [
            {**e, "i": i}
            for i, e in enumerate(g["log"])
            if e["to"] is None or e["to"] == side or g["result"] is not None
        ],
        "result": g["result"],
    }
    if side is not None:
        v["hand"] = sorted(g["hands"][side])
        # each hand card's CP for each use now, after the effects in force (R6.5)
        v["hand_cp"] = {
            str(n): {use: effects.cp_value(g, side, CARDS[n].cp, use) for use in CP_USES}
            for n in v["hand"]
        }
        v["stack"] = list(g["stacks"][side])
        v["revealed"] = [r.copy() for r in g["revealed"][side]]
        example = ahead_example(g, side)
        if example:
            v["ahead_example"] = example
        kept = [f["ahead"][side] for f in g["stack"] if side in f.get("ahead", {})]
        if kept:  # its own answer only (R17): engine.phases.turn.keep_first
            v["first_ahead"] = kept[0].split()[1]
    return v


def _debate(g: GameState, side: Side | None) -> DebateView | None:
    d = g["debate"]
    if d is None:
        return None
    out: DebateView = {
        "initiative": d["initiative"],
        "board": {i: {s: list(d["board"][i][s]) for s in SIDES} for i in ISSUES},
        "resolved": list(d["resolved"]),
        "hand_sizes": {s: len(d["hands"][s]) for s in SIDES},
        "revealed": list(d["revealed"]),
        # each side's total per issue with the debate events in force (R12.5, R12.7)
        "totals": {i: {s: debates.contest_total(g, i, s) for s in SIDES} for i in ISSUES},
    }
    if side is not None:
        out["hand"] = sorted(d["hands"][side])
        f = g["stack"][-1] if g["stack"] else None
        if f and f["step"] == "debate_pick" and side in f["picks"]:
            out["my_pick"] = f["picks"][side][1:]
    return out
