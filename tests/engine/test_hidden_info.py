"""Hidden information (R17): non-interference. Permuting what a side cannot see — the
opponent's hand (with deck cards), the deck order, the RNG state, the opponent's unrevealed
strategy stack or debate hand, a secret debate pick — leaves that side's view unchanged."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine.state import GameState, copy_state
from tests.engine.builders import at_step, play
from tests.engine.playout import play_out

SIDES = ("kennedy", "nixon")


def snapshots(edition: str, games: int = 25, every: int = 23) -> list[GameState]:
    """Copies of states reached by random playouts, about one in ``every`` commands."""
    out: list[GameState] = []
    for seed in range(games):
        rnd = random.Random(f"snap:{edition}:{seed}")

        def grab(g: GameState, move: Any, i: int, rnd: random.Random = rnd) -> None:
            if rnd.randrange(every) == 0:
                out.append(copy_state(g))

        play_out(1000 + seed, edition, grab)
    return out


def dump(g: GameState, side: str | None) -> str:
    return json.dumps(engine.view(g, side), sort_keys=True)


def _swap_with_deck(g: GameState, cards: list[int], rnd: random.Random) -> list[int]:
    """Replace ``cards`` by as many drawn from a shuffled pool of them and the deck."""
    pool = list(cards) + g["deck"]
    rnd.shuffle(pool)
    g["deck"] = pool[len(cards) :]
    return pool[: len(cards)]


def hide(g: GameState, viewer: str | None, rnd: random.Random) -> GameState:
    """A state that ``viewer`` cannot tell apart from ``g`` (R17.2, R17.3)."""
    h = copy_state(g)
    hidden = [s for s in SIDES if s != viewer]
    for s in hidden:
        h["hands"][s] = _swap_with_deck(h, h["hands"][s], rnd)
        h["stacks"][s] = _swap_with_deck(h, h["stacks"][s], rnd)
        d = h["debate"]
        if d is not None:
            d["hands"][s] = sorted(_swap_with_deck(h, d["hands"][s], rnd))
        top = h["stack"][-1] if h["stack"] else None
        if top and top["step"] == "debate_pick" and s in top["picks"]:
            card = top["picks"][s][1]
            if d is not None and card not in d["revealed"]:
                (new,) = _swap_with_deck(h, [card], rnd)
                top["picks"][s] = [s, new, rnd.choice(SIDES)]
    rnd.shuffle(h["deck"])
    rnd.shuffle(h["endorse_deck"])
    h["rng"] = {"key": f"{rnd.getrandbits(256):064x}", "n": rnd.randrange(10_000)}
    return h


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_r17_views_do_not_depend_on_what_the_side_cannot_see(edition: str) -> None:
    states = snapshots(edition)
    assert len(states) > 100
    rnd = random.Random(edition)
    steps = set()
    for g in states:
        steps.add(g["stack"][-1]["step"] if g["stack"] else "over")
        for viewer in (*SIDES, None):
            h = hide(g, viewer, rnd)
            assert dump(h, viewer) == dump(g, viewer), (
                f"{viewer} view changed at {g['stack'][-1:]} (turn {g['turn']})"
            )
    assert {"action", "campaign", "strategy"} <= steps


@pytest.mark.parametrize("edition", ["zman", "gmt"])
def test_r17_2_the_opponent_hand_never_appears_in_a_view(edition: str) -> None:
    for g in snapshots(edition, games=8, every=15):
        assert "hand" not in engine.view(g, None) and "stack" not in engine.view(g, None)
        assert "hand" not in (engine.view(g, None)["debate"] or {})
        for side in SIDES:
            v = engine.view(g, side)
            assert v["hand"] == sorted(g["hands"][side])
            assert v["stack"] == g["stacks"][side]
            other = "nixon" if side == "kennedy" else "kennedy"
            for e in v["log"]:
                assert e["to"] in (None, side) or g["result"] is not None
            if g["hands"][other] or g["stacks"][other]:
                assert engine.view(g, side)["hand_sizes"][other] == len(g["hands"][other])


def test_r17_2_secret_debate_pick_is_hidden_until_both_have_chosen() -> None:
    g = at_step(
        [{"step": "debates", "stage": "start"}],
        turn=6,
        phase="debates",
        stacks={"kennedy": [55, 36], "nixon": [58, 29]},
        bag={"kennedy": 5, "nixon": 0},
    )
    g = play(g, "nixon", "debate 58")
    h = copy_state(g)
    h["stack"][-1]["picks"]["nixon"] = ["nixon", 29, "nixon"]
    h["debate"]["hands"]["nixon"] = [58]
    for viewer in ("kennedy", None):
        assert dump(h, viewer) == dump(g, viewer)
    assert dump(h, "nixon") != dump(g, "nixon")  # Nixon sees his own pick


def test_r17_2_strategy_stack_and_hand_contents_do_not_show_in_who_is_deciding() -> None:
    # Nixon holds only Gathering Momentum cards (R11.2): he still has a decision to make
    frames = [
        {"step": "choose_first", "side": "kennedy"},
        {"step": "strategy", "need": 1, "picked": {"kennedy": 0, "nixon": 0}},
    ]
    a = at_step(frames, turn=2, hands={"kennedy": [40], "nixon": [14]})
    b = at_step(frames, turn=2, hands={"kennedy": [40], "nixon": [58]})
    assert [e for e in engine.view(a, "kennedy")["log"] if e["to"] is None] == [
        e for e in engine.view(b, "kennedy")["log"] if e["to"] is None
    ]
    va, vb = engine.view(a, "kennedy"), engine.view(b, "kennedy")
    assert (va["active"], va["decision"]) == (vb["active"], vb["decision"])


def test_r17_revealed_hand_shows_in_the_receiver_view_only() -> None:
    # #56 Opposition Research: Kennedy's hand is revealed to Nixon from then on
    from tests.engine.builders import action_position

    g = action_position("nixon", [56], other_hand=[40, 41, 55], momentum={"kennedy": 0, "nixon": 0})
    before_k = engine.view(g, "kennedy")
    g = play(g, "nixon", "event 56")
    vn = engine.view(g, "nixon")
    assert vn["revealed"][-1]["cards"] == [40, 41, 55] and vn["revealed"][-1]["side"] == "kennedy"
    assert engine.view(g, "kennedy")["revealed"] == before_k["revealed"] == []
    assert "revealed" not in engine.view(g, None)


def test_once_the_game_is_over_every_log_line_is_shown_to_both() -> None:
    """Nothing is secret after the result: the final log carries both sides' private lines."""
    g = engine.new_game(5)
    rnd = random.Random(5)
    while engine.active_sides(g):
        side = rnd.choice(sorted(engine.active_sides(g)))
        engine.apply_in_place(g, side, rnd.choice(engine.legal_commands(g, side)))
    assert any(e["to"] == "nixon" for e in g["log"]) and any(e["to"] == "kennedy" for e in g["log"])
    for side in SIDES:
        assert [e["text"] for e in engine.view(g, side)["log"]] == [e["text"] for e in g["log"]]
