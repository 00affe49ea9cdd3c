"""Seeded random playouts: 200+ complete games per edition from random legal commands,
with invariants after every command (R1.4 spaces, card conservation, R3 bag, R5.1 hands,
JSON round trip) and an exact replay from (seed, commands) at the end."""

from __future__ import annotations

import time
from typing import Any

import pytest

import engine
from engine.data import CARDS, STATES
from engine.state import GameState
from tests.engine.playout import Checker, options_for, play_out, replay

GAMES = 200
LEGALITY_GAMES = 40  # the legality property (is_legal / has_legal vs legal) on the first seeds
TIMINGS: dict[str, float] = {}


def _finished(g: GameState, seed: int) -> dict[str, Any]:
    r = engine.result(g)
    assert r is not None, f"seed {seed}: no result"
    assert engine.active_sides(g) == set()
    assert r["winner"] in ("kennedy", "nixon")
    assert all(v != 0 for v in g["states"].values())  # R13.5 decided every state
    nobody = sum(STATES[s].ev for s in r["unpledged"])
    assert sum(r["electoral_votes"].values()) + nobody == 537
    assert sum(r["states_won"].values()) + len(r["unpledged"]) == 50
    assert sum(i.ev for i in STATES.values()) == 537
    assert g["turn"] == 9 and g["phase"] == "over"
    return r


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_random_playouts_reach_a_result_with_invariants(edition: str) -> None:
    start = time.perf_counter()
    winners = {"kennedy": 0, "nixon": 0}
    commands = 0
    for seed in range(GAMES):
        g, played = play_out(seed, edition, Checker(seed, edition, legality=seed < LEGALITY_GAMES))
        r = _finished(g, seed)
        winners[r["winner"]] += 1
        commands += len(played)
        again = replay(seed, edition, played)
        assert engine.to_json(again) == engine.to_json(g), f"seed {seed}: replay differs"
    TIMINGS[edition] = time.perf_counter() - start
    assert winners["kennedy"] and winners["nixon"]  # both sides can win
    assert commands > GAMES * 100
    print(
        f"\n{edition}: {GAMES} games (+ replays) in {TIMINGS[edition]:.1f}s, "
        f"{commands / GAMES:.0f} commands/game"
    )


def test_playouts_use_the_optional_rules_and_every_card() -> None:
    assert {options_for(s, "gmt") for s in range(4)} == {
        (),
        ("vice_presidents",),
        ("restricted_positioning",),
        ("restricted_positioning", "vice_presidents"),
    }
    seen: set[int] = set()
    for seed in range(20):
        _, played = play_out(seed, "gmt")
        seen |= {
            int(c.split()[1])
            for _, c in played
            if c.split()[0] in ("event", "campaign", "advertise", "position") and len(c.split()) > 1
        }
    assert len(seen) > len(CARDS) // 2
