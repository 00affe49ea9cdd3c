"""`MapBoard`: the public board (R17.1) the map picture is drawn from, built from a view.

`from_view` reads only public keys of ``engine.view(state, side)`` (states,
media, endorsements, issue track, momentum, tokens, turn): never the hand, the
stack, the debate hand, revealed cards or the log. Both seats' views therefore
give the same `MapBoard`, which is what lets the picture be drawn once per move.
The dataclasses are frozen and hashable: a `MapBoard` is its own cache key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine


@dataclass(frozen=True)
class Space:
    """A support space: who holds it (``None`` = nobody) and how many cubes."""

    side: str | None
    cubes: int


@dataclass(frozen=True)
class StateTile:
    abbr: str
    region: str
    ev: int
    side: str | None
    cubes: int


@dataclass(frozen=True)
class RegionPanel:
    region: str
    media: Space
    endorsement: Space
    ev_kennedy: int
    ev_nixon: int
    ev_total: int


@dataclass(frozen=True)
class IssueBox:
    issue: str
    space: Space


@dataclass(frozen=True)
class MapBoard:
    turn: int
    states: tuple[StateTile, ...]
    regions: tuple[RegionPanel, ...]
    issues: tuple[IssueBox, ...]  # in track order, 1st first
    momentum_kennedy: int
    momentum_nixon: int
    token_kennedy: str
    token_nixon: str
    ev_kennedy: int
    ev_nixon: int
    ev_total: int


# the keys of a view that the picture may use (the no-leak tests check this list)
PUBLIC_KEYS = ("turn", "states", "media", "endorsements", "issues", "momentum", "tokens")


def _space(sp: dict[str, Any]) -> Space:
    cubes = int(sp.get("cubes") or 0)
    return Space(sp.get("side") if cubes else None, cubes)


def from_view(v: dict[str, Any]) -> MapBoard:
    """The public board of view ``v`` (only `PUBLIC_KEYS` are read)."""
    states = v["states"]
    tiles = []
    for s in engine.STATES:
        if s in states:
            sp = states[s]
            cubes = int(sp.get("cubes") or 0)  # as `_space`
            tiles.append(
                StateTile(s, sp["region"], int(sp["ev"]), sp.get("side") if cubes else None, cubes)
            )
    carried: dict[tuple[str | None, str], int] = {}
    for t in tiles:
        carried[t.side, t.region] = carried.get((t.side, t.region), 0) + t.ev
    regions = tuple(
        RegionPanel(
            r,
            _space(v["media"][r]),
            _space(v["endorsements"][r]),
            carried.get(("kennedy", r), 0),
            carried.get(("nixon", r), 0),
            sum(n for (_, region), n in carried.items() if region == r),
        )
        for r in engine.REGIONS
    )
    return MapBoard(
        turn=int(v["turn"]),
        states=tuple(tiles),
        regions=regions,
        issues=tuple(IssueBox(i["issue"], _space(i)) for i in v["issues"]),
        momentum_kennedy=int(v["momentum"]["kennedy"]),
        momentum_nixon=int(v["momentum"]["nixon"]),
        token_kennedy=str(v["tokens"]["kennedy"]),
        token_nixon=str(v["tokens"]["nixon"]),
        ev_kennedy=sum(n for (side, _), n in carried.items() if side == "kennedy"),
        ev_nixon=sum(n for (side, _), n in carried.items() if side == "nixon"),
        ev_total=sum(t.ev for t in tiles),
    )
