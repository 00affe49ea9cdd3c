"""Component data: states, regions, borders, cards and endorsements (R1, R2, R7.3).

Loaded once from the CSV files packaged beside this module (copied from the
project's research into the published components; see docs/DATA.md).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

SIDES = ("kennedy", "nixon")
REGIONS = ("west", "midwest", "south", "east")
ISSUES = ("defense", "economy", "civil_rights")
EDITIONS = ("zman", "gmt")
OPTIONS = ("vice_presidents", "restricted_positioning")


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` and the noun in its number: ``counted(1, "card")`` -> ``1 card``, ``counted(3,
    "card")`` -> ``3 cards``, ``counted(0, "success", "successes")`` -> ``0 successes``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def listed(items: Iterable[str], last: str = "and") -> str:
    """Names as a sentence lists them: ``listed(["A", "B", "C"])`` -> ``A, B and C``,
    ``listed(["the West", "the Midwest"], "or")`` -> ``the West or the Midwest``."""
    names = list(items)
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def issue_name(issue: str) -> str:
    """An issue as the rules name it (R2.3): ``civil_rights`` -> ``Civil Rights``."""
    return issue.replace("_", " ").title()


@dataclass(frozen=True)
class StateInfo:
    """One of the 50 states (R1.2)."""

    abbr: str
    name: str
    region: str
    zone: str  # travel zone: the region, or "alaska" / "hawaii" (R7.3)
    ev: int
    start: int  # signed starting support: + Kennedy, - Nixon (R2.1)
    border: str  # border colour as a side (R13.5)


@dataclass(frozen=True)
class Card:
    """A campaign card (R1.7)."""

    number: int
    name: str
    cp: int
    rest: int
    icon: str  # "kennedy", "nixon" or "both"
    issue: str  # debate issue, "" for Gathering Momentum cards
    state: str  # Election Day state, "" for Gathering Momentum cards
    persistent: str  # "none", "prevention", "debate", "election_day"
    prevents: tuple[int, ...]
    gathering_momentum: bool
    duration: str
    aliases: tuple[str, ...]
    gmt_only: bool


def _rows(name: str) -> list[dict[str, str]]:
    text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


def _load_states() -> dict[str, StateInfo]:
    out: dict[str, StateInfo] = {}
    for r in _rows("states.csv"):
        n = int(r["start_support_cubes"])
        sign = 1 if r["start_support_candidate"] == "kennedy" else -1
        out[r["abbreviation"]] = StateInfo(
            abbr=r["abbreviation"],
            name=r["name"],
            region=r["region"],
            zone=r["travel_zone"],
            ev=int(r["electoral_votes"]),
            start=n * sign if n else 0,
            border=r["edge_candidate"],
        )
    return out


def _load_cards() -> dict[int, Card]:
    rows = _rows("cards.csv")
    by_name = {r["name"]: int(r["number"]) for r in rows}
    out: dict[int, Card] = {}
    for r in rows:
        prevents = tuple(by_name[n] for n in r["prevents"].split("|") if n)
        out[int(r["number"])] = Card(
            number=int(r["number"]),
            name=r["name"],
            cp=int(r["cp"]),
            rest=int(r["rest_cubes"]),
            icon=r["candidate_icon"],
            issue=r["debate_issue"],
            state=r["state"],
            persistent=r["persistent"],
            prevents=prevents,
            gathering_momentum=r["gathering_momentum"] == "true",
            duration=r["effect_duration"],
            aliases=tuple(a for a in r["aliases"].split("|") if a),
            gmt_only=r["edition"] == "gmt",
        )
    return out


STATES: dict[str, StateInfo] = _load_states()
CARDS: dict[int, Card] = _load_cards()
STATES_BY_REGION: dict[str, tuple[str, ...]] = {
    g: tuple(s for s in STATES if STATES[s].region == g) for g in REGIONS
}
ENDORSEMENT_DECK: tuple[str, ...] = tuple(
    r["region"] for r in _rows("endorsements.csv") for _ in range(int(r["count"]))
)
TOTAL_EV = sum(s.ev for s in STATES.values())
WINNING_EV = 269

# R7.3: travel zones and their borders; a crossing costs 1 CP.
_BORDERS = {
    ("west", "midwest"),
    ("west", "south"),
    ("midwest", "south"),
    ("midwest", "east"),
    ("south", "east"),
    ("west", "alaska"),
    ("west", "hawaii"),
}
ZONES = ("west", "midwest", "south", "east", "alaska", "hawaii")


def _distances() -> dict[tuple[str, str], int]:
    adj: dict[str, set[str]] = {z: set() for z in ZONES}
    for a, b in _BORDERS:
        adj[a].add(b)
        adj[b].add(a)
    dist: dict[tuple[str, str], int] = {}
    for start in ZONES:
        seen = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for z in frontier:
                for y in adj[z]:
                    if y not in seen:
                        seen[y] = seen[z] + 1
                        nxt.append(y)
            frontier = nxt
        for z, d in seen.items():
            dist[(start, z)] = d
    return dist


ZONE_DISTANCE: dict[tuple[str, str], int] = _distances()


# Static tables precomputed once (R7.3): the cost from every state to every state, and for
# each token state the states of other travel zones with their cost, in `STATES` order.
TRAVEL: dict[str, dict[str, int]] = {
    a: {b: ZONE_DISTANCE[(ia.zone, ib.zone)] for b, ib in STATES.items()}
    for a, ia in STATES.items()
}
TRAVEL_AWAY: dict[str, tuple[tuple[str, int], ...]] = {
    a: tuple((b, TRAVEL[a][b]) for b, ib in STATES.items() if ib.zone != ia.zone)
    for a, ia in STATES.items()
}


def travel_cost(from_state: str, to_state: str) -> int:
    """Borders crossed between two states' travel zones (R7.3)."""
    return TRAVEL[from_state][to_state]


def deck_cards(edition: str) -> list[int]:
    """The campaign deck of an edition (R1.7, R16.6)."""
    return [n for n, c in CARDS.items() if edition == "gmt" or not c.gmt_only]


def other(side: str) -> str:
    """The opposing side."""
    return "nixon" if side == "kennedy" else "kennedy"


def sign(side: str) -> int:
    """+1 for Kennedy, -1 for Nixon: support is stored as signed counts (R1.4)."""
    return 1 if side == "kennedy" else -1
