"""The whole deck of each edition (issue 4): every card has an implemented event, and seeded
random event-preferring playouts resolve every card's event at least once across the run.

A card whose event was resolved leaves the game or becomes persistent (R6.3, R6.4), so the
cards in ``removed`` and on the persistent spaces at the end of a game are exactly the cards
whose events it resolved (played, triggered R6.7, or via #38 / #58). Invariants are checked
after every command: card conservation (R1.7, R16.6), bag never negative (R3), all 537 EV
accounted for (R1.2, R13.6, R14.1) and a lossless JSON round trip.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.data import STATES, deck_cards
from engine.phases.election import tally
from engine.state import GameState
from tests.engine.builders import all_cards

GAMES = {"zman": 24, "gmt": 24}
OPTIONS = [(), ("vice_presidents",), ("restricted_positioning",), ("vice_presidents", "restricted_positioning")]


def test_every_zman_card_has_an_event() -> None:
    assert engine.unimplemented_events("zman") == []


def test_every_gmt_card_has_an_event() -> None:
    assert engine.unimplemented_events("gmt") == []


def _choose(r: random.Random, legal: list[str]) -> str:
    """Prefer events and triggers; avoid ending choices early most of the time."""
    pref = [c for c in legal if c.split()[0] in ("event", "trigger")]
    if pref and r.random() < 0.95:
        return r.choice(pref)
    if len(legal) > 1 and "done" in legal and r.random() < 0.8:
        return r.choice([c for c in legal if c != "done"])
    return r.choice(legal)


def _check(g: GameState, deck: list[int], cmd: str, full: bool) -> None:
    assert sorted(all_cards(g)) == deck, f"card conservation broken after {cmd!r}"
    assert min(g["bag"].values()) >= 0, f"bag below zero after {cmd!r}"
    if full:
        t = tally(g)
        undecided = sum(STATES[s].ev for s, v in g["states"].items() if v == 0)
        nobody = sum(STATES[s].ev for s in t["unpledged"])
        assert t["electoral_votes"]["kennedy"] + t["electoral_votes"]["nixon"] + undecided + nobody == 537
        assert engine.from_json(engine.to_json(g)) == g, f"JSON round trip differs after {cmd!r}"


def _playout(seed: int, edition: str) -> tuple[GameState, set[int]]:
    options = OPTIONS[seed % 4] if edition == "gmt" else ()
    g = engine.new_game(seed, edition=edition, options=options)
    deck = sorted(deck_cards(edition))
    r = random.Random(f"{edition}-{seed}")
    for i in range(30_000):
        if engine.result(g) is not None:
            break
        side = r.choice(sorted(engine.active_sides(g)))
        cmd = _choose(r, engine.legal_commands(g, side))
        engine.apply_in_place(g, side, cmd)
        _check(g, deck, cmd, full=i % 5 == 0)
    resolved = set(g["removed"]) | {c for cards in g["persistent"].values() for c in cards}
    return g, resolved


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_playouts_resolve_every_event(edition: str) -> None:
    seen: set[int] = set()
    for seed in range(GAMES[edition]):
        g, resolved = _playout(seed, edition)
        res = engine.result(g)
        assert res is not None, f"{edition} seed {seed} did not finish"
        ev = res["electoral_votes"]
        assert ev["kennedy"] + ev["nixon"] + sum(STATES[s].ev for s in res["unpledged"]) == 537
        seen |= resolved
    missing = sorted(set(deck_cards(edition)) - seen)
    assert missing == [], f"{edition}: events never resolved in {GAMES[edition]} playouts: {missing}"
