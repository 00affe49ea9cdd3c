"""Seeded random playouts: 200+ complete games per edition from random legal commands,
with invariants after every command (R1.4 spaces, card conservation, R3 bag, R5.1 hands,
JSON round trip) and an exact replay from (seed, commands) at the end."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

import engine
from engine.data import CARDS, ISSUES, REGIONS, STATES, deck_cards
from engine.state import GameState
from tests.engine.builders import all_cards
from tests.engine.playout import Move, options_for, play_out, replay

GAMES = 200
JSON_EVERY = 10
STATE_KEYS = sorted(STATES)
REGION_KEYS = sorted(REGIONS)
ISSUE_KEYS = sorted(ISSUES)
_DRAW = re.compile(r"^(Kennedy|Nixon) (?:draws (\d+) card|takes #\d+ )")
TIMINGS: dict[str, float] = {}


class Checker:
    """Invariants checked after every command; cheap enough for CI."""

    def __init__(self, seed: int, edition: str) -> None:
        self.seed = seed
        self.deck = sorted(deck_cards(edition))
        self.log_seen = 0
        self.got: dict[tuple[str, int], int] = {}  # (side, turn) -> cards drawn or taken
        self.decision: tuple[int, str, str | None] | None = None  # (depth, step, side) decided next
        self.action: tuple[int, str, str | None] | None = None
        self.drawn: set[str] = set()  # states where checks were drawn in the current action

    def __call__(self, g: GameState, move: Move, i: int) -> GameState | None:
        where = f"seed {self.seed}, command {i} {move}"
        self._spaces(g, where)
        assert sorted(all_cards(g)) == self.deck, f"cards not conserved: {where}"
        for side in ("kennedy", "nixon"):
            n = g["bag"][side]
            assert type(n) is int and n >= 0, f"bag {g['bag']}: {where}"  # R3
            assert g["momentum"][side] >= 0 and g["rest"][side] >= 0, where
        self._hands(g, where)
        self._declared_once(g, move, where)
        if i % JSON_EVERY == 0:
            h = engine.from_json(engine.to_json(g))
            assert h == g, f"JSON round trip differs: {where}"
            return h  # play on from the round-tripped copy
        return None

    @staticmethod
    def _spaces(g: GameState, where: str) -> None:
        # R1.4 holds by construction with signed counts; check every count is a plain int
        for space, keys in (("states", STATE_KEYS), ("media", REGION_KEYS),
                            ("issues", ISSUE_KEYS), ("endorsements", REGION_KEYS)):
            d = g[space]
            assert sorted(d) == keys, f"{space} keys: {where}"
            assert all(type(v) is int for v in d.values()), f"{space} values: {where}"
        assert sorted(g["issue_order"]) == ISSUE_KEYS, where
        assert set(g["token"].values()) <= set(STATE_KEYS), where

    def _declared_once(self, g: GameState, move: Move, where: str) -> None:
        """R7.4 / R16.3 [rulings]: once checks were drawn in a state, the same campaign
        action (or event placement) puts no more points there."""
        words = move[1].split()
        if self.decision != self.action:  # a new decision point: a new action
            self.action, self.drawn = self.decision, set()
        if (self.action is not None and self.action[1] in ("campaign", "place_support")
                and words[0] in ("support", "check")):
            assert words[1] not in self.drawn, f"points to {words[1]} after its checks were drawn: {where}"
            if words[0] == "check":
                self.drawn.add(words[1])
        stack = g["stack"]
        self.decision = (len(stack), stack[-1]["step"], stack[-1].get("side")) if stack else None

    def _hands(self, g: GameState, where: str) -> None:
        """R5.1: a hand never holds more than was dealt plus drawn or taken by events."""
        log = g["log"]
        for e in log[self.log_seen:]:
            m = _DRAW.match(e["text"]) if e["to"] is None else None
            if m:
                key = (m.group(1).lower(), e["turn"])
                self.got[key] = self.got.get(key, 0) + int(m.group(2) or 1)
        self.log_seen = len(log)
        top = g["stack"][-1]["step"] if g["stack"] else None
        for side in ("kennedy", "nixon"):
            n = len(g["hands"][side])
            assert n <= self.got.get((side, g["turn"]), 0), f"{side} holds {n} cards: {where}"
            if top == "choose_first" and g["turn"] in (1, 2, 3, 4, 5, 7, 8):
                assert n == (6 if g["turn"] <= 5 else 7), f"{side} dealt {n}: {where}"


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
        g, played = play_out(seed, edition, Checker(seed, edition))
        r = _finished(g, seed)
        winners[r["winner"]] += 1
        commands += len(played)
        again = replay(seed, edition, played)
        assert engine.to_json(again) == engine.to_json(g), f"seed {seed}: replay differs"
    TIMINGS[edition] = time.perf_counter() - start
    assert winners["kennedy"] and winners["nixon"]  # both sides can win
    assert commands > GAMES * 100
    print(f"\n{edition}: {GAMES} games (+ replays) in {TIMINGS[edition]:.1f}s, "
          f"{commands / GAMES:.0f} commands/game")


def test_playouts_use_the_optional_rules_and_every_card() -> None:
    assert {options_for(s, "gmt") for s in range(4)} == {
        (), ("vice_presidents",), ("restricted_positioning",), ("restricted_positioning", "vice_presidents")}
    seen: set[int] = set()
    for seed in range(20):
        _, played = play_out(seed, "gmt")
        seen |= {int(c.split()[1]) for _, c in played
                 if c.split()[0] in ("event", "campaign", "advertise", "position") and len(c.split()) > 1}
    assert len(seen) > len(CARDS) // 2
