"""The public API (issue contract): apply never mutates its argument, JSON round trip with a
schema version, who decides, legal commands per side, views, result."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.state import GameState
from tests.engine.builders import at_step, play
from tests.engine.playout import play_out


def _states(n_games: int = 4) -> list[GameState]:
    out: list[GameState] = []

    def grab(g: GameState, move: object, i: int) -> None:
        if i % 17 == 0 and engine.active_sides(g):
            out.append(engine.copy_state(g))

    for seed in range(n_games):
        play_out(500 + seed, "gmt" if seed % 2 else "zman", grab)
    return out


def test_apply_never_mutates_its_argument() -> None:
    rnd = random.Random(1)
    for g in _states():
        before = engine.to_json(g)
        side = rnd.choice(sorted(engine.active_sides(g)))
        cmd = rnd.choice(engine.legal_commands(g, side))
        g2 = engine.apply(g, side, cmd)
        assert engine.to_json(g) == before
        assert g2 is not g and g2["seq"] == g["seq"] + 1
        with pytest.raises(engine.CommandError):
            engine.apply(g, side, "fly to the moon")
        assert engine.to_json(g) == before


def test_apply_and_apply_in_place_agree() -> None:
    g = engine.new_game(3)
    (side,) = engine.active_sides(g)
    a = engine.apply(g, side, "first kennedy")
    engine.apply_in_place(g, side, "first kennedy")
    assert a == g


def test_json_round_trip_and_schema_version() -> None:
    for g in _states(2):
        text = engine.to_json(g)
        assert json.loads(text)["schema"] == engine.SCHEMA_VERSION == 1
        h = engine.from_json(text)
        assert h == g and engine.to_json(h) == text


@pytest.mark.parametrize("text", ['{"schema": 2}', "{}", "[]", '"game"'])
def test_from_json_refuses_an_unknown_schema(text: str) -> None:
    with pytest.raises(ValueError, match="schema"):
        engine.from_json(text)


def test_waiting_side_has_no_legal_commands() -> None:
    g = engine.new_game(9)
    (side,) = engine.active_sides(g)
    other = "nixon" if side == "kennedy" else "kennedy"
    assert engine.legal_commands(g, other) == []
    assert engine.legal_commands(g, side) == ["first kennedy", "first nixon"]
    assert engine.view(g, other)["legal"] == []
    assert engine.decision(g, other).startswith(f"Waiting for {side.title()}")
    with pytest.raises(ValueError, match="unknown side"):
        engine.legal_commands(g, "lodge")


def test_both_sides_active_during_the_strategy_phase_and_debate_picks() -> None:
    g = at_step(
        [{"step": "turn", "stage": "strategy", "i": 10}], hands={"kennedy": [40], "nixon": [58]}
    )
    assert engine.active_sides(g) == {"kennedy", "nixon"}
    assert engine.legal_commands(g, "kennedy") == ["strategy 40"]
    assert engine.legal_commands(g, "nixon") == ["strategy 58"]
    assert engine.view(g, None)["active"] == ["kennedy", "nixon"]
    g = at_step(
        [{"step": "debates", "stage": "start"}],
        turn=6,
        phase="debates",
        stacks={"kennedy": [55], "nixon": [58]},
    )
    assert engine.active_sides(g) == {"kennedy", "nixon"}


def test_view_shapes() -> None:
    g = engine.new_game(2)
    obs = engine.view(g, None)
    assert "hand" not in obs and obs["legal"] == []
    json.dumps(obs)  # serialisable
    for side in ("kennedy", "nixon"):
        v = engine.view(g, side)
        assert v["hand"] == sorted(g["hands"][side])
        assert v["hand_sizes"] == {"kennedy": 6, "nixon": 6}
        assert v["legal"] == engine.legal_commands(g, side)
        assert "rng" not in v and "deck" not in v
    with pytest.raises(ValueError):
        engine.view(g, "observer")


def test_result_is_none_until_the_end() -> None:
    g = engine.new_game(2)
    assert engine.result(g) is None
    g, _ = play_out(2, "zman")
    r = engine.result(g)
    assert r is not None and r["winner"] in ("kennedy", "nixon")
    assert set(r["electoral_votes"]) == {"kennedy", "nixon"}
    assert r["tie_break"] in (None, "states", "support", "kennedy")


def test_unimplemented_events_lists_deck_cards_without_events() -> None:
    for edition, n in (("zman", 91), ("gmt", 97)):
        missing = engine.unimplemented_events(edition)
        assert missing == sorted(missing) and set(missing) <= set(range(1, n + 1))
        for core in (1, 2, 6, 7, 14, 15, 16, 17, 22, 35, 56, 76):  # this cards
            assert core not in missing


def test_unimplemented_events_are_not_offered_but_cards_are_playable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.events import EVENTS
    from tests.engine.builders import action_position

    card = 40
    monkeypatch.delitem(EVENTS, card, raising=False)  # as if #40's event were not written yet
    assert card in engine.unimplemented_events("zman")
    g = action_position("kennedy", [card], momentum={"kennedy": 2, "nixon": 2})
    legal = engine.legal_commands(g, "kennedy")
    assert f"event {card}" not in legal and f"campaign {card}" in legal
    assert f"campaign {card} preempt" not in legal  # nothing to preempt (R6.8)
    g = play(g, "kennedy", f"position {card}", "done")
    assert g["stack"][-1]["step"] != "trigger"  # nothing to trigger (R6.7)
    assert g["discard"][-1] == card


def test_the_side_that_waits_reads_the_question_as_a_player_names_it() -> None:
    """It read 'Waiting for Kennedy (choose first).', the step's key."""
    g = engine.new_game(2)  # Kennedy won the first initiative (R5.2)
    assert engine.active_sides(g) == {"kennedy"}
    assert engine.decision(g, "nixon") == "Waiting for Kennedy (who goes first)."
