"""`engine.public_board`: the board's public spaces as signed counts, exactly as `view` shows
them to an observer (R17.1) — at every step of seeded games, both editions, the options."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.schema import GameState
from engine.view import SpaceView


def _signed(space: SpaceView) -> int:
    return {"kennedy": 1, "nixon": -1}.get(space["side"] or "", 0) * space["cubes"]


def _from_the_view(g: GameState) -> dict[str, object]:
    v = engine.view(g, None)
    return {
        "states": {s: _signed(sp) for s, sp in v["states"].items()},
        "media": {r: _signed(sp) for r, sp in v["media"].items()},
        "issues": {i["issue"]: _signed(i) for i in v["issues"]},
        "issue_order": [i["issue"] for i in v["issues"]],
        "endorsements": {r: _signed(sp) for r, sp in v["endorsements"].items()},
        "momentum": dict(v["momentum"]),
        "tokens": dict(v["tokens"]),
    }


@pytest.mark.parametrize(
    ("seed", "edition", "options"),
    [(11, "zman", ()), (12, "gmt", ()), (13, "gmt", engine.OPTIONS)],
)
def test_the_public_board_is_what_an_observer_sees_at_every_step(
    seed: int, edition: str, options: tuple[str, ...]
) -> None:
    rnd = random.Random(seed)
    g = engine.new_game(seed, edition=edition, options=list(options))
    steps = 0
    while engine.active_sides(g):
        board = engine.public_board(g)
        expected = _from_the_view(g)
        assert board == expected
        assert json.dumps(board) == json.dumps(expected)  # key order too
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
        steps += 1
    assert steps > 100 and engine.public_board(g) == _from_the_view(g)


def test_the_public_board_is_a_copy() -> None:
    g = engine.new_game(3)
    board = engine.public_board(g)
    board["momentum"]["kennedy"] += 5
    board["media"][next(iter(board["media"]))] = 9
    assert engine.public_board(g) == _from_the_view(g)
