"""Seeded random playouts that prefer playing and triggering events (issue 3, cards 1-48).

Both editions (GMT games with odd seeds also use the Vice President option, R15.1), driven by
the one playout driver with the shared invariant checker (`tests.engine.playout.Checker`:
card conservation, R3 bag, 537 EV, the R7.4/R16.3 rulings, JSON round trips). Every game
must reach a result (R13.6).
"""

from __future__ import annotations

import pytest

import engine
from engine.data import STATES
from tests.engine.playout import Checker, play_out, prefer_events

GAMES = 30


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_event_playouts_reach_a_result(edition: str) -> None:
    played: set[int] = set()
    for seed in range(GAMES):
        options = ("vice_presidents",) if edition == "gmt" and seed % 2 else ()
        g, moves = play_out(
            seed,
            edition,
            Checker(seed, edition, json_every=5, ev_every=1),
            policy=prefer_events(0.9),
            options=options,
            rng_key=seed * 7919 + len(edition),
            limit=20_000,
        )
        played |= {int(c.split()[1]) for _, c in moves if c.startswith("event ")}
        res = engine.result(g)
        assert res is not None, f"{edition} seed {seed} did not finish"
        ev = res["electoral_votes"]
        nobody = sum(STATES[s].ev for s in res["unpledged"])
        assert ev["kennedy"] + ev["nixon"] + nobody == 537
        assert res["winner"] in ("kennedy", "nixon")
    mine = set(range(1, 49))
    assert len(mine & played) >= 40, (
        f"too few of cards 1-48 played as events: {sorted(mine & played)}"
    )
