"""The whole deck of each edition (issue 4): every card has an implemented event, and seeded
random event-preferring playouts resolve every card's event at least once across the run.

A card whose event was resolved leaves the game or becomes persistent (R6.3, R6.4), so the
cards in ``removed`` and on the persistent spaces at the end of a game are exactly the cards
whose events it resolved (played, triggered R6.7, or via #38 / #58). Invariants are checked
after every command by the shared `tests.engine.playout.Checker` (card conservation, R3 bag,
537 EV, the R7.4/R16.3 rulings, lossless JSON round trips).
"""

from __future__ import annotations

import pytest

import engine
from engine.data import STATES, deck_cards
from tests.engine.playout import Checker, play_out, prefer_events

GAMES = {"zman": 24, "gmt": 24}
OPTIONS = [
    (),
    ("vice_presidents",),
    ("restricted_positioning",),
    ("vice_presidents", "restricted_positioning"),
]


def test_every_zman_card_has_an_event() -> None:
    assert engine.unimplemented_events("zman") == []


def test_every_gmt_card_has_an_event() -> None:
    assert engine.unimplemented_events("gmt") == []


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_playouts_resolve_every_event(edition: str) -> None:
    seen: set[int] = set()
    for seed in range(GAMES[edition]):
        options = OPTIONS[seed % 4] if edition == "gmt" else ()
        g, _ = play_out(
            seed,
            edition,
            Checker(seed, edition, json_every=5),
            policy=prefer_events(0.95, 0.8),
            options=options,
            rng_key=f"{edition}-{seed}",
            limit=30_000,
        )
        res = engine.result(g)
        assert res is not None, f"{edition} seed {seed} did not finish"
        ev = res["electoral_votes"]
        assert ev["kennedy"] + ev["nixon"] + sum(STATES[s].ev for s in res["unpledged"]) == 537
        # a resolved event leaves the game or becomes persistent (R6.3, R6.4)
        seen |= set(g["removed"]) | {c for cards in g["persistent"].values() for c in cards}
    missing = sorted(set(deck_cards(edition)) - seen)
    assert missing == [], (
        f"{edition}: events never resolved in {GAMES[edition]} playouts: {missing}"
    )
