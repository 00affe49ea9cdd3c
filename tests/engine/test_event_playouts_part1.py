"""Seeded random playouts that prefer playing and triggering events (issue 3, cards 1-48).

Both editions (GMT games with odd seeds also use the Vice President option,
R15.1). After every command: every card of the edition is in exactly one place,
bag counts are never negative (R3), the tally of the board accounts for all
537 EV (R1.2, R13.6), and
the state survives a JSON round trip. Every game must reach a result (R13.6).
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.data import STATES, deck_cards
from engine.phases.election import tally
from engine.state import GameState
from tests.engine.builders import all_cards

GAMES = 30
PREFERRED = ("event", "trigger")


def _choose(r: random.Random, legal: list[str]) -> str:
    pref = [c for c in legal if c.split()[0] in PREFERRED]
    if pref and r.random() < 0.9:
        return r.choice(pref)
    return r.choice(legal)


def _check(g: GameState, deck: list[int], cmd: str) -> None:
    assert sorted(all_cards(g)) == deck, f"card conservation broken after {cmd!r}"
    assert g["bag"]["kennedy"] >= 0 and g["bag"]["nixon"] >= 0, f"bag below zero after {cmd!r}"
    t = tally(g)
    undecided = sum(STATES[s].ev for s, v in g["states"].items() if v == 0)
    unpledged = sum(STATES[s].ev for s in t["unpledged"])
    assert t["electoral_votes"]["kennedy"] + t["electoral_votes"]["nixon"] + undecided + unpledged == 537
    assert engine.from_json(engine.to_json(g)) == g, f"JSON round trip differs after {cmd!r}"


def _playout(seed: int, edition: str) -> tuple[GameState, set[int]]:
    options = ("vice_presidents",) if edition == "gmt" and seed % 2 else ()
    g = engine.new_game(seed, edition=edition, options=options)
    deck = sorted(deck_cards(edition))
    r = random.Random(seed * 7919 + len(edition))
    events: set[int] = set()
    for _ in range(20_000):
        if engine.result(g) is not None:
            break
        side = r.choice(sorted(engine.active_sides(g)))
        cmd = _choose(r, engine.legal_commands(g, side))
        if cmd.startswith("event "):
            events.add(int(cmd.split()[1]))
        engine.apply_in_place(g, side, cmd)
        _check(g, deck, cmd)
    return g, events


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_event_playouts_reach_a_result(edition: str) -> None:
    played: set[int] = set()
    for seed in range(GAMES):
        g, events = _playout(seed, edition)
        played |= events
        res = engine.result(g)
        assert res is not None, f"{edition} seed {seed} did not finish"
        ev = res["electoral_votes"]
        nobody = sum(STATES[s].ev for s in res["unpledged"])
        assert ev["kennedy"] + ev["nixon"] + nobody == 537
        assert res["winner"] in ("kennedy", "nixon")
    mine = {n for n in range(1, 49)}
    assert len(mine & played) >= 40, f"too few of cards 1-48 played as events: {sorted(mine & played)}"
